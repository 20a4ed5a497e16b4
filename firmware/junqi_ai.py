"""Device AI for flip Junqi: one-ply evaluation over a threat map built with
the railway router.  It never reads face-down identities (only the public pool
counts), so it plays fair.

The notes are comments (below and before ``class ThreatMap``): the VMs
compile this source and keep every docstring on the heap while the game runs.
"""

# Per turn (a task of firmware/work.py: ``begin(model)``, then ``step()``
# until it returns True, each step is at most one piece's routing, then
# ``answer``; the parts: the notes before ``class ThreatMap``):
#   phase 0  threat map: every face-up enemy piece's legal destinations (its
#            strongest attacker per cell, bomb and "can reach" marks), which
#            enemy pieces can reach our flag and over which cells;
#            At its end two road-distance fields (small BFS): to the enemy's
#            face-up flag (the race) and to the attackable enemy pieces that
#            reach our face-up flag (the rescue);
#   phase 1  every own piece's legal moves, scored: material won/lost by the
#            attack, danger at the destination minus danger left behind,
#            flag guarding (kill or block a piece that reaches our flag, keep
#            the flag's neighbours), steps gained on the rescue field (only
#            pieces that beat or trade with that threat) and on the race field,
#            approach towards the nearest enemy it beats (engineers raid mines
#            and the flag along the railway);
#   phase 2  every flip, scored by a flip-risk estimate over the hidden pool:
#            the chance the piece is ours and stands threatened (for our flag:
#            its exposure, i.e. enemies reaching the cell and face-down or camp
#            neighbours that may hold enemy pieces, worse where we could never
#            attack them), or is the enemy's and hits our adjacent pieces
#            first; plus the chance of finding the enemy's flag, and of
#            getting one of our movers next to its face-up flag;
#   phase 3  two-ply: the best candidates re-ranked by the enemy pieces that
#            reach our face-up flag after them.
# Scores are small ints (floats allocate on the device).  The easy AI (EASY
# difficulty) blurs every score by up to _EASY_NOISE and skips phase 3.

from array import array

import junqi_board as jb
import junqi_flip as jf
import work

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# Material values per piece type (flag handled separately).
VALUE = (0, 30, 55, 40, 10, 15, 20, 30, 40, 55, 75, 100)
_WIN_SCORE = const(1000000)
_FLAG_THREAT = const(5000)     # our flag reachable by an enemy piece
_FLIP_BASE = const(20)
_APPROACH = const(3)
_RESCUE = const(60)            # approach per step towards a piece that reaches our flag
_GUARD_LEAVE = const(60)       # leaving a cell next to our face-up flag
_GUARD_ENTER = const(30)       # taking one
_GUARD_BLOCK = const(1000)     # taking one an enemy piece could step on next
_FLAG_NEAR = const(400)        # killing a piece that reaches a free flag neighbour
_HQ_STUCK = const(2)           # divisor: entering a headquarters costs value / 2
_TOP_K = const(5)              # candidates re-checked two-ply (our flag reachable after them?)
_FLIP_CHUNK = const(4)         # face-down cells scored per phase-2 slice
_REPLY_FLAG = const(5000)      # per enemy piece that reaches our face-up flag after the move
_RACE = const(40)              # per road step closer to the enemy's face-up flag
_FLIP_RACE = const(3000)       # flipping next to the enemy's face-up flag (x our movers / hidden)
_FLIP_FIND = const(3000)       # x the chance that a flip finds the enemy's flag
_RESCUE_STEP = const(1000)     # per road step closer to a piece that reaches our flag (if we beat it)
_EXP_OPEN = const(10)          # our flag's exposure per % enemy movers, open face-down neighbour
_EXP_SHELTER = const(30)       # ... neighbour we could never attack (camp, pocket by the HQs)
_EASY_NOISE = const(10000)      # random score added per candidate at EASY (guarding is ~1000)

# the launcher's difficulty setting
EASY = const(0)
NORMAL = const(1)
HARD = const(2)

# DIST[a * 60 + b]: road-graph steps between cells (rail links are roads too).
DIST = bytearray(jb.CELLS * jb.CELLS)


def _fill_dist():
    queue = bytearray(jb.CELLS)
    for a in range(jb.CELLS):
        base = a * jb.CELLS
        for b in range(jb.CELLS):
            DIST[base + b] = 255
        DIST[base + a] = 0
        queue[0] = a
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            d = DIST[base + p] + 1
            for i in range(jb.ROAD_N[p]):
                q = jb.ROAD[p * 8 + i]
                if DIST[base + q] == 255:
                    DIST[base + q] = d
                    queue[tail] = q
                    tail += 1


