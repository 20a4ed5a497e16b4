"""Flip Junqi (翻棋) on the handheld: the scene around junqi_flip.py / junqi_ai.py.

Screen (128x64): the board is rotated, rows A..L run left to right (10 px
each, an 8 px front-line gap between F and G), columns 0..4 top to bottom
(12 px each).  A piece is a 9x11 box with a 5x7 glyph:
  red (colour 0)  filled box, dark glyph       blue (colour 1)  outlined box, lit glyph
  face-down       outlined box with a dotted fill
  glyphs          1..8 = 排长..司令 (platoon..marshal), E = engineer,
                  a bomb (round, with a fuse), a mine (spiked ball), a flag.
Pieces in a camp have clipped corners (they cannot be attacked).  Empty
cells show the board: railway links as double lines, roads as single lines,
camps as rings, headquarters as squares.  The gap shows whose turn it is (the
mover's colour swatch and "P1"/"P2" or "YOU"/"AI") and a spinner while the
AI thinks; the mountains F1-G1 / F3-G3 have no line across the gap.

Controls: arrows move the cursor; A flips a face-down piece, picks up an own
piece (its legal destinations blink; on a destination the route is drawn)
and A again moves there (engineer routes are animated cell by cell; while an
engineer on the railway is picked up, each empty cell its BFS reached shows
the cells entered to get there, router.dist); B drops
the selection; holding B leaves; B+A (hold B, press A) undoes: against the AI
your last move and the AI's answer, in two-player games one move (UNDO_PLIES
moves in a preallocated undoring: what each move changed, with the AI's RNG
state, so the same moves replay the same AI).  Menu at start: vs AI or two players (pass
and play).  The launcher's difficulty EASY picks the easy AI, NORMAL and HARD
the full one.  Results vs each AI are saved (won/lost/drawn).
"""

import screens
import framebuf

from buttons import A, B, DOWN, LEFT, RIGHT, UP
import gfx
import junqi_ai
import junqi_board as jb
import junqi_flip as jf
import undoring
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

GAME_ID = "junqi"
MENU = const(0)
PLAY = const(1)
THINK = const(2)
ANIM = const(3)
OVER = const(4)

CELL_W = const(10)
CELL_H = const(12)
BOX_W = const(9)
BOX_H = const(11)
GAP = const(8)
TOP = const(2)
MID_X = const(60)              # the front-line gap, x 60..67
ANIM_TICKS = const(3)          # ticks per cell of an animated route
THINK_MIN = const(10)          # ticks the AI "thinks" at least (so its move is seen)
SLICE_MS = const(8)            # AI work per tick (plus at most one slice, <= ~40 ms)
EXIT_HOLD_MS = const(900)
MENU_ITEMS = ("VS DEVICE AI", "2 PLAYERS")
# undo: one record per move (ply): src, dst, both cells before it (occupant,
# colour and type in a byte: _cell_byte), both players' colours, the quiet
# count, the last move's cells, the AI's RNG state (30 bits); an even number of
# plies keeps whole turns against the AI
UNDO_PLIES = const(100)
UNDO_SIZE = const(12)
LABELS_AI = ("P1", "AI")
LABELS_PVP = ("P1", "P2")

# 5x7 glyphs, indexed by piece type (junqi_flip: FLAG MINE BOMB ENGINEER 1..8)
_GLYPH_ROWS = (
    ("XXXX.", "XXXXX", "XXXX.", "X....", "X....", "X....", "X...."),   # flag
    ("..X..", "X.X.X", ".XXX.", "XXXXX", ".XXX.", "X.X.X", "..X.."),   # mine
    ("...X.", "..X..", ".XXX.", "XXXXX", "XXXXX", "XXXXX", ".XXX."),   # bomb
    ("XXXXX", "X....", "X....", "XXXX.", "X....", "X....", "XXXXX"),   # engineer
    ("..X..", ".XX..", "..X..", "..X..", "..X..", "..X..", ".XXX."),   # 1 platoon
    (".XXX.", "X...X", "....X", "...X.", "..X..", ".X...", "XXXXX"),   # 2 company
    ("XXXXX", "...X.", "..X..", "...X.", "....X", "X...X", ".XXX."),   # 3 battalion
    ("...X.", "..XX.", ".X.X.", "X..X.", "XXXXX", "...X.", "...X."),   # 4 regiment
    ("XXXXX", "X....", "XXXX.", "....X", "....X", "X...X", ".XXX."),   # 5 brigade
    ("..XX.", ".X...", "X....", "XXXX.", "X...X", "X...X", ".XXX."),   # 6 division
    ("XXXXX", "....X", "...X.", "..X..", ".X...", ".X...", ".X..."),   # 7 corps
    (".XXX.", "X...X", "X...X", ".XXX.", "X...X", "X...X", ".XXX."),   # 8 marshal
)


