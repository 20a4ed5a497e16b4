"""Trap the Cat on the handheld: the scene around trapcat.py / trapcat_ai.py.

Screens, one object each with ``tick(ctx)`` / ``draw(fb)`` (``Scene.screen``
is the one on show; the runtime sees ``Scene``): ``LevelChoice`` (only with
a level pack), ``PlayScreen`` (the grid in play: the player's turn and the
cat's), ``EndScreen`` (the last position and the result) and the pack's
error (``gamelevels.PackErrorScreen``).  ``Scene`` holds what they share: the
grid in play (a trapcat.Board) with its cursor, the cat and the hint
(trapcat_ai tasks) and the ``work.Job`` that runs them, the undo ring, the
records, the panel's text and B (``scenekit.Pause``).

The 9x9 hex grid sits on the left (7-pixel cells, odd rows shifted 3 px right,
63 px tall); the right panel shows the move counter, difficulty and record.
Arrows move the cursor (UP/DOWN keep the column: in offset rows (r+-1, c) is
always a neighbour, so the cursor zigzags down the hex grid; on a blocked cell
it frames a smaller block), A blocks the cell under the cursor (refused on a
blocked cell: scenekit.refuse); B is every game's (scenekit.Pause), the menu's
HINT puts the cursor on a hint (its cell marked with an X, "HINT: BLOCK X" on
the panel).  B+A undoes a turn, the block and the cat's reply
(UNDO_DEPTH turns in a preallocated undoring; the easy cat's RNG state is part
of a record, so the same blocks after an undo get the same replies).  B+DOWN
shows or hides the distance map: each free cell's steps to the border as a
digit ("+" from 10), the cats' own border search (trapcat_ai's
``Analyzer.distances``) run again at each frame it shows.  Difficulty 0/1/2
from ctx.settings picks the easy/normal/hard cat.  Wins, losses and the fewest
blocks for a win per difficulty are the records (trapcat_saves.records, checked),
stored by ``ctx.finish`` at every game's end; a game in which a hint was shown
is marked ("NORMAL: HELPED", "WITH HELP: NO RECORD") and leaves them as they
were.

The cat's move and the hint are tasks of work.py (trapcat_ai's begin / step
/ answer): the scene's ``job`` runs their slices (SLICE_UNITS work units each,
<= ~25 ms on a Pico) while the tick's SLICE_MS allow, so input is polled every
tick; the panel says which one runs ("CAT THINKS..." for the cat,
"FINDING HINT" in inverse video for the hint).  A or a B tap drops a hint under
way.  A tick runs the hint's slices or sends a changed frame, not both
(together they came to 37-50 ms on the virtual Pico): a tick whose cursor
moved runs no slice, and a hint found is shown in the next tick.  A slice
that runs out of memory ends the job with the
"NOT ENOUGH MEMORY" toast: the hint then moves nothing, the cat takes its
first free step.

Level pack: with ``/levels/trapcat.bin`` (firmware/userlevels.py) the game
opens on a level choice: RANDOM GRID (the built-in game) or one of the pack's
starting positions (grids of 3x3 .. 9x9), read from the file when it starts;
B on the game-over screen goes back to the choice.  A bad pack shows "LEVEL
PACK BAD" and the reason, then the built-in random game.  ``show_level(text)``
starts a given position (``levels preview`` renders packs through it).
"""

import screens
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import gfx
import gamelevels
import scenekit
import trapcat
import trapcat_ai
import undoring
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico
import work

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

MAX_SIDE = const(9)      # 9 rows of 7 px fill the 64-px screen
CELL = const(7)
_SHIFT = const(3)
_AI_DELAY = const(4)
SLICE_MS = const(25)     # the job's share of a tick; input is polled between ticks
GAME_ID = "trapcat"
UNDO_DEPTH = const(64)   # turns; a record: block, cat before, easy cat's RNG a | b << 15
UNDO_SIZE = const(6)
PX = const(70)           # the panel's left edge


