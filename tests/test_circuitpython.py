"""The CircuitPython / Blinka backend (firmware/hw_circuitpython.py) against fake
CircuitPython modules (host_tools/fakecp): the I2C bytes displayio sends are
decoded by the simulator's controller model and must give the same glass as the
MicroPython path (host_tools.sim) for the same scenes; keypad events are
scripted; the `run` command and the CircuitPython flash deployment."""

import io
import json
import sys
import types

import pytest

from clirun import run_cli
from host_tools import flash
from host_tools.cpsim import CpSimulator, install_fake_circuitpython
from host_tools.sim import Simulator, parse_keys

FAKES = install_fake_circuitpython()
import buttons  # noqa: E402  (firmware, importable after the install)
import games  # noqa: E402

PAIRS = (("pico-ssd1306", "pico-cp-ssd1306"), ("pico-sh1106", "pico-cp-sh1106"),
         ("pico-ssd1306-5btn", "pico-ssd1306-5btn"), ("oled-bonnet", "oled-bonnet"))


def same_run(mp_board, cp_board, script, every=1):
    a = Simulator(mp_board)
    b = CpSimulator(cp_board)
    assert a.oled.pixels() == b.oled.pixels()
    for i, keys in enumerate(script):
        a.step(keys)
        b.step(keys)
        if i % every == 0 or i == len(script) - 1:
            assert a.oled.pixels() == b.oled.pixels(), "tick %d differs" % i
    return a, b


@pytest.mark.parametrize("mp_board,cp_board", PAIRS)
def test_launcher_pixels_equal_micropython_path(mp_board, cp_board):
    a, b = same_run(mp_board, cp_board, parse_keys("wait:3 down up wait:3"))
    assert sum(map(sum, b.oled.pixels())) > 100 and b.oled.lit()
    assert b.oled.unknown in ([], [0x20, 0x20])   # SH1106 ignores Adafruit's 0x20 0x20


@pytest.mark.parametrize("index", range(len(games.GAMES)))
def test_each_game_first_screens_equal(index):
    script = parse_keys("wait:2 " + "down " * index + "a wait:12 right wait:6 left wait:6")
    a, b = same_run("pico-ssd1306", "pico-cp-ssd1306", script, every=2)
    assert b.runtime.game is not None
    assert b.runtime.game_entry[0] == games.GAMES[index][0]


def test_game_screens_sh1106():
    script = parse_keys("wait:2 a wait:10 up wait:4")
    a, b = same_run("pico-sh1106", "pico-cp-sh1106", script, every=3)
    assert b.runtime.game is not None


def test_only_changed_pages_are_sent():
    sim = CpSimulator("pico-cp-ssd1306")
    busio = FAKES["busio"]
    for _ in range(4):
        sim.step()
    disp = sim.hw.display
    n = len(busio.log)
    sim.step()
    assert len(busio.log) == n                       # nothing changed: no I2C at all
    was = disp.fb.pixel(5, 20)
    disp.fb.pixel(5, 20, 1 - was)                    # one pixel in page 2
    assert disp.show() == 1
    sent = busio.log[n:]
    # column window, page window, 128 data bytes
    assert [len(d) for _, d in sent] == [6, 6, 129]
    assert sent[1][1] == bytes((0x80, 0x22, 0x80, 2, 0x80, 2))
    assert sim.oled.pixels()[20][5] == 1 - was
    disp.invalidate()
    n = len(busio.log)
    assert disp.show() == 8
    assert sum(len(d) + 1 for _, d in busio.log[n:]) == 8 * (7 + 7 + 130)


def test_contrast_and_power_reach_the_controller():
    sim = CpSimulator("pico-cp-ssd1306")
    disp = sim.hw.display
    disp.contrast(0)
    assert sim.oled.contrast == 0
    disp.contrast(255)
    assert sim.oled.contrast == 255
    disp.poweroff()
    assert not sim.oled.display_on
    disp.poweron()
    assert sim.oled.display_on


