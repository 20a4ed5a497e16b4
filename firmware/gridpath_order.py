"""The order a GridSearch expanded its cells in, read after the search.

Cat & Mouse's watch mode (catmouse_watch.py) draws each cat search in the
order it ran; the search is gridpath's own, with no step added to it (its
fuel and allocation figures in `make bench` do not move), so the order is
read back from what the search leaves behind.  A module of its own: the
watch imports it while a game loads, on a tick of its own.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_RING = const(7)        # A*'s bucket ring mask, as gridpath's


class SearchOrder:
    """The cells a GridSearch expanded, in order (padded numbers in
    ``cells[:count]``), read after its search without a step in it:
    - BFS: its queue is a chain of links (``work``) in expansion order that
      outlives the search; the expansions run from the target up to the cell
      that reached the source (the whole chain when none did);
    - A*: the search is replayed from what it left: every reached cell's
      final ``parent``, ``g`` and ``came`` (1 open, 2 closed).  A cell enters
      the open list for the last time when its final parent is expanded, with
      f = g + h; earlier entries were unlinked before they could be taken, and
      unlinking keeps the order of the rest, so the same ring of LIFO buckets
      pops the cells in A*'s own order (tests compare it with a recording).
    Both take the arguments the search took; buffers are allocated once."""

    def __init__(self, search):
        size = len(search.cost)
        self.search = search
        self.cells = array("H", bytes(2 * size))
        self.count = 0
        self.link = array("H", bytes(2 * size))
        self.heads = array("H", bytes(2 * (_RING + 1)))

    def _idle(self, src_p, dst_p):
        """Empty the order; True when the search had nothing to expand (an
        end is a wall, or src is dst)."""
        self.count = 0
        walls = self.search.walls
        return src_p == dst_p or walls[src_p] or walls[dst_p]

    def read_bfs(self, src, dst):
        s = self.search
        src_p = s.pad[src]
        dst_p = s.pad[dst]
        if self._idle(src_p, dst_p):
            return
        side = s.sides[src_p]
        stop = src_p + s.back[side] if 1 <= side <= 4 else 0
        link = s.work
        cells = self.cells
        n = 0
        p = dst_p
        while p:
            cells[n] = p
            n += 1
            if p == stop:
                break
            p = link[p]
        self.count = n

    def read_astar(self, src, dst):
        s = self.search
        src_p = s.pad[src]
        dst_p = s.pad[dst]
        if self._idle(src_p, dst_p):
            return
        came = s.came
        g = s.g
        parent = s.parent
        steps = s.steps
        col_of = s.col_of
        row_of = s.row_of
        tc = col_of[src_p]
        tr = row_of[src_p]
        heads = self.heads
        link = self.link
        cells = self.cells
        for b in range(_RING + 1):
            heads[b] = 0
        f = abs(col_of[dst_p] - tc) + abs(row_of[dst_p] - tr)
        heads[f & _RING] = dst_p
        link[dst_p] = 0
        queued = 1
        n = 0
        while queued:
            p = heads[f & _RING]
            while not p:
                f += 1
                p = heads[f & _RING]
            heads[f & _RING] = link[p]
            queued -= 1
            cells[n] = p
            n += 1
            if p == src_p:
                break
            for k in range(4):
                q = p + steps[k]
                m = came[q]
                if (m == 1 or m == 2) and parent[q] == p and q != dst_p:
                    b = (g[q] + abs(col_of[q] - tc) + abs(row_of[q] - tr)) & _RING
                    link[q] = heads[b]
                    heads[b] = q
                    queued += 1
        self.count = n
