"""Simulator: golden screens through the I2C decoder, the CLI front ends, and
the host framebuf against MicroPython's own (issue 3).

Goldens live in tests/golden/*.txt ('#' lit, '.' dark); regenerate them with
UPDATE_GOLDEN=1 after an intended change and look at the diff."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import sim as simmod

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"


def _check(name, text):
    path = GOLDEN / (name + ".txt")
    if os.environ.get("UPDATE_GOLDEN") or not path.exists():
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert text == path.read_text(), "screen %s differs from %s" % (name, path)


def _sim(board="pico-ssd1306"):
    s = simmod.Simulator(board)
    rt = s.runtime
    # a fixed game list, so goldens do not change when games are added
    rt.registry = (("catmouse", "Cat & Mouse", "catmouse_game"),)
    rt.launcher.items = ["Cat & Mouse", "Settings", "About"]
    return s


def _run(s, keys):
    for k in simmod.parse_keys(keys):
        s.step(k)


def test_golden_launcher():
    s = _sim()
    _run(s, "wait:3")
    _check("launcher", s.screen_text())
    _run(s, "down wait:2")
    _check("launcher_settings_selected", s.screen_text())


def test_golden_launcher_on_sh1106_matches_ssd1306():
    a = _sim()
    b = _sim("pico-sh1106")
    _run(a, "wait:3")
    _run(b, "wait:3")
    assert b.oled.controller == "sh1106"
    assert a.screen_text() == b.screen_text()


def test_golden_catmouse_title_and_play():
    s = _sim()
    _run(s, "a wait:3")
    _check("catmouse_title", s.screen_text())
    _run(s, "a wait:10 left wait:10 up wait:10 left wait:10")
    _check("catmouse_play", s.screen_text())
    g = s.runtime.screen
    assert type(g).__name__ == "Game" and g.game.round >= 3


def test_catmouse_as_cat_against_the_evasive_mouse():
    s = _sim()
    _run(s, "a wait:3 right a wait:3")
    g = s.runtime.screen
    assert g.side == "cat" and g.state == 1
    _run(s, "right*3 down*3 wait:10")
    assert g.game.round >= 5 and g.game.cat != 0
    _run(s, "b wait:2 b wait:2")
    assert s.runtime.screen is s.runtime.launcher
    assert "catmouse_game" not in sys.modules


def test_rotated_board_shows_the_same_screen():
    a = _sim()
    b = _sim("pico-ssd1306-5btn")          # rotation 180, B = left+right
    _run(a, "wait:3")
    _run(b, "wait:3")
    assert b.oled.seg_remap is False and b.oled.com_reverse is False
    # that build mounts the panel upside down: the glass shows the frame turned
    turned = "".join(row[::-1] + "\n" for row in reversed(b.screen_text().splitlines()))
    assert a.screen_text() == turned
    _run(b, "a wait:3")
    assert type(b.runtime.screen).__name__ == "Game"
    for _ in range(3):
        b.step(["left", "right"])
    _run(b, "wait:3")
    assert b.runtime.screen is b.runtime.launcher   # chord = B = back


def test_cli_headless_screenshot_and_gif(tmp_path):
    png = tmp_path / "shot.png"
    gif = tmp_path / "run.gif"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--keys", "a wait a", "--ticks", "40",
         "--screenshot", str(png), "--gif", str(gif), "--saves", str(tmp_path / "s")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    from PIL import Image

    assert Image.open(png).size == (512, 256)
    assert Image.open(gif).n_frames > 2      # identical frames are merged


def test_cli_bad_key_is_a_user_error(capsys):
    from host_tools.cli import main

    assert main(["sim", "--keys", "left jump"]) == 2
    assert "unknown key" in capsys.readouterr().err


def test_make_sim_without_display_or_tty_shows_the_launcher(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run(
        [sys.executable, "-m", "host_tools", "sim", "--saves", str(tmp_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert "\u2580" in out.stdout or "\u2584" in out.stdout
    assert "not a terminal" in out.stdout


def test_host_framebuf_matches_micropython(vm):
    code = '''
import framebuf
buf = bytearray(1024)
fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
sp = framebuf.FrameBuffer(bytearray(b"\\x81\\x42\\x24\\x18\\x18\\x24\\x42\\x81\\xff\\x00"), 10, 8, framebuf.MONO_VLSB)
def draw(fb):
    fb.fill(0)
    fb.text("Pocket ~{}", 3, 2, 1)
    fb.line(0, 0, 127, 63, 1)
    fb.line(120, 5, 7, 60, 1)
    fb.rect(10, 10, 50, 20, 1)
    fb.fill_rect(70, 13, 30, 19, 1)
    fb.hline(-5, 40, 200, 1)
    fb.vline(64, -3, 100, 0)
    fb.blit(sp, 3, 44)
    fb.blit(sp, 20, 47, 0)
    fb.blit(sp, 124, 60, -1)
    fb.text("inv", 72, 16, 0)
    fb.scroll(3, -2)
    fb.pixel(127, 63, 1)
draw(fb)
emit('buf', bytes(buf))
'''
    r = vm(code)
    sys.path.insert(0, str(ROOT / "host_tools" / "hostfb"))
    import framebuf

    ns = {"framebuf": framebuf}
    exec(code.replace("emit('buf', bytes(buf))", ""), ns)
    assert bytes(ns["buf"]) == r["buf"]
