"""The CircuitPython / Blinka backend (firmware/hw_circuitpython.py) on the REAL
display stack (Blinka's displayio + Adafruit's SSD1306/SH1106 drivers, from PyPI):
the I2C bytes they send are decoded by the simulator's controller model and must
give the same glass, pixel for pixel, as the MicroPython path (host_tools.emulation.sim)
for the same key scripts; keypad events are scripted (host_tools/emulation/fakecp); the
`run` command end to end on the simulated bus; the CircuitPython flash
deployment."""

import io
import json
import sys
import types
from pathlib import Path

import pytest

from clirun import run_cli
from host_tools.core.fwpath import ROOT as ROOT_DIR
from host_tools.device import cpflash
from host_tools.emulation import runtime_vm
from host_tools.emulation.cpsim import CpSimulator, SimI2C, install_circuitpython
from host_tools.core.keyscript import parse_keys
from host_tools.emulation.sim import Simulator

MODS = install_circuitpython()
import buttons  # noqa: E402  (firmware, importable after the install)
import clock  # noqa: E402
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


def test_the_display_stack_is_the_real_one():
    import adafruit_displayio_sh1106
    import adafruit_displayio_ssd1306

    site = str(Path(pytest.__file__).resolve().parent.parent)
    for mod in [MODS[name] for name in ("displayio", "busdisplay", "i2cdisplaybus", "bitmaptools")] \
            + [adafruit_displayio_ssd1306, adafruit_displayio_sh1106]:
        assert str(Path(mod.__file__).resolve()).startswith(site), mod
    assert adafruit_displayio_ssd1306.__version__ == "3.0.6"
    sim = CpSimulator("pico-cp-sh1106")
    assert type(sim.hw.display.oled) is adafruit_displayio_sh1106.SH1106
    for name in ("board", "keypad", "supervisor"):
        assert "host_tools" in MODS[name].__file__ and "Stands for" in MODS[name].__doc__


@pytest.mark.parametrize("mp_board,cp_board", PAIRS)
def test_launcher_pixels_equal_micropython_path(mp_board, cp_board):
    a, b = same_run(mp_board, cp_board, parse_keys("wait:3 down up wait:3"))
    assert sum(map(sum, b.oled.pixels())) > 100 and b.oled.lit()
    assert b.oled.unknown in ([], [0x20, 0x20])   # SH1106 ignores Adafruit's 0x20 0x20


# every game, from the launcher: menus, a few moves, the redraws after them
GAME_SCRIPT = "wait:2 %sa wait:12 right wait:6 left wait:6 down wait:4 a wait:6 up wait:4 b wait:6"


@pytest.mark.parametrize("index", range(len(games.GAMES)))
def test_each_game_screens_equal(index):
    script = parse_keys(GAME_SCRIPT % ("down " * index))
    a, b = same_run("pico-ssd1306", "pico-cp-ssd1306", script, every=1)
    assert b.runtime.game_entry[0] == games.GAMES[index][0]


@pytest.mark.parametrize("index", range(len(games.GAMES)))
def test_each_game_screens_equal_sh1106(index):
    script = parse_keys(GAME_SCRIPT % ("down " * index))
    a, b = same_run("pico-sh1106", "pico-cp-sh1106", script, every=3)
    assert b.runtime.game_entry[0] == games.GAMES[index][0]


def _init_commands(log):
    """The commands of the transactions before the first pixel data."""
    cmds = []
    for _, data in log:
        if data[0] == 0x40:
            break
        assert all(c == 0x80 for c in data[0::2])     # I2CDisplayBus: (Co=1, command) pairs
        cmds.append(bytes(data[1::2]))
    return cmds


def test_sim_command_runs_circuitpython_boards_on_the_real_stack(capsys, tmp_path, monkeypatch):
    """`sim --board pico-cp-sh1106` goes through host_tools.emulation.cpsim (Adafruit's driver over
    SimI2C); its screen is the MicroPython board's, its I2C traffic displayio's."""
    from host_tools.emulation import cpsim

    made = []
    monkeypatch.setattr(cpsim.CpSimulator, "wire_totals",
                        lambda self: made.append(self) or (len(self.i2c.log), 0))
    outs = {}
    for board in ("pico-sh1106", "pico-cp-sh1106"):
        code, out, err = run_cli(["sim", "--board", board, "--keys", "wait:3 down a wait:8",
                                  "--frontend", "headless", "--saves", str(tmp_path / board)], capsys)
        assert code == 0, err
        outs[board] = out.rsplit("\n", 2)[0]      # the screen, without the I2C totals line
    assert outs["pico-sh1106"] == outs["pico-cp-sh1106"]
    assert len(made) == 1 and type(made[0].hw.display.oled).__name__ == "SH1106"