def check_level(text):
    """(size, cells, cat) of a pack level the game can play: trapcat's parser,
    and a grid that fits the screen."""
    level = trapcat.parse_level(text)
    if level[0] > MAX_SIDE:
        raise ValueError("the grid is %dx%d; the screen fits %dx%d at most"
                         % (level[0], level[0], MAX_SIDE, MAX_SIDE))
    return level


# The grid cursor after this tick's arrows (held ones repeat), kept on the
# ``size`` x ``size`` grid: the solo game's and the linked game's
# (trapcat_link.Match.act).
def moved_cursor(btn, cursor, size):
    r = cursor // size
    c = cursor % size
    if btn.repeat(LEFT) and c > 0:
        c -= 1
    elif btn.repeat(RIGHT) and c < size - 1:
        c += 1
    elif btn.repeat(UP) and r > 0:
        r -= 1
    elif btn.repeat(DOWN) and r < size - 1:
        r += 1
    return r * size + c


def draw_grid(self, fb, cursor, r0=0, r1=MAX_SIDE):
    """Scene.draw_grid: the grid (cursor frame on ``cursor``, -1: none),
    with the distance map on the free cells while it is shown.  A function
    here so that Scene stays under 400 lines; trapcat_link's match draws
    with it too."""
    # (its rows r0 to r1 - 1: Scene.mend_toast)
    # the cursor on a blocked cell frames a smaller block (never a bigger
    # block); the hint's cell is marked X
    b = self.board
    hint = self.hint_cell
    size = b.size
    cells = b.cells
    cat = b.cat
    # A free cell's dot is set straight in the frame bytes (ctx.frame, behind fb)
    # when there is one: a pixel() call per dot cost 0.23 ms with the pure-Python
    # framebuf deployed to CircuitPython, and a grid has up to 81 dots.
    ctx = self.ctx
    frame = ctx.frame
    width = ctx.width
    height = ctx.height
    dist = self.an.dist
    digits = self.digits
    overlay = self.overlay
    if overlay:
        self.an.distances()          # the cats' border search: the article's map
    if r1 > size:
        r1 = size
    cell = r0 * size
    for r in range(r0, r1):
        y = r * CELL
        x = _SHIFT if r & 1 else 0
        dot_y = y + 3
        dot_row = (dot_y >> 3) * width + 3
        dot_bit = 1 << (dot_y & 7)
        for _ in range(size):
            if cell == cat:
                fb.fill_rect(x + 1, y + 1, 5, 5, 1)
                fb.pixel(x + 2, y + 2, 0)
                fb.pixel(x + 4, y + 2, 0)
                fb.pixel(x + 1, y, 1)
                fb.pixel(x + 5, y, 1)
            elif cells[cell]:
                if cell == cursor:
                    fb.fill_rect(x + 2, y + 2, 3, 3, 1)
                else:
                    fb.fill_rect(x + 1, y + 1, 5, 5, 1)
            elif cell == hint:
                fb.line(x + 1, y + 1, x + 5, y + 5, 1)
                fb.line(x + 5, y + 1, x + 1, y + 5, 1)
            elif overlay and dist[cell] != trapcat_ai.INF:
                d = dist[cell]
                fb.blit(digits[d if d < 10 else 10], x + 2, y + 1)
            elif frame is None:
                fb.pixel(x + 3, dot_y, 1)
            elif dot_y < height and x + 3 < width:
                frame[dot_row + x] |= dot_bit
            cell += 1
            x += CELL
    # the cursor's frame, on the edge of its cell where no other cell draws
    r = cursor // size
    if cursor >= 0 and r0 <= r < r1:
        fb.rect((_SHIFT if r & 1 else 0) + cursor % size * CELL, r * CELL, CELL, CELL, 1)


