"""Issue 18: the hard cat and the hint play exactly several moves deep.

The independent host solver (host_tools/oracles/trapcat_exact.py) is checked against
the unpruned brute force of test_trapcat.py on small depths; the device's
Deep search against the host solver at full depth; then the goals on every
position of seeded games (host_tools/oracles/trapcat_audit.py - `make bench` runs
the same audit on more games); and the MicroPython VM picks the same moves."""

import json
import random

import pytest

import trapcat
import trapcat_ai
from host_tools.oracles import trapcat_audit
from host_tools.oracles.trapcat_exact import Exact
from test_trapcat import Brute, random_position
from trapcat import Board


@pytest.mark.parametrize("size", [7, 9])
def test_exact_solver_matches_unpruned_brute_force(size):
    brute = Brute(size)
    ex = Exact(size)
    rng = random.Random(size)
    seen = {"escape": 0, "capture": 0}
    for _ in range(60):
        blocked, cat = random_position(rng, size, 8, 40, near_border=3)
        for k in (1, 2, 3):
            got = ex.escape_cat(mask_of(blocked), cat, k)
            assert got == brute.escape(k, blocked, cat), (k, sorted(blocked), cat)
            seen["escape"] += got
        blocked, cat = random_position(rng, size, 3 * size, 5 * size)
        for h in (1, 2, 3):
            got = ex.capture_blk(mask_of(blocked), cat, h)
            assert got == brute.capture(h, blocked, cat), (h, sorted(blocked), cat)
            seen["capture"] += got
    assert seen["escape"] >= 30 and seen["capture"] >= 15, seen


def mask_of(blocked):
    return sum(1 << x for x in blocked)


def load_position(board, deep, blocked, cat):
    """Set board and deep to the position; returns its bitmask."""
    cells = bytearray(board.n)
    for x in blocked:
        cells[x] = 1
    board.load(cells, cat)
    deep.load(board)
    return mask_of(blocked)


def load_with_blocks_after(ex, board, deep, rng, most_blocks, fewest_extra, most_extra):
    """A random 9x9 position loaded into deep, then fewest_extra..most_extra
    blocks within 2 of the cat added with Deep.block (as inside a search).
    Returns (blocked, extra, cat, bitmask of all blocks)."""
    blocked, cat = random_position(rng, 9, 8, most_blocks, near_border=3)
    load_position(board, deep, blocked, cat)
    free = [x for x in range(81) if x not in blocked and x != cat and ex.hexdist(x, cat) <= 2]
    extra = rng.sample(free, min(len(free), rng.randint(fewest_extra, most_extra)))
    for x in extra:
        deep.block(x)
    return blocked, extra, cat, mask_of(set(blocked) | set(extra))


def test_deep_search_matches_exact_solver():
    """Escapes within 4 and 5 moves, captures within 3 and 4 blocks, both
    roots (cat or player to move), on random 9x9 positions."""
    ex = Exact(9)
    b = Board(9)
    deep = trapcat_ai.Deep(b)
    rng = random.Random(5)
    yes = {}
    for _ in range(120):
        blocked, cat = random_position(rng, 9, 8, 40, near_border=4)
        m = load_position(b, deep, blocked, cat)
        for k in (4, 5):
            want = ex.escape_cat(m, cat, k)
            assert deep.solve(trapcat_ai.ESCAPE, 0, cat, k) == want, (k, sorted(blocked), cat)
            yes["e%d" % k] = yes.get("e%d" % k, 0) + want
        want = ex.escape_blk(m, cat, 4)
        assert deep.solve(trapcat_ai.ESCAPE, 1, cat, 4) == want, (sorted(blocked), cat)
        blocked, cat = random_position(rng, 9, 25, 50)
        m = load_position(b, deep, blocked, cat)
        for h in (3, 4):
            want = ex.capture_blk(m, cat, h)
            assert deep.solve(trapcat_ai.CAPTURE, 1, cat, h) == want, (h, sorted(blocked), cat)
            yes["c%d" % h] = yes.get("c%d" % h, 0) + want
            if want and deep.first != trapcat.NONE and ex.free_nb(m, cat):
                # the witness block keeps the capture
                assert ex.captured_after(m | 1 << deep.first, cat, h - 1)
        ex.clear()
    assert min(yes.values()) >= 15, yes


