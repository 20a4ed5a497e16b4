"""Flip Junqi (翻棋) on the handheld: the scene around junqi_flip.py / junqi_ai.py.

The notes are comments (below and before ``class Scene``): the VMs compile
this source and keep every docstring on the heap while the game runs.
"""

# Screen (128x64): the field is rotated, rows A..L run left to right (10 px
# each, an 8 px front-line gap between F and G), columns 0..4 top to bottom
# (12 px each).  A piece is a 9x11 box with a 5x7 glyph:
#   red (colour 0)  filled box, dark glyph       blue (colour 1)  outlined box, lit glyph
#   face-down       a dotted tile
#   glyphs          1..8 = 排长..司令 (platoon..marshal), E = engineer,
#                   a bomb (round, with a fuse), a mine (spiked ball), a flag.
# Pieces in a camp have clipped corners (they cannot be attacked).  Empty
# cells show the field: railway links as double lines, roads as single lines,
# camps as rings, headquarters as squares.  The gap shows whose turn it is (the
# mover's colour swatch and "P1"/"P2" or "P1"/"AI") and a spinner while the
# AI thinks; the mountains F1-G1 / F3-G3 have no line across the gap.  The
# first flip, which gives the players their colours, says so for _NOTE_TICKS
# ("YOU: RED (FILLED)", drawn as a toast is, gone with an undo of that flip).
# The last move: a dashed frame around the piece that moved or was flipped, a
# small square where it came from; the AI's flip turns the tile over
# (_FLIP_TICKS), its moves run along their route.
#
# Controls: arrows move the cursor; A flips a face-down piece, picks up an own
# piece (its legal destinations blink; on a destination the route is drawn)
# and A again moves there (engineer routes are animated cell by cell; while an
# engineer on the railway is picked up, each empty cell its BFS reached shows
# the cells entered to get there, router.dist).  The controls of B are every
# game's (scenekit.Pause): a B tap drops the selection; holding B opens the
# pause menu (resume, undo, restart, rules, quit); B+A (hold B, press A)
# undoes: against the AI your last move and the AI's answer, in two-player
# games one move (_UNDO_PLIES
# moves in a preallocated undoring: what each move changed, with the AI's RNG
# state, so the same moves replay the same AI; a longer game keeps its newest
# UNDO_PLIES, and an undo past them says "NO OLDER MOVES").  Menu at start: vs AI or two players (pass
# and play), and the rule "mines guard the flag" (MINE GUARD: ON/OFF; kept in
# the game's save as "guard", on unless the player turned it off: a measured
# AI-vs-AI tournament, docs/junqi.md, has longer games and the stronger AI
# winning more often with it).  The launcher's difficulty EASY picks the easy
# AI, NORMAL and HARD the full one.  Results vs each AI are saved
# (won/lost/drawn) by ctx.finish.
# The screens and the AI's turn: the notes before ``class Scene``.

import screens
import framebuf

from buttons import A, B, DOWN, LEFT, RIGHT, UP
import gfx
import junqi_ai
import junqi_board as jb
import junqi_flip as jf
import scenekit
import undoring
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico
import work

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

GAME_ID = "junqi"

CELL_W = const(10)
_CELL_H = const(12)
_BOX_W = const(9)
_BOX_H = const(11)
_GAP = const(8)
_TOP = const(2)
_MID_X = const(60)              # the front-line gap, x 60..67
_ANIM_TICKS = const(3)          # ticks per cell of an animated route
_NOTE_TICKS = const(45)         # how long the colours' note shows
_NOTE_W = const(87)             # its box, the longest note's width (drawn once, then blitted)
_FLIP_TICKS = const(6)          # the AI's flip: the tile narrows, the piece widens
# (_FLIP_W, in MoveScreen.draw: its visible width at each of those ticks)
_THINK_MIN = const(10)          # ticks the AI "thinks" at least (so its move is seen)
SLICE_MS = const(8)            # AI work per tick: the job's budget (work.Job)
# undo: one record per move (ply): src, dst, both cells before it (occupant,
# colour and type in a byte), both players' colours, the quiet
# count, the last move's cells, the AI's RNG state (30 bits); an even number of
# plies keeps whole turns against the AI
_UNDO_PLIES = const(100)
UNDO_SIZE = const(12)

# 5x7 glyphs, indexed by piece type (junqi_flip: FLAG MINE BOMB ENGINEER 1..8):
# one bytes object (the heap holds no tuple per glyph or row), 7 rows per
# glyph, each row's 5 pixels in its low 5 bits (bit 4 the leftmost)
GLYPHS = (
    b"\x1e\x1f\x1e\x10\x10\x10\x10"  # flag        XXXX. XXXXX XXXX. X.... X.... X.... X....
    b"\x04\x15\x0e\x1f\x0e\x15\x04"  # mine        ..X.. X.X.X .XXX. XXXXX .XXX. X.X.X ..X..
    b"\x02\x04\x0e\x1f\x1f\x1f\x0e"  # bomb        ...X. ..X.. .XXX. XXXXX XXXXX XXXXX .XXX.
    b"\x1f\x10\x10\x1e\x10\x10\x1f"  # engineer    XXXXX X.... X.... XXXX. X.... X.... XXXXX
    b"\x04\x0c\x04\x04\x04\x04\x0e"  # 1 platoon   ..X.. .XX.. ..X.. ..X.. ..X.. ..X.. .XXX.
    b"\x0e\x11\x01\x02\x04\x08\x1f"  # 2 company   .XXX. X...X ....X ...X. ..X.. .X... XXXXX
    b"\x1f\x02\x04\x02\x01\x11\x0e"  # 3 battalion XXXXX ...X. ..X.. ...X. ....X X...X .XXX.
    b"\x02\x06\x0a\x12\x1f\x02\x02"  # 4 regiment  ...X. ..XX. .X.X. X..X. XXXXX ...X. ...X.
    b"\x1f\x10\x1e\x01\x01\x11\x0e"  # 5 brigade   XXXXX X.... XXXX. ....X ....X X...X .XXX.
    b"\x06\x08\x10\x1e\x11\x11\x0e"  # 6 division  ..XX. .X... X.... XXXX. X...X X...X .XXX.
    b"\x1f\x01\x02\x04\x08\x08\x08"  # 7 corps     XXXXX ....X ...X. ..X.. .X... .X... .X...
    b"\x0e\x11\x11\x0e\x11\x11\x0e"  # 8 marshal   .XXX. X...X X...X .XXX. X...X X...X .XXX.
)
_GLYPH_ROWS = const(7)
_SPRITE_BYTES = const(18)       # a 9x11 box: 9 columns x 2 pages (MONO_VLSB)
_EMPTY_BOX = const(0)           # FieldView.shown: a box without a piece,
_HIDDEN_BOX = const(25)         # 1..24 a face-up piece (1 + its sprite), a face-down one


