"""Shortest paths on a 4-neighbour terrain grid (BFS and A*), for the device.

Cells hold their entering cost: 0 blocked, 1 road, 2 grass, 3 stream.  All work
buffers are allocated once per grid size in GridSearch and reused; a search
allocates nothing.  Internally the grid is padded with a ring of blocked cells so
the inner loops need no bounds checks; public cell numbers are row-major
``row * cols + col`` on the unpadded grid.

Deterministic tie-breaking:
- neighbours are always tried in the order west, east, north, south (the seed
  article's order: left, right, up, down);
- BFS keeps the first parent that reaches a cell, so of all shortest paths it
  returns the one found first in that order;
- A* pops, among cells of equal f = g + h, the one queued last (LIFO), and a
  cell's parent changes only on a strictly cheaper g.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

BLOCKED = const(0)
ROAD = const(1)
GRASS = const(2)
STREAM = const(3)
MAX_SIDE = const(64)
UNREACHED = const(0xFFFF)
_FROM_WALL = const(5)  # ``came`` of walls and of the search's source
_RING = const(7)  # A* bucket ring mask: f grows by 0..4 per edge, so 8 buckets suffice


class GridSearch:
    """Preallocated BFS / A* over a cols x rows terrain grid (at most 64 x 64)."""

    def __init__(self, cols, rows):
        if not (1 <= cols <= MAX_SIDE and 1 <= rows <= MAX_SIDE):
            raise ValueError("grid must be 1..64 x 1..64, got %dx%d" % (cols, rows))
        self.cols = cols
        self.rows = rows
        width = cols + 2
        size = width * (rows + 2)
        self.width = width
        self.cost = bytearray(size)
        self.came = bytearray(size)
        self.walls = bytearray(b"\x05" * size)
        for r in range(rows):
            for c in range(cols):
                self.cost[(r + 1) * width + c + 1] = ROAD
                self.walls[(r + 1) * width + c + 1] = 0
        self.parent = array("H", bytes(2 * size))
        self.work = array("H", bytes(2 * size))
        self.g = array("H", bytes(2 * size))
        self.link_next = array("H", bytes(2 * size))
        self.link_prev = array("H", bytes(2 * size))
        self.col_of = bytearray(size)
        self.row_of = bytearray(size)
        for p in range(size):
            self.col_of[p] = p % width
            self.row_of[p] = p // width
        self.heads = array("H", bytes(2 * (_RING + 1)))
        self.steps = array("h", (-1, 1, -width, width))
        # back[side] undoes a step entered from that side (1 W, 2 E, 3 N, 4 S).
        self.back = array("h", (0, 1, -1, width, -width, 0))
        self.path = array("H", bytes(2 * cols * rows))
        self.path_len = 0
        self.expanded = 0


    # Cell numbering -------------------------------------------------------
    def padded(self, cell):
        """Padded index of public cell number ``cell``."""
        return (cell // self.cols + 1) * self.width + cell % self.cols + 1

    def unpadded(self, p):
        return (p // self.width - 1) * self.cols + p % self.width - 1

    def set_cell(self, cell, cost):
        if not 0 <= cost <= 3:
            raise ValueError("cell cost must be 0..3")
        p = self.padded(cell)
        self.cost[p] = cost
        self.walls[p] = _FROM_WALL if cost == BLOCKED else 0

    def get_cell(self, cell):
        return self.cost[self.padded(cell)]

    def load(self, costs):
        """Set every cell from a sequence of cols*rows costs (0 = blocked)."""
        if len(costs) != self.cols * self.rows:
            raise ValueError("expected %d cells, got %d" % (self.cols * self.rows, len(costs)))
        for cell in range(len(costs)):
            self.set_cell(cell, costs[cell])

    def _trace(self, src_p, dst_p):
        """Write the path src..dst (public numbers) into self.path; return moves."""
        parent = self.parent
        path = self.path
        col_of = self.col_of
        row_of = self.row_of
        cols = self.cols
        n = 0
        p = dst_p
        while p != src_p:
            n += 1
            p = parent[p]
        self.path_len = n + 1
        p = dst_p
        i = n
        while i >= 0:
            path[i] = (row_of[p] - 1) * cols + col_of[p] - 1
            p = parent[p]
            i -= 1
        return n

    def _trivial(self, src_p, dst_p):
        """None when there is a search to do; else the trivial answer (None for
        a blocked end, 0 for src == dst) with the path set."""
        self.path_len = 0
        if not self.cost[dst_p] or not self.cost[src_p]:
            return -1
        if src_p == dst_p:
            self.path[0] = self.unpadded(src_p)
            self.path_len = 1
            return 0
        return None

    # BFS ------------------------------------------------------------------
    def bfs(self, src, dst):
        """Fewest moves from src to dst, or None; the path is left in self.path.

        ``came`` starts each search as a copy of the walls (one C-level copy)
        and records for every reached cell the side it was entered from, so one
        byte test both skips walls and visited cells and keeps the parent.  The
        four neighbours are written out rather than looped over: on the device
        this loop is the whole cost of a cat's turn."""
        src_p = self.padded(src)
        dst_p = self.padded(dst)
        trivial = self._trivial(src_p, dst_p)
        if trivial is not None:
            return trivial if trivial >= 0 else None
        came = self.came
        came[:] = self.walls
        queue = self.work
        width = self.width
        came[src_p] = _FROM_WALL
        queue[0] = src_p
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            if not came[p - 1]:
                q = p - 1
                came[q] = 1
                queue[tail] = q
                tail += 1
                if q == dst_p:
                    break
            if not came[p + 1]:
                q = p + 1
                came[q] = 2
                queue[tail] = q
                tail += 1
                if q == dst_p:
                    break
            if not came[p - width]:
                q = p - width
                came[q] = 3
                queue[tail] = q
                tail += 1
                if q == dst_p:
                    break
            if not came[p + width]:
                q = p + width
                came[q] = 4
                queue[tail] = q
                tail += 1
                if q == dst_p:
                    break
        self.expanded = head
        if came[dst_p]:
            return self._trace_came(src_p, dst_p)
        return None

    def _trace_came(self, src_p, dst_p):
        """Like _trace, following the entry sides BFS left in ``came``."""
        came = self.came
        back = self.back
        path = self.path
        col_of = self.col_of
        row_of = self.row_of
        cols = self.cols
        n = 0
        p = dst_p
        while p != src_p:
            n += 1
            p += back[came[p]]
        self.path_len = n + 1
        p = dst_p
        i = n
        while i >= 0:
            path[i] = (row_of[p] - 1) * cols + col_of[p] - 1
            p += back[came[p]]
            i -= 1
        return n

    def distances(self, src, out):
        """BFS move counts from src to every cell into ``out`` (padded indexing,
        UNREACHED for cells that cannot be reached).  ``out`` is an array('H') the
        caller allocates once with ``len(search.cost)`` entries."""
        src_p = self.padded(src)
        for p in range(len(out)):
            out[p] = UNREACHED
        if not self.cost[src_p]:
            return
        came = self.came
        came[:] = self.walls
        queue = self.work
        steps = self.steps
        came[src_p] = _FROM_WALL
        out[src_p] = 0
        queue[0] = src_p
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            d = out[p] + 1
            for k in range(4):
                q = p + steps[k]
                if not came[q]:
                    came[q] = k + 1
                    out[q] = d
                    queue[tail] = q
                    tail += 1

    def arrival_times(self, src, out):
        """Least entering cost from src to every cell into ``out`` (padded
        indexing, UNREACHED where unreachable): Dijkstra over the same bucket
        ring as A* with h = 0.  In terrain mode this is how many rounds a piece
        needs to get anywhere."""
        for p in range(len(out)):
            out[p] = UNREACHED
        src_p = self.padded(src)
        cost = self.cost
        if not cost[src_p]:
            return
        nxt = self.link_next
        prv = self.link_prev
        heads = self.heads
        steps = self.steps
        for b in range(_RING + 1):
            heads[b] = 0
        out[src_p] = 0
        heads[0] = src_p
        nxt[src_p] = 0
        queued = 1
        d = 0
        while queued:
            p = heads[d & _RING]
            while not p:
                d += 1
                p = heads[d & _RING]
            first = nxt[p]
            heads[d & _RING] = first
            if first:
                prv[first] = 0
            queued -= 1
            for k in range(4):
                q = p + steps[k]
                c = cost[q]
                if not c:
                    continue
                nd = d + c
                old = out[q]
                if nd >= old:
                    continue
                if old != UNREACHED:
                    before = prv[q]
                    after = nxt[q]
                    if before:
                        nxt[before] = after
                    else:
                        heads[old & _RING] = after
                    if after:
                        prv[after] = before
                    queued -= 1
                out[q] = nd
                b = nd & _RING
                first = heads[b]
                nxt[q] = first
                prv[q] = 0
                if first:
                    prv[first] = q
                heads[b] = q
                queued += 1

    # A* -------------------------------------------------------------------
    def astar(self, src, dst):
        """Least total entering cost from src to dst, or None; path in self.path.

        h = Manhattan distance is admissible and consistent because every cell
        costs at least 1, so the first time dst is popped its cost is optimal,
        and a popped cell is never improved later.  Consistency also bounds an
        edge's f increase to 0..4, so the open list is a ring of 8 buckets, each a
        doubly linked list through link_next/link_prev (0 ends a list: padded
        cell 0 is a wall).  h of a neighbour is h of the cell +-1, from which side
        of the target the cell lies on, so no distance is recomputed.  ``came``
        holds each cell's state (0 unseen, 1 open, 2 closed, 5 wall), so closed
        cells and walls cost one byte test.
        """
        src_p = self.padded(src)
        dst_p = self.padded(dst)
        trivial = self._trivial(src_p, dst_p)
        if trivial is not None:
            return trivial if trivial >= 0 else None
        cost = self.cost
        came = self.came
        came[:] = self.walls
        parent = self.parent
        g = self.g
        nxt = self.link_next
        prv = self.link_prev
        heads = self.heads
        col_of = self.col_of
        row_of = self.row_of
        width = self.width
        tc = col_of[dst_p]
        tr = row_of[dst_p]
        for b in range(_RING + 1):
            heads[b] = 0
        dx = col_of[src_p] - tc
        dy = row_of[src_p] - tr
        f = (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
        came[src_p] = _FROM_WALL
        g[src_p] = 0
        heads[f & _RING] = src_p
        nxt[src_p] = 0
        prv[src_p] = 0
        limit = f + _RING
        while True:
            p = heads[f & _RING]
            while not p:
                f += 1
                if f > limit:
                    return None  # a whole ring of empty buckets: nothing is open
                p = heads[f & _RING]
            limit = f + _RING
            first = nxt[p]
            heads[f & _RING] = first
            if first:
                prv[first] = 0
            came[p] = 2
            if p == dst_p:
                self._trace(src_p, dst_p)
                return g[p]
            gp = g[p]
            hp = f - gp
            cp = col_of[p]
            rp = row_of[p]
            q = p - 1
            m = came[q]
            if m < 2:
                ng = gp + cost[q]
                hq = hp - 1 if cp > tc else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        before = prv[q]
                        after = nxt[q]
                        if before:
                            nxt[before] = after
                        else:
                            heads[(old + hq) & _RING] = after
                        if after:
                            prv[after] = before
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    first = heads[b]
                    nxt[q] = first
                    prv[q] = 0
                    if first:
                        prv[first] = q
                    heads[b] = q
            q = p + 1
            m = came[q]
            if m < 2:
                ng = gp + cost[q]
                hq = hp - 1 if cp < tc else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        before = prv[q]
                        after = nxt[q]
                        if before:
                            nxt[before] = after
                        else:
                            heads[(old + hq) & _RING] = after
                        if after:
                            prv[after] = before
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    first = heads[b]
                    nxt[q] = first
                    prv[q] = 0
                    if first:
                        prv[first] = q
                    heads[b] = q
            q = p - width
            m = came[q]
            if m < 2:
                ng = gp + cost[q]
                hq = hp - 1 if rp > tr else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        before = prv[q]
                        after = nxt[q]
                        if before:
                            nxt[before] = after
                        else:
                            heads[(old + hq) & _RING] = after
                        if after:
                            prv[after] = before
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    first = heads[b]
                    nxt[q] = first
                    prv[q] = 0
                    if first:
                        prv[first] = q
                    heads[b] = q
            q = p + width
            m = came[q]
            if m < 2:
                ng = gp + cost[q]
                hq = hp - 1 if rp < tr else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        before = prv[q]
                        after = nxt[q]
                        if before:
                            nxt[before] = after
                        else:
                            heads[(old + hq) & _RING] = after
                        if after:
                            prv[after] = before
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    first = heads[b]
                    nxt[q] = first
                    prv[q] = 0
                    if first:
                        prv[first] = q
                    heads[b] = q

    def path_cells(self):
        """The last path as a list (allocates; for host tools and tests)."""
        return [self.path[i] for i in range(self.path_len)]