def test_readinto_bit_order_is_the_c_one():
    bt, dio = FAKES["bitmaptools"], FAKES["displayio"]
    bmp = dio.Bitmap(8, 2, 2)
    bt.readinto(bmp, io.BytesIO(b"\x01\x80"), 1, 1, False)
    assert [bmp[x, 0] for x in range(8)] == [1, 0, 0, 0, 0, 0, 0, 0]
    assert [bmp[x, 1] for x in range(8)] == [0, 0, 0, 0, 0, 0, 0, 1]
    bt.readinto(bmp, io.BytesIO(b"\x01\x80"), 1, 1, True)
    assert bmp[7, 0] == 1 and bmp[0, 1] == 1
    with pytest.raises(EOFError):
        bt.readinto(bmp, io.BytesIO(b"\x01"), 1, 1, False)


# -- keypad ------------------------------------------------------------------------
def fresh_hw(board):
    sim = CpSimulator(board)
    return sim, sim.hw


def test_keypad_events_become_button_masks():
    sim, hw = fresh_hw("pico-cp-ssd1306")
    keys = hw.keys[0]
    order = [p.id for p in keys.pins]
    a = order.index(8)
    keys.queue(a, True)
    assert hw.read_buttons() == buttons.A
    assert hw.read_buttons() == buttons.A                     # still held
    keys.queue(a, False)
    assert hw.read_buttons() == 0


def test_tap_inside_one_read_is_latched():
    sim, hw = fresh_hw("pico-cp-ssd1306")
    keys = hw.keys[0]
    up = [p.id for p in keys.pins].index(2)
    keys.queue(up, True)
    keys.queue(up, False)
    assert hw.read_buttons() == buttons.UP                    # the press is seen once
    assert hw.read_buttons() == 0                             # then the release
    b = buttons.Buttons()
    keys.queue(up, True)
    keys.queue(up, False)
    b.sample(hw.read_buttons(), 100)
    b.update(100)
    assert b.just_pressed(buttons.UP)


def test_scripted_taps_drive_the_launcher():
    sim, hw = fresh_hw("pico-cp-ssd1306")
    keys = hw.keys[0]
    a = [p.id for p in keys.pins].index(8)
    for _ in range(3):
        sim.step()
    keys.queue(a, True)                 # tap A between two ticks: press + release queued
    keys.queue(a, False)
    sim.runtime.step()
    assert sim.runtime.game is not None


def test_combo_and_extra_inputs():
    sim, hw = fresh_hw("pico-ssd1306-5btn")      # B = LEFT + RIGHT
    sim.set_keys(["left", "right"])
    assert hw.read_buttons() == buttons.B
    sim.set_keys([])
    assert hw.read_buttons() == 0
    sim, hw = fresh_hw("oled-bonnet")            # stick centre (BCM4) is A too
    levels = FAKES["keypad"].levels
    levels[4] = 0
    assert hw.read_buttons() == buttons.A
    levels[5] = 0                                # A as well; release the centre: still A
    levels[4] = 1
    assert hw.read_buttons() == buttons.A
    levels[5] = 1
    assert hw.read_buttons() == 0


def test_safe_mode_with_b_held_at_boot():
    sim = CpSimulator("pico-cp-ssd1306", hold_at_boot=("b",))
    assert sim.runtime is None
    assert sum(map(sum, sim.oled.pixels())) > 50


def test_pull_down_inputs_get_their_own_keys(tmp_path, monkeypatch):
    import boardcfg
    import hw_circuitpython

    cfg = boardcfg.load("pico-cp-ssd1306", str(flash.BOARDS_DIR))
    cfg["buttons"]["a"]["pull"] = "down"
    FAKES["busio"].reset()
    FAKES["keypad"].reset()
    from host_tools.oledmodel import OledModel
    FAKES["busio"].attach(0x3C, OledModel())
    hw = hw_circuitpython.Hardware(cfg)
    assert [k.value_when_pressed for k in hw.keys] == [False, True]
    FAKES["keypad"].levels[8] = 1
    assert hw.read_buttons() == buttons.A


def test_clock_extends_the_29_bit_tick_counter():
    import hw_circuitpython
    sim, hw = fresh_hw("pico-cp-ssd1306")
    hw = hw_circuitpython.Hardware.__new__(hw_circuitpython.Hardware)
    t = [0x1FFFFFF0]
    hw._clock = lambda: t[0]
    hw._last = t[0]
    hw._now = 0x3FFFFFF0
    t[0] = 0x10                      # the source wrapped: 0x20 ms later
    assert hw.ticks_ms() == 0x00000010
    assert buttons.ticks_diff(hw.ticks_ms(), 0x3FFFFFF0) == 0x20


# -- run (Blinka) --------------------------------------------------------------------


