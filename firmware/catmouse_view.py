"""Cat & Mouse's map on the 128x64 screen, drawn the same in play, at the end
and in the watch mode: the terrain prerendered once per map, the two pieces
and a one-line status bar (composed in place, so a new text allocates
nothing).

The 16x8 map fills the screen, one 8x8 cell each: road (empty), grass
(tufts), stream (waves), obstacle (solid brick), cat (face with ears), mouse
(side view: ear, snout, tail).  The status bar goes on the half of the screen
away from the player's piece.
"""

import gfx
from gridpath import WHOLE

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# status bar capacity: "YOU CAUGHT IT!  A:AGAIN B:MENU" is 30 characters; play on
# the largest map the parser takes (64x64, 512 rounds) "R512/512 MOUSE ST1536 REST" 26
_STATUS_SIZE = const(32)

_ROAD = gfx.sprite_rows((
    "........", "........", "........", "........",
    "........", "........", "........", "........"))
_GRASS = gfx.sprite_rows((
    "........", ".X...X..", ".X.X.X..", "........",
    "....X...", "X...X.X.", "X.X.....", "........"))
_STREAM = gfx.sprite_rows((
    "........", ".XX...XX", "X..XXX..", "........",
    ".XX...XX", "X..XXX..", "........", "........"))
_OBSTACLE = gfx.sprite_rows((
    "XXXXXXXX", "X..X...X", "XXXXXXXX", "X...X..X",
    "XXXXXXXX", "X..X...X", "XXXXXXXX", "........"))
_CAT = gfx.sprite_rows((
    "X.....X.", "XX...XX.", "XXXXXXX.", "X.XXX.X.",
    "XXXXXXX.", "XX.X.XX.", ".XXXXX..", "........"))
_MOUSE = gfx.sprite_rows((
    "........", "..XX....", ".XXXX...", ".XXXXXX.",
    "X.XXXXXX", "XXXXXXXX", ".X...X..", "......XX"))


class StatusText:
    """The status bar text, composed in place: one bytearray and a prebuilt
    memoryview of each length, so a new text allocates nothing (no str
    formatting, no int-to-str).  ``text()`` is what gfx.text draws."""

    def __init__(self, size):
        self.buf = bytearray(size)
        whole = memoryview(self.buf)
        self.views = [whole[:n] for n in range(size + 1)]
        self.n = 0

    def clear(self):
        self.n = 0

    def put(self, chars):
        """Append ``chars`` (bytes)."""
        buf = self.buf
        n = self.n
        for i in range(len(chars)):
            buf[n] = chars[i]
            n += 1
        self.n = n

    def put_int(self, value):
        """Append a non-negative int in decimal."""
        digits = 1
        scale = 10
        while value >= scale:
            scale *= 10
            digits += 1
        buf = self.buf
        n = self.n + digits
        self.n = n
        for _ in range(digits):
            n -= 1
            buf[n] = 48 + value % 10
            value //= 10

    def text(self):
        return self.views[self.n]


class MapView:
    """The terrain frame (``bg``, drawn into through ``bg_fb``: the watch mode
    shades its searches there), the sprites and the status bar.  Whoever
    changes the status composes it in ``line`` and sets ``status`` to
    ``line.text()``."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.sprites = (
            gfx.Sprite(_OBSTACLE, 8, 8), gfx.Sprite(_ROAD, 8, 8),
            gfx.Sprite(_GRASS, 8, 8), gfx.Sprite(_STREAM, 8, 8),
        )
        self.cat_sprite = gfx.Sprite(_CAT, 8, 8)
        self.mouse_sprite = gfx.Sprite(_MOUSE, 8, 8)
        self.bg = None
        self.bg_fb = None
        self.line = StatusText(_STATUS_SIZE)
        self.status = self.line.text()

    def render(self, game):
        """Draw ``game``'s terrain once into the background frame (copied every tick)."""
        import framebuf

        w = self.ctx.width
        h = self.ctx.height
        if self.bg is None:
            self.bg = bytearray(w * h // 8)
            self.bg_fb = framebuf.FrameBuffer(self.bg, w, h, framebuf.MONO_VLSB)
        self.bg_fb.fill(0)
        costs = game.costs
        sprites = self.sprites
        for cell in range(len(costs)):
            self.bg_fb.blit(sprites[costs[cell]].fb, (cell % game.cols) << 3, (cell // game.cols) << 3)

    def draw(self, fb, g, mine):
        """The map of game ``g`` with its pieces and the status bar, kept off
        ``mine`` (the player's piece); a cat that has caught the mouse blinks."""
        ctx = self.ctx
        cols = g.cols
        frame = ctx.frame
        if len(frame) == len(self.bg):
            frame[WHOLE] = self.bg   # the prerendered terrain, one memory copy
        else:
            fb.blit(self.bg_fb, 0, 0)
        fb.blit(self.mouse_sprite.fb, (g.mouse % cols) << 3, (g.mouse // cols) << 3)
        if g.winner != "cat" or (ctx.tick_no() >> 3) & 1:
            fb.blit(self.cat_sprite.fb, (g.cat % cols) << 3, (g.cat // cols) << 3)
        # the status bar goes below the map when it leaves room, else on the
        # top or bottom row, whichever has no piece (else the one away from the
        # player's piece); a piece under the bar is cut out of it
        last = g.rows - 1
        h = ctx.height
        if g.rows * 8 <= h - 8:
            y = h - 7
        elif g.cat // cols != last and g.mouse // cols != last:
            y = g.rows * 8 - 7
        elif g.cat // cols != 0 and g.mouse // cols != 0:
            y = 0
        else:
            y = g.rows * 8 - 7 if mine // cols < g.rows // 2 else 0
        fb.fill_rect(0, y, 128, 7, 1)
        tx = 1
        row = y >> 3
        if y < g.rows * 8 and ((g.cat // cols == row and g.cat % cols < 8)
                               or (g.mouse // cols == row and g.mouse % cols < 8)):
            tx = 127 - gfx.text_width(self.status)   # a piece on the left: text right
        gfx.text(fb, self.status, tx, y + 1, 0)
        if y < g.rows * 8:
            if g.mouse // cols == row:
                self._cut_out(fb, self.mouse_sprite, g.mouse, cols)
            if g.cat // cols == row and (g.winner != "cat" or (ctx.tick_no() >> 3) & 1):
                self._cut_out(fb, self.cat_sprite, g.cat, cols)

    def _cut_out(self, fb, sprite, cell, cols):
        x = (cell % cols) << 3
        y = (cell // cols) << 3
        fb.fill_rect(x - 1 if x else 0, y, 10 if x else 9, 8, 0)
        fb.blit(sprite.fb, x, y)