class Scene(screens.Scene):
    """The scene the runtime runs: the grid in play, its cat, hint, job and
    undo ring, the records and the levels, shared by the screens; ``screen``
    is the one on show (LevelChoice, PlayScreen, EndScreen or the pack's
    error), which ticks and draws."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.board = None
        self._set_size(9)
        self.fixed = None        # (size, cells, cat) of the pack level in play, None: random
        self.records = scenekit.records(ctx, GAME_ID)   # checked (trapcat_saves)
        self.seed = (ctx.ticks_ms() * 31 + 7) & 0xFFFF
        self.diff = 1
        self.cursor = 0
        self.hint_cell = trapcat.NONE   # the hint shown (marked X), NONE: none
        self.helped = False      # a hint was shown in this game: it is not recorded
        self.job = work.Job(SLICE_MS)   # the cat's move or the hint
        self.banner = ""
        self.lines = ("", "", "", "")
        self.undo_ring = undoring.UndoRing(UNDO_SIZE, UNDO_DEPTH)
        # B in play (its chords) and the pause menu (its lines)
        self.pause = scenekit.Pause(("RESUME", "HINT", "UNDO", "RESTART", "RULES", "QUIT"))
        self.overlay = False     # B+DOWN: the distance map on the free cells
        self.digits = None       # its glyphs, made the first time it shows
        self.held = None         # a game started this tick: the frame on show stays (frame_key)
        self.menu_first = False  # the pause menu opened this tick: its first frame (draw)
        self.play_screen = PlayScreen(self)
        self.end_screen = EndScreen(self)
        self.choice_screen = LevelChoice(self)
        self.screen = self.play_screen
        self.new_game()
        self.levels = gamelevels.Levels(ctx, GAME_ID, check_level, 1)
        self.error_screen = gamelevels.PackErrorScreen(self.levels, self.close_error)
        if self.levels.error is not None:
            self.pack_bad()
        elif self.levels.pack is not None:
            self.screen = self.choice_screen

    def _set_size(self, size):
        """A board (and analyzer, hinter) of ``size``; kept while the size stays."""
        if self.board is not None and self.board.size == size:
            return
        self.board = None
        self.an = None
        self.hinter = None
        self.board = trapcat.Board(size)
        self.an = trapcat_ai.Analyzer(self.board)
        self.hinter = trapcat_ai.StrongBlocker(self.board, self.an)

    def tick(self, ctx):
        if self.held is not None:       # a game started last tick: its first frame only
            self.held = None
            return None
        if not self.pause.shown:
            done = self.screen.tick(ctx)
            self.menu_first = self.pause.shown      # (opened by the play screen's B)
            return done
        self.menu_first = False
        import pausemenu                # the pause menu: the line chosen, run
        act = pausemenu.tick(self.pause, ctx)
        if act == "HINT" and not self.play_screen.cat_turn:
            self.hinter.begin(self.board)       # worked out from the next tick
            self.job.start(self.hinter)
            self.play_screen.spin = 0
        elif act == "UNDO":
            self.chord_undo(ctx, True)
        elif act == "RESTART":
            self.begin()
        elif act == "QUIT":
            return "exit"
        return None

    def draw(self, fb):
        p = self.pause
        if self.held is not None or p.loading:   # fb still holds the frame on show
            return
        if self.menu_first:
            # The menu's first frame: the paused play screen beneath is the one
            # drawn last tick (in fb), so only the menu's box is drawn over it
            # (the grid, the panel and a whole frame sent came to 37 ms on the
            # virtual Pico); from the next tick the whole frame is drawn again.
            self.mend_toast(fb)
            import pausemenu
            pausemenu.draw(p, fb)
            return
        fb.fill(0)
        p.draw_over(self.screen, fb)

    # A toast the runtime drew over last tick's frame (runtime.draw_toast: rows
    # 26..36, centred) and no longer draws: its part left of the menu's box
    # (pausemenu, x 52 on) is the grid again, the only thing drawn there (rows
    # 3..5 of cells cover y 21..41, drawn again with the same pixels).
    def mend_toast(self, fb):
        fb.fill_rect(0, 26, 52, 11, 0)
        self.draw_grid(fb, self.cursor, 3, 6)

    def frame_key(self):
        """The runtime's frame cache: the level choice, the pack's error and
        the end screen are static until a key changes them."""
        if self.held is not None:        # a game started this tick: the frame on show stays
            return self.held
        return self.screen.frame_key()

    # -- the levels ---------------------------------------------------------
    def pack_bad(self):
        """The pack was dropped (``levels.error`` says why): a new random
        game behind the error screen."""
        self.fixed = None
        self.choice_screen.pick(0)
        self.new_game()
        self.screen = self.error_screen

    def close_error(self):
        self.screen = self.play_screen

    def choose(self, i):
        """Start level ``i`` of the choice: 0 the random grid, else the pack's."""
        if i == 0:
            self.fixed = None
        else:
            self.fixed = self.levels.read(i)
            if self.fixed is None:       # the pack could not give it
                self.pack_bad()
                return
        self.begin()

    def show_level(self, text):
        """Play the position given as level text (``levels preview`` draws it)."""
        self.fixed = check_level(text)
        self.new_game()

    # -- the game -----------------------------------------------------------
    # ``new_game`` from a tick (the level choice's A, RESTART, the end screen's
    # A): the frame on show stays in this tick and the new grid is drawn in the
    # next, with no play in it.  The new grid, its frame and a whole frame sent
    # in one tick came to 36 ms on the virtual Pico.
    def begin(self):
        self.new_game()
        self.held = -1

    def new_game(self):
        diff = self.ctx.settings.get("difficulty", 1)
        if diff not in (0, 1, 2):
            diff = 1
        self.diff = diff
        self.seed = (self.seed * 75 + self.ctx.ticks_ms() + 74) % 65537
        if self.fixed is None:
            self._set_size(9)
            self.board.reset(trapcat.Rng(self.seed), trapcat.DEFAULT_BLOCKS)
        else:
            self._set_size(self.fixed[0])
            self.board.load(self.fixed[1], self.fixed[2])
        self._make_cat(diff)
        self.cursor = self.board.cat - 1
        self.hint_cell = trapcat.NONE
        self.helped = False
        self.job.cancel()
        self.undo_ring.clear()
        self.play_screen.cat_turn = False
        self.screen = self.play_screen
        self.banner = ""
        self.show_text()

    def _make_cat(self, diff):
        if diff == 0:
            self.cat = trapcat_ai.EasyCat(self.board, self.seed)
        elif diff == 1:
            self.cat = trapcat_ai.NormalCat(self.board, self.an)
        else:
            self.cat = trapcat_ai.HardCat(self.board, self.an)

    def end(self):
        """The game is over (the player's block trapped the cat, or the cat
        stepped out): the records through ctx.finish, then the end screen."""
        # (a game a hint helped leaves the records as they were)
        ctx = self.ctx
        b = self.board
        won = b.status == trapcat.PLAYER_WON
        if not self.helped:
            self.record(won)
        self.banner = "TRAPPED!" if won else "ESCAPED!"
        ctx.finish(GAME_ID, self.records)    # the game in progress ends, the records stay
        ctx.beep(1500 if won else 200, 120)
        self.end_screen.armed = False
        self.screen = self.end_screen
        self.show_text()

    def record(self, won):
        # The game just ended, counted at its difficulty and in the totals; a
        # win's blocks are the difficulty's best when fewer (random grids only).
        rec = self.records
        d = self.diff
        key = "won" if won else "lost"
        rec[key] = rec.get(key, 0) + 1
        key += "%d" % d
        rec[key] = rec.get(key, 0) + 1
        key = "best%d" % d
        if won and self.fixed is None and (not rec.get(key) or self.board.moves < rec[key]):
            rec[key] = self.board.moves

    def show_hint(self, cell):
        # The hint's answer: the cursor on its cell, the cell marked X; the
        # game is helped from now on (not recorded).
        self.cursor = cell
        self.hint_cell = cell
        if not self.helped:
            self.helped = True
            self.show_text()

    def show_text(self):
        """The panel's four lines (made when they change, not per frame)."""
        # the difficulty (": HELPED" once a hint was shown), the moves, this
        # difficulty's wins and losses, and its best
        rec = self.records
        d = self.diff
        best = rec.get("best%d" % d, 0)
        self.lines = (
            ("EASY", "NORMAL", "HARD")[d] + (": HELPED" if self.helped else ""),
            "MOVES %d" % self.board.moves,
            "WON %d LOST %d" % (rec.get("won%d" % d, 0), rec.get("lost%d" % d, 0)),
            ("BEST %d" % best) if best else "BEST -",
        )

    # B+DOWN (the distance map; that press of B is used), then what B did
    # (scenekit.Pause.poll): B+A undoes a turn (refused unless ``playing``)
    def chords(self, ctx, playing):
        btn = ctx.buttons
        if btn.pressed(B) and btn.just_pressed(DOWN):
            self.pause.used = True
            self.overlay = not self.overlay
            if self.digits is None:
                self.digits = tuple(gfx.glyph(ch) for ch in "0123456789+")
            return "busy"
        ev = self.pause.poll(btn, playing)
        if ev == "undo":
            self.chord_undo(ctx, playing)
        return ev

    # B+A or the menu's UNDO: a turn undone, saved; else refused
    def chord_undo(self, ctx, playing):
        if not playing or not self.undo():
            scenekit.refuse(ctx, "NOTHING TO UNDO")
        else:
            self.show_text()             # the panel, as after a move
            ctx.save_game()

    # -- undo -----------------------------------------------------------------
    def push_turn(self, cell):
        """Record the turn that starts with blocking ``cell`` (before it)."""
        u = self.undo_ring
        at = u.push()
        buf = u.buf
        buf[at] = cell
        buf[at + 1] = self.board.cat
        if self.diff == 0:
            rng = self.cat.rng
            u.put30(at + 2, rng.a | rng.b << 15)

    def undo(self):
        """Take back the last block and the cat's reply (or the cat's pending
        move); False when there is nothing to undo.  Allocates nothing (the
        panel's text is the caller's: ``show_text()``)."""
        at = self.undo_ring.pop()
        if at < 0:
            return False
        u = self.undo_ring
        buf = u.buf
        b = self.board
        b.cells[buf[at]] = trapcat.FREE
        b.cat = buf[at + 1]
        b.moves -= 1
        b.status = trapcat.PLAYING
        if self.diff == 0:
            ab = u.get30(at + 2)
            self.cat.rng.a = ab & 0x7FFF
            self.cat.rng.b = ab >> 15
        self.job.cancel()
        self.play_screen.cat_turn = False
        self.screen = self.play_screen
        self.cursor = buf[at]
        self.hint_cell = trapcat.NONE
        return True

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        """The game in play as a small dict (the grid, the cat, the undo
        turns), None when no game is in play."""
        if self.screen is not self.play_screen:
            return None
        b = self.board
        rng = self.cat.rng if self.diff == 0 else None
        fixed = self.fixed
        return {
            "size": b.size, "cells": undosave.to_text(b.cells), "cat": b.cat,
            "moves": b.moves, "diff": self.diff, "seed": self.seed,
            "rng": 0 if rng is None else rng.a | rng.b << 15,
            "fixed": None if fixed is None else [
                fixed[0], undosave.to_text(bytes(fixed[1])), fixed[2]],
            "cursor": self.cursor, "cat_turn": self.play_screen.cat_turn,
            "undo": undosave.to_text(undosave.dump(self.undo_ring)), "helped": self.helped,
        }

    def restore(self, snap):
        """Play on from ``snapshot()``'s dict; False if it does not fit
        (trapcat_saves: its keys and ranges, the cells against the size; a game
        still on, and every undo turn in it taken back one by one on the
        grid, so no later undo can index past it)."""
        import trapcat_saves             # dropped again once read
        if not trapcat_saves.snapshot(snap):
            return False
        size = snap["size"]
        diff = snap["diff"]
        cells = undosave.from_text(snap["cells"])
        undo = undosave.from_text(snap["undo"])
        fixed = snap["fixed"]
        if fixed is not None:
            fixed = (fixed[0], undosave.from_text(fixed[1]), fixed[2])
        self._set_size(size)
        b = self.board
        b.load(cells, snap["cat"])
        if b.status != trapcat.PLAYING or not trapcat_saves.turns(undo, b, diff == 0):
            return False
        b.load(cells, snap["cat"])
        b.moves = snap["moves"]
        self.fixed = fixed
        self.diff = diff
        self.seed = snap["seed"]
        self._make_cat(diff)
        if diff == 0:
            self.cat.rng.a = snap["rng"] & 0x7FFF
            self.cat.rng.b = snap["rng"] >> 15
        undosave.load(self.undo_ring, undo)
        self.cursor = snap["cursor"] % (size * size)
        self.hint_cell = trapcat.NONE
        self.helped = snap.get("helped", False) is True    # (absent in older saves)
        self.job.cancel()
        self.banner = ""
        self.screen = self.play_screen
        self.play_screen.cat_turn = False
        if snap["cat_turn"]:
            self.play_screen.cat_starts()
        self.show_text()
        return True

    # -- drawing --------------------------------------------------------------
    draw_grid = draw_grid

    def draw_panel(self, fb, n=4):
        """The panel's title and its four lines (the first ``n``)."""
        gfx.text(fb, "TRAP THE CAT", PX, 0)
        y = 10
        for i in range(n):
            gfx.text(fb, self.lines[i], PX, y)
            y += 8


