"""Undo in Trap the Cat, Cat & Mouse and Flip Junqi (B+A: hold B, press A):
the preallocated ring (firmware/undoring.py), exact restores of the whole game
state after many random moves, the AIs replaying identically after an undo,
the ring's limit."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import gamectx  # noqa: E402
import trapcat_game  # noqa: E402
import undoring  # noqa: E402
from buttons import A, B  # noqa: E402
from gamectx import chord, press  # noqa: E402


class Ctx(gamectx.FakeCtx):
    now = 1234


# -- the ring --------------------------------------------------------------------------

def test_ring_keeps_the_newest_records_and_dumps_them_oldest_first():
    r = undoring.UndoRing(3, 50)
    assert r.pop() == -1
    for i in range(137):
        at = r.push()
        r.buf[at] = i & 0xFF
        r.put16(at + 1, 1000 + i)
    assert r.count == 50
    data = r.dump()
    assert len(data) == 150 and data[0] == 87 and data[-3] == 136
    other = undoring.UndoRing(3, 50)
    other.load(data)
    for i in range(136, 86, -1):
        at = r.pop()
        assert r.buf[at] == i and r.get16(at + 1) == 1000 + i
        at = other.pop()
        assert other.buf[at] == i and other.get16(at + 1) == 1000 + i
    assert r.pop() == -1 and other.pop() == -1
    r.put30(0, 0x3FFFFFFF)
    assert r.get30(0) == 0x3FFFFFFF
    with pytest.raises(ValueError):
        other.load(b"\x00" * 4)


# -- Trap the Cat ----------------------------------------------------------------------

def _tc_state(g):
    b = g.board
    rng = g.cat.rng if g.diff == 0 else None
    return (bytes(b.cells), b.cat, b.moves, b.status, g.state,
            (rng.a, rng.b) if rng else None)


def _tc_settle(g, ctx):
    """Tick until the cat has answered (PLAY or OVER)."""
    for _ in range(400):
        if g.state != trapcat_game.CAT_TURN:
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
        g = trapcat_game.Game(ctx)
        states = [_tc_state(g)]
        blocks = []
        while g.state == trapcat_game.PLAY:
            # far from the cat first: longer games
            cells = _free_cells(g)
            cell = rnd.choice(cells)
            blocks.append(cell)
            _tc_turn(g, ctx, cell)
            states.append(_tc_state(g))
            if g.state == trapcat_game.OVER:
                # undo is refused on the end screen: nothing changes
                chord(g, ctx, B, A)
                assert _tc_state(g) == states[-1]
                break
        # undo from the last PLAY position down to the start
        if g.state == trapcat_game.OVER:
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
        g = trapcat_game.Game(ctx)
        g.show_level(level)
        states = [_tc_state(g)]
        blocks = []
        while g.state == trapcat_game.PLAY:
            b = g.board
            far = [c for c in range(b.n) if b.can_block(c) and not b.is_adjacent(b.cat, c)]
            if not far:
                break
            cell = rnd.choice(far)
            blocks.append(cell)
            _tc_turn(g, ctx, cell)
            states.append(_tc_state(g))
        assert g.state == trapcat_game.PLAY and len(blocks) >= 40
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
