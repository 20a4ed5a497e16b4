"""Cat & Mouse's scene on the shared contracts: one object per screen, the
match (the model play and the watch mode share), every AI a task run by a
work.Job, and every ending through ctx.finish (a lost game leaves nothing to
CONTINUE), on CPython (FakeCtx) and in the simulator."""

import ast
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import catmouse  # noqa: E402
import catmouse_ai  # noqa: E402
import catmouse_maps  # noqa: E402
import catmouse_records  # noqa: E402
import catmouse_game  # noqa: E402
import catmouse_match  # noqa: E402
import gamectx  # noqa: E402
import gamelevels  # noqa: E402
import work  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402

from host_tools.emulation import sim as simmod  # noqa: E402
from host_tools.core.keyscript import parse_keys  # noqa: E402

FIRMWARE = Path(__file__).resolve().parent.parent / "firmware"
# the launcher, then Cat & Mouse's title, then play as the mouse, which runs
# left and right until the cat catches it
CAUGHT_SCRIPT = "wait:10 a wait:20 a wait:10 " + " ".join(["left wait:6 right wait:6"] * 48)


class Ctx(gamectx.FakeCtx):
    def __init__(self, difficulty=1):
        gamectx.FakeCtx.__init__(self, difficulty)
        self.game_id = "catmouse"
        self.frame = bytearray(1024)

    def tick_no(self):
        return 0


def _scene(ctx, side="mouse"):
    g = catmouse_game.Scene(ctx)
    ctx.game = g                    # ctx.save_game() stores g's snapshot
    if side == "cat":
        gamectx.tap(g, ctx, RIGHT)
    gamectx.tap(g, ctx, A)
    while g.held is not None:       # the start's ticks (begin_play): no play in them
        gamectx.tick(g, ctx)
    assert g.screen is g.play and g.match.side == side
    return g