_fill_dist()
del _fill_dist          # run once: its code need not stay on the heap


# Two parts: ``ThreatMap``, what the enemy reaches this turn (marks per cell,
# the pieces that reach our flag, the race and rescue fields, the danger of a
# piece on a cell), and ``AI``, the move search that scores every move against
# it: a task of the long-work protocol (firmware/work.py).  Per turn
# ``begin(model)``, then ``step()`` until it returns True (each step is at most
# one piece's routing, _FLIP_CHUNK face-down cells' flips scored or one two-ply pair),
# then ``answer``, the move (while the search runs it holds the best move found
# so far; work.NO_ANSWER before the first).


class ThreatMap:
    # What the enemy reaches this turn, seen from ``my_side`` (``en_side``:
    # the enemy's occupancy code): per cell the strongest enemy rank and
    # whether a bomb, an engineer or any enemy piece reaches it; the enemy
    # pieces that reach our face-up flag (``flag_cell``) or a free cell next to
    # it, and the cells on their routes; the race field to the enemy's face-up
    # flag (``eflag``) and the rescue field.  Built by ``begin``, then
    # ``threats_from`` per enemy piece, then ``rescue_field``; the AI's scoring
    # reads the marks and asks ``danger``, ``flag_exposure`` and ``target``.

    def __init__(self):
        self.th_rank = bytearray(jb.CELLS)   # strongest enemy rank reaching the cell
        self.th_bomb = bytearray(jb.CELLS)   # an enemy bomb reaches it
        self.th_any = bytearray(jb.CELLS)    # any enemy piece reaches it (flag danger)
        self.th_eng = bytearray(jb.CELLS)    # an enemy engineer reaches it (mines)
        self.fthreat = bytearray(jb.CELLS)   # enemy pieces that reach our flag
        self.fpath = bytearray(jb.CELLS)     # cells on those routes
        self.fnear = bytearray(jb.CELLS)     # enemy pieces that reach a free flag neighbour
        self.efd = bytearray(jb.CELLS)       # road steps to the enemy's face-up flag
        self.queue = bytearray(jb.CELLS)
        self.rfd = bytearray(jb.CELLS)       # road steps to an attackable piece that reaches our flag
        self.rsrc = bytearray(jb.CELLS)      # ... and which one
        self.model = None
        self.my_side = 0
        self.en_side = 0
        self.eflag = jb.NONE
        self.flag_cell = jb.NONE

    def begin(self, model, pc):
        # A new turn of colour ``pc`` (NOBODY before the first flip): the
        # marks cleared, both face-up flags found, the race field.
        self.model = model
        self.my_side = pc + 1 if pc != jf.NOBODY else 0
        self.en_side = 2 - pc if pc != jf.NOBODY else 0
        for c in range(jb.CELLS):
            self.th_rank[c] = 0
            self.th_bomb[c] = 0
            self.th_any[c] = 0
            self.th_eng[c] = 0
            self.fthreat[c] = 0
            self.fpath[c] = 0
            self.fnear[c] = 0
        self.flag_cell = jb.NONE
        self.eflag = jb.NONE
        if pc != jf.NOBODY:
            occ = model.occ
            kind = model.kind
            for c in range(jb.CELLS):
                if kind[c] == jf.FLAG:
                    if occ[c] == self.my_side:
                        self.flag_cell = c
                    elif occ[c] == self.en_side:
                        self.eflag = c
        self.race_field()

    def race_field(self):
        # efd[c]: road steps from c to the enemy's face-up flag through cells
        # that are not face down and not enemy pieces in camps (255: none).
        efd = self.efd
        for c in range(jb.CELLS):
            efd[c] = 255
        f = self.eflag
        if f == jb.NONE:
            return
        occ = self.model.occ
        en = self.en_side
        queue = self.queue
        efd[f] = 0
        queue[0] = f
        head = 0
        tail = 1
        while head < tail:
            p = queue[head]
            head += 1
            d = efd[p] + 1
            base = p * 8
            for i in range(jb.ROAD_N[p]):
                q = jb.ROAD[base + i]
                if efd[q] != 255:
                    continue
                o = occ[q]
                if o == jf.HIDDEN or (o == en and jb.KIND[q] == jb.CAMP):
                    continue
                efd[q] = d
                queue[tail] = q
                tail += 1

    def rescue_field(self):
        # rfd[c]: road steps over empty cells from c to an attackable enemy
        # piece that reaches our face-up flag (rsrc[c]: that piece's cell); our
        # own pieces get a distance but do not pass it on.
        rfd = self.rfd
        rsrc = self.rsrc
        queue = self.queue
        tail = 0
        for c in range(jb.CELLS):
            rfd[c] = 255
            if self.fthreat[c] and jb.KIND[c] != jb.CAMP:
                rfd[c] = 0
                rsrc[c] = c
                queue[tail] = c
                tail += 1
        if not tail:
            return
        occ = self.model.occ
        me = self.my_side
        head = 0
        while head < tail:
            p = queue[head]
            head += 1
            d = rfd[p] + 1
            base = p * 8
            for i in range(jb.ROAD_N[p]):
                q = jb.ROAD[base + i]
                if rfd[q] != 255:
                    continue
                o = occ[q]
                if o == 0:
                    rfd[q] = d
                    rsrc[q] = rsrc[p]
                    queue[tail] = q
                    tail += 1
                elif o == me:
                    rfd[q] = d
                    rsrc[q] = rsrc[p]

    def threats_from(self, x):
        # The marks of the enemy piece on ``x``: its destinations, our flag
        # and the flag's neighbours in its reach, its face-down neighbours.
        model = self.model
        router = model.router
        u = model.kind[x]
        n = model.destinations(x)
        dests = router.dests
        th_rank = self.th_rank
        for i in range(n):
            q = dests[i]
            self.th_any[q] = 1
            if u == jf.BOMB:
                self.th_bomb[q] = 1
            elif u > th_rank[q]:
                th_rank[q] = u
            if u == jf.ENGINEER:
                self.th_eng[q] = 1
        f = self.flag_cell
        if f != jb.NONE and router.dist[f] != jb.NONE and n:
            self.fthreat[x] = 1
            k = router.trace(f)
            path = router.path
            for i in range(1, k):
                self.fpath[path[i]] = 1
        if f != jb.NONE and n:
            base = f * 8
            dist = router.dist
            for i in range(jb.ROAD_N[f]):
                if dist[jb.ROAD[base + i]] != jb.NONE:
                    self.fnear[x] = 1
        # face-down neighbours: rank marks for the flip-risk estimate
        occ = model.occ
        if u != jf.FLAG and u != jf.MINE and jb.KIND[x] != jb.HQ:
            base = x * 8
            for i in range(jb.ROAD_N[x]):
                q = jb.ROAD[base + i]
                if occ[q] == jf.HIDDEN:
                    self.th_any[q] = 1
                    if u == jf.ENGINEER:
                        self.th_eng[q] = 1
                    if u == jf.BOMB:
                        self.th_bomb[q] = 1
                    elif u > th_rank[q]:
                        th_rank[q] = u

    def danger(self, t, q):
        # Expected loss of our piece of type t standing on q.
        if jb.KIND[q] == jb.CAMP:
            return 0
        if t == jf.FLAG:
            return _FLAG_THREAT if self.th_any[q] else 0
        if t == jf.MINE:
            return VALUE[jf.MINE] if self.th_eng[q] else 0
        r = self.th_rank[q]
        v = VALUE[t]
        loss = 0
        if t == jf.BOMB:
            if r or self.th_bomb[q]:
                loss = v >> 1
            return loss
        if r > t:
            loss = v
        elif r == t:
            loss = v >> 1
        if self.th_bomb[q]:
            b = v - VALUE[jf.BOMB]
            if b > loss:
                loss = b
        return loss

    def flag_exposure(self, c, en_mov):
        # Expected trouble if our flag turns up at face-down cell c: enemy
        # pieces reaching c now, plus face-down neighbours that may turn into
        # enemy pieces (worse where we cannot attack them: camps and the
        # pockets next to the headquarters).
        occ = self.model.occ
        d = _FLAG_THREAT if self.th_any[c] else 0
        base = c * 8
        for i in range(jb.ROAD_N[c]):
            q = jb.ROAD[base + i]
            o = occ[q]
            if o == jf.HIDDEN or (o == 0 and jb.KIND[q] == jb.CAMP):
                w = _EXP_OPEN
                if jb.KIND[q] == jb.CAMP:
                    w = _EXP_SHELTER
                else:
                    # a pocket: every other neighbour of q is a headquarters
                    w = _EXP_SHELTER
                    qb = q * 8
                    for j in range(jb.ROAD_N[q]):
                        r = jb.ROAD[qb + j]
                        if r != c and jb.KIND[r] != jb.HQ:
                            w = _EXP_OPEN
                if o == jf.HIDDEN:
                    d += w * en_mov
                else:
                    d += w * 10
        return d

    def target(self, src, t):
        # Nearest (value-weighted) face-up enemy cell that type t beats.
        model = self.model
        occ = model.occ
        kind = model.kind
        en = self.en_side
        best = jb.NONE
        best_key = 10000
        base = src * jb.CELLS
        f = self.flag_cell
        for x in range(jb.CELLS):
            if occ[x] != en:
                continue
            u = kind[x]
            if u == jf.FLAG:
                key = DIST[base + x] * 4 - 40
            elif jb.KIND[x] == jb.CAMP:
                continue
            else:
                res = jf.combat(t, u)
                if res == jf.ATTACKER_WINS:
                    key = DIST[base + x] * 4 - (VALUE[u] >> 3)
                elif res == jf.BOTH_DIE and VALUE[u] >= VALUE[t]:
                    key = DIST[base + x] * 4 + 8 - (VALUE[u] >> 3)
                else:
                    continue
                if self.fthreat[x] or self.fnear[x]:
                    key -= 60
                elif f != jb.NONE and DIST[x * jb.CELLS + f] <= 3:
                    key -= 30
            if key < best_key:
                best_key = key
                best = x
        return best


