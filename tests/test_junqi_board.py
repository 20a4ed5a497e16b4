"""Junqi board and routing: hand-built positions, an independent reference
search (written here from the rules, not from junqi_board.BOARD), and the
MicroPython VM agreeing with CPython."""

import random
from collections import deque

from hypothesis import given, settings
from hypothesis import strategies as st

import junqi_board as jb
from junqi_board import ENGINEER, IMMOBILE, NORMAL

# --- independent reference ------------------------------------------------
ROWS = "ABCDEFGHIJKL"
HQS = {"A1", "A3", "L1", "L3"}
CAMPS = {"C1", "C3", "D2", "E1", "E3", "H1", "H3", "I2", "J1", "J3"}
MOUNTAINS = {frozenset(("F1", "G1")), frozenset(("F3", "G3"))}


def rc(name):
    return ROWS.index(name[0]), int(name[1])


def nm(r, c):
    return ROWS[r] + str(c)


# Straight railway lines, as the issue states them.
LINES = ([[nm(r, c) for c in range(5)] for r in (1, 5, 6, 10)]
         + [[nm(r, 0) for r in range(1, 11)], [nm(r, 4) for r in range(1, 11)],
            ["F2", "G2"]])
RAIL_EDGES = set()
for line in LINES:
    for a, b in zip(line, line[1:]):
        RAIL_EDGES.add(frozenset((a, b)))


def ref_roads(name):
    r, c = rc(name)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0):
                continue
            rr, cc = r + dr, c + dc
            if not (0 <= rr < 12 and 0 <= cc < 5):
                continue
            other = nm(rr, cc)
            if dr and dc and name not in CAMPS and other not in CAMPS:
                continue
            if frozenset((name, other)) in MOUNTAINS:
                continue
            out.append(other)
    return out


def ref_moves(src, occ, side, mode):
    """{dest: fewest cells entered} by plain rule-following search."""
    if mode == IMMOBILE or src in HQS:
        return {}

    def stoppable(cell):
        o = occ.get(cell, 0)
        return o == 0 or (o != side and o != 3 and cell not in CAMPS)

    res = {}
    if mode == ENGINEER:
        seen = {src: 0}
        dq = deque([src])
        while dq:
            p = dq.popleft()
            for e in RAIL_EDGES:
                if p in e:
                    (q,) = e - {p}
                    if q in seen or not stoppable(q):
                        continue
                    seen[q] = seen[p] + 1
                    res[q] = seen[q]
                    if occ.get(q, 0) == 0:
                        dq.append(q)
    else:
        for line in LINES:
            if src not in line:
                continue
            i = line.index(src)
            for step in (-1, 1):
                j, d = i + step, 1
                while 0 <= j < len(line) and stoppable(line[j]):
                    res[line[j]] = min(res.get(line[j], 99), d)
                    if occ.get(line[j], 0):
                        break
                    j, d = j + step, d + 1
    for q in ref_roads(src):
        if stoppable(q):
            res[q] = 1
    return res


def ref_path_ok(path, occ, mode):
    """Consecutive cells linked, intermediate cells empty, rail rules kept."""
    if len(path) == 2 and path[1] in ref_roads(path[0]):
        return True
    if any(occ.get(c, 0) for c in path[1:-1]):
        return False
    edges = [frozenset(p) for p in zip(path, path[1:])]
    if not all(e in RAIL_EDGES for e in edges):
        return False
    if mode == ENGINEER:
        return True
    return any(all(c in line for c in path) for line in LINES)


# --- helpers over the firmware ---------------------------------------------
def occ_of(pieces):
    """{"B0": 1, ...} -> Router with that occupancy."""
    r = jb.Router()
    for name, owner in pieces.items():
        r.occ[jb.parse_cell(name)] = owner
    return r


def moves(src, pieces, side=1, mode=NORMAL):
    r = occ_of(pieces)
    r.destinations(jb.parse_cell(src), side, mode)
    return {jb.cell_name(c): r.dist[c] for c in r.dest_list()}


def route(src, dst, pieces=None, side=1, mode=NORMAL):
    r = occ_of(pieces or {})
    n = r.route(jb.parse_cell(src), jb.parse_cell(dst), side, mode)
    return n, [jb.cell_name(c) for c in r.path_cells()]


# --- the table ---------------------------------------------------------------
def test_table_matches_rules():
    for c in range(60):
        name = jb.cell_name(c)
        assert jb.parse_cell(name) == c
        assert sorted(jb.cell_name(x) for x in jb.road_neighbours(c)) == sorted(ref_roads(name))
        kind = jb.HQ if name in HQS else jb.CAMP if name in CAMPS else jb._POST
        assert jb.KIND[c] == kind
        for d in range(4):
            q = jb.RAIL[c * 4 + d]
            if q != jb.NONE:
                assert frozenset((name, jb.cell_name(q))) in RAIL_EDGES
    n_rail = sum(1 for c in range(60) for d in range(4) if jb.RAIL[c * 4 + d] != jb.NONE)
    assert n_rail == 2 * len(RAIL_EDGES)
    assert sum(1 for c in range(60) if jb.KIND[c] != jb.CAMP) == 50