@pytest.mark.slow
@pytest.mark.parametrize("first", [0, 10])
def test_goals_hold_on_seeded_game_positions(first):
    """Every position of 10 seeded games: 0 misses for the cat (fastest
    forced escape within 5, no step into a capture forced within 4) and the
    hint (keeps forced captures within 4, never hands an avoidable forced
    escape within 5).  The positions must exercise each rule."""
    positions = trapcat_audit.game_positions(10, first)
    tally = trapcat_audit.audit(positions)
    assert tally.misses() == 0, tally.failures[:3]
    deep_escapes = sum(tally.cat_escape[k][0] for k in (3, 4, 5))
    assert deep_escapes >= 4, tally.cat_escape
    assert tally.cat_avoid[0] >= 30
    assert sum(v[0] for v in tally.hint_capture.values()) >= 10, tally.hint_capture
    assert tally.hint_avoid[0] >= 30


def test_sliced_hint_and_cat_match_whole_and_leave_the_board_alone():
    b = Board(9)
    an = trapcat_ai.Analyzer(b)
    hint = trapcat_ai.StrongBlocker(b, an)
    cat = trapcat_ai.HardCat(b, an)
    for kind, cells, c in trapcat_audit.game_positions(3, 40)[::3]:
        b.load(cells, c)
        task = hint if kind == "blocker" else cat
        whole = task.choose(b)
        task.begin(b)
        steps = 0
        while not task.step():
            steps += 1
            if steps == 2:
                # a dropped search works on its own copy: the board is intact
                assert bytes(b.cells) == cells
        assert task.answer == whole
        assert bytes(b.cells) == cells and b.cat == c


def test_vm_picks_the_same_moves(vm):
    positions = trapcat_audit.game_positions(4, 60)[::3]
    expected = []
    b = Board(9)
    for kind, cells, c in positions:
        b.load(cells, c)
        # the VM has no viper kernel, so its hint looks no deeper than 5 moves
        task = (trapcat_ai.StrongBlocker(b, look=False) if kind == "blocker"
                else trapcat_ai.HardCat(b))
        expected.append(task.choose(b))
    r = vm('''
import trapcat, trapcat_ai
P = %s
b = trapcat.Board(9)
an = trapcat_ai.Analyzer(b)
hint = trapcat_ai.StrongBlocker(b, an)
cat = trapcat_ai.HardCat(b, an)
res = []
allocs = []
for kind, cells, c in P:
    b.load(bytes(cells), c)
    task = hint if kind == "blocker" else cat
    x, fuel, alloc = measure(task.choose, b)
    res.append(x)
    allocs.append(alloc)
emit('res', res)
emit('alloc', max(allocs))
emit('look', hint.look)
''' % json.dumps([(k, list(cells), c) for k, cells, c in positions]), fuel=60_000_000_000)
    assert len(positions) >= 20
    assert r['look'] is False
    assert r['res'] == expected
    assert r['alloc'] == 0


def test_a_dropped_hint_does_not_disturb_the_cat_sharing_its_search():
    """The game drops a hint half-way when the player blocks; the cat then
    starts on the same Analyzer (and Deep): its move must be unaffected."""
    b = Board(9)
    an = trapcat_ai.Analyzer(b)
    hint = trapcat_ai.StrongBlocker(b, an)
    cat = trapcat_ai.HardCat(b, an)
    checked = 0
    for kind, cells, c in trapcat_audit.game_positions(4, 80):
        if kind != "blocker":
            continue
        b.load(cells, c)
        hint.begin(b)
        for _ in range(3):
            if hint.step():
                break
        if hint.deep.sp < 0:
            continue                      # no search in flight to drop
        block = trapcat_ai.GreedyBlocker(b).choose(b)
        b.block(block)
        if b.status != trapcat.PLAYING:
            continue
        got = cat.choose(b)
        fresh = trapcat_ai.HardCat(b)
        assert got == fresh.choose(b)
        # the shared search's copy and counts are the board's, not a mix
        assert bytes(an.deep.cells) == bytes(fresh.deep.cells) == bytes(b.cells)
        assert bytes(an.deep.fc) == bytes(fresh.deep.fc)
        checked += 1
    assert checked >= 5


