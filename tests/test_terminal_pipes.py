"""Terminal and pipes: the terminal front end under a scripted pty (every key
press is one tap, however quickly they come), commands piped into a reader
that closes early, safe-mode screenshots, binary maps, wording."""

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools.emulation import sim as simmod

from clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent
DOWN = b"\x1b[B"


class CountingSim:
    """Stands in for the Simulator: records the buttons down at each tick."""

    class Glass:
        width, height = 128, 64

        def pixels(self):
            return [bytearray(128) for _ in range(64)]

    def __init__(self):
        self.oled = self.Glass()
        self.ticks = []

    def status(self):
        return ""

    def step(self, keys=()):
        self.ticks.append(frozenset(keys))

    def taps(self):
        """Key presses as the firmware sees them: up -> down edges, in order."""
        out = []
        before = frozenset()
        for now in self.ticks:
            out.extend(sorted(now - before))
            before = now
        return out


def run_in_pty(sim, typed, ticks):
    """Everything in ``typed`` is in the pty before the front end's first
    tick (one write, as from a fast typist or a paste): no timing involved."""
    master, slave = os.openpty()
    try:
        os.write(master, typed)
        with os.fdopen(os.dup(slave), "r") as stdin:
            code = simmod.run_terminal(sim, max_ticks=ticks, stdin=stdin, out=io.StringIO())
    finally:
        os.close(master)
        os.close(slave)
    return code


def test_each_quick_key_press_is_one_tap():
    sim = CountingSim()
    assert run_in_pty(sim, DOWN * 3 + b"z" + DOWN, 22) == 0
    assert sim.taps() == ["down", "down", "down", "a", "down"]
    assert len(sim.ticks) == 22


def test_a_burst_longer_than_one_read_keeps_its_escape_sequences():
    """40 arrows (120 bytes) at once: no stray B from a cut sequence, no quit
    from a cut Esc; taps queue up (at most TapQueue.MAX_PENDING)."""
    sim = CountingSim()
    run_in_pty(sim, DOWN * 40, 12)
    assert len(sim.ticks) == 12 and sim.taps() == ["down"] * 3


def test_split_incomplete():
    assert simmod.split_incomplete("ab\x1b[") == ("ab", "\x1b[")
    assert simmod.split_incomplete("\x1b[B\x1bO") == ("\x1b[B", "\x1bO")
    assert simmod.split_incomplete("\x1b[1;5") == ("", "\x1b[1;5")
    assert simmod.split_incomplete("\x1b[Bx") == ("\x1b[Bx", "")
    assert simmod.split_incomplete("a\x1b") == ("a\x1b", "")          # the Esc key


def test_three_quick_downs_move_the_launcher_cursor_three_times(tmp_path):
    sim = simmod.Simulator(saves_dir=tmp_path / "saves")
    for _ in range(10):
        sim.step()
    launcher = sim.runtime.launcher
    assert launcher.sel == 0
    run_in_pty(sim, DOWN * 3, 16)
    assert launcher.sel == 3


