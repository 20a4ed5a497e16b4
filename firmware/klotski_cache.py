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

import savestore as saves
from asciitext import first_bad
from klotski_common import has_table, layout_text, name_for_set   # noqa: F401 (here too)
from klotski_writer import (ENOSPC, MAGIC, Writer, _probe,  # noqa: F401
                            checksum, crc32, header, name_for, save)


class Dir(saves.OsFs):
    """Files in one directory (created if missing): the saves' file access
    (``open``, ``write``, ``rename``, ``remove``, ``sync``)."""


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
                    if k != _probe(solver) or layout_text(solver.cells_of(k)) != text:
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
