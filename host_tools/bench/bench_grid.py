"""Grid solver and Cat & Mouse figures for `make bench`.

Device figures come from the MicroPython VM (fuel -> estimated Pico ms, bytes
allocated per call after a warm-up call); host figures compare the same
searches with the `pathfinding` package and networkx on CPython.
"""

import functools
import random
import statistics
import time

import host_tools.core.fwpath  # noqa: F401
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
from gridpath import GridSearch

from host_tools.emulation import mpvm

BFS_16x8_MS = 5.0
ASTAR_16x8_MS = 8.0
CHASER = "host_tools.games.catmouse_chaser:chase"
CHASE_GAMES = 20
CHASE_BUDGET = 60.0        # % of games the chaser wins against the EASY and NORMAL mice


def big_board(seed=3):
    """64x64 with 20 % obstacles and mixed terrain, corners kept open and joined."""
    rng = random.Random(seed)
    while True:
        costs = bytearray(rng.choice((0, 1, 1, 1, 2, 3)) for _ in range(64 * 64))
        costs[0] = costs[-1] = 1
        search = GridSearch(64, 64)
        search.load(costs)
        if search.bfs(0, 64 * 64 - 1) is not None:
            return costs


def boards():
    garden = parse_map(LEVELS[0][1])
    return (
        ("16x8 default board", 16, 8, bytes(garden.costs), garden.cat, garden.mouse),
        ("64x64 random terrain", 64, 64, bytes(big_board()), 0, 64 * 64 - 1),
    )


def vm_figures(cases):
    code = """
from gridpath import GridSearch
for name, cols, rows, costs, src, dst in CASES:
    s = GridSearch(cols, rows)
    s.load(costs)
    s.bfs(src, dst)
    s.astar(src, dst)
    emit(name + ' bfs', measure(s.bfs, src, dst)[1:])
    emit(name + ' astar', measure(s.astar, src, dst)[1:])
    del s
"""
    return mpvm.run("CASES = %r\n%s" % (cases, code)).results


def per_round_figures():
    """Fuel of every cat and mouse decision through a 60-round default game."""
    code = """
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
game = CatMouseGame(parse_map(LEVELS[0][1]), round_limit=60)
cat = catmouse_ai.BfsCat()
mouse = catmouse_ai.EvasiveMouse()
cat_fuel = []
mouse_fuel = []
slices = []
board = game.board
while not game.winner:
    legal = game.legal_moves('cat')
    move, fuel, _ = measure(cat, board, game.cat, legal)
    cat_fuel.append(fuel)
    game.move('cat', move)
    if game.winner:
        break
    legal = game.legal_moves('mouse')
    begun = measure(mouse.begin, board, game.mouse, legal)[1]
    done, fuel, _ = measure(mouse.step)             # the cat's flood: a tick's slice with begin
    mouse_fuel.append(begun + fuel)
    slices.append(begun + fuel)
    while not done:
        done, fuel, _ = measure(mouse.step)
        mouse_fuel[-1] += fuel
        slices.append(fuel)
    game.move('mouse', mouse.answer)
    game.round += 1
    if game.round >= game.round_limit:
        game.winner = 'mouse'
emit('cat', cat_fuel)
emit('mouse', mouse_fuel)
emit('slices', slices)
"""
    return mpvm.run(code).results


