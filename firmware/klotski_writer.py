"""The Klotski table cache's writer (klotski_cache's file format): the
header line and ``Writer``, the write in steps.  A module of its own so that
the scene imports it for the write only, after the build, and drops it
again: with the whole cache module resident the table build's peak heap on a
Pico was ~2 KB higher and its names pushed the scene past the qstr pool's
next 3.9 KB chunk.  Its import is a tick of its own, so it imports no
built-in module: on MicroPython each ``import`` of an extensible built-in
(binascii, errno, array, os, ...) first searches the file system, ~11-14 ms
on the virtual Pico every time (the whole cache module's import was 38 ms)."""

import savestore as saves
from klotski_common import layout_text, name_for_set
from savestore import crc32     # binascii's (None on a port without it: the Fletcher sum)

MAGIC = "KTC2"
ENOSPC = 28     # errno.ENOSPC (Linux, macOS, Windows; MicroPython's number, py/mperrno.h,
#                 though its errno module has no ENOSPC name)


def full(exc):
    """True when ``exc`` (an OSError of a write) says the flash is full."""
    return getattr(exc, "errno", None) == ENOSPC


def name_for(solver):
    return name_for_set((solver.nv, solver.nh, solver.ns))


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
        checksum(table), k, layout_text(solver.cells_of(k)))).encode()


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
