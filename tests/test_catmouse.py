"""Cat & Mouse rules, map format, built-in AIs and the plug-in API (CPython)."""

import pytest

import catmouse_ai
import work
from catmouse import _OBSTACLE as OBSTACLE
from catmouse import CAT, MOUSE, CatMouseGame, MapError, parse_map
from catmouse_maps import LEVELS
from host_tools.commands.play_cmd import MOUSE_NAMES, difficulty_mouse

SEED = LEVELS[1][1]
SEED_TERRAIN = LEVELS[2][1]


def test_parse_seed_map():
    cmap = parse_map(SEED)
    assert (cmap.cols, cmap.rows, cmap.cat, cmap.mouse) == (8, 4, 0, 31)
    assert [i for i, c in enumerate(cmap.costs) if c == 0] == [3, 10, 13, 18, 28]
    assert not cmap.terrain
    terrain = parse_map(SEED_TERRAIN)
    assert terrain.terrain
    assert [i for i, c in enumerate(terrain.costs) if c == 2] == [1, 9, 15, 24]
    assert [i for i, c in enumerate(terrain.costs) if c == 3] == [20, 21, 23]


def test_map_round_trips_through_text():
    for _, text in LEVELS:
        assert parse_map(text).to_text() == text


def test_comments_and_surrounding_blank_lines_are_ignored():
    cmap = parse_map("\n; a comment\nC.\n.M\n\n\n")
    assert (cmap.cols, cmap.rows) == (2, 2)


@pytest.mark.parametrize("text, line, column, words", [
    ("C..\n..\n..M\n", 2, 3, "row has 2 cells but the first row has 3"),
    ("C..\n.x.\n..M\n", 2, 2, "unknown character 'x'"),
    ("C.C\n...\n..M\n", 1, 3, "a second cat"),
    ("C..\n.M.\n..M\n", 3, 3, "a second mouse"),
    ("C..\n\n..M\n", 2, 1, "blank line inside the map"),
    ("C" + "." * 64 + "\n" + "." * 64 + "M\n", 1, 65, "at most 64"),
])
def test_malformed_maps_name_line_and_column(text, line, column, words):
    with pytest.raises(MapError) as info:
        parse_map(text)
    assert (info.value.line, info.value.column) == (line, column)
    assert words in str(info.value)
    assert str(info.value).startswith("line %d, column %d: " % (line, column))


@pytest.mark.parametrize("text, words", [
    ("...\n..M\n", "no cat"),
    ("C..\n...\n", "no mouse"),
    ("", "empty"),
    ("C\n" + ".\n" * 63 + "M\n", "65 rows"),
])
def test_maps_missing_pieces_or_too_tall(text, words):
    with pytest.raises(MapError) as info:
        parse_map(text)
    assert words in str(info.value)


def test_round_order_capture_and_board_view():
    game = CatMouseGame(parse_map("C.M\n"))
    seen = {}

    def cat(board, position, legal):
        seen["flags"] = bytes(board.flags)
        seen["legal"] = list(legal)
        return position + 1

    def mouse(board, position, legal):
        seen["mouse_legal"] = sorted(legal)
        return position

    assert game.play_round(cat, mouse) is None
    assert seen["flags"] == bytes([CAT, 0, MOUSE]) and seen["legal"] == [1, 0]  # or wait
    assert seen["mouse_legal"] == [2]  # the cat's cell is never legal for the mouse
    assert game.play_round(cat, mouse) == "cat"
    assert (game.round, game.cat, game.cat_stamina) == (2, 2, 2)


def test_the_cat_may_wait_a_round_at_no_cost():
    """Either piece may stay (its own cell is the last legal one); a resting
    piece may only stay."""
    game = CatMouseGame(parse_map("C.g\n..M\n"))
    assert game.legal_moves("cat") == [1, 3, 0]
    assert game.legal_moves("mouse") == [4, 2, 5]
    game.play_round(lambda b, p, legal: p, lambda b, p, legal: 2)
    assert (game.cat, game.cat_stamina, game.cat_rest, game.winner) == (0, 0, 0, None)
    assert game.mouse_rest == 1 and game.legal_moves("mouse") == [2]


def test_round_limit_makes_the_mouse_win():
    game = CatMouseGame(parse_map("C#M\n"), round_limit=5)
    assert game.play(catmouse_ai.BfsCat(), catmouse_ai.EvasiveMouse()) == "mouse"
    assert game.round == 5


def test_illegal_answer_is_reported_and_the_piece_stays():
    game = CatMouseGame(parse_map("C..\n...\n..M\n"))
    errors = []
    game.play_round(lambda b, p, legal: 99, lambda b, p, legal: p)
    assert game.cat == 0 and "cat chose 99" in game.last_error
    game.play(lambda b, p, legal: 99, lambda b, p, legal: p,
              on_error=lambda r, m: errors.append(r))
    assert game.winner == "mouse" and len(errors) == game.round - 1


def test_obstacles_are_never_legal_and_view_marks_them():
    game = CatMouseGame(parse_map(SEED))
    assert game.board.flags[3] == OBSTACLE
    game.cat = 2
    assert 3 not in game.legal_moves("cat")


def test_terrain_costs_rounds_and_stamina():
    game = CatMouseGame(parse_map("Cw..M\n"))
    right = lambda board, position, legal: max(legal)  # noqa: E731
    stay = lambda board, position, legal: position  # noqa: E731
    game.play_round(right, stay)  # enters the stream: 3 stamina, rests 2 rounds
    assert (game.cat, game.cat_stamina, game.cat_rest) == (1, 3, 2)
    game.play_round(right, stay)
    game.play_round(right, stay)
    assert game.cat == 1
    game.play_round(right, stay)
    assert (game.cat, game.cat_stamina) == (2, 4)


