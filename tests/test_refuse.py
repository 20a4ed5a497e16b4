"""An illegal move is refused on screen as well as by a beep, in every game:
scenekit.refuse (the low beep and a short toast), so that with the sound
off something still happens."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import gamectx  # noqa: E402
import scenekit  # noqa: E402
from buttons import A, DOWN, RIGHT  # noqa: E402


class Ctx(gamectx.FakeCtx):
    def __init__(self, difficulty=1):
        super().__init__(difficulty)
        self.beeps = []

    def beep(self, f, ms):
        self.beeps.append((f, ms))


def test_refuse_beeps_and_shows_the_message():
    ctx = Ctx()
    scenekit.refuse(ctx, "BLOCKED")
    assert ctx.beeps == [(220, 30)] and ctx.toasts == ["BLOCKED"]


def test_klotski_a_blocked_piece():
    import klotski_game as kg
    ctx = Ctx()
    g = kg.Scene(ctx)
    levels = kg.klotski_levels
    layouts = [levels.level(i)[1] for i in range(levels.count())]
    g.level = layouts.index("VBBV/VBBV/VHHV/VSSV/S..S")   # the classic (the list: by optimal steps)
    for key in (A, DOWN, DOWN, A, DOWN, RIGHT):      # the soldier down, then right
        gamectx.tap(g, ctx, key)
    assert g.steps == 1 and ctx.toasts == []
    gamectx.tap(g, ctx, RIGHT)                        # the soldier on 19 is in the way
    assert g.steps == 1 and ctx.toasts == ["BLOCKED"] and ctx.beeps[-1][0] == 220


def test_cat_and_mouse_a_step_off_the_map():
    import catmouse_game
    ctx = Ctx()
    ctx.game_id = "catmouse"
    ctx.frame = bytearray(1024)
    g = catmouse_game.Scene(ctx)
    gamectx.tap(g, ctx, A)
    assert g.screen is g.play and g.match.side == "mouse"
    for _ in range(30):                               # the mouse's first turn
        if ctx.toasts:
            break
        gamectx.tick(g, ctx, down=DOWN)               # it starts on the bottom row
    assert ctx.toasts == ["BLOCKED"]


def test_trap_the_cat_a_blocked_cell():
    import trapcat_game
    ctx = Ctx()
    g = trapcat_game.Scene(ctx)
    b = g.board
    g.cursor = next(c for c in range(b.n) if b.cells[c])
    gamectx.press(g, ctx, A)
    assert ctx.toasts == ["CAN'T BLOCK THERE"] and b.moves == 0


def test_flip_junqi_not_a_move():
    import junqi_game
    ctx = Ctx()
    g = junqi_game.Scene(ctx)
    gamectx.press(g, ctx, A)                          # VS DEVICE AI
    g.cursor = 11                                     # C1, a camp: empty at the start
    gamectx.press(g, ctx, A)
    assert ctx.toasts == ["NOT A MOVE"] and g.model.plies == 0