def test_hint_score_shortcut_keeps_only_what_a_sweep_keeps():
    """StrongBlocker._keeps skips the two sweeps for a block that leaves the
    unblocked score: wherever it says so, the sweeps agree (and it does say
    so for most blocks off the cat's neighbours)."""
    rng = random.Random(18)
    checked = kept = 0
    for _ in range(80):
        size = rng.choice([7, 9, 11])
        blocked, cat = random_position(rng, size, 0, size * size // 3)
        b = Board(size)
        cells = bytearray(size * size)
        for x in blocked:
            cells[x] = 1
        b.load(cells, cat)
        hint = trapcat_ai.StrongBlocker(b)
        an = hint.an
        near = [b.adj[k] for k in range(6 * cat, 6 * cat + b.deg[cat])]
        if any(b.border[y] and not cells[y] for y in near):
            continue
        for i in range(b.n):
            an.nbf[i] = 1 if i in near else 0
        base = hint._score(b)
        hint.deep.cnt[:] = an.td
        hint.deep.dd[:] = an.dist
        hint.best0, hint.bestd0 = hint.best, hint.bestd
        for c in range(b.n):
            if cells[c] or c == cat or c in near:
                continue
            keeps = hint._keeps(c)
            cells[c] = 1
            score = hint._score(b)
            cells[c] = 0
            checked += 1
            if keeps:
                kept += 1
                assert score == base, (size, sorted(blocked), cat, c)
    assert checked > 1000 and kept > checked // 2, (checked, kept)


def test_deep_search_after_blocks_added_since_load():
    """Inside a search td is the one computed at load (a smaller bound once
    blocks are added): nodes there must still be exact.  Blocks added with
    Deep.block after load, then escapes (either side to move) and captures
    against the host solver.  (An escape node whose useful blocks were all
    gone once counted as an escape.)"""
    ex = Exact(9)
    b = Board(9)
    deep = trapcat_ai.Deep(b)
    rng = random.Random(1818)
    for _ in range(250):
        blocked, extra, cat, m = load_with_blocks_after(ex, b, deep, rng, 30, 2, 4)
        for k in (2, 3, 4):
            assert deep.solve(trapcat_ai.ESCAPE, 1, cat, k) == ex.escape_blk(m, cat, k), (
                k, sorted(blocked), extra, cat)
            assert deep.solve(trapcat_ai.ESCAPE, 0, cat, k) == ex.escape_cat(m, cat, k), (
                k, sorted(blocked), extra, cat)
        if ex.free_nb(m, cat) and not ex.border[cat]:
            for h in (2, 3):
                assert deep.solve(trapcat_ai.CAPTURE, 1, cat, h) == ex.capture_blk(m, cat, h), (
                    h, sorted(blocked), extra, cat)
        ex.clear()


def test_one_deep_answers_mixed_searches_in_any_order():
    """The cat and the hint share one Deep: escapes (either side to move)
    and captures of several depths, in random order on one loaded position
    (with blocks added after load), each equal to the host solver."""
    ex = Exact(9)
    b = Board(9)
    deep = trapcat_ai.Deep(b)
    rng = random.Random(2718)
    for _ in range(100):
        blocked, extra, cat, m = load_with_blocks_after(ex, b, deep, rng, 35, 0, 3)
        queries = [(0, 0, k) for k in (3, 4, 5)] + [(0, 1, k) for k in (3, 4)]
        if ex.free_nb(m, cat) and not ex.border[cat]:
            queries += [(1, 1, h) for h in (3, 4)]
        rng.shuffle(queries)
        for mode, kind, d in queries:
            if mode == trapcat_ai.CAPTURE:
                want = ex.capture_blk(m, cat, d)
            elif kind == 0:
                want = ex.escape_cat(m, cat, d)
            else:
                want = ex.escape_blk(m, cat, d)
            assert deep.solve(mode, kind, cat, d) == want, (mode, kind, d, sorted(blocked), extra, cat)
        ex.clear()
