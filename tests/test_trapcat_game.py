"""Smoke test of the handheld scene with a fake context and framebuffer."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gamectx  # noqa: E402
import trapcat  # noqa: E402
import trapcat_ai  # noqa: E402
import trapcat_game  # noqa: E402
from buttons import A, B, DOWN, RIGHT  # noqa: E402
from gamectx import press, release  # noqa: E402


class FakeCtx(gamectx.FakeCtx):
    now = 1234          # seeds the boards these games were checked with


class FakeFb:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        def f(*args):
            self.calls += 1
        return f


def test_scene_plays_whole_games_with_hints():
    for diff in (0, 1, 2):
        ctx = FakeCtx(diff)
        g = trapcat_game.Scene(ctx)
        fb = FakeFb()
        g.draw(fb)
        assert fb.calls > 81
        real = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
        g.draw(real)
        start = g.cursor
        press(g, ctx, DOWN)
        assert g.cursor == start + 9
        press(g, ctx, RIGHT)
        assert g.cursor == start + 10
        for _ in range(200):
            if g.state == trapcat_game.OVER:
                break
            if g.state == trapcat_game.PLAY:
                release(g, ctx, B)                  # hint moves the cursor
                while g.thinking is not None:       # worked out over ticks
                    g.tick(ctx)
                    g.draw(fb)
                assert g.board.can_block(g.cursor)
                press(g, ctx, A)
            else:
                g.tick(ctx)
            g.draw(fb)
        assert g.state == trapcat_game.OVER
        rec = ctx.saved["trapcat"]
        assert rec.get("won", 0) + rec.get("lost", 0) == 1
        if g.board.status == trapcat.PLAYER_WON:
            assert rec["best%d" % diff] == g.board.moves
        press(g, ctx, A)
        assert g.state == trapcat_game.PLAY and g.board.moves == 0
        ctx.buttons.up = B
        g.state = trapcat_game.OVER
        assert g.tick(ctx) == "exit"


def test_hard_cat_and_hint_are_sliced_over_ticks():
    """Each tick runs one slice; the answer equals the one-call choose()."""
    ctx = FakeCtx(2)
    g = trapcat_game.Scene(ctx)
    b = g.board
    ref_hint = trapcat_ai.StrongBlocker(b).choose(b)
    release(g, ctx, B)
    ticks = 1
    while g.thinking is not None:
        g.tick(ctx)
        ticks += 1
    assert g.cursor == ref_hint and ticks > 2          # several slices
    # a hint in progress is dropped when the player blocks
    release(g, ctx, B)
    assert g.thinking is g.hinter
    g.cursor = ref_hint
    press(g, ctx, A)
    assert g.state == trapcat_game.CAT_TURN and g.thinking is g.cat
    ref_cat = trapcat_ai.HardCat(b).choose(b)
    ticks = 0
    while g.state == trapcat_game.CAT_TURN:
        g.tick(ctx)
        ticks += 1
        assert ticks < 200
    assert b.cat == ref_cat or b.status != trapcat.PLAYING


def test_slices_stop_at_the_deadline():
    b = trapcat.Board(9)
    b.reset(trapcat.Rng(3), 12)

    class Expired:
        def expired(self):
            return True

    task = trapcat_ai.StrongBlocker(b)
    task.start(b)
    steps = 1
    while not task.step(Expired()):
        steps += 1
    assert task.result == trapcat_ai.StrongBlocker(b).choose(b)
    assert steps > 20          # one unit per step when the deadline has passed


def test_dots_written_into_the_frame_equal_pixel_calls():
    """With ctx.frame (the bytes behind fb) the free cells' dots are set in the frame
    directly; the screen is the one pixel() calls draw, also for a 15x15 pack board
    that runs off the bottom of the screen."""
    import random

    rnd = random.Random(3)
    for size in (9, 15):
        plain = FakeCtx(1)
        g = trapcat_game.Scene(plain)
        assert g.state == trapcat_game.PLAY
        g._set_size(size)
        b = g.board
        for cell in range(b.n):
            b.cells[cell] = 1 if rnd.random() < 0.2 else 0
        b.cells[b.cat] = 0
        for cursor, state in ((b.n // 2 + 1, g.state), (3, trapcat_game.OVER)):
            g.cursor = cursor
            g.state = state
            ref = bytearray(1024)
            g.draw(framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB))
            direct = FakeCtx(1)
            direct.frame = bytearray(1024)
            direct.width, direct.height = 128, 64
            g.ctx = direct
            g.draw(framebuf.FrameBuffer(direct.frame, 128, 64, framebuf.MONO_VLSB))
            g.ctx = plain
            assert direct.frame == ref and sum(ref) > 500
