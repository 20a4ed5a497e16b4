"""Grid solvers on CPython: the seed's worked examples, edge cases, and a
property test against an independent Dijkstra."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gridpath import FloodSearch, GridSearch
from gridref import check_path, dijkstra

# The seed article's 8x4 example: cat at 0, mouse at 31.
SEED_OBSTACLES = (3, 10, 13, 18, 28)
SEED_GRASS = (1, 9, 15, 24)
SEED_STREAM = (20, 21, 23)


def seed_costs(terrain):
    costs = bytearray([1] * 32)
    for cell in SEED_OBSTACLES:
        costs[cell] = 0
    if terrain:
        for cell in SEED_GRASS:
            costs[cell] = 2
        for cell in SEED_STREAM:
            costs[cell] = 3
    return costs


def loaded(cols, rows, costs):
    search = GridSearch(cols, rows)
    search.load(costs)
    return search


def test_seed_bfs_takes_12_moves():
    costs = seed_costs(terrain=False)
    search = loaded(8, 4, costs)
    assert search.bfs(0, 31) == 12
    path = search.path_cells()
    assert len(path) == 13
    check_path(8, 4, costs, path, 0, 31)


def test_seed_astar_takes_16_stamina():
    costs = seed_costs(terrain=True)
    search = loaded(8, 4, costs)
    assert search.astar(0, 31) == 16
    path = search.path_cells()
    assert check_path(8, 4, costs, path, 0, 31) == 16


def test_bfs_ignores_terrain_costs():
    search = loaded(8, 4, seed_costs(terrain=True))
    assert search.bfs(0, 31) == 12


def test_no_path_is_none_and_clears_the_path():
    costs = bytearray([1] * 16)
    for cell in (2, 6, 10, 14):  # a wall down column 2 of a 4x4 board
        costs[cell] = 0
    search = loaded(4, 4, costs)
    assert search.bfs(0, 3) is None
    assert search.astar(0, 3) is None
    assert search.path_cells() == []


def test_blocked_endpoints_and_same_cell():
    costs = bytearray([1] * 9)
    costs[4] = 0
    search = loaded(3, 3, costs)
    assert search.bfs(0, 4) is None and search.astar(4, 0) is None
    assert search.bfs(8, 8) == 0 and search.path_cells() == [8]
    assert search.astar(2, 2) == 0 and search.path_cells() == [2]


def test_single_row_and_single_column_boards():
    row = loaded(64, 1, bytearray([1] * 64))
    assert row.bfs(0, 63) == 63 and row.astar(63, 0) == 63
    col = loaded(1, 64, bytearray([2] * 64))
    assert col.bfs(0, 63) == 63 and col.astar(0, 63) == 126


def test_largest_board_corner_to_corner():
    search = GridSearch(64, 64)
    assert search.bfs(0, 64 * 64 - 1) == 126
    assert search.astar(0, 64 * 64 - 1) == 126


@pytest.mark.parametrize("cols, rows", [(0, 4), (65, 1), (4, 65), (-1, 3)])
def test_board_size_limits(cols, rows):
    with pytest.raises(ValueError):
        GridSearch(cols, rows)


def test_cell_cost_is_validated():
    with pytest.raises(ValueError):
        GridSearch(4, 4).load(bytearray([1] * 15 + [4]))
    with pytest.raises(ValueError):
        GridSearch(4, 4).load(bytearray(15))


def test_tie_breaking_is_deterministic_and_documented():
    # The examples given in gridpath's docstring for an open 3x3 grid.
    search = loaded(3, 3, bytearray([1] * 9))
    assert search.bfs(0, 8) == 4
    assert search.path_cells() == [0, 3, 6, 7, 8]
    assert search.astar(0, 8) == 4
    assert search.path_cells() == [0, 1, 2, 5, 8]
    for _ in range(3):
        search.bfs(0, 8)
        assert search.path_cells() == [0, 3, 6, 7, 8]


def test_buffers_are_reused_across_many_searches():
    search = loaded(8, 4, seed_costs(terrain=True))
    before = (id(search.came), id(search.work), id(search.parent), id(search.path))
    for _ in range(300):
        assert search.bfs(0, 31) == 12
        assert search.astar(0, 31) == 16
    assert before == (id(search.came), id(search.work), id(search.parent), id(search.path))


def test_distance_maps():
    costs = seed_costs(terrain=True)
    search = FloodSearch(8, 4)
    search.load(costs)
    from array import array
    out = array("H", bytes(2 * len(search.cost)))
    search.distances(0, out)
    assert out[search.pad[31]] == 12
    assert out[search.pad[3]] == 0xFFFF
    search.arrival_times(0, out)
    assert out[search.pad[31]] == 16
    for cell in range(32):
        expected = dijkstra(8, 4, costs, 0, cell)
        assert out[search.pad[cell]] == (0xFFFF if expected is None else expected)


boards = st.integers(min_value=1, max_value=12).flatmap(
    lambda cols: st.integers(min_value=1, max_value=12).flatmap(
        lambda rows: st.tuples(
            st.just(cols), st.just(rows),
            st.lists(st.sampled_from((0, 1, 1, 1, 2, 3)), min_size=cols * rows, max_size=cols * rows),
            st.integers(0, cols * rows - 1), st.integers(0, cols * rows - 1))))


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards)
def test_bfs_and_astar_match_dijkstra(board):
    cols, rows, costs, src, dst = board
    costs = bytearray(costs)
    search = loaded(cols, rows, costs)
    moves = search.bfs(src, dst)
    assert moves == dijkstra(cols, rows, costs, src, dst, unit=True)
    if moves is not None:
        path = search.path_cells()
        check_path(cols, rows, costs, path, src, dst)
        assert len(path) == moves + 1
    stamina = search.astar(src, dst)
    assert stamina == dijkstra(cols, rows, costs, src, dst)
    if stamina is not None:
        assert check_path(cols, rows, costs, search.path_cells(), src, dst) == stamina


@settings(max_examples=400, deadline=None)
@given(boards)
def test_territory_counts_the_cells_reached_a_round_before_the_rival(board):
    """territory() (a search that goes on only through the cells it counts)
    against whole floods from both cells, in move counts and in arrival
    times; the searches after it still find what they did (shared buffers)."""
    from array import array

    cols, rows, costs, src, rival_cell = board
    costs = bytearray(costs)
    search = FloodSearch(cols, rows)
    search.load(costs)
    rival = array("H", bytes(2 * len(search.cost)))
    own = array("H", bytes(2 * len(search.cost)))
    for flat in (True, False):
        flood = search.distances if flat else search.arrival_times
        flood(rival_cell, rival)
        flood(src, own)
        want = sum(1 for p in range(len(own)) if own[p] != 0xFFFF and own[p] + 1 < rival[p])
        assert search.territory(src, rival, flat) == want
        assert search.bfs(src, rival_cell) == dijkstra(cols, rows, costs, src, rival_cell, unit=True)
        assert search.territory(src, rival, flat) == want
        assert search.astar(src, rival_cell) == dijkstra(cols, rows, costs, src, rival_cell)


@settings(max_examples=400, deadline=None)
@given(boards)
def test_path_through_finds_exactly_the_neighbours_on_a_shortest_path(board):
    """After a BFS, a neighbour of the start lies on a shortest path exactly
    when its own distance to the end is one less; on_shortest says so (one
    read) and path_through as well, writing a shortest path through it (else
    leaving the path as it was)."""
    cols, rows, costs, src, dst = board
    costs = bytearray(costs)
    search = loaded(cols, rows, costs)
    moves = search.bfs(src, dst)
    if moves is None or moves == 0:
        for cell in range(cols * rows):
            assert not search.on_shortest(cell)
            assert not search.path_through(cell)
        return
    r, c = divmod(src, cols)
    for q, ok in ((src - 1, c > 0), (src + 1, c < cols - 1), (src - cols, r > 0),
                  (src + cols, r < rows - 1)):
        if not ok or not costs[q]:
            continue
        search.bfs(src, dst)
        before = search.path_cells()
        on_shortest = dijkstra(cols, rows, costs, q, dst, unit=True) == moves - 1
        assert search.on_shortest(q) == on_shortest
        assert search.path_cells() == before
        assert search.path_through(q) == on_shortest
        path = search.path_cells()
        if on_shortest:
            assert path[:2] == [src, q] and len(path) == moves + 1
            check_path(cols, rows, costs, path, src, dst)
        else:
            assert path == before
