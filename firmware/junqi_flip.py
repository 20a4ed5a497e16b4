"""Flip Junqi (翻棋) rules on the standard board (see docs/junqi.md for the
exact ruleset).  Device code: all state lives in preallocated bytearrays,
moves are small ints, a move or a legality query allocates nothing.

Pieces (per colour, 25): type  count  glyph
   0 flag 军旗 1 F     1 mine 地雷 3 M     2 bomb 炸弹 2 B     3 engineer 工兵 3 E
   4 排长 3 "1"  5 连长 3 "2"  6 营长 2 "3"  7 团长 2 "4"  8 旅长 2 "5"
   9 师长 2 "6" 10 军长 1 "7" 11 司令 1 "8"

Move encoding: ``src * 64 + dst``; a flip of cell c is ``c * 64 + c``.
Players are 0 (moves first) and 1; colours are 0 (red) and 1 (blue) and are
assigned by the first flip.  Board occupancy codes (``occ``, shared with the
Router): 0 empty, 1 face-up red, 2 face-up blue, 3 face-down.
"""

from array import array

import junqi_board as jb
from rng import DealRng as Rng  # the deals of a seed stay the same (rng.py)

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

FLAG = const(0)
MINE = const(1)
BOMB = const(2)
ENGINEER = const(3)
_MARSHAL = const(11)
TYPES = const(12)
COUNTS = (1, 3, 2, 3, 3, 3, 2, 2, 2, 2, 1, 1)
GLYPHS = "FMBE12345678"
NAMES = ("flag", "mine", "bomb", "engineer", "platoon", "company", "battalion",
         "regiment", "brigade", "division", "corps", "marshal")

HIDDEN = const(3)
NOBODY = const(255)
DRAW = const(2)          # value of ``winner`` for a draw

# combat outcomes
ATTACKER_WINS = const(0)
DEFENDER_WINS = const(1)
BOTH_DIE = const(2)

# apply() events
_EV_MOVE = const(0)
_EV_FLIP = const(1)
EV_WIN = const(2)
EV_LOSE = const(3)
EV_TRADE = const(4)

_MAX_MOVES = const(800)


def combat(a, d):
    """Outcome of piece type ``a`` attacking type ``d``."""
    if d == FLAG:
        return ATTACKER_WINS
    if a == BOMB or d == BOMB:
        return BOTH_DIE
    if d == MINE:
        return ATTACKER_WINS if a == ENGINEER else DEFENDER_WINS
    if a > d:
        return ATTACKER_WINS
    if a == d:
        return BOTH_DIE
    return DEFENDER_WINS


def move_mode(t):
    if t == FLAG or t == MINE:
        return jb.IMMOBILE
    if t == ENGINEER:
        return jb.ENGINEER
    return jb.NORMAL


