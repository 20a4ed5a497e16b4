"""firmware/gridpath.py against the two pinned path libraries, used as oracles
(bench_grid only timed them): networkx for whole distance maps (BFS moves and
least entering cost from one cell to every cell) and for point-to-point BFS and
A*, the `pathfinding` package for point-to-point BFS and weighted A*.  Seeded
random boards from 1x1 to 64x64, obstacle densities 0-45 %, terrain costs 1-3;
beside the hand-written Dijkstra of tests/gridref.py."""

import random
from array import array

import networkx as nx
from pathfinding.core.diagonal_movement import DiagonalMovement
from pathfinding.core.grid import Grid
from pathfinding.finder.a_star import AStarFinder
from pathfinding.finder.breadth_first import BreadthFirstFinder

from gridpath import UNREACHED, FloodSearch
from host_tools.bench.bench_grid import grid_graph
from gridref import check_path

BOARDS = 36          # ~3 s; sizes include 64x64 and single rows/columns


def boards(seed=1, count=BOARDS):
    rng = random.Random(seed)
    sizes = [(64, 64), (1, 64), (64, 1), (1, 1), (2, 2), (63, 17)]
    while len(sizes) < count:
        sizes.append((rng.randint(1, 64), rng.randint(1, 64)))
    for cols, rows in sizes:
        wall = rng.choice((0.0, 0.15, 0.3, 0.45))
        terrain = rng.random() < 0.7
        costs = bytearray(0 if rng.random() < wall else (rng.choice((1, 1, 2, 3)) if terrain else 1)
                          for _ in range(cols * rows))
        pairs = [(rng.randrange(cols * rows), rng.randrange(cols * rows)) for _ in range(3)]
        yield cols, rows, costs, pairs


def pathfinding_lengths(cols, rows, costs, src, dst):
    """(BFS moves, A* cost) from the `pathfinding` package, None when unreachable."""
    out = []
    for finder in (BreadthFirstFinder(diagonal_movement=DiagonalMovement.never),
                   AStarFinder(diagonal_movement=DiagonalMovement.never)):
        grid = Grid(matrix=[[costs[r * cols + c] for c in range(cols)] for r in range(rows)])
        path, _ = finder.find_path(grid.node(src % cols, src // cols),
                                   grid.node(dst % cols, dst // cols), grid)
        cells = [n.y * cols + n.x for n in path]
        if not cells or not costs[src] or not costs[dst]:
            out.append(None)
        elif finder.__class__ is BreadthFirstFinder:
            out.append(len(cells) - 1)
        else:
            out.append(check_path(cols, rows, costs, cells, src, dst))
    return out


def mismatches(search_cls=FloodSearch, seed=1, count=BOARDS):
    """Every disagreement between gridpath and the oracles, as readable tuples."""
    bad = []
    for cols, rows, costs, pairs in boards(seed, count):
        search = search_cls(cols, rows)
        search.load(costs)
        g = grid_graph(cols, rows, costs)
        moves_map = array("H", bytes(2 * len(search.cost)))
        cost_map = array("H", bytes(2 * len(search.cost)))
        src0 = pairs[0][0]
        search.distances(src0, moves_map)
        search.arrival_times(src0, cost_map)
        want_moves = nx.single_source_shortest_path_length(g, src0) if costs[src0] else {}
        want_cost = nx.single_source_dijkstra_path_length(g, src0) if costs[src0] else {}
        for cell in range(cols * rows):
            got_m = moves_map[search.pad[cell]]
            got_c = cost_map[search.pad[cell]]
            if (None if got_m == UNREACHED else got_m) != want_moves.get(cell):
                bad.append(("distances", cols, rows, src0, cell, got_m, want_moves.get(cell)))
            if (None if got_c == UNREACHED else got_c) != want_cost.get(cell):
                bad.append(("arrival_times", cols, rows, src0, cell, got_c, want_cost.get(cell)))
        for src, dst in pairs:
            reachable = costs[src] and costs[dst] and nx.has_path(g, src, dst)
            nx_moves = nx.shortest_path_length(g, src, dst) if reachable else None
            nx_cost = nx.astar_path_length(
                g, src, dst, weight="weight",
                heuristic=lambda a, b, cols=cols: abs(a % cols - b % cols) + abs(a // cols - b // cols)
            ) if reachable else None
            pf_moves, pf_cost = pathfinding_lengths(cols, rows, costs, src, dst)
            moves = search.bfs(src, dst)
            if moves is not None and len(search.path_cells()) != moves + 1:
                bad.append(("bfs path length", cols, rows, src, dst))
            cost = search.astar(src, dst)
            if cost is not None and check_path(cols, rows, costs, search.path_cells(),
                                               src, dst) != cost:
                bad.append(("astar path cost", cols, rows, src, dst))
            if not moves == nx_moves == pf_moves:
                bad.append(("bfs", cols, rows, src, dst, moves, nx_moves, pf_moves))
            if not cost == nx_cost == pf_cost:
                bad.append(("astar", cols, rows, src, dst, cost, nx_cost, pf_cost))
    return bad


def test_gridpath_agrees_with_networkx_and_pathfinding():
    assert mismatches() == []


def test_the_oracles_catch_a_wrong_search():
    class OffByOne(FloodSearch):
        def astar(self, src, dst):
            got = FloodSearch.astar(self, src, dst)
            return got + 1 if got else got

    bad = mismatches(OffByOne, count=6)
    assert bad and {b[0] for b in bad} >= {"astar", "astar path cost"}