@pytest.mark.parametrize("board,controller", (("pico-cp-ssd1306", "ssd1306"),
                                              ("pico-cp-sh1106", "sh1106")))
def test_real_driver_init_is_a_valid_controller_init(board, controller):
    """Adafruit's init sequence reaches the model whole and leaves the panel lit and
    upright: display off first, on last; charge pump / DC-DC on; 64-row mux; COM
    pins alternative; segment remap + COM scan reversed (the usual module mounting)."""
    sim = CpSimulator(board)
    oled = sim.oled
    cmds = _init_commands(sim.i2c.log)
    assert cmds[0] == b"\xae" and b"\xaf" in cmds
    assert cmds.index(b"\xaf") > max(i for i, c in enumerate(cmds) if c[0] in (0x8D, 0xAD, 0xA8))
    assert (b"\x8d\x14" if controller == "ssd1306" else b"\xad\x8b") in cmds
    assert oled.lit() and oled.mux == 63 and oled.com_pins == 0x12
    assert oled.seg_remap and oled.com_reverse and not oled.invert and not oled.entire_on
    assert oled.contrast == 255                      # brightness 1.0 after the init
    # the SH1106 has no 0x20 (addressing mode): Adafruit's init sends it, the chip ignores it
    assert oled.unknown == ([] if controller == "ssd1306" else [0x20, 0x20])
    for _ in range(3):
        sim.step()
    assert sum(map(sum, oled.pixels())) > 100


def test_only_changed_pages_are_sent():
    sim = CpSimulator("pico-cp-ssd1306")
    log = sim.i2c.log
    for _ in range(4):
        sim.step()
    disp = sim.hw.display
    n = len(log)
    sim.step()
    assert len(log) == n                             # nothing changed: no I2C at all
    was = disp.fb.pixel(5, 20)
    disp.fb.pixel(5, 20, 1 - was)                    # one pixel in page 2
    assert disp.show() == 1
    sent = log[n:]
    pixel_bytes = sum(len(d) - 1 for _, d in sent if d[0] == 0x40)
    assert pixel_bytes == 128                        # one 128x8 page, nothing more
    assert sim.oled.pixels()[20][5] == 1 - was
    disp.invalidate()
    n = len(log)
    assert disp.show() == 8
    assert sum(len(d) - 1 for _, d in log[n:] if d[0] == 0x40) == 1024


def test_a_limited_show_sends_the_rest_first_next_time():
    sim = CpSimulator("pico-cp-ssd1306")
    for _ in range(4):
        sim.step()
    disp = sim.hw.display
    disp.fb.fill(1)
    assert disp.show(5) == 5
    lit = [sum(row) for row in sim.oled.pixels()]
    assert min(lit[:40]) == 128 and min(lit[40:]) < 128     # pages 5..7 not yet
    assert disp.show(5) == 3
    assert min(sum(row) for row in sim.oled.pixels()) == 128
    assert disp.show(5) == 0


