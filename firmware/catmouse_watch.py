"""Cat & Mouse's watch mode: AI against AI, each cat search drawn as it ran.

Before each cat move the cat's own search (gridpath.GridSearch's BFS or A*,
the code the games run, unchanged) runs to the end in one tick, a few ms.
gridpath_order.SearchOrder then reads the order it expanded the cells in from what the
search leaves behind, and the watch draws that order a few cells per tick:
each expanded cell shaded, its reached neighbours boxed (the frontier), then
the path.  The drawing is sliced over ticks and goes into the terrain frame
the scene already copies every tick, so no tick waits on it and nothing is
allocated per frame (tests/test_catmouse_watch.py).

Keys: A pause / run, RIGHT one cell (pauses), UP speed (five steps, round),
LEFT BFS / A* (the search on screen runs again), DOWN next map, B the title.
The mouse is the difficulty setting's (catmouse_ai.MOUSE_SLIPS: random,
evasive with a random move in four, in ten), a task run by the match's job
as in play.

The watch drives the scene's match (catmouse_match.Match: the model play
uses too) through its methods and draws with the scene's map view
(catmouse_view.MapView); it imports neither the scene's module nor play's.
"""

import gfx
import screens
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import catmouse_ai
from catmouse_view import CELL_H, CELL_W
from gridpath import WHOLE

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

SEARCH = const(0)       # drawing the expansions
PATH = const(1)         # the path is drawn: a pause, then the cat moves
MOUSE = const(2)        # the mouse thinks and moves
DONE = const(3)         # caught or escaped: the banner, then the next game
TURN = const(4)         # the cat's turn starts on the next tick (a tick of its own)
LOAD = const(5)         # a game is being set up
# speed steps: cells drawn per tick (0: one cell every _SLOW ticks) and the
# ticks the path stays before the cat moves
_CELLS = (0, 1, 2, 4, 16)
_HOLD = (30, 20, 12, 8, 4)
_SLOW = const(4)
DONE_TICKS = const(90)  # the result shows ~3 s, then the board starts again

_EXPANDED = (          # each catmouse_view.CELL_W x CELL_H
    "........", ".X.X.X..", "........", ".X.X.X..",
    "........", ".X.X.X..", "........")
_FRONTIER = (
    "XXXXXXX.", "X.....X.", "X.....X.", "X.....X.",
    "X.....X.", "X.....X.", "XXXXXXX.")
_PATH = (
    "........", ".XXXXX..", ".XXXXX..", ".XX.XX..",
    ".XXXXX..", ".XXXXX..", "........")


