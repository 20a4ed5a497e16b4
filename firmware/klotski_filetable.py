"""A Klotski table read from its cache file instead of the heap: where a
runtime cannot hold a table beside itself (CircuitPython), a solver made with
``klotski.Solver(..., search=False)`` (the ranker's tables alone) gets its
table from ``attach``: the file ``flash`` put on the board (or the device wrote)
(``klotski_cache``'s format), checked as ``klotski_cache.load`` checks it
(header, length, CRC-32 read in 256-byte chunks, the rank <-> layout probe),
then kept open and read a word at a time (``FileWords``) by the solver's
answers.  ``attach`` leaves a bad file in place: on CircuitPython it stays (the
device cannot build another).  A runtime that builds its tables (MicroPython)
reads a table file that is there the same way, and loads this module only then
(klotski_game removes a bad file there and builds the table)."""

import gc
import sys

import klotski_cache as cache
from asciitext import first_bad

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# The heap a solver's setup needs here, measured on the virtual CircuitPython
# Pico: the least heap free (klotski_setup loaded, as at the list before any
# setup) with which each shipped set's setup and attach still finished, found
# by halving a ballast of 480-byte blocks: 0V4H6S 13.3 KB, 1V4H4S 17.8 KB,
# 1V3H6S 18.0 KB, 4V1H4S 21.4 KB, 2V2H6S and 2V3H4S 22.5 KB, 3V2H4S 24,070 B
# (the most); SETUP_SPARE is that and 1.5 KB for the ticks' own temporaries.
# A ready solver drops the setup's module and the next set's solver imports
# it again: SETUP_CODE more then (its import measured there: 6,832 B).
SETUP_SPARE = const(25600)
SETUP_CODE = const(7168)
# 3V2H4S more: its setup holds the largest arrays in one piece (its key table,
# 5,376 B, with its entries, 7,792 B, and 4 KB more in arrays of 0.6-1.3 KB),
# and after the other games the heap is in pieces (29 KB free at the list, the
# largest block 16.1-16.3 KB, the rest in holes under 1.3 KB): there it failed
# every time (36.3-36.7 KB free with the old solver let go), out of one piece
# for its entries or, with room held for them, for its node arrays.  The
# other sets' setups finished on that heap.
WIDE_SET = (3, 2, 4)
WIDE_SPARE = const(8192)


def heap_free():
    """gc.mem_free() where the runtime has it (MicroPython, CircuitPython), else
    -1 (unknown: CPython)."""
    return gc.mem_free() if hasattr(gc, "mem_free") else -1


def table_bytes(d, piece_set):
    """The size of the table file ``d`` holds for ``piece_set`` ((nv, nh, ns)),
    0 when there is none; whether it is sound only ``attach`` can tell."""
    try:
        f = d.open("klotski_%d%d%d.tbl" % piece_set, "rb")
    except OSError:
        return 0
    try:
        return f.seek(0, 2)
    finally:
        f.close()


def can_solve(task, piece_set):
    """For klotski_game's ``SolverTask`` (``task``): True when its cache holds a
    table for ``piece_set`` and the setup of a solver that reads it fits the
    heap free now, with what the solver held now takes (it goes first), and
    the setup's module when it is to be imported again (3V2H4S: more,
    ``WIDE_SPARE``)."""
    if task.cache is None or table_bytes(task.cache, piece_set) <= 0:
        return False
    gc.collect()
    free = heap_free()
    if task.solver is not None:
        free += task.held
    need = SETUP_SPARE if "klotski_setup" in sys.modules else SETUP_SPARE + SETUP_CODE
    if piece_set == WIDE_SET:
        need += WIDE_SPARE
    return free < 0 or need <= free


def drop(task):
    """The task's solver goes: its table file closed; the heap free noted (what
    the next solver will hold is measured from it), with the setup's module
    when it is loaded (the setup drops it: else what the solver holds would
    come out too small, even below zero).  The task's answer (the old
    solver) is let go first, or it would still be counted."""
    s = task.solver
    task.solver = task.answer = None
    if s is not None and s.table is not None:
        s.table.close()
    s = None
    gc.collect()
    task.free_before = heap_free()
    if "klotski_setup" in sys.modules:
        task.free_before += SETUP_CODE
    task.held = 0


def attach_task(task):
    """``attach`` for the task's solver (its setup done); on "ok" the heap it
    holds is noted (``task.held``), else it is dropped (a toast for a bad
    file).  Returns the status."""
    st = attach(task.cache, task.solver)
    if st == "ok":
        gc.collect()
        task.held = task.free_before - heap_free()
    else:
        task.solver = None
        if st != "missing":
            task.ctx.toast("TABLE " + st.upper() + ": NO HINTS", 45)
    return st


