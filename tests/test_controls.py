"""The controls of B, the same in every game (firmware/scenekit.py: Pause,
settled; docs/runtime.md, "Controls"): each game's play screen driven through
a B tap, a hold of B (the pause menu: RESUME, HINT where there is one, UNDO,
RESTART, RULES, QUIT) and B+A, with the same meaning in all four; a B tap
never discards anything; an end screen ignores a press carried over from
play (Klotski's winning move made with the block grabbed, then A)."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402
import gamectx  # noqa: E402
import klotski  # noqa: E402
import klotski_game  # noqa: E402
import trapcat_game  # noqa: E402
from buttons import A, B, DOWN, RIGHT, UP  # noqa: E402
from gamectx import chord, hold, press, tap  # noqa: E402
from host_tools.core.keyscript import parse_keys  # noqa: E402
from test_undo import Ctx, _cm_game, _cm_move, _jq_game, _jq_move, _tc_turn, _free_cells  # noqa: E402

GAMES = ("catmouse", "trapcat", "junqi", "klotski")
HAS_HINT = ("trapcat", "klotski")


def _fb():
    return framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)


def _in_play(game):
    """The game's scene in play after two moves of the player (the AI's answers
    made), its context (``game_id`` set) and its play screen."""
    if game == "catmouse":
        g, ctx = _cm_game("mouse", 1)
        rnd = random.Random(3)
        _cm_move(g, ctx, rnd)
        _cm_move(g, ctx, rnd)
        play = g.play
    elif game == "trapcat":
        ctx = Ctx(1)
        g = trapcat_game.Scene(ctx)
        for _ in range(2):
            _tc_turn(g, ctx, [c for c in _free_cells(g) if not g.board.is_adjacent(g.board.cat, c)][0])
        play = g.play_screen
    elif game == "junqi":
        g, ctx = _jq_game(0)
        rnd = random.Random(5)
        _jq_move(g, ctx, rnd)
        _jq_move(g, ctx, rnd)
        play = g.play_screen
    else:
        ctx = Ctx(1)
        g = klotski_game.Scene(ctx)
        g.level = g.layouts.index("VBBV/VBBV/VHHV/VSSV/S..S")      # 横刀立马
        tap(g, ctx, A)
        for key in (DOWN, DOWN, A, DOWN, A, RIGHT, UP, A, DOWN, A):
            tap(g, ctx, key)                    # the two soldiers down: two steps
        play = g.play_screen
    ctx.game_id = game
    assert g.screen is play and g.undo_ring.count >= 2 and g.snapshot() is not None
    return g, ctx, play


def _state(g):
    return repr(g.snapshot())


@pytest.mark.parametrize("game", GAMES)
def test_a_b_tap_in_play_discards_nothing(game):
    g, ctx, play = _in_play(game)
    before = _state(g)
    for _ in range(3):
        tap(g, ctx, B)
        assert g.screen is play and not g.pause.shown
        assert _state(g) == before


@pytest.mark.parametrize("game", GAMES)
def test_holding_b_opens_the_same_pause_menu_over_play(game):
    g, ctx, play = _in_play(game)
    before = _state(g)
    items = g.pause.items
    assert items[0] == "RESUME" and items[-1] == "QUIT"
    assert {"UNDO", "RESTART", "RULES"} <= set(items)
    assert ("HINT" in items) == (game in HAS_HINT)
    hold(g, ctx, B)                             # its release does not close it
    assert g.pause.shown and g.screen is play and _state(g) == before
    g.draw(_fb())
    tap(g, ctx, B)                              # a B tap: resume
    assert not g.pause.shown and g.screen is play and _state(g) == before
    hold(g, ctx, B)
    tap(g, ctx, A)                              # RESUME
    assert not g.pause.shown and _state(g) == before
    hold(g, ctx, B)
    tap(g, ctx, UP)                             # wraps round to QUIT
    assert g.pause.items[g.pause.item] == "QUIT"
    assert press(g, ctx, A) == "exit"
    assert _state(g) == before and g.snapshot() is not None    # kept for CONTINUE


@pytest.mark.parametrize("game", GAMES)
def test_b_plus_a_undoes_and_is_the_menus_undo(game):
    g, ctx, play = _in_play(game)
    h, hctx, _ = _in_play(game)
    assert _state(g) == _state(h)
    n = g.undo_ring.count
    before = _state(g)
    chord(g, ctx, B, A)
    assert g.undo_ring.count < n and _state(g) != before
    assert g.screen is play and not g.pause.shown
    hold(h, hctx, B)
    for _ in range(h.pause.items.index("UNDO")):
        tap(h, hctx, DOWN)
    tap(h, hctx, A)
    assert not h.pause.shown and _state(h) == _state(g)


@pytest.mark.parametrize("game", GAMES)
def test_rules_from_the_pause_menu(game):
    g, ctx, play = _in_play(game)
    before = _state(g)
    hold(g, ctx, B)
    for _ in range(g.pause.items.index("RULES")):
        tap(g, ctx, DOWN)
    tap(g, ctx, A)
    assert g.pause.rules is not None and g.pause.rules.pages[0][0] != "HOW TO PLAY"
    fb = _fb()
    g.draw(fb)
    tap(g, ctx, DOWN)                           # the next page
    assert g.pause.rules.page == 1
    tap(g, ctx, B)                              # back to the menu
    assert g.pause.rules is None and g.pause.shown
    tap(g, ctx, B)                              # and to play
    assert not g.pause.shown and g.screen is play and _state(g) == before
    assert "howto" not in sys.modules and "pausemenu" not in sys.modules


@pytest.mark.parametrize("game", GAMES)
def test_the_play_screen_says_hold_b_menu(game, monkeypatch):
    """Klotski's and Trap the Cat's panels always; the full-screen fields of Cat
    & Mouse and Flip Junqi over the middle as a game starts."""
    import gfx

    said = []
    real = gfx.text

    def text(fb, s, *args):
        said.append(s)
        return real(fb, s, *args)

    monkeypatch.setattr(gfx, "text", text)
    g, ctx, play = _in_play(game)
    if game in ("catmouse", "junqi"):
        g.restore(g.snapshot())                 # as CONTINUE: the start of play again
    g.draw(_fb())
    assert "HOLD B: MENU" in said


def test_catmouse_the_issues_script_keeps_the_game(tmp_path):
    """`sim --keys "wait:10 a wait:20 a wait:10 left wait:6 left wait:6 b wait:5
    a wait:20"`: the B tap no longer leaves play for the title, so the A after
    it does not start a new game."""
    from host_tools.emulation import sim as simmod

    s = simmod.Simulator(saves_dir=tmp_path)
    for k in parse_keys("wait:10 a wait:20 a wait:10 left wait:6 left wait:6 b wait:5 a wait:20"):
        s.step(k)
    g = s.runtime.game
    assert type(g).__name__ == "Scene" and g.screen is g.play
    assert g.match.game.round >= 3 and g.undo_ring.count >= 2


def test_klotski_the_winning_move_then_a_shows_the_win_screen():
    """The block moved out while grabbed: the win screen shows at once, the A
    that drops the block (or a B tap) leaves it on show, the next A is NEXT."""
    for drop in (A, B):
        ctx = Ctx(1)
        g = klotski_game.Scene(ctx)
        tap(g, ctx, A)
        g.cells[:] = klotski.parse("VSSV/VHHV/VBBV/VBBV/S..S")
        klotski.owners(g.cells, g.own)
        g.play_screen.cursor = 9
        tap(g, ctx, A)                          # grab the block
        assert g.play_screen.grabbed
        press(g, ctx, DOWN)                     # out: solved
        assert g.screen is g.win_screen
        gamectx.tick(g, ctx)                    # DOWN still down
        gamectx.release(g, ctx, DOWN)
        tap(g, ctx, drop)                       # the drop
        assert g.screen is g.win_screen and g.level == 0
        g.draw(_fb())
        tap(g, ctx, A)                          # A:NEXT
        assert g.screen is g.play_screen and g.level == 1


@pytest.mark.parametrize("game", ("trapcat", "junqi", "catmouse"))
def test_an_end_screen_ignores_a_press_carried_over_from_play(game):
    """The end screen opens while a button is still down: its release (and
    holding it) does nothing there; a new press does."""
    g, ctx, play = _in_play(game)
    end = {"catmouse": "end", "trapcat": "end_screen", "junqi": "end_screen"}[game]
    screen = getattr(g, end)
    g.screen = screen
    screen.armed = False
    ctx.buttons.held = B
    gamectx.tick(g, ctx)
    gamectx.release(g, ctx, B)                  # the carried press ends: nothing
    ctx.buttons.held = 0
    assert g.screen is screen
    r = tap(g, ctx, B)                          # a new tap: back
    assert g.screen is not screen or r == "exit"


def test_junqi_a_on_the_end_screen_plays_again_in_the_same_mode():
    g, ctx, play = _in_play("junqi")
    g.screen = g.end_screen
    g.end_screen.armed = False
    gamectx.tick(g, ctx)
    tap(g, ctx, A)
    assert g.screen is play and g.mode == 0 and g.model.plies == 0
