"""The grid solvers and Cat & Mouse inside real MicroPython VMs: the same cases
as CPython with identical answers, and no allocation per call after the first."""

import random

import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS


def random_boards(count, seed):
    rng = random.Random(seed)
    boards = []
    for _ in range(count):
        cols, rows = rng.randint(1, 16), rng.randint(1, 10)
        costs = bytes(rng.choice((0, 1, 1, 1, 2, 3)) for _ in range(cols * rows))
        boards.append((cols, rows, costs, rng.randrange(cols * rows), rng.randrange(cols * rows)))
    return boards


SOLVE_BATCH = """
from gridpath import GridSearch
answers = []
for cols, rows, costs, src, dst in BOARDS:
    search = GridSearch(cols, rows)
    search.load(costs)
    moves = search.bfs(src, dst)
    bfs_path = search.path_cells()
    stamina = search.astar(src, dst)
    answers.append((moves, bfs_path, stamina, search.path_cells()))
    del search
emit('answers', answers)
"""


def cpython_answers(boards):
    """The same batch run on CPython."""
    got = {}
    exec(SOLVE_BATCH, {"BOARDS": boards, "emit": got.__setitem__})
    return got["answers"]


def test_vm_solves_the_same_boards_identically(vm):
    boards = random_boards(150, seed=7)
    result = vm("BOARDS = %r\n%s" % (boards, SOLVE_BATCH))
    assert result["answers"] == cpython_answers(boards)


def test_official_port_with_gc_on_agrees(node_vm):
    boards = random_boards(400, seed=11)
    result = node_vm("import gc\nassert gc.isenabled()\nBOARDS = %r\n%s" % (boards, SOLVE_BATCH))
    assert result["answers"] == cpython_answers(boards)


def test_seed_examples_in_the_vm(vm):
    result = vm("""
from catmouse import parse_map
from catmouse_maps import LEVELS
from gridpath import GridSearch
for index in (1, 2):
    m = parse_map(LEVELS[index][1])
    s = GridSearch(m.cols, m.rows)
    s.load(m.costs)
    emit('bfs%d' % index, (s.bfs(m.cat, m.mouse), s.path_len))
    emit('astar%d' % index, (s.astar(m.cat, m.mouse), s.path_len))
""")
    assert result["bfs1"] == (12, 13)
    assert result["astar2"][0] == 16


def test_searches_allocate_nothing_after_the_first_call(vm):
    result = vm("""
from array import array
from catmouse import parse_map
from catmouse_maps import LEVELS
from gridpath import FloodSearch
for cols, rows in ((16, 8), (64, 64)):
    s = FloodSearch(cols, rows)
    if cols == 16:
        s.load(parse_map(LEVELS[0][1]).costs)
    last = cols * rows - 1
    out = array('H', bytes(2 * len(s.cost)))
    calls = ((s.bfs, 0, last), (s.astar, 0, last), (s.bfs, 5, 3), (s.astar, last, 0),
             (s.distances, 0, out), (s.arrival_times, last, out), (s.territory, 0, out))
    for fn, a, b in calls:
        fn(a, b)
    emit('alloc%d' % cols, [measure(fn, a, b)[2] for fn, a, b in calls])
""")
    assert result["alloc16"] == [0] * 7
    assert result["alloc64"] == [0] * 7


def test_ai_moves_allocate_nothing_in_steady_state(vm):
    result = vm("""
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
game = CatMouseGame(parse_map(LEVELS[0][1]))
cat = catmouse_ai.AstarCat()
mouse = catmouse_ai.EvasiveMouse()
game.play_round(cat, mouse)
allocs = []
for _ in range(20):
    allocs.append(measure(game.play_round, cat, mouse)[2])
emit('allocs', allocs)
""")
    assert result["allocs"] == [0] * 20


def test_whole_game_in_the_vm_matches_cpython(vm):
    expected = {}
    for index in (0, 4):
        game = CatMouseGame(parse_map(LEVELS[index][1]), round_limit=40)
        game.play(catmouse_ai.AstarCat(), catmouse_ai.EvasiveMouse())
        rand = CatMouseGame(parse_map(LEVELS[index][1]), round_limit=40)
        rand.play(catmouse_ai.BfsCat(), catmouse_ai.RandomMover(5))
        expected[index] = (game.winner, game.round, game.cat, game.mouse, game.cat_stamina,
                           rand.winner, rand.round, rand.cat, rand.mouse)
    result = vm("""
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
for index in (0, 4):
    game = CatMouseGame(parse_map(LEVELS[index][1]), round_limit=40)
    game.play(catmouse_ai.AstarCat(), catmouse_ai.EvasiveMouse())
    rand = CatMouseGame(parse_map(LEVELS[index][1]), round_limit=40)
    rand.play(catmouse_ai.BfsCat(), catmouse_ai.RandomMover(5))
    emit('game%d' % index, (game.winner, game.round, game.cat, game.mouse, game.cat_stamina,
                            rand.winner, rand.round, rand.cat, rand.mouse))
""")
    for index in (0, 4):
        assert result["game%d" % index] == expected[index]


MALFORMED = ["C..\n..\n..M\n", "C..\n.x.\n..M\n", "C.C\n...\n..M\n", "...\n..M\n", "",
             "C..\n\n..M\n", "C" + "." * 64 + "\n" + "." * 64 + "M\n"]


def cpython_map_errors():
    from catmouse import MapError

    errors = []
    for text in MALFORMED:
        try:
            parse_map(text)
            errors.append(None)
        except MapError as exc:
            errors.append((str(exc), exc.line, exc.column))
    return errors


def test_map_errors_are_the_same_on_the_device(vm):
    result = vm("""
from catmouse import MapError, parse_map
errors = []
for text in %r:
    try:
        parse_map(text)
        errors.append(None)
    except MapError as exc:
        errors.append((str(exc), exc.line, exc.column))
emit('errors', errors)
""" % (MALFORMED,))
    assert result["errors"] == cpython_map_errors()


def test_bfs_cat_keeps_its_route_the_same_in_the_vm_allocating_nothing(vm):
    """The route-keeping BFS cat against a mouse stepping up and down: the
    same moves as on CPython, and nothing allocated per move after the first."""
    code = """
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
for index in (0, 3, 4):
    game = CatMouseGame(parse_map(LEVELS[index][1]))
    cat = catmouse_ai.BfsCat()
    cols = game.cols
    cells = []
    allocs = []
    while not game.winner and game.round < 40:
        game.round += 1
        legal = game.legal_moves('cat')
        move, fuel, alloc = measure(cat, game.board, game.cat, legal)
        allocs.append(alloc)
        game.move('cat', move)
        if game.winner:
            break
        up = game.mouse - cols if game.round % 2 else game.mouse + cols
        legal = game.legal_moves('mouse')
        game.move('mouse', up if up in legal else game.mouse)
        cells.append((game.cat, game.mouse))
    emit('game%d' % index, (cells, allocs[1:]))
"""
    result = vm(code)
    for index in (0, 3, 4):
        expected = {}
        exec(code.replace("measure(cat, game.board, game.cat, legal)",
                          "(cat(game.board, game.cat, legal), 0, 0)"),
             {"emit": expected.__setitem__})
        cells, allocs = result["game%d" % index]
        assert cells == expected["game%d" % index][0]
        assert allocs == [0] * len(allocs)
