"""Klotski: parsing, move legality, optimal step counts (CPython and the
MicroPython VM).  One classic-set table serves all three seed openings."""

import sys

import pytest

import klotski
import klotski_levels
from host_tools.core.fwpath import FIRMWARE_DIR as FIRMWARE

SEEDS = [("VBBV/VBBV/VHHV/VSSV/S..S", 81),
         ("VBBV/VBBV/SHHS/VSSV/V..V", 70),
         ("SBBS/VBBV/VHHV/VSSV/V..V", 72)]


# ------------------------------------------------------------ independent checker
def _pieces(text):
    g = text.replace("/", "")
    seen = [False] * 20
    out = []
    for i in range(20):
        if seen[i] or g[i] == ".":
            continue
        t = g[i]
        cells = {"B": [i, i + 1, i + 4, i + 5], "V": [i, i + 4], "H": [i, i + 1], "S": [i]}[t]
        for x in cells:
            seen[x] = True
        out.append((t, cells))
    return g, out


def legal_targets(text, anchor):
    """Anchor cells the piece at `anchor` can reach in one step (BFS through empties)."""
    g, pieces = _pieces(text)
    t, cells = next(p for p in pieces if p[1][0] == anchor)
    base = list(g)
    for x in cells:
        base[x] = "."
    w = 2 if t in "BH" else 1
    h = 2 if t in "BV" else 1
    seen = {anchor}
    stack = [anchor]
    while stack:
        a = stack.pop()
        r, c = divmod(a, 4)
        for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0)):
            nr, nc = r + dr, c + dc
            if nr < 0 or nc < 0 or nr + h > 5 or nc + w > 4:
                continue
            na = nr * 4 + nc
            if na in seen:
                continue
            if all(base[(nr + y) * 4 + nc + x] == "." for y in range(h) for x in range(w)):
                seen.add(na)
                stack.append(na)
    seen.discard(anchor)
    return t, cells, seen


def apply_move(text, frm, to):
    t, cells, targets = legal_targets(text, frm)
    assert to in targets, "illegal move %s -> %s in %s" % (frm, to, text)
    g = list(text.replace("/", ""))
    for x in cells:
        g[x] = "."
    for x in cells:
        g[x - frm + to] = t
    s = "".join(g)
    return "/".join(s[i:i + 4] for i in range(0, 20, 4))


def is_goal(text):
    g = text.replace("/", "")
    return g[13] == g[14] == g[17] == g[18] == "B"


def check_solution(text, moves, steps):
    assert len(moves) == steps
    for frm, to in moves:
        assert not is_goal(text)
        text = apply_move(text, frm, to)
    assert is_goal(text)


@pytest.fixture(scope="module")
def classic():
    s = klotski.Solver(4, 1, 4)
    s.build()
    return s


@pytest.mark.parametrize("layout,steps", SEEDS)
def test_seed_openings_cpython(classic, layout, steps):
    rank = classic.rank_of(klotski.parse(layout))
    moves = classic.solution(rank)
    check_solution(layout, moves, steps)
    assert classic.distance(rank) == steps


def test_classic_table_covers_goal_components(classic):
    assert classic.size == 65880
    # layouts from which the block can escape
    assert sum(1 for r in range(classic.size) if classic.value(r) != 3) == 53954
    assert classic.reached == 53954
    # mirror symmetry: about one layout of each mirror pair is expanded
    assert classic.expanded == 27335


def test_rank_roundtrip_and_hint(classic):
    text = "VBBV/VBBV/VHHV/VSSV/S..S"
    r = classic.rank_of(klotski.parse(text))
    assert klotski.to_text(classic.cells_of(r)) == text
    frm, to, nxt = classic.best_move(r)
    after = apply_move(text, frm, to)
    assert classic.rank_of(klotski.parse(after)) == nxt
    assert classic.distance(nxt) == 80


def test_neighbors_match_checker(classic):
    # every generated neighbour is one legal step and every legal step is generated
    import random
    rng = random.Random(3)
    for _ in range(150):
        r = rng.randrange(classic.size)
        text = klotski.to_text(classic.cells_of(r))
        ranker = classic.ranker
        n = ranker.neighbors(r)
        got = set()
        for q in range(n):
            frm, to = ranker.out_from[q], ranker.out_to[q]
            after = apply_move(text, frm, to)
            assert classic.rank_of(klotski.parse(after)) == ranker.out_rank[q]
            got.add(after)
        g, pieces = _pieces(text)
        want = set()
        for _, cells in pieces:
            for to in legal_targets(text, cells[0])[2]:
                want.add(apply_move(text, cells[0], to))
        assert got == want


