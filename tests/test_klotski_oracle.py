"""The Klotski level list against a search that shares nothing with
firmware/klotski.py.  The level list's step counts were produced by
klotski.Solver, so checking them with that same solver proved nothing.

Here a layout is one int: 3 bits per cell (0 empty, 1 soldier, 2/3 top/bottom
of a vertical piece, 4/5 left/right of a horizontal one, 6 the block) plus the
index of its pair of empty cells.  Every move is a precomputed template "these
cells hold this piece and these are empty -> the piece is there", built from
the rules of the text format alone: one step = one piece moved any distance
through the empty cells (two empty cells: at most two cells, around a corner
too), goal = the 2x2 block's top-left on cell 13.  Step counts come from a plain
breadth-first search from each level's layout; layout counts from a count of
all ways to fill the board in reading order."""

import time
from functools import lru_cache

import klotski
import klotski_levels

COLS, ROWS, CELLS = 4, 5, 20
# piece letter -> [(row offset, column offset, cell code)]
SHAPES = {"S": ((0, 0, 1),), "V": ((0, 0, 2), (1, 0, 3)), "H": ((0, 0, 4), (0, 1, 5)),
          "B": ((0, 0, 6), (0, 1, 6), (1, 0, 6), (1, 1, 6))}
LETTER = ".SVVHHB"
PAIRS = [(a, b) for a in range(CELLS) for b in range(a + 1, CELLS)]
PAIR_INDEX = {p: i for i, p in enumerate(PAIRS)}


def level_list():
    out = []
    for line in klotski_levels.LEVELS.split("\n"):
        name, layout, steps = line.split("|")
        out.append((name, layout.replace("/", ""), int(steps)))
    return out


def piece_set(flat):
    return flat.count("V") // 2, flat.count("H") // 2, flat.count("S")


def placement(letter, anchor):
    """{cell: code} of a piece with its top-left on ``anchor``, or None off the board."""
    r, c = divmod(anchor, COLS)
    out = {}
    for dr, dc, code in SHAPES[letter]:
        if r + dr >= ROWS or c + dc >= COLS:
            return None
        out[(r + dr) * COLS + c + dc] = code
    return out


def encode(flat):
    """Layout text (no slashes) -> int; pieces are paired in reading order."""
    codes = [None] * CELLS
    for cell in range(CELLS):
        ch = flat[cell]
        if codes[cell] is not None:
            continue
        if ch == ".":
            codes[cell] = 0
            continue
        for x, code in placement(ch, cell).items():
            assert codes[x] is None and flat[x] == ch, flat
            codes[x] = code
    blanks = tuple(i for i in range(CELLS) if codes[i] == 0)
    value = 0
    for i, code in enumerate(codes):
        value |= code << (3 * i)
    return value | PAIR_INDEX[blanks] << 60


def text(value):
    return "".join(LETTER[(value >> (3 * i)) & 7] for i in range(CELLS))