def _box_sprite(buf, t, filled):
    # A 9x11 piece box with the 5x7 glyph of piece type ``t`` at (2, 2),
    # drawn into ``buf`` (_SPRITE_BYTES); ``t`` None: face-down.
    fb = framebuf.FrameBuffer(buf, _BOX_W, _BOX_H, framebuf.MONO_VLSB)
    if t is None:
        # face-down: a dotted tile, no outline (face-up pieces stand out)
        for y in range(1, _BOX_H - 1):
            for x in range(1 + y % 2, _BOX_W - 1, 2):
                fb.pixel(x, y, 1)
        fb.hline(1, 0, _BOX_W - 2, 1)
        fb.hline(1, _BOX_H - 1, _BOX_W - 2, 1)
        return fb
    if filled:
        fb.fill_rect(0, 0, _BOX_W, _BOX_H, 1)
    else:
        fb.rect(0, 0, _BOX_W, _BOX_H, 1)
    c = 0 if filled else 1
    at = t * _GLYPH_ROWS
    for y in range(_GLYPH_ROWS):
        row = GLYPHS[at + y]
        for x in range(5):
            if row >> (4 - x) & 1:
                fb.pixel(2 + x, 2 + y, c)
    return fb


def cell_xy(c):
    # Top-left pixel of cell c's box (row along x, column along y).
    r = c // jb.COLS
    x = r * CELL_W + (_GAP if r >= 6 else 0)
    return x, _TOP + (c % jb.COLS) * _CELL_H



def _push_ply(ring, model, move, rng_state):
    # Record in ``ring`` what ``move`` is about to change in ``model``.
    at = ring.push()
    buf = ring.buf
    src = move >> 6
    dst = move & 63
    buf[at] = src
    buf[at + 1] = dst
    # occupant 0..3, colour 0/1/NOBODY as 0/1/3, type 0..11
    buf[at + 2] = model.occ[src] | (model.colour[src] & 3) << 2 | model.kind[src] << 4
    buf[at + 3] = model.occ[dst] | (model.colour[dst] & 3) << 2 | model.kind[dst] << 4
    buf[at + 4] = (model.player_colour[0] & 3) | (model.player_colour[1] & 3) << 2
    buf[at + 5] = model.quiet
    buf[at + 6] = model.last_src
    buf[at + 7] = model.last_dst
    ring.put30(at + 8, rng_state)


def _pop_ply(ring, model, ai):
    # Take back the newest recorded move (and the AI's RNG state, when
    # there is an AI); False when there is none.
    at = ring.pop()
    if at < 0:
        return False
    buf = ring.buf
    src = buf[at]
    dst = buf[at + 1]
    occ = model.occ
    kind = model.kind
    colour = model.colour
    for k in range(2):
        c = dst if k else src
        v = buf[at + 2 + k]
        occ[c] = v & 3
        v >>= 2
        colour[c] = jf.NOBODY if v & 3 == 3 else v & 3
        kind[c] = v >> 2
    a = kind[src]
    ac = colour[src]
    if src == dst:
        model.pool[ac * jf.TYPES + a] += 1
        model.hidden += 1
    elif occ[dst] != 0:
        d = kind[dst]
        dc = colour[dst]
        res = jf.combat(a, d)
        if res != jf.DEFENDER_WINS:
            model.alive[dc * jf.TYPES + d] += 1
        if res != jf.ATTACKER_WINS:
            model.alive[ac * jf.TYPES + a] += 1
    v = buf[at + 4]
    model.player_colour[0] = jf.NOBODY if v & 3 == 3 else v & 3
    model.player_colour[1] = jf.NOBODY if v >> 2 == 3 else v >> 2
    model.quiet = buf[at + 5]
    model.last_src = buf[at + 6]
    model.last_dst = buf[at + 7]
    model.plies -= 1
    model.to_move = 1 - model.to_move
    model.winner = jf.NOBODY
    if ai is not None:
        ai.rng.s = ring.get30(at + 8)
    return True


def _put_field(m, field, counts):
    # The saved field and counters into model ``m`` (lengths checked by the schema).
    n = jb.CELLS
    t = 2 * jf.TYPES
    m.occ[:] = field[0:n]
    m.kind[:] = field[n:2 * n]
    m.colour[:] = field[2 * n:3 * n]
    m.pool[:] = field[3 * n:3 * n + t]
    m.alive[:] = field[3 * n + t:3 * n + 2 * t]
    m.player_colour[:] = field[3 * n + 2 * t:]
    m.to_move, m.quiet, m.plies, m.hidden, m.last_src, m.last_dst = counts
    m.winner = jf.NOBODY


