"""Trap the Cat on the handheld: the scene around trapcat.py / trapcat_ai.py.

The 9x9 hex board sits on the left (7-pixel cells, odd rows shifted 3 px right,
63 px tall); the right panel shows the move counter, difficulty and record.
Arrows move the cursor (UP/DOWN keep the column: in offset rows (r+-1, c) is
always a neighbour, so the cursor zigzags down the hex grid), A blocks the cell
under the cursor, B puts the cursor on a hint, holding B leaves.  B+A (hold B,
press A) undoes a turn, the block and the cat's reply (UNDO_DEPTH turns in a
preallocated undoring; the easy cat's RNG state is part of a record, so the
same blocks after an undo get the same replies).  B+DOWN shows or hides
the distance map: each free cell's steps to the border as a digit ("+" from
10), worked out again at each frame it shows (distance_map).  Difficulty
0/1/2 from ctx.settings picks the easy/normal/hard cat.  Wins, losses and the
fewest blocks for a win per difficulty are saved.

The cat's move and the hint are worked out in slices (trapcat_ai's
start/step, at most SLICE_MS and SLICE_UNITS per tick, <= ~4 M fuel) with
"THINKING" on the panel, so input is polled every tick; pressing A or B while
a hint is being worked out drops it.

Level pack: with ``/levels/trapcat.bin`` (firmware/userlevels.py) the game
opens on a level choice: RANDOM BOARD (the built-in game) or one of the pack's
starting positions (boards of 3x3 .. 9x9), read from the file when it starts;
B on the game-over screen goes back to the choice.  A bad pack shows "LEVEL
PACK BAD" and the reason, then the built-in random game.  ``show_level(text)``
starts a given position (``levels preview`` renders packs through it).
"""

import screens
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import gfx
import trapcat
import trapcat_ai
import undoring
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico
import userlevels

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

PLAY = const(0)
CAT_TURN = const(1)
OVER = const(2)
LEVELS = const(3)        # the level choice (only with a level pack)
PACK_BAD = const(4)      # the pack's error screen, then the random game
MAX_SIDE = const(9)      # 9 rows of 7 px fill the 64-px screen
CELL = const(7)
SHIFT = const(3)
AI_DELAY = const(4)
SLICE_MS = const(25)     # AI work per tick; input is polled between slices
EXIT_HOLD_MS = const(900)
GAME_ID = "trapcat"
UNDO_DEPTH = const(64)   # turns; a record: block, cat before, easy cat's RNG a | b << 15
UNDO_SIZE = const(6)
THINKING = ("THINKING.", "THINKING..", "THINKING...", "THINKING....")
WALL = const(100)        # the distance map's blocked cells (the article's number)
FAR = const(255)         # a free cell cut off from the border


def distance_map(board, out, queue):
    """The article's distance map of ``board`` into ``out`` (bytearray of n):
    free border cells 0, walls WALL, every other free cell the least of its
    neighbours + 1.  That fixed point is the BFS distance from the free
    border cells, so one BFS (``queue``: scratch of n) fills it; cells the
    border cannot reach get FAR.  The cat's nearest way out runs downhill."""
    cells = board.cells
    border = board.border
    adj = board.adj
    deg = board.deg
    tail = 0
    for x in range(board.n):
        if cells[x]:
            out[x] = WALL
        elif border[x]:
            out[x] = 0
            queue[tail] = x
            tail += 1
        else:
            out[x] = FAR
    head = 0
    while head < tail:
        u = queue[head]
        head += 1
        d = out[u] + 1
        base = 6 * u
        for k in range(base, base + deg[u]):
            v = adj[k]
            if out[v] == FAR:
                out[v] = d
                queue[tail] = v
                tail += 1


def check_level(text):
    """(size, cells, cat) of a pack level the game can play: trapcat's parser,
    and a board that fits the screen."""
    level = trapcat.parse_level(text)
    if level[0] > MAX_SIDE:
        raise ValueError("the board is %dx%d; the screen fits %dx%d at most"
                         % (level[0], level[0], MAX_SIDE, MAX_SIDE))
    return level