def test_limited_shows_match_the_contract_in_any_order_of_changes():
    """Random page changes, invalidations and limits against a model of the
    contract: the changed (or invalidated) pages go in page order from the
    first one left over last time, round to page 0, at most ``most`` of
    them; the glass shows the pages sent."""
    import random

    sim = CpSimulator("pico-cp-ssd1306")
    for _ in range(4):
        sim.step()
    disp = sim.hw.display
    buf = disp.buffer
    glass = bytearray(buf)          # what the model says the glass shows
    stale = set()
    first = 0
    rng = random.Random(7)
    for _ in range(120):
        what = rng.random()
        if what < 0.1:
            disp.invalidate()
            stale = set(range(8))
        elif what < 0.8:
            for page in rng.sample(range(8), rng.randint(1, 8)):
                x = rng.randrange(128)
                buf[page * 128 + x] = rng.choice((buf[page * 128 + x], rng.randrange(256)))
        most = rng.randint(1, 8)
        order = [(first + i) % 8 for i in range(8)]
        due = [p for p in order if p in stale or buf[p * 128:(p + 1) * 128] != glass[p * 128:(p + 1) * 128]]
        for p in due[:most]:
            glass[p * 128:(p + 1) * 128] = buf[p * 128:(p + 1) * 128]
            stale.discard(p)
        first = due[most] if len(due) > most else 0
        assert disp.show(most) == len(due[:most])
        want = [bytearray(glass[y // 8 * 128 + x] >> y % 8 & 1 for x in range(128)) for y in range(64)]
        assert sim.oled.pixels() == want


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
    bt, dio = MODS["bitmaptools"], MODS["displayio"]
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


def test_tap_and_press_again_inside_one_read_reads_held():
    """A long tick (a game loading, a save) may see a key pressed, released and pressed
    again: keypad keeps the order; the key is down at the end, so it reads down until
    its release comes (it read released, the hold lost, before)."""
    sim, hw = fresh_hw("pico-cp-ssd1306")
    keys = hw.keys[0]
    down = [p.id for p in keys.pins].index(3)
    for pressed in (True, False, True):
        keys.queue(down, pressed)
    assert hw.read_buttons() == buttons.DOWN
    assert hw.read_buttons() == buttons.DOWN                  # still held
    keys.queue(down, False)
    assert hw.read_buttons() == 0
    for pressed in (True, False, True, False):               # two taps: one press seen
        keys.queue(down, pressed)
    assert hw.read_buttons() == buttons.DOWN
    assert hw.read_buttons() == 0


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
    levels = MODS["keypad"].levels
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

    cfg = boardcfg.load("pico-cp-ssd1306", str(ROOT_DIR / "boards"))
    cfg["buttons"]["a"]["pull"] = "down"
    MODS["keypad"].reset()
    from host_tools.emulation.oledmodel import OledModel
    i2c = SimI2C()
    i2c.attach(0x3C, OledModel())
    hw = hw_circuitpython.Hardware(cfg, i2c=i2c)
    assert [k.value_when_pressed for k in hw.keys] == [False, True]
    MODS["keypad"].levels[8] = 1
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
    assert clock.ticks_diff(hw.ticks_ms(), 0x3FFFFFF0) == 0x20


# -- run (Blinka) --------------------------------------------------------------------


def test_run_off_a_pi_says_so_in_one_line(capsys):
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "2"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("error: this is not a Raspberry Pi") and "--i2c-sim" in err


def test_run_without_display_is_one_clear_line(capsys):
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "2", "--i2c-sim",
                              "--sim-address", "none"], capsys)
    assert code == 2
    assert err.startswith("error: no display at 0x3C on I2C bus 1") and err.count("\n") == 1


def test_run_wrong_address_names_what_answers(capsys):
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "2", "--i2c-sim",
                              "--sim-address", "0x3d"], capsys)
    assert code == 2 and "devices found: 0x3D" in err and "oled-bonnet.json" in err


