"""Simulator: golden screens through the I2C decoder, the CLI front ends, and
the host framebuf against MicroPython's own (issue 3).

Goldens live in tests/golden/*.txt ('#' lit, '.' dark); a missing one fails.
Regenerate them with `python -m pytest tests/test_sim.py --update-goldens` after
an intended change and look at the diff."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

ROOT = Path(__file__).resolve().parent.parent


def _sim(board="pico-ssd1306"):
    s = simmod.Simulator(board)
    rt = s.runtime
    # a fixed game list, so goldens do not change when games are added
    rt.registry = (("catmouse", "Cat & Mouse", "catmouse_game"),)
    rt.launcher.items = ["Cat & Mouse", "Settings", "About"]
    return s


# keys that leave play in every game: hold B (the pause menu), UP (round to QUIT), A
QUIT = "hold:b:20 up a wait:2"


def _run(s, keys):
    for k in parse_keys(keys):
        s.step(k)


def test_golden_launcher(golden):
    s = _sim()
    _run(s, "wait:3")
    golden("launcher", s.screen_text())
    _run(s, "down wait:2")
    golden("launcher_settings_selected", s.screen_text())


def test_golden_settings_screen(golden):
    """Every settings row, the "screen off after" one chosen and changed."""
    s = _sim()
    _run(s, "down a wait:2")
    golden("settings", s.screen_text())
    _run(s, "down*3 right wait:2")                 # contrast, sound, level, off after
    golden("settings_screen_off_5min", s.screen_text())


def test_a_missing_golden_fails_and_is_not_written(tmp_path):
    from conftest import GoldenChecker
    check = GoldenChecker(tmp_path, update=False)
    with pytest.raises(AssertionError, match="missing.*--update-goldens"):
        check("new_screen", "#.\n")
    assert not (tmp_path / "new_screen.txt").exists()
    GoldenChecker(tmp_path, update=True)("new_screen", "#.\n")
    check("new_screen", "#.\n")
    with pytest.raises(AssertionError, match="differs"):
        check("new_screen", ".#\n")


def test_golden_launcher_on_sh1106_matches_ssd1306():
    a = _sim()
    b = _sim("pico-sh1106")
    _run(a, "wait:3")
    _run(b, "wait:3")
    assert b.oled.controller == "sh1106"
    assert a.screen_text() == b.screen_text()


def test_golden_catmouse_title_and_play(golden):
    s = _sim()
    _run(s, "a wait:3")
    golden("catmouse_title", s.screen_text())
    _run(s, "a wait:10 left wait:10 up wait:10 left wait:10")
    golden("catmouse_play", s.screen_text())
    g = s.runtime.screen
    assert type(g).__name__ == "Scene" and g.match.game.round >= 3


def test_golden_catmouse_watch(golden):
    """WATCH (AI against AI): an A* search of the cat half drawn (shaded
    expansions, the frontier boxed), then its path, paused."""
    s = _sim()
    _run(s, "a wait:3 left wait:2 a wait:11")    # the watch loads over 7 ticks
    g = s.runtime.screen
    assert g.screen is g.watch and g.watch.phase == 0 and g.watch.shown > 0
    golden("catmouse_watch_search", s.screen_text())
    _run(s, "wait:18 a wait:2")
    assert g.watch.phase == 1 and g.watch.paused
    golden("catmouse_watch_path", s.screen_text())


def test_golden_trapcat_distance_map(golden):
    """B+DOWN in Trap the Cat: each free cell's steps to the border."""
    s = simmod.Simulator()
    _run(s, "wait:3 down a wait:3 b+down wait:3")
    g = s.runtime.screen
    assert g.overlay and g.board.moves == 0 and not g.job.running()
    golden("trapcat_distance_map", s.screen_text())
    _run(s, "b+down wait:3")
    golden("trapcat_start", s.screen_text())                # the same board, plain again


def test_golden_how_to_play_pages(golden):
    """B on a game's launcher line shows its rules pages (howto.py with the
    game's <id>_rules.py); B goes back, and the pages leave with it."""
    import games

    s = simmod.Simulator()
    rt = s.runtime
    _run(s, "wait:3")
    for i, entry in enumerate(games.GAMES):
        assert rt.launcher.sel == i
        _run(s, "b wait:3")
        assert type(rt.screen).__name__ == "Scene" and rt.game_entry is entry
        pages = rt.screen.pages
        assert len(pages) >= 3
        for p in range(len(pages)):
            golden("howto_%s_%d" % (entry[0], p + 1), s.screen_text())
            _run(s, "right wait:2")
        assert rt.screen.page == len(pages) - 1            # the last page stays
        _run(s, "left wait:2 a wait:2 a wait:2")            # A: next, then back on the last
        assert rt.screen is rt.launcher and "howto" not in sys.modules
        _run(s, "b wait:3 b wait:3")                        # B leaves from any page
        assert rt.screen is rt.launcher
        _run(s, "down wait:2")
    _run(s, "b wait:3")                                     # not on Settings
    assert rt.screen is rt.launcher and rt.launcher.sel == len(games.GAMES)