@pytest.mark.parametrize("layout", [
    "SBBS/SBBS/HHHH/HHHH/S..S",      # 0V 4H 6S
    "SBBS/VBBV/VSSV/VHHV/V..V",      # 4V 1H 4S
    "VBBS/VBBS/HHHH/HHSS/S..S",      # 1V 4H 4S
    "SBBS/SBBS/SSSS/SSSS/S..S",      # soldiers only
])
def test_solvable_other_piece_sets(layout):
    steps, moves = klotski.solve(layout)
    assert steps is not None
    check_solution(layout, moves, steps)


def test_unsolvable():
    steps, moves = klotski.solve("VBBS/VBBS/VVVV/VVVV/.HH.")
    assert steps is None and moves is None


def test_goal_layout_is_zero():
    assert klotski.solve("VSSV/VSSV/HH../VBBV/VBBV") == (0, [])


@pytest.mark.parametrize("bad,msg", [
    ("VBBV/VBBV/VHHV/VSSV", "5 rows"),
    ("VBBV/VBBV/VHHV/VSSV/S..SS", "4 cells"),
    ("VBBV/VBBV/VHHV/VSSV/SS.S", "two empty"),
    ("VBBV/VBBV/VHHV/VSSV/SSSS", "two empty"),
    ("VBBV/VBBV/VHHV/VSSV/S.XS", "unknown cell"),
    ("VSSV/VSSV/VHHV/VSSV/S..S", "2x2 block"),
    ("VBBV/VBBV/VHHV/VBBV/V..V", "2x2 block"),
    ("VBBV/VBBV/HVHV/VSSV/S..S", "no H to its right"),
    ("VBBV/VBBV/VHHV/VSSV/V..S", "no V below"),
    ("BVBV/BBVV/VHHV/VSSV/S..S", "not a 2x2"),
])
def test_parse_errors(bad, msg):
    with pytest.raises(klotski.LayoutError) as exc:
        cells = klotski.parse(bad)
        klotski.anchors(cells)
    assert msg in str(exc.value)


def test_levels_list_well_formed():
    assert klotski_levels.count() >= 23
    for i in range(klotski_levels.count()):
        name, layout, steps = klotski_levels.level(i)
        klotski.anchors(klotski.parse(layout))
        assert layout == klotski.to_text(klotski.parse(layout))   # as written: the list's thumbnail reads it
        assert steps > 0
    steps = [klotski_levels.level(i)[2] for i in range(klotski_levels.count())]
    assert steps == sorted(steps)                       # the list: fewest optimal steps first
    names = [klotski_levels.level(i)[0] for i in range(klotski_levels.count())]
    assert {"横刀立马", "指挥若定", "兵分三路"} <= set(names)   # the seed article's openings
    assert not any(n.startswith("Gen ") for n in names) and len(set(names)) == len(names)


@pytest.mark.slow
def test_levels_steps_verified(classic):
    """Every listed step count is the solver's (classic-set ones share the table)."""
    for i in range(klotski_levels.count()):
        name, layout, steps = klotski_levels.level(i)
        cells = klotski.parse(layout)
        if klotski.piece_set(cells) == (4, 1, 4):
            assert classic.distance(classic.rank_of(cells)) == steps, name
        else:
            assert klotski.solve(layout)[0] == steps, name


def test_search_arrays_exist_only_while_it_runs():
    s = klotski.Solver(5, 0, 4)
    search = s.search
    assert search.frontier is None and search.active is None and search.mirror is None
    calls = 0
    while not s.step(40):
        calls += 1
        if calls == 5:
            assert search.frontier is not None and search.mirror is not None
    assert s.search is None                           # the search's state is dropped
    # the finished table alone answers: a layout and its mirror image agree
    text = "SVVV/SVVV/VBBV/VBBV/S..S"
    mirror = "/".join(row[::-1] for row in text.split("/"))
    r = s.rank_of(klotski.parse(text))
    assert s.value(r) != 3
    assert s.distance(r) == s.distance(s.rank_of(klotski.parse(mirror)))