class WatchScreen(screens.Screen):
    """The watch mode of a catmouse_game.Scene (``scene``: its ``match``,
    ``view``, ``ctx``, the title's ``level`` and ``map_text``, and
    ``next_builtin_level()`` / ``to_title()``): it plays both sides on the
    match and draws into the view's terrain frame (``bg``), which draw()
    shows with the pieces and the status bar."""

    def __init__(self, scene):
        self.scene = scene
        self.match = scene.match
        self.view = scene.view
        self.cats = (catmouse_ai.BfsCat(True), catmouse_ai.AstarCat())   # paths drawn
        self.sprites = None          # made while the first game loads
        self.grid_owner = catmouse_ai.EvasiveMouse()
        self.orders = (None, None)
        self.terrain = None
        self.marks = None
        self.blank = None
        self.astar = 0
        self.speed = 2
        self.paused = False
        self.phase = SEARCH
        self.shown = 0
        self.wait = 0
        self.cell = 0
        self.order = None
        self.fresh = False
        self.key = None
        self.part = 0

    def frame_key(self):
        return self.key

    # -- a game, loaded over seven ticks -------------------------------------------------
    def start(self, key=4):
        """A new game on the title's map.  The work is spread over the next
        seven ticks (the heap collected, the map, the grid made and the
        terrain, the grid loaded and the AIs, the order readers, the sprites,
        the first frame), each well inside a tick's time (map and terrain in
        one tick took 34.9 ms on the virtual Pico, 70 % of a tick's budget
        with no frame sent; the readers' import and the sprites 34.6 ms; a new
        grid, loaded, and the AIs 30-32 ms: the grid made is 13 ms, loaded
        15).  The loading allocates ~27 KB: a collection landing in one of
        its 25-30 ms ticks took it to ~50 ms, so the heap is collected first,
        in a tick of its own (ctx.collect).  The frame on screen stays until
        the last (``key``: what frame_key() answers meanwhile)."""
        self.key = key
        self.phase = LOAD
        self.part = 0

    def _load(self):
        part = self.part
        self.part = part + 1
        if part == 0:
            self.scene.ctx.collect()
        elif part == 1:
            self._load_map()
        elif part == 2:
            self.grid_owner.sized(self.match.game.board)     # a new map size: a new grid
            self._load_terrain()
        elif part == 3:
            self._load_ais()
        elif part == 4:
            search = self.grid_owner.search
            if self.orders[0] is None or self.orders[0].search is not search:
                import gridpath_order   # on this tick: an import takes ~20 ms on a Pico
                self.orders = (gridpath_order.SearchOrder(search),
                               gridpath_order.SearchOrder(search))
                self.marks = bytearray(len(search.cost))
                self.blank = bytes(len(search.cost))
        elif part == 5:
            if self.sprites is None:
                self.sprites = (gfx.Sprite(gfx.sprite_rows(_EXPANDED), CELL_W, CELL_H),
                                gfx.Sprite(gfx.sprite_rows(_FRONTIER), CELL_W, CELL_H),
                                gfx.Sprite(gfx.sprite_rows(_PATH), CELL_W, CELL_H))
        else:
            self.key = None             # the new map is drawn: a tick of its own
            self.phase = TURN

    def _load_map(self):
        scene = self.scene
        self.match.new_game(scene.level, scene.map_text, "watch")

    def _load_terrain(self):
        view = self.view
        view.render(self.match.game)
        if self.terrain is None:
            self.terrain = bytearray(len(view.bg))
        self.terrain[WHOLE] = view.bg

    def _load_ais(self):
        """One grid for both cats and the mouse (the mouse's, made in the
        tick before, loaded here), kept from game to game (a new one costs
        most of a tick's time): the mouse thinks only once the drawing is
        done.  The mouse is the difficulty setting's."""
        m = self.match
        ctx = self.scene.ctx
        g = m.game
        owner = self.grid_owner
        owner.prepare(g.board)          # the grid made in the tick before: loaded now
        for cat in self.cats:
            cat.search = owner.search
            cat.loaded = owner.loaded
            cat.prepare(g.board)        # the BFS cat's route buffer: not in a tick of watching
        m.reseed(ctx.ticks_ms())
        slip = catmouse_ai.MOUSE_SLIPS[ctx.settings.get("difficulty", 1)]
        if slip == 1:
            mouse = catmouse_ai.RandomMover(m.seed)
            m.use_ai(catmouse_ai.StrategyTask(mouse), mouse.rng)
        else:                           # Match.start's mouse, on the shared grid
            owner.slip = slip
            owner.rng.seed(m.seed)
            m.use_ai(owner, owner.rng if slip else None)
        self.astar = 1 if g.terrain else 0
        self.order = None
        self.shown = 0
        self._status()

    def next_map(self):
        self.scene.next_builtin_level()
        self.start()

    def _cat_turn(self):
        """Begin a round with the cat's search, or its forced rest."""
        m = self.match
        g = m.game
        self.key = None
        m.begin_round()
        legal = g.legal_moves("cat")
        if len(legal) == 1:
            self.cell = legal[0]
            self.order = None
            self._move_cat()
            return
        self._search()

    def _search(self):
        """Run the cat's search, read its order and start drawing it."""
        g = self.match.game
        cat = self.cats[self.astar]
        self.cell = cat(g.board, g.cat, g.legal_moves("cat"))
        order = self.order = self.orders[self.astar]
        if self.astar:
            order.read_astar(g.cat, g.mouse)
        else:
            order.read_bfs(g.cat, g.mouse)
        self.fresh = True           # the terrain comes back on the next tick
        self.shown = 0
        self.wait = 0
        self.phase = SEARCH
        self._status()

    def _move_cat(self):
        m = self.match
        g = m.game
        m.move("cat", self.cell)
        self.phase = DONE if g.winner else MOUSE
        self.wait = DONE_TICKS
        self._status()

    # -- the tick -------------------------------------------------------------------------
    def tick(self, ctx):
        btn = ctx.buttons
        if btn.just_pressed(B):
            self.scene.to_title()
            return None
        if self.phase == LOAD:
            self._load()
            return None
        if btn.just_pressed(DOWN):
            self.next_map()
            return None
        if btn.just_pressed(UP):
            self.speed = (self.speed + 1) % len(_CELLS)
            self._status()
        if btn.just_pressed(LEFT):
            self.astar ^= 1
            if self.phase <= PATH and self.order is not None:
                self._search()
            self._status()
        if btn.just_pressed(A):
            if self.phase == DONE:
                self.start()
                return None
            self.paused = not self.paused
            self._status()
        step = btn.repeat(RIGHT)
        if step and not self.paused:
            self.paused = True
            self._status()
        if self.paused and not step:
            return None
        self._advance(ctx, step)
        return None

    def _advance(self, ctx, step):
        """One tick of the watch (``step``: one cell or one phase, paused)."""
        phase = self.phase
        if phase == SEARCH:
            if self.fresh:              # the whole frame changes: running, nothing else
                self.view.bg[WHOLE] = self.terrain
                self.marks[WHOLE] = self.blank
                self.fresh = False
                if not step:
                    return
            cells = 1 if step else _CELLS[self.speed]
            if not cells:
                self.wait += 1
                if self.wait < _SLOW:
                    return
                self.wait = 0
                cells = 1
            self._draw_cells(cells)
        elif phase == PATH:
            self.wait -= 1
            if step or self.wait <= 0:
                self._move_cat()
        elif phase == MOUSE:
            m = self.match
            if m.ai_move(ctx, "mouse"):
                m.end_round()
                self.phase = DONE if m.game.winner else TURN
                self.wait = DONE_TICKS
                self._status()
        elif phase == TURN:
            self._cat_turn()
        else:
            self.wait -= 1
            if self.wait <= 0:
                self.start()

    def _draw_cells(self, cells):
        """Shade the next ``cells`` expansions and box their reached
        neighbours; after the last one draw the path."""
        order = self.order
        s = order.search
        fb = self.view.bg_fb
        shade = self.sprites[0].fb
        box = self.sprites[1].fb
        came = s.came if self.astar else s.sides   # 1..4: a cell the search reached
        public = s.public
        steps = s.steps
        marks = self.marks
        cols = s.cols
        end = self.shown + cells
        if end > order.count:
            end = order.count
        for i in range(self.shown, end):
            p = order.cells[i]
            marks[p] = 1
            cell = public[p]
            fb.blit(shade, (cell % cols) * CELL_W, (cell // cols) * CELL_H)
            for k in range(4):
                q = p + steps[k]
                m = came[q]
                if 1 <= m <= 4 and not marks[q]:
                    marks[q] = 2
                    cell = public[q]
                    fb.blit(box, (cell % cols) * CELL_W, (cell // cols) * CELL_H)
        self.shown = end
        if end >= order.count:
            mark = self.sprites[2].fb
            path = s.path
            for i in range(s.path_len):
                cell = path[i]
                fb.blit(mark, (cell % cols) * CELL_W, (cell // cols) * CELL_H)
            self.phase = PATH
            self.wait = _HOLD[self.speed]
        self._status()

    # -- the status bar -------------------------------------------------------------------
    def _status(self):
        """"A* EXP37 LEN12 ST9 SP3" (+ " PAUSE"), or the result, composed in
        the view's preallocated status buffer."""
        view = self.view
        g = self.match.game
        line = view.line
        line.clear()
        if self.phase == DONE:
            line.put(b"CAUGHT! R" if g.winner == "cat" else b"ESCAPED! R")
            line.put_int(g.round)
            line.put(b" A:AGAIN B:MENU")
        else:
            line.put(b"A* EXP" if self.astar else b"BFS EXP")
            line.put_int(self.shown if self.order is not None else 0)
            line.put(b" LEN")
            s = self.cats[self.astar].search
            if self.phase != SEARCH and self.order is not None and s.path_len:
                line.put_int(s.path_len - 1)
            else:
                line.put(b"-")
            line.put(b" ST")
            line.put_int(g.cat_stamina)
            line.put(b" SP")
            line.put_int(self.speed + 1)
            if self.paused:
                line.put(b" PAUSE")
        view.status = line.text()

    def draw(self, fb):
        if self.view.bg is None:        # a toast redraws the title while the first map loads
            self.scene.title.draw(fb)
            return
        self.view.draw(fb, self.match.game)
