"""Cats and blockers for Trap the Cat (see trapcat.py), for the device.

Every strategy object is built once per Board and answers ``choose(board)``
with a cell (``NONE`` when it has no legal move).  All work buffers live in
one ``Analyzer`` per board and are reused; a move allocates nothing beyond
a few small ints.

Cats
- EasyCat: a random free neighbour (the seed's "欢乐模式").
- NormalCat: greedy - BFS distance to the border, step to the neighbour with the
  smallest distance (first in W, E, NW, NE, SW, SE order on ties).
- HardCat: exact tactics first, then a "two-distance" evaluation:
  1. step onto the border when possible;
  2. forced escapes within 3 cat moves, found exactly (the seed's E1/E2
     analysis: a neighbour with two free border cells, or a neighbour from
     which every block still leaves a neighbour like that);
  3. never step into a cell from which the player forces a capture within 3
     blocks, when another move avoids that;
  4. otherwise the neighbour with the smallest two-distance: free border cells
     are 0 and any other cell is 1 + the SECOND smallest value among its
     neighbours (the player closes the best one) - the seed's E-values
     generalised upwards, computed by one BFS-like sweep.  Ties: BFS distance,
     then more free neighbours.

Blockers
- RandomBlocker: a random free cell within two steps of the cat.
- GreedyBlocker: blocks the cell the NormalCat would step to next.
- StrongBlocker: closes a border cell next to the cat, plays a forced capture
  within 3 blocks when there is one, else the block (among free cells within
  three steps of the cat) that leaves the cat the worst two-distance.
  ``hint(board)`` is the StrongBlocker's choice.
"""

from array import array

from trapcat import NONE, Rng

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

INF = const(255)