def test_bad_cell_names():
    for bad in ("M0", "A5", "", "B", "B00", "Z9", None):
        try:
            jb.parse_cell(bad)
        except ValueError:
            continue
        raise AssertionError(bad)
    assert jb.parse_cell("k4") == 54 and jb.parse_cell("L4") == 59


# --- hand-built positions ----------------------------------------------------
def test_engineer_turns_two_corners():
    # B0 -> K4: down column 0 ... no: along row B, down column 4 is one corner;
    # B1 -> K3 needs two corners (B1 west to B0? blocked) -- use an explicit case:
    # engineer at B1, blocker at B2: route B1-B0-(col 0)-K0-K1-K2-K3 turns twice.
    pieces = {"B2": 1}
    n, path = route("B1", "K3", pieces, mode=ENGINEER)
    assert n == 13
    assert path == ["B1", "B0", "C0", "D0", "E0", "F0", "G0", "H0", "I0", "J0", "K0",
                    "K1", "K2", "K3"]
    assert route("B1", "K3", pieces, mode=NORMAL) == (None, [])
    # and a non-engineer on B1 reaches only row B west of the blocker and its roads
    assert set(moves("B1", pieces)) == {"B0", "A1", "C1"}


def test_engineer_prefers_fewest_cells_and_uses_centre_link():
    n, path = route("F2", "G3", mode=ENGINEER)
    assert (n, path) == (2, ["F2", "G2", "G3"])
    # through the centre link rather than around column 0/4
    n, path = route("F1", "H4", {"F4": 1}, mode=ENGINEER)
    assert path == ["F1", "F2", "G2", "G3", "G4", "H4"]
    # equal-length alternatives: the first found in W, E, N, S order is kept
    assert route("F1", "G1", mode=ENGINEER) == (3, ["F1", "F0", "G0", "G1"])


def test_blocked_railway():
    pieces = {"E0": 1, "H4": 2}
    m = moves("B0", pieces)
    assert "D0" in m and "E0" not in m and "F0" not in m  # own piece blocks
    m = moves("K4", pieces)
    assert m["H4"] == 3 and "G4" not in m  # may stop on the enemy, not pass it
    # the engineer goes round: K4 .. K0 .. G0 .. G4
    assert route("K4", "G4", pieces, mode=ENGINEER)[0] == 12
    # an engineer fully boxed in on the railway
    pieces = {"B1": 1, "C0": 2, "A0": 3, "C1": 1}
    m = moves("B0", pieces, mode=ENGINEER)
    assert m == {"C0": 1}  # the enemy only; the hidden piece and own piece block


def test_camp_diagonals_and_camp_protection():
    m = moves("D2", {}, mode=NORMAL)
    assert set(m) == {"C1", "C2", "C3", "D1", "D3", "E1", "E2", "E3"}
    m = moves("B2", {"C1": 2, "C3": 2, "C2": 2})
    assert "C1" not in m and "C3" not in m and m["C2"] == 1  # camps protect, posts do not
    assert moves("C0", {}) == {"B0": 1, "C1": 1, "D0": 1,
                               "E0": 2, "F0": 3, "G0": 4, "H0": 5, "I0": 6, "J0": 7, "K0": 8}
    # a post with no camp next to it has no diagonals
    assert set(moves("C2", {})) == {"B2", "C1", "C3", "D2"}


def test_mountains():
    assert set(moves("F1", {}, mode=NORMAL)) == {"F0", "F2", "F3", "F4", "E1"}
    assert "G1" not in moves("F1", {}, mode=NORMAL)
    assert "G3" not in moves("F3", {}, mode=NORMAL)
    assert route("F2", "G2")[0] == 1
    # a normal piece cannot take the centre link and turn
    assert route("F2", "G3")[0] is None
    # non-rail road steps across the front only at columns 0, 2, 4
    assert moves("G1", {"G0": 1, "G2": 1}, mode=ENGINEER) == {"H1": 1}


def test_headquarters_mines_and_flag_never_move():
    for hq in ("A1", "A3", "L1", "L3"):
        assert moves(hq, {}, mode=NORMAL) == {}
        assert moves(hq, {}, mode=ENGINEER) == {}
    assert moves("B0", {}, mode=IMMOBILE) == {}
    # but pieces may enter a headquarters
    assert moves("A2", {})["A1"] == 1


