"""The fixed-tick main loop, the game context, and game hand-over.

``Runtime(hw, saves)`` owns the display frame buffer, the Buttons state and the
``ctx`` handed to games.  ``step()`` is one tick (poll buttons, tick + draw the
current screen, overlay a toast, send the changed pages; a screen whose
``frame_key()`` did not change since it was drawn is not redrawn); ``run()`` repeats it
at 30 ticks/s, sampling the buttons every 8 ms while it waits (presses
between ticks are latched) and counting overruns (a tick that ended after the
next one was due; the loop then restarts its schedule instead of catching up).

Idle: after two thirds of the "sleep" setting (seconds, 0 = never) without a
button the panel dims; after all of it the panel is switched off (its own
power-save command, RAM kept) and ``run()`` drops to one poll per tick with
the core halted in between (``hw.doze``: lightsleep/WFI where the port has
it).  While the screen is off nothing is ticked, drawn or sent.  A screen
whose ``busy()`` answers True (a search it wants finished) keeps the panel on,
dimmed; any other is simply frozen and carries on after waking.  Any
button wakes it: the whole frame is sent again at once, and the waking press
(until every button is released) reaches no screen.

Battery: on a board that reads its supply (``hw.supply``), ``battery`` is its
battery.Gauge, fed every _SUPPLY_EVERY ticks; the launcher draws it.  At the
cell's cut-off (``battery.empty``) the game in progress is saved at once and a
toast says so ("BATTERY EMPTY - GAME SAVED"; "- CHARGE NOW" without a game),
once per game while the supply stays there.

Screens: every screen is a screens.Screen and a game's scene a screens.Scene
(the contract, with its defaults: ``frame_key``, ``busy``, ``snapshot``,
``restore``, ``n_levels``, ``open_level``); the runtime calls them directly.

Games in progress: a scene's ``snapshot()`` (a small dict of the game in
play, None when there is none) and ``restore(snapshot)`` keep it in a save of
its own, ``play_id(game_id)``, under "resume"; the records stay in the game's
save and are written when they change (a game's end).  ``save_game()`` stores
the snapshot: after a tick in which the scene called ``ctx.save_game()`` (a
move; ``run()`` calls ``save_pending()`` once the frame is sent, in the wait
for the next tick), when the player leaves and when the screen goes off.  Apart
from the records it stays under littlefs' 512-byte inline limit, so a move's
save rewrites a little of the folder's log and erases no flash sector (a 4 KB
erase takes a real chip ~45 ms; docs/runtime.md).  ``resumable`` holds the ids
with a saved game (the launcher's CONTINUE); ``start_game(entry, resume=True)``
restores it.  A game's end stores its records, after its tick as a move's
save: the saved game in progress is cleared first, so a cut between the two
never offers a finished game again (a cut before them offers the game as it
was saved before its last move).

Games: ``start_game(entry)`` imports the module named in games.py lazily,
builds ``Scene(ctx)`` on a freshly collected heap; when ``tick`` returns
"exit" (or raises) the instance is dropped, the module (on the device: every
module imported since the game started) removed from sys.modules and the heap
collected again.  An exception shows an error screen
and returns to the launcher; a MemoryError during a tick (an AI that ran out
of room) shows "not enough memory" and the game goes on.
"""

import gc
import sys

import buttons
import clock
import games
import gfx

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# On the device a game's whole import tree leaves with it (its AI's code would
# otherwise stay resident into the next game); on CPython only the scene
# module does, since the simulator shares the other modules with the host
# tools and tests.
_UNLOAD_ALL = sys.implementation.name != "cpython"