def cpython_seconds(fn, repeat=50):
    fn()
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def pathfinding_fns(cols, rows, costs, src, dst):
    from pathfinding.core.diagonal_movement import DiagonalMovement
    from pathfinding.core.grid import Grid
    from pathfinding.finder.a_star import AStarFinder
    from pathfinding.finder.breadth_first import BreadthFirstFinder

    matrix = [[costs[r * cols + c] for c in range(cols)] for r in range(rows)]
    grid = Grid(matrix=matrix)

    def run(finder):
        grid.cleanup()
        start = grid.node(src % cols, src // cols)
        end = grid.node(dst % cols, dst // cols)
        return finder.find_path(start, end, grid)[0]

    bfs = BreadthFirstFinder(diagonal_movement=DiagonalMovement.never)
    astar = AStarFinder(diagonal_movement=DiagonalMovement.never)
    return (lambda: run(bfs)), (lambda: run(astar))


def grid_graph(cols, rows, costs):
    """networkx DiGraph of a terrain grid: free cells, an edge into a cell weighs
    that cell's cost (tests/test_grid_oracles.py uses it as an oracle)."""
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(cell for cell in range(cols * rows) if costs[cell])
    for cell in range(cols * rows):
        if not costs[cell]:
            continue
        r, c = divmod(cell, cols)
        for nr, nc in ((r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)):
            if 0 <= nr < rows and 0 <= nc < cols and costs[nr * cols + nc]:
                graph.add_edge(cell, nr * cols + nc, weight=costs[nr * cols + nc])
    return graph


def networkx_fns(cols, rows, costs, src, dst):
    import networkx as nx

    graph = grid_graph(cols, rows, costs)

    def manhattan(a, b):
        return abs(a % cols - b % cols) + abs(a // cols - b // cols)

    return ((lambda: nx.shortest_path(graph, src, dst)),
            (lambda: nx.astar_path(graph, src, dst, heuristic=manhattan, weight="weight")))


def survival(level, mouse_kind, games):
    cmap = parse_map(LEVELS[level][1])
    rounds = []
    for seed in range(games):
        game = CatMouseGame(cmap, round_limit=100)
        cat = catmouse_ai.AstarCat() if cmap.terrain else catmouse_ai.BfsCat()
        game.play(cat, catmouse_ai.make(mouse_kind, seed + 1))
        rounds.append(game.round)
    return statistics.mean(rounds)


def chase_rates(games=CHASE_GAMES):
    """% of ``games`` games (each map at its round limit) that a shortest-path
    chaser, a plug-in run by the plug-in runner, wins against the handheld's
    mouse of each difficulty (seeds 1..games): {(level, diff): %}."""
    from host_tools.commands.play_cmd import MOUSE_NAMES, PluginPiece, difficulty_mouse, play_game

    chaser = PluginPiece(CHASER, "cat", 10.0)
    rates = {}
    try:
        for level in range(len(LEVELS)):
            cmap = parse_map(LEVELS[level][1])
            for diff in range(3):
                won = 0
                for seed in range(1, games + 1):
                    game = CatMouseGame(cmap)
                    play_game(game, chaser, difficulty_mouse(MOUSE_NAMES[diff], seed))
                    won += game.winner == "cat"
                rates[level, diff] = 100.0 * won / games
    finally:
        chaser.close()
    return rates


def collect(report):
    rates = chase_rates()
    section = ("Cat & Mouse: a shortest-path chaser (plug-in) against the mice, "
               "%% of %d games caught" % CHASE_GAMES)
    for (level, diff), rate in sorted(rates.items()):
        label = ("EASY", "NORMAL", "HARD")[diff]
        report.add(section, "%s: %s mouse" % (LEVELS[level][0], label), rate, "%",
                   budget=CHASE_BUDGET if diff < 2 else None, higher_is_better=True,
                   note="" if diff < 2 else "no budget: hard")
    cases = boards()
    vm = vm_figures(cases)
    for name, cols, rows, costs, src, dst in cases:
        section = "Grid search: %s (cat to mouse, VM = MicroPython 1.27)" % name
        small = cols == 16
        for algo in ("bfs", "astar"):
            fuel, alloc = vm["%s %s" % (name, algo)]
            budget = (BFS_16x8_MS if algo == "bfs" else ASTAR_16x8_MS) if small else None
            label = "BFS" if algo == "bfs" else "A*"
            report.add(section, "%s fuel per call" % label, fuel, "fuel")
            report.add(section, "%s est. Pico time" % label, mpvm.pico_ms(fuel), "ms", budget)
            report.add(section, "%s bytes allocated per call" % label, alloc, "bytes", 0)
        search = GridSearch(cols, rows)
        search.load(costs)
        ours_bfs = functools.partial(search.bfs, src, dst)
        ours_astar = functools.partial(search.astar, src, dst)
        report.add(section, "BFS CPython time (ours)", 1e3 * cpython_seconds(ours_bfs), "ms")
        report.add(section, "A* CPython time (ours)", 1e3 * cpython_seconds(ours_astar), "ms")
        pf_bfs, pf_astar = pathfinding_fns(cols, rows, costs, src, dst)
        report.add(section, "BFS CPython time (pathfinding pkg)", 1e3 * cpython_seconds(pf_bfs, 10), "ms")
        report.add(section, "A* CPython time (pathfinding pkg)", 1e3 * cpython_seconds(pf_astar, 10), "ms")
        nx_bfs, nx_astar = networkx_fns(cols, rows, costs, src, dst)
        report.add(section, "BFS CPython time (networkx)", 1e3 * cpython_seconds(nx_bfs, 10), "ms")
        report.add(section, "A* CPython time (networkx)", 1e3 * cpython_seconds(nx_astar, 10), "ms")

    rounds = per_round_figures()
    section = "Cat & Mouse on the device: one decision (default board, BFS cat vs evasive mouse)"
    for who, label in (("cat", "BFS cat"), ("mouse", "evasive mouse")):
        first, rest = rounds[who][0], rounds[who][1:]
        report.add(section, "%s first move (loads the board)" % label, mpvm.pico_ms(first), "ms")
        report.add(section, "%s move, mean of the next %d" % (label, len(rest)),
                   mpvm.pico_ms(statistics.mean(rest)), "ms")
        report.add(section, "%s move, worst of the next %d" % (label, len(rest)),
                   mpvm.pico_ms(max(rest)), "ms")
    slices = rounds["slices"][1:]
    report.add(section, "evasive mouse, largest slice (one per tick on the handheld)",
               mpvm.pico_ms(max(slices)), "ms", 50.0, note="%d slices" % len(slices))

    section = "Cat & Mouse: rounds the mouse survives (limit 100; A* cat on terrain, else BFS)"
    for level in (0, 1, 3, 4):
        name = LEVELS[level][0]
        rand = survival(level, "random", 20)
        evasive = survival(level, "evasive", 3)
        report.add(section, "%s: random mouse" % name, rand, "rounds")
        report.add(section, "%s: evasive mouse" % name, evasive, "rounds",
                   note="%.1fx longer" % (evasive / rand))
