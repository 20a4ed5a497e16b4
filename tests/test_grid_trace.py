"""`solve grid --trace / --order seed / --gif / --png` and `play catmouse --mouse stay`:
the Cat & Mouse article's printed results as the reference (docs/sources.md)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import host_tools.core.fwpath  # noqa: F401
from gridpath import GridSearch
from gridpath_seed import SeedSearch

from clirun import run_cli
from gridref import check_path, dijkstra
from host_tools.games import catmouse_trace
from host_tools.games.catmouse_mapfile import read_map

ROOT = Path(__file__).resolve().parent.parent
SEED_BFS = str(ROOT / "maps" / "seed-bfs.txt")
SEED_ASTAR = str(ROOT / "maps" / "seed-astar.txt")
MAPS = sorted(str(p) for p in (ROOT / "maps").glob("*.txt"))

# The article's printed paths: BFS followed back from the mouse, A* from the cat.
ARTICLE_BFS_BACK = [31, 23, 22, 21, 20, 19, 27, 26, 25, 24, 16, 8, 0]
ARTICLE_ASTAR = [0, 8, 16, 17, 25, 26, 27, 19, 11, 12, 4, 5, 6, 14, 22, 30, 31]

# BFS from the cat on seed-bfs: the cells at each distance (the same for every
# BFS); the article's 12 rounds expand levels 0..11, the 12th until it reaches 31.
BFS_LEVELS = [{0}, {1, 8}, {2, 9, 16}, {17, 24}, {25}, {26}, {27}, {19}, {11, 20},
              {12, 21}, {4, 22, 29}, {5, 14, 23, 30}]

# The seed rule's A* on seed-astar: the cells it closes, in order, with their
# final F (G = least stamina from the cat, H = Manhattan distance to the mouse).
SEED_ASTAR_CLOSED = [(0, 10), (8, 10), (16, 10), (17, 10), (25, 10), (26, 10), (27, 10),
                     (1, 11), (2, 11), (9, 11), (24, 11), (19, 12), (11, 14), (12, 14),
                     (20, 14), (4, 16), (5, 16), (6, 16), (7, 16), (14, 16), (21, 16),
                     (22, 16), (29, 16), (30, 16), (31, 16)]

# Today's default order (the games' backward search): unchanged.
DEFAULT_BFS = [0, 8, 16, 24, 25, 26, 27, 19, 20, 21, 29, 30, 31]
DEFAULT_ASTAR = [0, 8, 16, 17, 25, 26, 27, 19, 20, 21, 22, 30, 31]


def solve_json(capsys, *args):
    code, out, err = run_cli(["solve", "grid", *args, "--json"], capsys)
    assert code == 0 and err == ""
    return json.loads(out)


def test_seed_order_gives_both_printed_paths(capsys):
    bfs = solve_json(capsys, SEED_BFS, "--algo", "bfs", "--order", "seed")
    assert bfs["cost"] == 12 and bfs["path"][::-1] == ARTICLE_BFS_BACK
    astar = solve_json(capsys, SEED_ASTAR, "--algo", "astar", "--order", "seed")
    assert astar["cost"] == 16 and astar["path"] == ARTICLE_ASTAR
    for args, want in (((SEED_BFS, "--algo", "bfs"), ARTICLE_BFS_BACK[::-1]),
                       ((SEED_ASTAR, "--algo", "astar"), ARTICLE_ASTAR)):
        traced = solve_json(capsys, *args, "--order", "seed", "--trace")
        assert traced["path"] == want


def test_seed_search_reuses_its_buffers():
    """One SeedSearch answers again and again, with either algorithm, the same."""
    bfs_map, astar_map = read_map(SEED_BFS), read_map(SEED_ASTAR)
    s = GridSearch(8, 4)
    seed = SeedSearch(s)
    for _ in range(2):
        s.load(bfs_map.costs)
        assert seed.bfs(0, 31) == 12 and s.path_cells()[::-1] == ARTICLE_BFS_BACK
        assert seed.order_len == 21 and seed.order[0] == 0
        s.load(astar_map.costs)
        assert seed.astar(0, 31) == 16 and s.path_cells() == ARTICLE_ASTAR
        assert list(seed.order[:seed.order_len]) == [c for c, _ in SEED_ASTAR_CLOSED]
    assert seed.astar(5, 5) == 0 and s.path_cells() == [5]
    assert seed.bfs(3, 31) is None and s.path_len == 0  # 3 is an obstacle


def test_seed_bfs_rounds_are_the_levels():
    result = catmouse_trace.trace(read_map(SEED_BFS), "bfs", "seed")
    rounds = result["rounds"]
    assert len(rounds) == 12
    for level, rnd in enumerate(rounds):
        expanded = {step["expand"]["cell"] for step in rnd["steps"]}
        assert rnd["level"] == level
        if level < 11:
            assert expanded == BFS_LEVELS[level]
            assert {c["cell"] for c in rnd["open"]} == BFS_LEVELS[level + 1]
        else:
            assert expanded < BFS_LEVELS[11] and 23 in expanded
    # round 2: the rule expands 8 before 1 (the article 1 before 8: docs/sources.md)
    assert [s["expand"]["cell"] for s in rounds[1]["steps"]] == [8, 1]
    # the link that no first-in-first-out BFS gives: 25 is reached from 24
    assert [a["cell"] for a in rounds[3]["steps"][0]["adds"]] == [25]
    assert rounds[3]["steps"][0]["expand"]["cell"] == 24


def _plain_bfs(costs, order, last_found_first, cols=8, rows=4, src=0, dst=31):
    """A BFS written out plainly: (expansion order, link of each reached cell)."""
    moves = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}
    link = {src: None}
    level = [src]
    expanded = []
    while level and dst not in link:
        found = []
        for p in (level[::-1] if last_found_first else level):
            expanded.append(p)
            for d in order:
                r, c = p // cols + moves[d][0], p % cols + moves[d][1]
                q = r * cols + c
                if 0 <= r < rows and 0 <= c < cols and costs[q] and q not in link:
                    link[q] = p
                    found.append(q)
            if dst in link:
                break
        level = found
    return expanded, link


def test_no_rule_of_this_kind_expands_1_before_8_and_gives_the_path():
    """What docs/sources.md says: every neighbour order, first in first out or
    last found first; those that expand 1 before 8 reach 25 from 17, and the
    printed path (25 from 24) comes only with 8 first."""
    import itertools

    costs = read_map(SEED_BFS).costs
    gives_path = []
    for order in itertools.permutations("LRUD"):
        for lifo in (False, True):
            expanded, link = _plain_bfs(costs, order, lifo)
            path = [31]
            while link[path[-1]] is not None:
                path.append(link[path[-1]])
            if expanded.index(1) < expanded.index(8):
                assert link[25] == 17 and path != ARTICLE_BFS_BACK
            if path == ARTICLE_BFS_BACK:
                gives_path.append(("".join(order), lifo))
    assert ("LRUD", True) in gives_path and all(lifo for _, lifo in gives_path)


def test_seed_astar_closes_cells_with_these_f():
    cmap = read_map(SEED_ASTAR)
    result = catmouse_trace.trace(cmap, "astar", "seed")
    closed = [(step["expand"]["cell"], step["expand"]["f"])
              for rnd in result["rounds"] for step in rnd["steps"]]
    assert closed == SEED_ASTAR_CLOSED
    for rnd in result["rounds"]:
        cell = rnd["steps"][0]["expand"]
        # every closed cell's G is its least stamina from the cat
        assert cell["g"] == dijkstra(cmap.cols, cmap.rows, cmap.costs, cmap.cat, cell["cell"])
    assert result["rounds"][-1]["steps"][0].get("goal") is True


def test_seed_search_on_the_device_allocates_nothing(vm):
    costs_bfs = list(read_map(SEED_BFS).costs)
    costs_astar = list(read_map(SEED_ASTAR).costs)
    r = vm("""