def _reference_values(nv, nh, ns):
    """Distance mod 3 (3 = unreachable) of every rank by a plain BFS over
    Ranker.neighbors (the per-layout generator, independent of step's)."""
    s = klotski.Solver(nv, nh, ns)
    dist = [-1] * s.size
    layer = [r for r in range(s.size) if s.is_goal(r)]
    for r in layer:
        dist[r] = 0
    d = 0
    while layer:
        nxt = []
        for r in layer:
            for q in range(s.ranker.neighbors(r)):
                y = s.ranker.out_rank[q]
                if dist[y] < 0:
                    dist[y] = d + 1
                    nxt.append(y)
        layer = nxt
        d += 1
    return [3 if x < 0 else x % 3 for x in dist]


def _check_against_reference(piece_set, max_states):
    want = _reference_values(*piece_set)
    s = klotski.Solver(*piece_set)
    while not s.step(max_states):
        pass
    got = [s.value(r) for r in range(s.size)]
    assert got == want
    assert s.reached == sum(1 for v in want if v != 3)
    assert s.expanded < s.reached            # mirror images are not expanded


@pytest.mark.parametrize("piece_set", [(5, 0, 4), (0, 1, 12), (0, 0, 14)])
def test_table_matches_reference_bfs(piece_set):
    # small slices: exercises resuming mid-layer and mid-seeding
    _check_against_reference(piece_set, 7)


@pytest.mark.slow
@pytest.mark.parametrize("piece_set", [(4, 1, 4), (0, 4, 6), (1, 4, 4), (2, 3, 4)])
def test_table_matches_reference_bfs_slow(piece_set):
    _check_against_reference(piece_set, 5000)


def test_step_slices_are_bounded_in_vm(vm):
    # the UI polls input every 50 ms (~5.5 M fuel): step(40) stays under it
    from host_tools.bench.bench_klotski import WORST_STEP

    res = vm(WORST_STEP % (5, 0, 4))
    worst, reached = res['w']
    assert reached == 7462
    assert worst < 5500000
    # the sliced setup: many small slices, the table's own one flagged beforehand
    n, light, heavy, total = res['setup']
    assert n > 20 and light < 2500000 and heavy < 4500000 and total > 20 * light


def test_sliced_setup_builds_the_same_solver():
    eager = klotski.Solver(2, 2, 6)
    sliced = klotski.Solver(2, 2, 6, sliced=True)
    assert sliced.size == 0 and not sliced.step(100)      # step() continues the setup first
    calls = 1
    while not sliced.setup():
        calls += 1
    assert calls > 20
    assert sliced.table == eager.table and sliced.table is sliced.distances.planes
    for name in ("entries", "node_base", "words", "word_mirror", "node_mask"):
        assert getattr(sliced.ranker, name) == getattr(eager.ranker, name), name
    for name in ("word_pieces", "offset_slot", "offset_base", "full_words", "low_bit"):
        assert getattr(sliced.search, name) == getattr(eager.search, name), name
    assert sliced.size == eager.size
    assert (sliced.ranker.geos, sliced.ranker.root) == (eager.ranker.geos, eager.ranker.root)
    sliced.build()
    eager.build()
    assert sliced.table == eager.table


def test_a_failed_setup_slice_is_not_taken_for_ready(monkeypatch):
    s = klotski.Solver(4, 1, 4, sliced=True)
    for _ in range(30):
        s.setup()
    fail = lambda tc, n: (_ for _ in ()).throw(MemoryError())  # noqa: E731
    monkeypatch.setattr(klotski, "_zeros", fail)
    # the setup makes the search's tables with its own reference (klotski_setup.Setup._search)
    monkeypatch.setattr(sys.modules["klotski_setup"], "_zeros", fail)
    with pytest.raises(MemoryError):
        while not s.setup():
            pass
    with pytest.raises(RuntimeError, match="setup failed"):
        s.step(10)


def test_seed_openings_in_vm(vm):
    r = vm('''
import klotski
s = klotski.Solver(4, 1, 4)
while not s.step(5000):
    pass
out = []
for t in ("VBBV/VBBV/VHHV/VSSV/S..S", "VBBV/VBBV/SHHS/VSSV/V..V", "SBBS/VBBV/VHHV/VSSV/V..V"):
    rank = s.rank_of(klotski.parse(t))
    out.append((t, s.solution(rank)))
emit('sol', out)
''')
    for (layout, moves), (_, steps) in zip(r['sol'], SEEDS):
        check_solution(layout, [tuple(m) for m in moves], steps)