def test_run_without_the_driver_or_blinka_is_one_line(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "adafruit_displayio_ssd1306", None)    # not installed
    code, out, err = run_cli(["run", "--ticks", "1", "--i2c-sim"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "pip install adafruit-circuitpython-displayio-ssd1306" in err
    monkeypatch.setitem(sys.modules, "adafruit_platformdetect", None)
    code, out, err = run_cli(["run", "--ticks", "1"], capsys)
    assert code == 2 and err.startswith("error: Blinka is not installed") and err.count("\n") == 1


def test_run_non_blinka_board_is_refused(capsys):
    code, out, err = run_cli(["run", "--board", "pico-ssd1306"], capsys)
    assert code == 2 and "micropython" in err


def test_run_i2c_sim_starts_the_launcher(capsys, tmp_path, monkeypatch):
    """`run --i2c-sim`: the Blinka runner's whole path (bus scan, real displayio and
    driver, Hardware, boot, run loop) on the simulated OLED; its screen is the
    MicroPython path's."""
    import threading
    import time as _time

    from host_tools.emulation.sim import halfblocks

    clock = [0]
    monkeypatch.setattr(MODS["supervisor"], "now", clock)
    real_sleep = _time.sleep
    main = threading.current_thread()

    def sleep(seconds):                 # virtual time: supervisor.ticks_ms advances
        if threading.current_thread() is not main:
            # Blinka displayio's background thread sleeps 1 ms in a loop: on the
            # virtual clock it raced it ahead (the screen went off as idle)
            return real_sleep(seconds)
        clock[0] += max(1, int(seconds * 1000))
    monkeypatch.setattr(_time, "sleep", sleep)
    code, out, err = run_cli(["run", "--board", "oled-bonnet", "--ticks", "3", "--i2c-sim",
                              "--saves", str(tmp_path)], capsys)
    assert code == 0, err
    ref = Simulator("oled-bonnet")
    for _ in range(3):
        ref.step()
    assert out.rstrip("\n") == halfblocks(ref.oled).rstrip("\n")


# -- flash + boot.py -------------------------------------------------------------------
def test_flash_circuitpython_board(tmp_path, fake_circup, capsys):
    drive = tmp_path / "CIRCUITPY"
    drive.mkdir()
    (drive / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico\n")
    calls = fake_circup
    code, out, err = run_cli(["flash", "--board", "pico-cp-sh1106", "--drive", str(drive)], capsys)
    assert code == 0, err
    root = ROOT_DIR
    assert (drive / "boot.py").read_bytes() == (root / "firmware" / "boot_cp.py").read_bytes()
    assert (drive / "framebuf.mpy").read_bytes()[:2] == b"C\x06"      # CircuitPython's own .mpy
    assert (drive / "hw_circuitpython.mpy").exists() and (drive / "code.py").exists()
    assert not (drive / "trapcat_viper.py").exists()      # no native code on CircuitPython
    assert not (drive / "boot_cp.py").exists()
    assert json.loads((drive / "board.json").read_text())["runtime"] == "circuitpython"
    assert calls == [["/usr/bin/circup", "--path", str(drive), "install", "adafruit_displayio_sh1106"]]


def test_circup_runs_without_its_script_on_path(monkeypatch):
    """A venv that is not activated has no `circup` on PATH: flash then calls circup's
    entry point through this Python (circup has no __main__); that command works."""
    import subprocess

    calls = []
    real_run = subprocess.run

    class Done:
        returncode = 0
        stdout = stderr = ""
    monkeypatch.setattr(cpflash.shutil, "which", lambda name: None)
    monkeypatch.setattr(cpflash.subprocess, "run", lambda cmd, **kw: calls.append(cmd) or Done())
    cpflash.run_circup("/media/x/CIRCUITPY", ["adafruit_displayio_ssd1306"])
    cmd = calls[0]
    assert cmd[0] == sys.executable and cmd[-4:] == ["--path", "/media/x/CIRCUITPY", "install",
                                                      "adafruit_displayio_ssd1306"]
    proc = real_run(cmd[:-4] + ["--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and "Circup" in proc.stdout and "3.1.0" in proc.stdout


def test_flash_refuses_blinka_and_missing_drive(monkeypatch, capsys):
    code, out, err = run_cli(["flash", "--board", "oled-bonnet"], capsys)
    assert code == 2 and "run --board oled-bonnet" in err
    monkeypatch.setattr(cpflash, "find_circuitpy_drives", lambda: [])
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
    src = (ROOT_DIR / "firmware" / "boot_cp.py").read_text()
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
            fbmod.FrameBuffer(bytearray(b"\xa5\x5a\xff\x00\x3c\x81\x7e\x99\x11\x0f\x13\xf0\x66\xc3"),
                              7, 13, fbmod.MONO_VLSB),
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
    from host_tools.emulation import runtime_vm

    code = "OPS = %r\n" % (_random_fb_ops(seed, 250),) + _FB_COMPARE
    with runtime_vm.staged_cp_firmware() as fw:
        r = vm(code, input_dir=fw)
    assert r["same64"] and r["same61"]


# -- the VM stand-ins (host_tools/emulation/vmcp) send the real stack's bytes ---------------------
_VM_LOG = r"""
import board, busio, displayio, busdisplay, i2cdisplaybus, bitmaptools, keypad, supervisor
LOG = []
class _Rec:
    def write(self, data):
        LOG.append(bytes(data))
busio.attach(0x3C, _Rec())
""" + runtime_vm.CP_SETUP + r"""
for m in SCRIPT:
    step(m)
hw.display.contrast(40)
hw.display.poweroff()
hw.display.poweron()
emit('log', [d.hex() for d in LOG])
"""


@pytest.mark.parametrize("board", ("pico-cp-ssd1306", "pico-cp-sh1106"))
def test_vm_standins_send_the_real_stacks_bytes(node_vm, board):
    """The displayio stand-ins the WebAssembly benches use (no Blinka there), with the
    real Adafruit driver files, send exactly the I2C transactions of Blinka's real
    displayio for the same frames: init, full first frame, changed pages, contrast,
    sleep and wake."""
    script = parse_keys("wait:3 a wait:6 right wait:4 left wait:3")
    masks = [sum(getattr(buttons, k.upper()) for k in keys) for keys in script]
    code = ("GC_SAFE = True\nSCRIPT = %r\n" % masks + runtime_vm.cp_cfg_line(board)
            + runtime_vm.CP_FRAMEBUF + _VM_LOG)
    with runtime_vm.staged_cp_firmware() as fw:
        vm_log = [bytes.fromhex(h) for h in node_vm(code, firmware_dir=fw)["log"]]
    sim = CpSimulator(board)
    for keys in script:
        sim.step(keys)
    disp = sim.hw.display
    disp.contrast(40)
    disp.poweroff()
    disp.poweron()
    real_log = [d for _, d in sim.i2c.log]
    assert len(real_log) > 40 and vm_log == real_log
