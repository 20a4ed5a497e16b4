"""Trap the Cat head-to-head over the link cable (linkplay.py runs it): one
player blocks, the other steers the cat, on the same random grid (the shared
seed).  Player 0 (the side that moves first) blocks: A blocks the cell under
the cursor; the cat's player puts the cursor on a free neighbour of the cat
and A steps there.  The blocker wins when the cat has no free neighbour, the
cat when it reaches the border.  The grid is drawn as in the solo game
(trapcat_game's ``draw_grid``, on this match's fields).
"""

import gfx
import link
import linkmatch
import trapcat
import trapcat_game as tg
from buttons import A

GAME = "trapcat"
PX = tg.PX


class _NoMap:
    # draw_grid's analyzer: the distance map is not shown in a linked game
    dist = None


class Match(linkmatch.Match):
    GAME = GAME
    draw_grid = tg.Scene.draw_grid
    overlay = False
    digits = None
    an = _NoMap

    def __init__(self, ctx, seed, me):
        self.board = trapcat.Board(9)
        self.cursor = 0
        self.side = ("BLOCKER", "CAT")[me]
        self.lines = ("", "", "")
        self.hint_cell = trapcat.NONE    # the solo grid's hint mark: no hints in a linked game
        linkmatch.Match.__init__(self, ctx, seed, me)
        self.cursor = self.board.cat - 1     # (an undo's replay leaves it where it is)

    def reset(self):
        self.board.reset(trapcat.Rng(self.seed), trapcat.DEFAULT_BLOCKS)
        self._text()

    def to_move(self):
        return self.plies & 1

    def legal(self, move):
        b = self.board
        if b.status != trapcat.PLAYING:
            return False
        if self.plies & 1:
            return b.can_move(move)
        return b.can_block(move)

    def apply(self, move):
        if self.plies & 1:
            self.board.move_cat(move)
        else:
            self.board.block(move)

    def moved(self):
        self._text()

    def winner(self):
        s = self.board.status
        if s == trapcat.PLAYER_WON:
            return 0
        if s == trapcat.CAT_WON:
            return 1
        return linkmatch.PLAYING

    def state_hash(self):
        b = self.board
        return link.crc16(b.cells, 0, b.n) ^ b.cat << 8 ^ self.plies

    def _text(self):
        self.lines = ("YOU: " + self.side, "MOVES %d" % self.board.moves,
                      "YOUR TURN" if self.to_move() == self.me else "THEIR TURN")

    def act(self, ctx, may_move):
        btn = ctx.buttons
        b = self.board
        self.cursor = tg.moved_cursor(btn, self.cursor, b.size)
        if not btn.just_pressed(A) or not may_move or self.to_move() != self.me:
            return linkmatch.NO_MOVE
        if self.legal(self.cursor):
            return self.cursor
        ctx.beep(220, 30)
        return linkmatch.NO_MOVE

    def draw(self, fb):
        fb.fill(0)
        self.draw_grid(fb, self.cursor)
        gfx.text(fb, "TRAP THE CAT", PX, 0)
        y = 10
        for line in self.lines:
            gfx.text(fb, line, PX, y)
            y += 8
        gfx.text(fb, "A:BLOCK" if self.me == 0 else "A:STEP", PX, 52)
