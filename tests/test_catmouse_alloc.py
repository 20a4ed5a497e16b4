"""Cat & Mouse allocates nothing per tick of play (firmware style: no allocation
per frame), measured in the MicroPython VM through the whole runtime: launcher,
``rt.step()`` = buttons, the scene's tick and draw (terrain copy, pieces, status
bar), the display driver.

Measured (MicroPython 1.27 WASI VM, GC off), per tick while playing:
- before: 64-128 B on each tick that moved a piece, 15-28 B per tick on average
  (~170 B per round): the status text built by % formatting with
  ``side.upper()`` and an argument tuple, the 32 B argument tuple of
  ``ctx.ai(ai, board, here, legal)`` (16 B bound method ``ai.step`` while the
  evasive mouse thinks), +-16 B whenever the engine's list of legal cells grew
  to 5 slots and shrank back (MicroPython's ``list.clear()``); the first AI
  move also loaded the easy cat's board (7.5 KB) or made the evasive mouse's
  flood buffers (1.5 KB).
- now: 0 B on every measured tick (all of play after the 3 ticks of the A press
  that started it), both sides, all three difficulties.
host_tools/bench/bench_runtime.py's "bytes allocated per tick in play" read 171 B
before, 156 B of it its own ``measure()`` calls; it now reads the allocation
around plain ticks (0 B) and times the worst tick in a second stretch of play.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import catmouse_game  # noqa: E402
import gamectx  # noqa: E402
from buttons import A, DOWN, LEFT, RIGHT, UP  # noqa: E402

from host_tools.emulation import mpvm, runtime_vm  # noqa: E402

MAX_TICKS = 240
# The player's presses on the Garden board, cycled: both routes cross grass, so
# the player's piece rests (" REST" in the status bar).
MOVES = {
    "mouse": (LEFT, LEFT, LEFT, LEFT, UP, LEFT, LEFT, LEFT, LEFT, UP, RIGHT, DOWN, A, LEFT, UP),
    "cat": (RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, RIGHT, DOWN, DOWN, RIGHT, RIGHT, DOWN, LEFT, UP),
}

# Guest code after runtime_vm.SETUP; SIDE, DIFFICULTY, MOVES and MAX_TICKS are
# set before it.
# Each tick is measured; the rest of the loop (logging, the expected status
# text) runs outside the measured call.
VM_PLAY = r"""
import games
rt.settings['difficulty'] = DIFFICULTY
idle(3)
tap(buttons.DOWN, [e[0] for e in games.GAMES].index('catmouse'))
tap(buttons.A)                  # the Cat & Mouse title screen
idle(2)
g = rt.screen
if SIDE == 'cat':
    tap(buttons.RIGHT)
tap(buttons.A)                  # play starts on the first of these ticks
ticks = []
k = 0
while g.screen is g.play and k < MAX_TICKS:
    press(MOVES[(k // 4) % len(MOVES)] if k % 4 < 2 else 0)   # press 2 ticks, release 2
    thinking = g.match.thinking()
    alloc = measure(rt.step)[2]
    CLOCK[0] += 33
    k += 1
    c = g.match.game
    if g.screen is g.play:
        st = c.mouse_stamina if SIDE == 'mouse' else c.cat_stamina
        rest = c.mouse_rest if SIDE == 'mouse' else c.cat_rest
        want = 'R%d/%d %s ST%d%s' % (c.round, c.round_limit, SIDE.upper(), st,
                                     ' REST' if rest else '')
        ticks.append((alloc, c.round, c.mouse, c.cat, thinking, bytes(g.view.status).decode(), want))
emit('ticks', ticks)
"""


@pytest.mark.parametrize("side", ["mouse", "cat"])
@pytest.mark.parametrize("difficulty", [0, 1, 2])
def test_no_allocation_per_tick_of_play_in_the_micropython_vm(side, difficulty):
    code = "SIDE = %r\nDIFFICULTY = %d\nMOVES = %r\nMAX_TICKS = %d\n" % (
        side, difficulty, MOVES[side], MAX_TICKS)
    with runtime_vm.staged_firmware() as fw:
        r = mpvm.run(runtime_vm.SETUP + code + VM_PLAY, input_dir=fw)
    ticks = r["ticks"]
    allocs = [t[0] for t in ticks]
    rounds = [t[1] for t in ticks]
    # real play was measured: rounds went by, both pieces moved, and the status
    # bar was rebuilt with the right text after each change
    assert len(ticks) >= 100 and rounds[-1] - rounds[0] >= 12, (len(ticks), rounds[-1])
    assert len({t[2] for t in ticks}) >= 3 and len({t[3] for t in ticks}) >= 3
    assert all(t[5] == t[6] for t in ticks), [t[5:] for t in ticks if t[5] != t[6]][:3]
    assert len({t[5] for t in ticks}) >= 12 and any(t[5].endswith(" REST") for t in ticks)
    if side == "cat" and difficulty:
        assert any(t[4] for t in ticks)           # the evasive mouse thought over ticks
    assert allocs == [0] * len(ticks), [(i, t[:2]) for i, t in enumerate(ticks) if t[0]]


# -- the status bar looks as it did when it was a formatted str -------------------

class Ctx(gamectx.FakeCtx):
    now = 1234
    width = 128
    height = 64

    def __init__(self, difficulty):
        gamectx.FakeCtx.__init__(self, difficulty)
        self.frame = bytearray(1024)
        self.ticks = 0

    def tick_no(self):
        return self.ticks


def _status_str(g):
    """The status text as the scene formatted it before it composed it in place."""
    c = g.match.game
    if g.screen is g.end:
        return "%s  A:AGAIN B:BACK" % g.end.banner.decode()
    mouse = g.side == "mouse"
    return "R%d/%d %s ST%d%s" % (c.round, c.round_limit, g.side.upper(),
                                 c.mouse_stamina if mouse else c.cat_stamina,
                                 " REST" if (c.mouse_rest if mouse else c.cat_rest) else "")


@pytest.mark.parametrize("side", ["mouse", "cat"])
def test_status_bar_pixels_match_the_formatted_text(side):
    """Every frame of a game, the end screen included, is pixel for pixel the
    frame drawn with the old str status (left or right aligned, REST shown)."""
    ctx = Ctx(difficulty=1)
    fb = framebuf.FrameBuffer(ctx.frame, 128, 64, framebuf.MONO_VLSB)
    g = catmouse_game.Scene(ctx)
    if side == "cat":
        gamectx.tap(g, ctx, RIGHT)
    gamectx.tap(g, ctx, A)
    moves = MOVES[side]
    seen = set()
    over_frames = 0
    while over_frames < 16:                      # 16: both phases of a blinking cat
        k = ctx.ticks
        down = moves[(k // 3) % len(moves)] if k % 3 == 0 else 0
        gamectx.tick(g, ctx, down=0 if g.screen is g.end else down)
        ctx.ticks += 1
        g.draw(fb)
        composed = bytes(ctx.frame)
        text = _status_str(g)
        assert bytes(g.view.status).decode() == text
        view = g.view.status
        g.view.status = text
        g.draw(fb)
        g.view.status = view
        assert bytes(ctx.frame) == composed, text
        seen.add(text)
        over_frames += g.screen is g.end
        assert ctx.ticks < 1000
    assert len(seen) >= 10 and any(t.endswith(" REST") for t in seen), seen