class Analyzer:
    """Shared buffers and searches for one Board."""

    def __init__(self, board):
        n = board.n
        self.board = board
        self.dist = bytearray(n)     # BFS distance to a free border cell (INF)
        self.td = bytearray(n)       # two-distance (INF)
        self.cnt = bytearray(n)
        self.queue = bytearray(n)
        self.fc = bytearray(n)       # free-neighbour count (tactics)
        self.bc = bytearray(n)       # free border-neighbour count (tactics)
        self.mark2 = array("H", bytes(2 * n))
        self.mark3 = array("H", bytes(2 * n))
        self.gen2 = 0
        self.gen3 = 0
        self.cand2 = bytearray(n)
        self.cand3 = bytearray(n)
        self.moves = bytearray(6)
        self.witness = NONE          # the capturing block found by capture3

    # Distances -------------------------------------------------------------
    def distances(self):
        """dist[x] = fewest steps from free cell x to a free border cell."""
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        dist = self.dist
        q = self.queue
        tail = 0
        for x in range(b.n):
            if border[x] and not cells[x]:
                dist[x] = 0
                q[tail] = x
                tail += 1
            else:
                dist[x] = INF
        head = 0
        while head < tail:
            u = q[head]
            head += 1
            d = dist[u] + 1
            base = 6 * u
            for k in range(base, base + deg[u]):
                v = adj[k]
                if dist[v] == INF and not cells[v]:
                    dist[v] = d
                    q[tail] = v
                    tail += 1

    def two_distance(self):
        """td[x] = 0 on free border cells, else 1 + second smallest td among
        free neighbours (INF when fewer than two are finite)."""
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        td = self.td
        cnt = self.cnt
        q = self.queue
        tail = 0
        for x in range(b.n):
            cnt[x] = 0
            if border[x] and not cells[x]:
                td[x] = 0
                q[tail] = x
                tail += 1
            else:
                td[x] = INF
        head = 0
        while head < tail:
            u = q[head]
            head += 1
            d = td[u] + 1
            base = 6 * u
            for k in range(base, base + deg[u]):
                v = adj[k]
                if td[v] == INF and not cells[v]:
                    c = cnt[v] + 1
                    cnt[v] = c
                    if c == 2:
                        td[v] = d
                        q[tail] = v
                        tail += 1

    # Tactics (make/unmake on the board, fc/bc kept in step) ----------------
    def counts(self):
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        fc = self.fc
        bc = self.bc
        for x in range(b.n):
            f = 0
            e = 0
            base = 6 * x
            for k in range(base, base + deg[x]):
                y = adj[k]
                if not cells[y]:
                    f += 1
                    e += border[y]
            fc[x] = f
            bc[x] = e

    def _block(self, c):
        b = self.board
        b.cells[c] = 1
        adj = b.adj
        fc = self.fc
        base = 6 * c
        end = base + b.deg[c]
        for k in range(base, end):
            fc[adj[k]] -= 1
        if b.border[c]:
            bc = self.bc
            for k in range(base, end):
                bc[adj[k]] -= 1

    def _unblock(self, c):
        b = self.board
        b.cells[c] = 0
        adj = b.adj
        fc = self.fc
        base = 6 * c
        end = base + b.deg[c]
        for k in range(base, end):
            fc[adj[k]] += 1
        if b.border[c]:
            bc = self.bc
            for k in range(base, end):
                bc[adj[k]] += 1

    def escape2(self, w):
        """Cat on non-border w, player to move: does the cat reach the border
        within 2 more moves whatever the player blocks?  (Needs counts().)"""
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        bc = self.bc
        base = 6 * w
        end = base + deg[w]
        any_free = False
        # Only blocks next to w, or on a border cell next to a neighbour of w,
        # can matter; any other block changes nothing (blocks are monotone).
        for k in range(base, end):
            x = adj[k]
            if cells[x]:
                continue
            any_free = True
            for stage in range(2):
                if stage == 0:
                    lo = k
                    hi = k + 1          # candidate: x itself
                else:
                    lo = 6 * x
                    hi = lo + deg[x]    # candidates: border neighbours of x
                for j in range(lo, hi):
                    c = adj[j]
                    if cells[c] or c == w or (stage and not border[c]):
                        continue
                    self._block(c)
                    ok = False
                    for i in range(base, end):
                        y = adj[i]
                        if not cells[y] and (border[y] or bc[y] >= 2):
                            ok = True
                            break
                    self._unblock(c)
                    if not ok:
                        return False
        return any_free

    def capture2(self, x):
        """Cat on non-border x, player to move: can the player capture it
        within 2 blocks?  (Needs counts().)"""
        fc = self.fc
        if fc[x] <= 1:
            return True
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        base = 6 * x
        end = base + deg[x]
        strong = 0
        for k in range(base, end):
            y = adj[k]
            if not cells[y] and (border[y] or fc[y] >= 3):
                strong += 1     # only blocking y itself can stop this exit
        if strong >= 2:
            return False
        gen = self.gen2 + 1
        if gen > 0xFFFF:
            m = self.mark2
            for i in range(b.n):
                m[i] = 0
            gen = 1
        self.gen2 = gen
        mark = self.mark2
        cand = self.cand2
        nc = 0
        mark[x] = gen
        for k in range(base, end):
            y = adj[k]
            if cells[y]:
                continue
            if mark[y] != gen:
                mark[y] = gen
                cand[nc] = y
                nc += 1
            lo = 6 * y
            for j in range(lo, lo + deg[y]):
                c = adj[j]
                if mark[c] != gen and not cells[c]:
                    mark[c] = gen
                    cand[nc] = c
                    nc += 1
        for i in range(nc):
            c = cand[i]
            self._block(c)
            ok = True
            for k in range(base, end):
                y = adj[k]
                if not cells[y] and (border[y] or fc[y] > 1):
                    ok = False
                    break
            self._unblock(c)
            if ok:
                return True
        return False

    def capture3(self, w):
        """Cat on non-border w, player to move: can the player capture it
        within 3 blocks?  Sets self.witness to a first block that does it.
        (Needs counts().)"""
        b = self.board
        cells = b.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        fc = self.fc
        base = 6 * w
        end = base + deg[w]
        if fc[w] <= 1:
            self.witness = NONE
            for k in range(base, end):
                if not cells[adj[k]]:
                    self.witness = adj[k]
            return True
        nb = 0
        lastb = NONE
        for k in range(base, end):
            y = adj[k]
            if not cells[y] and border[y]:
                nb += 1
                lastb = y
        if nb >= 2:
            return False
        gen = self.gen3 + 1
        if gen > 0xFFFF:
            m = self.mark3
            for i in range(b.n):
                m[i] = 0
            gen = 1
        self.gen3 = gen
        mark = self.mark3
        cand = self.cand3
        nc = 0
        if nb == 1:
            cand[0] = lastb     # the open border cell must be closed now
            nc = 1
        else:
            # Free cells within 3 steps of w: the only blocks that can matter.
            mark[w] = gen
            cand[0] = w
            nc = 1
            lo = 0
            for level in range(3):
                hi = nc
                for i in range(lo, hi):
                    u = cand[i]
                    ub = 6 * u
                    for j in range(ub, ub + deg[u]):
                        c = adj[j]
                        if mark[c] != gen and not cells[c]:
                            mark[c] = gen
                            cand[nc] = c
                            nc += 1
                lo = hi
            # drop w itself (slot 0)
            nc -= 1
            cand[0] = cand[nc]
        for i in range(nc):
            c = cand[i]
            self._block(c)
            ok = True
            for k in range(base, end):
                x = adj[k]
                if not cells[x] and (border[x] or not self.capture2(x)):
                    ok = False
                    break
            self._unblock(c)
            if ok:
                self.witness = c
                return True
        return False