def test_golden_undo_screens(golden):
    """B+A (hold B, press A) in Trap the Cat, Cat & Mouse and Flip Junqi."""
    s = simmod.Simulator()
    rt = s.runtime
    _run(s, "wait:3 down a wait:3")
    golden("trapcat_start", s.screen_text())
    g = rt.screen
    start = bytes(g.board.cells), g.board.cat
    _run(s, "left a wait:15")
    assert g.board.moves == 1 and not g.play_screen.cat_turn and g.board.cat != start[1]
    golden("trapcat_after_a_turn", s.screen_text())
    _run(s, "b+a wait:3")
    assert (bytes(g.board.cells), g.board.cat) == start and g.board.moves == 0
    golden("trapcat_undone", s.screen_text())
    _run(s, QUIT + " up a wait:3 a wait:10 left wait:10 up wait:10")
    g = rt.screen
    c = g.match.game
    assert c.round == 3
    cm = c.cat, c.mouse
    _run(s, "b+a wait:3")
    assert c.round == 2 and (c.cat, c.mouse) != cm
    golden("catmouse_undone", s.screen_text())
    _run(s, QUIT + " down*2 a wait:2 a wait:2 a wait:25")
    g = rt.screen
    assert g.model.plies == 2 and g.screen is g.play_screen
    _run(s, "b+a wait:3")
    assert g.model.plies == 0 and g.screen is g.play_screen
    golden("junqi_undone", s.screen_text())


def test_catmouse_as_cat_against_the_evasive_mouse():
    s = _sim()
    _run(s, "a wait:3 right a wait:3")
    g = s.runtime.screen
    assert g.side == "cat" and g.screen is g.play
    _run(s, "right*3 down*3 wait:10")
    assert g.match.game.round >= 5 and g.match.game.cat != 0
    _run(s, QUIT)
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
    assert type(b.runtime.screen).__name__ == "Scene"
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
    sys.path.insert(0, str(ROOT / "firmware" / "circuitpython"))
    import framebuf

    ns = {"framebuf": framebuf}
    exec(code.replace("emit('buf', bytes(buf))", ""), ns)
    assert bytes(ns["buf"]) == r["buf"]


# -- the interactive terminal front end, under a pseudo-terminal -------------------------
def _pty_session(cols, rows, keys, tmp_path, ticks=400):
    """Run `sim --frontend terminal` on a pty of cols x rows, type ``keys`` (a list
    of (delay_s, bytes)), return (exit code, output text, slave termios after)."""
    import fcntl
    import select
    import struct
    import termios
    import time

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    before = termios.tcgetattr(slave)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools", "sim", "--frontend", "terminal", "--ticks", str(ticks),
         "--saves", str(tmp_path / "saves")],
        cwd=ROOT, env=env, stdin=slave, stdout=slave, stderr=slave, close_fds=True)
    out = bytearray()

    def pump(seconds):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    out.extend(os.read(master, 65536))
                except OSError:
                    return

    try:
        pump(3.0)                        # boot + first frames
        for delay, data in keys:
            os.write(master, data)
            pump(delay)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            pump(0.1)
        pump(0.2)
        after = termios.tcgetattr(slave)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        os.close(master)
        os.close(slave)
    return proc.returncode, out.decode("utf-8", "replace"), before, after


def _frame_after(keys, render):
    s = simmod.Simulator()
    _run(s, keys)
    return render(s.oled)


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_terminal_front_end_plays_and_restores_the_terminal(tmp_path):
    import termios

    # 140x45: half blocks; A on the launcher opens Cat & Mouse's title screen
    code, out, before, after = _pty_session(140, 45, [(1.0, b"z"), (1.0, b"q")], tmp_path)
    assert code == 0, out[-2000:]
    launcher = _frame_after("wait:3", simmod.halfblocks).split("\n")
    title = _frame_after("a wait:5", simmod.halfblocks).split("\n")
    assert launcher[6] in out          # a row of the game list
    assert title[6] in out             # a row of the Cat & Mouse title screen
    assert "\x1b[?1049h" in out and out.rstrip().endswith("\x1b[?1049l")   # screen restored
    lflag = termios.ICANON | termios.ECHO
    assert after[3] & lflag == before[3] & lflag == lflag                   # cooked mode again


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_terminal_front_end_fits_80x24_and_stops_at_the_tick_limit(tmp_path):
    code, out, _, _ = _pty_session(80, 24, [(0.5, b"\x1b[B")], tmp_path, ticks=90)
    assert code == 0
    frame = _frame_after("wait:3", simmod.braille).split("\n")
    assert len(frame) == 16 and max(len(line) for line in frame) == 64
    assert frame[6] in out and "\u2580" not in out                         # Braille, not half blocks