class PlayScreen(screens.Screen):
    """The grid in play.  The player's turn: the cursor, A blocks, the menu's
    HINT asks for a hint (worked out by the scene's job over ticks).  The cat's turn
    (``cat_turn``): its move is worked out the same way and made once it is
    ready and _AI_DELAY ticks have passed since the block."""

    def __init__(self, scene):
        self.scene = scene
        self.cat_turn = False
        self.wait = 0            # ticks before the cat may move
        self.spin = 0            # the dots of "CAT THINKS" / "FINDING HINT"

    def tick(self, ctx):
        g = self.scene
        ev = g.chords(ctx, True)
        if ev == "tap" and not self.cat_turn:
            g.job.cancel()                   # a hint being worked out is dropped
        if ev:
            return None
        if self.cat_turn:
            self.cat_moves(ctx)
            return None
        btn = ctx.buttons
        cursor = g.cursor
        g.cursor = moved_cursor(btn, cursor, g.board.size)
        job = g.job
        if job.running() or job.state == work.DONE and job.task is g.hinter:   # a hint
            if btn.just_pressed(A):
                job.cancel()                 # the player acts first: drop it
            elif not job.running():          # found last tick: shown now
                job.cancel()
                if g.hinter.answer != trapcat.NONE:
                    g.show_hint(g.hinter.answer)
                return None
            else:
                if g.cursor == cursor:
                    self.think(ctx)
                return None
        if btn.just_pressed(A):
            self.block(ctx)
        return None

    def block(self, ctx):
        """A on the cell under the cursor: the block, then the end or the cat's turn."""
        g = self.scene
        b = g.board
        if not b.can_block(g.cursor):
            scenekit.refuse(ctx, "CAN'T BLOCK THERE")
            return
        g.push_turn(g.cursor)
        b.block(g.cursor)
        g.hint_cell = trapcat.NONE
        g.show_text()
        if b.status != trapcat.PLAYING:
            g.end()
        else:
            self.cat_starts()

    def cat_starts(self):
        """The cat's turn: its move is worked out from the next tick."""
        g = self.scene
        self.cat_turn = True
        self.wait = _AI_DELAY
        g.cat.begin(g.board)
        g.job.start(g.cat)
        self.spin = 0

    def cat_moves(self, ctx):
        """A tick of the cat's turn: its slices, then its move once they are
        done and _AI_DELAY ticks have passed (its first free step when the
        job failed)."""
        g = self.scene
        self.wait -= 1
        if g.job.running() and self.think(ctx) == work.RUNNING:
            return
        if self.wait > 0:
            return
        b = g.board
        cell = g.cat.answer              # NO_ANSWER when the job failed
        if not b.can_move(cell):
            b.free_neighbours(b.cat, g.an.moves)
            cell = g.an.moves[0]
        b.move_cat(cell)
        self.cat_turn = False
        if b.status == trapcat.PLAYING:
            g.show_text()
            ctx.save_game()
        else:
            g.end()

    def think(self, ctx):
        """This tick's slices of the job; its state after them."""
        self.spin += 1
        return self.scene.job.run(ctx)

    def draw(self, fb):
        # The line at y 44 says what runs: the cat's move ("CAT THINKS..."),
        # the hint's search (inverse video: the two never look alike), the
        # hint shown, or A:BLOCK.
        g = self.scene
        g.draw_grid(fb, g.cursor)
        g.draw_panel(fb)
        dots = (self.spin >> 1) & 3
        ink = 1
        if self.cat_turn:
            x = gfx.text(fb, "CAT THINKS", PX, 44)
        elif g.job.running():
            fb.fill_rect(PX - 1, 43, 128 - PX + 1, 7, 1)
            ink = 0
            x = gfx.text(fb, "FINDING HINT", PX, 44, 0)
            dots = dots if dots < 3 else 1           # two dots at most: the line ends at 128
        else:
            gfx.text(fb, "A:BLOCK" if g.hint_cell == trapcat.NONE else "HINT: BLOCK X", PX, 44)
            dots = 0
        for i in range(dots):                        # the font's "." (no string per count)
            fb.pixel(x + 4 * i + 1, 48, ink)
        gfx.text(fb, "B+A:UNDO", PX, 51)
        gfx.text(fb, "HOLD B: MENU", PX, 58)