def test_cats_take_optimal_first_steps():
    cmap = parse_map(SEED_TERRAIN)
    bfs_game = CatMouseGame(cmap, terrain=False)
    bfs_cat = catmouse_ai.BfsCat()
    assert bfs_cat(bfs_game.board, 0, bfs_game.legal_moves("cat")) in (1, 8)
    astar_cat = catmouse_ai.AstarCat()
    assert astar_cat(bfs_game.board, 0, [1, 8]) == 8  # grass at 1 is dearer


def test_strategy_factory():
    assert isinstance(catmouse_ai.make("astar"), catmouse_ai.AstarCat)
    with pytest.raises(ValueError):
        catmouse_ai.make("teleport")


def survival(cmap, mouse_kind, games):
    rounds = []
    for seed in range(games):
        game = CatMouseGame(cmap, round_limit=100)
        cat = catmouse_ai.AstarCat() if cmap.terrain else catmouse_ai.BfsCat()
        game.play(cat, catmouse_ai.make(mouse_kind, seed + 1))
        rounds.append(game.round)
    return sum(rounds) / len(rounds)


@pytest.mark.parametrize("level", [0, 3, 4])
def test_evasive_mouse_outlives_random_mouse(level):
    cmap = parse_map(LEVELS[level][1])
    random_rounds = survival(cmap, "random", 10)
    evasive_rounds = survival(cmap, "evasive", 2)
    assert evasive_rounds >= 2 * random_rounds


def test_evasive_mouse_thinks_in_slices_with_the_same_answers():
    cmap = parse_map(LEVELS[4][1])
    whole = CatMouseGame(cmap, round_limit=40)
    sliced = CatMouseGame(cmap, round_limit=40)
    cat_a, cat_b = catmouse_ai.AstarCat(), catmouse_ai.AstarCat()
    one_shot, stepped = catmouse_ai.EvasiveMouse(), catmouse_ai.EvasiveMouse()
    multi_step_moves = 0
    while not whole.winner:
        whole.play_round(cat_a, one_shot)
        sliced.round += 1
        sliced.move("cat", cat_b(sliced.board, sliced.cat, sliced.legal_moves("cat")))
        if sliced.winner:
            break
        legal = sliced.legal_moves("mouse")
        stepped.begin(sliced.board, sliced.mouse, legal)
        assert stepped.answer == work.NO_ANSWER
        steps = 1
        while not stepped.step():          # the cat's flood, then one per tied cell
            assert stepped.alone_next()    # each flood gets a tick of its own
            steps += 1
        multi_step_moves += steps > 2
        sliced.move("mouse", stepped.answer)
        assert (sliced.cat, sliced.mouse) == (whole.cat, whole.mouse)
    assert multi_step_moves > 0


def test_mouse_difficulties_are_the_handhelds():
    """`play catmouse --mouse easy|normal|hard` plays the handheld's mice
    (Match.start's): random, then the evasive mouse slipping one move in
    MOUSE_SLIPS[diff], whose Rng undo keeps."""
    import catmouse_match
    m = catmouse_match.Match(3)
    assert isinstance(difficulty_mouse("easy", 3), catmouse_ai.RandomMover)
    m.start(0, None, "cat", 0, 0)
    assert isinstance(m.ai.strategy, catmouse_ai.RandomMover) and m.ai_state is m.ai.strategy.rng
    for diff, name in ((1, "normal"), (2, "hard")):
        mouse = difficulty_mouse(name, 3)
        m.start(0, None, "cat", diff, 0)
        assert mouse.slip == m.ai.slip == catmouse_ai.MOUSE_SLIPS[diff] > 1
        assert m.ai_state is m.ai.rng
    game = CatMouseGame(parse_map(LEVELS[0][1]))
    legal = game.legal_moves("mouse")
    slips = 0
    mouse = difficulty_mouse("normal", 5)
    for _ in range(200):
        mouse.begin(game.board, game.mouse, legal)
        slips += mouse.answer != work.NO_ANSWER           # drawn before any flood
        while not mouse.step():
            pass
        assert mouse.answer in legal
    assert 30 <= slips <= 70                               # one in four


def test_a_shortest_path_chaser_catches_the_easy_and_normal_mice():
    """The plug-in chaser (host_tools/games/catmouse_chaser.py, called here
    in-process) against each difficulty's mouse on every built-in map: most
    EASY and NORMAL games caught, fewer HARD ones (`make bench` prints the
    rates over more games, through the plug-in runner)."""
    from host_tools.games import catmouse_chaser

    caught = {}
    for level in range(len(LEVELS)):
        cmap = parse_map(LEVELS[level][1])
        for diff, name in enumerate(MOUSE_NAMES):
            won = 0
            for seed in range(1, 9):
                game = CatMouseGame(cmap)
                game.play(catmouse_chaser.chase, difficulty_mouse(name, seed))
                won += game.winner == "cat"
            caught[level, diff] = won
    assert all(caught[level, diff] >= 5 for level in range(len(LEVELS)) for diff in (0, 1)), caught
    assert sum(caught[level, 2] for level in range(len(LEVELS))) < sum(
        caught[level, 1] for level in range(len(LEVELS))), caught


def test_the_chaser_runs_as_a_plug_in():
    from host_tools.commands.play_cmd import PluginPiece, play_game

    chaser = PluginPiece("host_tools.games.catmouse_chaser:chase", "cat", 10.0)
    try:
        game = CatMouseGame(parse_map(LEVELS[0][1]))
        assert play_game(game, chaser, difficulty_mouse("easy", 1)) is None
        assert game.winner == "cat"
    finally:
        chaser.close()