class FieldView:
    # The field's look, made once: the piece sprites ([colour * 12 + type]
    # and the face-down tile), the last move's dashed frame and ``bg``, the
    # field with its pieces (roads, railways, camps, headquarters under
    # them; ``shown[c]``: what cell c's box holds there, _EMPTY_BOX or
    # 1 + the sprite's index or _HIDDEN_BOX), kept up to date box by box
    # (``update``: only the cells whose piece changed are drawn again).
    # ``draw`` puts it on the screen in one copy (ctx.frame; a blit of the
    # whole frame cost 8.4 ms on the virtual Pico, the 60 cells' sprites
    # 7.5 ms more) and over it what blinks: marks, the route, the last move.

    def __init__(self):
        # the 25 sprites' bytes in one sheet, each sprite's FrameBuffer over
        # its slice (no bytearray object of its own: ~320 B less heap)
        sheet = memoryview(bytearray(_SPRITE_BYTES * (2 * jf.TYPES + 1)))
        self.sprites = [None] * (2 * jf.TYPES)
        for i in range(2 * jf.TYPES):
            at = i * _SPRITE_BYTES
            self.sprites[i] = _box_sprite(sheet[at:at + _SPRITE_BYTES], i % jf.TYPES, i < jf.TYPES)
        self.hidden = _box_sprite(sheet[2 * jf.TYPES * _SPRITE_BYTES:], None, False)
        # a dashed frame in the 1-px gaps around a box (every other pixel):
        # no road or railway line looks like it
        # (11 x 13, MONO_VLSB: the top 8 rows' 11 columns, then the 5 rows' below)
        self.dashed = framebuf.FrameBuffer(bytearray(
            b"\x55\x00\x01\x00\x01\x00\x01\x00\x01\x00\x55\x15\x00\x10\x00\x10\x00\x10\x00\x10\x00\x15"),
            _BOX_W + 2, _BOX_H + 2, framebuf.MONO_VLSB)
        # the colours' note, drawn into its own box once per note (Scene.tell_colours)
        self.note = framebuf.FrameBuffer(bytearray(_NOTE_W * 2), _NOTE_W, 11, framebuf.MONO_VLSB)
        # one empty cell's box, drawn on its own (clipped) to go into bg
        self.box = framebuf.FrameBuffer(bytearray(_BOX_W * 2), _BOX_W, _BOX_H, framebuf.MONO_VLSB)
        self.cx = bytearray(jb.CELLS)       # box corner per cell (draw without tuples)
        self.cy = bytearray(jb.CELLS)
        for c in range(jb.CELLS):
            x, y = cell_xy(c)
            self.cx[c] = x
            self.cy[c] = y
        self.bg = bytearray(1024)
        self.bg_fb = framebuf.FrameBuffer(self.bg, 128, 64, framebuf.MONO_VLSB)
        self.shown = bytearray(jb.CELLS)    # every box empty
        fb = self.bg_fb
        fb.fill(0)
        for c in range(jb.CELLS):
            self.draw_empty(fb, c, 0, 0, c)
        # the front line: nothing drawn across the mountains F1-G1 / F3-G3 (in
        # the gap, beside every box)
        fb.fill_rect(_MID_X + 1, _TOP + _CELL_H, _GAP - 2, 9, 0)
        fb.fill_rect(_MID_X + 1, _TOP + 3 * _CELL_H, _GAP - 2, 9, 0)

    def draw_empty(self, fb, c, x, y, start):
        # The empty field's cell c, shifted by (-x, -y): its roads and
        # railways to the neighbours from cell ``start`` on and its post, camp
        # or headquarters.  Cell by cell from 0 (``start`` c) the empty field,
        # alone (``start`` 0, into ``box``: the lines through its box clipped
        # to it) an empty box.
        ox = x
        oy = y
        x, y = cell_xy(c)
        x -= ox
        y -= oy
        mx = x + 4
        my = y + 5
        for i in range(jb.ROAD_N[c]):
            q = jb.ROAD[c * 8 + i]
            if q < start:
                continue
            qx, qy = cell_xy(q)
            qx += 4 - ox
            qy += 5 - oy
            if jb.RAIL[c * 4] != q and jb.RAIL[c * 4 + 1] != q and jb.RAIL[c * 4 + 2] != q \
                    and jb.RAIL[c * 4 + 3] != q:
                if q > c:                   # from the lower cell (the same pixels)
                    fb.line(mx, my, qx, qy, 1)
                else:
                    fb.line(qx, qy, mx, my, 1)
            elif my == qy:
                fb.hline(min(mx, qx), my - 1, abs(qx - mx), 1)
                fb.hline(min(mx, qx), my + 1, abs(qx - mx), 1)
            else:
                fb.vline(mx - 1, min(my, qy), abs(qy - my), 1)
                fb.vline(mx + 1, min(my, qy), abs(qy - my), 1)
        k = jb.KIND[c]
        if k == jb.CAMP:
            fb.fill_rect(x + 1, y + 2, 7, 7, 0)
            fb.rect(x + 1, y + 2, 7, 7, 1)
            fb.pixel(x + 1, y + 2, 0)
            fb.pixel(x + 7, y + 2, 0)
            fb.pixel(x + 1, y + 8, 0)
            fb.pixel(x + 7, y + 8, 0)
        elif k == jb.HQ:
            fb.fill_rect(x, y + 1, 9, 9, 0)
            fb.rect(x, y + 1, 9, 9, 1)
            fb.rect(x + 2, y + 3, 5, 5, 1)
        else:
            fb.fill_rect(mx - 1, my - 1, 3, 3, 1)

    def update(self, m, moving):
        # bg with model m's pieces (``moving``'s is drawn in flight: not
        # there); only the boxes whose piece changed are drawn again
        occ = m.occ
        kind = m.kind
        colour = m.colour
        shown = self.shown
        for c in range(jb.CELLS):
            o = occ[c]
            if o == 0 or c == moving:
                k = _EMPTY_BOX
            elif o == jf.HIDDEN:
                k = _HIDDEN_BOX
            else:
                k = 1 + colour[c] * jf.TYPES + kind[c]
            if k == shown[c]:
                continue
            shown[c] = k
            if k == _EMPTY_BOX:
                box = self.box
                x = self.cx[c]
                y = self.cy[c]
                box.fill(0)
                self.draw_empty(box, c, x, y, 0)
                self.bg_fb.blit(box, x, y)
            else:
                self.show(self.bg_fb, c, k - 1)

    def show(self, fb, c, i):
        # cell c's piece: sprite ``i`` (_HIDDEN_BOX - 1: face-down), a camp's clipped
        x = self.cx[c]
        y = self.cy[c]
        fb.blit(self.hidden if i == _HIDDEN_BOX - 1 else self.sprites[i], x, y)
        if jb.KIND[c] == jb.CAMP:
            fb.pixel(x, y, 0)
            fb.pixel(x + _BOX_W - 1, y, 0)
            fb.pixel(x, y + _BOX_H - 1, 0)
            fb.pixel(x + _BOX_W - 1, y + _BOX_H - 1, 0)

    def draw(self, fb, s, moving):
        # The field with scene ``s``'s pieces, marks and route; ``moving``:
        # the cell whose piece is drawn in flight (jb.NONE: none, and the last
        # move is marked: a small square where the piece came from, a dashed
        # frame around it where it went or was flipped).
        m = s.model
        self.update(m, moving)
        frame = s.ctx.frame
        if frame is not None and len(frame) == len(self.bg):
            frame[:] = self.bg              # fb's bytes: one copy
        else:
            fb.blit(self.bg_fb, 0, 0)
        shown = self.shown
        if s.path_len:
            # the route runs under the pieces: those on it drawn again
            path = s.path
            self.draw_path(fb, path, s.path_len)
            for i in range(s.path_len):
                c = path[i]
                if shown[c]:
                    self.show(fb, c, shown[c] - 1)
        last = moving == jb.NONE and m.last_src != jf.NOBODY
        if last and m.last_src != m.last_dst and not shown[m.last_src]:
            c = m.last_src                  # (a piece there hides it)
            fb.fill_rect(self.cx[c] + 2, self.cy[c] + 3, 5, 5, 0)
            fb.rect(self.cx[c] + 2, self.cy[c] + 3, 5, 5, 1)
        blink = (s.frame >> 3) & 1
        mark = s.mark
        steps = s.steps
        for c in range(jb.CELLS):
            if not mark[c]:
                continue
            k = shown[c]
            if k == _EMPTY_BOX:
                if steps[c]:
                    self.draw_steps(fb, self.cx[c], self.cy[c], steps[c])
                elif blink:
                    fb.fill_rect(self.cx[c] + 2, self.cy[c] + 3, 5, 5, 1)
            elif blink and k != _HIDDEN_BOX:
                # attack target: blinks inverted (the other colour's sprite)
                self.show(fb, c, (k - 1 + jf.TYPES) % (2 * jf.TYPES))
        if last:
            c = m.last_dst
            fb.blit(self.dashed, self.cx[c] - 1, self.cy[c] - 1, 0)

    def draw_steps(self, fb, x, y, n):
        # The cells entered to reach an empty cell (1..99), on a cleared
        # square in its box: the engineer's BFS, layer by layer.
        fb.fill_rect(x + 1, y + 2, 7, 7, 0)
        if n < 10:
            gfx.text_codes(fb, b"0123456789", n, n + 1, x + 3, y + 3)
        else:
            d = n // 10 % 10
            gfx.text_codes(fb, b"0123456789", d, d + 1, x + 1, y + 3)
            gfx.text_codes(fb, b"0123456789", n % 10, n % 10 + 1, x + 5, y + 3)

    def draw_path(self, fb, path, n):
        cx = self.cx
        cy = self.cy
        for i in range(1, n):
            a = path[i - 1]
            b = path[i]
            ax = cx[a] + 4
            ay = cy[a] + 5
            bx = cx[b] + 4
            by = cy[b] + 5
            if ay == by:
                fb.fill_rect(min(ax, bx), ay - 1, abs(bx - ax) + 1, 3, 1)
            elif ax == bx:
                fb.fill_rect(ax - 1, min(ay, by), 3, abs(by - ay) + 1, 1)
            else:
                fb.line(ax, ay, bx, by, 1)
                fb.line(ax + 1, ay, bx + 1, by, 1)

    def draw_status(self, fb, s, thinking):
        # The gap's swatch and label of the player to move; a spinner while
        # the AI thinks; the colours' note over the field while it shows.
        if s.note_ticks:
            fb.blit(self.note, 64 - _NOTE_W // 2, 26)
        m = s.model
        p = m.to_move
        x = _MID_X + 1
        y = _TOP + _CELL_H
        pc = m.player_colour[p]
        if pc == 0:
            fb.fill_rect(x, y, 6, 4, 1)
        elif pc == 1:
            fb.rect(x, y, 6, 4, 1)
        else:
            fb.hline(x, y + 2, 6, 1)
        gfx.text(fb, s.labels[p], x - 1, y + 6)
        if thinking:
            y = _TOP + 3 * _CELL_H + 1
            k = (s.frame >> 2) % 3
            for i in range(3):
                if i == k:
                    fb.fill_rect(x + 1, y + 3 * i, 3, 2, 1)
                else:
                    fb.pixel(x + 2, y + 3 * i, 1)


# Screens, one object each (``Scene.screen`` is the one on show; the runtime
# sees ``Scene``): ``MenuScreen`` (vs AI or two players, the record),
# ``PlayScreen`` (a player's turn: cursor, selection, routes), ``ThinkScreen``
# (the AI's turn), ``MoveScreen`` (a move animated along its route) and
# ``EndScreen`` (the final field, the result beside the last move).  ``Scene`` holds what they share:
# the model (``model``, a junqi_flip.FlipGame), the AI and the ``work.Job``
# that runs its search, the undo ring, the cursor, selection and route, the
# records; ``FieldView`` draws the field.  Every end of a game (won, lost,
# drawn) goes through ctx.finish; ``snapshot()`` is None on the menu and the
# end screen.
#
# The AI's turn: its move search (junqi_ai.AI, a task of firmware/work.py) runs
# in slices under each tick's deadline (the job's), _THINK_MIN ticks at least.
# Should a slice run out of memory, the job shows "NOT ENOUGH MEMORY" and the
# AI plays the best move its search had found so far, or the first legal move
# when it had none: the game goes on with the player's turn.


class Scene(screens.Scene):
    # The scene the runtime runs: what the screens share (the model, the
    # AI and its job, the undo ring, the cursor, selection and route, the
    # records) and ``screen``, the one on show, which ticks and draws.

    def __init__(self, ctx):
        self.ctx = ctx
        self.saved = scenekit.records(ctx, GAME_ID)   # checked (junqi_saves)
        self.view = FieldView()
        self.model = jf.FlipGame(seed=1, mines_guard_flag=self.guard())
        self.ai = None
        self.ai_easy = False
        self.job = work.Job(SLICE_MS)
        self.mark = bytearray(jb.CELLS)     # 1: legal destination of the selection
        # an engineer's selection on the railway: the cells entered to reach each
        # cell its BFS reached (router.dist), drawn as numbers (0: not shown)
        self.steps = bytearray(jb.CELLS)
        self.path = bytearray(jb.CELLS)     # route shown / animated
        self.path_len = 0
        self.seed = (ctx.ticks_ms() * 31 + 7) & 0xFFFF
        self.mode = 0                       # 0: vs AI, 1: two players
        self.rec_gen = 0
        self.cursor = 27                    # F2
        self.sel = jb.NONE
        self.frame = 0
        self.labels = ("P1", "AI")
        self.undo_ring = undoring.UndoRing(UNDO_SIZE, _UNDO_PLIES)
        # B in play and the pause menu (its lines)
        self.pause = scenekit.Pause(("RESUME", "UNDO", "RESTART", "RULES", "QUIT"))
        self.record = ""
        self._record_text()
        self.note = ""                      # the colours' note, shown while note_ticks
        self.note_ticks = 0
        self.menu_screen = MenuScreen(self)
        self.play_screen = PlayScreen(self)
        self.think_screen = ThinkScreen(self)
        self.move_screen = MoveScreen(self)
        self.end_screen = EndScreen(self)
        self.screen = self.menu_screen
        self.held = False                   # a new deal this tick: the frame on show stays

    def tick(self, ctx):
        self.held = False
        self.frame += 1
        if self.note_ticks:
            self.note_ticks -= 1
        if not self.pause.shown:
            return self.screen.tick(ctx)
        import pausemenu                    # the pause menu: the line chosen, run
        act = pausemenu.tick(self.pause, ctx)
        if act == "UNDO":
            self.screen.chord_undo(ctx, True)
        elif act == "RESTART":
            self.deal()
        elif act == "QUIT":
            return "exit"
        return None

    def draw(self, fb):
        p = self.pause
        if self.held or p.loading:          # fb still holds the frame on show
            return
        p.draw_over(self.screen, fb)

    def frame_key(self):
        # Runtime frame cache: only the menu is static (the field blinks).
        return self.screen.frame_key()

    def _easy(self):
        return self.ctx.settings.get("difficulty", 1) == 0

    def guard(self):
        # The rule "mines guard the flag" for the next game (the menu's setting).
        return self.saved.get("guard", True)       # on until the player turns it off

    def toggle_guard(self):
        # The menu's MINE GUARD line: the setting flipped and stored with the records.
        self.saved["guard"] = not self.guard()
        self.ctx.store(GAME_ID, self.saved)

    def _record_text(self):
        self.rec_gen += 1
        s = self.saved
        p = "easy_" if self._easy() else ""
        self.record = "%s W%d L%d D%d" % ("VS EASY AI" if p else "VS AI ", s.get(p + "won", 0),
                                          s.get(p + "lost", 0), s.get(p + "drawn", 0))

    # -- game flow ---------------------------------------------------------------------
    def deal(self):
        # A new game chosen in play (the menu's A, the pause menu's RESTART, the
        # end screen's A): the deal and its face-down pieces put into the
        # view's bg in this tick with the frame on show kept, the new field's
        # first frame in the next (the deal's ~8 ms, the field's ~19 ms and a
        # whole frame sent, ~24 ms, came to 54 ms in one tick on the virtual
        # Pico; the 60 pieces into bg take ~12 ms).
        self.new_game()
        self.view.update(self.model, jb.NONE)
        self.held = True

    def new_game(self):
        # A new deal in ``mode``; the first player's turn.
        self.seed = (self.seed * 75 + self.ctx.ticks_ms() + 74) % 65537
        self.model.reset(self.seed)
        self.model.mines_guard_flag = self.guard()
        self.job.cancel()
        if self.mode == 0:
            self.ai_easy = self._easy()
            self.ai = junqi_ai.AI(seed=self.seed + 1, easy=self.ai_easy)
            self.labels = ("P1", "AI")
        else:
            self.ai = None
            self.labels = ("P1", "P2")
        self.sel = jb.NONE
        self.path_len = 0
        self.clear_marks()
        self.undo_ring.clear()
        self.cursor = 27
        self.note_ticks = 0
        self.screen = self.play_screen
        self.menu_screen.bar.rows = None    # the title's 256 B go while a game is on (made again)
        self.pause.reminder = 60            # frames of "HOLD B: MENU" over the field

    def clear_marks(self):
        m = self.mark
        for i in range(jb.CELLS):
            m[i] = 0

    def drop(self):
        # Put the selected piece down: no selection, marks or route.
        self.sel = jb.NONE
        self.path_len = 0
        self.clear_marks()

    def select(self, c):
        m = self.model
        self.clear_marks()
        self.sel = c
        self.path_len = 0
        n = m.destinations(c)
        dests = m.router.dests
        dist = m.router.dist
        bfs = jf.move_mode(m.kind[c]) == jb.ENGINEER and jb.ON_RAIL[c]
        for i in range(n):
            q = dests[i]
            self.mark[q] = 1
            self.steps[q] = dist[q] if bfs else 0
        self.route_preview()

    def route_preview(self):
        # Trace the route from the selection to the cursor (router still holds
        # the selection's search).
        self.path_len = 0
        if self.sel == jb.NONE or not self.mark[self.cursor]:
            return
        m = self.model
        m.destinations(self.sel)
        if m.router.trace(self.cursor) is None:
            return
        n = m.router.path_len
        src = m.router.path
        for i in range(n):
            self.path[i] = src[i]
        self.path_len = n

    def start_move(self, move):
        # A player's flip at once, the AI's turned over (_FLIP_TICKS); a piece
        # move is animated along its route, then applied.
        m = self.model
        src = move >> 6
        dst = move & 63
        self.sel = jb.NONE
        self.clear_marks()
        if src == dst:
            self.path_len = 0
            if self.mode == 0 and m.to_move == 1:
                self.move_screen.open(move, self.view.sprites[m.colour[src] * jf.TYPES + m.kind[src]])
            else:
                self.apply(move)
            return
        m.destinations(src)
        m.router.trace(dst)
        n = m.router.path_len
        for i in range(n):
            self.path[i] = m.router.path[i]
        self.path_len = n
        self.move_screen.open(move, self.view.sprites[m.colour[src] * jf.TYPES + m.kind[src]])

    def apply(self, move):
        # Play ``move``; then the AI's turn, the next player's or the end.
        m = self.model
        dst = move & 63
        took_flag = (move >> 6) != dst and m.occ[dst] != 0 and m.kind[dst] == jf.FLAG
        first = m.player_colour[0] == jf.NOBODY
        _push_ply(self.undo_ring, m, move, self.ai.rng.s if self.ai is not None else 0)
        ev = m.apply(move)
        if first:
            self.tell_colours()
        if ev == jf.EV_WIN or ev == jf.EV_LOSE or ev == jf.EV_TRADE:
            self.ctx.beep(300 + 200 * ev, 40)
        if m.winner != jf.NOBODY:
            self._end(took_flag)
            return
        if self.mode == 0 and m.to_move == 1:
            self.think_screen.open()
        else:
            self.screen = self.play_screen
        self.ctx.save_game()

    def tell_colours(self):
        # The players' colours, once the first flip gave them: the note (filled = red).
        c = self.model.player_colour[0]
        if c != jf.NOBODY:
            self.note = ("P1: " if self.mode else "YOU: ") + ("RED (FILLED)", "BLUE (OUTLINED)")[c]
            box = self.view.note                # drawn once, blitted while it shows
            gfx.box(box, 0, 0, _NOTE_W, 11)
            gfx.center(box, self.note, 3, 1, _NOTE_W)
            self.note_ticks = _NOTE_TICKS

    def undo(self):
        # Against the AI: back to before your last move (and the AI's answer);
        # two players: one move back.  False when there is nothing to undo.
        m = self.model
        if self.mode == 0 and m.to_move == 0 and self.undo_ring.count < 2:
            return False              # (a lone oldest move left is the AI's)
        if not _pop_ply(self.undo_ring, m, self.ai):
            return False
        while self.mode == 0 and m.to_move != 0 and _pop_ply(self.undo_ring, m, self.ai):
            pass
        self.job.cancel()
        self.drop()
        self.note_ticks = 0
        self.screen = self.play_screen
        return True

    def _end(self, took_flag):
        # The game is over: the result shown, the records stored (ctx.finish
        # also ends the game in progress).
        w = self.model.winner
        self.end_screen.open(w, took_flag)
        if self.mode == 0:
            key = "drawn" if w == jf.DRAW else ("won" if w == 0 else "lost")
            if self.ai_easy:
                key = "easy_" + key
        else:
            key = "pvp"
        self.saved[key] = self.saved.get(key, 0) + 1
        self.ctx.finish(GAME_ID, self.saved)
        self._record_text()
        self.ctx.beep(1500 if w == 0 else 250, 150)
        self.drop()

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        # The game in play as a small dict (the field's arrays, the counters,
        # the AI's RNG, the undo plies), None when no game is in play (the menu,
        # the end).  A move being animated is saved as not made yet.
        if self.screen is self.menu_screen or self.screen is self.end_screen:
            return None
        m = self.model
        field = bytes(m.occ) + m.kind + m.colour + m.pool + m.alive + m.player_colour
        return {
            "mode": self.mode, "easy": self.ai_easy, "seed": self.seed,
            "guard": m.mines_guard_flag,
            "board": undosave.to_text(field),       # (the save's key since its first version)
            "counts": [m.to_move, m.quiet, m.plies, m.hidden, m.last_src, m.last_dst],
            "rng": self.ai.rng.s if self.ai is not None else 0,
            "cursor": self.cursor, "undo": undosave.to_text(undosave.dump(self.undo_ring)),
        }

    def restore(self, snap):
        # Play on from ``snapshot()``'s dict; False if it does not fit
        # (junqi_saves): its keys and ranges and each undo ply, a field whose
        # pieces, counts and colours agree, and which stays so as the plies
        # are taken back one by one (so no later undo can index past the
        # counts or overflow them).
        import junqi_saves                  # dropped again once read
        if not junqi_saves.snapshot(snap):
            return False
        field = undosave.from_text(snap["board"])
        undo = undosave.from_text(snap["undo"])
        self.mode = snap["mode"]
        self.new_game()
        self.seed = snap["seed"]
        if self.mode == 0 and snap["easy"] != self.ai_easy:
            self.ai_easy = snap["easy"]
            self.ai = junqi_ai.AI(seed=self.seed + 1, easy=self.ai_easy)
        m = self.model
        tally = bytearray(4 * jf.TYPES)
        _put_field(m, field, snap["counts"])
        if not junqi_saves.field(m, tally):
            return False
        undosave.load(self.undo_ring, undo)
        while _pop_ply(self.undo_ring, m, None):
            if not junqi_saves.field(m, tally):
                return False
        _put_field(m, field, snap["counts"])
        m.mines_guard_flag = snap.get("guard", False)      # (absent: a game from before the rule)
        if self.ai is not None:
            self.ai.rng.s = snap["rng"]
        undosave.load(self.undo_ring, undo)
        self.cursor = snap["cursor"]
        if self.mode == 0 and m.to_move == 1:
            self.think_screen.open()
        return True


class MenuScreen(screens.Screen):
    # Vs the AI or two players, and the rule "mines guard the flag" (``sel``
    # 0, 1, 2), the record against the AI the difficulty picks; A starts (or
    # switches the rule: LEFT/RIGHT too), B leaves.

    def __init__(self, scene):
        self.scene = scene
        self.sel = 0
        self.bar = scenekit.TitleBar("FLIP JUNQI", 24)

    def tick(self, ctx):
        btn = ctx.buttons
        if btn.repeat(UP):
            self.sel = (self.sel + 2) % 3
        elif btn.repeat(DOWN):
            self.sel = (self.sel + 1) % 3
        elif self.sel == 2 and (btn.just_pressed(A) or btn.repeat(LEFT) or btn.repeat(RIGHT)):
            self.scene.toggle_guard()
        elif btn.just_pressed(A):
            self.scene.mode = self.sel
            self.scene.deal()
        elif btn.just_released(B):
            return "exit"
        return None

    def frame_key(self):
        return 1 | self.sel << 1 | self.scene.guard() << 3 | (self.scene.rec_gen & 0xFFFFF) << 4

    def draw(self, fb):
        fb.fill(0)
        ctx = self.scene.ctx
        self.bar.draw(fb, ctx.frame, ctx.width)
        for i in range(3):
            y = 13 + 11 * i
            item = (("VS DEVICE AI", "2 PLAYERS")[i] if i < 2
                    else ("MINE GUARD: OFF", "MINE GUARD: ON")[self.scene.guard()])
            if i == self.sel:
                fb.fill_rect(0, y - 2, 128, 11, 1)
            gfx.center8(fb, item, y, 0 if i == self.sel else 1)
        gfx.center(fb, self.scene.record, 47)
        gfx.text(fb, "A:ON/OFF  B:EXIT" if self.sel == 2 else "A:START  B:EXIT", 2, 57)


class FieldScreen(screens.Screen):
    # A screen over the field, B's controls (scenekit.Pause.poll) first:
    # B+A (hold B, press A) undoes and holding B opens the pause menu where
    # ``may_undo`` (else scenekit.refuse / nothing), a B tap drops the selection
    # (on the end screen: the menu); while B is busy nothing else happens;
    # otherwise ``act(ctx)`` is this screen's tick.

    may_undo = True
    armed = True                             # the end screen's: scenekit.settled

    def __init__(self, scene):
        self.scene = scene

    def tick(self, ctx):
        s = self.scene
        if not scenekit.settled(self, ctx.buttons):
            return None
        ev = s.pause.poll(ctx.buttons, self.may_undo)
        if ev == "undo":
            self.chord_undo(ctx, self.may_undo)
        elif ev == "tap" and s.sel != jb.NONE:
            s.drop()
        elif ev == "tap" and self is s.end_screen:
            s.screen = s.menu_screen
        if ev:
            return None
        return self.act(ctx)

    def chord_undo(self, ctx, may):
        # B+A or the menu's UNDO: undo (where ``may``), saved; else refused:
        # "NO OLDER MOVES" once the ring has let the game's first moves go
        # (it keeps the newest UNDO_PLIES; a game with the mine guard lasts
        # ~190 plies), else "CAN'T UNDO".
        s = self.scene
        if may and s.undo():
            ctx.save_game()
        elif may and s.model.plies > s.undo_ring.count:
            scenekit.refuse(ctx, "NO OLDER MOVES")
        else:
            scenekit.refuse(ctx, "CAN'T UNDO")


class PlayScreen(FieldScreen):
    # A player's turn: the cursor, picking up a piece (its destinations
    # marked, the route to the cursor drawn), flipping and moving.

    def act(self, ctx):
        btn = ctx.buttons
        self.move_cursor(btn)
        if btn.just_pressed(A):
            self.press_a(ctx)
        return None

    def move_cursor(self, btn):
        s = self.scene
        c = s.cursor
        r = c // jb.COLS
        k = c % jb.COLS
        if btn.repeat(LEFT) and r > 0:
            r -= 1
        elif btn.repeat(RIGHT) and r < jb.ROWS - 1:
            r += 1
        elif btn.repeat(UP) and k > 0:
            k -= 1
        elif btn.repeat(DOWN) and k < jb.COLS - 1:
            k += 1
        else:
            return
        s.cursor = r * jb.COLS + k
        s.route_preview()

    def press_a(self, ctx):
        s = self.scene
        m = s.model
        c = s.cursor
        if s.sel != jb.NONE and s.mark[c]:
            s.start_move(s.sel * 64 + c)
        elif m.occ[c] == jf.HIDDEN:
            s.start_move(c * 65)
        elif m.is_mine(m.to_move, c) and c != s.sel:
            if m.destinations(c):
                s.select(c)
            else:
                scenekit.refuse(ctx, "CAN'T MOVE")
        elif c == s.sel:
            s.drop()
        elif m.occ[c] and m.kind[c] == jf.FLAG and m.mines_guard_flag and m.alive[m.colour[c] * jf.TYPES + jf.MINE]:
            scenekit.refuse(ctx, "MINES GUARD THE FLAG")
        else:
            scenekit.refuse(ctx, "NOT A MOVE")

    def draw(self, fb):
        s = self.scene
        view = s.view
        view.draw(fb, s, jb.NONE)
        if s.sel != jb.NONE:
            c = s.sel
            fb.rect(view.cx[c] - 1, view.cy[c] - 1, _BOX_W + 2, _BOX_H + 2, 1)
        # the cursor's corners, its box inverted 10 frames in 16
        x = view.cx[s.cursor] - 1
        y = view.cy[s.cursor] - 1
        if (s.frame & 15) < 10:
            if x < 0:
                gfx.invert_rect(fb, 0, y, _BOX_W + 1, _BOX_H + 2)
            else:
                gfx.invert_rect(fb, x, y, min(_BOX_W + 2, 128 - x), min(_BOX_H + 2, 64 - y))
        fb.hline(x, y, 4, 1)
        fb.vline(x, y, 4, 1)
        fb.hline(x + _BOX_W - 2, y, 4, 1)
        fb.vline(x + _BOX_W + 1, y, 4, 1)
        fb.hline(x, y + _BOX_H + 1, 4, 1)
        fb.vline(x, y + _BOX_H - 2, 4, 1)
        fb.hline(x + _BOX_W - 2, y + _BOX_H + 1, 4, 1)
        fb.vline(x + _BOX_W + 1, y + _BOX_H - 2, 4, 1)
        view.draw_status(fb, s, False)
        s.pause.draw_reminder(fb)


class ThinkScreen(FieldScreen):
    # The AI's turn: its search, a task of the scene's ``job``, runs under
    # each tick's deadline for _THINK_MIN ticks at least, a spinner in the gap.
    # When the job failed (a slice ran out of memory: the job has shown "NOT
    # ENOUGH MEMORY"), the AI plays what its search had found so far, or the
    # first legal move when it had found nothing: the game goes on.

    wait = 0                                  # ticks it thinks at least still

    def open(self):
        s = self.scene
        self.wait = _THINK_MIN
        s.ai.begin(s.model)
        s.job.start(s.ai)
        s.screen = self

    def act(self, ctx):
        s = self.scene
        st = s.job.run(ctx)
        self.wait -= 1
        if st == work.RUNNING or self.wait > 0:
            return None
        m = s.model
        move = s.ai.answer
        if not m.is_legal(move):              # work.NO_ANSWER is never legal
            m.legal_moves()
            move = m.moves[0]
        s.start_move(move)
        return None

    def draw(self, fb):
        s = self.scene
        s.view.draw(fb, s, jb.NONE)
        s.view.draw_status(fb, s, True)


class MoveScreen(FieldScreen):
    # A piece moving along its route (_ANIM_TICKS per cell), or the AI's flip
    # (the face-down tile narrows, the piece ``sprite`` widens: _FLIP_TICKS),
    # then the move is applied; no undo meanwhile.

    may_undo = False
    pos = 0                                   # ticks since the move began
    move = 0
    sprite = None

    def open(self, move, sprite):
        self.move = move
        self.pos = 0
        self.sprite = sprite
        self.scene.screen = self

    def act(self, ctx):
        s = self.scene
        self.pos += 1
        move = self.move
        end = _FLIP_TICKS if move >> 6 == move & 63 else (s.path_len - 1) * _ANIM_TICKS
        if self.pos >= end:
            s.path_len = 0
            s.apply(move)
        return None

    def draw(self, fb):
        s = self.scene
        view = s.view
        src = self.move >> 6
        if src == self.move & 63:
            # the flip, tick ``pos``: the tile, then the piece, _FLIP_W[pos] wide
            view.draw(fb, s, src)
            x = view.cx[src]
            y = view.cy[src]
            pos = self.pos
            fb.blit(view.hidden if pos < _FLIP_TICKS // 2 else self.sprite, x, y)
            side = (_BOX_W - b"\x09\x05\x01\x03\x07\x09"[pos]) >> 1    # _FLIP_W
            fb.fill_rect(x, y, side, _BOX_H, 0)
            fb.fill_rect(x + _BOX_W - side, y, side, _BOX_H, 0)
            view.draw_status(fb, s, False)
            return
        view.draw(fb, s, src)
        i = self.pos // _ANIM_TICKS
        f = self.pos % _ANIM_TICKS
        path = s.path
        a = path[i]
        b = path[i + 1] if i + 1 < s.path_len else a
        cx = view.cx
        cy = view.cy
        x = cx[a] + (cx[b] - cx[a]) * f // _ANIM_TICKS
        y = cy[a] + (cy[b] - cy[a]) * f // _ANIM_TICKS
        fb.fill_rect(x - 1, y - 1, _BOX_W + 2, _BOX_H + 2, 0)
        fb.blit(self.sprite, x, y)
        view.draw_status(fb, s, False)


class EndScreen(FieldScreen):
    # The final field with the result beside it: ``banner`` and ``reason`` in
    # a box over the half of the field away from the last move (the capture
    # that ended the game stays in sight); A: another game in the same mode,
    # a B tap: the menu (FieldScreen); no undo, no pause menu.  Nothing until
    # every button is up (a press carried over from play is not its:
    # scenekit.settled).

    may_undo = False
    banner = ""
    reason = ""

    def open(self, winner, took_flag):
        if winner == jf.DRAW:
            self.reason = "%d QUIET MOVES" % self.scene.model.quiet_limit
            self.banner = "DRAW"
        else:
            self.reason = "FLAG TAKEN" if took_flag else "NO MOVES LEFT"
            if self.scene.mode == 0:
                self.banner = "YOU WIN" if winner == 0 else "AI WINS"
            else:
                self.banner = "P1 WINS" if winner == 0 else "P2 WINS"
        self.armed = False
        self.scene.screen = self

    def act(self, ctx):
        if ctx.buttons.just_pressed(A):
            self.scene.deal()
        return None

    def draw(self, fb):
        s = self.scene
        s.view.draw(fb, s, jb.NONE)
        # the box over the half (rows A-F or G-L) without the last move's end
        x = _MID_X + _GAP if s.model.last_dst < 6 * jb.COLS else 0
        gfx.box(fb, x, 14, 60, 36)
        fb.text(self.banner, x + 30 - 4 * len(self.banner), 18, 1)
        gfx.text(fb, self.reason, x + 3, 30)
        gfx.text(fb, "A:AGAIN B:BACK", x + 3, 40)