def test_normal_piece_straight_line_only():
    m = moves("B0", {}, mode=NORMAL)
    assert m["B4"] == 4 and m["K0"] == 9
    assert "K4" not in m and "C4" not in m
    m = moves("B0", {}, mode=ENGINEER)
    assert m["K4"] == 13 and m["C4"] == 5


def test_route_results_are_normal_values():
    assert route("A0", "L4") == (None, [])
    assert route("B0", "B0") == (None, [])
    assert route("B0", "B1", {"B1": 1}) == (None, [])


# --- property test against the reference --------------------------------------
occupancies = st.lists(st.sampled_from((0, 0, 0, 1, 2, 3)), min_size=60, max_size=60)


@settings(max_examples=300, deadline=None)
@given(occ=occupancies, src=st.integers(0, 59), side=st.sampled_from((1, 2)),
       mode=st.sampled_from((NORMAL, NORMAL, ENGINEER, IMMOBILE)))
def test_matches_reference(occ, src, side, mode):
    occ[src] = side
    pieces = {jb.cell_name(c): occ[c] for c in range(60) if occ[c]}
    r = occ_of(pieces)
    n = r.destinations(src, side, mode)
    got = {jb.cell_name(r.dests[i]): r.dist[r.dests[i]] for i in range(n)}
    assert len(got) == n
    assert got == ref_moves(jb.cell_name(src), pieces, side, mode)
    for name, d in got.items():
        steps = r.trace(jb.parse_cell(name))
        path = [jb.cell_name(c) for c in r.path_cells()]
        assert steps == d == len(path) - 1
        assert path[0] == jb.cell_name(src) and path[-1] == name
        assert ref_path_ok(path, pieces, mode)
    for c in range(60):
        if jb.cell_name(c) not in got:
            assert r.trace(c) is None


# --- the MicroPython VM -----------------------------------------------------------
def _batch(seed, count):
    rnd = random.Random(seed)
    cases = []
    for _ in range(count):
        occ = [rnd.choice((0, 0, 0, 1, 2, 3)) for _ in range(60)]
        src = rnd.randrange(60)
        side = rnd.choice((1, 2))
        occ[src] = side
        cases.append((bytes(occ), src, side, rnd.choice((NORMAL, ENGINEER, ENGINEER, IMMOBILE))))
    return cases


def _host_answer(cases):
    out = []
    for occ, src, side, mode in cases:
        r = jb.Router()
        r.occ[:] = occ
        n = r.destinations(src, side, mode)
        out.append([(r.dests[i], r.dist[r.dests[i]], r.parent[r.dests[i]]) for i in range(n)])
    return out


def test_vm_matches_cpython(vm):
    cases = _batch(7, 120)
    res = vm('''
import junqi_board as jb
cases = %r
r = jb.Router()
out = []
for occ, src, side, mode in cases:
    for i in range(60):
        r.occ[i] = occ[i]
    n = r.destinations(src, side, mode)
    out.append([(r.dests[i], r.dist[r.dests[i]], r.parent[r.dests[i]]) for i in range(n)])
emit('out', out)
''' % (cases,))
    assert res['out'] == _host_answer(cases)


BUSY = {  # 28 pieces, the railway mostly open so the engineer's flood is large
    "A0": 1, "A1": 1, "A2": 1, "A3": 1, "A4": 1, "C1": 1, "C2": 1, "D1": 1, "D3": 1,
    "E2": 1, "B3": 1, "H2": 2, "I1": 2, "I3": 2, "J2": 2, "L0": 2, "L1": 2, "L2": 2,
    "L3": 2, "L4": 2, "J1": 2, "K2": 2, "H3": 2, "D2": 1, "G3": 2, "E1": 1, "C3": 1,
}


def test_vm_engineer_all_destinations_allocates_nothing(vm):
    occ = bytearray(60)
    for name, owner in BUSY.items():
        occ[jb.parse_cell(name)] = owner
    src = jb.parse_cell("F0")
    res = vm('''
import junqi_board as jb
r = jb.Router()
occ = %r
for i in range(60):
    r.occ[i] = occ[i]
r.destinations(%d, 1, jb.ENGINEER)
n, fuel, alloc = measure(r.destinations, %d, 1, jb.ENGINEER)
steps, f2, a2 = measure(r.trace, 59)
emit('m', (n, fuel, alloc, steps, a2))
''' % (bytes(occ), src, src))
    n, fuel, alloc, steps, alloc2 = res['m']
    r = occ_of(BUSY)
    assert n == r.destinations(src, 1, ENGINEER)
    assert alloc == 0 and alloc2 == 0
    assert steps == r.trace(59)
    assert fuel > 0
