"""The hint's 7-move look (issue 18): trapcat_viper's kernel against
Deep.run, expansion for expansion (on CPython the kernel source runs as
Python; on the virtual Pico as the machine code ``flash`` makes), the look's
blocks against the independent host solver, its budget and its slices."""

import random

import pytest

import trapcat
import trapcat_ai
from host_tools.emulation import vpico
from host_tools.oracles import trapcat_audit
from host_tools.oracles.trapcat_exact import Exact, mask

# Positions of the hint-vs-hard-cat tournament (seed 2024) where the look
# changed the hint: (cells, cat), '#' blocked.  The 5-move hint's block
# there hands the hard cat a forced escape within 7 moves.
LOOK_MATTERS = (
    (".........#.#....#....#.......#.#......#..#....#.......#...#.#...........#...#....", 47),  # game 32, turn 2
    (".#.......#..........#....#.....#...................#....#.#....#.....#..#......##", 30),  # game 16, turn 1
    (".#..#....#..........#....#.....#...................#....#.#....#.....#..#......##", 21),  # game 16, turn 2
    ("..#..............##........#...#............##.......#....#.#..........##..#..#..", 29),  # game 50, turn 2
    ("..........#..#....#.##.....#.#.......#.#......#..#......##.......###.#.....#...#.", 40),  # game 44, turn 7
)


def _board(cells, cat):
    b = trapcat.Board(9)
    b.load(bytes(1 if ch == "#" else 0 for ch in cells), cat)
    return b


def _state(d):
    return bytes(d.cells), bytes(d.fc), bytes(d.bc)


def test_kernel_equals_deep_run_expansion_for_expansion():
    """Same value, expansions and deciding root move, cells and counts
    restored, in slices of random size; escapes in 2..7 moves from cat and
    player roots, on 9x9 and 11x11."""
    rnd = random.Random(18)
    searches = expansions = 0
    positions = ([(9, p) for p in trapcat_audit.game_positions(6)[::2]]
                 + [(11, p) for p in trapcat_audit.game_positions(2, size=11)[::3]])
    for size, (_, cells, cat) in positions:
        b = trapcat.Board(size)
        plain = trapcat_ai.Deep(b, 12)
        kern = trapcat_ai.Deep(b, 12)
        b.load(cells, cat)
        for depth in range(2, 8):
            for root in (trapcat_ai._CATN, trapcat_ai._BLKN):
                plain.load(b)
                kern.load(b)
                before = _state(kern)
                v1 = plain.begin(trapcat_ai.ESCAPE, root, cat, depth)
                v2 = kern.begin(trapcat_ai.ESCAPE, root, cat, depth)
                limit = rnd.choice((1, 7, 200, 1 << 20))
                while v1 < 0:
                    v1 = plain.run(limit)
                while v2 < 0:
                    v2 = kern.run_kernel(limit)
                assert (v2, kern.nodes, kern.first) == (v1, plain.nodes, plain.first), \
                    (cells, cat, depth, root)
                assert _state(kern) == before
                searches += 1
                expansions += plain.nodes
    assert searches > 300 and expansions > 20000


def test_kernel_search_dropped_midway_leaves_the_copy_as_loaded():
    b = _board(*LOOK_MATTERS[0])
    block = trapcat_ai.StrongBlocker(b, look=True).choose(b)
    d = trapcat_ai.Deep(b)
    d.load(b)
    d.block(block)              # no escape within 7: thousands of expansions
    before = _state(d)
    assert d.begin(trapcat_ai.ESCAPE, trapcat_ai._CATN, b.cat, 7) < 0
    assert d.run_kernel(25) < 0 and d.nodes == 25
    d.abort()
    assert _state(d) == before and d.run_kernel(10) == -1


@pytest.mark.slow
def test_the_look_holds_seven_moves_where_the_five_move_hint_does_not():
    ex = Exact(9)
    for cells, cat in LOOK_MATTERS:
        b = _board(cells, cat)
        hint = trapcat_ai.StrongBlocker(b, look=True)
        block = hint.choose(b)
        assert hint.looked and b.can_block(block)
        plain = trapcat_ai.StrongBlocker(b, look=False).choose(b)
        blocked = mask(b.cells)
        assert not ex.escape_cat(blocked | 1 << block, cat, 7), (cells, cat, block)
        assert ex.escape_cat(blocked | 1 << plain, cat, 7), (cells, cat, plain)


def test_without_budget_the_look_gives_way_to_the_five_move_hint(monkeypatch):
    """LOOK_NODES = 0: the 5-move hint's block, unless the look's root search
    decides at once; a small budget is never overspent and its blocks pass
    the audit."""
    positions = [p for p in trapcat_audit.game_positions(4) if p[0] == "blocker"]
    b = trapcat.Board(9)
    looks = trapcat_ai.StrongBlocker(b, look=True)
    plain = trapcat_ai.StrongBlocker(b, look=False)
    monkeypatch.setattr(trapcat_ai, "LOOK_NODES", 0)
    for _, cells, cat in positions:
        b.load(cells, cat)
        block = looks.choose(b)
        if looks.looked:
            assert looks.deep.nodes == 0
        else:
            assert block == plain.choose(b)
    monkeypatch.setattr(trapcat_ai, "LOOK_NODES", 40)
    for _, cells, cat in positions:
        b.load(cells, cat)
        looks.choose(b)
        assert 0 <= looks.lleft <= 40 and bytes(b.cells) == cells
    tally = trapcat_audit.audit(positions)
    assert tally.misses() == 0 and tally.hint_avoid[0] > 5


