"""Idle: the panel dims at two thirds of the "sleep" setting, goes off (its own
power-save command) at all of it, sends nothing while off, and the first press
wakes it with a whole frame and does nothing else.  On the simulator: the real
hw_machine + ssd1306 driver into the OLED model, on its virtual 30 ticks/s clock."""

import sys
import types

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

import screens  # noqa: E402  (firmware, on sys.path through sim)

TICKS_PER_S = 30


def _run(s, keys):
    for k in parse_keys(keys):
        s.step(k)


def _sim(sleep_s=30):
    s = simmod.Simulator()
    s.runtime.settings["sleep"] = sleep_s
    return s


def _until(s, seconds):
    """Step without buttons until the virtual clock reads ``seconds``."""
    while s.now < seconds * 1000:
        s.step(())


def test_dims_at_two_thirds_then_the_panel_goes_off():
    s = _sim(30)
    rt = s.runtime
    _run(s, "wait:3")
    frame = s.oled.pixels()
    _until(s, 19.9)
    assert rt.power == 0 and s.oled.contrast == 255
    _until(s, 20.1)
    assert rt.power == 1 and s.oled.contrast == 8 and s.oled.lit()
    assert s.oled.pixels() == frame                 # dimmed, same picture
    _until(s, 29.9)
    assert s.oled.lit()
    _until(s, 30.1)
    assert rt.power == 2 and not s.oled.display_on and not s.oled.lit()


def test_nothing_is_ticked_drawn_or_sent_while_off():
    s = _sim(30)
    rt = s.runtime
    _until(s, 31)
    assert rt.power == 2
    ticks = rt.ticks
    calls = [0]
    real_tick = rt.launcher.tick

    def tick(ctx):
        calls[0] += 1
        return real_tick(ctx)
    rt.launcher.tick = tick
    wire = s.wire_totals()
    _until(s, 31 + 300)                              # five minutes off
    assert s.wire_totals() == wire                  # 0 I2C bytes
    assert calls[0] == 0 and rt.ticks == ticks


def test_a_press_wakes_with_a_whole_frame_and_does_nothing_else():
    s = _sim(30)
    rt = s.runtime
    _run(s, "down wait:3")                          # the cursor on the second game
    sel = rt.launcher.sel
    frame = s.oled.pixels()
    _until(s, 40)
    assert not s.oled.lit()
    data_before = s.wire_totals()[0]
    s.step(("a",))                                  # the waking press, first tick
    assert s.oled.lit() and s.oled.contrast == 255
    assert s.oled.pixels() == frame
    assert s.wire_totals()[0] - data_before >= 1025  # every page sent again
    _run(s, "hold:a:20 wait:5")                     # held, released: still nothing
    assert rt.screen is rt.launcher and rt.launcher.sel == sel and rt.power == 0
    _run(s, "down wait:2")                          # the next press acts
    assert rt.launcher.sel == sel + 1


def test_a_press_while_dimmed_acts_and_restores_the_contrast():
    s = _sim(30)
    rt = s.runtime
    _until(s, 25)
    assert rt.power == 1
    _run(s, "down wait:2")
    assert rt.launcher.sel == 1 and rt.power == 0 and s.oled.contrast == 255
    _until(s, 25 + 21)                              # the idle time restarted at the press
    assert rt.power == 1


def test_never_keeps_the_screen_on():
    s = _sim(0)
    _until(s, 600)
    assert s.runtime.power == 0 and s.oled.lit() and s.oled.contrast == 255


class _Searching(screens.Scene):
    """A scene with a search of 40 s that asks the runtime to keep the screen on."""

    def __init__(self, ctx):
        self.ctx = ctx
        self.left = 40 * TICKS_PER_S
        self.done_at = None

    def busy(self):
        return self.left > 0

    def tick(self, ctx):
        if self.left:
            self.left -= 1
            if not self.left:
                self.done_at = ctx.ticks_ms()

    def draw(self, fb):
        fb.fill(0)
        fb.text("left %d" % self.left, 0, 0, 1)


