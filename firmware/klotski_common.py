"""What the Klotski solver's modules share (``klotski``, ``klotski_setup``,
``klotski_loop``): the array helpers, the row words' powers of 5, the cell
steps of the four directions and the kernel import.  A leaf: it imports none
of them, so none of them imports another that imports it back.  The names keep
their leading underscore from klotski, where they were private: on the device
every new name is one more qstr, and the Klotski scene sits just under the
step to MicroPython's next qstr pool (~3.9 KB)."""

from array import array

import gc
import sys

# the cell step of direction k (0 left, 1 right, 2 up, 3 down)
_DIRS = (-1, 1, -4, 4)
# a cell's weight in its row word (base 5: the token of column c times 5**c)
_POW5 = (1, 5, 25, 125)


def layout_text(cells):
    """20 cells as the layout text klotski.parse reads (rows joined by '/')."""
    s = bytes(cells).decode()
    return s[0:4] + "/" + s[4:8] + "/" + s[8:12] + "/" + s[12:16] + "/" + s[16:20]


def name_for_set(piece_set):
    """The cache file name of the table of ``piece_set`` ((nv, nh, ns))."""
    return "klotski_%d%d%d.tbl" % piece_set


def has_table(d, piece_set):
    """``d`` holds a table file for ``piece_set``; whether it is sound only
    reading it (``klotski_cache.load``, ``klotski_filetable.attach``) tells.
    Here, not in klotski_cache, so that the scene keeps only this resident and
    imports the cache's reader and writer (~2 KB on a Pico) for the write."""
    try:
        d.open(name_for_set(piece_set), "rb").close()
    except OSError:
        return False
    return True


def load_kernel(name):
    """The kernel module ``name``, or None when its machine code (search16
    alone is ~9.4 KB in one piece) finds no free block in a fragmented heap:
    what the failed load left is collected and the import tried once more;
    without it the plain loop builds the same table, slower."""
    for _ in range(2):
        try:
            return __import__(name)
        except MemoryError:
            sys.modules.pop(name, None)
            gc.collect()
    return None


def _clear(a, i, n):
    """a[i:n] = 0, eight items per loop turn (no slice objects: GC-off
    allocation counts them)."""
    while i + 8 <= n:
        a[i] = 0
        a[i + 1] = 0
        a[i + 2] = 0
        a[i + 3] = 0
        a[i + 4] = 0
        a[i + 5] = 0
        a[i + 6] = 0
        a[i + 7] = 0
        i += 8
    while i < n:
        a[i] = 0
        i += 1


def _unzeroed(tc, n):
    """array of n items, zero only after ``_clear`` (when it fits, it is made
    from a range: no temporary as large as the array, which GC-off allocation
    counts)."""
    if n <= (32767 if tc in "hb" else 255 if tc == "B" else 65535 if tc == "H" else 1 << 30):
        return array(tc, range(n))
    return array(tc, bytes(n * (1 if tc in "bB" else 2 if tc in "hH" else 4)))


def _zeros(tc, n):
    a = _unzeroed(tc, n)
    _clear(a, 0, n)
    return a