VERSION = "0.3.0"
_TICKS_PER_SECOND = const(30)
SETTINGS_ID = "_settings"
DEFAULT_SETTINGS = {"difficulty": 1, "contrast": 255, "sound": True, "sleep": 60}
SLEEP_CHOICES = (30, 60, 300, 0)    # seconds without a button before the screen goes off
_DIM_CONTRAST = const(8)
_DOZE_MS = const(33)                 # the poll while off: one tick, so a press wakes within two
# the buttons' poll while waiting for the next tick: every press of 8 ms or more
# is seen (a tap is ~50 ms) and the core sleeps in between; a 1 ms poll kept it
# busy ~20 % of the time on an idle launcher
_SAMPLE_MS = const(8)
_SHOWN_BY_MS = const(30)             # a tick's pages on the wire by then, when they fit
_SLOT_MS = const(33)                 # a tick past its slot sends its whole frame: too late anyway
_SUPPLY_EVERY = const(15)            # ticks between two supply readings (0.5 s)
_EMPTY_TOAST_TICKS = const(600)      # "BATTERY EMPTY": on screen until the brown-out (20 s)
_AWAKE = const(0)
_DIM = const(1)
_OFF = const(2)
RESUME = "resume"                   # a game's play save: its snapshot under this key
_RESUME_TRIAL = const(30)           # ticks after CONTINUE in which a game error clears the save


def play_id(game_id):
    """The save that holds ``game_id``'s game in progress (its records: ``game_id``)."""
    return game_id + "/play"


class Deadline:
    """``ctx.deadline(ms)`` returns this (one shared object, no allocation):
    ``expired()`` / ``remaining()`` against the runtime clock."""

    def __init__(self, now):
        self.clock = now
        self.at = 0

    def set(self, ms):
        self.at = self.clock() + ms
        return self

    def remaining(self):
        return -clock.ticks_diff(self.clock(), self.at)

    def expired(self):
        return clock.ticks_diff(self.clock(), self.at) >= 0


class Context:
    """What a game sees (docs/conventions.md, the runtime contract)."""

    # Fields, always present (scenes read them directly, never through getattr);
    # comments, not docstrings: this module is resident at the launcher.
    #   buttons      the Buttons state (pressed, just_pressed, repeat, ...)
    #   settings     dict: "difficulty" 0/1/2, "contrast", "sound", "sleep" (s, 0 never)
    #   ticks_ms     the clock, a function (differences through clock.ticks_diff)
    #   width, height  the screen in pixels (128 x 64)
    #   frame        the bytearray behind draw()'s fb (MONO_VLSB, 128 bytes per
    #                8-row page): ``ctx.frame[:] = bg`` restores a screen in one copy
    #   has_sound    True when the board has a buzzer
    #   game_id      the running game's id (None in the launcher)
    #   cache_dir    folder for a game's large files (Klotski's tables): the saves'
    #                folder, or None when saves live in memory (nothing is cached)
    #   levels_dir   folder of the level packs (<game>.bin), None for /levels
    # and the methods load/store, finish, deadline, beep, toast, out_of_memory, ai, tick_no,
    # open_link.

    def __init__(self, runtime):
        self._rt = runtime
        self.buttons = runtime.buttons
        self.settings = runtime.settings
        self.ticks_ms = runtime.hw.ticks_ms
        self.width = runtime.width
        self.height = runtime.height
        self.frame = runtime.display.buffer
        self.has_sound = runtime.hw.buzzer is not None
        self.game_id = None
        self.cache_dir = runtime.saves.root     # None: the saves live in memory
        self.levels_dir = None
        self._deadline = Deadline(runtime.hw.ticks_ms)

    def deadline(self, ms=20):
        """A deadline ``ms`` from now for slicing long work (AI steps)."""
        return self._deadline.set(ms)

    def load(self, game_id=None):
        return self._rt.load(game_id or self.game_id)

    def store(self, game_id, data=None):
        if data is None and isinstance(game_id, dict):
            game_id, data = self.game_id, game_id
        self._rt.store(game_id or self.game_id, data)

    def finish(self, game_id, records):
        """The game ended (won, lost, drawn, resigned): its game in progress is
        cleared, then its records (``records``, the save ``game_id``) stored, in
        that order, so a cut between the two loses at most this result and
        never offers the finished game again.  Both writes wait for the end of
        the tick, as a move's save does (Runtime.save_pending): the ending's
        frame goes out first (the two writes and a new frame in one tick came
        to 42 ms on the virtual Pico).  Every ending calls this once; the
        scene's snapshot() is None from then on."""
        rt = self._rt
        rt.ending = (game_id, records)
        rt.save_due = True

    def beep(self, freq=880, ms=40):
        if self.settings.get("sound"):
            self._rt.hw.beep(freq, ms)

    def toast(self, message, ticks=45):
        self._rt.toast(message, ticks)

    def save_game(self):
        """A move was made: the game in progress is stored after this tick
        (Runtime.save_pending), so the tick allocates nothing for it."""
        self._rt.save_due = True

    def out_of_memory(self):
        """Long work ran out of memory: the heap collected, "NOT ENOUGH MEMORY"
        shown (work.Job calls this; the game plays on without the answer)."""
        self._rt.out_of_memory()

    # the heap collected now (gc.collect; nothing in the WASI test VM): a game
    # that allocates much over its next ticks (Cat & Mouse's watch loading a
    # game) does it in a tick of its own, so no collection (~20-27 ms on the
    # virtual Pico) lands in one of those heavy ticks
    def collect(self):
        self._rt.collect()

    def tick_no(self):
        return self._rt.ticks

    # the link cable's byte transport (hw.open_link: docs/link.md), None without one
    def open_link(self):
        return self._rt.hw.open_link()