def _templates():
    """MOVES[pair index of the empty cells] = [(mask, before, delta)]: a layout v
    with those empty cells has the move when v & mask == before; v ^ delta is
    the layout after it (empty-pair index included)."""
    single = set()
    for letter in SHAPES:
        for a in range(CELLS):
            here = placement(letter, a)
            if here is None:
                continue
            paths = [[a + d] for d in (-COLS, COLS, -1, 1)]
            paths += [p + [p[0] + d] for p in list(paths) for d in (-COLS, COLS, -1, 1)]
            for path in paths:
                places = []
                prev = a
                for b in path:
                    if b < 0 or b >= CELLS or (abs(b - prev) == 1 and b // COLS != prev // COLS):
                        break
                    places.append(placement(letter, b))
                    prev = b
                if len(places) != len(path) or None in places or path[-1] == a:
                    continue
                need = set().union(*places) - set(here)       # cells that must be empty
                if len(need) <= 2:
                    single.add((letter, a, path[-1], frozenset(need)))
    moves = [[] for _ in PAIRS]
    for letter, a, end, need in single:
        here = placement(letter, a)
        there = placement(letter, end)
        for p, pair in enumerate(PAIRS):
            if not need <= set(pair) or set(here) & set(pair):
                continue
            touched = set(here) | need
            mask = before = after = 0
            for x in touched:
                mask |= 7 << (3 * x)
                before |= here.get(x, 0) << (3 * x)
                after |= there.get(x, 0) << (3 * x)
            blanks = tuple(sorted((set(here) | set(pair)) - set(there)))
            mask |= 0xFF << 60
            before |= p << 60
            after |= PAIR_INDEX[blanks] << 60
            moves[p].append((mask, before, before ^ after))
    return moves


MOVES = _templates()
GOAL_MASK = (7 << 39) | (7 << 54)             # cells 13 and 18 hold the only block
GOAL = (6 << 39) | (6 << 54)


def neighbours(value):
    out = set()
    for mask, before, delta in MOVES[value >> 60]:
        if value & mask == before:
            out.add(value ^ delta)
    return out


def steps_to_goal(flat):
    """(fewest steps to the goal, layouts visited) by breadth-first search."""
    start = encode(flat)
    seen = {start}
    layer = [start]
    steps = 0
    while layer:
        for v in layer:
            if v & GOAL_MASK == GOAL:
                return steps, len(seen)
        nxt = []
        for v in layer:
            for mask, before, delta in MOVES[v >> 60]:
                if v & mask == before:
                    w = v ^ delta
                    if w not in seen:
                        seen.add(w)
                        nxt.append(w)
        layer = nxt
        steps += 1
    return None, len(seen)


def count_layouts(nv, nh, ns):
    """Ways to fill the board with the block, the pieces and two empty cells:
    cells in reading order, each free cell starts a piece or is empty."""
    @lru_cache(maxsize=None)
    def ways(cell, covered, b, v, h, s, e):
        while cell < CELLS and covered & 1:
            cell += 1
            covered >>= 1
        if cell == CELLS:
            return 1 if b == v == h == s == e == 0 else 0
        total = 0
        for letter, left in (("B", b), ("V", v), ("H", h), ("S", s), (".", e)):
            if not left:
                continue
            cells = [cell] if letter == "." else placement(letter, cell)
            if cells is None or any(covered >> (x - cell) & 1 for x in cells):
                continue
            cov = covered
            for x in cells:
                cov |= 1 << (x - cell)
            total += ways(cell + 1, cov >> 1, b - (letter == "B"), v - (letter == "V"),
                          h - (letter == "H"), s - (letter == "S"), e - (letter == "."))
        return total
    return ways(0, 0, 1, nv, nh, ns, 2)


def test_moves_and_counts_on_hand_checked_cases():
    # 14 soldiers: the block's 12 places x C(16, 2) places for the two empty cells
    assert count_layouts(0, 0, 14) == 12 * 120
    top = "VBBV" "VBBV" "VHHV"
    start = top + "VSSV" "S..S"
    # soldiers 16 and 19 slide one or two cells; 13 and 14 go down, then maybe sideways
    got = {text(v) for v in neighbours(encode(start))}
    assert got == {top + "VSSV" ".S.S", top + "VSSV" "..SS", top + "VSSV" "S.S.",
                   top + "VSSV" "SS..", top + "V.SV" "SS.S", top + "V.SV" "S.SS",
                   top + "VS.V" "S.SS", top + "VS.V" "SS.S"}
    for v in neighbours(encode(start)):
        assert encode(start) in neighbours(v)
        assert encode(text(v)) == v
    # a vertical piece beside two stacked empty cells moves across
    assert encode("S.VS" "S.VS" "BBSS" "BBHH" "SSHH") in neighbours(encode("SV.S" "SV.S" "BBSS" "BBHH" "SSHH"))
    # stacked verticals pair from the top: the lower one (rows 2-3) drops; the bottom
    # H slides one or two cells left
    assert {text(v) for v in neighbours(encode("VBBS" "VBBS" "VSSS" "VHHS" "..HH"))} == {
        "VBBS" "VBBS" ".SSS" "VHHS" "V.HH", "VBBS" "VBBS" "VSSS" "VHHS" ".HH.",
        "VBBS" "VBBS" "VSSS" "VHHS" "HH.."}


def wrong_levels():
    """[(name, layout, listed steps, BFS steps)] where the list is wrong; layouts visited."""
    wrong = []
    visited = 0
    for name, flat, steps in level_list():
        got, seen = steps_to_goal(flat)
        visited += seen
        if got != steps:
            wrong.append((name, flat, steps, got))
    return wrong, visited


def test_every_level_step_count_by_independent_bfs():
    start = time.perf_counter()
    wrong, visited = wrong_levels()
    assert not wrong
    print("independent BFS: %d levels, %d layouts visited, %.1f s"
          % (len(level_list()), visited, time.perf_counter() - start))


def test_layout_counts_per_piece_set_match_the_solver():
    sets = sorted({piece_set(flat) for _, flat, _ in level_list()})
    assert (4, 1, 4) in sets
    for ps in sets:
        assert klotski.Solver(*ps).size == count_layouts(*ps), ps
    assert count_layouts(4, 1, 4) == 65880


def test_a_wrong_step_count_in_the_list_is_caught(monkeypatch):
    monkeypatch.setattr(klotski_levels, "LEVELS", "ok|SBBS/VBBV/VSSV/VHHV/V..V|32\n"
                        "off by one|SBBS/VBBV/VSSV/VHHV/V..V|31")
    assert wrong_levels()[0] == [("off by one", "SBBSVBBVVSSVVHHVV..V", 31, 32)]
