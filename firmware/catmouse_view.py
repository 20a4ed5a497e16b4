"""Cat & Mouse's map on the 128x64 screen, drawn the same in play, at the end
and in the watch mode: the terrain prerendered once per map, the two pieces
and a one-line status bar (composed in place, so a new text allocates
nothing).

A cell is 8 pixels wide and 7 high (CELL_W x CELL_H), so the largest map
the screen takes, 16 x 8 cells, fills the top 128 x 56 pixels and the status
bar has the bottom 7 rows to itself (_STATUS_Y): it never covers the map.
Road (empty), grass (tufts), stream (waves), obstacle (brick), cat (face
with ears), mouse (side view: ear, snout, tail).
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
CELL_W = const(8)       # a map cell on the screen, in pixels
CELL_H = const(7)
_STATUS_Y = const(57)    # the status bar: the bottom 7 rows, below 8 rows of cells

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
        # the terrain's cells (obstacle, road, grass, stream), the cat, the mouse
        self.sprites = (
            gfx.Sprite(gfx.sprite_rows((
                "XXXXXXXX", "X..X...X", "XXXXXXXX", "X...X..X",
                "XXXXXXXX", "X..X...X", "XXXXXXXX")), CELL_W, CELL_H),
            gfx.Sprite(gfx.sprite_rows((
                "........", "........", "........", "........",
                "........", "........", "........")), CELL_W, CELL_H),
            gfx.Sprite(gfx.sprite_rows((
                "........", ".X...X..", ".X.X.X..", "........",
                "....X...", "X...X.X.", "X.X.....")), CELL_W, CELL_H),
            gfx.Sprite(gfx.sprite_rows((
                "........", ".XX...XX", "X..XXX..", "........",
                ".XX...XX", "X..XXX..", "........")), CELL_W, CELL_H),
        )
        self.cat_sprite = gfx.Sprite(gfx.sprite_rows((
            "X.....X.", "XX...XX.", "XXXXXXX.", "X.XXX.X.",
            "XXXXXXX.", "XX.X.XX.", ".XXXXX..")), CELL_W, CELL_H)
        self.mouse_sprite = gfx.Sprite(gfx.sprite_rows((
            "..XX....", ".XXXX...", ".XXXXXX.", "X.XXXXXX",
            "XXXXXXXX", ".X...X..", "......XX")), CELL_W, CELL_H)
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
        cols = game.cols
        for cell in range(len(costs)):
            self.bg_fb.blit(sprites[costs[cell]].fb, (cell % cols) * CELL_W, (cell // cols) * CELL_H)

    def copy_bg(self, fb):
        """The background frame as the whole of ``fb`` (the display's)."""
        frame = self.ctx.frame
        if len(frame) == len(self.bg):
            frame[WHOLE] = self.bg   # the prerendered terrain, one memory copy
        else:
            fb.blit(self.bg_fb, 0, 0)

    def draw(self, fb, g):
        """The map of game ``g`` with its pieces and the status bar below
        it; a cat that has caught the mouse blinks."""
        ctx = self.ctx
        cols = g.cols
        self.copy_bg(fb)
        fb.blit(self.mouse_sprite.fb, (g.mouse % cols) * CELL_W, (g.mouse // cols) * CELL_H)
        if g.winner != "cat" or (ctx.tick_no() >> 3) & 1:
            fb.blit(self.cat_sprite.fb, (g.cat % cols) * CELL_W, (g.cat // cols) * CELL_H)
        fb.fill_rect(0, _STATUS_Y, 128, 7, 1)
        gfx.text(fb, self.status, 1, _STATUS_Y + 1, 0)