from gridpath import GridSearch
from gridpath_seed import SeedSearch
out = []
for costs, algo in ((%r, 'bfs'), (%r, 'astar')):
    s = GridSearch(8, 4)
    s.load(bytes(costs))
    seed = SeedSearch(s)
    fn = seed.bfs if algo == 'bfs' else seed.astar
    fn(0, 31)
    res, fuel, alloc = measure(fn, 0, 31)
    out.append((res, alloc, s.path_cells(), list(seed.order[:seed.order_len])))
emit('seed', out)
""" % (costs_bfs, costs_astar))
    (bfs, bfs_alloc, bfs_path, _), (astar, astar_alloc, astar_path, order) = r.results["seed"]
    assert (bfs, bfs_alloc, bfs_path[::-1]) == (12, 0, ARTICLE_BFS_BACK)
    assert (astar, astar_alloc, astar_path) == (16, 0, ARTICLE_ASTAR)
    assert order == [cell for cell, _ in SEED_ASTAR_CLOSED]


def test_default_order_results_are_unchanged(capsys):
    for args, want, cost in (((SEED_BFS, "--algo", "bfs"), DEFAULT_BFS, 12),
                             ((SEED_ASTAR, "--algo", "astar"), DEFAULT_ASTAR, 16)):
        plain = solve_json(capsys, *args)
        assert plain == {"cost": cost, "moves": len(want) - 1, "path": want}
        assert solve_json(capsys, *args, "--order", "default") == plain
        traced = solve_json(capsys, *args, "--trace")
        assert traced["path"] == want and traced["cost"] == cost
        assert traced["direction"] == "backward" and traced["start"] == 31


def test_the_tracer_does_not_change_the_search():
    """The games' A* with the tracer's recording ``came`` and without: the same
    cost, path and final state, and one report per closed cell."""
    for path in MAPS:
        cmap = read_map(path)
        a = GridSearch(cmap.cols, cmap.rows)
        a.load(cmap.costs)
        b = GridSearch(cmap.cols, cmap.rows)
        b.load(cmap.costs)
        seen = []
        b.came = catmouse_trace._ClosingList(b.came, seen.append)
        assert a.astar(cmap.cat, cmap.mouse) == b.astar(cmap.cat, cmap.mouse)
        assert a.path_cells() == b.path_cells() and list(a.came) == list(b.came)
        assert len(seen) == len(set(seen)) == sum(1 for m in b.came if m == 2)
        traced = catmouse_trace.trace(cmap, "astar")
        assert [b.public[p] for p in seen] == [s["expand"]["cell"] for r in traced["rounds"]
                                               for s in r["steps"]]


def _consistent(cmap, result):
    algo = result["algo"]
    goal = result["goal"]
    cols = cmap.cols
    steps = [step for rnd in result["rounds"] for step in rnd["steps"]]
    expanded = [step["expand"]["cell"] for step in steps]
    assert len(expanded) == len(set(expanded)), "a cell expanded twice"
    assert expanded[0] == result["start"]
    g_of = {result["start"]: 0}
    for step in steps:
        cell = step["expand"]
        assert g_of[cell["cell"]] == cell["g"]
        for add in step["adds"]:
            assert add["cell"] not in expanded[:expanded.index(cell["cell"]) + 1]
            if algo == "bfs":
                assert add["g"] == cell["g"] + 1
            else:
                entered = add["cell"] if result["direction"] == "forward" else cell["cell"]
                assert add["g"] == cell["g"] + cmap.costs[entered]
            g_of[add["cell"]] = add["g"]
    for rnd in result["rounds"]:
        for item in rnd["open"] + rnd["closed"] + [s["expand"] for s in rnd["steps"]]:
            if algo == "astar":
                h = abs(item["cell"] % cols - goal % cols) + abs(item["cell"] // cols - goal // cols)
                assert item["h"] == h and item["f"] == item["g"] + item["h"]
        assert not {c["cell"] for c in rnd["open"]} & {c["cell"] for c in rnd["closed"]}
    for rnd, after in zip(result["rounds"], result["rounds"][1:]):
        # what the next round expands was open (BFS: on the frontier) after this one
        assert {s["expand"]["cell"] for s in after["steps"]} <= {c["cell"] for c in rnd["open"]}
        assert len(after["closed"]) == len(rnd["closed"]) + len(after["steps"])
    path = result.get("path")
    if path:
        closed = set(expanded)
        if algo == "astar":
            assert set(path) <= closed and expanded[-1] == goal
        else:
            assert set(path) - {goal} <= closed
            assert goal in [a["cell"] for a in steps[-1]["adds"]]
        total = check_path(cmap.cols, cmap.rows, cmap.costs, path, cmap.cat, cmap.mouse)
        assert total == result["cost"] or algo == "bfs"


@pytest.mark.parametrize("order", ["default", "seed"])
@pytest.mark.parametrize("algo", ["bfs", "astar"])
def test_traces_are_consistent_on_every_map(algo, order):
    for path in MAPS:
        cmap = read_map(path)
        _consistent(cmap, catmouse_trace.trace(cmap, algo, order))


def test_trace_of_an_unreachable_mouse(tmp_path, capsys):
    walled = tmp_path / "walled.txt"
    walled.write_text("C#..\n.#..\n##.M\n")
    for algo in ("bfs", "astar"):
        for order in ("default", "seed"):
            result = solve_json(capsys, str(walled), "--algo", algo, "--order", order, "--trace")
            assert result["cost"] is None and "path" not in result
            expanded = [s["expand"]["cell"] for r in result["rounds"] for s in r["steps"]]
            # all of the start's side of the wall: the mouse's 6 cells, the cat's 2
            assert len(expanded) == len(set(expanded)) == (2 if order == "seed" else 6)


def test_trace_text_reads_like_the_article(capsys):
    code, out, _ = run_cli(["solve", "grid", SEED_ASTAR, "--algo", "astar", "--order", "seed",
                            "--trace"], capsys)
    assert code == 0
    assert "round 1: expand 0:10(0+10), adds 1:11(2+9) 8:10(1+9)" in out
    assert "round 25: take 31:16(16+0), the mouse: done" in out
    assert out.count("expand ") == 24 and out.count("  open: ") == 24
    assert "stamina: 16 (16 moves)" in out and "path: " + " ".join(map(str, ARTICLE_ASTAR)) in out
    code, out, _ = run_cli(["solve", "grid", SEED_BFS, "--order", "seed", "--trace"], capsys)
    assert "round 12 (11 moves from the cat)" in out and "  expand 23: adds 31" in out
    assert out.count("  expand ") == 21 and "moves: 12" in out
    assert "links back from the mouse: " + " ".join(map(str, ARTICLE_BFS_BACK)) + "\n" in out


def test_pictures(tmp_path, capsys):
    from PIL import Image

    gif = tmp_path / "bfs.gif"
    png = tmp_path / "bfs.png"
    code, out, err = run_cli(["solve", "grid", SEED_BFS, "--order", "seed", "--gif", str(gif),
                              "--png", str(png)], capsys)
    assert code == 0 and err == "" and "moves: 12" in out
    with Image.open(gif) as image:
        assert image.n_frames == 12 + 1 and image.size == (8 * 32 + 1, 4 * 32 + 1)
    with Image.open(png) as image:
        assert image.format == "PNG"


def test_big_searches_share_frames(monkeypatch):
    """Several rounds per frame past MAX_FRAMES; the last search frame still
    shows every expanded cell."""
    cmap = read_map(SEED_BFS)
    result = catmouse_trace.trace(cmap, "bfs", "seed")
    full = catmouse_trace.picture_frames(cmap, result)
    monkeypatch.setattr(catmouse_trace, "MAX_FRAMES", 5)
    few = catmouse_trace.picture_frames(cmap, result)
    assert len(full) == 13 and len(few) == 4 + 1  # 12 rounds, 3 per frame, then the path
    assert few[-2].tobytes() == full[-2].tobytes() and few[-1].tobytes() == full[-1].tobytes()


def test_the_articles_demo_still_mouse_caught_in_12(capsys):
    code, out, _ = run_cli(["play", "catmouse", SEED_BFS, "--cat", "bfs", "--mouse", "stay",
                            "--json"], capsys)
    result = json.loads(out)
    assert code == 0 and result["winner"] == "cat" and result["rounds"] == 12
    assert result["cat"] == result["mouse"] == 31 and result["mouse_stamina"] == 0
    code, out, _ = run_cli(["play", "catmouse", SEED_BFS, "--cat", "stay", "--mouse", "stay",
                            "--rounds", "3", "--json"], capsys)
    result = json.loads(out)
    assert result["winner"] == "mouse" and result["cat"] == 0 and result["cat_stamina"] == 0


@pytest.mark.parametrize("args", [
    ("solve", "grid", SEED_BFS, "--order", "article"),
    ("solve", "grid", SEED_BFS, "--gif", "out.png"),
    ("solve", "grid", SEED_BFS, "--png", "out.gif"),
    ("solve", "grid", SEED_BFS, "--png", "/nonexistent-dir/out.png"),
    ("solve", "grid", SEED_BFS, "--trace", "--algo", "dfs"),
    ("play", "catmouse", SEED_BFS, "--mouse", "still"),
])
def test_bad_options_are_one_line_errors(args):
    result = subprocess.run([sys.executable, "-m", "host_tools", *args], cwd=ROOT,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


def test_solve_help_names_the_new_options():
    result = subprocess.run([sys.executable, "-m", "host_tools", "solve", "grid", "--help"],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    for option in ("--order", "--trace", "--gif", "--png", "seed"):
        assert option in result.stdout