# an exception's traceback on the console (the serial port on a device)
def report(exc):
    pe = getattr(sys, "print_exception", None)
    if pe:
        pe(exc)
    else:
        import traceback

        traceback.print_exception(type(exc), exc, exc.__traceback__)


def draw_toast(fb, msg, width):
    w = gfx.text_width(msg) + 6
    x = (width - w) // 2
    gfx.box(fb, x, 26, w, 11)
    gfx.text(fb, msg, x + 3, 29)


# The end of a tick: the toast over a frame drawn in it, then the changed pages
# that fit in what is left of the tick; the rest go first in the next one (a
# whole frame is 23.5 ms on the wire).  A tick already past its slot sends its
# whole frame: it is late anyway, and a screen is not left half built.  A tick
# that drew nothing calls show() only while the last show may have left pages
# (it sent as many as it could) or after an invalidate(): the frame is the one
# shown, and the compare of an unchanged frame was most of an idle tick's show
# on CircuitPython (Python page compares; the virtual CircuitPython Pico's idle
# ticks went 1.16 -> 0.79 ms)
def show_frame(rt, drawn, now):
    toast = None
    if rt._toast_ticks:
        rt._toast_ticks -= 1
        toast = rt._toast
    if drawn:
        if toast is not None:
            draw_toast(rt.fb, toast, rt.width)
        rt._drawn_toast = toast
    elif not rt._show_more:
        return
    spent = clock.ticks_diff(rt.hw.ticks_ms(), now)
    most = 8
    if spent < _SLOT_MS:
        most = (_SHOWN_BY_MS - spent) // rt.display.page_ms
        if most < 2:
            most = 2
    rt._show_more = rt.display.show(most) >= most


# the settings, each value checked (saveschema): one that does not fit goes back
# to its default and the save is rewritten without it; then the games with a
# saved game in progress (CONTINUE).  Runtime() calls it in a try: whatever
# fails, the handheld starts on the defaults
def read_boot_saves(rt):
    import saveschema
    got, dropped = saveschema.check(saveschema.settings(SLEEP_CHOICES),
                                    rt._load_raw(SETTINGS_ID)[0])
    rt.settings.update(got)
    if dropped:
        rt.toast("SETTINGS RESET", 60)
        rt._write(SETTINGS_ID, got, False)
    for entry in rt.registry:
        if RESUME in rt._load_raw(play_id(entry[games.ID]))[0]:
            rt.resumable.append(entry[games.ID])
    if RESUME in rt._load_raw(play_id(games.LINK[games.ID]))[0]:
        rt.resumable.append(games.LINK[games.ID])
    rt.apply_settings()


