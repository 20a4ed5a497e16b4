"""Handheld runtime on CPython: buttons, saves, boards, drivers through the
controller model, and the runtime's error handling (issue 3)."""

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
from host_tools.core.keyscript import parse_keys  # noqa: E402
from host_tools.emulation import sim as simmod  # noqa: E402

simmod.install_host_modules()

import boardcfg  # noqa: E402
import buttons  # noqa: E402
import clock  # noqa: E402
import runtime  # noqa: E402
import work  # noqa: E402
import savestore as saves  # noqa: E402
import screens  # noqa: E402
from savecuts import RecordingFs, cut_states  # noqa: E402
from buttons import A, B, LEFT, RIGHT, UP  # noqa: E402
from host_tools.emulation.oledmodel import OledModel  # noqa: E402


# -- buttons -------------------------------------------------------------------------
def test_bouncing_switch_gives_exactly_one_press():
    b = buttons.Buttons()
    b.update(0)
    t = 100.0
    presses = releases = 0
    # press: 12 transitions within 1 ms, then held
    for k in range(12):
        b.sample(A if k % 2 == 0 else 0, int(t + k * 0.08))
    b.sample(A, 101)
    for tick in range(1, 6):
        now = 100 + tick * 33
        b.sample(A, now)
        b.update(now)
        presses += b.just_pressed(A)
        releases += b.just_released(A)
    # release with bounce too
    t = 300
    for k in range(12):
        b.sample(0 if k % 2 == 0 else A, t + k // 12)
    b.sample(0, t + 1)
    for tick in range(1, 6):
        now = 300 + tick * 33
        b.sample(0, now)
        b.update(now)
        presses += b.just_pressed(A)
        releases += b.just_released(A)
    assert (presses, releases) == (1, 1)
    assert not b.pressed(A)


def test_press_between_ticks_is_latched():
    b = buttons.Buttons()
    b.update(0)
    b.sample(B, 40)          # pressed and released again before the next tick
    b.sample(0, 75)
    b.update(100)
    assert b.just_pressed(B) and b.pressed(B) and not b.just_released(B)
    b.update(133)
    assert b.just_released(B) and not b.pressed(B) and not b.just_pressed(B)
    b.update(166)
    assert not b.just_released(B)


def test_held_and_auto_repeat():
    b = buttons.Buttons()
    b.update(0)
    reps = []
    for tick in range(1, 40):
        now = tick * 33
        b.sample(RIGHT, now)
        b.update(now)
        if b.repeat(RIGHT):
            reps.append(now)
    assert reps[0] == 33                        # the press itself
    assert reps[1] - reps[0] >= buttons._REPEAT_DELAY_MS
    assert all(99 <= b2 - b1 <= 132 for b1, b2 in zip(reps[1:], reps[2:]))
    assert b.held(RIGHT) and b.held_ms(RIGHT) >= 1000
    assert b.pressed(LEFT | RIGHT) and not b.pressed(LEFT)


def test_combos_map_chords_to_virtual_buttons():
    combos = ((LEFT | RIGHT, B),)
    assert buttons.combine(LEFT | RIGHT, combos) == B
    assert buttons.combine(LEFT | RIGHT | UP, combos) == B | UP
    assert buttons.combine(LEFT, combos) == LEFT


def test_ticks_diff_wraps():
    assert clock.ticks_diff(5, 0x3FFFFFFF) == 6
    assert clock.ticks_diff(0x3FFFFFFF, 5) == -6


# -- saves -----------------------------------------------------------------------------
def _two_saves():
    fs = saves.MemFs()
    s = saves.Saves(fs)
    s.store("g", {"best": 1, "name": "first"})
    return fs, s


def test_save_cut_at_every_offset_of_the_new_file_loads_the_last_complete_save():
    fs, s = _two_saves()
    full = saves.encode({"best": 2, "name": "second", "pad": "x" * 40}, 2)
    base = dict(fs.files)
    for cut in range(len(full) + 1):
        fs.files = dict(base)
        fs.files["g.new"] = full[:cut]          # power lost while writing
        data, status = saves.Saves(fs).load("g")
        if cut == len(full):
            assert data["best"] == 2
        else:
            assert data == {"best": 1, "name": "first"}, cut
            assert status == "ok"


def test_save_cut_between_every_step_of_the_switch():
    for stop_after in range(6):
        fs, s = _two_saves()
        s.store("g", {"best": 2})
        real = dict(fs.files)
        # replay the third store step by step, stopping after `stop_after` steps
        fs2 = saves.MemFs()
        fs2.files = dict(real)
        steps = []

        class Cut(Exception):
            pass

        for name in ("write", "rename", "remove"):
            orig = getattr(fs2, name)

            def wrapped(*a, _orig=orig, steps=steps, stop_after=stop_after):
                if len(steps) >= stop_after:
                    raise Cut()
                steps.append(a)
                return _orig(*a)
            setattr(fs2, name, wrapped)
        try:
            saves.Saves(fs2).store("g", {"best": 3})
        except Cut:
            pass
        data, status = saves.Saves(saves.MemFs()).load("g") if False else saves.Saves(fs2).load("g")
        assert data["best"] in (2, 3)
        if stop_after >= 1:          # the new file was complete: it wins
            assert data["best"] == 3, stop_after


def _cut_states(files, data):
    """Every state a power cut can leave while ``data`` is stored over ``files``:
    after each whole step, and inside the write at every byte."""
    rec = RecordingFs(files)
    saves.Saves(rec).store("g", data)
    return cut_states(files, rec.log)


@pytest.mark.parametrize("earlier", [0, 1, 2])
def test_a_cut_at_every_point_of_a_store_loads_the_old_or_the_new_save(earlier):
    """The first store (nothing saved yet), the second (a .sav only) and a later
    one (.sav and .bak): a cut anywhere loads the last complete save or the new
    one, never "corrupt", and the records are never lost."""
    fs = saves.MemFs()
    for i in range(earlier):
        saves.Saves(fs).store("g", {"best": i, "records": [1, 2, 3]})
    old = ({"best": earlier - 1, "records": [1, 2, 3]}, "ok") if earlier else ({}, "new")
    new = {"best": 99, "records": [1, 2, 3], "pad": "x" * 30}
    states = 0
    for files in _cut_states(fs.files, new):
        fs2 = saves.MemFs()
        fs2.files = files
        got = saves.Saves(fs2).load("g")
        assert got in (old, (new, "ok")), (files, got)
        states += 1
    assert states > len(saves.encode(new, 1))


@pytest.mark.parametrize("body", [
    b'{"\xf0\x9f\x98\x80": 1}', b'{"k": "caf\xc3\xa9"}',            # raw UTF-8 in a key, a value
    b'{"\\ud83d\\ude00": 1}', b'{"k": ["\\u00e9"]}',                # \u escapes to non-ASCII
])
def test_a_save_with_non_ascii_text_is_refused_whole(body):
    raw = ("%s 2 %d %s\n" % (saves.MAGIC, len(body), saves.checksum(body))).encode() + body
    assert saves.decode(raw) is None
    assert saves.decode(saves.encode({"k": "\u0041 ok"}, 3)) == (3, {"k": "A ok"})


def test_truncated_sav_at_every_offset_falls_back_to_the_previous_copy():
    fs, s = _two_saves()
    s.store("g", {"best": 2})
    whole = fs.files["g.sav"]
    for cut in range(len(whole)):
        fs2 = saves.MemFs()
        fs2.files = dict(fs.files)
        fs2.files["g.sav"] = whole[:cut]
        data, status = saves.Saves(fs2).load("g")
        assert data == {"best": 1, "name": "first"} and status == "recovered", cut


def test_corrupt_save_is_reported_and_replaced():
    sim = simmod.Simulator()
    rt = sim.runtime
    rt.saves.fs.files["catmouse.sav"] = b"PPS1 7 5 00000000\n{bad}"
    assert rt.load("catmouse") == {}
    assert rt._toast == "SAVE CORRUPT - RESET"
    data, status = rt.saves.load("catmouse")
    assert (data, status) == ({}, "ok")
    sim.step()
    assert "#" in sim.screen_text()


def test_os_saves_round_trip(tmp_path):
    s = saves.Saves(saves.OsFs(str(tmp_path)))
    s.store("g", {"a": 1})
    s.store("g", {"a": 2})
    assert saves.Saves(saves.OsFs(str(tmp_path))).load("g") == ({"a": 2}, "ok")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.bak", "g.sav"]


def test_a_move_s_save_waits_for_a_light_tick_and_the_heap_is_collected_ahead_of_need():
    """After a heavy tick the save waits (at most _HOLD_TICKS ticks) for one
    shorter than _LIGHT_MS; after _TIDY_SAVES saves the next such tick that
    saves nothing collects the heap, so the collection does not land inside
    a later save."""
    rt = simmod.Simulator().runtime
    saved = []
    collected = []

    def save_game():
        rt.save_due = False
        saved.append(rt.tick_ms)

    rt.save_game = save_game
    rt.collect = lambda: collected.append(rt.tick_ms)
    rt.pace[:] = bytes(2)
    rt.save_due = True
    rt.tick_ms = runtime._LIGHT_MS
    for _ in range(runtime._HOLD_TICKS):
        rt.save_pending()
    assert saved == [] and rt.save_due               # heavy ticks: it waits
    rt.save_pending()
    assert saved == [runtime._LIGHT_MS]              # but not for ever
    for _ in range(runtime._TIDY_SAVES - 1):
        rt.save_due = True
        rt.tick_ms = runtime._LIGHT_MS - 1
        rt.save_pending()                            # a light tick: saved at once
        rt.tick_ms = runtime._LIGHT_MS
        rt.save_pending()                            # no save due, but not light enough
    assert len(saved) == runtime._TIDY_SAVES and collected == []
    rt.tick_ms = runtime._LIGHT_MS - 1
    rt.save_pending()
    rt.save_pending()
    assert collected == [runtime._LIGHT_MS - 1]      # once, then after _TIDY_SAVES more
    rt.save_due = True
    rt.save_pending()
    rt.save_pending()
    assert collected == [runtime._LIGHT_MS - 1] and len(saved) == runtime._TIDY_SAVES + 1


def _ending_runtime():
    """A simulator in Trap the Cat with a game in progress saved, then over
    (its snapshot None), its store recorded: [(save id, data)]."""
    sim = simmod.Simulator()
    for keys in parse_keys("down a wait:5"):
        sim.step(keys)
    rt = sim.runtime
    rt.save_game()
    assert rt.ctx.game_id == "trapcat" and "trapcat" in rt.resumable
    written = []
    store = rt.saves.store_often

    def store_often(save_id, data):
        written.append((save_id, data))
        store(save_id, data)

    rt.saves.store_often = store_often
    rt.game.snapshot = lambda: None                  # as a scene's is once it called finish
    return sim, rt, written


def test_a_game_s_end_is_written_after_its_tick_cleared_first():
    """ctx.finish writes nothing in the tick (its frame goes out first); after
    a light tick the game in progress is cleared, after the next the records
    are stored (one write after each: 25-31 ms together on the virtual Pico)."""
    sim, rt, written = _ending_runtime()
    rt.ctx.finish("trapcat", {"won": 7, "lost": 2})
    assert written == [] and "trapcat" in rt.resumable
    rt.tick_ms = runtime._LIGHT_MS
    rt.save_pending()
    assert written == []                             # a heavy tick: it waits, as a move's save
    rt.tick_ms = 0
    rt.save_pending()
    assert written == [("trapcat/play", {})] and rt.save_due   # one write after a light tick
    assert "trapcat" not in rt.resumable
    rt.tick_ms = runtime._LIGHT_MS
    rt.save_pending()
    assert len(written) == 1                         # the records wait for the next light tick
    rt.tick_ms = 0
    rt.save_pending()
    assert written == [("trapcat/play", {}), ("trapcat", {"won": 7, "lost": 2})]
    assert rt.ending is None and not rt.save_due
    rt.save_game()
    assert len(written) == 2                         # written once


def test_leaving_right_after_a_game_s_end_still_writes_it():
    sim, rt, written = _ending_runtime()
    rt.ctx.finish("trapcat", {"won": 1, "lost": 0})
    rt.leave_game()
    assert written == [("trapcat/play", {}), ("trapcat", {"won": 1, "lost": 0})]
    assert rt.saves.load("trapcat")[0] == {"won": 1, "lost": 0}


# -- boards ------------------------------------------------------------------------------
def test_every_shipped_board_validates():
    names = sorted(p.stem for p in (ROOT / "boards").glob("*.json"))
    for required in ("pico-ssd1306", "pico-w-ssd1306", "pico2-ssd1306", "pico-sh1106", "oled-bonnet"):
        assert required in names
    for name in names:
        cfg = boardcfg.load(name, str(ROOT / "boards"))
        assert cfg["name"] == name
        provided = {b["as"] for b in cfg["buttons"].values()} | set(cfg["combos"])
        assert provided == set(boardcfg.BUTTON_NAMES)
    assert boardcfg.load("oled-bonnet", str(ROOT / "boards"))["runtime"] == "blinka"
    assert boardcfg.validate(boardcfg.DEFAULT)["i2c"]["address"] == 0x3C


def test_unknown_board_lists_the_known_ones():
    with pytest.raises(boardcfg.BoardError) as exc:
        boardcfg.load("pico-oled9000", str(ROOT / "boards"))
    assert "unknown board" in str(exc.value) and "pico-sh1106" in str(exc.value)


def test_invalid_board_lists_every_problem():
    cfg = json.loads((ROOT / "boards" / "pico-ssd1306.json").read_text())
    del cfg["runtime"]
    cfg["display"]["controller"] = "st7735"
    cfg["i2c"]["sda"] = 3
    cfg["i2c"]["address"] = "0x50"
    cfg["buttons"]["a"]["pin"] = 2          # clashes with up
    del cfg["buttons"]["b"]
    cfg["colour"] = "blue"
    with pytest.raises(boardcfg.BoardError) as exc:
        boardcfg.validate(cfg)
    msg = str(exc.value)
    for part in ("missing field 'runtime'", "st7735", "GP3 is not an SDA pin",
                 "0x3C or 0x3D", "already used by buttons.up", "button(s): b",
                 "unknown field 'colour'"):
        assert part in msg, part
    assert len(exc.value.problems) == 8     # + sda GP3 clashes with the down button


def test_pico_w_radio_pins_are_refused():
    cfg = json.loads((ROOT / "boards" / "pico-w-ssd1306.json").read_text())
    cfg["buttons"]["up"]["pin"] = 23
    with pytest.raises(boardcfg.BoardError, match="Pico W radio"):
        boardcfg.validate(cfg)


def test_sim_cli_unknown_board_is_a_user_error(capsys):
    from host_tools.cli import main

    assert main(["sim", "--board", "nope", "--ticks", "1"]) == 2
    assert "unknown board" in capsys.readouterr().err


# -- drivers through the controller model --------------------------------------------------------
class _Bus:
    def __init__(self, oled):
        self.oled = oled
        self.sent = 0

    def writeto(self, addr, buf):
        self.sent += len(buf) + 1
        self.oled.write(bytes(buf))

    def writevto(self, addr, vector):
        self.sent += sum(len(v) for v in vector) + 1
        self.oled.write_parts(vector)


def _pattern(fb):
    fb.fill(0)
    fb.text("Hi!", 0, 0, 1)
    fb.rect(10, 10, 40, 30, 1)
    fb.line(0, 63, 127, 20, 1)
    fb.fill_rect(100, 40, 20, 20, 1)


def _glass(controller, rotate=0):
    import sh1106
    import ssd1306

    oled = OledModel(controller)
    bus = _Bus(oled)
    cls = sh1106.SH1106_I2C if controller == "sh1106" else ssd1306.SSD1306_I2C
    d = cls(128, 64, bus, rotate=rotate)
    _pattern(d.fb)
    d.show()
    return d, oled, bus


def _expected():
    import framebuf

    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    _pattern(fb)
    return "".join("".join("#" if fb.pixel(x, y) else "." for x in range(128)) + "\n"
                   for y in range(64))


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_driver_frame_decodes_to_the_frame_buffer(controller):
    d, oled, bus = _glass(controller)
    assert oled.lit() and not oled.unknown
    assert oled.to_text() == _expected()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_rotation_180_turns_the_image(controller):
    d, oled, bus = _glass(controller, rotate=180)
    rows = _expected().splitlines()
    turned = "".join(row[::-1] + "\n" for row in reversed(rows))
    assert oled.to_text() == turned


def test_only_changed_pages_are_sent():
    d, oled, bus = _glass("ssd1306")
    before = bus.sent
    assert d.show() == 0 and bus.sent == before
    d.fb.pixel(5, 20, 1)                       # page 2
    assert d.show() == 1
    assert bus.sent - before == 8 + 130          # window + one page of data
    before = bus.sent
    d.fb.pixel(5, 20, 0)
    d.fb.pixel(5, 30, 1)                         # pages 2 and 3: one run
    assert d.show() == 2 and bus.sent - before == 8 + 2 + 256
    assert oled.to_text().splitlines()[30][5] == "#"


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_limited_show_sends_the_rest_first_next_time(controller):
    d, oled, bus = _glass(controller)
    d.fb.fill(0)                                 # every page changes
    assert d.show(5) == 5
    rows = oled.to_text().splitlines()
    assert "#" in "".join(rows[40:64])             # pages 5..7 still show the old frame
    assert "#" not in "".join(rows[0:40])
    d.fb.pixel(0, 0, 1)                          # page 0 changes again meanwhile
    assert d.show(2) == 2                        # pages 5 and 6: the oldest first
    rows = oled.to_text().splitlines()
    assert "#" not in "".join(rows[40:56]) and "#" in "".join(rows[56:64])
    assert rows[0][0] == "."
    assert d.show(2) == 2                        # page 7, then page 0 again
    assert oled.to_text() == "#" + "." * 127 + "\n" + ("." * 128 + "\n") * 63
    assert d.show(2) == 0


def test_a_limited_show_after_invalidate_sends_every_page_in_the_end():
    d, oled, bus = _glass("ssd1306")
    d.invalidate()
    assert [d.show(3) for _ in range(4)] == [3, 3, 2, 0]
    assert oled.to_text() == _expected()


@pytest.mark.parametrize("controller", ["ssd1306", "sh1106"])
def test_a_128x32_panel_is_all_sent_after_an_invalidate_and_then_nothing_is_stale(controller):
    import sh1106
    import ssd1306

    bus = _Bus(OledModel(controller, 128, 32))
    cls = sh1106.SH1106_I2C if controller == "sh1106" else ssd1306.SSD1306_I2C
    d = cls(128, 32, bus)
    d.invalidate()
    assert d.show(3) == 3 and d.show(3) == 1
    assert d._stale == 0            # no change now takes the one-compare path
    before = bus.sent
    assert d.show() == 0 and bus.sent == before


def _clocked(glass):
    """A backend whose clock only the test and ``glass`` (a hardware.Display
    subclass instance, given a 128x64 frame here and ``glass.hw``) move; its
    ``shows`` is what the glass records of each show()."""
    import framebuf
    import hardware

    class Clocked(hardware.Hardware):
        def __init__(self):
            self.now = 0
            self.shows = []
            self.display = glass
            glass.hw = self
            glass.width, glass.height = 128, 64
            glass.buffer = bytearray(1024)
            glass.fb = framebuf.FrameBuffer(glass.buffer, 128, 64, framebuf.MONO_VLSB)

        def read_buttons(self):
            return 0

        def ticks_ms(self):
            return self.now

        def sleep_ms(self, ms):
            self.now += ms

    return Clocked()


def test_the_runtime_keeps_a_tick_within_its_slot_by_splitting_the_frame():
    """A whole frame is 23.5 ms on the 400 kHz wire: with 12 ms of drawing it
    goes out over two ticks, and a tick already past its slot sends it all."""
    import hardware

    class Glass(hardware.Display):
        def show(self, most=8):
            self.hw.shows.append(most)
            self.hw.now += 3 * min(most, 8)
            return min(most, 8)

    class Slow(screens.Screen):
        draw_ms = 12

        def draw(self, fb):
            hw.now += self.draw_ms

    hw = _clocked(Glass())
    rt = runtime.Runtime(hw, saves.Saves(saves.MemFs()))
    rt.screen = Slow()
    rt.step()
    assert hw.shows[-1] == (30 - 12) // 3
    Slow.draw_ms = 40
    rt.step()
    assert hw.shows[-1] == 8
    Slow.draw_ms = 29
    rt.step()
    assert hw.shows[-1] == 2


def test_a_tick_that_draws_nothing_shows_only_what_a_limited_show_left():
    """An idle tick (the frame cache kept the frame) calls show() only while
    the last show sent as many pages as it was allowed (some may be left) or
    after a wake's invalidate(); otherwise the glass already shows the frame."""
    import hardware

    class Glass(hardware.Display):
        left = 0                        # changed pages not yet sent

        def show(self, most=8):
            n = min(self.left, most)
            self.left -= n
            self.hw.shows.append(n)
            return n

        def invalidate(self):
            self.left = 8

    class Still(screens.Screen):
        def frame_key(self):
            return 1

        def draw(self, fb):
            hw.now += 24
            hw.display.left = 8

    hw = _clocked(Glass())
    rt = runtime.Runtime(hw, saves.Saves(saves.MemFs()))
    rt.screen = Still()
    rt.step()
    assert hw.shows == [2]          # drawn at 24 ms: two pages fit before 30
    rt.step()
    assert hw.shows == [2, 6]       # not drawn: the six left over
    rt.step()
    rt.step()
    assert hw.shows == [2, 6]       # nothing left: no show at all
    rt.power = runtime._OFF
    rt.wake(hw.now)
    rt.step()
    assert hw.shows == [2, 6, 8]    # woken: the whole frame again, not drawn


def test_full_frame_fits_400khz():
    d, oled, bus = _glass("ssd1306")
    d.invalidate()
    before = bus.sent
    d.show()
    sent = bus.sent - before
    assert sent == 8 + 1026
    assert sent * 9 / 400000 * 1000 < 23.5


def test_contrast_invert_power_in_the_model():
    d, oled, bus = _glass("ssd1306")
    d.contrast(40)
    d.invert(1)
    assert oled.contrast == 40
    inv = oled.to_text()
    assert inv == _expected().replace("#", "x").replace(".", "#").replace("x", ".")
    d.poweroff()
    assert set(oled.to_text()) <= {".", "\n"}
    d.poweron()
    d.invert(0)
    assert oled.to_text() == _expected()


def test_model_catches_a_missing_charge_pump_and_wrong_offset():
    oled = OledModel("ssd1306")
    oled.write(bytes([0x00, 0xAF]))             # display on, pump never enabled
    assert not oled.lit()
    oled = OledModel("sh1106")
    oled.write(bytes([0x00, 0xAF, 0xA1, 0xC8, 0xB0, 0x00, 0x10]))  # column 0, not 2
    oled.write(bytes([0x40, 0xFF]))
    rows = oled.pixels()
    assert all(rows[y][x] == 0 for y in range(8) for x in range(128))  # off the glass


# -- runtime behaviour ------------------------------------------------------------------------------
class _Boom(screens.Scene):
    def __init__(self, ctx):
        self.n = 0

    def tick(self, ctx):
        self.n += 1
        if self.n == 3:
            raise ValueError("kaboom")

    def draw(self, fb):
        fb.fill(0)


class _Hungry(screens.Scene):
    def __init__(self, ctx):
        self.ctx = ctx
        self.ticks = 0
        self.job = work.Job()
        task = work.Task()
        task.step = self.think
        self.job.start(task)

    def tick(self, ctx):
        self.ticks += 1
        if self.ticks == 2:
            self.job.run(ctx)          # long work that runs out of memory: FAILED, the toast
        if self.ticks == 4:
            raise MemoryError()
        if ctx.buttons.just_pressed(B):
            return "exit"

    def think(self):
        raise MemoryError()

    def draw(self, fb):
        fb.fill(0)
        fb.text("alive %d" % self.ticks, 0, 0, 1)


def _sim_with(module_name, cls):
    import types

    mod = types.ModuleType(module_name)
    mod.Scene = cls
    sys.modules[module_name] = mod
    s = simmod.Simulator()
    s.runtime.registry = (("t", "Test", module_name),)
    s.runtime.launcher.items = ["Test", "Settings", "About"]
    return s


def test_game_exception_shows_error_screen_then_launcher():
    s = _sim_with("boom_game", _Boom)
    for keys in (["a"], ["a"], [], [], [], []):
        s.step(keys)
    assert type(s.runtime.screen).__name__ == "ErrorScreen"
    assert "kaboom" in " ".join(s.runtime.screen.lines)
    assert "boom_game" not in sys.modules
    for keys in (["a"], ["a"], [], []):
        s.step(keys)
    assert s.runtime.screen is s.runtime.launcher


def test_memory_error_in_ai_keeps_the_game_running():
    s = _sim_with("hungry_game", _Hungry)
    for keys in (["a"], ["a"], [], [], [], [], []):
        s.step(keys)
    rt = s.runtime
    assert isinstance(rt.screen, _Hungry) and rt.screen.ticks >= 4
    assert rt._toast == "NOT ENOUGH MEMORY"
    for keys in (["b"], ["b"], [], []):
        s.step(keys)
    assert rt.screen is rt.launcher and "hungry_game" not in sys.modules


def test_safe_mode_skips_the_launcher():
    s = simmod.Simulator(hold_at_boot=("b",))
    assert s.runtime is None
    assert s.oled.lit() and "#" in s.screen_text()


def test_settings_change_contrast_and_difficulty():
    s = simmod.Simulator()
    n = len(s.runtime.registry)                 # Settings follows the games
    script = parse_keys("down*%d a left right wait:2" % n)   # contrast -1, +1
    for keys in script:
        s.step(keys)
    rt = s.runtime
    assert rt.launcher.mode == 1
    for keys in parse_keys("down down right b wait:2"):   # sound, level
        s.step(keys)
    assert rt.settings["difficulty"] == 2 and rt.launcher.mode == 0
    assert rt.saves.load("_settings")[0]["difficulty"] == 2
    assert s.oled.contrast == rt.settings["contrast"]


def test_leaving_the_settings_writes_one_file_and_a_cut_keeps_old_or_new():
    """As a move's save: one file written, nothing renamed or removed (a
    store's renames made the launcher's tick 104-114 ms on the virtual Pico)."""
    s = simmod.Simulator(fs=RecordingFs({}))
    rt = s.runtime
    fs = rt.saves.fs
    n = len(rt.registry)
    for sleep in (300, 0):
        before = dict(fs.files)
        was = rt.saves.load("_settings")[0].get("sleep")
        fs.log.clear()
        for keys in parse_keys("down*%d a down down down right b wait:2" % n):
            s.step(keys)
        assert rt.settings["sleep"] == sleep
        assert [step[0] for step in fs.log] == ["write"], fs.log
        for files in cut_states(before, fs.log):
            cut = saves.MemFs()
            cut.files = files
            assert saves.Saves(cut).load("_settings")[0].get("sleep") in (was, sleep)
        for keys in parse_keys("up*%d" % n):
            s.step(keys)


def test_main_loop_counts_overruns():
    s = simmod.Simulator()
    rt = s.runtime
    clock = [0]
    rt.hw.ticks_ms = lambda: clock[0]

    def sleep(ms):
        clock[0] += ms
    rt.hw.sleep_ms = sleep
    real_step = rt.step

    def slow_step():
        real_step()
        clock[0] += 50 if rt.ticks % 5 == 0 else 2
    rt.step = slow_step
    rt.run(max_ticks=30)
    assert rt.overruns == 6
    assert 900 <= clock[0] <= 1300


# -- frame cache (frame_key) -------------------------------------------------------------------------
def _count_draws(screen):
    calls = [0]
    real = screen.draw

    def draw(fb):
        calls[0] += 1
        real(fb)
    screen.draw = draw
    return calls


def test_unchanged_launcher_is_not_redrawn():
    s = simmod.Simulator()
    rt = s.runtime
    calls = _count_draws(rt.launcher)
    for keys in parse_keys("wait:10"):
        s.step(keys)
    assert calls[0] == 1                       # the first frame only
    shown = bytes(rt.display.buffer)
    for keys in parse_keys("down wait:5"):
        s.step(keys)
    assert calls[0] == 2 and bytes(rt.display.buffer) != shown   # a change is drawn once
    rt.toast("HELLO", 3)                        # a toast appears, stays, goes
    for keys in parse_keys("wait:6"):
        s.step(keys)
    assert calls[0] == 4                       # under the toast, then without it
    rt.frame_cache = False
    for keys in parse_keys("wait:3"):
        s.step(keys)
    assert calls[0] == 7


def _frames(script, toasts, cache, hooks=None):
    """The frame buffer after every tick of ``script``; ``toasts``: tick -> message,
    ``hooks``: tick -> function(runtime) called before that tick."""
    s = simmod.Simulator()
    rt = s.runtime
    rt.frame_cache = cache
    out = []
    for i, keys in enumerate(parse_keys(script)):
        if i in toasts:
            rt.toast(toasts[i], 4)
        if hooks and i in hooks:
            hooks[i](rt)
        s.step(keys)
        out.append(bytes(rt.display.buffer))
    return out


_TOASTS = {3: "ONE", 5: "TWO", 12: "THREE", 30: "FOUR", 31: "FOUR", 60: "FIVE"}


def _game_scripts():
    import games

    n = len(games.GAMES)
    yield "launcher", ("wait down wait up up wait:2 down*%d a wait:2 down right left wait:3 down right "
                       "b wait:3 down a wait:3 a wait:2 b wait:4 up*3 wait:2" % n)
    for i, g in enumerate(games.GAMES):
        yield g[0], ("down*%d a wait:5 down wait:2 up wait:2 left right wait a wait:10 right a wait:6 "
                     "b wait:4 b wait:3 hold:b:40 wait:4 b wait:3" % i)


@pytest.mark.parametrize("name,script", list(_game_scripts()))
def test_frame_cache_gives_the_same_pixels(name, script):
    with_cache = _frames(script, _TOASTS, True)
    without = _frames(script, _TOASTS, False)
    assert len(with_cache) > 40
    for i, (a, b) in enumerate(zip(with_cache, without)):
        assert a == b, "tick %d differs" % i


def test_frame_cache_trapcat_end_screen():
    import games

    i = [g[0] for g in games.GAMES].index("trapcat")
    script = "down*%d a wait:10 wait:40 a wait:10 wait:5" % i
    hooks = {4 * i + 12: lambda rt: rt.screen.end()}       # end the game: the end screen
    toasts = {4 * i + 20: "SAVED", 4 * i + 30: "AGAIN"}
    with_cache = _frames(script, toasts, True, hooks)
    assert with_cache == _frames(script, toasts, False, hooks)
    assert with_cache[4 * i + 18] != with_cache[4 * i + 8]     # the end screen was shown


# -- settings and the boot: a save that does not fit, a step that fails ---------------------------
def _booted_with_settings(tmp_path, stored):
    """A handheld booted on saves in ``tmp_path`` whose settings file (written
    through the save store: a valid CRC) holds ``stored``; a few ticks run."""
    saves.Saves(saves.OsFs(str(tmp_path))).store("_settings", stored)
    s = simmod.Simulator(saves_dir=tmp_path)
    for _ in range(3):
        s.step()
    return s


@pytest.mark.parametrize("key, bad", [
    ("contrast", "x"), ("contrast", 256), ("contrast", -1), ("contrast", 1.5), ("contrast", True),
    ("contrast", None), ("difficulty", 3), ("difficulty", "1"), ("difficulty", [1]),
    ("sound", 1), ("sound", "yes"), ("sleep", 45), ("sleep", False), ("sleep", {"s": 60}),
])
def test_a_setting_that_does_not_fit_falls_back_to_its_default_and_the_rest_is_kept(
        tmp_path, key, bad):
    stored = {"difficulty": 2, "contrast": 96, "sound": False, "sleep": 300}
    stored[key] = bad
    s = _booted_with_settings(tmp_path, stored)
    rt = s.runtime
    assert rt.screen is rt.launcher and "#" in s.screen_text()
    want = dict(stored)
    want[key] = runtime.DEFAULT_SETTINGS[key]
    assert rt.settings == want
    assert rt._toast == "SETTINGS RESET" and rt._toast_ticks > 0
    assert s.oled.contrast == want["contrast"]
    # the save was rewritten without the bad value: the next boot says nothing
    assert saves.Saves(saves.OsFs(str(tmp_path))).load("_settings")[0] == {
        k: v for k, v in stored.items() if k != key}
    again = simmod.Simulator(saves_dir=tmp_path)
    again.step()
    assert again.runtime.settings == want and again.runtime._toast is None


def test_a_contrast_that_is_text_boots_to_the_launcher(tmp_path):
    s = _booted_with_settings(tmp_path, {"contrast": "x"})
    rt = s.runtime
    assert rt.screen is rt.launcher and rt.settings == runtime.DEFAULT_SETTINGS
    assert rt._toast == "SETTINGS RESET"
    for keys in parse_keys("down*%d a right b wait:2" % len(rt.registry)):   # the settings
        s.step(keys)
    assert rt.screen is rt.launcher and rt.settings["contrast"] == 24


def test_good_settings_boot_without_a_toast(tmp_path):
    stored = {"difficulty": 0, "contrast": 176, "sound": True, "sleep": 0, "from_an_older_one": 1}
    rt = _booted_with_settings(tmp_path, stored).runtime
    del stored["from_an_older_one"]
    assert rt.settings == stored and rt._toast is None


class _OddSaves(saves.Saves):
    """A save store that hands back what no store should (not a dict) for a play save."""

    def load(self, game_id):
        if game_id.endswith("/play"):
            return None, "ok"
        return super().load(game_id)


def _boot(s, store):
    import main
    rt = main.boot(s.cfg, s.hw, store)
    s.runtime = rt
    for _ in range(3):
        s.step()
    return rt


def test_a_boot_step_that_fails_starts_the_launcher_with_defaults_and_says_so():
    s = simmod.Simulator()
    store = _OddSaves(saves.MemFs())
    store.store("_settings", {"difficulty": 2, "contrast": 96})
    rt = _boot(s, store)
    assert rt.screen is rt.launcher and "#" in s.screen_text()
    assert rt.settings == runtime.DEFAULT_SETTINGS and rt.resumable == []
    assert rt._toast == "BOOT ERROR - USING DEFAULTS"
    for keys in parse_keys("a wait:3"):          # and the games still start
        s.step(keys)
    assert rt.ctx.game_id == rt.registry[0][0]


def test_a_panel_that_refuses_the_contrast_at_boot_still_boots():
    s = simmod.Simulator()
    real = s.hw.display.contrast
    calls = []

    def contrast(value):
        calls.append(value)
        if len(calls) == 1:
            raise OSError(5, "EIO")
        real(value)
    s.hw.display.contrast = contrast
    rt = _boot(s, saves.Saves(saves.MemFs()))
    assert rt.screen is rt.launcher and rt._toast == "BOOT ERROR - USING DEFAULTS"


def test_a_launcher_that_fails_on_the_settings_is_built_again_on_the_defaults(monkeypatch):
    import launcher
    s = simmod.Simulator()
    real = launcher.Launcher._refresh_labels

    def refresh(self):
        if self.rt.settings["difficulty"] == 2:
            raise IndexError("no label")
        real(self)
    monkeypatch.setattr(launcher.Launcher, "_refresh_labels", refresh)
    store = saves.Saves(saves.MemFs())
    store.store("_settings", {"difficulty": 2})
    rt = _boot(s, store)
    assert isinstance(rt.launcher, launcher.Launcher) and rt.screen is rt.launcher
    assert rt.settings == runtime.DEFAULT_SETTINGS
    assert rt._toast == "BOOT ERROR - USING DEFAULTS"


# -- a saved game that makes its game fail ------------------------------------------------------
class _BadSave(screens.Scene):
    """Saves a game on its first tick; put back by CONTINUE, it raises on the
    ``fail_at``-th tick after restore() (``restore_raises``: restore raises)."""

    fail_at = 2
    restore_raises = None

    def __init__(self, ctx):
        self.n = 0
        self.restored = False

    def tick(self, ctx):
        self.n += 1
        if self.restored and self.n == self.fail_at:
            raise ValueError("bad save")
        if self.n == 1 and not self.restored:
            ctx.save_game()
        if ctx.buttons.just_pressed(B):
            return "exit"

    def snapshot(self):
        return {"n": 5}

    def restore(self, snap):
        if self.restore_raises:
            raise self.restore_raises
        self.restored = True
        return snap["n"] == 5

    def draw(self, fb):
        fb.fill(0)


class _SceneFinder:
    """Imports a test scene module ``name`` (Scene = ``cls``) again each time the
    runtime, leaving the game, took it out of sys.modules."""

    def __init__(self, name, cls):
        self.name = name
        self.cls = cls

    def find_spec(self, fullname, path=None, target=None):
        import importlib.util
        return importlib.util.spec_from_loader(fullname, self) if fullname == self.name else None

    def create_module(self, spec):
        import types
        module = types.ModuleType(spec.name)
        module.Scene = self.cls
        return module

    def exec_module(self, module):
        pass


def _continue_bad_save(cls, monkeypatch):
    """Play, leave (the game saved), then CONTINUE: the runtime after it."""
    s = _sim_with("badsave_game", cls)
    monkeypatch.setattr(sys, "meta_path", [_SceneFinder("badsave_game", cls)] + sys.meta_path)
    rt = s.runtime
    for keys in parse_keys("wait:2 a wait:3 b wait:2"):
        s.step(keys)
    assert rt.screen is rt.launcher and rt.resumable == ["t"]
    for keys in parse_keys("a wait:3"):
        s.step(keys)
    return s, rt


def test_a_game_that_fails_right_after_continue_loses_its_saved_game(monkeypatch):
    s, rt = _continue_bad_save(_BadSave, monkeypatch)
    assert type(rt.screen).__name__ == "ErrorScreen" and "bad save" in " ".join(rt.screen.lines)
    assert rt._toast == "SAVED GAME LOST"
    assert rt.resumable == [] and rt.saves.load("t/play")[0] == {}
    for keys in parse_keys("a wait:2 a wait:40"):    # back, then A: a new game, no error
        s.step(keys)
    assert isinstance(rt.screen, _BadSave) and not rt.screen.restored and rt.screen.n > 30


def test_a_game_that_fails_later_keeps_its_saved_game(monkeypatch):
    class Later(_BadSave):
        fail_at = 40
    s, rt = _continue_bad_save(Later, monkeypatch)
    for keys in parse_keys("wait:40"):
        s.step(keys)
    assert type(rt.screen).__name__ == "ErrorScreen"
    assert rt.resumable == ["t"] and rt.saves.load("t/play")[0] == {"resume": {"n": 5}}


def test_a_restore_that_raises_what_no_refusal_raises_loses_the_saved_game(monkeypatch):
    class Raises(_BadSave):
        restore_raises = ZeroDivisionError("division by zero")
    s, rt = _continue_bad_save(Raises, monkeypatch)
    assert type(rt.screen).__name__ == "ErrorScreen" and rt._toast == "SAVED GAME LOST"
    assert rt.resumable == [] and rt.saves.load("t/play")[0] == {}