class EasyCat:
    def __init__(self, board, seed=1):
        self.rng = Rng(seed)
        self.buf = bytearray(6)

    def choose(self, board):
        m = board.free_neighbours(board.cat, self.buf)
        if m == 0:
            return NONE
        return self.buf[self.rng.below(m)]


def _greedy_step(board, dist):
    """The neighbour of the cat with the smallest BFS distance (first on ties);
    when no free cell reaches the border, the one with most free neighbours."""
    adj = board.adj
    cells = board.cells
    cat = board.cat
    base = 6 * cat
    best = NONE
    bestd = 999
    for k in range(base, base + board.deg[cat]):
        x = adj[k]
        if not cells[x]:
            d = dist[x]
            if d == INF:
                d = 300 - board.free_count(x)
            if d < bestd:
                bestd = d
                best = x
    return best


class NormalCat:
    def __init__(self, board, analyzer=None):
        self.an = analyzer or Analyzer(board)

    def choose(self, board):
        self.an.distances()
        return _greedy_step(board, self.an.dist)


class HardCat:
    def __init__(self, board, analyzer=None):
        self.an = analyzer or Analyzer(board)
        self.reason = 0   # 1 border, 2 escape in 2, 3 escape in 3, 4 eval

    def choose(self, board):
        an = self.an
        cells = board.cells
        border = board.border
        adj = board.adj
        cat = board.cat
        moves = an.moves
        m = 0
        base = 6 * cat
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if not cells[x]:
                if border[x]:
                    self.reason = 1
                    return x
                moves[m] = x
                m += 1
        if m == 0:
            return NONE
        an.counts()
        bc = an.bc
        for i in range(m):
            if bc[moves[i]] >= 2:
                self.reason = 2
                return moves[i]
        for i in range(m):
            if an.escape2(moves[i]):
                self.reason = 3
                return moves[i]
        self.reason = 4
        an.two_distance()
        an.distances()
        td = an.td
        dist = an.dist
        fc = an.fc
        best = NONE
        bestv = 0
        for i in range(m):
            x = moves[i]
            v = (td[x] * 256 + dist[x]) * 8 + 7 - fc[x]
            if an.capture3(x):
                v += 1 << 20        # only if every move loses by force
            if best == NONE or v < bestv:
                best = x
                bestv = v
        return best


