"""Klotski (华容道) on the handheld: the scene around klotski.py.

Screens (``screens.Screen``; ``Scene.screen`` is the one on show, the runtime
sees ``Scene``): ``LevelList`` (fewest optimal steps first: name, best /
optimal, "+" solved, "*" perfect, a thumbnail of the layout), ``PlayScreen``
(the board and its panel), ``WinScreen`` and ``gamelevels.PackErrorScreen``;
the pause menu over the board is ``scenekit.Pause`` (``Scene.pause``).
``Scene`` holds what they share: the levels (``gamelevels.Levels``), the board
in play, its undo ring and its solver (a ``SolverTask`` run by a
``work.Job``).  The list and the pack's error are
kept on screen by the runtime's frame cache (``Scene.frame_key``); the list
draws only what changed, into a frame of its own (``LevelList``).

Board: 4 x 5 cells of 12 px on the left (a frame with the exit gap under the
middle columns); the block is a double frame with a solid core, verticals and
horizontals are frames with a bar along their length, soldiers a frame with a
dot.  The piece under the cursor is drawn inverted (solid); a grabbed piece
also shows "MOVE" in the panel.

Controls while playing: arrows move the cursor (leaving the piece it is on);
A grabs / drops the piece; with a piece grabbed the arrows move it one cell.
Moves of the same piece in a row are one step (the standard count: one piece
moved any distance along any path); moving it back to where the step started
cancels the step.  B is every game's (scenekit.Pause): a tap drops the
piece, B+A undoes a step, hold B: menu (hint, auto solve, undo, ...).  A
hint plays the solver's best next move; auto solve plays them all.  A win
with a hint or auto solve is not a record.  Every win ends the game in
progress with ``ctx.finish``.

Pieces: the board model is klotski.py's (``owners``, ``can_shift``,
``shift``, ``is_goal_cells``); ``LayoutUndo`` (an ``undoring.UndoRing``) keeps
the layouts before the last UNDO steps; ``SolverTask`` is the solver's work
and the table cache, in slices.

Solver: one klotski.Solver per piece set, built in the background from the
moment a level opens: each tick the job runs ``step(CHUNK)`` slices while the
tick's deadline allows (one slice is <= ~45 ms on a Pico), with a progress
bar; a MemoryError ends it (the job's "NOT ENOUGH MEMORY", then "NO SOLVER").  A
finished table is written to flash (klotski_cache); a table file in the cache
(the device's own or one ``flash`` put there) is read from the file a word at a
time (klotski_filetable: ``SolverTask.filed``, instant hints, no table in the
heap; a damaged one is removed and built).  The solver's setup ("SOLVER: SETUP"), seeding the goal
layouts and the search itself all come in bounded slices; the one slice that
makes the table gets a tick of its own.  Where no table can be built
(``BUILDS``: CircuitPython) that file is the only way; a level whose table is missing or
whose setup would not fit the heap is marked "NO HINT" in the list before play
and its board says "NO HINTS".

Level pack: ``/levels/klotski.bin`` (firmware/userlevels.py) adds its layouts
after the built-in levels ("PACK i/N"; the optimal step count shows once the
solver has its table).  Only the layout in play (or under the cursor in the
list) is read from the file, by seeking to it.  A bad pack shows "LEVEL PACK
BAD" and the reason, then the built-in list.  ``show_level(text)`` opens a given
layout (``levels preview`` renders packs through it).
"""

import screens
import gc
import sys
from binascii import hexlify, unhexlify   # resident already (savestore): no import cost in a save

from buttons import A, B, DOWN, LEFT, RIGHT, UP
import framebuf
import gfx
import klotski
import klotski_common
import klotski_levels
import gamelevels
import savestore
import scenekit
import undoring
import work

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_SHOWN = const(-1)       # Scene.level of a layout given to show_level()
GAME_ID = "klotski"
_CELL = const(12)
_BX = const(1)            # board origin (inside the frame)
_BY = const(1)
PX = const(54)           # right panel
NONE = const(255)
DOT = const(46)          # '.'
CH_S = const(83)
_CH_V = const(86)
_CH_H = const(72)
CH_B = const(66)
CHUNK = const(16)        # work units per solver slice; tests/test_klotski_game.py measures the ticks
_SLICE_MS = const(22)     # solver time per tick (tick, draw, a slice past it: +8-13 ms; 35 ms ticks at 25)
MAX_SLICES = const(12)   # per tick, whatever the clock says (the simulator's clock stands still)
UNDO = const(200)        # undo depth (10 bytes per step: UndoRing)
_SAVED_UNDO = const(12)  # of which a saved game keeps the newest (its play save stays under
#                          littlefs' 512-byte inline limit: 437 B, a shown layout +20 B)
AUTO_TICKS = const(8)
_FLASH_TICKS = const(10)
_ROWS_SHOWN = const(8)
_MENU_X = const(52)      # the pause menu's box: x 52-127, the whole height (pausemenu._MX)
_WIN_HZ = const(1400)    # beep: solved
# solver phases
_S_NONE = const(0)
S_NEW = const(1)         # constructor runs next tick (after SolverTask.opening's ticks)
S_BUILD = const(2)
S_READY = const(3)
S_FAIL = const(4)
S_SETUP = const(5)       # the solver's setup runs in slices
S_LOAD = const(6)        # then the cache is read
S_SAVE = const(7)        # the finished table is written, a step a tick (klotski_writer.Writer)
S_NO_TABLE = const(8)    # this runtime cannot build the table and has none that fits: no hints
# Where the table can be built beside the runtime: not on
# CircuitPython (no viper kernel, and on 10.2.1 a Pico has ~28 KB free at a
# level's board, where the classic set's build needs ~45 KB before its search).
# There a level's solver reads the table `flash` put on the board from its file,
# when its setup fits the heap (klotski_filetable, loaded only there).
BUILDS = sys.implementation.name != "circuitpython"

# what waits for the solver's table (PlayScreen.pending)
_WANT_NOTHING = const(0)
_WANT_HINT = const(1)
_WANT_AUTO = const(2)
# what a level's opening still has to do before the solver is made (SolverTask.opening)
_O_COLLECT = const(1)    # the old solver, let go, is collected
_O_IMPORT = const(2)     # klotski_filetable imported (the table is a file)
_PINYIN = {
    "横刀立马": "HENG DAO LI MA", "指挥若定": "ZHI HUI RUO DING", "兵分三路": "BING FEN SAN LU",
    "齐头并进": "QI TOU BING JIN", "桃花园中": "TAO HUA YUAN ZHONG", "一路进军": "YI LU JIN JUN",
    "四路进兵": "SI LU JIN BING", "比翼横空": "BI YI HENG KONG", "层层设防": "CENG CENG SHE FANG",
    "水泄不通": "SHUI XIE BU TONG", "走投无路": "ZOU TOU WU LU", "过五关": "GUO WU GUAN",
    "四将连关": "SI JIANG LIAN GUAN",
}


