"""Device AI for flip Junqi: one-ply evaluation over a threat map built with
the railway router.  It never reads face-down identities (only the public pool
counts), so it plays fair.

Per turn (sliceable: ``begin(game)`` then ``step()`` until it returns True,
each step is at most one piece's routing, then ``best``):
  phase 0  threat map: every face-up enemy piece's legal destinations (its
           strongest attacker per cell, bomb and "can reach" marks), which
           enemy pieces can reach our flag and over which cells;
  phase 1  every own piece's legal moves, scored: material won/lost by the
           attack, danger at the destination minus danger left behind,
           flag guarding (kill or block a piece that reaches our flag, keep
           the flag's neighbours), approach towards the nearest enemy it
           beats (engineers raid mines and the flag along the railway);
  phase 2  every flip, scored by a flip-risk estimate over the hidden pool:
           the chance the piece is ours and stands threatened, or is the
           enemy's and hits our adjacent pieces first.
Scores are small ints (floats allocate on the device).
"""

import junqi_board as jb
import junqi_flip as jf

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# Material values per piece type (flag handled separately).
VALUE = (0, 30, 55, 40, 10, 15, 20, 30, 40, 55, 75, 100)
WIN_SCORE = const(1000000)
FLAG_THREAT = const(5000)     # our flag reachable by an enemy piece
FLIP_BASE = const(20)
APPROACH = const(3)
RESCUE = const(60)            # approach per step towards a piece that reaches our flag
GUARD_LEAVE = const(60)       # leaving a cell next to our face-up flag
GUARD_ENTER = const(30)       # taking one
GUARD_BLOCK = const(1000)     # taking one an enemy piece could step on next
FLAG_NEAR = const(400)        # killing a piece that reaches a free flag neighbour
HQ_STUCK = const(2)           # divisor: entering a headquarters costs value / 2

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


