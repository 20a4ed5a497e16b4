"""Cats and blockers for Trap the Cat (see trapcat.py), for the device.

Every strategy object is built once per Board and is a task of the long-work
protocol (firmware/work.py): ``begin(board)`` prepares a decision, each
``step()`` runs one bounded slice of it (True when it is made), ``answer`` is
the cell it chose (``NONE`` when it has no legal move, ``work.NO_ANSWER``
before it has decided); ``choose(board)`` is the same work in one call.  All
work buffers live in one ``Analyzer`` per board (with one ``Deep`` exact
searcher) and are reused; a move allocates nothing.

Cats
- EasyCat: a random free neighbour (the seed's "欢乐模式").
- NormalCat: greedy - BFS distance to the border, step to the neighbour with the
  smallest distance (first in W, E, NW, NE, SW, SE order on ties).
- HardCat: exact tactics first, then a "two-distance" evaluation:
  1. step onto the border when possible;
  2. the fastest forced escape within _ESCAPE_DEPTH (5) cat moves, found
     exactly by Deep (iterative deepening: 2, 3, 4, 5 moves);
  3. never step into a cell from which the player forces a capture within
     _CAPTURE_DEPTH (4) blocks, when another move avoids that (when none
     does, the step with the slowest forced capture);
  4. among the steps left, the one with the smallest two-distance: free
     border cells are 0 and any other cell is 1 + the SECOND smallest value
     among its neighbours (the player closes the best one) - the seed's
     E-values generalised upwards.  Ties: BFS distance, then more free
     neighbours.

Blockers
- RandomBlocker: a random free cell within two steps of the cat.
- GreedyBlocker: blocks the cell the NormalCat would step to next.
- StrongBlocker (the player's HINT): closes a border cell next to the cat;
  keeps a forced capture within 4 blocks when there is one; else, among
  the blocks that leave the cat no forced escape within 5 moves, the one
  that leaves the cat the worst two-distance.  Where the viper kernel
  (trapcat_viper) runs, it first looks _LOOK_DEPTH (7) moves deep: the
  best-scored block that leaves no forced escape within 7, within
  LOOK_NODES kernel expansions.  ``hint(board)``.

The distance map the game shows (B+DOWN) is ``Analyzer.distances``: the
same border search the cats use.

Every ESCAPE search runs in the kernel where it exists (a Pico, CPython):
the same expansions and answers as ``Deep.run``, ~24x faster on a Pico; so do
the two-distance and BFS sweeps (``_sweep_td``, ``Analyzer.distances``: the
same values), which the hint runs for every candidate block it scores.
"""

from array import array

from trapcat import NONE, Rng
from work import NO_ANSWER, Task

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

INF = const(255)

try:
    import trapcat_viper as _tv   # Deep.run for ESCAPE searches as a viper kernel
except (ImportError, SyntaxError):  # no native emitter here (WebAssembly VMs, CircuitPython)
    _tv = None
# the hint looks _LOOK_DEPTH moves deep where the kernel runs (as machine code
# on a Pico, as Python on CPython: the simulator plays the device's moves)
LOOK_KERNEL = _tv is not None


class Analyzer:
    """Shared buffers and searches for one Board."""

    def __init__(self, board):
        n = board.n
        self.board = board
        self.dist = bytearray(n)     # BFS distance to a free border cell (INF)
        self.td = bytearray(n)       # two-distance (INF)
        self.cnt = bytearray(n)
        self.queue = bytearray(n)
        self.mark3 = array("H", bytes(2 * n))   # StrongBlocker._keeps' marks
        self.gen3 = 0
        self.cand3 = bytearray(n)    # and list of changed cells
        self.moves = bytearray(6)
        self.nbf = bytearray(n)      # 1 on the cat's neighbours (early-exit sweeps)
        self.deep = Deep(board)      # exact escape/capture search

    # Distances -------------------------------------------------------------
    def distances(self, stop=False):
        """dist[x] = fewest steps from free cell x to a free border cell
        (INF on blocked cells and on free cells the border cannot reach).
        With ``stop`` the sweep ends at the first cell flagged in ``nbf`` (the
        nearest of the cat's neighbours); cells not reached stay INF.

        Without ``stop`` this is also the seed article's distance map that the
        game shows (B+DOWN): free border cells 0, every other free cell the
        least of its neighbours + 1 (the article's walls, 100 there, are the
        blocked cells); that fixed point is this BFS from the free border
        cells, so one border search serves the cats and the map."""
        b = self.board
        cells = b.cells
        adj = b.adj
        deg = b.deg
        dist = self.dist
        nbf = self.nbf
        q = self.queue
        tail = 0
        tpl = b.sweep_templates
        dist[:] = tpl[1]
        if _tv is not None:
            _tv.sweep_dist(b, dist, nbf, q, stop)
            return
        for x in tpl[2]:
            if cells[x]:
                dist[x] = INF
            else:
                q[tail] = x
                tail += 1
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
                    if stop and nbf[v]:
                        return
                    q[tail] = v
                    tail += 1


def _sweep_td(b, cells, td, cnt, q, nbf, stop):
    """The two-distance sweep of Board b over ``cells`` into td (cnt, q:
    scratch).  The queue holds non-decreasing values, so with ``stop`` it
    ends once no cell flagged in ``nbf`` can still get a value <= the
    smallest one flagged so far (the others stay INF)."""
    adj = b.adj
    deg = b.deg
    tpl = b.sweep_templates
    best = INF
    tail = 0
    td[:] = tpl[1]
    cnt[:] = tpl[0]
    if _tv is not None:             # machine code on a Pico (the hint scores with it)
        _tv.sweep_td(b, cells, td, cnt, q, td if nbf is None else nbf, stop)
        return
    for x in tpl[2]:
        if cells[x]:
            td[x] = INF
        else:
            q[tail] = x
            tail += 1
    head = 0
    while head < tail:
        u = q[head]
        head += 1
        d = td[u] + 1
        if d > best:
            return
        base = 6 * u
        for k in range(base, base + deg[u]):
            v = adj[k]
            if td[v] == INF and not cells[v]:
                c = cnt[v] + 1
                cnt[v] = c
                if c == 2:
                    td[v] = d
                    if stop and nbf[v] and d < best:
                        best = d
                    q[tail] = v
                    tail += 1


# Sliced thinking -------------------------------------------------------------
# Every cat and blocker answers ``choose(board)`` in one call, and the same
# work as a task of work.py: ``begin(board)``, then ``step()`` until it
# returns True; the answer is then ``answer``.  Work comes in units whose cost
# is estimated in "work units" of about 1e5 VM fuel (~1 ms on a Pico),
# measured per phase in the VM: a full sweep of the board costs n/7, a hint
# candidate two sweeps, DEEP_CHUNK expansions of a deep search 10.  A step is
# one slice: it runs units while the spent total plus the next unit's cost
# stays within ``slice_units`` (SLICE_UNITS; at least one unit), so a slice
# is bounded by its work, not by a clock (the game's work.Job owns the
# deadline).  ``begin``/``step`` allocate nothing; a begun task may be
# dropped at any time (begin again before stepping).