class Scene(screens.Scene):
    def __init__(self, ctx):
        self.ctx = ctx
        self.board = None
        self._set_size(9)
        self.fixed = None        # (size, cells, cat) of the pack level in play, None: random
        self.choice = 0          # level choice: 0 random, i > 0 pack level i - 1
        self.pack_error = None
        self.saved = ctx.load(GAME_ID) or {}
        self.seed = (ctx.ticks_ms() * 31 + 7) & 0xFFFF
        self.rng = trapcat.Rng(self.seed)
        self.cursor = 0
        self.thinking = None     # the running sliced task (cat move or hint)
        self.spin = 0
        self.state = PLAY
        self.wait = 0
        self.banner = ""
        self.lines = ("", "", "", "")
        self.undo = undoring.UndoRing(UNDO_SIZE, UNDO_DEPTH)
        self.chord = False       # B+A was used: B's release and hold do nothing else
        self.overlay = False     # B+DOWN: the distance map on the free cells
        self.dmap = bytearray(MAX_SIDE * MAX_SIDE)
        self.dqueue = bytearray(MAX_SIDE * MAX_SIDE)
        self.digits = tuple(gfx.glyph(ch) for ch in "0123456789+")
        self._new_game()
        self.pack, err = userlevels.open_for(ctx, GAME_ID, check_level)
        if err:
            self._pack_bad(err)
        elif self.pack is not None:
            self.state = LEVELS
        self.choice_text = "< %s >" % self.level_name()

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

    def _pack_bad(self, reason):
        self.pack = None
        self.pack_error = userlevels.wrap(reason)
        self.fixed = None
        self.choice = 0
        self._new_game()
        self.state = PACK_BAD

    def show_level(self, text):
        """Play the position given as level text (``levels preview`` draws it)."""
        self.fixed = check_level(text)
        self._new_game()

    def _choose(self):
        """Start the level picked on the choice screen."""
        if self.choice == 0:
            self.fixed = None
        else:
            try:
                self.fixed = check_level(self.pack.text(self.choice - 1))
            except Exception as exc:   # LevelPackError, the parser's error
                self._pack_bad(userlevels.short_reason(exc))
                return
        self._new_game()

    def level_name(self):
        if self.choice == 0 or self.pack is None:
            return "RANDOM BOARD"
        return "PACK %d/%d" % (self.choice, self.pack.count)

    def _new_game(self):
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
        self.thinking = None
        self.undo.clear()
        self.state = PLAY
        self.banner = ""
        self._text()

    def _make_cat(self, diff):
        if diff == 0:
            self.cat = trapcat_ai.EasyCat(self.board, self.seed)
        elif diff == 1:
            self.cat = trapcat_ai.NormalCat(self.board, self.an)
        else:
            self.cat = trapcat_ai.HardCat(self.board, self.an)

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        """The game in play as a small dict (the board, the cat, the undo
        turns), None when no game is in play."""
        if self.state != PLAY and self.state != CAT_TURN:
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
            "cursor": self.cursor, "cat_turn": self.state == CAT_TURN,
            "undo": undosave.to_text(undosave.dump(self.undo)),
        }

    def restore(self, snap):
        """Play on from ``snapshot()``'s dict; False if it does not fit."""
        size = snap["size"]
        diff = snap["diff"]
        cells = undosave.from_text(snap["cells"])
        undo = undosave.from_text(snap["undo"])
        if diff not in (0, 1, 2) or not 3 <= size <= MAX_SIDE or len(cells) != size * size:
            return False
        fixed = snap["fixed"]
        if fixed is not None:
            fixed = (fixed[0], undosave.from_text(fixed[1]), fixed[2])
        self._set_size(size)
        self.board.load(cells, snap["cat"])
        self.board.moves = snap["moves"]
        self.fixed = fixed
        self.diff = diff
        self.seed = snap["seed"]
        self._make_cat(diff)
        if diff == 0:
            self.cat.rng.a = snap["rng"] & 0x7FFF
            self.cat.rng.b = snap["rng"] >> 15
        undosave.load(self.undo, undo)
        self.cursor = snap["cursor"] % (size * size)
        self.thinking = None
        self.banner = ""
        self.state = PLAY
        if snap["cat_turn"]:
            self.state = CAT_TURN
            self.wait = AI_DELAY
            self.cat.start(self.board)
            self.thinking = self.cat
            self.spin = 0
        self._text()
        return True

    def _text(self):
        best = self.saved.get("best%d" % self.diff, 0)
        self.lines = (
            ("EASY", "NORMAL", "HARD")[self.diff],
            "MOVES %d" % self.board.moves,
            "WON %d LOST %d" % (self.saved.get("won", 0), self.saved.get("lost", 0)),
            ("BEST %d" % best) if best else "BEST -",
        )

    def _move_cursor(self, btn):
        size = self.board.size
        r = self.cursor // size
        c = self.cursor % size
        if btn.repeat(LEFT) and c > 0:
            c -= 1
        elif btn.repeat(RIGHT) and c < size - 1:
            c += 1
        elif btn.repeat(UP) and r > 0:
            r -= 1
        elif btn.repeat(DOWN) and r < size - 1:
            r += 1
        self.cursor = r * size + c

    def _finish(self):
        b = self.board
        won = b.status == trapcat.PLAYER_WON
        if won:
            self.saved["won"] = self.saved.get("won", 0) + 1
            key = "best%d" % self.diff
            if self.fixed is not None:
                pass                         # records are for the random boards
            elif not self.saved.get(key) or b.moves < self.saved[key]:
                self.saved[key] = b.moves
            self.banner = "TRAPPED!"
        else:
            self.saved["lost"] = self.saved.get("lost", 0) + 1
            self.banner = "ESCAPED!"
        self.ctx.store(GAME_ID, self.saved)       # the records (the game in progress ends)
        self.ctx.beep(1500 if won else 200, 120)
        self.state = OVER
        self._text()

    def _push_turn(self, cell):
        """Record the turn that starts with blocking ``cell`` (before it)."""
        u = self.undo
        at = u.push()
        buf = u.buf
        buf[at] = cell
        buf[at + 1] = self.board.cat
        if self.diff == 0:
            rng = self.cat.rng
            u.put30(at + 2, rng.a | rng.b << 15)

    def undo_turn(self):
        """Take back the last block and the cat's reply (or the cat's pending
        move); False when there is nothing to undo.  Allocates nothing (the
        panel's text is the caller's: ``_text()``)."""
        at = self.undo.pop()
        if at < 0:
            return False
        u = self.undo
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
        self.thinking = None
        self.state = PLAY
        self.cursor = buf[at]
        return True

    def frame_key(self):
        """Runtime frame cache: level choice, pack error and the end screen
        (no cursor, no spinner; nothing changes until A/B) are static."""
        if self.state == LEVELS:
            return 1 | (self.choice & 0xFFFFF) << 2
        if self.state == PACK_BAD:
            return 2
        if self.state == OVER and self.thinking is None:
            return 3
        return None

    def tick(self, ctx):
        btn = ctx.buttons
        if btn.pressed(B) and btn.held_ms(B) >= EXIT_HOLD_MS and not self.chord:
            return "exit"
        if self.state == PACK_BAD:
            if btn.just_pressed(A) or btn.just_released(B):
                self.state = PLAY
            return None
        if self.state == LEVELS:
            n = self.pack.count + 1
            if btn.repeat(UP):
                self.choice = (self.choice - 1) % n
                self.choice_text = "< %s >" % self.level_name()
            elif btn.repeat(DOWN):
                self.choice = (self.choice + 1) % n
                self.choice_text = "< %s >" % self.level_name()
            elif btn.just_pressed(A):
                self._choose()
            elif btn.just_released(B):
                return "exit"
            return None
        b = self.board
        if btn.pressed(B) and btn.just_pressed(DOWN):    # B+DOWN: the distance map
            self.chord = True
            self.overlay = not self.overlay
            return None
        if btn.pressed(B) and btn.just_pressed(A):       # B+A: undo
            self.chord = True
            if self.state == OVER or not self.undo_turn():
                ctx.beep(220, 30)
            else:
                self._text()                             # the panel, as after a move
                ctx.save_game()
            return None
        if self.chord:
            if not btn.pressed(B):
                self.chord = False                       # B's release ends it
            return None
        if self.state == OVER:
            if btn.just_pressed(A):
                self._new_game()
            elif btn.just_released(B):
                if self.pack is None:
                    return "exit"
                self.state = LEVELS
            return None
        if self.state == CAT_TURN:
            # the cat thinks in slices (SLICE_MS / SLICE_UNITS per tick) and
            # moves once it is done and AI_DELAY ticks have passed
            self.wait -= 1
            if self.thinking is not None:
                if not self._think(ctx):
                    return None
            if self.wait <= 0:
                cell = self.cat.result
                if not b.can_move(cell):
                    b.free_neighbours(b.cat, self.an.moves)
                    cell = self.an.moves[0]
                b.move_cat(cell)
                if b.status == trapcat.PLAYING:
                    self.state = PLAY
                    self._text()
                    ctx.save_game()
                else:
                    self._finish()
            return None
        self._move_cursor(btn)
        if self.thinking is not None:       # a hint is being worked out
            if btn.just_pressed(A) or btn.just_released(B):
                self.thinking = None        # the player acts first: drop it
            elif self._think(ctx):
                cell = self.hinter.result
                if cell != trapcat.NONE:
                    self.cursor = cell
                return None
            else:
                return None
        if btn.just_released(B):
            self.hinter.start(b)
            self.thinking = self.hinter
            self.spin = 0
        elif btn.just_pressed(A):
            if b.can_block(self.cursor):
                self._push_turn(self.cursor)
                b.block(self.cursor)
                self._text()
                if b.status != trapcat.PLAYING:
                    self._finish()
                else:
                    self.state = CAT_TURN
                    self.wait = AI_DELAY
                    self.cat.start(b)
                    self.thinking = self.cat
                    self.spin = 0
            else:
                ctx.beep(220, 30)
        return None

    def _think(self, ctx):
        """One slice of the running task; True (and no task) when done.  A
        MemoryError inside gives up on it (the cat then takes any move)."""
        task = self.thinking
        done = ctx.ai(task.step, ctx.deadline(SLICE_MS), trapcat_ai.SLICE_UNITS)
        self.spin += 1
        if done is None:
            task.result = trapcat.NONE
            done = True
        if done:
            self.thinking = None
        return done

    def draw(self, fb):
        fb.fill(0)
        if self.state == PACK_BAD:
            userlevels.draw_error(fb, self.pack_error)
            return
        if self.state == LEVELS:
            fb.fill_rect(0, 0, 128, 10, 1)
            fb.text("TRAP THE CAT", 16, 1, 0)
            gfx.text(fb, "LEVEL", 4, 18)
            gfx.center(fb, self.choice_text, 28)
            gfx.text(fb, "UP/DOWN:LEVEL A:PLAY B:EXIT", 4, 57)
            return
        b = self.board
        size = b.size
        cells = b.cells
        cat = b.cat
        cursor = self.cursor if self.state != OVER else -1
        # A free cell's dot is set straight in the frame bytes (ctx.frame, behind fb)
        # when there is one: a pixel() call per dot cost 0.23 ms with the pure-Python
        # framebuf deployed to CircuitPython, and a board has up to 81 dots.
        ctx = self.ctx
        frame = ctx.frame
        width = ctx.width
        height = ctx.height
        dmap = self.dmap
        digits = self.digits
        overlay = self.overlay
        if overlay:
            distance_map(b, dmap, self.dqueue)
        cell = 0
        for r in range(size):
            y = r * CELL
            x = SHIFT if r & 1 else 0
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
                    fb.fill_rect(x + 1, y + 1, 5, 5, 1)
                elif overlay and dmap[cell] != FAR:
                    d = dmap[cell]
                    fb.blit(digits[d if d < 10 else 10], x + 2, y + 1)
                elif frame is None:
                    fb.pixel(x + 3, dot_y, 1)
                elif dot_y < height and x + 3 < width:
                    frame[dot_row + x] |= dot_bit
                if cell == cursor:
                    fb.rect(x, y, CELL, CELL, 1)
                cell += 1
                x += CELL
        px = 70
        gfx.text(fb, "TRAP THE CAT", px, 0)
        y = 10
        for line in self.lines:
            gfx.text(fb, line, px, y)
            y += 8
        if self.thinking is not None:
            gfx.text(fb, THINKING[(self.spin >> 1) & 3], px, 44)
        elif self.state != OVER:
            gfx.text(fb, "B+A:UNDO", px, 44)
        if self.state == OVER:
            gfx.text(fb, self.banner, px, 44)
            gfx.text(fb, "A:AGAIN B:MENU", px, 52)
        else:
            gfx.text(fb, "A:BLOCK B:HINT", px, 52)