# The save a move asks for (ctx.save_game) runs after the tick, with the tick's
# frame already sent; after a heavy tick (an AI's move drawn and sent: ~25 ms
# on the virtual Pico) the pair could pass the 50 ms a tick has, so the save
# waits for a tick shorter than _LIGHT_MS, at most _HOLD_TICKS ticks (a cut
# meanwhile loses that move, never a whole save).  And the garbage: in play
# the ticks allocate nothing, so the heap fills with what the saves leave
# (~3 KB each) and a collection lands inside a save (21 ms of a 31 ms save of
# Trap the Cat there); so after _TIDY_SAVES saves the next light tick that
# saves nothing collects (~20 ms), ahead of need (waiting for a tick under
# 10 ms instead let a collection land in a tick and a save when moves came
# back to back: 58 and 73 ms on the virtual Pico).  A game's end
# writes twice (its play save cleared, its records: 25-31 ms together), one
# write after each of two light ticks (a cut between them loses that game's
# records, as one between the two writes did).  ``rt.pace``:
# [ticks the pending save has waited, saves since the last collection].
# (Runtime.save_pending, after every tick.)
_LIGHT_MS = const(16)
_HOLD_TICKS = const(8)
_TIDY_SAVES = const(4)


def pace_saves(rt):
    pace = rt.pace
    if not rt.save_due:
        pace[0] = 0
        if pace[1] >= _TIDY_SAVES and rt.tick_ms < _LIGHT_MS:
            pace[1] = 0
            rt.collect()
    elif rt.tick_ms >= _LIGHT_MS and pace[0] < _HOLD_TICKS:
        pace[0] += 1
    else:
        pace[0] = 0
        ending = rt.ending
        if ending is not None and ending[0] in rt.resumable:
            rt._clear_play(ending[0])
            return
        rt.save_game()
        if pace[1] < _TIDY_SAVES:
            pace[1] += 1


# At the battery's cut-off: save the game in progress and say so (once per game).
def battery_empty(rt):
    game_id = rt.ctx.game_id
    if rt._empty_for == game_id:
        return
    rt._empty_for = game_id
    if rt.save_game():
        rt.toast("BATTERY EMPTY - GAME SAVED", _EMPTY_TOAST_TICKS)
    else:
        rt.toast("BATTERY EMPTY - CHARGE NOW", _EMPTY_TOAST_TICKS)