class EndScreen(screens.Screen):
    """The last position and the result; A: a new game, B: the level choice
    (with a pack) or leave.  B+DOWN still shows the distance map."""

    def __init__(self, scene):
        self.scene = scene
        self.armed = False

    def tick(self, ctx):
        g = self.scene
        btn = ctx.buttons
        if not scenekit.settled(self, btn):
            return None
        ev = g.chords(ctx, False)
        if ev == "tap":
            if g.levels.pack is None:
                return "exit"
            g.screen = g.choice_screen
        elif ev is None and btn.just_pressed(A):
            g.begin()
        return None

    def frame_key(self):
        return 7 if self.scene.overlay else 3     # (bit 1 set: never the choice's)

    def draw(self, fb):
        # a game a hint helped says it was not recorded where the records were
        g = self.scene
        g.draw_grid(fb, -1)
        if g.helped:
            g.draw_panel(fb, 2)
            gfx.text(fb, "WITH HELP:", PX, 26)
            gfx.text(fb, "NO RECORD", PX, 34)
        else:
            g.draw_panel(fb)
        gfx.text(fb, g.banner, PX, 44)
        gfx.text(fb, "A:AGAIN B:BACK", PX, 52)


class LevelChoice(screens.Screen):
    """With a level pack: RANDOM GRID or one of the pack's positions
    (UP/DOWN), A plays it, B leaves the game."""

    def __init__(self, scene):
        self.scene = scene
        self.choice = 0          # 0 the random grid, i > 0 pack level i - 1
        self.text = "< RANDOM GRID >"          # the built-in level

    def tick(self, ctx):
        btn = ctx.buttons
        g = self.scene
        n = g.levels.count()
        if btn.repeat(UP):
            self.pick((self.choice - 1) % n)
        elif btn.repeat(DOWN):
            self.pick((self.choice + 1) % n)
        elif btn.just_pressed(A):
            g.choose(self.choice)
        elif btn.just_released(B):
            return "exit"
        return None

    def pick(self, i):
        levels = self.scene.levels
        self.choice = i
        name = "RANDOM GRID" if i == 0 or levels.pack is None else levels.pack_label(i)
        self.text = "< %s >" % name

    def frame_key(self):
        return 1 | (self.choice & 0xFFFFF) << 2

    def draw(self, fb):
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text("TRAP THE CAT", 16, 1, 0)
        gfx.text(fb, "LEVEL", 4, 18)
        gfx.center(fb, self.text, 28)
        gfx.text(fb, "UP/DOWN:LEVEL A:PLAY B:EXIT", 4, 57)