def _play_until_the_end(g, ctx, keys, limit=3000):
    k = 0
    while g.screen is g.play:
        gamectx.tick(g, ctx, down=keys[(k // 3) % len(keys)] if k % 3 == 0 else 0)
        k += 1
        assert k < limit
    assert g.screen is g.end


def test_one_object_per_screen_and_no_state_dispatch():
    ctx = Ctx()
    g = catmouse_game.Scene(ctx)
    assert g.screen is g.title and isinstance(g.error_screen, gamelevels.PackErrorScreen)
    assert isinstance(g.levels, gamelevels.Levels) and g.n_levels() == g.levels.count()
    assert g.title.lines[1].startswith("MAP:")
    source = (FIRMWARE / "catmouse_game.py").read_text()
    assert "state ==" not in source and "hasattr" not in source


def test_a_caught_mouse_leaves_no_game_in_progress():
    """The bug this fixes: a lost game stored nothing at its end, so the move
    before it stayed in the play save (CONTINUE one move before the end)."""
    ctx = Ctx()
    ctx.saved["catmouse"] = {"wins_mouse": 2, "wins_cat": 1, "best_catch": 9}   # an old save
    g = _scene(ctx, "mouse")
    _play_until_the_end(g, ctx, (A,))                   # the mouse stays put: caught
    assert g.match.game.winner == "cat" and g.end.banner == b"CAUGHT!"
    assert ctx.saved["catmouse/play"] == {} and ctx.finishes == 1
    lasted = g.match.game.round
    garden = [0] * catmouse_records.MAP_RECORD             # NORMAL, as the mouse: lost, lasted
    garden[catmouse_records._MAP_DIFF + 1:catmouse_records._MAP_DIFF + 3] = [1, lasted]
    assert ctx.saved["catmouse"] == {"wins_mouse": 2, "wins_cat": 1, "best_catch": 9,
                                     "lost_mouse": 1, "maps": {"Garden": garden}}
    assert g.snapshot() is None
    ctx.save_game()                                     # nothing comes back
    assert ctx.saved["catmouse/play"] == {}
    gamectx.tap(g, ctx, B)                              # the title: still nothing
    assert g.screen is g.title and g.snapshot() is None
    assert g.title.lines[2:] == ("NORMAL: WON 0 LOST 1 BEST %d" % lasted,
                                 "ALL MAPS: WINS MOUSE 2  CAT 1")


def test_a_won_game_as_the_cat_keeps_the_fastest_catch():
    ctx = Ctx(difficulty=0)                             # a random mouse
    ctx.saved["catmouse"] = {"best_catch": 99, "lost_cat": 3}
    g = _scene(ctx, "cat")
    c = g.match.game
    chase = catmouse_ai.BfsCat()
    k = 0
    while g.screen is g.play:                           # the player's cat chases it (BFS)
        down = 0
        if k % 3 == 0 and not g.match.round_started:
            d = chase(c.board, c.cat, c.legal_moves("cat")) - c.cat
            down = (A if d == 0 else LEFT if d == -1 else RIGHT if d == 1
                    else UP if d < 0 else DOWN)
        gamectx.tick(g, ctx, down=down)
        k += 1
        assert k < 3000
    assert c.winner == "cat" and g.end.banner == b"YOU CAUGHT IT!"
    garden = [0] * catmouse_records.MAP_RECORD             # EASY, as the cat: won, fastest
    garden[3:6] = [1, 0, c.round]
    assert ctx.saved["catmouse"] == {"wins_cat": 1, "best_catch": c.round, "lost_cat": 3,
                                     "maps": {"Garden": garden}}
    assert c.round < 99
    gamectx.tap(g, ctx, B)
    assert g.title.lines[2] == "EASY: WON 1 LOST 0 BEST %d" % c.round
    assert ctx.saved["catmouse/play"] == {} and ctx.finishes == 1 and g.snapshot() is None


def test_a_as_the_cat_waits_a_round():
    """The cat may wait as the mouse may stay: A keeps it on its cell, costs
    no stamina, and the round goes on to the mouse; undo takes it back."""
    ctx = Ctx(difficulty=0)
    g = _scene(ctx, "cat")
    c = g.match.game
    cat = c.cat
    gamectx.tap(g, ctx, A)
    assert c.cat == cat and c.cat_stamina == 0 and c.round == 1 and ctx.toasts == []
    for _ in range(catmouse_game._AI_DELAY + 3):
        gamectx.tick(g, ctx)
    assert not g.match.round_started and g.undo_ring.count == 1      # the mouse answered
    gamectx.tap(g, ctx, RIGHT)
    assert c.cat == cat + 1 and c.round == 2


def test_an_ai_out_of_memory_shows_the_toast_and_plays_on(monkeypatch):
    """The evasive mouse's slice raises MemoryError: the job's one toast, the
    mouse makes a legal move (it stays), the game goes on."""
    def no_room(self):
        raise MemoryError

    monkeypatch.setattr(catmouse_ai.EvasiveMouse, "step", no_room)
    ctx = Ctx(difficulty=1)
    g = _scene(ctx, "cat")
    c = g.match.game
    mouse = c.mouse
    gamectx.tap(g, ctx, RIGHT)
    for _ in range(catmouse_game._AI_DELAY + 1):
        gamectx.tick(g, ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"]
    assert c.mouse == mouse and c.round == 1 and not g.match.round_started
    assert g.screen is g.play and not g.match.thinking()
    gamectx.tap(g, ctx, RIGHT)                          # the next round plays
    assert c.round == 2


def test_every_ai_is_a_task_and_plain_strategies_are_wrapped():
    """A plug-in style callable, wrapped once, plays through the match's job."""
    ctx = Ctx()
    m = catmouse_match.Match(7)
    m.new_game(0, None, "cat")
    calls = []

    def plugin(board, position, legal):                 # docs/plugins.md's signature
        calls.append(position)
        return legal[-1]

    m.use_ai(catmouse_ai.StrategyTask(plugin), None)
    m.begin_round()
    m.move("cat", m.game.legal_moves("cat")[0])
    legal = list(m.game.legal_moves("mouse"))
    assert m.ai_move(ctx, "mouse") and m.game.mouse == legal[-1] and calls == [m.game.map.mouse]
    for side in ("mouse", "cat"):
        for diff in (0, 1, 2):
            m.start(0, None, side, diff, 5)
            task = m.ai
            assert isinstance(task, (catmouse_ai.StrategyTask, catmouse_ai.EvasiveMouse))
            job = work.Job()
            c = m.game
            here = c.mouse if side == "cat" else c.cat
            task.begin(c.board, here, c.legal_moves("mouse" if side == "cat" else "cat"))
            job.start(task)
            assert job.run(ctx) == work.DONE          # a clock that never runs out: one run
            assert task.answer in c.legal_moves("mouse" if side == "cat" else "cat")


def _imports(name):
    tree = ast.parse((FIRMWARE / (name + ".py")).read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_no_import_circle_between_play_and_watch():
    assert "catmouse_game" not in _imports("catmouse_watch")
    for leaf in ("catmouse_match", "catmouse_view"):
        assert not _imports(leaf) & {"catmouse_game", "catmouse_watch"}
    source = (FIRMWARE / "catmouse_watch.py").read_text()
    assert "scene._" not in source and ".play" not in source


@pytest.mark.parametrize("keys", [CAUGHT_SCRIPT])
def test_a_lost_game_offers_no_continue_in_the_simulator(keys):
    s = simmod.Simulator()
    rt = s.runtime
    for k in parse_keys(keys):
        s.step(k)
    g = rt.game
    assert g.screen is g.end and g.end.banner == b"CAUGHT!"
    assert rt.resumable == [] and "resume" not in rt.saves.load("catmouse/play")[0]
    assert rt.saves.load("catmouse")[0]["lost_mouse"] == 1            # the records show it
    for k in parse_keys("b wait:2 b wait:2"):
        s.step(k)
    assert rt.screen is rt.launcher and rt.resumable == []
    assert not rt.launcher._saved_game(rt.launcher.sel)               # no "*", no CONTINUE
    for k in parse_keys("a wait:3"):
        s.step(k)
    assert rt.game.screen is rt.game.title                            # a fresh start


# the launcher, the title (DOWN picks the map), then play as the mouse, which
# steps up and down: the NORMAL cat used to turn back and forth on ties
UPDOWN = " ".join(["up wait:6 down wait:6"] * 48)


@pytest.mark.parametrize("level", range(len(catmouse_maps.LEVELS)))
def test_the_normal_cat_catches_the_up_down_mouse(level):
    """The script alone ends in the cat's win on every built-in map.  A mouse
    that moves every round keeps the parity of its distance to the cat (a
    cat that had to move every round caught it only where a rest on grass
    changed it, Garden and Seed A*, and elsewhere cornered it, both keys
    refused, never caught): the NORMAL cat waits a round when the mouse is
    two moves away and has just moved, and steps onto it a round or two
    later."""
    s = simmod.Simulator()
    rt = s.runtime
    keys = parse_keys("wait:10 a wait:20 " + "down wait:2 " * level + "a wait:10 " + UPDOWN)
    for k in keys:
        s.step(k)
        g = rt.game
        if g is not None and g.screen is g.end:
            break
    for _ in range(2):                   # the end's two writes, one after each light tick
        s.step(())
    g = rt.game
    c = g.match.game
    assert g.level == level and rt.settings["difficulty"] == 1
    assert g.screen is g.end and c.winner == "cat" and g.end.banner == b"CAUGHT!"
    assert c.cat == c.mouse and c.round < c.round_limit // 2
    assert rt.saves.load("catmouse")[0].get("lost_mouse") == 1


def test_the_normal_cat_waits_only_for_a_mouse_on_the_move():
    """Two moves from a mouse that has just moved (and owes no rest) the BFS
    cat waits; from one that stayed, or that must rest, it steps on; the
    article's demo (a mouse that never moves) is caught in 12 rounds as
    before."""
    cmap = catmouse.parse_map("C.M..\n.....\n")
    g = catmouse.CatMouseGame(cmap)
    cat = catmouse_ai.BfsCat()
    assert cat(g.board, 0, g.legal_moves("cat")) == 0            # never seen: it has moved
    assert cat(g.board, 0, g.legal_moves("cat")) == 1            # it stayed: on
    g.cat, g.mouse = 1, 3
    g.board._place(1, 3)
    assert cat(g.board, 1, g.legal_moves("cat")) == 1            # it moved: wait
    g.cat, g.mouse = 1, 8
    g.board._place(1, 8)
    g.board.mouse_rest = 1
    assert cat(g.board, 1, g.legal_moves("cat")) in (2, 6)       # it must rest: on
    seed = catmouse.CatMouseGame(catmouse.parse_map(catmouse_maps.LEVELS[1][1]))
    assert seed.play(catmouse_ai.BfsCat(), lambda b, p, legal: p) == "cat" and seed.round == 12


def test_the_bfs_cat_keeps_its_route_through_undo_and_a_saved_game():
    """What undo and the play save keep of the BFS cat (its route's end) puts
    the same route back: the same moves replay the same cat."""
    cmap = catmouse.parse_map(catmouse_maps.LEVELS[3][1])
    m = catmouse_match.Match(3)
    ctx = Ctx()
    m.start(3, None, "mouse", 1, 0)
    cat = m.ai.strategy
    assert m.ai_state is cat
    g = m.game
    seen = []
    for r in range(12):
        m.begin_round()
        assert m.ai_move(ctx, "cat")
        seen.append(g.cat)
        m.push_round()
        m.move("mouse", g.mouse - g.cols if r % 2 == 0 else g.mouse + g.cols)
        m.end_round()
    assert cat.state and len(set(seen)) == len(seen)     # never back to a cell it left
    for _ in range(6):
        assert m.undo()
    again = catmouse_match.Match(3)
    again.start(3, None, "mouse", 1, 0)
    again.ai_state.state = cat.state                # a fresh cat, as after CONTINUE
    again.game.cat, again.game.mouse = g.cat, g.mouse
    again.game.board._place(g.cat, g.mouse)
    for mm in (m, again):                           # the rounds after the 7th again
        for r in range(6, 11):
            mm.move("mouse", mm.game.mouse - cmap.cols if r % 2 == 0 else mm.game.mouse + cmap.cols)
            mm.end_round()
            mm.begin_round()
            assert mm.ai_move(ctx, "cat")
            assert mm.game.cat == seen[r + 1]


def test_records_per_map_and_difficulty_and_an_old_save_read_into_them():
    """A save from before the records per map (the totals only) is read as
    it was: nothing lost, its totals still counted.  Each game adds to its
    map's record at its difficulty and side; the best catch is the fewest
    rounds; a pack map is keyed by its text; a bad entry is dropped alone."""
    ctx = Ctx(difficulty=2)
    old = {"wins_mouse": 4, "wins_cat": 2, "lost_mouse": 1, "lost_cat": 5, "best_catch": 20}
    ctx.saved["catmouse"] = dict(old)
    g = catmouse_game.Scene(ctx)
    assert g.saved == old and ctx.toasts == []
    assert g.title.lines[2:] == ("HARD: NO RECORD YET", "ALL MAPS: WINS MOUSE 4  CAT 2")
    m = g.match
    for side, level, winner, rounds in (("cat", 3, "cat", 30), ("cat", 3, "cat", 25),
                                        ("cat", 3, "cat", 40), ("cat", 3, "mouse", 96),
                                        ("mouse", 3, "mouse", 96), ("cat", 0, "cat", 18)):
        g.side, g.level = side, level
        g.start_play()
        m.game.winner, m.game.round = winner, rounds
        g.end_game(ctx)
    saved = ctx.saved["catmouse"]
    assert {k: saved[k] for k in old} == {"wins_mouse": 5, "wins_cat": 6, "lost_mouse": 1,
                                          "lost_cat": 6, "best_catch": 18}
    hard = 2 * catmouse_records._MAP_DIFF
    assert saved["maps"]["Courtyard"][hard:hard + 6] == [1, 0, 96, 3, 1, 25]
    assert saved["maps"]["Garden"][hard + 3:hard + 6] == [1, 0, 18]
    assert sum(saved["maps"]["Courtyard"]) == sum([1, 96, 3, 1, 25])   # other difficulties: 0
    g.side, g.level = "cat", 3
    g.title.refresh()
    assert g.title.lines[2] == "HARD: WON 3 LOST 1 BEST 25"
    g.show_level("C..\n.#.\n..M\n")                  # a map from a pack
    m.game.winner, m.game.round = "cat", 3
    g.end_game(ctx)
    key = catmouse_records.map_key(0, "C..\n.#.\n..M\n")
    saved = ctx.saved["catmouse"]
    assert key.startswith("P") and len(key) == 9 and saved["maps"][key][hard + 3:hard + 6] == [1, 0, 3]
    # read back through the schema, one entry damaged: only it goes
    ctx2 = Ctx(difficulty=2)
    ctx2.saved["catmouse"] = dict(saved, maps=dict(saved["maps"], Streams=[1, 2]))
    again = catmouse_game.Scene(ctx2)
    assert again.saved == saved and ctx2.toasts == ["RECORDS RESET"]


def test_records_keep_at_most_max_maps():
    ctx = Ctx()
    ctx.saved["catmouse"] = {"maps": {"P%08d" % i: [0] * catmouse_records.MAP_RECORD
                                      for i in range(catmouse_records.MAX_MAPS)}}
    g = catmouse_game.Scene(ctx)
    g.start_play()
    g.match.game.winner = "cat"
    g.end_game(ctx)
    assert "Garden" not in ctx.saved["catmouse"]["maps"]
    assert ctx.saved["catmouse"]["lost_mouse"] == 1


@pytest.mark.parametrize("way", ["end", "watch"])
def test_the_title_comes_back_over_two_ticks_as_it_is_drawn_anew(way):
    """B on the end screen or in the watch mode: the title's lines (and its
    picture, into the map view's terrain frame) are made in that tick with
    the frame on show kept, the next tick's frame is a copy of that picture,
    pixel for pixel the title drawn anew; later frames are drawn as before."""
    import framebuf

    ctx = Ctx()
    fb = framebuf.FrameBuffer(ctx.frame, 128, 64, framebuf.MONO_VLSB)
    if way == "end":
        g = _scene(ctx, "mouse")
        _play_until_the_end(g, ctx, (A,))
    else:
        g = catmouse_game.Scene(ctx)
        gamectx.tap(g, ctx, LEFT)                       # PLAY AS: WATCH
        gamectx.tap(g, ctx, A)
        for _ in range(20):
            gamectx.tick(g, ctx)
        assert g.screen is g.watch and g.view.bg is not None
    g.draw(fb)
    shown = bytes(ctx.frame)
    key = g.frame_key()
    gamectx.tick(g, ctx, down=B)
    assert g.screen is g.title and g.held is not None and g.title.painted
    assert g.frame_key() != key                         # drawn: nothing, the frame on show stays
    g.draw(fb)
    assert bytes(ctx.frame) == shown
    gamectx.tick(g, ctx, up=B)
    assert g.held is None and g.title.painted
    g.draw(fb)                                          # the copy
    assert not g.title.painted
    copied = bytes(ctx.frame)
    ctx.frame[:] = bytes(1024)
    g.draw(fb)                                          # drawn anew
    assert bytes(ctx.frame) == copied != shown
