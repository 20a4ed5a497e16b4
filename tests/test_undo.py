"""Undo in Trap the Cat, Cat & Mouse and Flip Junqi (B+A: hold B, press A):
the preallocated ring (firmware/undoring.py), exact restores of the whole game
state after many random moves, the AIs replaying identically after an undo,
the ring's limit."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import catmouse_game  # noqa: E402
import catmouse_match  # noqa: E402
import gamectx  # noqa: E402
import junqi_game  # noqa: E402
import trapcat_game  # noqa: E402
import undoring  # noqa: E402
import undosave  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402
from gamectx import chord, press  # noqa: E402


class Ctx(gamectx.FakeCtx):
    now = 1234


# -- the ring --------------------------------------------------------------------------

def test_ring_keeps_the_newest_records_and_dumps_them_oldest_first():
    r = undoring.UndoRing(5, 50)
    assert r.pop() == -1
    for i in range(137):
        at = r.push()
        r.buf[at] = i & 0xFF
        r.put30(at + 1, 1000003 * i & 0x3FFFFFFF)
    assert r.count == 50
    data = undosave.dump(r)
    assert len(data) == 250 and data[0] == 87 and data[-5] == 136
    other = undoring.UndoRing(5, 50)
    undosave.load(other, data)
    assert undosave.dump(other) == data
    small = undoring.UndoRing(5, 8)
    undosave.load(small, data)
    assert undosave.dump(small) == data[-40:]
    for i in range(136, 86, -1):
        at = r.pop()
        assert r.buf[at] == i and r.get30(at + 1) == 1000003 * i & 0x3FFFFFFF
        at = other.pop()
        assert other.buf[at] == i and other.get30(at + 1) == 1000003 * i & 0x3FFFFFFF
    assert r.pop() == -1 and other.pop() == -1 and undosave.dump(r) == b""
    with pytest.raises(ValueError):
        undosave.load(other, b"\x00" * 4)


# -- Trap the Cat ----------------------------------------------------------------------

def _tc_state(g):
    b = g.board
    rng = g.cat.rng if g.diff == 0 else None
    return (bytes(b.cells), b.cat, b.moves, b.status, _tc_phase(g),
            (rng.a, rng.b) if rng else None)


def _tc_phase(g):
    """"play", "cat" (the cat's turn) or "over" (the end screen)."""
    if g.screen is g.end_screen:
        return "over"
    assert g.screen is g.play_screen
    return "cat" if g.play_screen.cat_turn else "play"


def _tc_settle(g, ctx):
    """Tick until the cat has answered (PLAY or OVER)."""
    for _ in range(400):
        if _tc_phase(g) != "cat":
            return
        g.tick(ctx)
    raise AssertionError("the cat never moved")


def _tc_turn(g, ctx, cell):
    g.cursor = cell
    press(g, ctx, A)
    _tc_settle(g, ctx)


def _free_cells(g):
    b = g.board
    cells = [c for c in range(b.n) if b.can_block(c)]
    return cells


@pytest.mark.parametrize("diff", [0, 1, 2])
def test_trapcat_undo_restores_every_earlier_turn_and_the_cat_replays(diff):
    rnd = random.Random(diff)
    for game_no in range(4 if diff < 2 else 2):
        ctx = Ctx(diff)
        ctx.now = 1234 + 17 * game_no
        g = trapcat_game.Scene(ctx)
        states = [_tc_state(g)]
        blocks = []
        while _tc_phase(g) == "play":
            # far from the cat first: longer games
            cells = _free_cells(g)
            cell = rnd.choice(cells)
            blocks.append(cell)
            _tc_turn(g, ctx, cell)
            states.append(_tc_state(g))
            if _tc_phase(g) == "over":
                # undo is refused on the end screen: nothing changes
                chord(g, ctx, B, A)
                assert _tc_state(g) == states[-1]
                break
        # undo from the last PLAY position down to the start
        if _tc_phase(g) == "over":
            continue
        for k in range(len(blocks) - 1, -1, -1):
            chord(g, ctx, B, A)
            assert _tc_state(g) == states[k]
        chord(g, ctx, B, A)                       # nothing left: no change
        assert _tc_state(g) == states[0]
        for k, cell in enumerate(blocks):          # the same blocks, the same cat
            _tc_turn(g, ctx, cell)
            assert _tc_state(g) == states[k + 1]


@pytest.mark.parametrize("diff", [0, 1])
def test_trapcat_undo_after_many_turns_and_at_the_rings_limit(diff, monkeypatch):
    """A board whose border is all blocked lasts (the cat cannot escape); 40+
    turns, then undo past a small ring's depth."""
    level = "\n".join(["#########"] + ["#.......#"] * 3 + ["#...C...#"] + ["#.......#"] * 3
                      + ["#########"])
    for depth in (trapcat_game.UNDO_DEPTH, 8):
        monkeypatch.setattr(trapcat_game, "UNDO_DEPTH", depth)
        rnd = random.Random(5)
        ctx = Ctx(diff)
        g = trapcat_game.Scene(ctx)
        g.show_level(level)
        states = [_tc_state(g)]
        blocks = []
        while _tc_phase(g) == "play":
            b = g.board
            far = [c for c in range(b.n) if b.can_block(c) and not b.is_adjacent(b.cat, c)]
            if not far:
                break
            cell = rnd.choice(far)
            blocks.append(cell)
            _tc_turn(g, ctx, cell)
            states.append(_tc_state(g))
        assert _tc_phase(g) == "play" and len(blocks) >= 40
        n = len(blocks)
        undone = 0
        while True:
            before = _tc_state(g)
            chord(g, ctx, B, A)
            if _tc_state(g) == before:
                break
            undone += 1
            assert _tc_state(g) == states[n - undone]
        assert undone == min(n, depth)


# -- Cat & Mouse -----------------------------------------------------------------------



def _cm_state(g):
    m = g.match
    c = m.game
    rng = m.ai_state
    return (c.cat, c.mouse, c.round, c.cat_stamina, c.mouse_stamina, c.cat_rest, c.mouse_rest,
            c.winner, m.round_started, type(g.screen).__name__, rng.state if rng else None,
            bytes(c.board.flags), c.board.round, c.board.cat_rest, c.board.mouse_rest)


def _cm_my_turn(g):
    c = g.match.game
    if g.play.wait or g.match.thinking():
        return False
    if (g.side == "mouse") != g.match.round_started:
        return False
    here = c.cat if g.side == "cat" else c.mouse
    legal = c.legal_moves(g.side)
    return not (len(legal) == 1 and legal[0] == here)


def _cm_settle(g, ctx):
    for _ in range(2000):
        if g.screen is not g.play or _cm_my_turn(g):
            return
        g.tick(ctx)
    raise AssertionError("the AI never answered")


def _cm_move(g, ctx, rnd):
    c = g.match.game
    here = c.cat if g.side == "cat" else c.mouse
    legal = [q for q in c.legal_moves(g.side) if q != c.mouse or g.side == "mouse"]
    cell = rnd.choice(legal)
    d = cell - here
    key = A if d == 0 else LEFT if d == -1 else RIGHT if d == 1 else UP if d < 0 else DOWN
    press(g, ctx, key)
    _cm_settle(g, ctx)
    return key


def _cm_game(side, diff, now=1234):
    ctx = Ctx(diff)
    ctx.now = now
    ctx.frame = bytearray(1024)
    ctx.tick_no = lambda: 0
    g = catmouse_game.Scene(ctx)
    g.side = side
    g.level = 0                          # the garden: grass and streams (rests)
    press(g, ctx, A)
    while g.held is not None:            # the map rendered, then its first frame: no play in them
        g.tick(ctx)
    _cm_settle(g, ctx)
    return g, ctx


@pytest.mark.parametrize("side", ["mouse", "cat"])
@pytest.mark.parametrize("diff", [0, 1, 2])
def test_catmouse_undo_restores_every_round_and_the_ai_replays(side, diff):
    rnd = random.Random(diff * 2 + (side == "cat"))
    g, ctx = _cm_game(side, diff)
    states = [_cm_state(g)]
    keys = []
    while g.screen is g.play and len(keys) < 60:
        keys.append(_cm_move(g, ctx, rnd))
        if g.screen is not g.play:
            break
        states.append(_cm_state(g))
    if g.screen is not g.play:                # the last round ended the game
        keys.pop()
        g.screen = g.play                     # (not reachable by keys: undo it from here)
        chord(g, ctx, B, A)
        assert _cm_state(g) == states[-1]
    assert len(keys) >= 5, len(keys)
    n = len(states) - 1
    for k in range(n - 1, -1, -1):
        chord(g, ctx, B, A)
        assert _cm_state(g) == states[k], k
    assert g.undo_ring.count == 0
    chord(g, ctx, B, A)
    assert _cm_state(g) == states[0] and g.screen is g.play
    for k in range(n):                          # the same moves, the same AI
        press(g, ctx, keys[k])
        _cm_settle(g, ctx)
        assert _cm_state(g) == states[k + 1], k


@pytest.mark.parametrize("depth", [catmouse_match.UNDO_DEPTH, 8])
def test_catmouse_undo_after_50_rounds_and_at_the_rings_limit(depth, monkeypatch):
    monkeypatch.setattr(catmouse_match, "UNDO_DEPTH", depth)
    rnd = random.Random(7)
    g, ctx = _cm_game("cat", 0)                 # the cat never catches: the game lasts
    states = [_cm_state(g)]
    while len(states) < 70 and g.screen is g.play:
        _cm_move(g, ctx, rnd)
        states.append(_cm_state(g))
    assert g.screen is g.play and g.match.game.round >= 60
    undone = 0
    while g.undo_ring.count:
        chord(g, ctx, B, A)
        undone += 1
        assert _cm_state(g) == states[-1 - undone]
    assert undone == min(depth, len(states) - 1)


# -- Flip Junqi ------------------------------------------------------------------------



def _jq_state(g):
    c = g.model
    return (bytes(c.occ), bytes(c.kind), bytes(c.colour), bytes(c.pool), bytes(c.alive),
            bytes(c.player_colour), c.to_move, c.winner, c.quiet, c.plies, c.hidden,
            c.last_src, c.last_dst, g.ai.rng.s if g.ai else None, type(g.screen).__name__)


def _jq_settle(g, ctx):
    for _ in range(5000):
        if g.screen is g.play_screen or g.screen is g.end_screen:
            return
        g.tick(ctx)
    raise AssertionError("the AI never moved")


def _jq_move(g, ctx, rnd):
    c = g.model
    n = c.legal_moves()
    move = c.moves[rnd.randrange(n)]
    g.start_move(move)
    _jq_settle(g, ctx)
    return move


def _jq_game(mode, diff=1, now=1234, guard=False):
    ctx = Ctx(diff)
    ctx.now = now
    # without "mines guard the flag": games shorter than the undo ring (100 plies),
    # so every turn can be taken back (the rule changes nothing undo keeps)
    ctx.saved["junqi"] = {"guard": guard}
    g = junqi_game.Scene(ctx)
    g.menu_screen.sel = mode
    press(g, ctx, A)
    assert g.screen is g.play_screen and g.mode == mode
    return g, ctx


@pytest.mark.parametrize("diff", [0, 1])
def test_junqi_undo_takes_back_your_move_and_the_ais_and_the_ai_replays(diff):
    for game_no in range(3):
        rnd = random.Random(game_no * 3 + diff)
        g, ctx = _jq_game(0, diff, 1234 + game_no)
        states = [_jq_state(g)]
        moves = []
        while g.screen is g.play_screen:
            moves.append(_jq_move(g, ctx, rnd))
            states.append(_jq_state(g))
        assert g.screen is g.end_screen and len(moves) >= 3
        chord(g, ctx, B, A)                        # not on the end screen
        assert _jq_state(g) == states[-1]
        g.screen = g.play_screen                   # (unreachable by keys) undo the last turn too
        for k in range(len(moves) - 1, -1, -1):
            chord(g, ctx, B, A)
            want = states[k]
            assert _jq_state(g)[:-1] == want[:-1], k
            assert g.model.to_move == 0 and g.screen is g.play_screen
        chord(g, ctx, B, A)
        assert _jq_state(g) == states[0]
        for k, move in enumerate(moves):             # the same moves, the same AI
            g.start_move(move)
            _jq_settle(g, ctx)
            assert _jq_state(g) == states[k + 1], k


def test_junqi_undo_while_the_ai_thinks_and_in_two_player_games_at_the_rings_limit():
    rnd = random.Random(3)
    g, ctx = _jq_game(0)
    before = _jq_state(g)
    n = g.model.legal_moves()
    g.start_move(g.model.moves[rnd.randrange(n)])
    assert g.screen is g.think_screen
    chord(g, ctx, B, A)
    assert _jq_state(g) == before
    # two players: one move per undo, 120 moves, the ring keeps UNDO_PLIES
    g, ctx = _jq_game(1)
    g.model.quiet_limit = 0
    states = [_jq_state(g)]
    while g.screen is g.play_screen and len(states) <= 120:
        _jq_move(g, ctx, rnd)
        states.append(_jq_state(g))
    assert len(states) > junqi_game._UNDO_PLIES + 1 and g.screen is g.play_screen
    undone = 0
    while g.undo_ring.count:
        chord(g, ctx, B, A)
        undone += 1
        assert _jq_state(g) == states[-1 - undone]
    assert undone == junqi_game._UNDO_PLIES >= 100


def test_junqi_a_game_longer_than_the_ring_undoes_its_newest_50_turns():
    """With "mines guard the flag" (on unless turned off) a game against the
    AI lasts ~190 plies, longer than the ring: it keeps the newest UNDO_PLIES
    (the oldest go as new ones come), so the last 50 turns undo exactly,
    here and after CONTINUE (the snapshot carries the full ring); past them
    B+A changes nothing and says why: "NO OLDER MOVES" (not the start's
    "CAN'T UNDO")."""
    rnd = random.Random(5)
    g, ctx = _jq_game(0, guard=True)
    assert g.model.mines_guard_flag
    states = [_jq_state(g)]
    while g.screen is g.play_screen and g.model.plies < junqi_game._UNDO_PLIES + 30:
        _jq_move(g, ctx, rnd)
        states.append(_jq_state(g))
    assert g.screen is g.play_screen and g.undo_ring.count == junqi_game._UNDO_PLIES
    assert g.model.plies >= junqi_game._UNDO_PLIES + 30
    hctx = Ctx(1)
    h = junqi_game.Scene(hctx)                      # CONTINUE
    assert h.restore(g.snapshot()) and _jq_state(h) == states[-1]
    assert h.undo_ring.count == junqi_game._UNDO_PLIES
    for scene, sctx in ((g, ctx), (h, hctx)):
        for k in range(1, junqi_game._UNDO_PLIES // 2 + 1):
            chord(scene, sctx, B, A)
            assert _jq_state(scene) == states[-1 - k], k
        assert scene.undo_ring.count == 0 and scene.model.plies > 0
        del sctx.toasts[:]
        chord(scene, sctx, B, A)
        assert _jq_state(scene) == states[-1 - junqi_game._UNDO_PLIES // 2]
        assert sctx.toasts == ["NO OLDER MOVES"]
    g, ctx = _jq_game(0, guard=True)                # at the start: nothing was played
    chord(g, ctx, B, A)
    assert ctx.toasts == ["CAN'T UNDO"]


def test_junqi_undo_against_the_ai_never_hands_you_the_ais_move(monkeypatch):
    """A full ring that lost one move to an undo during the AI's turn keeps an
    AI move as its oldest record: that one is never undone alone."""
    monkeypatch.setattr(junqi_game, "_UNDO_PLIES", 6)
    rnd = random.Random(11)
    g, ctx = _jq_game(0)
    for _ in range(5):
        _jq_move(g, ctx, rnd)
        assert g.screen is g.play_screen
    n = g.model.legal_moves()
    g.start_move(g.model.moves[rnd.randrange(n)])
    assert g.screen is g.think_screen
    chord(g, ctx, B, A)
    assert g.screen is g.play_screen and g.model.to_move == 0 and g.undo_ring.count == 5
    for _ in range(4):
        chord(g, ctx, B, A)
        assert g.screen is g.play_screen and g.model.to_move == 0
    assert g.undo_ring.count == 1
