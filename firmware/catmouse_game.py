"""Cat & Mouse on the handheld: the scene around catmouse.py and catmouse_ai.py.

Screens, one object each (``Scene.screen`` is the one on show; the runtime
sees ``Scene``): ``TitleScreen`` (the side and the map), ``PlayScreen``,
``EndScreen`` (the result over the map), gamelevels' ``PackErrorScreen`` and
the watch mode (catmouse_watch.WatchScreen, imported when first chosen).
``Scene`` holds what they share: the levels (gamelevels.Levels: the built-in
maps, then a level pack's), the title's choices, the records, the match
(catmouse_match.Match: the model that play and watch both drive) and the map
view (catmouse_view.MapView).

Flow: the title picks the side (LEFT/RIGHT: mouse, cat or watch) and the map
(UP/DOWN), A starts, B goes back to the launcher.  A level pack at
``/levels/catmouse.bin`` (firmware/userlevels.py) adds its maps after the
built-in ones ("PACK i/N"), each read from the file when it is started; a bad
pack shows "LEVEL PACK BAD" and the reason first, then the built-in maps.  In
play the arrows move the player's piece one cell per round (A = stay: wait
a round, either side); the AI answers a few ticks later.  The difficulty setting picks the
AI: easy = a cat that wanders one move in three / a random mouse, normal =
BFS cat / evasive mouse, hard = A* (least stamina) cat / evasive mouse.  B
is every game's (scenekit.Pause): B+A undoes a round (back to the player's
last move, with the AI's RNG state: catmouse_match.UNDO_DEPTH rounds in an
undo ring), holding B opens the pause menu.
Every ending (caught or escaped, won or lost) goes through ``ctx.finish``:
the game in progress is cleared, then the records stored (wins and losses
per side and the fastest catch over all maps; per map and difficulty, wins,
losses and bests: catmouse_records, shown on the title).  Nothing is allocated in a tick of play, moves
and undo included: the status text is composed in a preallocated buffer when
it changes, and the AI is a task run by a ``work.Job``
(tests/test_catmouse_alloc.py).
"""

import screens
import gfx
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import catmouse
import catmouse_maps
import catmouse_match
import catmouse_view
import gamelevels
import scenekit

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

GAME_ID = "catmouse"
_AI_DELAY = const(4)   # ticks between the player's move and the AI's answer
_MOVES = const(31)    # UP | DOWN | LEFT | RIGHT | A
_SCREEN_COLS = const(16)  # 8 x 7 px cells above the status bar (catmouse_view)
_SCREEN_ROWS = const(8)
_SIDES = ("mouse", "cat", "watch")


def check_level(text):
    """A pack level the game can play: catmouse's parser, and a map that fits
    the 16 x 8 cells of the screen."""
    cmap = catmouse.parse_map(text)
    if cmap.cols > _SCREEN_COLS or cmap.rows > _SCREEN_ROWS:
        raise ValueError("the map is %dx%d; the screen fits %dx%d"
                         % (cmap.cols, cmap.rows, _SCREEN_COLS, _SCREEN_ROWS))
    return cmap


def _pack_map(text):
    """A pack level's text once check_level passes it (gamelevels.Levels.read
    gives this: the match keeps the text, for the play save)."""
    check_level(text)
    return text