class AI:
    def __init__(self, seed=1):
        self.th_rank = bytearray(jb.CELLS)   # strongest enemy rank reaching the cell
        self.th_bomb = bytearray(jb.CELLS)   # an enemy bomb reaches it
        self.th_any = bytearray(jb.CELLS)    # any enemy piece reaches it (flag danger)
        self.th_eng = bytearray(jb.CELLS)    # an enemy engineer reaches it (mines)
        self.fthreat = bytearray(jb.CELLS)   # enemy pieces that reach our flag
        self.fpath = bytearray(jb.CELLS)     # cells on those routes
        self.fnear = bytearray(jb.CELLS)     # enemy pieces that reach a free flag neighbour
        self.mine_adj = bytearray(8)         # scratch: our piece types next to a cell
        self.rng = jf.Rng(seed)
        self.game = None
        self.phase = 3
        self.cell = 0
        self.best = 0
        self.best_score = 0
        self.flag_cell = jb.NONE

    # Public ------------------------------------------------------------------
    def choose(self, game):
        """Best move for the side to move (runs all slices at once)."""
        self.begin(game)
        while not self.step():
            pass
        return self.best

    def begin(self, game):
        self.game = game
        player = game.to_move
        pc = game.player_colour[player]
        self.me = pc
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
        if pc != jf.NOBODY:
            occ = game.occ
            kind = game.kind
            for c in range(jb.CELLS):
                if occ[c] == self.my_side and kind[c] == jf.FLAG:
                    self.flag_cell = c
        self.best = jb.NONE
        self.best_score = -WIN_SCORE * 4
        self.cell = 0
        self.phase = 0 if pc != jf.NOBODY else 2

    def step(self):
        """One slice of work; True when ``best`` is final."""
        phase = self.phase
        if phase == 0:
            c = self._next_piece(self.en_side)
            if c == jb.NONE:
                self.phase = 1
                self.cell = 0
            else:
                self._threats_from(c)
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
            self._score_flips()
            self.phase = 3
        return True

    # Internals ------------------------------------------------------------------
    def _next_piece(self, side):
        occ = self.game.occ
        c = self.cell
        while c < jb.CELLS:
            if occ[c] == side:
                self.cell = c + 1
                return c
            c += 1
        self.cell = c
        return jb.NONE

    def _consider(self, move, score):
        score = score * 8 + self.rng.next(8)
        if score > self.best_score:
            self.best_score = score
            self.best = move

    def _threats_from(self, x):
        game = self.game
        router = game.router
        u = game.kind[x]
        n = game.destinations(x)
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
        occ = game.occ
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

    def _danger(self, t, q):
        """Expected loss of our piece of type t standing on q."""
        if jb.KIND[q] == jb.CAMP:
            return 0
        if t == jf.FLAG:
            return FLAG_THREAT if self.th_any[q] else 0
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

    def _target(self, src, t):
        """Nearest (value-weighted) face-up enemy cell that type t beats."""
        game = self.game
        occ = game.occ
        kind = game.kind
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

    def _score_moves(self, src):
        game = self.game
        router = game.router
        n = game.destinations(src)
        if not n:
            return
        occ = game.occ
        kind = game.kind
        t = kind[src]
        v = VALUE[t]
        en = self.en_side
        stay = self._danger(t, src)
        target = self._target(src, t)
        tdist = 0
        pull = APPROACH
        if target != jb.NONE:
            tdist = DIST[src * jb.CELLS + target]
            if self.fthreat[target]:
                pull = RESCUE
            elif self.fnear[target]:
                pull = RESCUE >> 1
        leave = 0
        f = self.flag_cell
        if f != jb.NONE and DIST[src * jb.CELLS + f] == 1:
            leave = GUARD_BLOCK if self.th_any[src] else GUARD_LEAVE
        dests = router.dests
        base = src * 64
        for i in range(n):
            q = dests[i]
            s = stay - leave
            if occ[q] == en:
                u = kind[q]
                if u == jf.FLAG:
                    self._consider(base + q, WIN_SCORE)
                    continue
                res = jf.combat(t, u)
                if res == jf.ATTACKER_WINS:
                    s += VALUE[u] - self._danger(t, q)
                elif res == jf.DEFENDER_WINS:
                    s -= v
                else:
                    s += VALUE[u] - v
                if res != jf.DEFENDER_WINS:
                    if self.fthreat[q]:
                        s += FLAG_THREAT
                    elif self.fnear[q]:
                        s += FLAG_NEAR
                    elif f != jb.NONE and DIST[q * jb.CELLS + f] <= 3:
                        s += FLAG_NEAR >> 3
            else:
                s -= self._danger(t, q)
                if self.fpath[q]:
                    s += FLAG_THREAT >> 1
                if f != jb.NONE and DIST[q * jb.CELLS + f] == 1:
                    s += GUARD_BLOCK if self.th_any[q] else GUARD_ENTER
                if target != jb.NONE:
                    s += (tdist - DIST[q * jb.CELLS + target]) * pull
            if jb.KIND[q] == jb.HQ:
                s -= v // HQ_STUCK
            self._consider(base + q, s)

    def _score_flips(self):
        game = self.game
        occ = game.occ
        kind = game.kind
        pool = game.pool
        hidden = game.hidden
        if not hidden:
            return
        me = self.me
        adj = self.mine_adj
        my_side = self.my_side
        threatened = 0
        for c in range(jb.CELLS):
            if self.fthreat[c]:
                threatened = 1
        for c in range(jb.CELLS):
            if occ[c] != jf.HIDDEN:
                continue
            if me == jf.NOBODY:
                self._consider(c * 65, FLIP_BASE)
                continue
            # our face-up pieces next to c (targets if c is an enemy piece)
            na = 0
            bonus = FLIP_BASE
            base = c * 8
            for i in range(jb.ROAD_N[c]):
                q = jb.ROAD[base + i]
                if occ[q] == my_side and jb.KIND[q] != jb.CAMP:
                    if kind[q] != jf.FLAG or not threatened:
                        adj[na] = kind[q]
                        na += 1
                elif self.fthreat[q]:
                    bonus += FLAG_NEAR  # opens a way to the piece that reaches our flag
            total = 0
            for t in range(jf.TYPES):
                k = pool[me * jf.TYPES + t]
                if k:
                    total -= k * self._danger(t, c)
                k = pool[(1 - me) * jf.TYPES + t]
                if k and t > jf.MINE:
                    worst = 0
                    for j in range(na):
                        p = adj[j]
                        res = jf.combat(t, p)
                        if res == jf.ATTACKER_WINS:
                            loss = VALUE[p] if p != jf.FLAG else FLAG_THREAT
                        elif res == jf.BOTH_DIE:
                            loss = VALUE[p] - VALUE[t]
                        else:
                            loss = 0
                        if loss > worst:
                            worst = loss
                    total -= k * worst
            self._consider(c * 65, bonus + total // hidden)


class RandomPlayer:
    """Uniformly random legal move (the tournament's opponent)."""

    def __init__(self, seed=1):
        self.rng = jf.Rng(seed)

    def choose(self, game):
        n = game.legal_moves()
        return game.moves[self.rng.next(n)]


def play(game, players, max_plies=2000):
    """Play ``players[0]`` vs ``players[1]`` to the end; returns the winner
    (0, 1 or jf.DRAW)."""
    while game.winner == jf.NOBODY and game.plies < max_plies:
        game.apply(players[game.to_move].choose(game))
    if game.winner == jf.NOBODY:
        game.winner = jf.DRAW
    return game.winner