SLICE_UNITS = const(50)     # work units per step(): <= 5.5 M VM fuel, ~25 ms on a Pico (bench)
_FOREVER = const(1 << 29)

_DONE = const(0)
_START = const(1)
_ESCAPE = const(2)
_LOOK = const(3)
_SWEEP_DIST = const(4)
_CAPTURE = const(5)
_CAND = const(6)
_SCORE = const(7)
_VERIFY = const(8)

_ESCAPE_DEPTH = const(5)     # cat moves: forced escapes found exactly
_CAPTURE_DEPTH = const(4)    # blocks: forced captures found exactly
DEEP_CHUNK = const(2)       # deep-search expansions per work unit
_HINT_TRIES = const(3)       # best-scored blocks the hint verifies itself
VERIFY_NODES = const(300)   # expansions the hint spends verifying them
_LOOK_DEPTH = const(7)       # cat moves: the hint's kernel look past _ESCAPE_DEPTH
LOOK_NODES = const(22000)   # kernel expansions the look may spend per hint
KERNEL_CHUNK = const(200)   # kernel expansions per 10-unit work item (~5 ms)


def _costs(board):
    """Estimated cost of the next unit per phase (see above)."""
    sweep = board.n // 7 + 1
    c = bytearray(9)
    c[_START] = board.n // 3 + 1         # Deep.load: copy, counts, td
    c[_ESCAPE] = 10                      # DEEP_CHUNK expansions: <= 1 M fuel
    c[_SWEEP_DIST] = sweep
    c[_CAPTURE] = 10
    c[_CAND] = board.n // 20 + 1 + 2 * sweep   # + the unblocked score
    c[_SCORE] = 2 * sweep
    c[_VERIFY] = 10
    c[_LOOK] = 10                        # KERNEL_CHUNK kernel expansions
    return c


# Exact deep search -------------------------------------------------------------
# An AND-OR game-tree search with explicit preallocated stacks (no recursion:
# the Pico's C stack is 8 KB), on its own copy of the cells so a dropped,
# half-run search leaves the board untouched.  Two questions:
# - ESCAPE: can the cat stand on the border within k of its moves whatever
#   the player blocks?  (cat nodes OR, blocker nodes AND)
# - CAPTURE: can the player leave the cat without a free neighbour within h
#   blocks whatever it does?  (blocker nodes OR, cat nodes AND)
# Every cut keeps the answer exact:
# - the two-distance td (computed once at load) only grows as cells are
#   blocked and is a lower bound on the cat's moves from a cell with the
#   player to move; a cat step to y is tried only if td[y] <= moves left - 1;
# - with k cat moves left, only blocks on cells p the cat can reach in d
#   steps through such useful cells with d + td[p] <= k can change the
#   outcome (any other block is a pass, and a pass never beats a block);
# - one free border neighbour forces the player to close it, two lose;
# - a capture within h blocks needs a cell q within h - 1 steps of the cat
#   with at most h free neighbours, and blocks within h steps of it.

ESCAPE = const(0)
CAPTURE = const(1)
_CATN = const(0)             # node kinds: cat to move, player to move
_BLKN = const(1)
_PLIES = const(10)


def _templates(board):
    """Sweep templates, made once per Board and shared: all 0; 0 on the
    border and INF elsewhere; the border cells."""
    tpl = getattr(board, "sweep_templates", None)
    if tpl is None:
        n = board.n
        init = bytearray(n)
        blist = bytearray(4 * board.size - 4)
        m = 0
        for x in range(n):
            if board.border[x]:
                blist[m] = x
                m += 1
            else:
                init[x] = INF
        tpl = (bytes(n), init, blist)
        board.sweep_templates = tpl
    return tpl


class _DeepTables:
    """Deep's tables for one Board, allocated once: its own copy of the
    cells with each cell's free (``fc``) and free border (``bc``)
    neighbour counts and the two-distance ``td`` from the load, the axial
    coordinates (hex distances), the breadth-first scratch and marks, and
    the node stacks (ply-indexed: the children in ``cand``, the next one
    ``idx``, their end ``hi``, the cat's cell ``at``, moves left ``dep``,
    node ``kind``, the deciding value ``short``, a pass's replies).
    ``load``/``block``/``unblock`` keep the copy and its counts; ``_near``
    lists the free cells near a cell."""

    def __init__(self, board, plies=_PLIES):
        n = board.n
        self.board = board
        self.n = n
        self.cells = bytearray(n)
        self.fc = bytearray(n)
        self.bc = bytearray(n)
        self.td = bytearray(n)
        self.cnt = bytearray(n)
        self.q = bytearray(n)
        self.dd = bytearray(n)
        self.mark = array("H", bytes(2 * n))
        self.tmark = array("H", bytes(2 * n))   # trap neighbours (same gen)
        self.gen = 0
        self.cand = bytearray(plies * n)
        self.idx = array("H", bytes(2 * plies))
        self.hi = array("H", bytes(2 * plies))
        self.at = bytearray(plies)
        self.dep = bytearray(plies)
        self.kind = bytearray(plies)
        self.short = bytearray(plies)   # the child value that decides a node
        self.reply = bytearray(6 * plies)   # a pass child's safe cat steps
        self.nreply = bytearray(plies)      # how many (0: not collecting)
        self.collect = bytearray(plies)     # 1 on a cat node after a pass
        self.kst = array("i", bytes(16))    # trapcat_viper's sp, nodes, gen, decided
        self.kernel = _tv is not None       # ESCAPE searches in the kernel
        _templates(board)
        self.hq = bytearray(n)           # axial coordinates (hex distance)
        self.hr = bytearray(n)
        size = board.size
        for x in range(n):
            r = x // size
            self.hq[x] = x % size - (r - (r & 1)) // 2 + size
            self.hr[x] = r
        self.sp = 0
        self.mode = ESCAPE
        self.first = NONE
        self.leaf = NONE
        self.nodes = 0                   # expansions since begin (statistics)

    # Position ------------------------------------------------------------
    def load(self, board):
        """Copy the cells, count free (border) neighbours, compute td.  A
        search left running is dropped with the old copy."""
        self.sp = -1
        n = self.n
        src = board.cells
        cells = self.cells
        for i in range(n):
            cells[i] = 1 if src[i] else 0
        border = board.border
        adj = board.adj
        deg = board.deg
        fc = self.fc
        bc = self.bc
        for x in range(n):
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
        _sweep_td(board, cells, self.td, self.cnt, self.q, None, False)

    def block(self, c):
        b = self.board
        self.cells[c] = 1
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

    def unblock(self, c):
        b = self.board
        self.cells[c] = 0
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

    def _near(self, x, depth, lo, useful):
        """Free cells within ``depth`` steps of x (not x) into cand[lo:],
        breadth first; with ``useful`` only through cells with d + td <=
        depth.  Returns the end index and leaves dd/mark set for them."""
        b = self.board
        adj = b.adj
        deg = b.deg
        cells = self.cells
        td = self.td
        dd = self.dd
        q = self.q
        cand = self.cand
        gen = self.gen + 1
        if gen > 0xFFFF:
            m = self.mark
            t = self.tmark
            for i in range(self.n):
                m[i] = 0
                t[i] = 0
            gen = 1
        self.gen = gen
        mark = self.mark
        mark[x] = gen
        dd[x] = 0
        q[0] = x
        head = 0
        tail = 1
        out = lo
        while head < tail:
            u = q[head]
            head += 1
            d = dd[u] + 1
            if d > depth:
                break
            base = 6 * u
            for k in range(base, base + deg[u]):
                v = adj[k]
                if mark[v] != gen and not cells[v]:
                    mark[v] = gen
                    if useful and d + td[v] > depth:
                        continue
                    dd[v] = d
                    q[tail] = v
                    tail += 1
                    cand[out] = v
                    out += 1
        return out


