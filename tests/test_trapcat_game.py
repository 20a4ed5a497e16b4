"""Smoke test of the handheld scene with a fake context and framebuffer."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host_tools" / "hostfb"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import trapcat  # noqa: E402
import trapcat_game  # noqa: E402
from buttons import A, B, DOWN, RIGHT  # noqa: E402


class FakeButtons:
    def __init__(self):
        self.down = 0
        self.up = 0

    def pressed(self, m):
        return False

    def held_ms(self, m):
        return 0

    def just_pressed(self, m):
        return bool(self.down & m)

    def just_released(self, m):
        return bool(self.up & m)

    def repeat(self, m):
        return bool(self.down & m)


class FakeCtx:
    def __init__(self, difficulty):
        self.buttons = FakeButtons()
        self.settings = {"difficulty": difficulty}
        self.saved = {}

    def ticks_ms(self):
        return 1234

    def load(self, gid):
        return dict(self.saved.get(gid, {}))

    def store(self, gid, data):
        self.saved[gid] = dict(data)

    def beep(self, f, ms):
        pass

    def ai(self, fn, *args):
        return fn(*args)


class FakeFb:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        def f(*args):
            self.calls += 1
        return f


def press(game, ctx, mask):
    ctx.buttons.down = mask
    r = game.tick(ctx)
    ctx.buttons.down = 0
    return r


def release(game, ctx, mask):
    ctx.buttons.up = mask
    r = game.tick(ctx)
    ctx.buttons.up = 0
    return r


def test_scene_plays_whole_games_with_hints():
    for diff in (0, 1, 2):
        ctx = FakeCtx(diff)
        g = trapcat_game.Game(ctx)
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