class AI(work.Task):
    # The move search of one side, a task of the long-work protocol (module
    # notes): ``begin(model)``, ``step()`` slices, ``answer``; ``choose(model)``
    # runs a whole search at once (host tools, tests).  ``th`` is its
    # ThreatMap, ``rng`` its noise (the undo ring saves and restores it).

    def __init__(self, seed=1, easy=False):
        # easy: every score blurred by up to _EASY_NOISE and no two-ply check,
        # so it leaves pieces and its flag open more often
        self.top_k = 0 if easy else _TOP_K
        self.noise = 8 * _EASY_NOISE if easy else 8
        self.th = ThreatMap()
        self.mine_adj = bytearray(8)         # scratch: our piece types next to a cell
        self.cand_move = array("H", bytes(2 * _TOP_K))   # the best top_k moves, best first
        self.cand_score = array("i", bytes(4 * _TOP_K))
        self.cand_reach = bytearray(_TOP_K)   # enemy pieces reaching our flag after the move
        self.ncand = 0
        self.ci = 0                          # phase 3: candidate and enemy cell being checked
        self.rng = jf.Rng(seed)
        self.model = None
        self.me = jf.NOBODY
        self.my_side = 0
        self.en_side = 0
        self.phase = 3
        self.cell = 0
        self.answer = work.NO_ANSWER
        self.best_score = 0

    # Public ------------------------------------------------------------------
    def choose(self, model):
        # Best move for the side to move (runs all slices at once).
        self.begin(model)
        while not self.step():
            pass
        return self.answer

    def begin(self, model):
        # A new search for the side to move in ``model`` (junqi_flip.FlipGame).
        self.model = model
        pc = model.player_colour[model.to_move]
        self.me = pc
        th = self.th
        th.begin(model, pc)
        self.my_side = th.my_side
        self.en_side = th.en_side
        self.answer = work.NO_ANSWER
        self.best_score = -_WIN_SCORE * 4
        self.ncand = 0
        self.ci = 0
        self.cell = 0
        self.phase = 0 if pc != jf.NOBODY else 2

    def step(self):
        # One slice of work; True when ``answer`` is final.
        phase = self.phase
        if phase == 0:
            c = self._next_piece(self.en_side)
            if c == jb.NONE:
                self.th.rescue_field()
                self.phase = 1
                self.cell = 0
            else:
                self.th.threats_from(c)
            return False
        if phase == 1:
            c = self._next_piece(self.my_side)
            if c == jb.NONE:
                self.phase = 2
                self.cell = 0
            else:
                self._score_moves(c)
            return False
        if phase == 2:
            end = self._score_flips(self.cell)
            self.cell = end
            if end < jb.CELLS:
                return False
            if self.th.flag_cell == jb.NONE or self.ncand < 2 or self.best_score >= _WIN_SCORE * 8:
                self.phase = 4
                return True
            self.phase = 3
            self.ci = 0
            self.cell = 0
            for i in range(self.top_k):
                self.cand_reach[i] = 0
            return False
        if phase == 3:
            if self._reply_step():
                self._pick()
                self.phase = 4
                return True
            return False
        return True

    # Two-ply flag check ------------------------------------------------------------
    def _reply_step(self):
        # One (candidate, enemy piece) pair: after the candidate move, can that
        # enemy piece reach our face-up flag?  True when all pairs are done.
        model = self.model
        occ = model.occ
        ci = self.ci
        while ci < self.ncand:
            move = self.cand_move[ci]
            src = move >> 6
            dst = move & 63
            x = self.cell
            en = self.en_side
            while x < jb.CELLS and (occ[x] != en or x == dst):
                x += 1
            if x >= jb.CELLS:
                ci += 1
                self.ci = ci
                self.cell = 0
                continue
            self.cell = x + 1
            if src == dst:
                # a flip opens nothing: the piece's reach is the current one
                if self.th.fthreat[x]:
                    self.cand_reach[ci] += 1
                return False
            # play the move on the occupancy only, route, undo
            os_ = occ[src]
            od = occ[dst]
            occ[src] = 0
            if od != 0:
                res = jf.combat(model.kind[src], model.kind[dst])
                if res == jf.ATTACKER_WINS:
                    occ[dst] = os_
                elif res == jf.BOTH_DIE:
                    occ[dst] = 0
            else:
                occ[dst] = os_
            model.destinations(x)
            if model.router.dist[self.th.flag_cell] != jb.NONE:
                self.cand_reach[ci] += 1
            occ[src] = os_
            occ[dst] = od
            return False
        return True

    def _pick(self):
        best = 0
        best_score = -_WIN_SCORE * 64
        for i in range(self.ncand):
            s = self.cand_score[i] - self.cand_reach[i] * (_REPLY_FLAG * 8)
            if s > best_score:
                best_score = s
                best = i
        self.answer = self.cand_move[best]
        self.best_score = best_score

    # Scoring ------------------------------------------------------------------
    def _next_piece(self, side):
        occ = self.model.occ
        c = self.cell
        while c < jb.CELLS:
            if occ[c] == side:
                self.cell = c + 1
                return c
            c += 1
        self.cell = c
        return jb.NONE

    def _consider(self, move, score):
        score = score * 8 + self.rng.below(self.noise)
        if score > self.best_score:
            self.best_score = score
            self.answer = move
        if not self.top_k:
            return
        # keep the top_k best, sorted (insertion; no allocation)
        n = self.ncand
        cs = self.cand_score
        cm = self.cand_move
        if n == self.top_k:
            if score <= cs[n - 1]:
                return
            n -= 1
        i = n
        while i > 0 and cs[i - 1] < score:
            cs[i] = cs[i - 1]
            cm[i] = cm[i - 1]
            i -= 1
        cs[i] = score
        cm[i] = move
        self.ncand = n + 1

    def _score_moves(self, src):
        model = self.model
        th = self.th
        n = model.destinations(src)
        if not n:
            return
        occ = model.occ
        kind = model.kind
        t = kind[src]
        v = VALUE[t]
        en = self.en_side
        stay = th.danger(t, src)
        target = th.target(src, t)
        tdist = 0
        pull = _APPROACH
        if target != jb.NONE:
            tdist = DIST[src * jb.CELLS + target]
            if th.fthreat[target]:
                pull = _RESCUE
            elif th.fnear[target]:
                pull = _RESCUE >> 1
        leave = 0
        f = th.flag_cell
        if f != jb.NONE and DIST[src * jb.CELLS + f] == 1:
            leave = _GUARD_BLOCK if th.th_any[src] else _GUARD_LEAVE
        dests = model.router.dests
        base = src * 64
        efd = th.efd
        efs = efd[src]
        rfd = th.rfd
        rfs = rfd[src]
        for i in range(n):
            q = dests[i]
            s = stay - leave
            if occ[q] == en:
                u = kind[q]
                if u == jf.FLAG:
                    self._consider(base + q, _WIN_SCORE)
                    continue
                res = jf.combat(t, u)
                if res == jf.ATTACKER_WINS:
                    s += VALUE[u] - th.danger(t, q)
                elif res == jf.DEFENDER_WINS:
                    s -= v
                else:
                    s += VALUE[u] - v
                if res != jf.DEFENDER_WINS:
                    if th.fthreat[q]:
                        s += _FLAG_THREAT
                    elif th.fnear[q]:
                        s += _FLAG_NEAR
                    elif f != jb.NONE and DIST[q * jb.CELLS + f] <= 3:
                        s += _FLAG_NEAR >> 3
            else:
                s -= th.danger(t, q)
                if th.fpath[q]:
                    s += _FLAG_THREAT >> 1
                if f != jb.NONE and DIST[q * jb.CELLS + f] == 1:
                    s += _GUARD_BLOCK if th.th_any[q] else _GUARD_ENTER
                if target != jb.NONE:
                    s += (tdist - DIST[q * jb.CELLS + target]) * pull
                if efs != 255 and efd[q] != 255:
                    s += (efs - efd[q]) * _RACE
                if rfs != 255 and rfd[q] != 255 and \
                        jf.combat(t, kind[th.rsrc[q]]) != jf.DEFENDER_WINS:
                    s += (rfs - rfd[q]) * _RESCUE_STEP
            if jb.KIND[q] == jb.HQ:
                s -= v // _HQ_STUCK
            self._consider(base + q, s)

    def _score_flips(self, c):
        # A slice of phase 2: the next _FLIP_CHUNK face-down cells' flips from c on; the cell after.
        model = self.model
        th = self.th
        occ = model.occ
        kind = model.kind
        pool = model.pool
        hidden = model.hidden
        if not hidden:
            return jb.CELLS
        me = self.me
        adj = self.mine_adj
        my_side = self.my_side
        fthreat = th.fthreat
        threatened = 0
        for q in range(jb.CELLS):
            if fthreat[q]:
                threatened = 1
        en_mov = 0
        if me != jf.NOBODY:
            for t in range(jf.BOMB, jf.TYPES):
                en_mov += pool[(1 - me) * jf.TYPES + t]
            en_mov = en_mov * 100 // hidden      # % of face-down pieces that are enemy movers
        race_flip = 0
        eflag = th.eflag
        if eflag != jb.NONE:
            for t in range(jf.BOMB, jf.TYPES):
                race_flip += pool[me * jf.TYPES + t]
            race_flip = race_flip * _FLIP_RACE // hidden
        find = pool[(1 - me) * jf.TYPES + jf.FLAG] * _FLIP_FIND // hidden if me != jf.NOBODY else 0
        left = _FLIP_CHUNK
        while c < jb.CELLS and left:
            if occ[c] != jf.HIDDEN:
                c += 1
                continue
            left -= 1
            if me == jf.NOBODY:
                self._consider(c * 65, _FLIP_BASE)
                c += 1
                continue
            # our face-up pieces next to c (targets if c is an enemy piece)
            na = 0
            bonus = _FLIP_BASE + find
            base = c * 8
            for i in range(jb.ROAD_N[c]):
                q = jb.ROAD[base + i]
                if occ[q] == my_side and jb.KIND[q] != jb.CAMP:
                    if kind[q] != jf.FLAG or not threatened:
                        adj[na] = kind[q]
                        na += 1
                elif fthreat[q]:
                    bonus += _FLAG_NEAR  # opens a way to the piece that reaches our flag
                if q == eflag:
                    bonus += race_flip
            total = 0
            for t in range(jf.TYPES):
                k = pool[me * jf.TYPES + t]
                if k:
                    if t == jf.FLAG:
                        total -= k * th.flag_exposure(c, en_mov)
                    else:
                        total -= k * th.danger(t, c)
                k = pool[(1 - me) * jf.TYPES + t]
                if k and t > jf.MINE:
                    worst = 0
                    for j in range(na):
                        p = adj[j]
                        res = jf.combat(t, p)
                        if res == jf.ATTACKER_WINS:
                            loss = VALUE[p] if p != jf.FLAG else _FLAG_THREAT
                        elif res == jf.BOTH_DIE:
                            loss = VALUE[p] - VALUE[t]
                        else:
                            loss = 0
                        if loss > worst:
                            worst = loss
                    total -= k * worst
            self._consider(c * 65, bonus + total // hidden)
            c += 1
        return c


class RandomPlayer:
    # Uniformly random legal move (the tournament's opponent).

    def __init__(self, seed=1):
        self.rng = jf.Rng(seed)

    def choose(self, model):
        n = model.legal_moves()
        return model.moves[self.rng.below(n)]


def play(model, players, max_plies=2000):
    # Play ``players[0]`` vs ``players[1]`` to the end; returns the winner
    # (0, 1 or jf.DRAW).
    while model.winner == jf.NOBODY and model.plies < max_plies:
        model.apply(players[model.to_move].choose(model))
    if model.winner == jf.NOBODY:
        model.winner = jf.DRAW
    return model.winner