class _DeepCuts(_DeepTables):
    """Which moves a node of Deep's search needs to try, and the closed
    forms that decide a node without children (the cuts listed above, each
    keeping the answer exact)."""

    def _witness_killers(self, x, lo, first=False):
        """Player to move, cat on x with no free border neighbour: a free
        neighbour y with two free border neighbours (a witness) gets the
        cat out in 2 moves unless the block kills it - blocks y, or (y with
        exactly two) one of those two.  So only a block that kills every
        witness can stop the cat: those go to cand[lo:]; returns the end,
        lo when there is no witness, -1 when no block kills them all.  With
        2 moves left that is the whole answer (the cat is out in 2 exactly
        when it returns -1), so ``first`` stops at the first killer."""
        b = self.board
        cells = self.cells
        border = b.border
        adj = b.adj
        deg = b.deg
        bc = self.bc
        hq = self.hq
        hr = self.hr
        cand = self.cand
        base = 6 * x
        end = base + deg[x]
        y0 = NONE
        for k in range(base, end):
            y = adj[k]
            if not cells[y] and bc[y] >= 2:
                y0 = y
                break
        if y0 == NONE:
            return lo
        hi = lo
        yb = 6 * y0
        for t in range(-1, deg[y0]):
            if t < 0:
                c = y0
            else:
                c = adj[yb + t]
                if bc[y0] != 2 or cells[c] or not border[c]:
                    continue
            # does blocking c kill every other witness too?
            kills = True
            cb = border[c]
            for k in range(base, end):
                y = adj[k]
                if y == y0 or y == c or cells[y] or bc[y] < 2:
                    continue
                if bc[y] > 2 or not cb:
                    kills = False
                    break
                # c must be one of y's two border neighbours
                dq = hq[y] - hq[c]
                dr = hr[y] - hr[c]
                ds = dq + dr            # adjacent: a unit step, squares sum 2
                if dq * dq + dr * dr + ds * ds != 2:
                    kills = False
                    break
            if kills:
                cand[hi] = c
                hi += 1
                if first:
                    break
        return hi if hi > lo else -1

    def _cap2(self, x):
        """Player to move, cat on non-border x with at least two free
        neighbours, none on the border: capture within 2 blocks?  The block
        must leave every free neighbour y of x with at most one free
        neighbour (the cat steps there, the last block closes it): a y with
        3 or more can only be fixed by blocking y itself, so two such y
        lose; else every y with 2 must be the block or touch it."""
        fc = self.fc
        b = self.board
        cells = self.cells
        adj = b.adj
        deg = b.deg
        base = 6 * x
        end = base + deg[x]
        big = NONE
        two = NONE
        for k in range(base, end):
            y = adj[k]
            if not cells[y]:
                f = fc[y]
                if f >= 3:
                    if big != NONE:
                        return 0
                    big = y
                elif f == 2 and two == NONE:
                    two = y
        if big != NONE:
            return self._cap2_try(x, big)
        if two == NONE:
            return 1
        if self._cap2_try(x, two):
            return 1
        tb = 6 * two
        for k in range(tb, tb + deg[two]):
            c = adj[k]
            if not cells[c] and c != x and self._cap2_try(x, c):
                return 1
        return 0

    def _cap2_try(self, x, c):
        """Would blocking c leave every free neighbour of x (but c) with at
        most one free neighbour?  (A block lowers its neighbours' counts.)"""
        fc = self.fc
        cells = self.cells
        adj = self.board.adj
        deg = self.board.deg
        hq = self.hq
        hr = self.hr
        qc = hq[c]
        rc = hr[c]
        base = 6 * x
        for k in range(base, base + deg[x]):
            y = adj[k]
            if cells[y] or y == c:
                continue
            f = fc[y]
            if f > 2:
                return 0
            if f == 2:
                dq = hq[y] - qc
                dr = hr[y] - rc
                ds = dq + dr            # adjacent: a unit step, squares sum 2
                if dq * dq + dr * dr + ds * ds != 2:
                    return 0
        return 1

    def _roomy(self, x, h):
        """Player to move, cat on x, h = 3 or 4: True when the cat has room
        enough that no capture within h blocks exists, by a sufficient
        condition read off the free-neighbour counts.  With e blocks still
        to come anywhere (not on the cat), the cat on c is not captured
        within j blocks when c is on the border, or (j = 1) fc[c] >= e + 2,
        or (j >= 2) at least e + 2 of its free neighbours d are so for
        j - 1 and e + 1 (the e blocks and the next one close at most e + 1
        of them; the cat steps to another).  Here: x with e = 0."""
        b = self.board
        adj = b.adj
        deg = b.deg
        border = b.border
        cells = self.cells
        fc = self.fc
        ny = 0
        xb = 6 * x
        end = xb + deg[x]
        for k in range(xb, end):
            if ny + end - k < 2:
                return False            # too few neighbours left
            y = adj[k]
            if cells[y]:
                continue
            if not border[y]:
                # y with j = h - 1, e = 1: 3 neighbours z good for j = h - 2, e = 2
                if fc[y] < 3:
                    continue
                nz = 0
                yb = 6 * y
                for j in range(yb, yb + deg[y]):
                    z = adj[j]
                    if cells[z]:
                        continue
                    if h == 3:
                        if not border[z] and fc[z] < 4:
                            continue
                    elif not border[z]:
                        # z with j = 2, e = 2: 4 neighbours w with fc >= 5
                        nw = 0
                        zb = 6 * z
                        for i in range(zb, zb + deg[z]):
                            w = adj[i]
                            if not cells[w] and (border[w] or fc[w] >= 5):
                                nw += 1
                        if nw < 4:
                            continue
                    nz += 1
                    if nz >= 3:
                        break
                if nz < 3:
                    continue
            ny += 1
            if ny >= 2:
                return True
        return False

    def _trap_blocks(self, x, h, lo):
        """Blocks that can matter to a capture of the cat at x within h
        blocks, into cand[lo:]; returns the end (lo: no capture possible).
        The cat stands only on cells within h - 1 steps, so a cell h steps
        away matters only as a neighbour of a trap cell: a non-border cell
        q within h - 1 steps with at most h free neighbours."""
        b = self.board
        adj = b.adj
        deg = b.deg
        border = b.border
        fc = self.fc
        dd = self.dd
        cand = self.cand
        hi = self._near(x, h, lo, False)
        tm = self.tmark
        gen = self.gen          # _near's generation: unique per call
        traps = 0
        for i in range(lo - 1, hi):
            q = x if i < lo else cand[i]
            if dd[q] < h and fc[q] <= h and not border[q]:
                traps += 1
                qb = 6 * q
                for k in range(qb, qb + deg[q]):
                    tm[adj[k]] = gen
        if not traps:
            return lo
        out = lo
        for i in range(lo, hi):
            c = cand[i]
            if dd[c] < h or tm[c] == gen:
                cand[out] = c
                out += 1
        # the cat's own neighbours first (no far-block cut drops them, and
        # one may capture at once), then a pass (see run): its answers rule
        # out far blocks
        k = lo
        while k < out and dd[cand[k]] == 1:
            k += 1
        for i in range(out, k, -1):
            cand[i] = cand[i - 1]
        cand[k] = NONE
        return out + 1

    def _skip_far(self, sp):
        """The pass at player node sp (depth h) did not decide it: the cat
        node after it collected every cat step y that answers the pass.  A
        search of depth h - 1 from y reads only cells within h - 1 steps of
        y, so a block farther from any one such y is answered the same way;
        drop those blocks."""
        base = 6 * (sp + 1)
        nr = self.nreply[sp + 1]
        reply = self.reply
        r2 = 2 * (self.dep[sp] - 1)
        hq = self.hq
        hr = self.hr
        cand = self.cand
        out = self.idx[sp]
        for i in range(out, self.hi[sp]):
            c = cand[i]
            qc = hq[c]
            rc = hr[c]
            keep = True
            for j in range(base, base + nr):
                y = reply[j]
                dq = qc - hq[y]
                dr = rc - hr[y]
                ds = dq + dr
                if dq < 0:
                    dq = -dq
                if dr < 0:
                    dr = -dr
                if ds < 0:
                    ds = -ds
                if dq + dr + ds > r2:
                    keep = False
                    break
            if keep:
                cand[out] = c
                out += 1
        self.hi[sp] = out


