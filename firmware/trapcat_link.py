"""Trap the Cat head-to-head over the link cable (linkplay.py runs it): one
player blocks, the other steers the cat, on the same random grid (the shared
seed).  Player 0 (the side that moves first) blocks: A blocks the cell under
the cursor; the cat's player puts the cursor on a free neighbour of the cat
and A steps there.  The blocker wins when the cat has no free neighbour, the
cat when it reaches the border.  The grid is drawn as in the solo game
(trapcat_game's ``draw_grid``, on this match's fields); the panel's lines that
stay all match are drawn once (``scenekit.text_strip``) and blitted, and
``frame_key`` lets the runtime keep a frame while neither a move nor the
cursor changed it.
"""

import gfx
import link
import linkmatch
import scenekit
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
        self.moves_line = ""
        # the panel's lines but the move count, drawn once: a blit costs
        # ~0.15 ms, a 3x5 text ~2 ms on the virtual Pico (five of them were
        # 10 of the 15 ms a frame took to draw)
        self.title = scenekit.text_strip("TRAP THE CAT")
        self.you = scenekit.text_strip("YOU: " + self.side)
        self.turns = (scenekit.text_strip("THEIR TURN"), scenekit.text_strip("YOUR TURN"))
        self.control = scenekit.text_strip("A:BLOCK" if me == 0 else "A:STEP")
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
        self.moves_line = "MOVES %d" % self.board.moves

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

    def frame_key(self):
        # the grid, its cursor (a cell, < 128) and the lines: nothing else moves
        return self.changes << 7 | self.cursor

    def draw(self, fb):
        fb.fill(0)
        self.draw_grid(fb, self.cursor)
        fb.blit(self.title, PX, 0, 0)
        fb.blit(self.you, PX, 10, 0)
        gfx.text(fb, self.moves_line, PX, 18)
        fb.blit(self.turns[1 if self.to_move() == self.me else 0], PX, 26, 0)
        fb.blit(self.control, PX, 52, 0)
