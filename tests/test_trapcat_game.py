"""Smoke test of the handheld scene with a fake context and framebuffer."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gamectx  # noqa: E402
import trapcat  # noqa: E402
import trapcat_ai  # noqa: E402
import trapcat_game  # noqa: E402
import work  # noqa: E402
from buttons import A, B, DOWN, RIGHT  # noqa: E402
from gamectx import press  # noqa: E402


class FakeCtx(gamectx.FakeCtx):
    now = 1234          # seeds the boards these games were checked with


def hint(g, ctx):
    """The pause menu's HINT: hold B, DOWN onto HINT, A."""
    gamectx.hold(g, ctx, B)
    assert g.pause.shown
    for _ in range(g.pause.items.index("HINT")):
        press(g, ctx, DOWN)
    press(g, ctx, A)
    assert not g.pause.shown


class FakeFb:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        def f(*args):
            self.calls += 1
        return f


class SlicedCtx(FakeCtx):
    """A clock that moves 10 ms at each reading: the job's deadline ends a
    tick after a slice or two, as on the device."""

    def ticks_ms(self):
        self.now += 10
        return self.now

    def deadline(self, ms):
        return Deadline(self, ms)


class Deadline:
    def __init__(self, ctx, ms):
        self.ctx = ctx
        self.at = ctx.now + ms

    def remaining(self):
        return self.at - self.ctx.now

    def expired(self):
        return self.remaining() <= 0


def _over(g):
    return g.screen is g.end_screen


def _cat_turn(g):
    return g.screen is g.play_screen and g.play_screen.cat_turn


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
            if _over(g):
                break
            if not _cat_turn(g):
                hint(g, ctx)                        # hint moves the cursor
                while g.job.running():              # worked out over ticks
                    g.tick(ctx)
                    g.draw(fb)
                assert g.board.can_block(g.cursor)
                press(g, ctx, A)
            else:
                g.tick(ctx)
            g.draw(fb)
        assert _over(g) and g.snapshot() is None
        assert ctx.finishes == 1 and ctx.saved["trapcat/play"] == {}
        rec = ctx.saved["trapcat"]
        assert rec.get("won", 0) + rec.get("lost", 0) == 1
        if g.board.status == trapcat.PLAYER_WON:
            assert rec["best%d" % diff] == g.board.moves
        press(g, ctx, A)
        assert g.screen is g.play_screen and g.board.moves == 0
        g.screen = g.end_screen
        assert gamectx.tap(g, ctx, B) == "exit"


def test_every_ending_calls_finish_once_with_the_records():
    """Won by the block that traps the cat, lost by the cat's step out: each
    ends through ctx.finish (the game in progress cleared, the records kept),
    and snapshot() is None from then on."""
    for level, cell, won in (("###\n#C.\n###\n", 5, True), ("#.#\n#C.\n###\n", 5, False)):
        ctx = FakeCtx(2)
        ctx.saved["trapcat"] = {"won": 3, "lost": 4}
        g = trapcat_game.Scene(ctx)
        g.show_level(level)
        assert g.snapshot() is not None
        g.cursor = cell
        press(g, ctx, A)
        for _ in range(20):
            if _over(g):
                break
            g.tick(ctx)
        assert _over(g) and g.snapshot() is None and ctx.finishes == 1
        assert ctx.saved["trapcat/play"] == {}
        assert ctx.saved["trapcat"] == ({"won": 4, "lost": 4} if won else {"won": 3, "lost": 5})
        assert g.banner == ("TRAPPED!" if won else "ESCAPED!")
        press(g, ctx, A)                               # again: a new game, nothing finished
        assert g.screen is g.play_screen and ctx.finishes == 1


def test_hard_cat_and_hint_are_sliced_over_ticks():
    """The job runs the slices under each tick's deadline; the answer equals
    the one-call choose()."""
    ctx = SlicedCtx(2)
    g = trapcat_game.Scene(ctx)
    b = g.board
    ref_hint = trapcat_ai.StrongBlocker(b).choose(b)
    hint(g, ctx)
    assert g.job.task is g.hinter
    ticks = 1
    while g.job.running():
        g.tick(ctx)
        ticks += 1
    assert g.cursor == ref_hint and ticks > 2          # several ticks
    # a hint in progress is dropped when the player blocks
    hint(g, ctx)
    assert g.job.running() and g.job.task is g.hinter
    g.cursor = ref_hint
    press(g, ctx, A)
    assert _cat_turn(g) and g.job.task is g.cat
    ref_cat = trapcat_ai.HardCat(b).choose(b)
    ticks = 0
    while _cat_turn(g):
        g.tick(ctx)
        ticks += 1
        assert ticks < 200
    assert b.cat == ref_cat or b.status != trapcat.PLAYING


def test_a_step_is_one_slice_of_work_units():
    b = trapcat.Board(9)
    b.reset(trapcat.Rng(3), 12)
    task = trapcat_ai.StrongBlocker(b)
    task.slice_units = 1                     # one unit a step
    task.begin(b)
    assert task.answer == work.NO_ANSWER
    steps = 1
    while not task.step():
        steps += 1
    assert task.answer == trapcat_ai.StrongBlocker(b).choose(b) != work.NO_ANSWER
    assert steps > 20


def test_out_of_memory_in_a_slice_is_the_jobs_toast_and_the_game_goes_on():
    """A MemoryError in the hint: the toast, the cursor stays; in the cat's
    move: the toast, and the cat takes its first free step."""
    ctx = FakeCtx(2)
    g = trapcat_game.Scene(ctx)

    def no_memory():
        raise MemoryError

    g.hinter.step = no_memory
    cursor = g.cursor
    hint(g, ctx)
    g.tick(ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] and not g.job.running() and g.cursor == cursor
    b = g.board
    g.cat.step = no_memory
    g.cursor = next(c for c in range(b.n) if b.can_block(c) and not b.is_adjacent(b.cat, c))
    press(g, ctx, A)
    first = bytearray(6)
    b.free_neighbours(b.cat, first)
    for _ in range(trapcat_game.AI_DELAY + 1):
        g.tick(ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] * 2
    assert not _cat_turn(g) and b.cat == first[0] and b.moves == 1


def test_dots_written_into_the_frame_equal_pixel_calls():
    """With ctx.frame (the bytes behind fb) the free cells' dots are set in the frame
    directly; the screen is the one pixel() calls draw, also for a 15x15 pack grid
    that runs off the bottom of the screen."""
    import random

    rnd = random.Random(3)
    for size in (9, 15):
        plain = FakeCtx(1)
        g = trapcat_game.Scene(plain)
        assert g.screen is g.play_screen
        g._set_size(size)
        b = g.board
        for cell in range(b.n):
            b.cells[cell] = 1 if rnd.random() < 0.2 else 0
        b.cells[b.cat] = 0
        for cursor, screen in ((b.n // 2 + 1, g.play_screen), (3, g.end_screen)):
            g.cursor = cursor
            g.screen = screen
            ref = bytearray(1024)
            g.draw(framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB))
            direct = FakeCtx(1)
            direct.frame = bytearray(1024)
            direct.width, direct.height = 128, 64
            g.ctx = direct
            g.draw(framebuf.FrameBuffer(direct.frame, 128, 64, framebuf.MONO_VLSB))
            g.ctx = plain
            assert direct.frame == ref and sum(ref) > 500