def test_terminal_renderers_are_exact():
    s = simmod.Simulator()
    _run(s, "wait:3")
    pixels = s.oled.pixels()
    for render, (cw, ch) in ((simmod.halfblocks, (1, 2)), (simmod.quadrants, (2, 2)),
                             (simmod.braille, (2, 4))):
        lines = render(s.oled).split("\n")
        assert len(lines) == 64 // ch and all(len(line) == 128 // cw for line in lines)
        assert sum(bin(ord(c) - 0x2800).count("1") for line in lines for c in line
                   if render is simmod.braille) in (0, sum(map(sum, pixels)))
    assert simmod.terminal_renderer(128, 33) is simmod.halfblocks
    assert simmod.terminal_renderer(80, 40) is simmod.quadrants
    assert simmod.terminal_renderer(80, 24) is simmod.braille


def test_terminal_key_parsing():
    p = simmod.parse_terminal_input
    assert p("\x1b[A\x1b[Bzx") == (["up", "down", "a", "b"], False)
    assert p("\x1bOC ") == (["right", "a"], False)
    assert p("\x1b") == ([], True) and p("lq") == ([], True)
    assert p("\x1b[1;5C\x1b[D") == (["left"], False)     # unknown sequences are skipped


def test_pygame_front_end_takes_taps_and_quits(monkeypatch):
    import pygame  # pygame-ce is a dependency: a broken install fails here
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    s = simmod.Simulator()
    shots = []

    def on_frame(_pygame, tick):       # the module run_pygame drives: the one imported here
        if tick == 5:      # a key-down event alone (shorter than a frame) is a tap
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z))
        if tick == 15:
            shots.append(pygame.display.get_surface().get_size())
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE))

    assert simmod.run_pygame(s, 3, 100, on_frame) == 0
    assert shots == [(384, 192)] and s.tick_index == 16
    assert type(s.runtime.screen).__name__ == "Scene"


def test_a_broken_pygame_install_fails_the_window_test(tmp_path):
    # pygame-ce is in requirements.txt: without it the window frontend is broken, and
    # its test must fail (an importorskip turned this into a quiet "skipped")
    broken = tmp_path / "pygame"
    broken.mkdir()
    (broken / "__init__.py").write_text("raise ModuleNotFoundError('pygame is broken: no pygame.base')\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-rs",
         "tests/test_sim.py::test_pygame_front_end_takes_taps_and_quits"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "1 failed" in proc.stdout, proc.stdout[-500:]
    assert "pygame is broken" in proc.stdout


def test_sim_output_mistakes_are_one_line_errors(tmp_path, capsys):
    # Regression: bad --screenshot/--gif paths, --scale 0, a binary --keys-file and a
    # --saves path that is a file all ended in tracebacks; --ticks -5 ran silently.
    from clirun import run_cli
    afile = tmp_path / "afile"
    afile.write_bytes(b"\xbe\xff\x00")
    cases = [
        (["--ticks", "2", "--screenshot", str(tmp_path / "out.xyz")], "unknown image file extension"),
        (["--ticks", "2", "--gif", str(tmp_path)], "unknown image file extension"),
        (["--ticks", "2", "--screenshot", str(afile / "x.png")], "cannot write"),
        (["--ticks", "2", "--scale", "0", "--screenshot", str(tmp_path / "s.png")], "--scale"),
        (["--ticks", "-5"], "--ticks"),
        (["--keys-file", str(afile)], "not a text file"),
        (["--ticks", "2", "--saves", str(afile)], "cannot create output directory"),
        (["--keys", "wait:99999999999"], "is over"),      # was a MemoryError
    ]
    for extra, words in cases:
        code, out, err = run_cli(["sim", "--frontend", "headless"] + extra, capsys)
        assert code == 2 and words in err and err.count("\n") == 1, (extra, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_run_negative_ticks_is_a_one_line_error(capsys):
    from clirun import run_cli
    code, out, err = run_cli(["run", "--ticks", "-1"], capsys)
    assert code == 2 and "--ticks must be 0 or more" in err and err.count("\n") == 1
