"""Cat & Mouse on the handheld: the scene around catmouse.py and catmouse_ai.py.

The 16x8 board fills the 128x64 screen, one 8x8 cell each: road (empty),
grass (tufts), stream (waves), obstacle (solid brick), cat (face with ears),
mouse (side view: ear, snout, tail).  A one-line status bar is overlaid on the half of
the screen away from the player's piece.

Flow: a title screen picks the side (LEFT/RIGHT: mouse or cat) and the board
(UP/DOWN), A starts, B goes back to the launcher.  A level pack at
``/levels/catmouse.bin`` (firmware/userlevels.py) adds its maps after the
built-in boards ("PACK i/N"), each read from the file when it is started; a bad
pack shows "LEVEL PACK BAD" and the reason first, then the built-in boards.  In play the arrows move the
player's piece one cell per round (A = stay, for the mouse); the AI answers a
few ticks later.  The difficulty setting picks the AI: easy = a cat that
wanders one move in three / a random mouse, normal = BFS cat / evasive mouse,
hard = A* (least stamina) cat / evasive mouse.  B+A (hold B, press A) undoes a
round: back to the player's last move, with the AI's RNG state (UNDO_DEPTH
rounds in a preallocated undoring), so the same moves replay the same AI; a
B tap leaves for the title.  Wins per side and the fastest catch are saved.
Nothing is allocated in a tick of play, moves and undo included: the
status text is composed in a preallocated buffer when it changes, and the AI is
called without building an argument tuple (tests/test_catmouse_alloc.py).
"""

import screens
import gfx
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import catmouse
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico
import catmouse_ai
import catmouse_maps
from rng import Rng
import undoring
import userlevels

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

TITLE = const(0)
PLAY = const(1)
OVER = const(2)
PACK_BAD = const(3)   # the level pack is bad: its error screen, then TITLE
WATCH = const(5)      # AI against AI, the cat's searches drawn (catmouse_watch.py)
AI_DELAY = const(4)   # ticks between the player's move and the AI's answer
_MOVES = const(31)    # UP | DOWN | LEFT | RIGHT | A
# status bar capacity: "YOU CAUGHT IT!  A:AGAIN B:MENU" is 30 characters; play on
# the largest map the parser takes (64x64, 512 rounds) "R512/512 MOUSE ST1536 REST" 26
_STATUS_SIZE = const(32)
# undo: one record per move the player chose (forced rests are replayed): cat,
# mouse and round (a byte each: maps here are at most 16 x 8 cells, 96 rounds),
# cat and mouse stamina (16 bits each), both rests and "round started" in one
# byte, the AI's RNG state (30 bits)
UNDO_DEPTH = const(64)
UNDO_SIZE = const(12)

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


class _StatusText:
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


class _EasyCat:
    """The BFS cat, but one move in three is a random legal cell."""

    def __init__(self, seed):
        self.smart = catmouse_ai.BfsCat()
        self.rng = Rng(seed)

    def prepare(self, board):
        """Load the board before play, as the other AIs do: not in the first move."""
        self.smart.prepare(board)

    def __call__(self, board, position, legal):
        if self.rng.below(3) == 0:
            return legal[self.rng.below(len(legal))]
        return self.smart(board, position, legal)


SCREEN_COLS = const(16)  # 8-px cells on the 128x64 screen
SCREEN_ROWS = const(8)


def check_level(text):
    """A pack level the game can play: catmouse's parser, and a map that fits
    the 16 x 8 cells of the screen."""
    cmap = catmouse.parse_map(text)
    if cmap.cols > SCREEN_COLS or cmap.rows > SCREEN_ROWS:
        raise ValueError("the map is %dx%d; the screen fits %dx%d"
                         % (cmap.cols, cmap.rows, SCREEN_COLS, SCREEN_ROWS))
    return cmap