class Deep(_DeepCuts):
    """Exact escape/capture search for one Board: ``load(board)``, optional
    extra root ``block(c)``, ``begin(mode, kind, cell, depth)`` then
    ``run(limit)`` until it returns 0/1 (-1: not finished after ``limit``
    expansions).  ``first`` is the root's move that decided a 1 (ESCAPE cat
    root: the cat's step; CAPTURE root: the capturing block).  ``plies``
    bounds the depth: an escape within k moves needs 2k - 4 plies from a
    cat root, 2k - 3 from a player root (player nodes with 2 moves left
    are decided in closed form), a capture within h blocks 2h - 2 (the
    default 10: k <= 7 / 6, h <= 6).  ``run_kernel`` is ``run`` for ESCAPE
    searches in trapcat_viper's machine code.

    Three classes, one concern each: ``_DeepTables`` (the buffers, the
    position copy and its counts), ``_DeepCuts`` (which moves a node needs
    to try) and this one (opening nodes, the expansion loop, slicing it).
    """

    # The methods the expansion loop and the node openers call per node, bound
    # here too: MicroPython finds a method of the instance's own class with
    # one map lookup, one of a class two levels up with three.  Measured on
    # the virtual Pico (the hard cat over 3 games, its Python capture
    # searches): 2,206 ms inherited, 2,172 ms bound here (2,186 ms as one class).
    block = _DeepTables.block
    unblock = _DeepTables.unblock
    _near = _DeepTables._near
    _witness_killers = _DeepCuts._witness_killers
    _cap2 = _DeepCuts._cap2
    _cap2_try = _DeepCuts._cap2_try
    _roomy = _DeepCuts._roomy
    _trap_blocks = _DeepCuts._trap_blocks
    _skip_far = _DeepCuts._skip_far

    # Search ----------------------------------------------------------------
    def begin(self, mode, kind, cell, depth):
        """Start a search at the root node; 0/1 when decided at once, else -1."""
        self.abort()
        self.mode = mode
        self.first = NONE
        self.nodes = 0
        self.leaf = NONE
        self.collect[0] = 0
        self.nreply[0] = 0
        if mode == ESCAPE:
            if kind == _CATN:
                v = self._open_escape_cat(0, cell, depth, 0)
            else:
                v = self._open_escape_blk(0, cell, depth, 0)
        elif kind == _BLKN:
            v = self._open_capture_blk(0, cell, depth, 0)
        else:
            v = self._open_capture_cat(0, cell, depth, 0)
        if v >= 0:
            self.first = self.leaf
            self.sp = -1
        else:
            self.sp = 0
        return v

    # Opening a node: one method per search mode and node kind, so the
    # expansion loop's one call per node (run, begin) reaches its code
    # without a second call or a test; the viper kernel inlines the two
    # ESCAPE ones.
    def _open_escape_cat(self, p, x, depth, lo):
        """Set up node p of an ESCAPE search, the cat to move from x: its
        steps worth trying (lowest td first) go to cand[lo:].  Returns the
        node's value when it is decided without children, else -1."""
        b = self.board
        cells = self.cells
        border = b.border
        adj = b.adj
        bc = self.bc
        td = self.td
        cand = self.cand
        base = 6 * x
        end = base + b.deg[x]
        hi = lo
        free = False
        two = NONE              # the first neighbour with 2 exits
        for k in range(base, end):
            y = adj[k]
            if not cells[y]:
                if border[y]:
                    self.leaf = y
                    return 1
                free = True
                if two == NONE and bc[y] >= 2:
                    two = y
        if not free or depth < 2:
            return 0
        if two != NONE:
            self.leaf = two
            return 1
        if depth == 2:
            return 0
        for k in range(base, end):
            y = adj[k]
            t = td[y]
            if not cells[y] and t < depth:
                j = hi
                while j > lo and td[cand[j - 1]] > t:
                    cand[j] = cand[j - 1]
                    j -= 1
                cand[j] = y
                hi += 1
        if hi == lo:
            return 0
        self.kind[p] = _CATN
        self.at[p] = x
        self.dep[p] = depth
        self.idx[p] = lo
        self.hi[p] = hi
        self.short[p] = 1
        return -1

    def _open_escape_blk(self, p, x, depth, lo):
        """Set up node p of an ESCAPE search, the player to move with the cat
        on x: the blocks worth trying go to cand[lo:] (a pass is NONE), as
        _open_escape_cat."""
        b = self.board
        cells = self.cells
        border = b.border
        adj = b.adj
        bc = self.bc
        td = self.td
        cand = self.cand
        base = 6 * x
        end = base + b.deg[x]
        hi = lo
        e = bc[x]
        if e >= 2:
            return 1
        if depth < 2 or td[x] > depth:
            return 0
        if depth == 2 and e == 0 and p:
            # out in 2 unless some block kills every witness
            return 1 if self._witness_killers(x, lo, True) < 0 else 0
        if e == 1:
            for k in range(base, end):
                y = adj[k]
                if not cells[y] and border[y]:
                    u = y
            if depth == 2 and p:
                # the forced block on u, then the cat needs a
                # neighbour with two free border cells left
                hq = self.hq
                hr = self.hr
                for k in range(base, end):
                    y = adj[k]
                    if cells[y] or y == u:
                        continue
                    f = bc[y]
                    if f == 2:
                        dq = hq[y] - hq[u]
                        dr = hr[y] - hr[u]
                        ds = dq + dr
                        if dq * dq + dr * dr + ds * ds == 2:
                            f = 1       # u was one of them
                    if f >= 2:
                        return 1
                return 0
            cand[lo] = u
            hi = lo + 1
        else:
            hi = self._witness_killers(x, lo)
            if hi < 0:
                return 1        # no block stops an escape in 2
            if hi == lo:
                hi = self._near(x, depth, lo, True)
                if hi == lo:
                    # no block can matter (td is from the load, so a
                    # smaller bound): the node is worth a pass
                    cand[lo] = NONE
                    hi = lo + 1
        self.kind[p] = _BLKN
        self.at[p] = x
        self.dep[p] = depth
        self.idx[p] = lo
        self.hi[p] = hi
        self.short[p] = 0
        return -1

    def _open_capture_blk(self, p, x, depth, lo):
        """Set up node p of a CAPTURE search, the player to move with the cat
        on x (the blocks worth trying to cand[lo:]), as _open_escape_cat."""
        b = self.board
        cells = self.cells
        border = b.border
        adj = b.adj
        fc = self.fc
        bc = self.bc
        cand = self.cand
        base = 6 * x
        end = base + b.deg[x]
        hi = lo
        if fc[x] <= 1:
            for k in range(base, end):
                if not cells[adj[k]]:
                    self.leaf = adj[k]
            return 1
        if depth < 2 or bc[x] >= 2:
            return 0
        if bc[x] == 1:
            for k in range(base, end):
                y = adj[k]
                if not cells[y] and border[y]:
                    cand[lo] = y
            hi = lo + 1
        elif depth == 2 and p:
            return self._cap2(x)
        else:
            if depth <= 4 and self._roomy(x, depth):
                return 0
            hi = self._trap_blocks(x, depth, lo)
            if hi == lo:
                return 0
        self.kind[p] = _BLKN
        self.at[p] = x
        self.dep[p] = depth
        self.idx[p] = lo
        self.hi[p] = hi
        self.short[p] = 1
        return -1

    def _open_capture_cat(self, p, x, depth, lo):
        """Set up node p of a CAPTURE search, the cat to move from x (its
        steps to cand[lo:], most free neighbours first), as _open_escape_cat."""
        b = self.board
        cells = self.cells
        border = b.border
        adj = b.adj
        fc = self.fc
        cand = self.cand
        base = 6 * x
        end = base + b.deg[x]
        hi = lo
        for k in range(base, end):
            y = adj[k]
            if not cells[y]:
                if border[y]:
                    return 0
                # most free neighbours first: the likeliest to escape
                f = fc[y]
                j = hi
                while j > lo and fc[cand[j - 1]] < f:
                    cand[j] = cand[j - 1]
                    j -= 1
                cand[j] = y
                hi += 1
        if hi == lo:
            return 1
        if depth == 0:
            return 0
        self.kind[p] = _CATN
        self.at[p] = x
        self.dep[p] = depth
        self.idx[p] = lo
        self.hi[p] = hi
        self.short[p] = 0
        return -1

    def run(self, limit=_FOREVER):
        """Expand up to ``limit`` children; 0/1 when the root is decided."""
        sp = self.sp
        if sp < 0:
            return -1
        cand = self.cand
        idx = self.idx
        hi = self.hi
        kind = self.kind
        at = self.at
        dep = self.dep
        short = self.short
        collect = self.collect
        nreply = self.nreply
        esc = self.mode == ESCAPE
        nodes = self.nodes
        while limit > 0:
            i = idx[sp]
            if i < hi[sp]:
                idx[sp] = i + 1
                c = cand[i]
                limit -= 1
                nodes += 1
                d = dep[sp]
                if kind[sp] == _BLKN:
                    if c != NONE:
                        self.block(c)
                    collect[sp + 1] = c == NONE
                    nreply[sp + 1] = 0
                    if esc:
                        v = self._open_escape_cat(sp + 1, at[sp], d, hi[sp])
                    else:
                        v = self._open_capture_cat(sp + 1, at[sp], d - 1, hi[sp])
                else:
                    collect[sp + 1] = 0         # (no stale count from a cat
                    nreply[sp + 1] = 0          # node once on this ply)
                    if esc:
                        v = self._open_escape_blk(sp + 1, c, d - 1, hi[sp])
                    else:
                        v = self._open_capture_blk(sp + 1, c, d, hi[sp])
                if v < 0:
                    sp += 1
                    continue
            else:
                v = 1 - short[sp]       # every child failed to decide it
                if nreply[sp]:
                    v = short[sp]       # a pass child: some step decided it
                if sp == 0:
                    self.sp = -1
                    self.nodes = nodes
                    return v
                sp -= 1
            # v is the value of the child just finished of node sp
            while True:
                if kind[sp] == _BLKN:
                    c = cand[idx[sp] - 1]
                    if c != NONE:
                        self.unblock(c)
                    elif v != short[sp]:
                        self._skip_far(sp)
                elif v == short[sp] and collect[sp]:
                    # after a pass: collect every cat step that decides it
                    n = nreply[sp]
                    self.reply[6 * sp + n] = cand[idx[sp] - 1]
                    nreply[sp] = n + 1
                    break
                if v != short[sp]:
                    break
                if sp == 0:
                    c = cand[idx[0] - 1]
                    if c == NONE:       # captured even after a pass
                        c = cand[idx[0]] if idx[0] < hi[0] else NONE
                    self.first = c
                    self.sp = -1
                    self.nodes = nodes
                    return v
                sp -= 1
        self.sp = sp
        self.nodes = nodes
        return -1

    def run_kernel(self, limit):
        """``run(limit)`` of an ESCAPE search in trapcat_viper's kernel: the
        same expansions, value and ``first``."""
        if self.sp < 0:
            return -1
        ks = self.kst
        ks[0] = self.sp
        ks[1] = self.nodes
        ks[2] = self.gen
        v = _tv.escape_run(self, limit)
        self.nodes = ks[1]
        self.gen = ks[2]
        if v < 0:
            self.sp = ks[0]
            return v
        self.sp = -1
        if ks[3]:
            cand = self.cand
            i = self.idx[0]
            c = cand[i - 1]
            if c == NONE:       # (as run: the pass's successor)
                c = cand[i] if i < self.hi[0] else NONE
            self.first = c
        return v

    def run_escape(self, limit):
        """``run(limit)`` of an ESCAPE search, in the kernel where it exists."""
        if self.kernel:
            return self.run_kernel(limit)
        return self.run(limit)

    def abort(self):
        """Drop a running search (undo its blocks on the copy)."""
        sp = self.sp
        while sp > 0:
            sp -= 1
            c = self.cand[self.idx[sp] - 1]
            if self.kind[sp] == _BLKN and c != NONE:
                self.unblock(c)
        self.sp = -1

    def solve(self, mode, kind, cell, depth):
        v = self.begin(mode, kind, cell, depth)
        while v < 0:
            v = self.run()
        return v


