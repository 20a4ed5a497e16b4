"""The seed articles' search order, for traces that read like the articles.

The games' searches (gridpath.GridSearch) run backwards from the mouse and
break ties their own way.  The Cat & Mouse article searches forwards from the
cat, and its printed paths follow these rules (docs/sources.md says which of
its printed rounds they match):
- BFS goes level by level and takes each level's cells last found first;
  neighbours are looked at left, right, up, down; a cell keeps the first cell
  that reached it; the search stops when it reaches the mouse.
- A* takes the open cell of least F = G + H (G the stamina spent from the
  cat, H the Manhattan distance to the mouse), among equal F the lowest cell
  number; an open cell's G and link change only on a strictly cheaper G; the
  search stops when it takes the mouse off the open list.

SeedSearch shares a GridSearch's buffers (costs, walls, ``came``, ``g``,
``parent``, the queue, the path) and adds two arrays of its own, allocated
once; a search allocates nothing and does not recurse.  ``came`` ends as the
games' A* leaves it: 0 unseen, 1 open, 2 closed (expanded), 5 wall, and ``g``
and ``parent`` hold each reached cell's G and link, so one tracer reads both.
``order[:order_len]`` lists the expanded cells (public numbers) in order, and
``on_expand(cell)``, when set, is called as each cell is taken.  A separate
module, so the games' resident code does not grow.  A* scans its open list
for the least (F, cell) at every step: fine for the article's boards and for
traces, quadratic on big maps (the games use GridSearch.astar).
"""

from array import array

from gridpath import WHOLE

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_OPEN = const(1)
_CLOSED = const(2)


class SeedSearch:
    """The articles' BFS and A* over the grid of ``search`` (a GridSearch)."""

    def __init__(self, search):
        self.search = search
        n = search.cols * search.rows
        self.order = array("H", bytes(2 * n))
        self.order_len = 0
        self.open = array("H", bytes(2 * n))  # A*'s open list (padded cells)
        self.on_expand = None

    def _begin(self, src_p, dst_p):
        """Reset the state; False when either end is blocked."""
        s = self.search
        came = s.came
        came[WHOLE] = s.walls
        self.order_len = 0
        s.path_len = 0
        if came[src_p] or came[dst_p]:
            return False
        s.g[src_p] = 0
        s.parent[src_p] = 0
        came[src_p] = _OPEN
        return True

    def _taken(self, p):
        """Record p as expanded and close it (the hook, as in GridSearch.astar,
        sees the state before p is closed)."""
        cell = self.search.public[p]
        self.order[self.order_len] = cell
        self.order_len += 1
        if self.on_expand:
            self.on_expand(cell)
        self.search.came[p] = _CLOSED

    def _write_path(self, src_p, dst_p):
        """Follow the links back from dst and write the path forwards."""
        s = self.search
        parent = s.parent
        n = 0
        p = dst_p
        while p != src_p:
            p = parent[p]
            n += 1
        path = s.path
        public = s.public
        p = dst_p
        i = n
        while i >= 0:
            path[i] = public[p]
            p = parent[p]
            i -= 1
        s.path_len = n + 1
        return n

    def bfs(self, src, dst):
        """Fewest moves from src to dst in the article's order, or None."""
        s = self.search
        src_p = s.pad[src]
        dst_p = s.pad[dst]
        if not self._begin(src_p, dst_p):
            return None
        came = s.came
        g = s.g
        parent = s.parent
        queue = s.work
        steps = s.steps
        queue[0] = src_p
        start = 0
        end = tail = 1
        found = src_p == dst_p
        while start < end and not found:
            i = end
            while i > start and not found:
                i -= 1
                p = queue[i]
                self._taken(p)
                d = g[p] + 1
                for k in range(4):
                    q = p + steps[k]
                    if not came[q]:
                        came[q] = _OPEN
                        g[q] = d
                        parent[q] = p
                        queue[tail] = q
                        tail += 1
                        if q == dst_p:
                            found = True
                            break
            start = end
            end = tail
        if not found:
            return None
        return self._write_path(src_p, dst_p)

    def astar(self, src, dst):
        """Least stamina from src to dst in the article's order, or None."""
        s = self.search
        src_p = s.pad[src]
        dst_p = s.pad[dst]
        if not self._begin(src_p, dst_p):
            return None
        came = s.came
        g = s.g
        parent = s.parent
        cost = s.cost
        steps = s.steps
        col_of = s.col_of
        row_of = s.row_of
        tc = col_of[dst_p]
        tr = row_of[dst_p]
        opened = self.open
        opened[0] = src_p
        n_open = 1
        while n_open:
            best = 0
            best_f = -1
            for i in range(n_open):
                q = opened[i]
                dx = col_of[q] - tc
                dy = row_of[q] - tr
                f = g[q] + (dx if dx > 0 else -dx) + (dy if dy > 0 else -dy)
                if best_f < 0 or f < best_f or (f == best_f and q < opened[best]):
                    best = i
                    best_f = f
            p = opened[best]
            n_open -= 1
            opened[best] = opened[n_open]
            self._taken(p)
            if p == dst_p:
                self._write_path(src_p, dst_p)
                return g[dst_p]
            for k in range(4):
                q = p + steps[k]
                m = came[q]
                if m >= _CLOSED:
                    continue
                ng = g[p] + cost[q]
                if m == _OPEN:
                    if ng >= g[q]:
                        continue
                else:
                    came[q] = _OPEN
                    opened[n_open] = q
                    n_open += 1
                g[q] = ng
                parent[q] = p
        return None