def _closed_pipe_run(*argv):
    """Run the CLI with stdout a pipe whose reader is already gone (as
    ``| head -1`` after its line)."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([sys.executable, "-m", "host_tools", *argv], cwd=ROOT,
                              stdout=write_end, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("argv", [
    ("solve", "klotski", "VBBV/VBBV/VHHV/VSSV/S..S"),
    ("levels", "klotski", "--count", "1"),
    ("sim", "--frontend", "headless", "--ticks", "2"),
    ("trapcat", "tournament", "--games", "1"),
])
def test_a_reader_that_closes_early_ends_the_command_quietly(argv):
    result = _closed_pipe_run(*argv)
    assert result.stderr == "" and result.returncode == 1


def test_safe_mode_screenshot_is_written(tmp_path, capsys):
    png = tmp_path / "safe.png"
    code, out, err = run_cli(["sim", "--safe-mode", "--frontend", "headless", "--screenshot",
                              str(png), "--saves", str(tmp_path / "saves")], capsys)
    assert code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "safe mode" in out and "\u2588" not in out       # no text screen instead


def test_solve_grid_on_a_binary_file(tmp_path, capsys):
    blob = tmp_path / "blob.bin"
    blob.write_bytes(b"\x00" * 2000)
    code, out, err = run_cli(["solve", "grid", str(blob)], capsys)
    assert code == 2 and "is not a text map" in err and "wide" not in err


def test_singular_and_plural(tmp_path, capsys):
    code, out, err = run_cli(["solve", "klotski", "VSSV/VSSV/SBBS/SBBS/S..S"], capsys)
    assert out.splitlines()[0] == "1 step"
    code, out, err = run_cli(["junqi", "route", "B0", "B1"], capsys)
    assert out.startswith("1 step: ")
    (tmp_path / "m.txt").write_text("CM\n")
    code, out, err = run_cli(["solve", "grid", str(tmp_path / "m.txt"), "--algo", "astar"], capsys)
    assert "(1 move)" in out
    code, out, err = run_cli(["trapcat", "tournament", "--games", "1", "--blocks", "1"], capsys)
    assert "1 game, 9x9, 1 start block," in out


def test_saves_pointing_at_a_file(tmp_path, capsys):
    a_file = tmp_path / "notes.txt"
    a_file.write_text("mine")
    code, out, err = run_cli(["sim", "--saves", str(a_file), "--ticks", "1"], capsys)
    assert code == 2 and "is a file, not a folder" in err and "File exists" not in err
    assert a_file.read_text() == "mine"


def test_klotski_list_cuts_names_at_a_word_boundary(monkeypatch):
    """Every name drawn on the level list and the panel is whole or ends where
    a word ends (it was "TAO HUA YUAN ZHON")."""
    sys.path.insert(0, str(ROOT / "firmware" / "circuitpython"))
    import framebuf
    import gfx
    import klotski_game as kg
    from buttons import A, DOWN, B
    from gamectx import FakeCtx, tap

    drawn = []
    real_text = gfx.text

    def recording_text(fb, s, x, y, c=1):
        drawn.append(s)
        return real_text(fb, s, x, y, c)

    monkeypatch.setattr(gfx, "text", recording_text)
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    names = set(g.names)
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    for _ in range(len(g.names)):
        g.draw(fb)
        tap(g, ctx, DOWN)
    tap(g, ctx, A)                      # the game screen's panel
    g.draw(fb)
    tap(g, ctx, B)
    shown = [s for s in drawn if any(n.startswith(s) for n in names) and s.strip()]
    assert "TAO HUA YUAN ZHONG" in shown or "TAO HUA YUAN" in shown
    for s in shown:
        full = [n for n in names if n.startswith(s)]
        assert any(n == s or n[len(s)] == " " for n in full), s
    assert kg.fit_name("TAO HUA YUAN ZHONG", 60) == "TAO HUA YUAN"
    assert kg.fit_name("ABCDEFGHIJKLMNOPQRSTUVWXYZ", 39) == "ABCDEFGHIJ"
    assert kg.fit_name("SHORT", 19) == "SHORT"


def test_tap_queue_keeps_a_held_key_down():
    """The same key in the very next read (one tick later) is the terminal's
    auto-repeat: the button stays down while repeats keep coming, so "hold B"
    works.  Keys in one read, or two ticks or more apart, are taps."""
    q = simmod.TapQueue()
    q.typed(["b"])
    down = [q.keys()]
    for _ in range(20):               # auto-repeat: one more "b" each tick
        q.typed(["b"])
        down.append(q.keys())
    for k in range(10):               # a slower repeat (every other tick): still held
        q.typed(["b"] if k % 2 == 0 else [])
        down.append(q.keys())
    assert all(keys == ["b"] for keys in down)
    assert [q.keys() for _ in range(3)] == [["b"], [], []]    # released
    q = simmod.TapQueue()
    q.typed(["down", "down"])
    assert [q.keys() for _ in range(3)] == [["down"], ["down"], []]
    q.typed(["down"])                 # three ticks after the first: a third tap
    assert [q.keys() for _ in range(9)] == [[], ["down"], ["down"], [], [],
                                           ["down"], ["down"], [], []]
    q = simmod.TapQueue()
    q.typed(["down"])
    q.keys()
    q.typed(["a"])                    # another key the next tick: a tap after it
    assert [q.keys() for _ in range(5)] == [["down"], [], [], ["a"], ["a"]]