class _Task(Task):
    """The protocol of work.py for a cat or a blocker; subclasses define
    ``_unit()``, one unit of work of the phase ``phase`` (its cost estimate
    in ``costs``)."""

    answer = NO_ANSWER
    phase = _DONE
    costs = b"\x01\x01\x01\x01\x01\x01\x01\x01\x01"
    slice_units = SLICE_UNITS   # the size of a step() (tests make it smaller)

    def choose(self, board):
        """The decision in one call: ``begin``, then every unit."""
        self.begin(board)
        while self.phase != _DONE:
            self._unit()
        return self.answer

    def begin(self, board):
        self.answer = NO_ANSWER
        self.phase = _START

    def step(self):
        """One slice: units while their estimated cost stays within
        ``slice_units`` (at least one); True once the answer is ready."""
        costs = self.costs
        units = self.slice_units
        spent = 0
        while self.phase != _DONE:
            c = costs[self.phase]
            if spent and spent + c > units:
                return False
            self._unit()
            spent += c
        return True

    def _unit(self):
        self.phase = _DONE


class EasyCat(_Task):
    def __init__(self, board, seed=1):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.rng = Rng(seed)
        self.buf = bytearray(6)

    def begin(self, board):
        m = board.free_neighbours(board.cat, self.buf)
        self.answer = NONE if m == 0 else self.buf[self.rng.below(m)]
        self.phase = _DONE


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