def test_run_without_display_is_one_clear_line(capsys):
    FAKES["busio"].reset()
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "2"], capsys)
    assert code == 2
    assert err.startswith("error: no display at 0x3C on I2C bus 1") and err.count("\n") == 1


def test_run_wrong_address_names_what_answers(capsys):
    from host_tools.oledmodel import OledModel
    FAKES["busio"].reset()
    FAKES["busio"].attach(0x3D, OledModel())
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "2"], capsys)
    assert code == 2 and "devices found: 0x3D" in err and "oled-bonnet.json" in err


def test_run_non_blinka_board_is_refused(capsys):
    code, out, err = run_cli(["run", "--board", "pico-ssd1306"], capsys)
    assert code == 2 and "micropython" in err


def test_run_starts_the_launcher(capsys, tmp_path, monkeypatch):
    from host_tools.oledmodel import OledModel
    FAKES["busio"].reset()
    oled = OledModel()
    FAKES["busio"].attach(0x3C, oled)
    import time as _time
    clock = FAKES["supervisor"].now

    def sleep(seconds):                 # virtual time: supervisor.ticks_ms advances
        clock[0] += max(1, int(seconds * 1000))
    monkeypatch.setattr(_time, "sleep", sleep)
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "3",
                              "--saves", str(tmp_path)], capsys)
    assert code == 0, err
    ref = Simulator("oled-bonnet")
    for _ in range(3):
        ref.step()
    assert oled.pixels() == ref.oled.pixels()


# -- flash + boot.py -------------------------------------------------------------------
def test_flash_circuitpython_board(tmp_path, monkeypatch, capsys):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico\n")
    calls = []

    class Done:
        returncode = 0
        stdout = stderr = ""
    monkeypatch.setattr(flash.shutil, "which", lambda name: "/usr/bin/circup")
    monkeypatch.setattr(flash.subprocess, "run", lambda cmd, **kw: calls.append(cmd) or Done())
    code, out, err = run_cli(["flash", "--board", "pico-cp-sh1106", "--drive", str(drive)], capsys)
    assert code == 0, err
    root = flash.ROOT
    assert (drive / "boot.py").read_bytes() == (root / "firmware" / "boot_cp.py").read_bytes()
    assert (drive / "framebuf.py").read_bytes() == flash.HOST_FRAMEBUF.read_bytes()
    assert (drive / "hw_circuitpython.py").exists() and (drive / "code.py").exists()
    assert not (drive / "boot_cp.py").exists()
    assert json.loads((drive / "board.json").read_text())["runtime"] == "circuitpython"
    assert calls == [["/usr/bin/circup", "--path", str(drive), "install", "adafruit_displayio_sh1106"]]


def test_flash_refuses_blinka_and_missing_drive(monkeypatch, capsys):
    code, out, err = run_cli(["flash", "--board", "oled-bonnet"], capsys)
    assert code == 2 and "run --board oled-bonnet" in err
    monkeypatch.setattr(flash, "find_circuitpy_drives", lambda: [])
    code, out, err = run_cli(["flash", "--board", "pico-cp-ssd1306"], capsys)
    assert code == 2 and "no CIRCUITPY drive" in err


def _boot_cp(tmp_path, monkeypatch, held):
    calls = []

    class DIO:
        def __init__(self, pin):
            self.pin = pin

        def switch_to_input(self, pull=None):
            self.pull = pull

        @property
        def value(self):
            return 0 if held else 1

        def deinit(self):
            pass
    digitalio = types.SimpleNamespace(DigitalInOut=DIO, Pull=types.SimpleNamespace(UP=1, DOWN=2))
    storage = types.SimpleNamespace(remount=lambda path, readonly: calls.append((path, readonly)))
    monkeypatch.setitem(sys.modules, "digitalio", digitalio)
    monkeypatch.setitem(sys.modules, "storage", storage)
    monkeypatch.setitem(sys.modules, "boot_switch", types.SimpleNamespace(run=lambda: calls.append("switch")))
    import time as _time
    monkeypatch.setattr(_time, "sleep", lambda s: None)
    src = (flash.ROOT / "firmware" / "boot_cp.py").read_text()
    ns = {"__name__": "boot"}
    exec(compile(src, "boot.py", "exec"), ns)
    return ns["MODE"], calls


