"""Shortest paths on a 4-neighbour terrain grid (BFS and A*), for the device.

Cells hold their entering cost: 0 blocked, 1 road, 2 grass, 3 stream.  All work
buffers are allocated once per grid size in GridSearch and reused; a search
allocates nothing.  GridSearch finds paths (BFS: fewest moves, A*: least
cost); FloodSearch, a GridSearch, also floods from one cell to every cell
(``distances``, ``arrival_times``: the evasive mouse's).  Internally the grid is padded with a ring of blocked cells so
the inner loops need no bounds checks; public cell numbers are row-major
``row * cols + col`` on the unpadded grid.

Deterministic tie-breaking.  Both searches run backwards, from the target to
the source, so the path can be written out forwards in one pass:
- neighbours are always tried in the order west, east, north, south (not
  the article's rule, which is gridpath_seed.py's);
- BFS links each cell to the first cell, in queue order, that reached it, and
  the path follows those links from the source (on an open 3x3 grid, 0 -> 8 is
  0, 3, 6, 7, 8: down first, then along the bottom row);
- A* pops, among cells of equal f = g + h, the one queued last (LIFO), and a
  cell's link changes only on a strictly cheaper g (open 3x3: 0, 1, 2, 5, 8).
"""

# Traces (`solve grid --trace`) read these searches without one extra step in
# them: BFS's queue is a chain of links (``work``) in expansion order that
# outlives the search, read back afterwards with ``sides`` (each reached
# cell's side towards its parent); A* closes each cell it takes off
# the open list by writing 2 into ``came``, so the laptop's tracer lends it a
# ``came`` list that reports those writes (host_tools/games/catmouse_trace.py).
# Comments, not docstring: a MicroPython compiling the source keeps docstrings.

from array import array

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

BLOCKED = const(0)
ROAD = const(1)
_GRASS = const(2)
_STREAM = const(3)
MAX_SIDE = const(64)
UNREACHED = const(0xFFFF)
_FROM_WALL = const(5)  # ``came`` and ``sides`` of walls and of the search's source


def _unlink(heads, nxt, bucket, q):
    """Take q out of a bucket's stack (the rare decrease-key)."""
    x = heads[bucket]
    if x == q:
        heads[bucket] = nxt[q]
        return
    while nxt[x] != q:
        x = nxt[x]
    nxt[x] = nxt[q]


class _SliceMaker:
    def __getitem__(self, key):
        return key