class NormalCat(_Task):
    """One BFS sweep (~1 M fuel): computed whole in begin()."""

    def __init__(self, board, analyzer=None):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.an = analyzer or Analyzer(board)

    def begin(self, board):
        self.an.distances()
        self.answer = _greedy_step(board, self.an.dist)
        self.phase = _DONE


class HardCat(_Task):
    """Exact within its horizon: the fastest forced escape within _ESCAPE_DEPTH
    moves; else the best-evaluated step from which the player cannot force
    a capture within _CAPTURE_DEPTH blocks (see the module docstring)."""

    def __init__(self, board, analyzer=None):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.an = analyzer or Analyzer(board)
        self.deep = self.an.deep
        self.board = board
        self.costs = _costs(board)
        self.reason = 0   # 1 border, k escape in k moves (2..5), 9 eval
        self.m = 0
        self.i = 0
        self.k = 0
        self.order = bytearray(6)          # move indices, best evaluation first
        self.vals = array("i", bytes(24))  # evaluation per move (< 2**19)
        self.inner = False                 # a deep search is running

    def _unit(self):
        # the once-a-move phases are helpers; the search phases stay inline
        # (a unit is DEEP_CHUNK expansions, a call would be ~1 % of it)
        deep = self.deep
        board = self.board
        phase = self.phase
        moves = self.an.moves
        if phase == _START:
            self._take_sure_step()
            return
        if phase == _ESCAPE:
            # iterative deepening: the first k with a forced escape is the
            # fastest; the root's deciding step keeps it
            chunk = KERNEL_CHUNK if deep.kernel else DEEP_CHUNK
            if self.inner:
                r = deep.run_escape(chunk)
            else:
                r = deep.begin(ESCAPE, _CATN, board.cat, self.k)
                if r < 0:
                    r = deep.run_escape(chunk)
            self.inner = r < 0
            if r < 0:
                return
            if r == 1:
                self.reason = self.k
                self.answer = deep.first
                self.phase = _DONE
            elif self.k < _ESCAPE_DEPTH:
                self.k += 1
            else:
                self.phase = _SWEEP_DIST
            return
        if phase == _SWEEP_DIST:
            self._order_steps()
            return
        # _CAPTURE: the best-evaluated move the player cannot capture within
        # h = _CAPTURE_DEPTH blocks; when every move loses so, again with
        # h - 1 (the slowest capture), and at h = 1 the best-evaluated one.
        x = moves[self.order[self.i]]
        if self.inner:
            r = deep.run(DEEP_CHUNK)
        else:
            r = deep.begin(CAPTURE, _BLKN, x, self.k)
            if r < 0:
                r = deep.run(DEEP_CHUNK)
        self.inner = r < 0
        if r < 0:
            return
        if r == 0:
            self.answer = x
            self.phase = _DONE
        elif self.i + 1 < self.m:
            self.i += 1
        elif self.k > 1:
            self.k -= 1
            self.i = 0
        else:
            self.answer = moves[self.order[0]]
            self.phase = _DONE

    def _take_sure_step(self):
        """A step onto the border, or to a cell with two free border
        neighbours (the player closes one), is taken without a search; else
        the cat's free steps go to an.moves and the escape deepening starts."""
        board = self.board
        moves = self.an.moves
        deep = self.deep
        cells = board.cells
        border = board.border
        adj = board.adj
        cat = board.cat
        m = 0
        base = 6 * cat
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if not cells[x]:
                if border[x]:
                    self.reason = 1
                    self.answer = x
                    self.phase = _DONE
                    return
                moves[m] = x
                m += 1
        self.m = m
        if m == 0:
            self.answer = NONE
            self.phase = _DONE
            return
        deep.load(board)
        bc = deep.bc
        for i in range(m):
            if bc[moves[i]] >= 2:
                self.reason = 2
                self.answer = moves[i]
                self.phase = _DONE
                return
        self.k = 3
        self.inner = False
        self.phase = _ESCAPE

    def _order_steps(self):
        """No forced escape: the steps in order of their evaluation, best
        first, for the capture checks."""
        an = self.an
        deep = self.deep
        moves = an.moves
        self.reason = 9
        an.distances()
        # evaluations, then the move order (stable: first move wins ties)
        td = deep.td
        dist = an.dist
        fc = deep.fc
        vals = self.vals
        order = self.order
        m = self.m
        for i in range(m):
            x = moves[i]
            vals[i] = (td[x] * 256 + dist[x]) * 8 + 7 - fc[x]
            j = i
            while j > 0 and vals[order[j - 1]] > vals[i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        self.i = 0
        self.k = _CAPTURE_DEPTH
        self.inner = False
        self.phase = _CAPTURE


class RandomBlocker(_Task):
    def __init__(self, board, seed=1):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.rng = Rng(seed)
        self.buf = bytearray(board.n)

    def begin(self, board):
        self.answer = self._pick(board)
        self.phase = _DONE

    def _pick(self, board):
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


class GreedyBlocker(_Task):
    def __init__(self, board, analyzer=None):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.an = analyzer or Analyzer(board)

    def begin(self, board):
        self.an.distances()
        x = _greedy_step(board, self.an.dist)
        self.answer = x if x != NONE else _any_block(board)
        self.phase = _DONE


class _BlockScores(_Task):
    """The hint's candidate blocks and their scores (StrongBlocker's
    first half): which blocks to score (``_gather_candidates``: near the
    cat, and those that can matter to an escape within the horizon), how
    bad a block leaves the position for the cat (``_score``: two sweeps,
    stopped early), the shortcut that skips the sweeps for a block that
    leaves the unblocked score (``_keeps``), and the candidates kept in
    order of score, best first (``_score_next``, a unit each)."""

    def __init__(self, board, analyzer):
        self.answer = NO_ANSWER  # attributes made here: begin() allocates nothing
        self.phase = _DONE
        self.an = analyzer or Analyzer(board)
        self.deep = self.an.deep
        self.board = board
        self.costs = _costs(board)
        self.i = 0
        self.nc = 0
        self.horizon = _ESCAPE_DEPTH        # cat moves: escapes it avoids
        self.lost = False                  # every block leaves a forced escape
        self.cl = bytearray(board.n)       # candidate blocks, best score first
        self.sc = array("i", bytes(4 * board.n))
        self.bad = bytearray(board.n)      # blocks proven to leave an escape
        self.base = 0                      # the score with no block
        self.best = 0                      # _score's best td and BFS distance
        self.bestd = 0
        self.best0 = 0                     # the unblocked best td, BFS distance
        self.bestd0 = 0

    def _score(self, board):
        """How bad the position is for the cat to move (bigger = better for
        the player): its best neighbour's two-distance, how many neighbours
        share it, BFS distance.  The sweeps stop early once the cat's
        neighbours (flagged in an.nbf) are settled."""
        an = self.an
        _sweep_td(board, board.cells, an.td, an.cnt, an.queue, an.nbf, True)
        an.distances(True)
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
        self.best = best
        self.bestd = bestd
        if best == 999:
            return 1 << 22      # captured
        return (best * 8 + 7 - ties) * 256 + bestd

    def _keeps(self, c):
        """Does a block on c (not a cat neighbour) leave the unblocked score
        (kept by _CAND: td in deep.cnt, BFS distance in deep.dd, both exact
        up to the best neighbour's values best0, bestd0)?  A value depends
        only on smaller ones, so the cells it changes are found level by
        level from c: a cell with td L keeps it while two free unchanged
        neighbours have td < L, one with distance L while a free unchanged
        neighbour has L - 1.  The score keeps when no cat neighbour with td
        best0 changes and one with distance bestd0 does not."""
        an = self.an
        board = self.board
        adj = board.adj
        deg = board.deg
        cells = board.cells
        nbf = an.nbf
        mark = an.mark3                 # scratch of its own
        chg = an.cand3
        best = self.best0
        bestd = self.bestd0
        if best > 12:                   # (td >= BFS distance: so is bestd)
            return False                # (no border in reach: just sweep)
        for part in range(2):
            val = self.deep.cnt if part == 0 else self.deep.dd
            top = best if part == 0 else bestd
            need = 2 - part             # supporters: two for td, one for BFS
            gen = an.gen3 + 1
            if gen > 0xFFFF:
                for i in range(board.n):
                    mark[i] = 0
                gen = 1
            an.gen3 = gen
            mark[c] = gen
            chg[0] = c
            m = 1
            for lv in range(val[c] + 1, top + 1):
                end = m
                for i in range(end):
                    u = chg[i]
                    ub = 6 * u
                    for k in range(ub, ub + deg[u]):
                        v = adj[k]
                        if val[v] != lv or mark[v] == gen or cells[v]:
                            continue
                        n = 0
                        vb = 6 * v
                        for j in range(vb, vb + deg[v]):
                            w = adj[j]
                            if val[w] < lv and mark[w] != gen and not cells[w]:
                                n += 1
                                if n >= need:
                                    break
                        if n < need:
                            mark[v] = gen
                            if part == 0 and nbf[v]:
                                return False    # td best0 at the cat: changed
                            chg[m] = v
                            m += 1
            if part == 1 and val[c] < bestd:
                # some cat neighbour at distance bestd0 must be unchanged
                cat = board.cat
                cb = 6 * cat
                keep = False
                for k in range(cb, cb + deg[cat]):
                    v = adj[k]
                    if not cells[v] and val[v] == bestd and mark[v] != gen:
                        keep = True
                        break
                if not keep:
                    return False
        return True

    def _gather_candidates(self):
        """The blocks to score (into cl, nc of them) and the score with no
        block, with what _keeps needs to skip rescoring."""
        an = self.an
        deep = self.deep
        board = self.board
        adj = board.adj
        cat = board.cat
        # candidates: free cells within three steps of the cat, and every
        # cell whose block can matter to an escape within _ESCAPE_DEPTH
        # (unless some block avoids a forced escape: then not the blocks
        # proven to leave one)
        top = deep._near(cat, self.horizon, 0, True)
        end = deep._near(cat, 3, top, False)    # marks those in deep.mark
        mark = deep.mark
        gen = deep.gen
        dcand = deep.cand
        cl = self.cl
        bad = self.bad
        lost = self.lost
        nc = 0
        for i in range(top, end):
            c = dcand[i]
            if lost or not bad[c]:
                cl[nc] = c
                nc += 1
        for i in range(top):
            c = dcand[i]
            if mark[c] != gen and (lost or not bad[c]):
                cl[nc] = c
                nc += 1
        deg = board.deg
        nbf = an.nbf
        for i in range(board.n):
            nbf[i] = 0
        base = 6 * cat
        for k in range(base, base + deg[cat]):
            nbf[adj[k]] = 1
        # the score with no block: a block c off the cat's neighbours
        # with td[c] >= the best neighbour's td and dist[c] >= its BFS
        # distance leaves it as is (a value depends only on smaller ones)
        self.base = self._score(board)
        td = an.td
        dist = an.dist
        best = self.best
        bestd = self.bestd
        sc = self.sc            # until scored: 1 = the block leaves the score
        for i in range(nc):
            c = cl[i]
            sc[i] = 1 if not nbf[c] and td[c] >= best and dist[c] >= bestd else 0
        # the unblocked values for _keeps, in Deep buffers idle until
        # _VERIFY (a dropped hint starts again from _START)
        deep.cnt[:] = td
        deep.dd[:] = dist
        self.best0 = best
        self.bestd0 = bestd
        self.nc = nc
        self.i = 0
        self.phase = _SCORE if nc > 0 else _DONE

    def _score_next(self):
        """The _SCORE phase's unit: one candidate block scored and kept in
        order of score (best first); True when every candidate is scored."""
        board = self.board
        i = self.i
        cl = self.cl
        sc = self.sc
        c = cl[i]
        if sc[i] or (not self.an.nbf[c] and self._keeps(c)):
            v = self.base
        else:
            cells = board.cells
            cells[c] = 1
            v = self._score(board)
            cells[c] = 0
        j = i
        while j > 0 and sc[j - 1] < v:
            sc[j] = sc[j - 1]
            cl[j] = cl[j - 1]
            j -= 1
        sc[j] = v
        cl[j] = c
        self.i = i + 1
        return i + 1 >= self.nc


class StrongBlocker(_BlockScores):
    """The player's HINT: closes a border cell next to the cat; else keeps a
    forced capture within _CAPTURE_DEPTH blocks when there is one; else, with
    ``look`` (default: where the kernel runs), the best-scored block that
    leaves the cat no forced escape within _LOOK_DEPTH moves, found within
    LOOK_NODES kernel expansions; else the best-scored of its first
    _HINT_TRIES blocks it verifies (within VERIFY_NODES expansions) to leave
    none within _ESCAPE_DEPTH moves, else the escape-free block its root
    search found (the best-scored block when every block leaves one).
    Without the look it plays 1 in 4 tournament games lost to the hard cat,
    with it 1 in 8 (docs/trapcat.md).

    Its phases: the sure block (_START), a capture kept (_CAPTURE), the
    root search for escapes (_ESCAPE), then the candidates scored
    (_BlockScores: _CAND, _SCORE), then the look (_LOOK) or the verify
    (_VERIFY) of the best-scored ones.
    """

    # the scoring's per-candidate methods, bound here as Deep binds its
    # per-node ones (one map lookup, not two)
    _score = _BlockScores._score
    _keeps = _BlockScores._keeps
    _score_next = _BlockScores._score_next

    def __init__(self, board, analyzer=None, look=None):
        _BlockScores.__init__(self, board, analyzer)
        # the kernel writes Deep's stacks unchecked: a cat-rooted search
        # within k moves uses 2k - 4 plies (its player nodes with 2 moves
        # left are decided in closed form)
        self.look = LOOK_KERNEL if look is None else look
        if self.look and len(self.deep.at) < 2 * _LOOK_DEPTH - 4:
            raise ValueError("Deep has too few plies for the look")
        self.lleft = 0                     # kernel expansions left for _LOOK
        self.looked = False                # the look chose the answer
        self.safe = NONE                   # a block found to leave none
        self.inner = False                 # a deep search is running
        self.vleft = 0                     # expansions left for _VERIFY

    def _search(self, mode, kind, depth, cap=_FOREVER):
        """One slice of a deep search rooted at the cat, at most ``cap``
        expansions in all (-1: not finished).  ESCAPE searches run in the
        kernel where it exists: the same expansions, in bigger slices."""
        deep = self.deep
        r = -1
        if not self.inner:
            r = deep.begin(mode, kind, self.board.cat, depth)
        if r < 0:
            fast = mode == ESCAPE and deep.kernel
            chunk = KERNEL_CHUNK if fast else DEEP_CHUNK
            left = cap - deep.nodes
            if chunk > left:
                chunk = left
            r = deep.run_kernel(chunk) if fast else deep.run(chunk)
        self.inner = r < 0
        return r

    def _unit(self):
        # the once-a-hint phases and the once-a-candidate ones (a unit of
        # two sweeps or of KERNEL_CHUNK kernel expansions) are helpers; the
        # search phases of DEEP_CHUNK expansions stay inline (a call would
        # be ~1 % of such a unit)
        deep = self.deep
        phase = self.phase
        if phase == _START:
            self._take_sure_block()
            return
        if phase == _CAPTURE:
            r = self._search(CAPTURE, _BLKN, _CAPTURE_DEPTH)
            if r == 1 and deep.first != NONE:
                self.answer = deep.first
                self.phase = _DONE
            elif r >= 0:
                self.phase = _ESCAPE
            return
        if phase == _ESCAPE:
            # does every block leave a forced escape?  (one search)
            r = self._search(ESCAPE, _BLKN, self.horizon)
            if r >= 0:
                self._note_escape_answer(r)
            return
        if phase == _CAND:
            self._gather_candidates()
            return
        if phase == _SCORE:
            if self._score_next():
                self._all_scored()
            return
        if phase == _LOOK:
            self._look_next()
            return
        # _VERIFY: the best-scored of the first _HINT_TRIES blocks after which
        # the cat has no forced escape within the horizon; else the block
        # the search above found (so the hint's time stays bounded)
        c = self.cl[self.i]
        if c == self.safe:
            r = 0                       # the search above proved it
        elif self.bad[c]:
            r = 1
        else:
            if not self.inner:
                deep.block(c)
            r = self._search(ESCAPE, _CATN, self.horizon, self.vleft)
            if r < 0:
                if deep.nodes < self.vleft:
                    return
                # out of budget: take it as unverified
                deep.abort()
                self.inner = False
                r = 1
            self.vleft -= deep.nodes
            deep.unblock(c)
        if r == 0:
            self.answer = c
            self.phase = _DONE
        elif self.i + 1 < self.nc and (self.i + 1 < _HINT_TRIES or self.safe == NONE):
            self.i += 1
        else:
            if self.safe != NONE:
                self.answer = self.safe
            self.phase = _DONE

    def _look_next(self):
        """The _LOOK phase's unit (KERNEL_CHUNK kernel expansions): the
        best-scored block after which the cat has no forced escape within
        _LOOK_DEPTH moves (so none within _ESCAPE_DEPTH either), within
        LOOK_NODES kernel expansions; else the verify."""
        deep = self.deep
        i = self.i
        cl = self.cl
        if not self.inner:
            # (blocks proven to leave an escape within _ESCAPE_DEPTH)
            while i < self.nc and self.bad[cl[i]]:
                i += 1
            if i >= self.nc:
                self.i = 0
                self.phase = _VERIFY
                return
            self.i = i
            deep.block(cl[i])
        c = cl[i]
        r = self._search(ESCAPE, _CATN, _LOOK_DEPTH, self.lleft)
        if r < 0:
            if deep.nodes < self.lleft:
                return
            deep.abort()
            self.inner = False
        self.lleft -= deep.nodes
        deep.unblock(c)
        if r == 0:
            self.answer = c
            self.looked = True
            self.phase = _DONE
        elif r < 0 or i + 1 >= self.nc:
            self.i = 0
            self.phase = _VERIFY
        else:
            self.i = i + 1

    def _take_sure_block(self):
        """A free border cell next to the cat is blocked without a search (the
        cat would step out there), and any cell when the cat has no free
        neighbour; else the first free neighbour stands in while the copy is
        loaded and the capture search starts."""
        deep = self.deep
        board = self.board
        cells = board.cells
        adj = board.adj
        cat = board.cat
        border = board.border
        base = 6 * cat
        first = NONE
        for k in range(base, base + board.deg[cat]):
            x = adj[k]
            if not cells[x]:
                if first == NONE:
                    first = x
                if border[x]:
                    self.answer = x
                    self.phase = _DONE
                    return
        if first == NONE:
            self.answer = _any_block(board)
            self.phase = _DONE
            return
        self.answer = first
        self.looked = False
        deep.load(board)
        bad = self.bad
        for i in range(board.n):
            bad[i] = 0
        self.inner = False
        self.phase = _CAPTURE

    def _note_escape_answer(self, r):
        """The root ESCAPE search (does every block leave a forced escape?)
        answered r: keep that, and the blocks it proved to leave one; then
        the candidates are gathered."""
        deep = self.deep
        self.lost = r == 1
        self.safe = deep.first          # a block that leaves none
        if r == 0 and deep.nodes:
            # the root's blocks tried before that one each lose
            bad = self.bad
            dc = deep.cand
            for i in range(deep.idx[0] - 1):
                bad[dc[i]] = 1
        self.phase = _CAND

    def _all_scored(self):
        """Every candidate scored: the best-scored one stands in while the
        look or the verify checks the order (nothing to check when every
        block leaves an escape)."""
        self.answer = self.cl[0]
        self.i = 0
        self.inner = False
        self.lleft = LOOK_NODES
        self.vleft = VERIFY_NODES
        if self.lost:
            self.phase = _DONE
        else:
            self.phase = _LOOK if self.look else _VERIFY


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