def fit_name(name, width):
    """``name`` cut to ``width`` pixels of the 3x5 font at a word boundary
    ("TAO HUA YUAN", never "TAO HUA YUAN ZHON"); a single long word is cut."""
    n = (width + 1) // gfx.ADVANCE
    if len(name) <= n:
        return name
    cut = name.rfind(" ", 0, n + 1)
    return name[:cut] if cut > 0 else name[:n]


def display_name(name, i):
    """ASCII title for the 3x5 font: pinyin for the traditional names."""
    if name in _PINYIN:
        return _PINYIN[name]
    if len(name.encode()) != len(name):      # not ASCII (iterating the str would
        return "LEVEL %d" % (i + 1)          # intern each character as a name)
    return name.upper()


def check_level(text):
    """The cells of a layout the game can play: klotski's parser and a tiling
    where every piece fits (what klotski.owners() relies on)."""
    cells = klotski.parse(text)
    klotski.anchors(cells)
    return cells


def _cells_of(text, cells):
    """A built-in layout's text (as klotski.to_text writes it: upper case,
    rows joined by "/"; tests/test_klotski.py) into cells, as klotski.parse
    makes them (whose checks cost ~6 ms on the virtual Pico)."""
    raw = text.encode()
    for c in range(20):
        cells[c] = raw[c + c // 4]


class SolverTask(work.Task):
    """The solver of the open level's piece set, built in the background as a
    task for the scene's ``work.Job``: ``phase`` (_S_NONE .. S_SAVE) says
    what the next slice does (``step()``: the constructor, one slice of the
    setup, the cache read, a ``step(CHUNK)`` of the search or a step of the
    cache write); ``cache_status`` is what the cache said ("ok", "missing",
    "written", "full", ...); ``answer`` is the solver once its table is
    complete.

    The work comes in stages, each one run of the job (``step()`` returns
    True at its end and the scene starts the job again for the next stage):
    the constructor, the setup up to and with the table's long slice, the
    rest of the setup, the cache read, the search, each step of the cache
    write.  So the constructor, the table's slice, the cache read and each
    write step have a tick of their own, and the job's estimate of a slice
    (the longest one since it started) is that of the stage's own slices:
    the table's ~24 ms slice would otherwise leave the search's ~1 ms
    slices one a tick.  The search is a stage a tick: the slices that
    allocate its arrays and walk the geometries take up to ~10 ms, the
    kernel's ~1 ms, so each tick expects its own longest slice (the
    estimate of the longest since the search began halved the search's
    share of a tick on the virtual Pico: 98 ticks instead of 49).  ``alone_next()`` is True before the table's slice,
    between the slices of a table file's check (S_LOAD, ``klotski_filetable.Check``:
    its CRC-32 a part a slice, then the probe; the whole check in one slice
    was 27 ms of a 44 ms tick on the virtual Pico) and once a tick has run
    MAX_SLICES slices (the simulator's clock stands still); the scene resets
    ``slices`` each tick.

    Before the constructor, S_NEW has the level's opening to finish
    (``opening``, set by ``want``), a stage each: the old solver collected
    (~20 ms on the virtual Pico, longer on a fuller heap), then, when the
    table is a file, ``klotski_filetable`` imported (~25 ms: four file
    system lookups and the module's load).  In the tick that opened the
    level they were 44 of its 58 ms; the scene runs them in the ticks after
    it, the frame on show kept (``Scene.held``), or at once (``Scene.open_level`` without ``held``)
    where a level opens outside a tick."""

    def __init__(self, ctx):
        root = ctx.cache_dir     # the table cache's directory: the saves' (None: they live in
        self.cache = None if root is None else savestore.OsFs(root)   # memory, no cache)
        self.solver = None       # klotski.Solver of piece_set, None before it is made or after a failure
        self.piece_set = None    # (verticals, horizontals, soldiers) of the open level
        self.phase = _S_NONE     # what the next slice does
        self.cache_status = ""   # what the cache said
        self.writer = None       # the cache write under way (S_SAVE)
        self.slices = 0           # slices run in this tick
        self.ctx = ctx           # for the cache's toasts
        self.builds = BUILDS     # this runtime can build a table
        self.filed = False       # the solver reads its table from the file (klotski_filetable,
        #                          which adds free_before and held: the heap)
        self.opening = 0         # what the level's opening still has to do (_O_COLLECT, _O_IMPORT)
        self.check = None        # the table file's check under way (klotski_filetable.Check)

    def want(self, piece_set):
        """A level of ``piece_set`` is open: True when that needs a new solver
        (the scene then starts its job on this task)."""
        if piece_set == self.piece_set:
            return False
        self._stop_io()
        if not self.builds:          # the old solver's file closed, the heap before the new one
            __import__("klotski_filetable").drop(self)
            self.solver = None
            gc.collect()
        else:                        # the rest of the opening in slices of its own (class notes)
            if self.filed and self.phase == S_READY:
                self.solver.table.close()   # the old solver's table file
            self.solver = None
            self.opening = _O_COLLECT
        # a table file in the cache is read from there (no table array, no
        # build); without one a runtime that builds does so
        self.filed = not self.builds or (self.cache is not None
                                         and klotski_common.has_table(self.cache, piece_set))
        self.answer = work.NO_ANSWER
        self.piece_set = piece_set
        self.phase = S_NEW
        self.cache_status = ""
        return True

    def _stop_io(self):
        # the cache write or the table file's check under way: given up
        if self.writer is not None:
            self.writer.abort()
            self.writer = None
        if self.check is not None:
            self.check.close()
            self.check = None

    def open_step(self):
        """One step of the level's opening (``opening``, class notes)."""
        if self.opening == _O_COLLECT:
            gc.collect()
            self.opening = _O_IMPORT if self.filed else 0
            return
        self.opening = 0
        __import__("klotski_filetable")   # here, not in the slice that reads the file

    def can_solve(self, piece_set):
        """True when a level of ``piece_set`` can have hints here: the table can
        be built, this set's is ready, or klotski_filetable can read it."""
        return (self.builds or (piece_set == self.piece_set and self.phase == S_READY)
                or __import__("klotski_filetable").can_solve(self, piece_set))

    def alone_next(self):
        ph = self.phase
        return (self.slices >= MAX_SLICES or (ph == S_SETUP and self.solver.heavy_next)
                or self.check is not None)

    def step(self):
        """One slice; True at the end of a stage (see the class notes).  Up to
        12 calls a tick: its frame stays within the 11 words MicroPython keeps
        on the C stack (docs/conventions.md, "Call frames")."""
        self.slices += 1
        ph = self.phase
        s = self.solver
        if ph == S_SETUP:
            heavy = s.heavy_next
            if s.setup():
                self.phase = S_LOAD          # the cache read: a tick of its own
                return True
            return heavy
        if ph == S_BUILD:
            if s.step(CHUNK):
                self.phase = S_SAVE          # the cache write: ticks of their own
                return True
            return False
        if ph == S_NEW:
            if self.opening:
                self.open_step()             # a tick each
                return True
            self._new_solver()
        elif ph == S_LOAD:
            if not self._load():
                return False                 # the file's check goes on (alone_next)
        elif ph == S_SAVE:
            self._save()
        if self.phase == S_READY:
            self.answer = self.solver
        return True

    def _new_solver(self):
        # the open level's solver, to be set up (S_SETUP); a method of its own:
        # the constructor's arguments would put step's frame on the heap
        nv, nh, ns = self.piece_set
        self.solver = klotski.Solver(nv, nh, ns, sliced=True, search=not self.filed)
        self.phase = S_SETUP

    def failed(self):
        """A slice ran out of memory (the job showed its toast): drop the
        solver and play on without hints."""
        self._stop_io()
        self.opening = 0
        self.solver = None       # (a table file it read is closed when collected)
        self.phase = S_FAIL
        gc.collect()

    def damaged(self):
        # the table leads nowhere (klotski.TableError): refused as the cache
        # refuses a corrupt file (removed, built again); True: start the job
        ps = self.piece_set
        name = klotski_common.name_for_set(ps)
        self.piece_set = None
        self.want(ps)                     # the solver dropped, S_NEW
        if not self.builds:
            self.phase = S_NO_TABLE
            return False
        if self.cache is not None:
            self.cache.remove(name)
        self.filed = False                # (its file is gone) built
        self.cache_status = "corrupt"
        self.ctx.toast("CACHE CORRUPT - REBUILD", 45)
        return True

    def _load(self):
        """The solver is set up: its finished table may be in the cache.  False
        while the table file's check has slices to go (one a tick)."""
        if self.filed and self.cache is not None:   # the table stays in its file
            ft = __import__("klotski_filetable")
            if not self.builds:           # (the heap it holds noted: can_solve)
                st = self.cache_status = ft.attach_task(self)
                self.phase = S_READY if st == "ok" else S_NO_TABLE
                return True
            c = self.check
            if c is None:
                c = self.check = ft.Check(self.cache, self.solver)
            if not c.step():
                return False
            self.check = None
            st = self.cache_status = c.status
            if st == "ok":
                self.phase = S_READY
            else:                         # a bad file: removed, the table built instead
                self._rebuild(st)
            return True
        self.phase = S_BUILD            # (want() found no file: a table to build)
        if self.cache is not None and not self.cache_status:   # (kept: why a file was refused)
            self.cache_status = "missing"
        return True

    def _rebuild(self, st):
        """The table file could not be read (``st``): build the table instead,
        with a new solver (one made to read a file has no search)."""
        self.filed = False
        self.solver = None
        self.phase = S_NEW
        if st != "missing":
            self.cache_status = st
            self.cache.remove(klotski_common.name_for_set(self.piece_set))
            self.ctx.toast("CACHE " + st.upper() + " - REBUILD", 45)
        gc.collect()

    def _save(self):
        """One step of the table's cache write (the whole write in one tick
        was the scene's longest tick); READY after the last one.  The writer
        (klotski_writer) is imported in a step of its own, after the build,
        and dropped after the write: the build's peak heap does not carry
        it (its notes)."""
        if self.cache is not None:
            kw = sys.modules.get("klotski_writer")
            if kw is None:
                __import__("klotski_writer")
                return
            w = self.writer
            if w is None:
                w = self.writer = kw.Writer(self.cache, self.solver)
            try:
                if not w.step():
                    return
                self.cache_status = "written"
            except OSError as exc:
                full = kw.full(exc)
                self.cache_status = "full" if full else "failed"
                self.ctx.toast("FLASH FULL: NO CACHE" if full else "CACHE WRITE FAILED", 60)
            self.writer = None
            if sys.implementation.name != "cpython" and "klotski_filetable" not in sys.modules:
                sys.modules.pop("klotski_writer")
        self.phase = S_READY

    def progress(self):
        """0..100: layouts reached so far over the table size (the bar jumps to
        the end when the search finishes: layouts of other components are never
        reached)."""
        if self.phase == S_READY:
            return 100
        s = self.solver
        if s is None or not s.size:
            return 0
        p = s.reached * 100 // s.size
        return 99 if p > 99 else p


# a cell's letter by its low 4 bits (ord & 15: "." 14, S 3, V 6, H 8, B 2), the
# code LayoutUndo keeps it in
_LETTERS = b"..BS..V.H......."


class LayoutUndo(undoring.UndoRing):
    """The layouts before the last UNDO steps in an undo ring of 10-byte
    records: a layout two cells a byte (the low 4 bits of a letter tell the
    five apart), so the ring is half the size of the cells."""

    def __init__(self):
        undoring.UndoRing.__init__(self, 10, UNDO)

    def push_layout(self, cells):
        at = self.push()
        u = self.buf
        for i in range(10):
            u[at + i] = (cells[2 * i] & 15) | (cells[2 * i + 1] & 15) << 4

    def drop_if_top(self, cells):
        """Drop the newest layout if it is ``cells``; True if it was."""
        at = self.pop()
        if at < 0:
            return False
        u = self.buf
        for i in range(10):
            if u[at + i] != (cells[2 * i] & 15) | (cells[2 * i + 1] & 15) << 4:
                self.push()          # the same slot: the record is back as it was
                return False
        return True

    def pop_into(self, cells):
        """The newest layout into ``cells`` and off the ring; False if empty."""
        at = self.pop()
        if at < 0:
            return False
        u = self.buf
        for i in range(10):
            b = u[at + i]
            cells[2 * i] = _LETTERS[b & 15]
            cells[2 * i + 1] = _LETTERS[b >> 4]
        return True

    def dump(self, count):
        """The newest ``count`` layouts, oldest first (10 bytes each): a saved
        game's undo.  At most two slices (the ring may wrap), no loop."""
        n = min(self.count, count)
        first = (self.top + UNDO - n) % UNDO
        if first + n <= UNDO:
            return self.buf[10 * first:10 * (first + n)]
        return self.buf[10 * first:] + self.buf[:10 * (first + n - UNDO)]

    def load(self, data):
        """Put ``dump()``'s layouts back (the newest UNDO of them)."""
        if len(data) % 10:
            raise ValueError("undo data is not whole layouts")
        n = min(len(data) // 10, UNDO)
        skip = len(data) // 10 - n
        self.buf[0:10 * n] = data[10 * skip:10 * (skip + n)]
        self.count = n
        self.top = n % UNDO


class Scene(screens.Scene):
    """The scene the runtime runs: the levels (built-in, then the pack's), the
    board in play and its solver, shared by the screens; ``screen`` is the
    one on show (LevelList, PlayScreen, WinScreen or PackError), which ticks
    and draws (``pause``: the menu over it)."""

    def __init__(self, ctx):
        self.saved = scenekit.records(ctx, GAME_ID)   # checked (klotski_saves)
        if "best" not in self.saved:
            self.saved["best"] = {}
        lines = klotski_levels.LEVELS.split("\n")
        n = len(lines)
        self.nb = n                      # built-in levels; pack levels follow
        self.names = [None] * n          # lists of their exact size (appends leave slack)
        self.layouts = [None] * n
        self.optimal = [0] * n
        for i in range(n):
            name, layout, steps = lines[i].split("|")
            self.names[i] = display_name(name, i)
            self.layouts[i] = layout
            self.optimal[i] = int(steps)
        self.shown = None                # layout text of show_level()
        self._cached = -2                # the one pack level held in memory
        self._cached_text = None
        self._pack_opt = None            # solver distance of a pack level's start
        self.stores = 0                  # bests saved: the list shows them
        # the board in play
        self.task = SolverTask(ctx)      # the solver of its piece set
        self.job = work.Job(_SLICE_MS)    # runs the task a slice at a time
        self.level = 0
        self.start = bytearray(20)
        self.cells = bytearray(20)
        self.own = bytearray(20)
        self.undo_ring = LayoutUndo()
        self.steps = 0
        self.last = NONE         # anchor of the piece moved in the current step
        self.helped = False
        self.new_best = False
        self.list_screen = LevelList(self, ctx)
        self.play_screen = PlayScreen(self)
        # the pause menu over the play screen (its lines)
        self.pause = scenekit.Pause(("RESUME", "HINT", "AUTO SOLVE", "UNDO", "RESTART", "RULES",
                                     "LEVELS", "QUIT"))
        self.win_screen = WinScreen(self)
        self.screen = self.list_screen
        self.unsaved = False             # a step, an undo or a restart since the last save
        self.playing = False             # a board is in play (opened, not solved)
        self.held = None                 # a board opened this tick: the frame on show stays (frame_key)
        self.levels = gamelevels.Levels(ctx, GAME_ID, check_level, n)   # built-in, then the pack's
        self.error_screen = gamelevels.PackErrorScreen(self.levels, self.to_list)
        if self.levels.error:
            self.screen = self.error_screen

    def tick(self, ctx):
        job = self.job
        task = self.task
        held = self.held                 # a board opened: its first frame once the opening is done
        self.held = None
        # the opening's steps (SolverTask.opening) run in the ticks after the
        # one that opened the board, the frame on show kept; the table's
        # slices wait in a tick that opens a board (A on the list or the win
        # screen) or draws its first frame, goes to the list (its frame made:
        # B on the win screen or the pack's error), moves the list's selection
        # (its text and thumbnail drawn again) or the menu's bar, or loads the
        # pause menu or the rules (scenekit.Pause.heavy): with them it passed
        # 50 ms on the virtual Pico (38 ms with the menu's bar)
        btn = ctx.buttons
        opening = held is not None and task.opening and job.running()
        if opening:
            self.held = held
        moved = btn.repeat(UP | DOWN | LEFT | RIGHT)
        if self.screen is not self.play_screen:
            moved = moved or btn.just_pressed(A) or btn.just_released(B)
        elif not self.pause.shown:
            moved = False
        if opening or (job.running() and held is None and not self.pause.heavy(btn) and not moved):
            task.slices = 0
            if task.phase == S_BUILD:
                job.start(task)          # the search: a stage a tick (see SolverTask)
            st = job.run(ctx)
            if st == work.DONE:
                if task.phase != S_READY:
                    job.start(task)      # its next stage, from the next tick
            elif st == work.FAILED:
                task.failed()
        play = self.play_screen
        if play.flash_ticks:             # a hint's flash fades whatever is on show
            play.flash_ticks -= 1
            if not play.flash_ticks:
                play.flash = NONE
        if self.pause.shown:
            done = self.menu_tick(ctx)
        else:
            done = self.screen.tick(ctx)
        if self.unsaved:
            self.unsaved = False
            ctx.save_game()
        return done

    # a tick of the pause menu: the line chosen, run
    def menu_tick(self, ctx):
        import pausemenu
        act = pausemenu.tick(self.pause, ctx)
        play = self.play_screen
        if act == "HINT":
            play.request(ctx, _WANT_HINT)
        elif act == "AUTO SOLVE":
            play.request(ctx, _WANT_AUTO)
        elif act == "UNDO":
            if not play.undo():
                scenekit.refuse(ctx, "NOTHING TO UNDO")
        elif act == "RESTART":
            self.restart()
        elif act == "LEVELS":           # the list's frame made now, shown next tick
            self.to_list()
        elif act == "QUIT":
            return "exit"
        return None

    # ------------------------------------------------------------ the game in progress
    def snapshot(self):
        """The board in play as a small dict (level, start, layout, steps,
        the undo layouts), None when no board is in play (runtime.save_game).
        The list keeps the board in play until another level opens."""
        if not self.playing:
            return None
        return {
            "level": self.level, "shown": self.shown, "start": bytes(self.start).decode(),
            "cells": klotski_common.layout_text(self.cells), "steps": self.steps, "last": self.last,
            "helped": self.helped, "cursor": self.play_screen.cursor,
            "undo": hexlify(self.undo_ring.dump(_SAVED_UNDO)).decode(),
        }

    def restore(self, data):
        """Play on from ``snapshot()``'s dict; False if it does not fit
        (klotski_saves: its keys and ranges; the level is not the one saved, the
        layout is not a layout of its pieces, an undo layout is not one, the
        last step's piece is not on its anchor)."""
        import klotski_saves             # dropped again once read
        if not klotski_saves.snapshot(data, self.n_levels()):
            return False
        level = data["level"]
        undo = unhexlify(data["undo"])
        cells = check_level(data["cells"])           # LayoutError: refused
        if level == _SHOWN:
            check_level(data["shown"])
            self.shown = data["shown"]
        elif not 0 <= level < self.n_levels():
            return False
        if level < self.nb and self.layouts[level].replace("/", "") != data["start"]:
            for i in range(self.nb):     # saved before the list was ordered by steps
                if self.layouts[i].replace("/", "") == data["start"]:
                    level = i
        self.open_level(level)
        if self.screen is not self.play_screen or bytes(self.start).decode() != data["start"]:
            return False
        pieces = klotski.piece_set(self.start)
        if klotski.piece_set(cells) != pieces or not klotski_saves.layouts(undo, _LETTERS, pieces):
            return False
        self.cells[:] = cells
        klotski.owners(self.cells, self.own)
        last = data["last"]
        if last != NONE and self.own[last] != last:
            return False
        self.steps = data["steps"]
        self.last = last
        self.helped = data["helped"]
        self.undo_ring.load(undo)
        self.play_screen.reset()
        self.play_screen.cursor = data["cursor"] % 20      # (it may rest on an empty cell)
        self.unsaved = False
        return True

    def draw(self, fb):
        if self.held is not None or self.pause.loading:   # fb still holds the frame on show
            return
        if self.screen is self.list_screen:             # it copies a whole frame
            pass
        elif self.pause.shown and self.pause.rules is None:
            fb.fill_rect(0, 0, _MENU_X, 64, 0)          # the menu's box clears the rest
        else:
            fb.fill(0)
        self.pause.draw_over(self.screen, fb)

    def frame_key(self):
        """The runtime's frame cache (docs/runtime.md): the list and the
        pack's error are redrawn only when this changes, the board every tick.
        In the tick a board opens from the list or the win screen, and in
        the ticks of its opening's steps after it (``SolverTask.opening``),
        the frame on show stays (``held``: the list's key, so it is not even
        drawn; -1 after the win screen, whose frame ``draw`` leaves in fb):
        opening it (the layout parsed, the solver's old table let go: ~10 ms
        on the virtual Pico), collecting that (~20 ms), looking for the
        table's file and importing klotski_filetable (~30 ms) and its first
        frame (~31 ms, the whole panel sent) take a tick each."""
        if self.held is not None:
            return self.held
        if self.screen is self.list_screen and not self.pause.shown:
            return self.list_screen.frame_key()
        return 0 if self.screen is self.error_screen else None

    # ------------------------------------------------------------ the levels
    def pack_bad(self, reason):
        """Drop the pack, show why, then the built-in list."""
        self.levels.drop_pack(reason)
        self._cached = -2
        self._cached_text = None
        self.screen = self.error_screen
        if self.level >= self.nb:
            self.level = 0
            self.list_screen.top = 0

    def n_levels(self):
        return self.levels.count()

    def layout(self, i):
        """Layout text of level ``i``; a pack level is read from the file (one
        level kept in memory).  LevelPackError if the pack cannot be read."""
        if 0 <= i < self.nb:
            return self.layouts[i]
        if i == _SHOWN:
            return self.shown
        if i != self._cached:
            self._cached_text = None
            self._cached_text = self.levels.pack.text(i - self.nb)
            self._cached = i
        return self._cached_text

    def name(self, i):
        if 0 <= i < self.nb:
            return self.names[i]
        if i == _SHOWN:
            return "LEVEL"
        return self.levels.pack_label(i)

    def optimal_of(self, i):
        """Optimal steps of level ``i``, None while unknown (a pack level before
        the solver is ready)."""
        if 0 <= i < self.nb:
            return self.optimal[i]
        if i != self.level:
            return None
        s = self.task.solver
        if self._pack_opt is None and self.task.phase == S_READY and s is not None:
            try:
                self._pack_opt = s.distance(s.rank_of(self.start))
            except klotski.TableError:   # a damaged table: built again
                if self.task.damaged():
                    self.job.start(self.task)
        return self._pack_opt

    def best(self, i):
        if 0 <= i < self.nb:
            key = self.layouts[i]
        elif i == _SHOWN:
            key = self.shown
        elif i == self._cached:
            key = self._cached_text
        else:
            return 0
        return self.saved["best"].get(key, 0)

    def show_level(self, text):
        """Open the layout ``text`` (checked like a pack level)."""
        check_level(text)
        self.shown = text
        self.open_level(_SHOWN)

    def to_list(self):
        """The list, in a tick (a line of the menu, the win screen, the
        pack's error): its frame is made now and shown next tick (``held``,
        LevelList's notes: 47 ms in the tick after the menu's LEVELS)."""
        self.screen = self.list_screen
        if self.level < 0:
            self.level = 0
            self.list_screen.top = 0
        self.list_screen.update()
        self.held = -1

    def open_level(self, i, held=None):
        """Go to level ``i``.  ``held``: the key of the frame on show, which
        stays while the opening's steps run in the next ticks (``frame_key``);
        None: they run now (a level opened outside a tick: CONTINUE, the web
        page's level, show_level)."""
        if i >= self.nb:
            try:
                cells = check_level(self.layout(i))
            except Exception as exc:     # LevelPackError, LayoutError
                import userlevels        # (not a global: gamelevels drops it without a pack)
                self.pack_bad(userlevels.short_reason(exc))
                return
        else:
            cells = klotski.parse(self.layout(i))
        self.level = i
        self._pack_opt = None
        self.start[:] = cells
        self.restart()
        self.screen = self.play_screen
        task = self.task
        ps = klotski.piece_set(self.start)
        if task.want(ps):
            if task.can_solve(ps):       # the list's frame still held, as when it said NO HINT
                self.job.start(task)
            else:
                task.phase = S_NO_TABLE
        self.list_screen.drop_frame()
        if held is None:                 # the opening's steps at once (outside a tick)
            while task.opening:
                task.open_step()
        else:
            self.held = held

    # ------------------------------------------------------------ the board
    def restart(self):
        self.cells[:] = self.start
        klotski.owners(self.cells, self.own)
        self.steps = 0
        self.undo_ring.clear()
        self.last = NONE
        self.helped = False
        self.new_best = False
        self.play_screen.reset()
        self.unsaved = True
        self.playing = True

    def move_piece(self, a, d):
        """Move the piece anchored at a one cell by d; returns the new anchor or
        NONE if blocked."""
        if not klotski.can_shift(self.cells, self.own, a, d):
            return NONE
        self.step(a, a + d, None, d)
        return a + d

    def step(self, frm, to, nxt, d):
        """Play the move of the piece anchored at ``frm`` to ``to``: the board
        becomes ``nxt`` (the solver's layout) or, when that is None, the piece
        shifts by d.  Counts steps the standard way: moves of the same piece
        in a row are one step, and moving it back to where the step started
        cancels the step."""
        if frm != self.last:
            self.undo_ring.push_layout(self.cells)
            self.steps += 1
        if nxt is None:
            klotski.shift(self.cells, frm, d)
        else:
            self.cells[:] = nxt
        klotski.owners(self.cells, self.own)
        self.last = to
        if self.undo_ring.drop_if_top(self.cells):  # back where the step started
            self.steps -= 1
            self.last = NONE
        self.unsaved = True

    def undo(self):
        if not self.undo_ring.pop_into(self.cells):
            return False
        klotski.owners(self.cells, self.own)
        self.steps -= 1
        self.last = NONE
        self.unsaved = True
        return True

    def win(self, ctx):
        """Solved: the game in progress ends with its records (a new best
        unless helped), then the win screen."""
        self.new_best = False
        if not self.helped:
            key = self.layout(self.level)
            old = self.saved["best"].get(key, 0)
            if not old or self.steps < old:
                self.saved["best"][key] = self.steps
                self.new_best = True
                self.stores += 1
        self.playing = False
        self.unsaved = False
        ctx.finish(GAME_ID, self.saved)
        ctx.beep(_WIN_HZ, 150)
        self.screen = self.win_screen


class LevelList(screens.Screen):
    """Name, best / optimal ("+" solved, "*" perfect) of each level and a
    thumbnail of the one under the cursor ("NO HINT" under it where this
    runtime has no table for its piece set: ``SolverTask.can_solve``); A plays
    it, B leaves the game.

    The list keeps its own frame (``frame``, 1 KB, made when the list shows
    and let go while a board is played): ``update`` draws into it only what
    changed since (a row whose level, bar, best or optimum changed, the
    count in the title, the thumbnail, "NO HINT"), and ``draw`` copies it
    into fb.  A tick whose change is heavy (the rows scrolled, a pack
    level's thumbnail read from the file; the first frame after a board:
    ``Scene.to_list``) makes the new frame in the tick and keeps the old one
    on show until the next tick (``Scene.held``): with the whole frame sent
    (~23 ms on the virtual Pico) the list's full drawing (~20 ms) passed
    33 ms in one tick."""

    def __init__(self, game, ctx):
        self.game = game
        self.ctx = ctx                   # ctx.frame: fb's bytes, for the copy
        self.top = 0                     # first row shown
        self.no_hints = False            # the selected level can have no hints here
        self._hints_level = -2           # the level no_hints is for
        self.drop_frame()

    def drop_frame(self):
        """The list's frame and thumbnail go while a board is played (the
        solver's table is built then: its peak heap is the scene's); the list
        makes them again."""
        self.frame = self.frame_fb = self.thumb = self.thumb_own = None
        self._thumb_level = -2

    def tick(self, ctx):
        btn = ctx.buttons
        g = self.game
        n = g.n_levels()
        i = g.level
        if btn.repeat(UP):
            i = (i - 1) % n
        elif btn.repeat(DOWN):
            i = (i + 1) % n
        elif btn.repeat(LEFT):
            i = max(0, i - _ROWS_SHOWN)
        elif btn.repeat(RIGHT):
            i = min(n - 1, i + _ROWS_SHOWN)
        g.level = i
        if i < self.top:
            self.top = i
        elif i >= self.top + _ROWS_SHOWN:
            self.top = i - _ROWS_SHOWN + 1
        if i >= g.nb and i != self._thumb_level:
            try:                          # the thumbnail's layout, read here, not in draw
                g.layout(i)
            except Exception as exc:
                import userlevels
                g.pack_bad(userlevels.short_reason(exc))
                return None
        task = g.task
        if not task.builds and i != self._hints_level:     # (CircuitPython)
            self._hints_level = i
            self.no_hints = not task.can_solve(klotski.piece_set(klotski.parse(g.layout(i))))
        if btn.just_pressed(A):
            g.open_level(i, self.frame_key())   # what is on screen: kept while the board opens
        elif btn.just_released(B):
            return "exit"
        elif self.frame is not None and (self.top != self._drawn_top
                                         or (i >= g.nb and i != self._thumb_level)):
            self.update()                 # heavy: made now, shown next tick (class notes)
            g.held = -1
        return None

    def frame_key(self):
        """About 200 characters of text: the runtime keeps the drawn list
        while the selection, the scroll, the solver's phase (a pack level's
        optimum), the level count and the saved bests stay the same (>= 2**20)."""
        g = self.game
        return (((g.level + 1) * 256 + self.top) * 16 + g.task.phase) * 256 + (g.n_levels() + g.stores) % 256

    def draw(self, fb):
        self.update()
        out = self.ctx.frame
        if out is not None and len(out) == len(self.frame):
            out[:] = self.frame          # fb's bytes: one copy
        else:
            fb.blit(self.frame_fb, 0, 0)

    def update(self):
        """Bring ``frame`` up to date (class notes): what is drawn where is
        what the whole list drawn again would draw."""
        g = self.game
        if self.frame is None:
            self._make()
        f = self.frame_fb
        n = g.n_levels()
        sel = g.level
        if self._drawn_head != sel * 65536 + n:      # "12/81" after the title
            self._drawn_head = sel * 65536 + n
            f.fill_rect(34, 0, 64, 5, 0)
            end = 12
            start = _number(_line, end, n, 0) - 1
            _line[start] = 47            # '/'
            gfx.text_codes(f, _line, _number(_line, start, sel + 1, 0), end, 34, 0)
            gfx.text(f, "BEST/OPT", 64, 0)
        self._drawn_top = self.top
        for k in range(_ROWS_SHOWN):
            self._row(f, k, self.top + k, n, sel)
        if self._thumb_level != sel:
            self._thumb(f, sel)
        if self._drawn_hint != self.no_hints:
            self._drawn_hint = self.no_hints
            f.fill_rect(100, 56, 28, 5, 0)
            if self.no_hints:
                gfx.text(f, "NO HINT", 100, 56)

    def _make(self):
        # the frame with what never changes: the rule under the title (or
        # the first row's bar over it: y 6 is lit either way), the title, A/B
        self.frame = bytearray(1024)
        f = self.frame_fb = framebuf.FrameBuffer(self.frame, 128, 64, framebuf.MONO_VLSB)
        self.thumb = bytearray(20)
        self.thumb_own = bytearray(20)
        self._drawn = [-1] * (2 * _ROWS_SHOWN)   # per row: what it shows (_row), its best
        self._drawn_head = -1
        self._drawn_hint = None
        self._drawn_top = self.top
        self._thumb_level = -2
        f.hline(0, 6, 98, 1)
        gfx.text(f, "KLOTSKI", 1, 0)
        gfx.text(f, "A:PLAY", 101, 40)
        gfx.text(f, "B:EXIT", 101, 47)

    def _row(self, f, k, i, n, sel):
        # row k (level i): its band of 7 px, the bar when selected, and
        # "best/optimal" ("-" no best yet, "?" optimum unknown)
        drawn = self._drawn
        d = 2 * k
        if i < n:
            opt = self.game.optimal_of(i)
            best = self.game.best(i)
        else:
            i = -1
            opt = None
            best = 0
        bar = 1 if i == sel else 0
        # what the row shows: its level, bar and optimum (<= klotski.MAX_STEPS) in one int
        key = ((i + 1) * 2 + bar) * 512 + (0 if opt is None else opt + 1)
        if drawn[d] == key and drawn[d + 1] == best:
            return
        drawn[d] = key
        drawn[d + 1] = best
        y = 8 + 7 * k
        f.fill_rect(0, y - 1, 98, 7, bar)
        if i < 0:
            return
        end = 12
        start = _number(_line, end, opt, 63) - 1
        _line[start] = 47
        start = _number(_line, start, best or None, 45)
        x = 98 - (end - start) * gfx.ADVANCE
        c = 1 - bar
        if best:                     # the mark: "*" perfect (best = optimal), "+" solved
            gfx.text(f, "*" if best == opt else "+", 1, y, c)
        gfx.text(f, fit_name(self.game.name(i), x - 8), 5, y, c)
        gfx.text_codes(f, _line, start, end, x, y, c)

    def _thumb(self, f, sel):
        # the thumbnail of the selected layout (x 103-124, y 0-31): a built-in
        # one from its text, a pack's parsed (it was read by the tick); a
        # failure draws no pieces
        g = self.game
        thumb = self.thumb
        try:
            if 0 <= sel < g.nb:
                _cells_of(g.layouts[sel], thumb)
            else:
                thumb[:] = klotski.parse(g.layout(sel))
        except Exception:
            for c in range(20):
                thumb[c] = DOT
        klotski.owners(thumb, self.thumb_own)
        f.fill_rect(103, 0, 22, 32, 0)
        draw_layout(f, thumb, self.thumb_own, 104, 4, 5, NONE, NONE, False)
        self._thumb_level = sel


class PlayScreen(screens.Screen):
    """The board in play and its panel: the cursor, a grabbed piece, the
    flash of the piece a hint moved, auto solve, and a hint or auto solve
    waiting for the solver's table (``pending``)."""

    def __init__(self, game):
        self.game = game
        self.cursor = 0
        self.grabbed = False
        self.auto = False
        self.auto_wait = 0
        self.pending = _WANT_NOTHING
        self.flash = NONE
        self.flash_ticks = 0

    def reset(self):
        """A new board: the cursor on the block, nothing grabbed or waiting."""
        own = self.game.own
        cells = self.game.cells
        self.grabbed = False
        self.auto = False
        self.pending = _WANT_NOTHING
        self.flash = NONE
        c = 0
        while own[c] == NONE or cells[c] != CH_B:
            c += 1
        self.cursor = c

    def tick(self, ctx):
        g = self.game
        btn = ctx.buttons
        if self.pending and g.task.phase == S_READY:
            self.request(ctx, self.pending)
        if self.auto:                    # a hint every AUTO_TICKS ticks; any key stops it
            if btn.just_pressed(A | B | UP | DOWN | LEFT | RIGHT):
                self.auto = False
                if btn.pressed(B):
                    g.pause.used = True        # that press of B only stops it
                return None
            self.auto_wait -= 1
            if self.auto_wait <= 0:
                self.auto_wait = AUTO_TICKS
                if not self.hint():
                    self.auto = False
                    ctx.toast("NO SOLUTION", 45)
                else:
                    self.after_move(ctx)
            return None
        ev = g.pause.poll(btn, True)     # B: tap = drop, B+A = undo, hold = menu
        if ev == "undo":
            if not self.undo():
                scenekit.refuse(ctx, "NOTHING TO UNDO")
        elif ev:                         # the menu (dropped), a tap (drop)
            self.grabbed = False
        if ev:
            return None
        d = 0
        if btn.repeat(LEFT):
            d = -1
        elif btn.repeat(RIGHT):
            d = 1
        elif btn.repeat(UP):
            d = -4
        elif btn.repeat(DOWN):
            d = 4
        if d:
            if not self.grabbed:
                self.move_cursor(d)
            elif g.move_piece(g.own[self.cursor], d) == NONE:
                scenekit.refuse(ctx, "BLOCKED")
            else:
                self.cursor += d
                self.after_move(ctx)
        elif btn.just_pressed(A):
            if self.grabbed:
                self.grabbed = False
            elif g.own[self.cursor] != NONE:
                self.grabbed = True
        return None

    def move_cursor(self, d):
        """The cursor one cell by d, on past the cells of the piece it leaves."""
        own = self.game.own
        c = self.cursor
        a = own[c]
        while True:
            q = c + d
            if q < 0 or q >= 20 or ((d == 1 or d == -1) and q // 4 != c // 4):
                return
            c = q
            if a == NONE or own[c] != a:
                self.cursor = c
                return

    def after_move(self, ctx):
        if klotski.is_goal_cells(self.game.cells):
            self.auto = False
            self.game.win_screen.open(self.grabbed)
            self.grabbed = False
            self.game.win(ctx)

    def undo(self):
        """Undo a step; False when there is none."""
        own = self.game.own
        if not self.game.undo():
            return False
        self.grabbed = False
        if own[self.cursor] == NONE:
            for c in range(20):
                if own[c] != NONE:
                    self.cursor = c
                    break
        return True

    def hint(self):
        """Play the solver's best next move and flash it; False if there is
        no table or no move."""
        g = self.game
        s = g.task.solver
        if g.task.phase != S_READY or s is None:
            return False
        mv = s.best_move(s.rank_of(g.cells))
        if mv is None:
            return False
        to = mv[1]
        g.step(mv[0], to, s.cells_of(mv[2]), 0)
        g.helped = True
        self.grabbed = False
        self.cursor = to
        self.flash = to
        self.flash_ticks = _FLASH_TICKS
        return True

    def request(self, ctx, what):
        """_WANT_HINT or _WANT_AUTO (solve): now if the table is ready, else when it is."""
        task = self.game.task
        if task.phase == S_FAIL:
            ctx.toast("NO SOLVER", 45)
            return
        if task.phase == S_NO_TABLE:
            ctx.toast("NO HINTS", 45)
            return
        if task.phase != S_READY:
            self.pending = what          # the panel says so (status): no toast over it
            return
        self.pending = _WANT_NOTHING
        if what == _WANT_AUTO:
            self.auto = True
            self.auto_wait = 0
            self.game.helped = True
        elif not self.hint():
            ctx.toast("NO MOVE", 30)
        else:
            self.after_move(ctx)

    def status(self):
        ph = self.game.task.phase
        if ph == S_READY:
            return "HINTS READY"
        if ph == S_FAIL:
            return "NO SOLVER"
        if ph == S_NO_TABLE:
            return "NO HINTS"
        if self.pending:                 # a hint or auto solve asked for: it waits
            return ("HINT" if self.pending == _WANT_HINT else "AUTO") + " WAITS %d%%" % self.game.task.progress()
        if ph == S_NEW or ph == S_SETUP or ph == S_LOAD:
            return "SOLVER: SETUP"
        return "SOLVING %d%%" % self.game.task.progress()

    def draw(self, fb):
        g = self.game
        self.draw_board(fb, g.own[self.cursor], True)
        if not g.pause.shown:
            self.draw_panel(fb)
        else:                            # the menu's box covers the panel (~5 ms)
            g.optimal_of(g.level)        # (what the panel asks: a damaged table is found)

    def draw_board(self, fb, sel, playing):
        """The board with the piece ``sel`` and a flashed one inverted; while
        ``playing``, a grabbed piece's cut corners or the cursor on an empty cell."""
        g = self.game
        draw_layout(fb, g.cells, g.own, _BX, _BY, _CELL, sel, self.flash, playing and self.grabbed)
        if playing and sel == NONE:
            c = self.cursor
            x = _BX + (c % 4) * _CELL
            y = _BY + (c // 4) * _CELL
            fb.rect(x + 3, y + 3, _CELL - 6, _CELL - 6, 1)

    def draw_panel(self, fb):
        g = self.game
        i = g.level
        gfx.text(fb, fit_name(g.name(i), 128 - PX), PX, 1)
        # the numbers after their labels, made in _line: no str a frame
        _labelled(fb, b"STEPS ", g.steps, 0, 9)
        _labelled(fb, b"OPTIMAL ", g.optimal_of(i), 63, 16)     # '?'
        _labelled(fb, b"BEST ", g.best(i) or None, 45, 23)      # '-'
        gfx.text(fb, self.status(), PX, 32)
        if g.task.phase != S_READY:
            fb.rect(PX, 38, 72, 4, 1)
            fb.fill_rect(PX + 1, 39, 70 * g.task.progress() // 100, 2, 1)
        if self.auto:
            gfx.text(fb, "AUTO SOLVING", PX, 46)
            gfx.text(fb, "ANY KEY: STOP", PX, 53)
        elif self.grabbed:
            gfx.text(fb, "MOVE: ARROWS", PX, 46)
            gfx.text(fb, "A/B: DROP", PX, 53)
        else:
            gfx.text(fb, "A:GRAB B+A:UNDO", PX, 46)
            gfx.text(fb, "HOLD B: MENU", PX, 53)


class WinScreen(screens.Screen):
    """The solved board and the result beside it; A: the next level, B: the
    list (after a win with the piece grabbed, the first A or B drops it)."""

    def __init__(self, game):
        self.game = game
        self.armed = False
        self.drop_first = False

    def open(self, grabbed):
        self.armed = False
        self.drop_first = grabbed

    def tick(self, ctx):
        btn = ctx.buttons
        g = self.game
        if not scenekit.settled(self, btn):
            return None
        if self.drop_first and (btn.just_pressed(A) or btn.just_released(B)):
            self.drop_first = False
        elif btn.just_pressed(A):
            if 0 <= g.level and g.level + 1 < g.n_levels():
                g.open_level(g.level + 1, -1)   # the board drawn once open (Scene.frame_key)
            else:
                g.to_list()
        elif btn.just_released(B):
            g.to_list()
        return None

    def draw(self, fb):
        g = self.game
        g.play_screen.draw_board(fb, NONE, False)
        i = g.level
        gfx.box(fb, PX - 2, 0, 76, 64)
        fb.text("SOLVED", PX + 4, 3, 1)
        gfx.text(fb, "YOUR STEPS %d" % g.steps, PX + 1, 15)
        opt = g.optimal_of(i)
        gfx.text(fb, ("OPTIMAL %d" % opt) if opt is not None else "OPTIMAL ?", PX + 1, 22)
        if g.helped:
            gfx.text(fb, "WITH HELP:", PX + 1, 31)
            gfx.text(fb, "NO RECORD", PX + 1, 37)
        else:
            b = g.best(i)
            gfx.text(fb, "BEST %d%s" % (b, " NEW!" if g.new_best else ""), PX + 1, 31)
            if g.steps == opt:
                gfx.text(fb, "PERFECT!", PX + 1, 37)
        gfx.text(fb, "A:NEXT B:BACK", PX + 1, 52)


_line = bytearray(12)        # numbers being drawn ("12/81", "STEPS 5"): see _number


def _number(buf, end, value, blank):
    """``value`` (>= 0) in digits, or the char ``blank`` for None, into buf up
    to end; returns where it starts (a str's formatting costs far more)."""
    end -= 1
    if value is None:
        buf[end] = blank
        return end
    while value > 9:
        buf[end] = 48 + value % 10
        value //= 10
        end -= 1
    buf[end] = 48 + value
    return end


def _labelled(fb, label, value, blank, y):
    """The panel's ``label`` (bytes) and ``_number``'s value after it, at
    (PX, y): one text call for the two (a call costs ~0.3 ms on the
    virtual Pico; the glyphs are those of two)."""
    start = _number(_line, 12, value, blank) - len(label)
    if start < 0:                        # (7 digits or more: no room before them)
        gfx.text_codes(fb, _line, start + len(label), 12, gfx.text(fb, label, PX, y), y)
        return
    for k in range(len(label)):
        _line[start + k] = label[k]
    gfx.text_codes(fb, _line, start, 12, PX, y)


# ------------------------------------------------------------ drawing a layout
def draw_layout(fb, cells, own, x0, y0, size, sel, flash, grabbed):
    """The frame with its exit gap and the pieces of ``cells`` (anchors in
    ``own``) in cells of ``size`` px: framed pieces with ``sel`` and
    ``flash`` inverted (``grabbed``: with cut corners), or (size < 8) the
    thumbnail's outlines."""
    bw = 4 * size
    bh = 5 * size
    fb.vline(x0 - 1, y0 - 1, bh + 2, 1)
    fb.vline(x0 + bw, y0 - 1, bh + 2, 1)
    fb.hline(x0 - 1, y0 - 1, bw + 2, 1)
    fb.hline(x0 - 1, y0 + bh, size + 1, 1)           # exit gap under columns 1-2
    fb.hline(x0 + 3 * size, y0 + bh, size + 1, 1)
    for a in range(20):
        if own[a] != a:
            continue
        ch = cells[a]
        x = x0 + (a % 4) * size
        y = y0 + (a // 4) * size
        w = (2 if ch == CH_B or ch == _CH_H else 1) * size
        h = (2 if ch == CH_B or ch == _CH_V else 1) * size
        if size < 8:              # the thumbnail: outlines, the block solid
            if ch == CH_B:
                fb.fill_rect(x, y, w - 1, h - 1, 1)
            else:
                fb.rect(x, y, w - 1, h - 1, 1)
            continue
        w -= 2
        h -= 2
        x += 1
        y += 1
        inv = a == sel or a == flash
        c = 0 if inv else 1
        if inv:
            fb.fill_rect(x, y, w, h, 1)
        else:
            fb.rect(x, y, w, h, 1)
        if ch == CH_B:
            fb.rect(x + 2, y + 2, w - 4, h - 4, c)
            fb.fill_rect(x + 6, y + 6, w - 12, h - 12, c)
        elif ch == _CH_V:
            fb.fill_rect(x + w // 2 - 1, y + 3, 2, h - 6, c)
        elif ch == _CH_H:
            fb.fill_rect(x + 3, y + h // 2 - 1, w - 6, 2, c)
        else:
            fb.fill_rect(x + 3, y + 3, w - 6, h - 6, c)
        if grabbed and inv:
            # grabbed: black corners cut into the solid piece
            fb.hline(x, y, 2, 0)
            fb.pixel(x, y + 1, 0)
            fb.hline(x + w - 2, y, 2, 0)
            fb.pixel(x + w - 1, y + 1, 0)
            fb.hline(x, y + h - 1, 2, 0)
            fb.pixel(x, y + h - 2, 0)
            fb.hline(x + w - 2, y + h - 1, 2, 0)
            fb.pixel(x + w - 1, y + h - 2, 0)

