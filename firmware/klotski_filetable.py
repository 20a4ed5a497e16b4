"""A Klotski table read from its cache file instead of the heap: where a
runtime cannot hold a table beside itself (CircuitPython), a solver made with
``klotski.Solver(..., search=False)`` (the ranker's tables alone) gets its
table from ``attach``: the file ``flash`` put on the board
(``klotski_cache``'s format), checked as ``klotski_cache.load`` checks it
(header, length, CRC-32 read in 256-byte chunks, the rank <-> layout probe),
then kept open and read a word at a time (``FileWords``) by the solver's
answers.  A bad file is left in place (the device cannot build another).
Imported only there: a runtime that builds its tables never loads it."""

import klotski_cache as cache


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


def attach(d, solver):
    """Give a solver made with ``search=False`` (its setup done) the table in
    the cache, read from the file as it is needed (``FileWords``).  Returns
    "ok" (the solver is finished and keeps the file open), "missing",
    "corrupt" or "stale" (as ``load``; the file stays).  Needs crc32."""
    name = cache.name_for(solver)
    try:
        f = d.open(name, "rb")
    except OSError:
        return "missing"
    status = "corrupt"
    try:
        parts = cache.header_fields(f.readline(), solver)
        if not isinstance(parts, str) and cache.crc32 is not None:
            start = f.tell()
            buf = memoryview(bytearray(256))
            crc = 0
            left = solver.table_nbytes
            while left > 0:
                part = buf[:left] if left < 256 else buf
                got = f.readinto(part)
                if not got:
                    break
                crc = cache.crc32(part[:got], crc)
                left -= got
            if left == 0 and not f.read(1) and "%08x" % (crc & 0xFFFFFFFF) == parts[6]:
                status = "ok" if cache.probe_ok(solver, parts) else "stale"
        elif isinstance(parts, str):
            status = parts
    except (ValueError, UnicodeError, OSError, IndexError):
        status = "corrupt"
    except Exception:           # e.g. klotski.LayoutError from a foreign probe
        status = "stale"
    if status != "ok":
        f.close()
        return status
    words = FileWords(f, start, 2 if solver.distances.word_bits == 16 else 4)
    solver.distances.planes = solver.table = words
    solver.finish()
    return status