def test_the_look_sliced_equals_whole():
    for cells, cat in LOOK_MATTERS[:3]:
        b = _board(cells, cat)
        whole = trapcat_ai.StrongBlocker(b, look=True).choose(b)
        task = trapcat_ai.StrongBlocker(b, look=True)
        task.slice_units = 10
        task.begin(b)
        steps = 1
        while not task.step():
            steps += 1
            assert bytes(b.cells) == bytes(1 if ch == "#" else 0 for ch in cells)
        assert task.answer == whole and task.looked and steps > 5


def test_kernel_sweeps_equal_the_plain_ones(monkeypatch):
    """trapcat_viper's two-distance and BFS sweeps (the hint scores every
    candidate with them) leave the same values as the plain loops, with and
    without the early end at the cat's neighbours."""
    rng = random.Random(7)
    kernel = trapcat_ai._tv
    assert kernel is not None
    for trial in range(60):
        b = trapcat.Board(rng.choice((7, 9, 11)))
        b.reset(trapcat.Rng(trial), rng.randrange(4, 30))
        an = trapcat_ai.Analyzer(b)
        trapcat_ai._templates(b)
        for i in range(b.n):
            an.nbf[i] = rng.random() < 0.1
        got = []
        for tv in (kernel, None):
            monkeypatch.setattr(trapcat_ai, "_tv", tv)
            for stop in (False, True):
                trapcat_ai._sweep_td(b, b.cells, an.td, an.cnt, an.queue, an.nbf, stop)
                an.distances(stop)
                got.append((stop, bytes(an.td), bytes(an.cnt), bytes(an.dist)))
        assert got[:2] == got[2:]


def test_a_deep_with_too_few_plies_is_refused():
    b = trapcat.Board(9)
    an = trapcat_ai.Analyzer(b)
    an.deep = trapcat_ai.Deep(b, 2 * trapcat_ai._LOOK_DEPTH - 5)
    with pytest.raises(ValueError, match="plies"):
        trapcat_ai.StrongBlocker(b, an, look=True)
    trapcat_ai.StrongBlocker(b, an, look=False)


GUEST = r"""
import trapcat, trapcat_ai
print('kernel', trapcat_ai.LOOK_KERNEL)
b = trapcat.Board(9)
d = trapcat_ai.Deep(b)
out = []
for cells, cat, depth in P:
    b.load(bytes(1 if ch == '#' else 0 for ch in cells), cat)
    d.load(b)
    v = d.begin(trapcat_ai.ESCAPE, 0, cat, depth)     # 0: the cat to move
    while v < 0:
        v = d.run_kernel(300)
    out.append((v, d.nodes))
print('res', out)
hint = trapcat_ai.StrongBlocker(b)
picks = []
for cells, cat in H:
    b.load(bytes(1 if ch == '#' else 0 for ch in cells), cat)
    picks.append((hint.choose(b), hint.looked))
print('hint', picks)
"""


@pytest.mark.device
def test_kernel_as_machine_code_on_the_virtual_pico():
    """The .mpy ``flash`` makes (mpy-cross -march=armv6m) runs the kernel on
    the official RPI_PICO firmware: same values and expansions as Deep.run
    on CPython, and the hint there looks 7 moves deep and blocks as on
    CPython where the look matters."""
    probes = [(cells, cat, depth) for cells, cat in LOOK_MATTERS[:3] for depth in (5, 6)]
    files = ["firmware/trapcat.py", "firmware/trapcat_ai.py", "firmware/trapcat_viper.py",
             "firmware/rng.py", "firmware/asciitext.py", "firmware/work.py", "firmware/clock.py"]
    out = vpico.run_snippet("P = %r\nH = %r\n" % (probes, LOOK_MATTERS) + GUEST, files=files,
                            mpy=True, emulated_ms=120000)
    lines = dict(line.split(" ", 1) for line in out.strip().splitlines())
    assert lines["kernel"] == "True", out
    expected = []
    for cells, cat, depth in probes:
        b = _board(cells, cat)
        d = trapcat_ai.Deep(b)
        d.load(b)
        expected.append((d.solve(trapcat_ai.ESCAPE, trapcat_ai._CATN, cat, depth), d.nodes))
    assert eval(lines["res"]) == expected
    picks = []
    for cells, cat in LOOK_MATTERS:
        b = _board(cells, cat)
        hint = trapcat_ai.StrongBlocker(b)
        picks.append((hint.choose(b), hint.looked))
    assert eval(lines["hint"]) == picks and all(looked for _, looked in picks)