def test_a_busy_scene_finishes_before_the_screen_goes_off():
    mod = types.ModuleType("searching_game")
    mod.Scene = _Searching
    sys.modules["searching_game"] = mod
    try:
        s = _sim(30)
        rt = s.runtime
        rt.start_game(("t", "Search", "searching_game"))
        _until(s, 35)
        assert rt.power == 1 and s.oled.lit()       # dimmed but on: still searching
        _until(s, 45)
        game = rt.screen
        assert game.left == 0 and game.done_at is not None
        assert rt.power == 2 and not s.oled.lit()   # off once the search ended
        import weakref

        gone = weakref.ref(game)
        del game
        _run(s, "hold:b:3 wait:3")                  # wake; the scene has no way out
        rt.back_to_launcher()
        assert gone() is None                       # the runtime keeps no reference to it
    finally:
        sys.modules.pop("searching_game", None)


def test_the_setting_goes_through_the_settings_screen_and_the_save_store():
    s = simmod.Simulator()
    rt = s.runtime
    assert rt.settings["sleep"] == 60               # the default: 1 min
    n = len(rt.registry)
    _run(s, "down*%d a wait:2" % n)                 # Settings follows the games
    rows = rt.launcher._settings_rows
    _run(s, "down*%d wait:2" % rows.index("sleep"))
    seen = []
    for _ in range(4):
        _run(s, "right wait:2")
        seen.append(rt.settings["sleep"])
    assert seen == [300, 0, 30, 60]
    _run(s, "left wait:2")                          # back to 30 s
    _run(s, "b wait:2")
    assert rt.saves.load("_settings")[0]["sleep"] == 30
    # a new boot on the same saves reads it back
    import runtime

    again = runtime.Runtime(rt.hw, rt.saves)
    assert again.settings["sleep"] == 30


def test_the_run_loop_dozes_one_tick_per_poll_while_off():
    s = _sim(30)
    rt = s.runtime
    dozes = []
    real = rt.hw.sleep_ms

    def doze(ms):
        dozes.append(ms)
        real(ms)
    _until(s, 31)
    assert rt.power == 2
    rt.hw.doze = doze
    start = s.now
    rt.run(max_ticks=90)
    assert dozes == [33] * 90 and s.now - start == 90 * 33
    assert rt.power == 2


def test_a_stored_sleep_value_that_is_no_choice_reads_as_the_default():
    import runtime
    import savestore

    s = simmod.Simulator()
    for bad in (45, "60", None, True):
        saves = savestore.Saves(savestore.MemFs())
        saves.store("_settings", {"sleep": bad})
        assert runtime.Runtime(s.runtime.hw, saves).settings["sleep"] == 60


def test_the_circuitpython_backend_sleeps_and_wakes_the_same_way():
    """hw_circuitpython on the real displayio stack (cpsim): the same dim, off
    (the panel's own sleep through the Adafruit driver) and wake as the
    simulator's hw_machine, frame for frame."""
    from host_tools.emulation.cpsim import CpSimulator

    cp = CpSimulator()
    sim = _sim(30)
    cp.runtime.settings["sleep"] = 30
    for s in (cp, sim):
        _run(s, "down wait:3")
    frame = sim.oled.pixels()
    assert cp.oled.pixels() == frame
    for s in (cp, sim):
        _until(s, 25)
    assert cp.runtime.power == 1 and cp.oled.contrast == 8 and cp.oled.lit()
    for s in (cp, sim):
        _until(s, 31)
    assert cp.runtime.power == 2 and not cp.oled.display_on and not cp.oled.lit()
    wire = cp.wire_totals()
    _until(cp, 40)
    assert cp.wire_totals() == wire                 # nothing sent while off
    for s in (cp, sim):
        _run(s, "hold:a:3 wait:5")                  # the waking press does nothing else
    assert cp.oled.lit() and cp.oled.contrast == 255 and cp.oled.pixels() == frame
    assert cp.runtime.screen is cp.runtime.launcher and cp.runtime.launcher.sel == 1
    for s in (cp, sim):
        _run(s, "down wait:3")                      # the next press acts
    assert cp.runtime.launcher.sel == 2 and cp.oled.pixels() == sim.oled.pixels()