class RandomBlocker:
    def __init__(self, board, seed=1):
        self.rng = Rng(seed)
        self.buf = bytearray(board.n)

    def choose(self, board):
        cells = board.cells
        adj = board.adj
        cat = board.cat
        buf = self.buf
        m = 0
        base = 6 * cat
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if not cells[x]:
                buf[m] = x
                m += 1
            xb = 6 * x
            for j in range(xb, xb + board.deg[x]):
                y = adj[j]
                if not cells[y] and y != cat:
                    buf[m] = y      # duplicates only skew the odds a little
                    m += 1
        if m == 0:
            for x in range(board.n):
                if not cells[x] and x != cat:
                    buf[m] = x
                    m += 1
        if m == 0:
            return NONE
        return buf[self.rng.below(m)]


def _any_block(board):
    for x in range(board.n):
        if not board.cells[x] and x != board.cat:
            return x
    return NONE


class GreedyBlocker:
    def __init__(self, board, analyzer=None):
        self.an = analyzer or Analyzer(board)

    def choose(self, board):
        self.an.distances()
        x = _greedy_step(board, self.an.dist)
        return x if x != NONE else _any_block(board)


class StrongBlocker:
    def __init__(self, board, analyzer=None):
        self.an = analyzer or Analyzer(board)

    def _score(self, board):
        """How bad the position is for the cat to move (bigger = better for
        the player): its best neighbour's two-distance, how many neighbours
        share it, BFS distance."""
        an = self.an
        an.two_distance()
        an.distances()
        td = an.td
        dist = an.dist
        cells = board.cells
        adj = board.adj
        cat = board.cat
        base = 6 * cat
        best = 999
        ties = 0
        bestd = 999
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if cells[x]:
                continue
            if board.border[x]:
                return 0
            t = td[x]
            if t < best:
                best = t
                ties = 1
            elif t == best:
                ties += 1
            if dist[x] < bestd:
                bestd = dist[x]
        if best == 999:
            return 1 << 22      # captured
        return (best * 8 + 7 - ties) * 256 + bestd

    def choose(self, board):
        an = self.an
        cells = board.cells
        border = board.border
        adj = board.adj
        cat = board.cat
        base = 6 * cat
        first = NONE
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if not cells[x]:
                if first == NONE:
                    first = x
                if border[x]:
                    return x
        if first == NONE:
            return _any_block(board)
        an.counts()
        if an.capture3(cat) and an.witness != NONE:
            return an.witness
        # candidates: free cells within three steps of the cat
        gen = an.gen3 + 1
        if gen > 0xFFFF:
            for i in range(board.n):
                an.mark3[i] = 0
            gen = 1
        an.gen3 = gen
        mark = an.mark3
        cand = an.cand3
        deg = board.deg
        mark[cat] = gen
        cand[0] = cat
        nc = 1
        lo = 0
        for level in range(3):
            hi = nc
            for i in range(lo, hi):
                u = cand[i]
                ub = 6 * u
                for j in range(ub, ub + deg[u]):
                    c = adj[j]
                    if mark[c] != gen and not cells[c]:
                        mark[c] = gen
                        cand[nc] = c
                        nc += 1
            lo = hi
        best = first
        bestv = -1
        for i in range(1, nc):
            c = cand[i]
            cells[c] = 1
            v = self._score(board)
            cells[c] = 0
            if v > bestv:
                bestv = v
                best = c
        return best


def hint(board, blocker=None):
    """A good cell for the player to block (the StrongBlocker's choice)."""
    if blocker is None:
        blocker = StrongBlocker(board)
    return blocker.choose(board)


CAT_NAMES = ("easy", "normal", "hard")
BLOCKER_NAMES = ("random", "greedy", "strong")


def make_cat(name, board, seed=1):
    if name == "easy":
        return EasyCat(board, seed)
    if name == "normal":
        return NormalCat(board)
    if name == "hard":
        return HardCat(board)
    raise ValueError("unknown cat %r" % name)


def make_blocker(name, board, seed=1):
    if name == "random":
        return RandomBlocker(board, seed)
    if name == "greedy":
        return GreedyBlocker(board)
    if name == "strong":
        return StrongBlocker(board)
    raise ValueError("unknown blocker %r" % name)