@pytest.fixture
def rendered_kernel(monkeypatch):
    """klotski_viper and klotski_viper32 as the build renders them, run as
    Python (identity casts)."""
    from host_tools.core import kernelgen
    monkeypatch.setattr(klotski, "_kv", kernelgen.load_module("klotski_viper"))
    monkeypatch.setitem(sys.modules, "klotski_viper32", kernelgen.load_module("klotski_viper32"))


@pytest.mark.parametrize("piece_set", [(4, 1, 4), (2, 3, 4), (0, 4, 6), (3, 3, 2)])
def test_kernel_source_builds_the_same_table_on_cpython(piece_set, rendered_kernel):
    """klotski_viper's kernels, run as Python (identity casts), resumed in
    small slices, give the plain loop's table byte for byte (16-bit and 30-bit
    words); on the virtual Pico: tests/test_klotski_vpico.py."""
    plain = klotski.Solver(*piece_set, kernel=False)
    plain.build()
    fast = klotski.Solver(*piece_set, kernel=True)
    assert fast._kernel is not None and plain._kernel is None
    while not fast.step(300):
        pass
    assert bytes(fast.table) == bytes(plain.table)
    assert (fast.reached, fast.expanded, fast.depth) == (plain.reached, plain.expanded, plain.depth)
    assert fast.search is None                         # search-only state dropped


@pytest.mark.parametrize("piece_set,max_states", [((4, 1, 4), 1 << 26), ((2, 3, 4), 300), ((0, 4, 6), 7),
                                                  ((3, 3, 2), 40), ((1, 2, 8), 2000), ((0, 0, 14), 50)])
def test_cpython_loop_builds_the_plain_loops_table(piece_set, max_states):
    """CPython runs klotski_cpython; MicroPython (the VMs, a Pico without its
    kernel) klotski_loop: the same table byte for byte and the same counters,
    whole or resumed in slices (16-bit and 30-bit words, 1-4 per geometry)."""
    import weakref

    import klotski_cpython
    import klotski_loop
    held = len(klotski_cpython._MOVES)
    plain = klotski.Solver(*piece_set, kernel=False)
    assert plain._loop is klotski_cpython
    plain._loop = klotski_loop
    plain.build()
    s = klotski.Solver(*piece_set, kernel=False)
    search = weakref.ref(s.search)
    reached = []
    while not s.step(max_states):
        reached.append(s.reached)
    assert reached == sorted(reached)
    assert bytes(s.table) == bytes(plain.table)
    assert (s.reached, s.expanded, s.depth) == (plain.reached, plain.expanded, plain.depth)
    assert search() is None and len(klotski_cpython._MOVES) == held     # its moves went with it


def test_many_word_tables_keep_the_plain_loop(rendered_kernel):
    s = klotski.Solver(1, 2, 8, kernel=True)          # 45 pairs: two words per geometry
    assert s.distances.words_per == 2 and s._kernel is None


def _imports_without_memory_for(monkeypatch, name, failures):
    """Make ``import NAME`` raise MemoryError (what MicroPython raises when no
    free block holds a kernel's machine code) the first ``failures`` times;
    returns the list of the attempts.  Later attempts return the kernel as
    the build renders it (run as Python)."""
    import builtins

    from host_tools.core import kernelgen
    tries = []
    real_import = builtins.__import__

    def short_of_memory(module, *args, **kwargs):
        if module != name:
            return real_import(module, *args, **kwargs)
        tries.append(module)
        if len(tries) <= failures:
            raise MemoryError("memory allocation failed, allocating 9472 bytes")
        return kernelgen.load_module(name)
    monkeypatch.setattr(builtins, "__import__", short_of_memory)
    return tries