def _header(line, solver):
    """The header line's fields if they match ``solver`` (as klotski_cache.load
    checks them), else the status ("corrupt" or "stale")."""
    parts = line.decode().split(" ") if 10 < len(line) < 160 and not first_bad(line) else ()
    if len(parts) == 9 and parts[0] != cache.MAGIC and parts[0].startswith("KTC"):
        return "stale"                      # another version of this format
    if len(parts) != 9 or parts[0] != cache.MAGIC:
        return "corrupt"
    nums = (int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4]), int(parts[5]))
    if nums != (solver.nv, solver.nh, solver.ns, solver.size, solver.table_nbytes):
        return "stale"
    return parts


def _probe_ok(solver, parts):
    """The header's rank <-> layout probe is this solver's."""
    k = int(parts[7])
    text = parts[8].strip()
    if k != solver.size // 2 or cache.layout_text(solver.cells_of(k)) != text:
        return False
    return solver.rank_of(bytearray(text.replace("/", "").encode())) == k


class FileWords:
    """A table's words read from its open cache file (``t[i]``, as the array
    of a table in memory): 2 or 4 bytes at ``start + i * size``.  A hint
    reads a few dozen."""

    def __init__(self, f, start, size):
        self.f = f              # the table file, open
        self.start = start      # the first word's offset (after the header line)
        self.size = size        # bytes per word
        self.buf = bytearray(size)

    def __getitem__(self, i):
        f = self.f
        f.seek(self.start + i * self.size)
        f.readinto(self.buf)
        return int.from_bytes(self.buf, "little")

    def close(self):
        self.f.close()


# The table bytes a slice of ``Check`` runs through CRC-32: ~10 ms on the
# virtual Pico; the file's opening and header (~8 ms) and the probe (~9 ms)
# are slices of their own: 2V2H6S's 58 KB file in five slices, the others'
# in three or four.  The whole check of that file in one slice was 34 ms
# (the opening with the first 24 KB, 19 ms).
_CHECK_BYTES = const(24576)


class Check:
    """``attach`` in slices (``step()``), for a caller that keeps its ticks
    short (klotski_game, one slice a tick): the file opened and its header
    read, its CRC-32 ``_CHECK_BYTES`` of the table a slice, then the rank <->
    layout probe.  ``status`` is None until the check ends, then what
    ``attach`` returns; on "ok" the solver has its table.  ``close()`` gives
    a check under way up (its file closed)."""

    def __init__(self, d, solver):
        self.d = d
        self.solver = solver
        self.status = None       # "ok", "missing", "corrupt", "stale" once known
        self.f = None            # the table file, open while the check runs
        self.parts = None        # the header's fields
        self.start = 0           # the table's first byte in the file
        self.left = solver.table_nbytes   # bytes still to run through the CRC (-1: it was right)
        self.crc = 0
        self.buf = memoryview(bytearray(256))

    def step(self):
        """One slice; True once ``status`` is known."""
        if self.status is None:
            try:
                st = self._slice()
            except (ValueError, UnicodeError, OSError, IndexError):
                st = "corrupt"
            except Exception:           # e.g. klotski.LayoutError from a foreign probe
                st = "stale"
            if st is not None:
                self._end(st)
        return self.status is not None

    def _slice(self):
        # the check's next slice: its status once it has one, else None
        f = self.f
        solver = self.solver
        if f is None:
            try:
                f = self.f = self.d.open(cache.name_for(solver), "rb")
            except OSError:
                return "missing"
            parts = _header(f.readline(), solver)
            if isinstance(parts, str):
                return parts
            if cache.crc32 is None:
                return "corrupt"
            self.parts = parts
            self.start = f.tell()
            return None
        if self.left < 0:                 # the CRC is through and right: the probe
            return "ok" if _probe_ok(solver, self.parts) else "stale"
        buf = self.buf
        crc = self.crc
        left = self.left
        most = left - _CHECK_BYTES
        while left > most and left > 0:
            part = buf[:left] if left < 256 else buf
            got = f.readinto(part)
            if not got:
                return "corrupt"
            crc = cache.crc32(part if got == 256 else part[:got], crc)   # (no garbage a chunk)
            left -= got
        self.crc = crc
        self.left = left
        if left == 0:
            if f.read(1) or "%08x" % (crc & 0xFFFFFFFF) != self.parts[6]:
                return "corrupt"
            self.left = -1
        return None

    def _end(self, status):
        self.status = status
        f = self.f
        self.f = None
        if status != "ok":
            if f is not None:
                f.close()
            return
        solver = self.solver
        words = FileWords(f, self.start, 2 if solver.distances.word_bits == 16 else 4)
        solver.distances.planes = solver.table = words
        solver.finish()

    def close(self):
        if self.f is not None:
            self.f.close()
            self.f = None


def attach(d, solver):
    """Give a solver made with ``search=False`` (its setup done) the table in
    the cache, read from the file as it is needed (``FileWords``).  Returns
    "ok" (the solver is finished and keeps the file open), "missing",
    "corrupt" or "stale" (as ``load``; the file stays).  Needs crc32.  The
    whole ``Check`` at once."""
    c = Check(d, solver)
    while not c.step():
        pass
    return c.status