class FlipGame:
    """One game of flip Junqi.

    Variant switches (documented in docs/junqi.md):
      quiet_limit       plies without a flip or a capture before a draw (0: never)
      mines_guard_flag  the flag may only be attacked once its colour has no mines left
    """

    def __init__(self, seed=1, quiet_limit=80, mines_guard_flag=False):
        self.router = jb.Router()
        self.occ = self.router.occ
        self.kind = bytearray(jb.CELLS)       # true piece type (also for face-down pieces)
        self.colour = bytearray(jb.CELLS)     # true colour; NOBODY on empty cells
        self.pool = bytearray(2 * TYPES)      # public: face-down pieces per colour*12+type
        self.alive = bytearray(2 * TYPES)     # public once flipped; counts on board
        self.moves = array("H", bytes(2 * _MAX_MOVES))
        self.nmoves = 0
        self.player_colour = bytearray(2)
        self.quiet_limit = quiet_limit
        self.mines_guard_flag = mines_guard_flag
        self.last_src = NOBODY
        self.last_dst = NOBODY
        self.reset(seed)

    def reset(self, seed):
        rng = Rng(seed)
        cells = self.moves  # scratch for the shuffle
        n = 0
        for c in range(jb.CELLS):
            self.occ[c] = 0
            self.colour[c] = NOBODY
            self.kind[c] = 0
            if jb.KIND[c] != jb.CAMP:
                cells[n] = c
                n += 1
        for i in range(n - 1, 0, -1):
            j = rng.below(i + 1)
            t = cells[i]
            cells[i] = cells[j]
            cells[j] = t
        i = 0
        for col in range(2):
            for t in range(TYPES):
                self.pool[col * TYPES + t] = COUNTS[t]
                self.alive[col * TYPES + t] = COUNTS[t]
                for _ in range(COUNTS[t]):
                    c = cells[i]
                    i += 1
                    self.kind[c] = t
                    self.colour[c] = col
                    self.occ[c] = HIDDEN
        self.player_colour[0] = NOBODY
        self.player_colour[1] = NOBODY
        self.to_move = 0
        self.winner = NOBODY
        self.quiet = 0
        self.plies = 0
        self.hidden = n
        self.last_src = NOBODY
        self.last_dst = NOBODY

    # Queries ----------------------------------------------------------------
    def is_mine(self, player, c):
        """Is cell c a face-up piece of ``player``?"""
        pc = self.player_colour[player]
        return pc != NOBODY and self.occ[c] == pc + 1

    def destinations(self, src):
        """Legal destinations of the face-up piece at src into router.dests
        (count returned); the router's dist/parent give the routes."""
        occ = self.occ
        o = occ[src]
        if o == 0 or o == HIDDEN:
            return 0
        router = self.router
        n = router.destinations(src, o, move_mode(self.kind[src]))
        if self.mines_guard_flag and n:
            dests = router.dests
            kind = self.kind
            colour = self.colour
            alive = self.alive
            k = 0
            for i in range(n):
                q = dests[i]
                if occ[q] != 0 and kind[q] == FLAG and alive[colour[q] * TYPES + MINE]:
                    router.dist[q] = jb.NONE
                    continue
                dests[k] = q
                k += 1
            n = k
            router.ndest = n
        return n

    def legal_moves(self, player=None):
        """All legal moves of ``player`` (default: side to move) into
        ``moves[0:nmoves]``: flips first (cell order), then piece moves."""
        if player is None:
            player = self.to_move
        moves = self.moves
        occ = self.occ
        n = 0
        for c in range(jb.CELLS):
            if occ[c] == HIDDEN:
                moves[n] = c * 65
                n += 1
        pc = self.player_colour[player]
        if pc != NOBODY:
            side = pc + 1
            dests = self.router.dests
            for c in range(jb.CELLS):
                if occ[c] == side:
                    k = self.destinations(c)
                    base = c * 64
                    for i in range(k):
                        moves[n] = base + dests[i]
                        n += 1
        self.nmoves = n
        return n

    def has_move(self, player):
        if self.hidden:
            return True
        pc = self.player_colour[player]
        if pc == NOBODY:
            return False
        side = pc + 1
        occ = self.occ
        for c in range(jb.CELLS):
            if occ[c] == side and self.destinations(c):
                return True
        return False

    def is_legal(self, move):
        src = move >> 6
        dst = move & 63
        if src >= jb.CELLS or dst >= jb.CELLS or self.winner != NOBODY:
            return False
        if src == dst:
            return self.occ[src] == HIDDEN
        if not self.is_mine(self.to_move, src):
            return False
        self.destinations(src)
        return self.router.can_reach(dst)

    # Playing ------------------------------------------------------------------
    def apply(self, move):
        """Play a legal move of the side to move; returns an EV_* event.
        Sets ``winner`` (player 0/1 or DRAW) when the game ends."""
        src = move >> 6
        dst = move & 63
        occ = self.occ
        kind = self.kind
        colour = self.colour
        player = self.to_move
        self.plies += 1
        self.quiet += 1
        self.last_src = src
        self.last_dst = dst
        ev = _EV_MOVE
        if src == dst:
            col = colour[src]
            occ[src] = col + 1
            self.pool[col * TYPES + kind[src]] -= 1
            self.hidden -= 1
            if self.player_colour[player] == NOBODY:
                self.player_colour[player] = col
                self.player_colour[1 - player] = 1 - col
            self.quiet = 0
            ev = _EV_FLIP
        else:
            a = kind[src]
            ac = colour[src]
            if occ[dst] == 0:
                occ[dst] = occ[src]
                kind[dst] = a
                colour[dst] = ac
            else:
                d = kind[dst]
                dc = colour[dst]
                self.quiet = 0
                res = combat(a, d)
                if res == ATTACKER_WINS:
                    self.alive[dc * TYPES + d] -= 1
                    occ[dst] = occ[src]
                    kind[dst] = a
                    colour[dst] = ac
                    ev = EV_WIN
                    if d == FLAG:
                        self.winner = player
                elif res == DEFENDER_WINS:
                    self.alive[ac * TYPES + a] -= 1
                    ev = EV_LOSE
                else:
                    self.alive[ac * TYPES + a] -= 1
                    self.alive[dc * TYPES + d] -= 1
                    occ[dst] = 0
                    colour[dst] = NOBODY
                    ev = EV_TRADE
            occ[src] = 0
            colour[src] = NOBODY
        self.to_move = 1 - player
        if self.winner == NOBODY:
            if not self.has_move(self.to_move):
                self.winner = player
            elif self.quiet_limit and self.quiet >= self.quiet_limit:
                self.winner = DRAW
        return ev