# The per-search state lives in lists of small ints: on MicroPython a list is
# read and written faster than a bytearray or array (no typecode dispatch).
# BFS's ``sides`` is the exception (see bfs): a bytearray read through views.
# Lists are reset by one slice copy; MicroPython cannot build a slice object
# by calling slice(), and `lst[:] = ...` would allocate one per copy (on
# CircuitPython and MicroPython before the stack-slice fast path,
# micropython#12518), so one prebuilt slice object is kept here (catmouse uses
# it too).
WHOLE = _SliceMaker()[:]
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
        self.came = [0] * size
        self.walls = [_FROM_WALL] * size
        for r in range(rows):
            for c in range(cols):
                self.cost[(r + 1) * width + c + 1] = ROAD
                self.walls[(r + 1) * width + c + 1] = 0
        self.wall_sides = bytearray(self.walls)
        # BFS's sides live in a bytearray with a row of margin at each end, also
        # seen through views shifted by one step west, east, north and south:
        # neighbour_sides[0][p] is sides[p - 1], and so on.
        margin = memoryview(bytearray(size + 2 * width))
        self.sides = margin[width:width + size]
        self.neighbour_sides = (margin[width - 1:], margin[width + 1:], margin, margin[2 * width:])
        self.parent = array("H", bytes(2 * size))
        self.work = [0] * size
        self.public = array("H", bytes(2 * size))  # padded index -> public cell number
        self.pad = array("H", bytes(2 * cols * rows))  # public cell number -> padded index
        self.g = array("H", bytes(2 * size))
        self.link_next = array("H", bytes(2 * size))
        self.col_of = bytearray(size)
        self.row_of = bytearray(size)
        for p in range(size):
            self.col_of[p] = p % width
            self.row_of[p] = p // width
            if 0 < p % width <= cols and 0 < p // width <= rows:
                cell = (p // width - 1) * cols + p % width - 1
                self.public[p] = cell
                self.pad[cell] = p
        self.heads = array("H", bytes(2 * (_RING + 1)))
        self.steps = array("h", (-1, 1, -width, width))
        # back[side] undoes a step entered from that side (1 W, 2 E, 3 N, 4 S).
        self.back = array("h", (0, 1, -1, width, -width, 0))
        self.path = array("H", bytes(2 * cols * rows))
        self.path_len = 0

    # Cell numbering: ``pad[cell]`` is a public cell's padded index, ``public[p]``
    # the public cell of padded index p.
    def load(self, costs):
        """Set every cell from a sequence of cols*rows costs (0 = blocked)."""
        if len(costs) != self.cols * self.rows:
            raise ValueError("expected %d cells, got %d" % (self.cols * self.rows, len(costs)))
        # a cell at a time without a call (a call per cell cost 3.2 of the BFS
        # cat's first 29.3 ms on the default map, VM est., which loads it)
        pad = self.pad
        cost = self.cost
        walls = self.walls
        wall_sides = self.wall_sides
        for cell in range(len(costs)):
            c = costs[cell]
            if not 0 <= c <= 3:
                raise ValueError("cell cost must be 0..3")
            p = pad[cell]
            cost[p] = c
            wall = _FROM_WALL if c == BLOCKED else 0
            walls[p] = wall
            wall_sides[p] = wall

    # BFS ------------------------------------------------------------------
    def bfs(self, src, dst):
        """Fewest moves from src to dst, or None; the path is left in self.path.

        The search runs backwards, from dst, so that the path can be read
        forwards from src in one pass.  ``sides`` starts each search as a copy
        of the walls (one C-level copy) and records for every reached cell the
        side that leads back towards dst, so one test both skips walls and
        visited cells and keeps the parent.  The queue is a chain of links
        (``link[cell]`` = the next queued cell, 0 = end, cleared by one copy),
        which saves the head/tail arithmetic.  The four neighbours are written
        out rather than looped over: on the device this loop is the whole cost
        of a cat's turn."""
        pad = self.pad
        src_p = pad[src]
        dst_p = pad[dst]
        sides = self.sides
        sides[WHOLE] = self.wall_sides
        if sides[src_p] or sides[dst_p]:
            self.path_len = 0
            return None
        if src_p == dst_p:
            self.path[0] = src
            self.path_len = 1
            return 0
        # Neighbours are read through the shifted views, west[p] rather than
        # sides[p - 1]: an addition less per test saves more than MicroPython's
        # slower bytearray access costs, and CircuitPython reads a bytearray
        # faster than a list (its list subscript checks for a subclass).
        west, east, north, south = self.neighbour_sides
        width = self.width
        link = self.work
        link[WHOLE] = self.walls  # 0 on every free cell: no stale chain ends
        sides[dst_p] = _FROM_WALL
        p = last = dst_p
        while p:
            if not west[p]:
                west[p] = 1
                link[last] = last = p - 1
                if last == src_p:
                    break
            if not east[p]:
                east[p] = 2
                link[last] = last = p + 1
                if last == src_p:
                    break
            if not north[p]:
                north[p] = 3
                link[last] = last = p - width
                if last == src_p:
                    break
            if not south[p]:
                south[p] = 4
                link[last] = last = p + width
                if last == src_p:
                    break
            p = link[p]
        if not sides[src_p]:
            self.path_len = 0
            return None
        # MicroPython reads the first 16 locals fastest: keep these later ones
        # out of the loop above.
        back = self.back
        path = self.path
        public = self.public
        p = src_p
        n = 0
        while True:
            path[n] = public[p]
            if p == dst_p:
                break
            p += back[sides[p]]
            n += 1
        self.path_len = n + 1
        return n

    def on_shortest(self, cell):
        """After a ``bfs(src, dst)`` that found a path: True when ``cell``, a
        neighbour of src, lies on a shortest path to dst (one read, where
        ``path_through`` walks the links).  On a grid the distances of two
        neighbours differ by exactly one, so cell is d - 1 or d + 1 moves
        from dst (src being d); the search stops as src is reached, when it
        has reached every cell d - 1 away and none d + 1 away: cell is on a
        shortest path exactly when the search reached it (or it is dst)."""
        if self.path_len < 2:
            return False
        p = self.pad[cell]
        s = self.sides[p]
        return 1 <= s <= 4 or p == self.pad[self.path[self.path_len - 1]]

    def path_through(self, cell):
        """After a ``bfs(src, dst)`` that found a path: if ``cell`` (a
        neighbour of src) also lies on a shortest path, rewrite self.path as
        src, cell, then the search's links from cell to dst, and return True;
        else False, the path unchanged.  The search linked every cell it
        reached along a shortest way to dst, so cell is on one when its links
        reach dst in path_len - 2 steps (a few dozen reads, no search)."""
        n = self.path_len - 2
        if n < 0:
            return False
        sides = self.sides
        back = self.back
        dst_p = self.pad[self.path[n + 1]]
        p = start = self.pad[cell]
        for _ in range(n):
            s = sides[p]
            if not 1 <= s <= 4:
                return False
            p += back[s]
        if p != dst_p:
            return False
        path = self.path
        public = self.public
        p = start
        for i in range(1, n + 2):
            path[i] = public[p]
            if i <= n:
                p += back[sides[p]]
        return True

    # A* -------------------------------------------------------------------
    # The search runs backwards from dst: g(q) is the cost still to pay from q,
    # so every neighbour of an expanded cell p gets the same g(p) + cost(p),
    # and the path reads forwards from src in one pass.  h = Manhattan distance
    # to src is admissible and consistent because every cell costs at least 1,
    # so the first time src is popped its cost is optimal, and a popped cell is
    # never improved later.  Consistency also bounds an edge's f increase to
    # 0..4, so the open list is a ring of 8 buckets, each a stack linked through
    # link_next (0 ends a list: padded cell 0 is a wall); the rare cell whose
    # g improves is unlinked by walking its bucket, which keeps pushes and pops
    # to two stores each.  h of a neighbour is h of the cell +-1, from which
    # side of src the cell lies on, so no distance is recomputed.  ``came``
    # holds each cell's state (0 unseen, 1 open, 2 closed, 5 wall), so closed
    # cells and walls cost one byte test.  The setup and the path's write-out
    # are helpers, run once a search; the loop stays whole (a call per cell
    # would cost more than the cell).
    def astar(self, src, dst):
        """Least total entering cost from src to dst, or None; path in self.path.

        A hot loop kept whole: a method per neighbour test cost +88 % VM
        fuel (16x8 default board 755,466 -> 1,419,953; 64x64 +83 %, 2026-11-28).
        The names the loop uses most are among the first 16 locals (fastest)."""
        q = m = ng = hq = b = p = step = hp = 0
        came = self.came
        g = self.g
        heads = self.heads
        nxt = self.link_next
        parent = self.parent
        pad = self.pad
        src_p = pad[src]
        dst_p = pad[dst]
        width = self.width
        cost = self.cost
        f = self._start_astar(src_p, dst_p)
        if f <= 0:
            return None if f else 0     # an end is a wall / src is dst
        col_of = self.col_of
        row_of = self.row_of
        tc = col_of[src_p]
        tr = row_of[src_p]
        limit = f + _RING
        while True:
            p = heads[f & _RING]
            while not p:
                f += 1
                if f > limit:
                    return None  # a whole ring of empty buckets: nothing is open
                p = heads[f & _RING]
            limit = f + _RING
            heads[f & _RING] = nxt[p]
            came[p] = 2
            if p == src_p:
                break
            gp = g[p]
            step = gp + cost[p]
            hp = f - gp
            cp = col_of[p]
            rp = row_of[p]
            q = p - 1
            m = came[q]
            if m < 2:
                ng = step
                hq = hp - 1 if cp > tc else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        _unlink(heads, nxt, (old + hq) & _RING, q)
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    nxt[q] = heads[b]
                    heads[b] = q
            q = p + 1
            m = came[q]
            if m < 2:
                ng = step
                hq = hp - 1 if cp < tc else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        _unlink(heads, nxt, (old + hq) & _RING, q)
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    nxt[q] = heads[b]
                    heads[b] = q
            q = p - width
            m = came[q]
            if m < 2:
                ng = step
                hq = hp - 1 if rp > tr else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        _unlink(heads, nxt, (old + hq) & _RING, q)
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    nxt[q] = heads[b]
                    heads[b] = q
            q = p + width
            m = came[q]
            if m < 2:
                ng = step
                hq = hp - 1 if rp < tr else hp + 1
                if m:
                    old = g[q]
                    if ng < old:
                        _unlink(heads, nxt, (old + hq) & _RING, q)
                    else:
                        ng = 0
                else:
                    came[q] = 1
                if ng:
                    g[q] = ng
                    parent[q] = p
                    b = (ng + hq) & _RING
                    nxt[q] = heads[b]
                    heads[b] = q
        self._write_parent_path(src_p, dst_p)
        return g[src_p]

    def _start_astar(self, src_p, dst_p):
        """A*'s open list holding only dst (g 0), every other cell unseen;
        returns dst's f, the Manhattan distance to src (> 0).  No search is
        needed when an end is a wall (-1, no path) or src is dst (0, the
        one-cell path written)."""
        self.path_len = 0
        if not self.cost[src_p] or not self.cost[dst_p]:
            return -1
        if src_p == dst_p:
            self.path[0] = self.public[src_p]
            self.path_len = 1
            return 0
        self.came[WHOLE] = self.walls
        heads = self.heads
        for b in range(_RING + 1):
            heads[b] = 0
        col_of = self.col_of
        row_of = self.row_of
        dx = col_of[dst_p] - col_of[src_p]
        dy = row_of[dst_p] - row_of[src_p]
        f = (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
        self.came[dst_p] = _FROM_WALL
        self.g[dst_p] = 0
        heads[f & _RING] = dst_p
        self.link_next[dst_p] = 0
        return f

    def _write_parent_path(self, src_p, dst_p):
        """A*'s path into self.path: src's parents lead forwards to dst."""
        path = self.path
        public = self.public
        parent = self.parent
        p = src_p
        n = 0
        while True:
            path[n] = public[p]
            if p == dst_p:
                break
            p = parent[p]
            n += 1
        self.path_len = n + 1

    def path_cells(self):
        """The last path as a list (allocates; for host tools and tests)."""
        return [self.path[i] for i in range(self.path_len)]


class FloodSearch(GridSearch):
    """A GridSearch that also floods from one cell to every cell (the evasive
    mouse's distances and arrival times), on the same buffers."""

    def distances(self, src, out):
        """BFS move counts from src to every cell into ``out`` (padded indexing,
        UNREACHED for cells that cannot be reached).  ``out`` is an array('H') the
        caller allocates once with ``len(search.cost)`` entries."""
        src_p = self.pad[src]
        for p in range(len(out)):
            out[p] = UNREACHED
        if not self.cost[src_p]:
            return
        came = self.came
        came[WHOLE] = self.walls
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

    def territory(self, src, rival, flat=False):
        """How many cells a piece at ``src`` reaches at least a round before a
        rival whose arrival times are ``rival`` (padded indexing, as
        ``arrival_times`` writes them; ``flat``: move counts, as ``distances``
        writes them, every free cell entered in one move): the cells where
        own + 1 < rival.  Dijkstra as ``arrival_times``, but a cell is only
        queued when it is one of them: entering a cell costs the rival at
        most what it costs the piece, so a shortest way to such a cell runs
        through such cells only, and the search never needs another.  Its
        times are kept in ``g`` (A*'s; ``came`` marks the cells queued)."""
        src_p = self.pad[src]
        cost = self.cost
        if not cost[src_p] or rival[src_p] < 2:
            return 0
        came = self.came
        came[WHOLE] = self.walls
        came[src_p] = 1
        times = self.g
        nxt = self.link_next
        heads = self.heads
        steps = self.steps
        for b in range(_RING + 1):
            heads[b] = 0
        times[src_p] = 0
        heads[0] = src_p
        nxt[src_p] = 0
        queued = count = 1
        d = 0
        while queued:
            p = heads[d & _RING]
            while not p:
                d += 1
                p = heads[d & _RING]
            heads[d & _RING] = nxt[p]
            queued -= 1
            for k in range(4):
                q = p + steps[k]
                c = cost[q]
                if not c:
                    continue
                if flat:
                    c = 1
                nd = d + c
                if nd + 1 >= rival[q]:
                    continue
                if came[q]:
                    old = times[q]
                    if nd >= old:
                        continue
                    _unlink(heads, nxt, old & _RING, q)
                    queued -= 1
                else:
                    came[q] = 1
                    count += 1
                times[q] = nd
                b = nd & _RING
                nxt[q] = heads[b]
                heads[b] = q
                queued += 1
        return count

    def arrival_times(self, src, out):
        """Least entering cost from src to every cell into ``out`` (padded
        indexing, UNREACHED where unreachable): Dijkstra over the same bucket
        ring as A* with h = 0.  In terrain mode this is how many rounds a piece
        needs to get anywhere."""
        for p in range(len(out)):
            out[p] = UNREACHED
        src_p = self.pad[src]
        cost = self.cost
        if not cost[src_p]:
            return
        nxt = self.link_next
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
            heads[d & _RING] = nxt[p]
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
                    _unlink(heads, nxt, old & _RING, q)
                    queued -= 1
                out[q] = nd
                b = nd & _RING
                nxt[q] = heads[b]
                heads[b] = q
                queued += 1