class Runtime:
    # hw: a hardware.Hardware, hw.display a hardware.Display (the contract, with
    # its defaults: a panel without power save still has poweroff/poweron, a
    # board that reads no supply has supply None); used directly, never probed
    def __init__(self, hw, saves, registry=None, board_name=""):
        self.hw = hw
        self.saves = saves
        self.display = hw.display
        self.fb = hw.display.fb
        self.width = hw.display.width
        self.height = hw.display.height
        self.board_name = board_name
        if registry is None:
            registry = games.GAMES
        self.registry = registry
        self.buttons = buttons.Buttons()
        self.settings = dict(DEFAULT_SETTINGS)     # the stored ones: at the end
        self.ctx = Context(self)
        self.collect = gc.collect   # the WASI test VM swaps this out (its GC is unsafe)
        self.ticks = 0
        self.overruns = 0
        self.tick_ms = 0            # duration of the last tick
        self.max_tick_ms = 0
        self.game = None
        self.game_entry = None
        self._module = None         # the scene module of the game in play
        self._loaded = None         # sys.modules names before the game started
        self.screen = None
        self.launcher = None
        self.relaunch = None        # main.relaunch on the device: the launcher leaves during a game
        self._toast = None
        self._toast_ticks = 0
        # frame cache: a screen is not redrawn while its ``frame_key()`` stays
        # the same (not None) and nothing (a toast) was drawn over or taken off it
        self.frame_cache = True
        self._key = None
        self._drawn_screen = None   # screen, key and toast of the clean frame in fb
        self._drawn_key = None      # (_drawn_screen None: fb is not a cached frame)
        self._drawn_toast = None
        self._show_more = True      # show() may have pages to send without a new frame
        self._next = 0
        self._k = 0
        self._base = 0
        # idle: _AWAKE, _DIM or _OFF; the ms of the last button activity; buttons
        # held since the waking press (they reach no screen until released)
        self.power = _AWAKE
        self._active_at = hw.ticks_ms()
        self._waking = False
        # the battery gauge (battery.py) when the board reads its supply, else None
        supply = hw.supply
        self.battery = None if supply is None else supply.gauge
        self._empty_for = ""        # the game id (None: the launcher) told the battery is empty
        self.resumable = []         # ids of the games with a saved game in progress
        self.save_due = False       # a move asked for a save (done after a tick: save_pending)
        self.ending = None          # (game id, records) of a game's end, written with the save
        self.pace = bytearray(2)    # save_pending's counts
        self.save_ms = 0            # how long the last save_game took
        self._resumed_until = 0     # ticks: a game that fails before this loses its saved game
        try:
            read_boot_saves(self)
        except Exception as exc:
            self.defaults(exc)

    # a step of the boot failed (``exc``): the default settings, no CONTINUE,
    # and the screen says so (main.boot calls it too when the launcher fails)
    def defaults(self, exc):
        report(exc)
        self.settings.update(DEFAULT_SETTINGS)
        self.resumable = []
        self.toast("BOOT ERROR - USING DEFAULTS", 90)

    # -- saves -------------------------------------------------------------------
    def _load_raw(self, game_id):
        try:
            return self.saves.load(game_id)
        except Exception:            # an unreadable file system: keep going
            return {}, "corrupt"

    def load(self, game_id):
        data, status = self._load_raw(game_id)
        if status == "corrupt":
            self.toast("SAVE CORRUPT - RESET", 60)
            self._write(game_id, {}, game_id == self.ctx.game_id)
        elif status == "recovered":
            self.toast("SAVE DAMAGED - RESTORED", 60)
            self._write(game_id, data, game_id == self.ctx.game_id)
        return data

    def store(self, game_id, data):
        """The game in play stores through savestore's store_often (one file
        written, nothing renamed or created once both copies exist).  Its
        records change at its end: the game in progress is cleared first."""
        often = game_id == self.ctx.game_id
        if often and game_id in self.resumable:
            self._clear_play(game_id)
        self._write(game_id, data, often)

    def _write(self, save_id, data, often):
        try:
            (self.saves.store_often if often else self.saves.store)(save_id, data)
        except OSError:
            self.toast("SAVE FAILED", 60)

    def _clear_play(self, game_id):
        """No game in progress any more: CONTINUE goes, the play save holds nothing."""
        self.resumable.remove(game_id)
        self._write(play_id(game_id), {}, True)

    def save_game(self):
        """Store the game in play with its snapshot (or without one when it is
        over); nothing to write when there is neither a game nor a snapshot.
        True when a game in progress was stored.  A game's end (ctx.finish)
        is written first: its play save cleared, then its records."""
        self.save_due = False
        ending = self.ending
        if ending is not None:
            self.ending = None
            if ending[0] in self.resumable:
                self._clear_play(ending[0])
            self._write(ending[0], ending[1], True)
        game = self.game
        if game is None:
            return False
        start = self.hw.ticks_ms()
        game_id = self.ctx.game_id
        snap = game.snapshot()
        if snap is None:
            if game_id not in self.resumable:
                return False        # nothing in progress was saved (or its end cleared it)
            self._clear_play(game_id)
        else:
            if game_id not in self.resumable:
                self.resumable.append(game_id)
            self._write(play_id(game_id), {RESUME: snap}, True)
        self.save_ms = clock.ticks_diff(self.hw.ticks_ms(), start)
        return snap is not None

    # save_pending(): store the game if a move asked for it (after a light
    # tick), or collect the heap ahead of need; pace_saves itself, as a method
    # (no def of its own on the resident heap)
    save_pending = pace_saves

    # one file written, as a move's save (store_often): a store renames three
    # times, 104-114 ms in the launcher's tick on the virtual Pico
    def save_settings(self):
        self._write(SETTINGS_ID, self.settings, True)

    def apply_settings(self):
        if self.power == _AWAKE:
            self.display.contrast(self.settings.get("contrast", 255))

    # -- idle: dim, screen off, wake ---------------------------------------------------
    def _idle(self, now, screen):
        """Dim at two thirds of the sleep setting, switch the panel off at all of it."""
        limit = self.settings.get("sleep", 0)
        if not limit:
            return
        idle = clock.ticks_diff(now, self._active_at)
        if self.power == _AWAKE and idle >= limit * 667:
            self.power = _DIM
            self.display.contrast(min(_DIM_CONTRAST, self.settings.get("contrast", 255)))
        if idle >= limit * 1000 and not screen.busy():
            self.power = _OFF
            self.display.poweroff()
            self.save_game()

    def wake(self, now):
        """Panel on at the user's contrast, the whole frame sent again."""
        if self.power == _OFF:
            self.display.poweron()
            self.display.invalidate()
            self._show_more = True
            self._waking = True
        self.power = _AWAKE
        self._active_at = now
        self.apply_settings()

    # -- overlays ----------------------------------------------------------------
    def toast(self, message, ticks=45):
        self._toast = message
        self._toast_ticks = ticks

    def out_of_memory(self):
        self.collect()
        self.toast("NOT ENOUGH MEMORY", 60)

    # -- game hand-over ------------------------------------------------------------
    # start the game of ``entry``; ``module`` another scene for it (the
    # launcher's "how to play" pages: ``howto``), loaded and dropped the same
    # way; ``resume``: the saved game in progress goes on (CONTINUE)
    def start_game(self, entry, module=None, resume=False):
        game_id, title = entry[games.ID], entry[games.TITLE]
        if module is None:
            module = entry[games.SCENE]
            try:                    # the play save's files, made now, not by a move's save
                self.saves.make_slots(play_id(game_id))
            except OSError:         # a read-only file system: its saves fail anyway
                pass
        self.game_entry = entry
        self._module = module
        self.ctx.game_id = game_id
        self._resumed_until = self.ticks + _RESUME_TRIAL if resume else 0
        self.launcher = self.launcher if self.relaunch is None else self.relaunch(self, False)
        self._loaded = tuple(sys.modules) if _UNLOAD_ALL else None
        self.collect()
        try:
            mod = __import__(module)
            self.game = mod.Scene(self.ctx)
            self.screen = self.game
            if resume and not self._resume(self.game):
                self._drop_game()
                self.start_game(entry, module)      # a fresh game instead
                return
        except MemoryError:
            self._error_screen("NO MEMORY", "not enough memory to start " + title)
        except Exception as exc:
            self._game_error(exc)
        self.buttons.reset(self.buttons.stable, self.hw.ticks_ms())

    # put the saved game back; False when the scene refuses the snapshot
    # (then its play save is cleared; the records are in a save of their own)
    def _resume(self, game):
        game_id = self.ctx.game_id
        snap = self._load_raw(play_id(game_id))[0].get(RESUME)
        try:
            if snap is not None and game.restore(snap):
                return True
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            pass
        if game_id in self.resumable:
            self._clear_play(game_id)
        self.toast("SAVED GAME LOST", 60)
        return False

    # the game raised: an error screen instead; within _RESUME_TRIAL ticks of
    # CONTINUE its saved game goes too (the same save would fail again)
    def _game_error(self, exc):
        report(exc)
        game_id = self.ctx.game_id
        if self.ticks < self._resumed_until and game_id in self.resumable:
            self._clear_play(game_id)
            self.toast("SAVED GAME LOST", 60)
        self._error_screen("GAME ERROR", "%s: %s" % (type(exc).__name__, exc))

    # the game is dropped and what went wrong shows on a screen of its own
    # (errorscreen.py: loaded for it, and dropped with it when the player
    # leaves it, as a game's modules are)
    def _error_screen(self, title, message):
        self._drop_game()
        self._loaded = tuple(sys.modules) if _UNLOAD_ALL else None
        import errorscreen
        self.screen = errorscreen.ErrorScreen(title, message)

    # the player leaves: the game in progress is saved, then the launcher
    def leave_game(self):
        self.save_game()
        self.back_to_launcher()

    def _drop_game(self):
        self.game = None
        self._drawn_screen = None
        if self._module in sys.modules:
            del sys.modules[self._module]
        loaded = self._loaded
        if loaded is not None:
            for name in list(sys.modules):
                if name not in loaded:
                    del sys.modules[name]
            self._loaded = None
        self.ctx.game_id = None
        self.collect()

    def back_to_launcher(self):
        self._drop_game()
        self.game_entry = None
        self.launcher = self.launcher if self.relaunch is None else self.relaunch(self, True)
        self.screen = self.launcher
        self.buttons.reset(self.buttons.stable, self.hw.ticks_ms())

    # -- the tick ------------------------------------------------------------------
    def _clean(self, screen):
        """True when fb already holds what ``screen.draw`` would draw now (same
        screen, same ``frame_key()``, same toast over it)."""
        if not self.frame_cache:
            return False
        key = screen.frame_key()
        self._key = key
        if key is None or screen is not self._drawn_screen or key != self._drawn_key:
            return False
        toast = self._toast if self._toast_ticks else None
        return toast == self._drawn_toast

    def invalidate_frame(self):
        """Redraw the current screen on the next tick (fb was drawn over)."""
        self._drawn_screen = None

    def step(self):
        hw = self.hw
        now = hw.ticks_ms()
        btn = self.buttons
        btn.sample(hw.read_buttons(), now)
        if self.power == _OFF:
            if not btn.stable:
                return              # asleep: nothing ticked, drawn or sent
            self.wake(now)
        btn.update(now)
        if btn.state or btn.up:
            if self.power == _DIM:
                self.wake(now)
            self._active_at = now
        hw.service(now)
        if self.battery is not None and self.ticks % _SUPPLY_EVERY == 0:
            self.battery.sample()
            if self.battery.empty:
                battery_empty(self)
            else:
                self._empty_for = ""
        screen = self.screen
        fb = self.fb
        drawn = True
        waking = self._waking
        if waking and not btn.stable:
            self._waking = False    # released: the press is forgotten
            btn.reset(0, now)
        try:
            if not waking and screen.tick(self.ctx) == "exit":
                if screen is self.launcher:
                    pass
                else:
                    self.leave_game()
            # a game started (or left) in this tick draws its first frame
            # here: that full drawing belongs to the start, not to the first
            # tick of play (72-78 ms on the virtual Pico with it)
            screen = self.screen
            if self._clean(screen):
                drawn = False
            else:
                self._drawn_screen = None
                screen.draw(fb)
                if self.frame_cache:
                    self._drawn_screen = screen
                    self._drawn_key = self._key
        except MemoryError:
            self._drawn_screen = None
            if screen is self.game:
                self.out_of_memory()
            else:
                raise
        except Exception as exc:
            self._drawn_screen = None
            if screen is self.launcher:
                raise
            self._game_error(exc)
            self.screen.draw(fb)
        show_frame(self, drawn, now)
        self.ticks += 1
        self._idle(now, screen)
        took = clock.ticks_diff(hw.ticks_ms(), now)
        self.tick_ms = took
        if took > self.max_tick_ms:
            self.max_tick_ms = took

    def _schedule(self):
        """ms of the next tick: 1000/30 ms apart without drift (33, 33, 34)."""
        self._k += 1
        if self._k == _TICKS_PER_SECOND:
            self._k = 0
            self._base += 1000
        return self._base + self._k * 1000 // _TICKS_PER_SECOND

    def run(self, max_ticks=-1):
        hw = self.hw
        self._base = hw.ticks_ms()
        self._k = 0
        while max_ticks:
            max_ticks -= 1
            self.step()
            self.save_pending()
            if self.power == _OFF:
                hw.doze(_DOZE_MS)
                self._base = hw.ticks_ms()
                self._k = 0
                continue
            due = self._schedule()
            now = hw.ticks_ms()
            if clock.ticks_diff(now, due) > 0:
                self.overruns += 1
                self._base = now
                self._k = 0
                continue
            while True:
                self.buttons.sample(hw.read_buttons(), hw.ticks_ms())
                left = clock.ticks_diff(due, hw.ticks_ms())
                if left <= 0 or self.screen.wake():
                    break
                hw.sleep_ms(_SAMPLE_MS if left > _SAMPLE_MS else left)