class Scene(screens.Scene):
    def __init__(self, ctx):
        self.ctx = ctx
        self.sprites = (
            gfx.Sprite(_OBSTACLE, 8, 8), gfx.Sprite(_ROAD, 8, 8),
            gfx.Sprite(_GRASS, 8, 8), gfx.Sprite(_STREAM, 8, 8),
        )
        self.cat_sprite = gfx.Sprite(_CAT, 8, 8)
        self.mouse_sprite = gfx.Sprite(_MOUSE, 8, 8)
        self.saved = ctx.load("catmouse") or {}
        self.side = "mouse"
        self.level = 0
        self.state = TITLE
        self.game = None
        self.ai = None
        self.bg = None
        self.bg_fb = None
        self.wait = 0
        self.thinking = False
        self.queued = 0
        self.status_text = _StatusText(_STATUS_SIZE)
        self.status = self.status_text.text()
        self.banner = b""
        # what _call_ai passes to the AI, and the bound method itself, made once
        self.ai_cell = 0
        self.ai_legal = None
        self._call_ai_bound = self._call_ai
        self.title_lines = ("", "")
        self._title_gen = 0
        self.dirs = [0, 0, 0, 0]
        self.undo = undoring.UndoRing(UNDO_SIZE, UNDO_DEPTH)
        self.ai_rng = None          # the AI's Rng when it draws (easy), else None
        self.diff = 1               # the difficulty of the game in play
        self.forced = False         # the player's last cell was forced (a rest)
        self.chord = False          # B+A was used: B's release does nothing else
        self.map_text = None
        self.seed = ctx.ticks_ms() & 0xFFFF
        self.pack = None
        self.pack_error = None
        self.watch = None           # the watch mode, made when first chosen
        self.pack, err = userlevels.open_for(ctx, "catmouse", check_level)
        if err:
            self._pack_bad(err)
        self._title_text()

    # -- the level pack -------------------------------------------------------------
    def _pack_bad(self, reason):
        """Drop the pack and show why; the built-in boards stay."""
        self.pack = None
        self.pack_error = userlevels.wrap(reason)
        self.state = PACK_BAD
        if self.level >= len(catmouse_maps.LEVELS):
            self.level = 0

    def n_levels(self):
        return len(catmouse_maps.LEVELS) + (self.pack.count if self.pack else 0)

    def open_level(self, i):
        """The title screen with level ``i`` chosen (the web page's ``?level=``)."""
        self.level = i
        return True

    def level_name(self, i):
        nb = len(catmouse_maps.LEVELS)
        if i < nb:
            return catmouse_maps.LEVELS[i][0]
        return "pack %d/%d" % (i - nb + 1, self.pack.count)

    def _level_text(self, i):
        """The map text of level ``i``: a built-in string, or read from the pack."""
        nb = len(catmouse_maps.LEVELS)
        if i < nb:
            return catmouse_maps.LEVELS[i][1]
        return self.pack.text(i - nb)

    # -- title screen ---------------------------------------------------------------
    def frame_key(self):
        """Runtime frame cache: the title and pack-error screens are static."""
        if self.state == TITLE:
            return 1 | (self._title_gen & 0xFFFFF) << 2
        if self.state == PACK_BAD:
            return 2
        if self.state == WATCH:
            return self.watch.key
        return None   # play / over (the winning cat blinks): drawn every tick

    def _title_text(self):
        self._title_gen += 1
        name = self.level_name(self.level)
        self.title_lines = (
            "PLAY AS: < %s >" % self.side.upper(),
            "BOARD:   %s" % name.upper(),
            "WINS  MOUSE %d  CAT %d" % (self.saved.get("wins_mouse", 0),
                                        self.saved.get("wins_cat", 0)),
        )

    def _next_side(self, back):
        """The title's PLAY AS choice: mouse, cat, watch (AI against AI)."""
        sides = ("mouse", "cat", "watch")
        self.side = sides[(sides.index(self.side) + (2 if back else 1)) % 3]

    def _start_watch(self):
        """Watch mode (catmouse_watch.py, imported when first chosen)."""
        if self.watch is None:
            import catmouse_watch
            self.watch = catmouse_watch.Watch(self)
        self.watch.start(self.frame_key())   # the title stays while it loads

    def show_level(self, text):
        """Start play on a map given as text (a level from a pack); "A: again"
        replays it.  ``levels preview`` renders levels through this."""
        self.map_text = text
        self._start()

    def _start(self, diff=None):
        text = self.map_text or catmouse_maps.LEVELS[self.level][1]
        self.cmap = catmouse.parse_map(text)
        self.game = catmouse.CatMouseGame(self.cmap)
        if diff is None:
            diff = self.ctx.settings.get("difficulty", 1)
        self.diff = diff
        self.seed = (self.seed * 31 + self.ctx.ticks_ms()) & 0xFFFF
        if self.side == "mouse":
            if diff == 0:
                self.ai = _EasyCat(self.seed)
            elif diff == 1:
                self.ai = catmouse_ai.BfsCat()
            else:
                self.ai = catmouse_ai.AstarCat()
        else:
            self.ai = catmouse_ai.RandomMover(self.seed) if diff == 0 else catmouse_ai.EvasiveMouse()
        self.ai_rng = self.ai.rng if diff == 0 else None
        if hasattr(self.ai, "prepare"):
            self.ai.prepare(self.game.board)
        self.undo.clear()
        self.chord = False
        self._render_terrain()
        self.state = PLAY
        self.banner = b""
        self.wait = AI_DELAY if self.side == "mouse" else 0
        self.thinking = False
        self._round_started = False
        self._update_status()

    def _render_terrain(self):
        """Draw the terrain once into a background frame (copied every tick)."""
        import framebuf

        w = self.ctx.width
        h = self.ctx.height
        if self.bg is None:
            self.bg = bytearray(w * h // 8)
            self.bg_fb = framebuf.FrameBuffer(self.bg, w, h, framebuf.MONO_VLSB)
        self.bg_fb.fill(0)
        g = self.game
        costs = g.costs
        sprites = self.sprites
        for cell in range(len(costs)):
            self.bg_fb.blit(sprites[costs[cell]].fb, (cell % g.cols) << 3, (cell // g.cols) << 3)

    # -- one round: cat then mouse, as CatMouseGame.play_round -------------------------
    def _begin_round(self):
        g = self.game
        g.round += 1
        g.board.round = g.round
        g.last_error = None
        self._round_started = True

    def _end_round(self):
        g = self.game
        self._round_started = False
        if not g.winner and g.round >= g.round_limit:
            g.winner = "mouse"

    def _ai_move(self, piece):
        """Let the AI move ``piece``; False while it is still thinking.

        An AI with begin()/step() (the evasive mouse) thinks one flood per
        tick, so input is still polled every tick while it does.  ``answer`` is
        True/False from begin()/step() (decided / still thinking), a cell from a
        plain strategy, or None when the AI ran out of memory."""
        g = self.game
        here = g.cat if piece == "cat" else g.mouse
        if self.thinking:
            answer = self.ctx.ai(self._call_ai_bound)
        else:
            legal = g.legal_moves(piece)
            if len(legal) == 1:
                answer = legal[0]
            else:
                self.ai_cell = here
                self.ai_legal = legal
                answer = self.ctx.ai(self._call_ai_bound)
        if answer is False:
            self.thinking = True
            return False
        if answer is True:
            cell = self.ai.best
        elif answer is None:            # out of memory: no AI move this round
            legal = g.legal_moves(piece)
            cell = here if here in legal else legal[0]
        else:
            cell = answer               # a plain strategy answered with a cell
        self.thinking = False
        g.move(piece, cell)
        return True

    def _call_ai(self):
        """One AI call, run through ctx.ai (a MemoryError becomes a message).
        It takes no arguments, so ctx.ai(fn, *args) builds no tuple: the
        inputs are ``ai_cell`` and ``ai_legal``."""
        ai = self.ai
        if self.thinking:
            return ai.step()
        if hasattr(ai, "begin"):
            return ai.begin(self.game.board, self.ai_cell, self.ai_legal)
        return ai(self.game.board, self.ai_cell, self.ai_legal)

    def _player_cell(self, piece):
        """The cell the arrows ask for, or -1; A = stay (mouse only)."""
        btn = self.ctx.buttons
        g = self.game
        here = g.cat if piece == "cat" else g.mouse
        cols = g.cols
        legal = g.legal_moves(piece)
        self.forced = len(legal) == 1 and legal[0] == here
        if self.forced:
            return here            # resting (or boxed in): the round goes on
        want = self.queued          # a press made while the AI was answering
        self.queued = 0
        if not want:
            if btn.repeat(LEFT):
                want = LEFT
            elif btn.repeat(RIGHT):
                want = RIGHT
            elif btn.repeat(UP):
                want = UP
            elif btn.repeat(DOWN):
                want = DOWN
            elif btn.just_pressed(A):
                want = A
        target = -1
        if want & LEFT and here % cols > 0:
            target = here - 1
        elif want & RIGHT and here % cols < cols - 1:
            target = here + 1
        elif want & UP:
            target = here - cols
        elif want & DOWN:
            target = here + cols
        elif want & A and piece == "mouse":
            target = here
        if target >= 0 and target in legal:
            return target
        if target >= 0:
            self.ctx.beep(220, 30)
        return -1

    # -- undo -----------------------------------------------------------------------------
    def _push_round(self):
        """Record the state before the player's move (a chosen one, not a rest)."""
        if not self.forced:
            self._put_round(self.undo)

    def _put_round(self, u):
        """The state now as ring ``u``'s newest record."""
        g = self.game
        at = u.push()
        buf = u.buf
        buf[at] = g.cat
        buf[at + 1] = g.mouse
        buf[at + 2] = g.round
        buf[at + 3] = g.cat_stamina & 0xFF
        buf[at + 4] = g.cat_stamina >> 8
        buf[at + 5] = g.mouse_stamina & 0xFF
        buf[at + 6] = g.mouse_stamina >> 8
        buf[at + 7] = g.cat_rest | g.mouse_rest << 3 | (64 if self._round_started else 0)
        rng = self.ai_rng
        u.put30(at + 8, rng.state if rng is not None else 0)

    def undo_round(self):
        """Back to the player's last chosen move; False when there is none."""
        u = self.undo
        at = u.pop()
        if at < 0:
            return False
        g = self.game
        buf = u.buf
        g.cat = buf[at]
        g.mouse = buf[at + 1]
        g.round = buf[at + 2]
        g.cat_stamina = buf[at + 3] | buf[at + 4] << 8
        g.mouse_stamina = buf[at + 5] | buf[at + 6] << 8
        flags = buf[at + 7]
        g.cat_rest = flags & 7
        g.mouse_rest = (flags >> 3) & 7
        self._round_started = flags >= 64
        g.winner = None
        g.last_error = None
        board = g.board
        board._place(g.cat, g.mouse)
        board.cat_rest = g.cat_rest
        board.mouse_rest = g.mouse_rest
        board.round = g.round
        if self.ai_rng is not None:
            self.ai_rng.state = u.get30(at + 8)
        self.wait = 0
        self.thinking = False
        self.queued = 0
        self.state = PLAY
        self._update_status()
        return True

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        """The game in play as a small dict (side, board, the state as an undo
        record, the undo rounds), None when no game is in play.  B leaves a game
        for the title: it is still the game in progress until another starts."""
        g = self.game
        if g is None or g.winner or (self.state != PLAY and self.state != TITLE):
            return None
        if self.side == "watch":        # AI against AI: nothing of the player's to continue
            return None
        now = undoring.UndoRing(UNDO_SIZE, 1)
        self._put_round(now)
        return {
            "side": self.side, "level": self.level, "map": self.map_text,
            "diff": self.diff, "seed": self.seed, "state": undosave.to_text(now.buf),
            "undo": undosave.to_text(undosave.dump(self.undo)),
        }

    def restore(self, snap):
        """Play on from ``snapshot()``'s dict; False if it does not fit."""
        state = undosave.from_text(snap["state"])
        undo = undosave.from_text(snap["undo"])
        side = snap["side"]
        level = snap["level"]
        text = snap["map"]
        if side not in ("mouse", "cat") or snap["diff"] not in (0, 1, 2) or len(state) != UNDO_SIZE:
            return False
        if text is None and not 0 <= level < len(catmouse_maps.LEVELS):
            return False
        self.side = side
        self.level = level
        self.map_text = text
        self._start(snap["diff"])
        cells = len(self.game.costs)
        if state[0] >= cells or state[1] >= cells:
            return False
        self.seed = snap["seed"]
        u = self.undo
        at = u.push()
        u.buf[at:at + UNDO_SIZE] = state
        self.undo_round()               # the saved state, put back as an undo would
        undosave.load(u, undo)
        return True

    def _finish(self):
        g = self.game
        won = g.winner == self.side
        key = "wins_" + self.side
        if won:
            self.saved[key] = self.saved.get(key, 0) + 1
            if self.side == "cat":
                best = self.saved.get("best_catch", 0)
                if not best or g.round < best:
                    self.saved["best_catch"] = g.round
            self.ctx.store("catmouse", self.saved)
        if g.winner == "cat":
            self.banner = b"YOU CAUGHT IT!" if won else b"CAUGHT!"
        else:
            self.banner = b"ESCAPED!" if won else b"IT ESCAPED!"
        self.ctx.beep(1500 if won else 200, 120)
        self.state = OVER
        self._update_status()

    def _update_status(self):
        """Compose the status bar, "R3/96 MOUSE ST4 REST" or the banner and the
        keys, in the preallocated buffer: a move allocates nothing."""
        g = self.game
        line = self.status_text
        line.clear()
        if self.state == OVER:
            line.put(self.banner)
            line.put(b"  A:AGAIN B:MENU")
        else:
            mouse = self.side == "mouse"
            line.put(b"R")
            line.put_int(g.round)
            line.put(b"/")
            line.put_int(g.round_limit)
            line.put(b" MOUSE ST" if mouse else b" CAT ST")
            line.put_int(g.mouse_stamina if mouse else g.cat_stamina)
            if g.mouse_rest if mouse else g.cat_rest:
                line.put(b" REST")
        self.status = line.text()

    # -- the tick -----------------------------------------------------------------------
    def tick(self, ctx):
        btn = ctx.buttons
        if self.state == TITLE:
            if btn.just_pressed(B):
                return "exit"
            if btn.repeat(LEFT | RIGHT):
                self._next_side(btn.repeat(LEFT))
                self._title_text()
            elif btn.repeat(UP):
                self.level = (self.level - 1) % self.n_levels()
                self._title_text()
            elif btn.repeat(DOWN):
                self.level = (self.level + 1) % self.n_levels()
                self._title_text()
            elif btn.just_pressed(A):
                # the board picked on the title screen (a pack level: read now)
                if self.level < len(catmouse_maps.LEVELS):
                    self.map_text = None
                else:
                    try:
                        self.map_text = self._level_text(self.level)
                        check_level(self.map_text)
                    except Exception as exc:   # LevelPackError, the parser's error
                        self._pack_bad(userlevels.short_reason(exc))
                        self._title_text()
                        return None
                if self.side == "watch":
                    self._start_watch()
                else:
                    self._start()
            return None
        if self.state == WATCH:
            return self.watch.tick(ctx)
        if self.state == PACK_BAD:
            if btn.just_pressed(A | B):
                self.state = TITLE
            return None
        if self.state == OVER:
            if btn.just_pressed(A):
                self._start()
            elif btn.just_pressed(B):
                self.state = TITLE
                self._title_text()
            return None
        if btn.pressed(B) and btn.just_pressed(A):   # B+A: undo a round
            self.chord = True
            if not self.undo_round():
                ctx.beep(220, 30)
            else:
                ctx.save_game()
            return None
        if self.chord:
            if not btn.pressed(B):
                self.chord = False                   # B's release ends it
            return None
        if btn.just_released(B):
            self.state = TITLE
            self._title_text()
            return None
        g = self.game
        if self.wait:
            self.wait -= 1
            if btn.just_pressed(_MOVES):
                self.queued = btn.down & _MOVES
            return None
        if self.side == "mouse":
            if not self._round_started:
                self._begin_round()
                self._ai_move("cat")
                if g.winner:
                    self._finish()
                else:
                    self._update_status()
                    ctx.save_game()
                return None
            cell = self._player_cell("mouse")
            if cell < 0:
                return None
            self._push_round()
            g.move("mouse", cell)
            self._end_round()
            if g.winner:
                self._finish()
            else:
                self.wait = AI_DELAY
                self._update_status()
            return None
        # the player is the cat: the cat moves first, the AI mouse answers
        if not self._round_started:
            cell = self._player_cell("cat")
            if cell < 0:
                return None
            self._push_round()
            self._begin_round()
            g.move("cat", cell)
            if g.winner:
                self._finish()
                return None
            self.wait = AI_DELAY
            self._update_status()
            return None
        if not self._ai_move("mouse"):
            return None
        self._end_round()
        if g.winner:
            self._finish()
        else:
            self._update_status()
            ctx.save_game()
        return None

    # -- drawing --------------------------------------------------------------------------
    def draw(self, fb):
        fb.fill(0)
        if self.state == PACK_BAD:
            userlevels.draw_error(fb, self.pack_error)
            return
        if self.state == TITLE:
            fb.fill_rect(0, 0, 128, 10, 1)
            fb.text("CAT & MOUSE", 20, 1, 0)
            self.cat_sprite.draw(fb, 4, 14)
            self.mouse_sprite.draw(fb, 116, 14)
            gfx.text(fb, self.title_lines[0], 18, 16)
            gfx.text(fb, self.title_lines[1], 18, 26)
            gfx.text(fb, self.title_lines[2], 18, 36)
            gfx.text(fb, "A:START  B:BACK  UP/DOWN:BOARD", 4, 57)
            return
        g = self.game
        cols = g.cols
        frame = self.ctx.frame
        if len(frame) == len(self.bg):
            frame[catmouse.WHOLE] = self.bg   # the prerendered terrain, one memory copy
        else:
            fb.blit(self.bg_fb, 0, 0)
        fb.blit(self.mouse_sprite.fb, (g.mouse % cols) << 3, (g.mouse // cols) << 3)
        if g.winner != "cat" or (self.ctx.tick_no() >> 3) & 1:
            fb.blit(self.cat_sprite.fb, (g.cat % cols) << 3, (g.cat // cols) << 3)
        # the status bar goes below the board when it leaves room, else on the
        # top or bottom row, whichever has no piece (else the one away from the
        # player's piece); a piece under the bar is cut out of it
        mine = g.mouse if self.side == "mouse" else g.cat
        last = g.rows - 1
        h = self.ctx.height
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
            if g.cat // cols == row and (g.winner != "cat" or (self.ctx.tick_no() >> 3) & 1):
                self._cut_out(fb, self.cat_sprite, g.cat, cols)

    def _cut_out(self, fb, sprite, cell, cols):
        x = (cell % cols) << 3
        y = (cell // cols) << 3
        fb.fill_rect(x - 1 if x else 0, y, 10 if x else 9, 8, 0)
        fb.blit(sprite.fb, x, y)