def _box_sprite(rows, filled):
    """A 9x11 piece box with a 5x7 glyph at (2, 2); ``rows`` None: face-down."""
    buf = bytearray(BOX_W * 2)
    fb = framebuf.FrameBuffer(buf, BOX_W, BOX_H, framebuf.MONO_VLSB)
    if rows is None:
        # face-down: a dotted tile, no outline (face-up pieces stand out)
        for y in range(1, BOX_H - 1):
            for x in range(1 + y % 2, BOX_W - 1, 2):
                fb.pixel(x, y, 1)
        fb.hline(1, 0, BOX_W - 2, 1)
        fb.hline(1, BOX_H - 1, BOX_W - 2, 1)
        return buf, fb
    if filled:
        fb.fill_rect(0, 0, BOX_W, BOX_H, 1)
    else:
        fb.rect(0, 0, BOX_W, BOX_H, 1)
    if False:
        pass
    else:
        c = 0 if filled else 1
        for y in range(7):
            line = rows[y]
            for x in range(5):
                if line[x] == "X":
                    fb.pixel(2 + x, 2 + y, c)
    return buf, fb


def cell_xy(c):
    """Top-left pixel of cell c's box (row along x, column along y)."""
    r = c // jb.COLS
    x = r * CELL_W + (GAP if r >= 6 else 0)
    return x, TOP + (c % jb.COLS) * CELL_H


