"""Klotski solver tables cached on flash, so the next hint on a piece set is instant.

One file per piece set, ``klotski_<V><H><S>.tbl`` in the save directory:
a header line ``KTC2 <nv> <nh> <ns> <size> <nbytes> <checksum> <probe rank> <probe layout>``
and then the solver's table bytes (its array's memory, little-endian).  Written as ``<name>.new`` (flushed), then
the old file is removed and ``.new`` renamed over it, so a cut at any byte
leaves either the old file, no file, or an orphan ``.new`` (overwritten next
time); a truncated or damaged file fails the length/checksum test and is
ignored (and removed).  A cache is only a cache: any failure means "build the
table again".

What this relies on in ``klotski.Solver``:
- ``solver.table`` is an array (``solver.table_nbytes`` bytes) holding the
  complete distance table once ``step()`` has returned True; its bytes are all
  a finished solver needs (``best_move`` / ``distance`` / ``solution`` read
  only it and the geometry tables that the constructor rebuilds);
- ``solver.finish()`` marks a table as finished (``step`` then returns True)
  and drops what only the search uses;
- ``solver.nv / nh / ns / size``, ``rank_of(cells)``, ``cells_of(rank)``.
If the solver's rank encoding changes (a new ranking, mirror symmetry), the
size or the probe (a rank and the layout it decodes to, checked both ways on
load) no longer match: the file is reported "stale" and rebuilt.

``Dir(root)`` is the file access (MicroPython or CPython ``open``/``os``);
tests pass a subclass whose writes fail with ENOSPC.

``klotski_filetable.attach`` is ``load`` for a solver that reads its table
from the file instead of holding it (CircuitPython), with the same checks.
"""

try:
    from binascii import crc32
except ImportError:          # a port built without it: the slower Fletcher sum
    crc32 = None
import savestore as saves
from asciitext import first_bad

MAGIC = "KTC2"
try:
    from errno import ENOSPC    # CPython; MicroPython's errno module has no ENOSPC name
except ImportError:
    ENOSPC = 28                 # MicroPython's number (py/mperrno.h)


def name_for(solver):
    return "klotski_%d%d%d.tbl" % (solver.nv, solver.nh, solver.ns)


def name_for_set(piece_set):
    """The file name of the table of ``piece_set`` ((nv, nh, ns))."""
    return "klotski_%d%d%d.tbl" % piece_set


def has_table(d, piece_set):
    """``d`` holds a table file for ``piece_set``; whether it is sound only
    reading it (``load``, ``klotski_filetable.attach``) tells."""
    try:
        d.open(name_for_set(piece_set), "rb").close()
    except OSError:
        return False
    return True


class Dir(saves.OsFs):
    """Files in one directory (created if missing): the saves' file access
    (``open``, ``write``, ``rename``, ``remove``, ``sync``)."""


def dir_for(ctx):
    """The cache directory of a game context, ``ctx.cache_dir`` (the runtime's
    save directory); None (no caching) when the saves live in memory (tests,
    the VM harness)."""
    root = ctx.cache_dir
    if root is None:
        return None
    try:
        return Dir(root)
    except Exception:
        return None


def _layout_text(cells):
    s = bytes(cells).decode()
    return s[0:4] + "/" + s[4:8] + "/" + s[8:12] + "/" + s[12:16] + "/" + s[16:20]


def checksum(buf):
    """CRC-32 of a buffer's bytes as 8 hex digits (binascii: ~0.6 M fuel for the
    17 KB classic table; the pure-Python Fletcher sum of savestore.py, over the
    array's items, would take ~35 M)."""
    if crc32 is None:
        return saves.checksum(buf)
    return "%08x" % (crc32(buf) & 0xFFFFFFFF)


def _probe(solver):
    return solver.size // 2


def header(solver):
    """The header line (bytes) for a finished solver."""
    table = solver.table
    k = _probe(solver)
    return ("%s %d %d %d %d %d %s %d %s\n" % (
        MAGIC, solver.nv, solver.nh, solver.ns, solver.size, solver.table_nbytes,
        checksum(table), k, _layout_text(solver.cells_of(k)))).encode()


def save(d, solver):
    """Write the finished table of ``solver`` atomically.  Raises OSError (a full
    flash is errno 28, ENOSPC) after removing the partial temp file."""
    w = Writer(d, solver)
    while not w.step():
        pass


class Writer:
    """``save`` in three steps, one per call of ``step()``, so a game can give
    each a tick of its own (the whole write is ~30 ms on the virtual Pico;
    a step ~10 ms): the header (its checksum) and the temp file opened; the
    table written, flushed and closed; the old file replaced.  A cut between
    steps leaves what a cut inside ``save`` leaves (an orphan ``.new`` at
    most)."""

    def __init__(self, d, solver):
        self.d = d
        self.solver = solver
        self.name = name_for(solver)
        self.tmp = self.name + ".new"
        self.f = None
        self.stage = 0

    def step(self):
        """The next step; True when the file is in place.  Raises OSError (as
        ``save``) after closing and removing the temp file."""
        d = self.d
        stage = self.stage
        try:
            if stage == 0:
                self.f = d.open(self.tmp, "wb")
                self.f.write(header(self.solver))
            elif stage == 1:
                f = self.f
                f.write(self.solver.table)
                f.flush()
                self.f = None
                f.close()
                d.sync()
            else:
                d.remove(self.name)
                d.rename(self.tmp, self.name)
        except OSError:
            self.abort()
            raise
        self.stage = stage + 1
        return stage == 2

    def abort(self):
        """Drop an unfinished write: the temp file closed and removed."""
        f = self.f
        self.f = None
        if f is not None:
            try:
                f.close()
            except OSError:
                pass
        self.d.remove(self.tmp)


def _zero(table):
    for i in range(len(table)):
        table[i] = 0


def load(d, solver):
    """Fill a fresh solver's table from the cache.  Returns "ok" (the solver is
    finished), "missing", "corrupt" (bad header, length or checksum: the file is
    removed) or "stale" (written by a different solver encoding: removed).  On
    anything but "ok" the table is left all zero (as a fresh solver has it)."""
    name = name_for(solver)
    table = solver.table
    try:
        f = d.open(name, "rb")
    except OSError:
        return "missing"
    status = "corrupt"
    try:
        line = f.readline()
        parts = line.decode().split(" ") if 10 < len(line) < 160 and not first_bad(line) else ()
        if len(parts) == 9 and parts[0] != MAGIC and parts[0].startswith("KTC"):
            status = "stale"                 # another version of this format
        elif len(parts) == 9 and parts[0] == MAGIC:
            nums = (int(parts[1]), int(parts[2]), int(parts[3]), int(parts[4]), int(parts[5]))
            if nums != (solver.nv, solver.nh, solver.ns, solver.size, solver.table_nbytes):
                status = "stale"
            else:
                got = f.readinto(table)
                extra = f.read(1)
                if got == solver.table_nbytes and not extra and checksum(table) == parts[6]:
                    status = "ok"
                    k = int(parts[7])
                    text = parts[8].strip()
                    if k != _probe(solver) or _layout_text(solver.cells_of(k)) != text:
                        status = "stale"
                    else:
                        cells = bytearray(text.replace("/", "").encode())
                        if solver.rank_of(cells) != k:
                            status = "stale"
    except (ValueError, UnicodeError, OSError, IndexError):
        status = "corrupt"
    except Exception:           # e.g. klotski.LayoutError from a foreign probe
        status = "stale"
    finally:
        f.close()
    if status == "ok":
        solver.finish()
        return status
    _zero(table)
    d.remove(name)
    return status