class Scene(screens.Scene):
    """The scene the runtime runs (see the module notes)."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.view = catmouse_view.MapView(ctx)
        self.saved = scenekit.records(ctx, GAME_ID)   # checked (catmouse_saves)
        self.side = "mouse"         # the title's choices: mouse, cat or watch
        self.level = 0
        self.map_text = None        # the chosen pack level's (or shown) map; None: built-in
        self.match = catmouse_match.Match(ctx.ticks_ms() & 0xFFFF)
        self.undo_ring = self.match.undo_ring  # the match's undo ring (the same object)
        self.title = TitleScreen(self)
        self.play = PlayScreen(self)
        self.end = EndScreen(self)
        self.watch = None           # the watch mode, made when first chosen
        self.held = None            # a game started (or the title made) this tick: the frame on show stays
        self.rendering = False      # and its map is rendered in the next (begin_play)
        # B in play and the pause menu (its lines)
        self.pause = scenekit.Pause(("RESUME", "UNDO", "RESTART", "RULES", "QUIT"))
        self.screen = self.title
        self.levels = gamelevels.Levels(ctx, GAME_ID, _pack_map, len(catmouse_maps.LEVELS))
        self.error_screen = gamelevels.PackErrorScreen(self.levels, self.to_title)
        if self.levels.error:
            self.screen = self.error_screen
        self.title.refresh()

    def tick(self, ctx):
        if self.held is not None:       # a game started: its map rendered, then its first frame only;
            #                             the title made (to_title): its first frame only
            if self.rendering:
                self.rendering = False
                self.render_play()
            else:
                self.held = None
            return None
        if not self.pause.shown:
            return self.screen.tick(ctx)
        import pausemenu                # the pause menu: the line chosen, run
        act = pausemenu.tick(self.pause, ctx)
        if act == "UNDO":
            self.play.chord_undo(ctx)
        elif act == "RESTART":
            self.begin_play()
        elif act == "QUIT":
            return "exit"
        return None

    def draw(self, fb):
        # each screen draws all of it: the map's terrain copy covers the
        # whole frame, so no fill first (161k VM fuel a frame)
        if self.held is not None or self.pause.loading:   # fb still holds the frame on show
            return
        self.pause.draw_over(self.screen, fb)

    def frame_key(self):
        """Runtime frame cache: the title and the pack's error are static, the
        watch mode keeps the title while it loads; play and the end screen
        (the winning cat blinks) are drawn every tick; in the tick a game
        starts or the title is made the frame on show stays (``held``)."""
        if self.held is not None:
            return self.held
        return self.screen.frame_key()

    # -- the levels ---------------------------------------------------------------
    def n_levels(self):
        return self.levels.count()

    def open_level(self, i):
        """The title screen with level ``i`` chosen (the web page's ``?level=``)."""
        self.level = i
        self.title.refresh()
        return True

    def level_name(self, i):
        if self.levels.in_pack(i):
            return self.levels.pack_label(i)
        return catmouse_maps.LEVELS[i][0]

    def pack_bad(self):
        """The pack was dropped (``levels.error`` says why): its error screen,
        then the title on a built-in map."""
        if self.level >= self.levels.n_builtin:
            self.level = 0
        self.screen = self.error_screen
        self.title.refresh()

    def next_builtin_level(self):
        """The next built-in map on the title (the watch mode's DOWN)."""
        self.level = (self.level + 1) % len(catmouse_maps.LEVELS)
        self.map_text = None
        self.title.refresh()

    # -- screens --------------------------------------------------------------------
    def to_title(self):
        """The title (the end screen's and the watch's B, the pack error's A)
        over two ticks, as ``begin_play``: its lines made with the frame on
        show kept (the map's record: catmouse_records imported), then the
        title drawn and sent.  In one tick the three came to 47 ms on the
        virtual Pico (13 + 7 ms and a whole frame's 23 ms); so the title is
        drawn in the first tick too, into the map view's terrain frame when
        there is one (a map was shown: nothing reads it while the title
        shows), and its first frame is a copy of it (33 ms -> 26 ms)."""
        self.screen = title = self.title
        title.refresh()
        self.held = -1
        if self.view.bg is not None:
            title.paint(self.view.bg_fb, self.view.bg)
            title.painted = True

    def show_level(self, text):
        """Start play on a map given as text (a level from a pack); "A: again"
        replays it.  ``levels preview`` renders levels through this."""
        self.map_text = text
        self.start_play()

    def start_play(self, diff=None):
        """A new game on the chosen map and side (``diff``: the settings' if None)."""
        self.set_up_play(diff)
        self.render_play()

    def set_up_play(self, diff=None):
        ctx = self.ctx
        if diff is None:
            diff = ctx.settings.get("difficulty", 1)
        self.match.start(self.level, self.map_text, self.side, diff, ctx.ticks_ms())

    def render_play(self):
        """The new game's map rendered, the play screen on."""
        self.view.render(self.match.game)
        self.play.reset()
        self.screen = self.play
        self.play.update_status()
        self.title.bar.rows = None  # the title's 256 B go while a game is on (made again)
        self.pause.reminder = 60    # frames of "HOLD B: MENU" over the map

    def begin_play(self):
        """``start_play`` from a tick (the title's A, RESTART, A: AGAIN) over
        three ticks, the frame on show kept in the first two: the match set
        up (24 ms on the virtual Pico), the map rendered (11 ms), then the map
        drawn and sent, with no play in it (the AI's board loads in the one
        after: Match.ready).  All in one tick with a whole frame sent came to
        66 ms, the first two together to 36 ms."""
        self.set_up_play()
        self.rendering = True
        self.held = -1

    def start_watch(self):
        """Watch mode (catmouse_watch.py, imported when first chosen)."""
        if self.watch is None:
            import catmouse_watch
            self.watch = catmouse_watch.WatchScreen(self)
        self.watch.start(self.screen.frame_key())   # the title stays while it loads
        self.screen = self.watch

    def end_game(self, ctx):
        """The game ended: the records (a win or a loss for the player's
        side, the fastest catch; the map's record at the game's difficulty)
        through ctx.finish, then the end screen."""
        m = self.match
        g = m.game
        won = g.winner == m.side
        saved = self.saved
        key = ("wins_" if won else "lost_") + m.side
        saved[key] = saved.get(key, 0) + 1
        if won and m.side == "cat":
            best = saved.get("best_catch", 0)
            if not best or g.round < best:
                saved["best_catch"] = g.round
        import catmouse_records as cr   # dropped again once used
        cr.add(saved, cr.map_key(m.level, m.map_text), m.diff, m.side, won, g.round)
        cr.done()
        ctx.finish(GAME_ID, saved)
        if g.winner == "cat":
            banner = b"YOU CAUGHT IT!" if won else b"CAUGHT!"
        else:
            banner = b"ESCAPED!" if won else b"IT ESCAPED!"
        ctx.beep(1500 if won else 200, 120)
        self.end.show(banner)
        self.screen = self.end

    # -- the game in progress (runtime.save_game, CONTINUE) ---------------------------
    def snapshot(self):
        """The game in play (catmouse_match.Match.snapshot), None when no game
        is in play (the title keeps it until another starts)."""
        if self.screen is not self.play and self.screen is not self.title:
            return None
        return self.match.snapshot()

    def restore(self, snap):
        """Play on from ``snapshot()``'s dict; False if it does not fit
        (catmouse_saves: its keys and ranges, a level this scene offers; a pack's
        map that ``check_level`` passes; the records inside: Match.restore)."""
        import catmouse_saves           # dropped again once read
        if not catmouse_saves.snapshot(snap, self.levels.count()):
            return False
        if snap["map"] is not None:
            check_level(snap["map"])        # MapError, ValueError: refused
        m = self.match
        if not m.restore(snap, self.ctx.ticks_ms(), catmouse_saves.places):
            return False
        self.side = m.side
        self.level = m.level
        self.map_text = m.map_text
        self.view.render(m.game)
        self.play.reset()
        self.play.resume()
        self.pause.reminder = 60    # frames of "HOLD B: MENU" over the map
        return True

    def undo(self):
        """B+A: back to the player's last chosen move; False when there is none."""
        return self.play.undo()


class TitleScreen(screens.Screen):
    """PLAY AS (mouse, cat, watch), the map, its record at the difficulty
    setting for that side, the wins over all maps; A starts, B leaves."""

    def __init__(self, scene):
        self.scene = scene
        self.lines = ("", "", "")
        self.gen = 0                # changes with the lines: the frame cache's key
        self.painted = False        # Scene.to_title drew it into the map view's bg: copy that once
        self.bar = scenekit.TitleBar("CAT & MOUSE", 20)

    def refresh(self):
        scene = self.scene
        self.gen += 1
        saved = scene.saved
        import catmouse_records as cr   # the map's record line; dropped again once used
        self.lines = (
            "PLAY AS: < %s >" % scene.side.upper(),
            "MAP:     %s" % scene.level_name(scene.level).upper(),
            cr.title_line(scene),
            "ALL MAPS: WINS MOUSE %d  CAT %d" % (saved.get("wins_mouse", 0),
                                                 saved.get("wins_cat", 0)),
        )
        cr.done()

    def frame_key(self):
        return 1 | (self.gen & 0xFFFFF) << 2

    def tick(self, ctx):
        btn = ctx.buttons
        scene = self.scene
        if btn.just_pressed(B):
            return "exit"
        if btn.repeat(LEFT | RIGHT):
            back = btn.repeat(LEFT)
            scene.side = _SIDES[(_SIDES.index(scene.side) + (2 if back else 1)) % 3]
            self.refresh()
        elif btn.repeat(UP):
            scene.level = (scene.level - 1) % scene.n_levels()
            self.refresh()
        elif btn.repeat(DOWN):
            scene.level = (scene.level + 1) % scene.n_levels()
            self.refresh()
        elif btn.just_pressed(A):
            self.start(scene)
        return None

    def start(self, scene):
        """A: the chosen map (a pack level: read now) in play or watched."""
        levels = scene.levels
        if levels.in_pack(scene.level):
            text = levels.read(scene.level)
            if text is None:            # the pack went bad: levels.error says why
                scene.pack_bad()
                return
            scene.map_text = text
        else:
            scene.map_text = None
        if scene.side == "watch":
            scene.start_watch()
        else:
            scene.begin_play()

    def draw(self, fb):
        view = self.scene.view
        if self.painted:
            self.painted = False
            view.copy_bg(fb)
            return
        self.paint(fb, self.scene.ctx.frame)

    def paint(self, fb, frame):
        """The title into ``fb``, whose bytes are ``frame`` (or None)."""
        view = self.scene.view
        fb.fill(0)
        self.bar.draw(fb, frame, self.scene.ctx.width)
        view.cat_sprite.draw(fb, 4, 14)
        view.mouse_sprite.draw(fb, 116, 14)
        gfx.text(fb, self.lines[0], 18, 16)
        gfx.text(fb, self.lines[1], 18, 26)
        gfx.text(fb, self.lines[2], 4, 36)
        gfx.text(fb, self.lines[3], 4, 46)
        gfx.text(fb, "A:START  B:BACK  UP/DOWN:MAP", 4, 57)


class PlayScreen(screens.Screen):
    """A game against the AI: the player's moves, the AI's answers, undo."""

    def __init__(self, scene):
        self.scene = scene
        self.match = scene.match
        self.view = scene.view
        self.wait = 0               # ticks until the AI answers
        self.queued = 0             # a press made while the AI was answering
        self.forced = False         # the player's last cell was forced (a rest)
        self.cat_due = False        # the AI cat's move of this round is under way

    def reset(self):
        """A new game: the AI (a cat) answers after _AI_DELAY ticks."""
        self.cat_due = False
        self.wait = _AI_DELAY if self.match.side == "mouse" else 0

    def resume(self):
        """Play on at once from the state the match was put back to."""
        self.wait = 0
        self.queued = 0
        self.cat_due = False
        self.scene.screen = self
        self.update_status()

    def undo(self):
        """Back to the player's last chosen move; False when there is none."""
        if not self.match.undo():
            return False
        self.resume()
        return True

    # B+A (or the menu's UNDO): undo a round, saved; a low beep when there is none
    def chord_undo(self, ctx):
        if not self.undo():
            scenekit.refuse(ctx, "NOTHING TO UNDO")
        else:
            ctx.save_game()

    def tick(self, ctx):
        btn = ctx.buttons
        self.match.ready()                           # the AI's board, after the start's tick
        ev = self.scene.pause.poll(btn, True)        # a B tap: nothing to put down
        if ev == "undo":
            self.chord_undo(ctx)
        if ev:
            return None
        if self.wait:
            self.wait -= 1
            if btn.just_pressed(_MOVES):
                self.queued = btn.down & _MOVES
            return None
        if self.match.side == "mouse":
            self._as_mouse(ctx)
        else:
            self._as_cat(ctx)
        return None

    def _as_mouse(self, ctx):
        """The AI cat moves first in a round, then the player's mouse."""
        m = self.match
        g = m.game
        if not m.round_started or self.cat_due:
            if not m.round_started:
                m.begin_round()
                self.cat_due = True
            if not m.ai_move(ctx, "cat"):
                return
            self.cat_due = False
            if g.winner:
                self.scene.end_game(ctx)
            else:
                self.update_status()
                ctx.save_game()
            return
        cell = self._player_cell(ctx, "mouse")
        if cell < 0:
            return
        if not self.forced:
            m.push_round()
        m.move("mouse", cell)
        m.end_round()
        if g.winner:
            self.scene.end_game(ctx)
        else:
            self.wait = _AI_DELAY
            self.update_status()

    def _as_cat(self, ctx):
        """The player's cat moves first in a round, then the AI mouse."""
        m = self.match
        g = m.game
        if not m.round_started:
            cell = self._player_cell(ctx, "cat")
            if cell < 0:
                return
            if not self.forced:
                m.push_round()
            m.begin_round()
            m.move("cat", cell)
            if g.winner:
                self.scene.end_game(ctx)
                return
            self.wait = _AI_DELAY
            self.update_status()
            return
        if not m.ai_move(ctx, "mouse"):
            return
        m.end_round()
        if g.winner:
            self.scene.end_game(ctx)
        else:
            self.update_status()
            ctx.save_game()

    def _player_cell(self, ctx, piece):
        """The cell the arrows ask for, or -1; A = stay (wait a round)."""
        btn = ctx.buttons
        g = self.match.game
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
        elif want & A:
            target = here
        if target >= 0 and target in legal:
            return target
        if target >= 0:
            scenekit.refuse(ctx, "BLOCKED")
        return -1

    def update_status(self):
        """Compose the status bar, "R3/96 MOUSE ST4 REST", in the view's
        preallocated buffer: a move allocates nothing."""
        m = self.match
        g = m.game
        view = self.view
        line = view.line
        line.clear()
        mouse = m.side == "mouse"
        line.put(b"R")
        line.put_int(g.round)
        line.put(b"/")
        line.put_int(g.round_limit)
        line.put(b" MOUSE ST" if mouse else b" CAT ST")
        line.put_int(g.mouse_stamina if mouse else g.cat_stamina)
        if g.mouse_rest if mouse else g.cat_rest:
            line.put(b" REST")
        view.status = line.text()

    def draw(self, fb):
        self.view.draw(fb, self.match.game)
        self.scene.pause.draw_reminder(fb)


class EndScreen(screens.Screen):
    """The result over the map ("CAUGHT!  A:AGAIN B:BACK"): A plays the same
    map again, B goes to the title."""

    def __init__(self, scene):
        self.scene = scene
        self.banner = b""
        self.armed = False

    def show(self, banner):
        self.banner = banner
        self.armed = False
        view = self.scene.view
        line = view.line
        line.clear()
        line.put(banner)
        line.put(b"  A:AGAIN B:BACK")
        view.status = line.text()

    def tick(self, ctx):
        btn = ctx.buttons
        if not scenekit.settled(self, btn):
            return None
        if btn.just_pressed(A):
            self.scene.begin_play()
        elif btn.just_pressed(B):
            self.scene.to_title()
        return None

    def draw(self, fb):
        self.scene.view.draw(fb, self.scene.match.game)