def test_boot_py_modes(tmp_path, monkeypatch):
    mode, calls = _boot_cp(tmp_path, monkeypatch, held=True)
    assert mode == "usb" and calls == []
    mode, calls = _boot_cp(tmp_path, monkeypatch, held=False)
    assert mode == "play" and calls == [("/", False), "switch"]


# -- the pure-Python framebuf deployed to CircuitPython, run on MicroPython -------------
def _random_fb_ops(seed, n):
    import random

    rnd = random.Random(seed)
    ops = []
    for _ in range(n):
        kind = rnd.choice(("fill_rect", "hline", "vline", "rect", "text", "blit", "blit",
                           "line", "pixel", "fill"))
        c = rnd.randint(0, 1)
        if kind == "fill":
            if rnd.random() < 0.2:
                ops.append(("fill", (c,)))
        elif kind == "text":
            s = "".join(chr(rnd.randint(30, 130)) for _ in range(rnd.randint(0, 9)))
            ops.append(("text", (s, rnd.randint(-20, 130), rnd.randint(-12, 68), c)))
        elif kind == "blit":
            key = rnd.choice((-1, 0, 1, 2))
            pal = rnd.choice((None, None, "inv", "one", "zero"))
            ops.append(("blit", (rnd.randint(0, 3), rnd.randint(-14, 130), rnd.randint(-16, 68),
                                 key, pal)))
        elif kind == "pixel":
            ops.append(("pixel", (rnd.randint(-2, 129), rnd.randint(-2, 65), c)))
        elif kind == "line":
            ops.append(("line", tuple(rnd.randint(-20, 140) for _ in range(4)) + (c,)))
        elif kind in ("hline", "vline"):
            ops.append((kind, (rnd.randint(-20, 130), rnd.randint(-10, 70), rnd.randint(-3, 140), c)))
        else:
            ops.append((kind, (rnd.randint(-20, 130), rnd.randint(-10, 70), rnd.randint(-3, 60),
                               rnd.randint(-3, 40), c)))
    return ops


_FB_COMPARE = r'''
import sys
import framebuf as builtin
import cpframebuf as pure
def run(fbmod, h):
    buf = bytearray(128 * ((h + 7) // 8))
    fb = fbmod.FrameBuffer(buf, 128, h, fbmod.MONO_VLSB)
    srcs = (fbmod.FrameBuffer(bytearray(b"\x81\x42\x24\x18\x18\x24\x42\x81\xff\x00"), 10, 8, fbmod.MONO_VLSB),
            fbmod.FrameBuffer(bytearray(b"\x1f\x15\x0a"), 3, 5, fbmod.MONO_VLSB),
            fbmod.FrameBuffer(bytearray(b"\xa5\x5a\xff\x00\x3c\x81\x7e\x99\x11\x0f\x13\xf0\x66\xc3"), 7, 13, fbmod.MONO_VLSB),
            fbmod.FrameBuffer(bytearray(b"\xf1\x8f" * 24), 16, 24, fbmod.MONO_VLSB))
    pals = {'inv': fbmod.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, fbmod.MONO_VLSB),
            'one': fbmod.FrameBuffer(bytearray(b"\x01\x01"), 2, 1, fbmod.MONO_VLSB),
            'zero': fbmod.FrameBuffer(bytearray(b"\x00\x00"), 2, 1, fbmod.MONO_VLSB), None: None}
    for name, args in OPS:
        if name == 'blit':
            fb.blit(srcs[args[0]], args[1], args[2], args[3], pals[args[4]])
        else:
            getattr(fb, name)(*args)
    return bytes(buf)
for h in (64, 61):
    emit('same%d' % h, run(builtin, h) == run(pure, h))
'''


@pytest.mark.parametrize("seed", range(3))
def test_pure_framebuf_runs_on_micropython_and_matches_builtin(vm, seed):
    """The framebuf.py flashed to CircuitPython runs in the MicroPython VM and
    gives the built-in framebuf's bytes for random clipped draws (byte-wise text,
    blit with key/palette at unaligned rows, fills), also with a height that is
    not a multiple of 8."""
    from host_tools import runtime_vm

    code = "OPS = %r\n" % (_random_fb_ops(seed, 250),) + _FB_COMPARE
    with runtime_vm.staged_cp_firmware() as fw:
        r = vm(code, input_dir=fw)
    assert r["same64"] and r["same61"]