def _fresh_klotski(monkeypatch):
    """klotski imported anew (with its setup and loop modules, which import it
    by name); the test's end puts the usual modules back."""
    import importlib
    for module in ("klotski", "klotski_setup", "klotski_loop"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    return importlib.import_module("klotski")


@pytest.mark.parametrize("failures", [1, 2])
def test_a_kernel_that_does_not_fit_falls_back_to_the_plain_loop(monkeypatch, failures):
    """After long play a Pico's heap can have 175 KB free and no block for
    klotski_viper's machine code: its import raises MemoryError.  klotski
    collects and tries once more; when that fails too, the plain loop builds
    the table (slower, the same table) instead of an error screen."""
    plain = klotski.Solver(4, 1, 4, kernel=False)
    plain.build()
    tries = _imports_without_memory_for(monkeypatch, "klotski_viper", failures)
    fresh = _fresh_klotski(monkeypatch)
    assert tries == ["klotski_viper", "klotski_viper"]      # one retry, no more
    assert (fresh._kv is None) == (failures == 2)
    assert not fresh.NATIVE_KERNEL
    s = fresh.Solver(4, 1, 4, kernel=failures == 1)
    assert (s._kernel is None) == (s._loop is not None) == (failures == 2)
    while not s.step(300):
        pass
    assert bytes(s.table) == bytes(plain.table) and s.reached == plain.reached
    layout = klotski.parse(SEEDS[0][0])
    assert len(s.solution(s.rank_of(layout))) == SEEDS[0][1]


@pytest.mark.parametrize("failures", [1, 2])
def test_a_30_bit_kernel_that_does_not_fit_falls_back_to_the_plain_loop(monkeypatch, failures,
                                                                          rendered_kernel):
    """search32 comes from a module of its own, which the setup loads in a
    slice; a MemoryError there gets the same retry, then the plain loop."""
    monkeypatch.delitem(sys.modules, "klotski_viper32")
    plain = klotski.Solver(0, 4, 6, kernel=False)
    plain.build()
    tries = _imports_without_memory_for(monkeypatch, "klotski_viper32", failures)
    s = klotski.Solver(0, 4, 6, kernel=True)
    assert tries == ["klotski_viper32", "klotski_viper32"]
    assert (s._kernel is None) == (s._loop is not None) == (failures == 2)
    while not s.step(300):
        pass
    assert bytes(s.table) == bytes(plain.table) and s.reached == plain.reached


def test_the_viper_kernel_is_written_once_and_rendered_per_width(tmp_path):
    """The search is one function in firmware/klotski_viper.py.tmpl; the build
    renders search16 and search32 from it, and no rendered copy sits in the
    source tree to go stale."""
    from host_tools.core import kernelgen
    template = (FIRMWARE / "klotski_viper.py.tmpl").read_text(encoding="utf-8")
    assert template.count("def search{{BITS}}(") == 1 and "def search16(" not in template
    assert not (FIRMWARE / "klotski_viper.py").exists()
    modules = kernelgen.rendered_modules()
    assert sorted(modules) == ["klotski_viper.py", "klotski_viper32.py"]
    text = modules["klotski_viper.py"]
    assert text.count("def search16(") == 1 and "def search32(" not in text
    assert text.count("def walk(") == 1
    assert "{{" not in text and "T = ptr16(s.table)" in text and "T = ptr32(s.table)" not in text
    other = modules["klotski_viper32.py"]            # only its width's copy: its own module
    assert other.count("def search32(") == 1 and "def search16(" not in other
    assert "def walk(" not in other and "{{" not in other and "T = ptr32(s.table)" in other
    assert kernelgen.main(["--out", str(tmp_path)]) == 0
    for name, source in modules.items():
        assert (tmp_path / name).read_text(encoding="utf-8") == source


def test_a_table_that_leads_nowhere_is_refused_not_walked_forever(classic, monkeypatch):
    """distance/solution walk the table's values to the goal: a table whose
    values give a layout no closer neighbour, or no goal within MAX_STEPS
    (values going round in a loop: a table's bytes wrong under a valid
    checksum), raises TableError instead of looping."""
    rank = classic.rank_of(klotski.parse("VBBV/VBBV/VHHV/VSSV/S..S"))
    assert classic.distance(rank) == 81 < klotski.MAX_STEPS
    # the longest optimal walk of every piece set is 138 steps
    assert klotski.MAX_STEPS > 138
    # no goal within the bound: the walk stops there (the bound lowered below 81)
    monkeypatch.setattr(klotski, "MAX_STEPS", 40)
    with pytest.raises(klotski.TableError):
        classic.distance(rank)
    with pytest.raises(klotski.TableError):
        classic.solution(rank)
    monkeypatch.undo()
    # every layout at the same value: no neighbour is one step closer
    bad = klotski.Solver(4, 1, 4)
    t = bad.table
    for i in range(bad.distances.units):
        t[i] = 0xFFFF                     # the first plane only: every value is 0
    bad.finish()
    with pytest.raises(klotski.TableError):
        bad.distance(rank)
    with pytest.raises(klotski.TableError):
        bad.solution(rank)
