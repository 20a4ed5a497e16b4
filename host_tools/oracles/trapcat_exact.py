"""Exact Trap the Cat game-tree answers for tests and the bench, written
independently of firmware/trapcat_ai.py: recursive, memoised on (blocked
cells as an int bitmask, cat cell, depth), geometry from cube coordinates.

- ``escape_cat(blocked, cat, k)``: cat to move - can it stand on the border
  within k of its moves whatever the player blocks?
- ``escape_blk(blocked, cat, k)``: the player to move first.
- ``capture_blk(blocked, cat, h)``: player to move - can the player leave the
  cat without a free neighbour within h blocks whatever it does?

Cuts (each exact; the test compares against an unpruned brute force):
the two-distance of the *current* board bounds the cat's moves from below;
a block at p only matters if hexdist(cat, p) + td(p) <= k (else it is a
pass); a capture within h blocks needs blocks on cells the cat can stand on
(within h - 1 steps) or next to a trap cell (non-border, within h - 1 steps,
at most h free neighbours).
"""

INF = 10 ** 6


class Exact:
    def __init__(self, size):
        self.size = size
        n = size * size
        self.n = n
        self.cube = [self._cube(a) for a in range(n)]
        self.nb = [[x for x in range(n) if self.hexdist(a, x) == 1] for a in range(n)]
        self.border = [a // size in (0, size - 1) or a % size in (0, size - 1) for a in range(n)]
        self.border_mask = sum(1 << a for a in range(n) if self.border[a])
        self.nb_mask = [sum(1 << x for x in self.nb[a]) for a in range(n)]
        self.within = {}
        self.memo_e = {}
        self.memo_c = {}
        self.memo_td = {}

    def _cube(self, cell):
        r, c = divmod(cell, self.size)
        x = c - (r - (r & 1)) // 2
        return x, r, -x - r

    def hexdist(self, a, b):
        ax, ay, az = self.cube[a]
        bx, by, bz = self.cube[b]
        return max(abs(ax - bx), abs(ay - by), abs(az - bz))

    def near(self, a, d):
        key = (a, d)
        if key not in self.within:
            self.within[key] = [x for x in range(self.n) if 0 < self.hexdist(a, x) <= d]
        return self.within[key]

    def free_nb(self, blocked, cell):
        return [x for x in self.nb[cell] if not blocked >> x & 1]

    def two_distance(self, blocked):
        td = self.memo_td.get(blocked)
        if td is not None:
            return td
        td = [INF] * self.n
        seen = [0] * self.n
        frontier = [a for a in range(self.n) if self.border[a] and not blocked >> a & 1]
        for a in frontier:
            td[a] = 0
        d = 0
        while frontier:
            d += 1
            nxt = []
            for u in frontier:
                for v in self.nb[u]:
                    if td[v] == INF and not blocked >> v & 1:
                        seen[v] += 1
                        if seen[v] == 2:
                            td[v] = d
                            nxt.append(v)
            frontier = nxt
        if len(self.memo_td) > 200000:
            self.memo_td.clear()
        self.memo_td[blocked] = td
        return td

    # escape ------------------------------------------------------------------
    def escape_cat(self, blocked, cat, k):
        moves = self.free_nb(blocked, cat)
        if any(self.border[y] for y in moves):
            return True
        if k <= 1:
            return False
        key = (blocked, cat, k)
        r = self.memo_e.get(key)
        if r is None:
            r = any(self.escape_blk(blocked, y, k - 1) for y in moves)
            self.memo_e[key] = r
        return r

    def escape_blk(self, blocked, cat, k):
        if self.border[cat]:
            return True
        key = (blocked, cat, -k)
        r = self.memo_e.get(key)
        if r is not None:
            return r
        td = self.two_distance(blocked)
        if td[cat] > k:
            r = False
        else:
            cands = [p for p in self.near(cat, k)
                     if not blocked >> p & 1 and self.hexdist(cat, p) + td[p] <= k]
            if not cands:
                r = self.escape_cat(blocked, cat, k)       # every block is a pass
            else:
                r = all(self.escape_cat(blocked | 1 << p, cat, k) for p in cands)
        self.memo_e[key] = r
        return r

    def min_escape(self, blocked, cat, kmax=5):
        for k in range(1, kmax + 1):
            if self.escape_cat(blocked, cat, k):
                return k
        return None

    # capture -----------------------------------------------------------------
    def free_count(self, blocked, cell):
        return (self.nb_mask[cell] & ~blocked).bit_count()

    def capture_blk(self, blocked, cat, h):
        free = self.nb_mask[cat] & ~blocked
        if free.bit_count() <= 1:
            return True
        if h <= 1:
            return False
        key = (blocked, cat, h)
        r = self.memo_c.get(key)
        if r is not None:
            return r
        exits = free & self.border_mask
        if exits.bit_count() >= 2:
            r = False
        elif exits:
            r = self.captured_after(blocked | exits, cat, h - 1)
        else:
            # the cat stands only on cells within h - 1 steps; a cell h steps
            # away matters only next to a trap cell (non-border, <= h free)
            cands = 0
            for q in [cat] + self.near(cat, h - 1):
                if not blocked >> q & 1:
                    cands |= 1 << q
                    if not self.border[q] and self.free_count(blocked, q) <= h:
                        cands |= self.nb_mask[q]
            cands &= ~blocked & ~(1 << cat)
            r = False
            while cands:
                low = cands & -cands
                cands ^= low
                if self.captured_after(blocked | low, cat, h - 1):
                    r = True
                    break
        self.memo_c[key] = r
        return r

    def captured_after(self, blocked, cat, h):
        """Cat to move after a block, h blocks left: is it captured by force?"""
        moves = self.free_nb(blocked, cat)
        if not moves:
            return True
        if h == 0 or any(self.border[y] for y in moves):
            return False
        key = (blocked, cat, -h)
        r = self.memo_c.get(key)
        if r is None:
            r = all(self.capture_blk(blocked, y, h) for y in moves)
            self.memo_c[key] = r
        return r

    def clear(self):
        self.memo_e.clear()
        self.memo_c.clear()
        self.memo_td.clear()


def mask(cells):
    """Bitmask of the non-zero cells of a bytes-like board."""
    m = 0
    for i, v in enumerate(cells):
        if v:
            m |= 1 << i
    return m