class Scene(screens.Scene):
    def __init__(self, ctx):
        self.ctx = ctx
        self.saved = ctx.load(GAME_ID) or {}
        # sprites: [colour * 12 + type] and the face-down box
        self._sprites = []
        for col in range(2):
            for t in range(jf.TYPES):
                self._sprites.append(_box_sprite(_GLYPH_ROWS[t], col == 0)[1])
        self._hidden = _box_sprite(None, False)[1]
        self.bg = bytearray(1024)
        self.bg_fb = framebuf.FrameBuffer(self.bg, 128, 64, framebuf.MONO_VLSB)
        self._draw_board(self.bg_fb)
        self.cx = bytearray(jb.CELLS)       # box corner per cell (draw without tuples)
        self.cy = bytearray(jb.CELLS)
        for c in range(jb.CELLS):
            x, y = cell_xy(c)
            self.cx[c] = x
            self.cy[c] = y
        self.game = jf.FlipGame(seed=1)
        self.ai = None
        self.ai_easy = False
        self.mark = bytearray(jb.CELLS)     # 1: legal destination of the selection
        # an engineer's selection on the railway: the cells entered to reach each
        # cell its BFS reached (router.dist), drawn as numbers (0: not shown)
        self.steps = bytearray(jb.CELLS)
        self._digits = tuple(gfx.glyph(ch) for ch in "0123456789")
        self.path = bytearray(jb.CELLS)     # route shown / animated
        self.path_len = 0
        self.seed = (ctx.ticks_ms() * 31 + 7) & 0xFFFF
        self.mode = 0                       # 0: vs AI, 1: two players
        self.menu_sel = 0
        self._rec_gen = 0
        self.state = MENU
        self.cursor = 27                    # F2
        self.sel = jb.NONE
        self.frame = 0
        self.wait = 0
        self.anim_pos = 0
        self.anim_move = 0
        self.anim_sprite = None
        self.banner = ""
        self.reason = ""
        self.labels = LABELS_AI
        self.undo = undoring.UndoRing(UNDO_SIZE, UNDO_PLIES)
        self.chord = False                  # B+A was used: B's release / hold do nothing else
        self.record = ""
        self._record_text()

    # -- static board ------------------------------------------------------------------
    def _draw_board(self, fb):
        fb.fill(0)
        for c in range(jb.CELLS):
            x, y = cell_xy(c)
            mx = x + 4
            my = y + 5
            for i in range(jb.ROAD_N[c]):
                q = jb.ROAD[c * 8 + i]
                if q < c:
                    continue
                qx, qy = cell_xy(q)
                qx += 4
                qy += 5
                rail = False
                for d in range(4):
                    if jb.RAIL[c * 4 + d] == q:
                        rail = True
                if not rail:
                    fb.line(mx, my, qx, qy, 1)
                elif my == qy:
                    fb.hline(mx, my - 1, qx - mx, 1)
                    fb.hline(mx, my + 1, qx - mx, 1)
                else:
                    fb.vline(mx - 1, my, qy - my, 1)
                    fb.vline(mx + 1, my, qy - my, 1)
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
        # the front line: nothing drawn across the mountains F1-G1 / F3-G3
        fb.fill_rect(MID_X + 1, TOP + CELL_H, GAP - 2, 9, 0)
        fb.fill_rect(MID_X + 1, TOP + 3 * CELL_H, GAP - 2, 9, 0)

    def _easy(self):
        return self.ctx.settings.get("difficulty", 1) == 0

    def _record_text(self):
        self._rec_gen += 1
        s = self.saved
        p = "easy_" if self._easy() else ""
        self.record = "%s W%d L%d D%d" % ("VS EASY AI" if p else "VS AI ", s.get(p + "won", 0),
                                          s.get(p + "lost", 0), s.get(p + "drawn", 0))

    # -- game flow ---------------------------------------------------------------------
    def _new_game(self):
        self.seed = (self.seed * 75 + self.ctx.ticks_ms() + 74) % 65537
        self.game.reset(self.seed)
        if self.mode == 0:
            self.ai_easy = self._easy()
            self.ai = junqi_ai.AI(seed=self.seed + 1, easy=self.ai_easy)
            self.labels = LABELS_AI
        else:
            self.ai = None
            self.labels = LABELS_PVP
        self.sel = jb.NONE
        self.path_len = 0
        self._clear_marks()
        self.undo.clear()
        self.cursor = 27
        self.banner = ""
        self.reason = ""
        self.state = PLAY

    def _clear_marks(self):
        m = self.mark
        for i in range(jb.CELLS):
            m[i] = 0

    def _select(self, c):
        g = self.game
        self._clear_marks()
        self.sel = c
        self.path_len = 0
        n = g.destinations(c)
        dests = g.router.dests
        dist = g.router.dist
        bfs = jf.move_mode(g.kind[c]) == jb.ENGINEER and jb.ON_RAIL[c]
        for i in range(n):
            q = dests[i]
            self.mark[q] = 1
            self.steps[q] = dist[q] if bfs else 0
        self._route_preview()

    def _route_preview(self):
        """Trace the route from the selection to the cursor (router still holds
        the selection's search)."""
        self.path_len = 0
        if self.sel == jb.NONE or not self.mark[self.cursor]:
            return
        g = self.game
        g.destinations(self.sel)
        if g.router.trace(self.cursor) is None:
            return
        n = g.router.path_len
        src = g.router.path
        for i in range(n):
            self.path[i] = src[i]
        self.path_len = n

    def _start_move(self, move):
        """Flip at once; a piece move is animated along its route, then applied."""
        g = self.game
        src = move >> 6
        dst = move & 63
        self.sel = jb.NONE
        self._clear_marks()
        if src == dst:
            self.path_len = 0
            self._apply(move)
            return
        g.destinations(src)
        g.router.trace(dst)
        n = g.router.path_len
        for i in range(n):
            self.path[i] = g.router.path[i]
        self.path_len = n
        self.anim_move = move
        self.anim_pos = 0
        self.anim_sprite = self._sprites[g.colour[src] * jf.TYPES + g.kind[src]]
        self.state = ANIM

    def _push_ply(self, move):
        """Record what ``move`` is about to change."""
        g = self.game
        u = self.undo
        at = u.push()
        buf = u.buf
        src = move >> 6
        dst = move & 63
        buf[at] = src
        buf[at + 1] = dst
        # occupant 0..3, colour 0/1/NOBODY as 0/1/3, type 0..11
        buf[at + 2] = g.occ[src] | (g.colour[src] & 3) << 2 | g.kind[src] << 4
        buf[at + 3] = g.occ[dst] | (g.colour[dst] & 3) << 2 | g.kind[dst] << 4
        buf[at + 4] = (g.player_colour[0] & 3) | (g.player_colour[1] & 3) << 2
        buf[at + 5] = g.quiet
        buf[at + 6] = g.last_src
        buf[at + 7] = g.last_dst
        u.put30(at + 8, self.ai.rng.s if self.ai is not None else 0)

    def _pop_ply(self):
        """Take back the newest recorded move; False when there is none."""
        u = self.undo
        at = u.pop()
        if at < 0:
            return False
        g = self.game
        buf = u.buf
        src = buf[at]
        dst = buf[at + 1]
        occ = g.occ
        kind = g.kind
        colour = g.colour
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
            g.pool[ac * jf.TYPES + a] += 1
            g.hidden += 1
        elif occ[dst] != 0:
            d = kind[dst]
            dc = colour[dst]
            res = jf.combat(a, d)
            if res != jf.DEFENDER_WINS:
                g.alive[dc * jf.TYPES + d] += 1
            if res != jf.ATTACKER_WINS:
                g.alive[ac * jf.TYPES + a] += 1
        v = buf[at + 4]
        g.player_colour[0] = jf.NOBODY if v & 3 == 3 else v & 3
        g.player_colour[1] = jf.NOBODY if v >> 2 == 3 else v >> 2
        g.quiet = buf[at + 5]
        g.last_src = buf[at + 6]
        g.last_dst = buf[at + 7]
        g.plies -= 1
        g.to_move = 1 - g.to_move
        g.winner = jf.NOBODY
        if self.ai is not None:
            self.ai.rng.s = u.get30(at + 8)
        return True

    def undo_turn(self):
        """Against the AI: back to before your last move (and the AI's answer);
        two players: one move back.  False when there is nothing to undo."""
        if self.mode == 0 and self.game.to_move == 0 and self.undo.count < 2:
            return False              # (a lone oldest move left is the AI's)
        if not self._pop_ply():
            return False
        while self.mode == 0 and self.game.to_move != 0 and self._pop_ply():
            pass
        self.sel = jb.NONE
        self.path_len = 0
        self._clear_marks()
        self.state = PLAY
        return True

    def _apply(self, move):
        g = self.game
        dst = move & 63
        took_flag = (move >> 6) != dst and g.occ[dst] != 0 and g.kind[dst] == jf.FLAG
        self._push_ply(move)
        ev = g.apply(move)
        if ev == jf.EV_WIN or ev == jf.EV_LOSE or ev == jf.EV_TRADE:
            self.ctx.beep(300 + 200 * ev, 40)
        if g.winner != jf.NOBODY:
            self._finish(took_flag)
            return
        if self.mode == 0 and g.to_move == 1:
            self.state = THINK
            self.wait = THINK_MIN
            self.ai.begin(g)
        else:
            self.state = PLAY
        self.ctx.save_game()

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        """The game in play as a small dict (the board's arrays, the counters,
        the AI's RNG, the undo plies), None when no game is in play.  A move
        being animated is saved as not made yet."""
        st = self.state
        if st != PLAY and st != THINK and st != ANIM:
            return None
        g = self.game
        board = bytes(g.occ) + g.kind + g.colour + g.pool + g.alive + g.player_colour
        return {
            "mode": self.mode, "easy": self.ai_easy, "seed": self.seed,
            "board": undosave.to_text(board),
            "counts": [g.to_move, g.quiet, g.plies, g.hidden, g.last_src, g.last_dst],
            "rng": self.ai.rng.s if self.ai is not None else 0,
            "cursor": self.cursor, "undo": undosave.to_text(undosave.dump(self.undo)),
        }

    def restore(self, snap):
        """Play on from ``snapshot()``'s dict; False if it does not fit."""
        board = undosave.from_text(snap["board"])
        undo = undosave.from_text(snap["undo"])
        counts = snap["counts"]
        n = jb.CELLS
        t = 2 * jf.TYPES
        if len(board) != 3 * n + 2 * t + 2 or len(counts) != 6 or snap["mode"] not in (0, 1):
            return False
        self.mode = snap["mode"]
        self._new_game()
        self.seed = snap["seed"]
        if self.mode == 0 and snap["easy"] != self.ai_easy:
            self.ai_easy = snap["easy"]
            self.ai = junqi_ai.AI(seed=self.seed + 1, easy=self.ai_easy)
        g = self.game
        g.occ[:] = board[0:n]
        g.kind[:] = board[n:2 * n]
        g.colour[:] = board[2 * n:3 * n]
        g.pool[:] = board[3 * n:3 * n + t]
        g.alive[:] = board[3 * n + t:3 * n + 2 * t]
        g.player_colour[:] = board[3 * n + 2 * t:]
        g.to_move, g.quiet, g.plies, g.hidden, g.last_src, g.last_dst = counts
        g.winner = jf.NOBODY
        if self.ai is not None:
            self.ai.rng.s = snap["rng"]
        undosave.load(self.undo, undo)
        self.cursor = snap["cursor"] % n
        if self.mode == 0 and g.to_move == 1:
            self.state = THINK
            self.wait = THINK_MIN
            self.ai.begin(g)
        return True

    def _finish(self, took_flag):
        g = self.game
        w = g.winner
        if w == jf.DRAW:
            self.reason = "%d QUIET MOVES" % g.quiet_limit
            self.banner = "DRAW"
        else:
            self.reason = "FLAG TAKEN" if took_flag else "NO MOVES LEFT"
            if self.mode == 0:
                self.banner = "YOU WIN!" if w == 0 else "YOU LOSE"
            else:
                self.banner = "P1 WINS" if w == 0 else "P2 WINS"
        if self.mode == 0:
            key = "drawn" if w == jf.DRAW else ("won" if w == 0 else "lost")
            if self.ai_easy:
                key = "easy_" + key
        else:
            key = "pvp"
        self.saved[key] = self.saved.get(key, 0) + 1
        self.ctx.store(GAME_ID, self.saved)       # the records (the game in progress ends)
        self._record_text()
        self.ctx.beep(1500 if w == 0 else 250, 150)
        self.sel = jb.NONE
        self._clear_marks()
        self.state = OVER

    def _think(self, ctx):
        ai = self.ai
        dl = ctx.deadline(SLICE_MS)
        done = ai.step()
        while not done and not dl.expired():
            done = ai.step()
        self.wait -= 1
        if done and self.wait <= 0:
            move = ai.best
            if move == jb.NONE or not self.game.is_legal(move):
                self.game.legal_moves()
                move = self.game.moves[0]
            self._start_move(move)

    # -- input ---------------------------------------------------------------------------
    def _move_cursor(self, btn):
        c = self.cursor
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
        self.cursor = r * jb.COLS + k
        self._route_preview()

    def _press_a(self):
        g = self.game
        c = self.cursor
        if self.sel != jb.NONE and self.mark[c]:
            self._start_move(self.sel * 64 + c)
        elif g.occ[c] == jf.HIDDEN:
            self._start_move(c * 65)
        elif g.is_mine(g.to_move, c) and c != self.sel:
            if g.destinations(c):
                self._select(c)
            else:
                self.ctx.beep(220, 30)
        elif c == self.sel:
            self.sel = jb.NONE
            self.path_len = 0
            self._clear_marks()
        else:
            self.ctx.beep(220, 30)

    def frame_key(self):
        """Runtime frame cache: only the menu is static (the board blinks)."""
        if self.state == MENU:
            return 1 | self.menu_sel << 1 | (self._rec_gen & 0xFFFFF) << 2
        return None

    def tick(self, ctx):
        btn = ctx.buttons
        self.frame += 1
        if btn.pressed(B) and btn.held_ms(B) >= EXIT_HOLD_MS and not self.chord:
            return "exit"
        st = self.state
        if st != MENU:
            if btn.pressed(B) and btn.just_pressed(A):     # B+A: undo
                self.chord = True
                if st == OVER or st == ANIM or not self.undo_turn():
                    ctx.beep(220, 30)
                else:
                    ctx.save_game()
                return None
            if self.chord:
                if not btn.pressed(B):
                    self.chord = False                     # B's release ends it
                return None
        if st == MENU:
            if btn.repeat(UP) or btn.repeat(DOWN):
                self.menu_sel = 1 - self.menu_sel
            elif btn.just_pressed(A):
                self.mode = self.menu_sel
                self._new_game()
            elif btn.just_released(B):
                return "exit"
            return None
        if st == OVER:
            if btn.just_pressed(A):
                self.state = MENU
            elif btn.just_released(B):
                return "exit"
            return None
        if st == THINK:
            self._think(ctx)
            return None
        if st == ANIM:
            self.anim_pos += 1
            if self.anim_pos >= (self.path_len - 1) * ANIM_TICKS:
                self.path_len = 0
                self._apply(self.anim_move)
            return None
        self._move_cursor(btn)
        if btn.just_pressed(A):
            self._press_a()
        elif btn.just_released(B) and self.sel != jb.NONE:
            self.sel = jb.NONE
            self.path_len = 0
            self._clear_marks()
        return None

    # -- drawing -------------------------------------------------------------------------
    def draw(self, fb):
        if self.state == MENU:
            self._draw_menu(fb)
            return
        fb.blit(self.bg_fb, 0, 0)
        if self.path_len:
            self._draw_path(fb)
        g = self.game
        occ = g.occ
        kind = g.kind
        colour = g.colour
        cx = self.cx
        cy = self.cy
        sprites = self._sprites
        hidden = self._hidden
        blink = (self.frame >> 3) & 1
        mark = self.mark
        steps = self.steps
        anim_src = self.anim_move >> 6 if self.state == ANIM else jb.NONE
        for c in range(jb.CELLS):
            o = occ[c]
            x = cx[c]
            y = cy[c]
            if o == 0 or c == anim_src:
                if mark[c] and steps[c]:
                    self._draw_steps(fb, x, y, steps[c])
                elif mark[c] and blink:
                    fb.fill_rect(x + 2, y + 3, 5, 5, 1)
                continue
            if o == jf.HIDDEN:
                fb.blit(hidden, x, y)
            else:
                col = colour[c]
                if mark[c] and blink:
                    col = 1 - col           # attack target: blinks inverted
                fb.blit(sprites[col * jf.TYPES + kind[c]], x, y)
            if jb.KIND[c] == jb.CAMP:
                fb.pixel(x, y, 0)
                fb.pixel(x + BOX_W - 1, y, 0)
                fb.pixel(x, y + BOX_H - 1, 0)
                fb.pixel(x + BOX_W - 1, y + BOX_H - 1, 0)
        # last move: ticks in the gaps below both cells
        if self.state != ANIM and g.last_src != jf.NOBODY:
            c = g.last_src
            fb.hline(cx[c] + 2, cy[c] + BOX_H, 5, 1)
            c = g.last_dst
            fb.hline(cx[c] + 2, cy[c] + BOX_H, 5, 1)
        if self.state == ANIM:
            self._draw_moving(fb)
        if self.sel != jb.NONE:
            c = self.sel
            fb.rect(cx[c] - 1, cy[c] - 1, BOX_W + 2, BOX_H + 2, 1)
        if self.state == PLAY:
            c = self.cursor
            x = cx[c] - 1
            y = cy[c] - 1
            if (self.frame & 15) < 10:
                if x < 0:
                    gfx.invert_rect(fb, 0, y, BOX_W + 1, BOX_H + 2)
                else:
                    gfx.invert_rect(fb, x, y, min(BOX_W + 2, 128 - x), min(BOX_H + 2, 64 - y))
            fb.hline(x, y, 4, 1)
            fb.vline(x, y, 4, 1)
            fb.hline(x + BOX_W - 2, y, 4, 1)
            fb.vline(x + BOX_W + 1, y, 4, 1)
            fb.hline(x, y + BOX_H + 1, 4, 1)
            fb.vline(x, y + BOX_H - 2, 4, 1)
            fb.hline(x + BOX_W - 2, y + BOX_H + 1, 4, 1)
            fb.vline(x + BOX_W + 1, y + BOX_H - 2, 4, 1)
        self._draw_status(fb)
        if self.state == OVER:
            gfx.box(fb, 14, 16, 100, 32)
            fb.text(self.banner, 64 - 4 * len(self.banner), 19, 1)
            gfx.center(fb, self.reason, 29)
            gfx.center(fb, "A:MENU  B:EXIT", 39)

    def _draw_steps(self, fb, x, y, n):
        """The cells entered to reach an empty cell (1..99), on a cleared
        square in its box: the engineer's BFS, layer by layer."""
        digits = self._digits
        fb.fill_rect(x + 1, y + 2, 7, 7, 0)
        if n < 10:
            fb.blit(digits[n], x + 3, y + 3)
        else:
            fb.blit(digits[n // 10 % 10], x + 1, y + 3)
            fb.blit(digits[n % 10], x + 5, y + 3)

    def _draw_path(self, fb):
        path = self.path
        cx = self.cx
        cy = self.cy
        for i in range(1, self.path_len):
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

    def _draw_moving(self, fb):
        i = self.anim_pos // ANIM_TICKS
        f = self.anim_pos % ANIM_TICKS
        path = self.path
        a = path[i]
        b = path[i + 1] if i + 1 < self.path_len else a
        x = self.cx[a] + (self.cx[b] - self.cx[a]) * f // ANIM_TICKS
        y = self.cy[a] + (self.cy[b] - self.cy[a]) * f // ANIM_TICKS
        fb.fill_rect(x - 1, y - 1, BOX_W + 2, BOX_H + 2, 0)
        fb.blit(self.anim_sprite, x, y)

    def _draw_status(self, fb):
        g = self.game
        p = g.to_move
        if self.state == OVER:
            return
        x = MID_X + 1
        y = TOP + CELL_H
        pc = g.player_colour[p]
        if pc == 0:
            fb.fill_rect(x, y, 6, 4, 1)
        elif pc == 1:
            fb.rect(x, y, 6, 4, 1)
        else:
            fb.hline(x, y + 2, 6, 1)
        gfx.text(fb, self.labels[p], x - 1, y + 6)
        if self.state == THINK:
            y = TOP + 3 * CELL_H + 1
            k = (self.frame >> 2) % 3
            for i in range(3):
                if i == k:
                    fb.fill_rect(x + 1, y + 3 * i, 3, 2, 1)
                else:
                    fb.pixel(x + 2, y + 3 * i, 1)

    def _draw_menu(self, fb):
        fb.fill(0)
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text("FLIP JUNQI", 24, 1, 0)
        items = MENU_ITEMS
        for i in range(2):
            y = 16 + 12 * i
            if i == self.menu_sel:
                fb.fill_rect(0, y - 2, 128, 11, 1)
                fb.text(items[i], 14, y, 0)
            else:
                fb.text(items[i], 14, y, 1)
        gfx.center(fb, self.record, 44)
        gfx.text(fb, "A:START  B:EXIT", 2, 58)
