"""Cat & Mouse's watch mode (firmware/catmouse_watch.py): the expansion order it
reads back from the games' own searches is the order they ran in, the keys do
what the screen says, and a tick of watching allocates nothing in the
MicroPython VM."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import catmouse  # noqa: E402
import catmouse_game  # noqa: E402
import catmouse_maps  # noqa: E402
import catmouse_watch  # noqa: E402
import gamectx  # noqa: E402
import gridpath_order  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402
from gridpath import GridSearch  # noqa: E402

from host_tools.emulation import mpvm, runtime_vm  # noqa: E402
from host_tools.games import catmouse_trace  # noqa: E402


def _random_grid(rng, cols, rows, blocked):
    costs = [0 if rng.random() < blocked else rng.choice((1, 1, 2, 3)) for _ in range(cols * rows)]
    return costs


def _searches(seed, n):
    rng = random.Random(seed)
    for _ in range(n):
        cols = rng.randint(1, 16)
        rows = rng.randint(1, 8)
        costs = _random_grid(rng, cols, rows, rng.choice((0.0, 0.2, 0.35)))
        yield costs, cols, rows, rng.randrange(cols * rows), rng.randrange(cols * rows)


def test_astar_order_read_back_is_the_order_astar_closed_cells_in():
    """Replayed from parent/g/came: the same cells in the same order as a
    ``came`` that records A*'s closing writes (the trace's)."""
    compared = 0
    for costs, cols, rows, src, dst in _searches(1, 600):
        plain = GridSearch(cols, rows)
        plain.load(costs)
        recorded = GridSearch(cols, rows)
        recorded.load(costs)
        closed = []
        recorded.came = catmouse_trace._ClosingList(recorded.came, closed.append)
        recorded.astar(src, dst)
        plain.astar(src, dst)
        order = gridpath_order.SearchOrder(plain)
        order.read_astar(src, dst)
        got = list(order.cells[:order.count])
        if src == dst or not costs[src] or not costs[dst]:
            assert got == []
            continue
        assert got == closed, (cols, rows, src, dst)
        compared += len(closed) > 5
    assert compared > 150


def test_bfs_order_read_back_is_the_queue_up_to_the_cell_that_reached_the_source():
    for costs, cols, rows, src, dst in _searches(2, 600):
        s = GridSearch(cols, rows)
        s.load(costs)
        found = s.bfs(src, dst)
        order = gridpath_order.SearchOrder(s)
        order.read_bfs(src, dst)
        got = list(order.cells[:order.count])
        if src == dst or not costs[src] or not costs[dst]:
            assert got == []
            continue
        want = [p for p, _ in catmouse_trace._default_bfs_expansions(s, s.pad[src], s.pad[dst])]
        assert got == want
        if found is not None:
            # the last expansion reached the source, on a shortest path
            assert s.pad[s.path[1]] == got[-1] or found == 1
            assert s.path[found] == dst


class Ctx(gamectx.FakeCtx):
    def __init__(self, difficulty=1):
        gamectx.FakeCtx.__init__(self, difficulty)
        self.frame = bytearray(1024)
        self.ticks = 0

    def tick_no(self):
        return self.ticks


def _watch(difficulty=1, level=0):
    ctx = Ctx(difficulty)
    g = catmouse_game.Scene(ctx)
    for _ in range(level):
        gamectx.tap(g, ctx, DOWN)
    gamectx.tap(g, ctx, LEFT)                      # mouse -> watch (LEFT goes back)
    assert g.title.lines[0] == "PLAY AS: < WATCH >"
    gamectx.press(g, ctx, A)
    assert g.screen is g.watch and g.watch.phase == catmouse_watch.LOAD
    assert isinstance(g.watch, catmouse_watch.WatchScreen)
    key = g.frame_key()                             # the title stays while it loads
    collects = ctx.collects
    gamectx.tick(g, ctx)                            # the heap collected
    assert ctx.collects == collects + 1
    gamectx.tick(g, ctx)                            # the map
    gamectx.tick(g, ctx)                            # the grid, the terrain
    assert g.frame_key() == key
    gamectx.tick(g, ctx)                            # the grid loaded, the mouse
    gamectx.tick(g, ctx)                            # the order readers
    gamectx.tick(g, ctx)                            # the sprites
    assert g.frame_key() == key
    gamectx.tick(g, ctx)                            # the new board drawn
    assert g.watch.phase == catmouse_watch.TURN and g.frame_key() is None
    return ctx, g


def _status(g):
    return bytes(g.view.status).decode()


def test_title_cycles_mouse_cat_watch():
    ctx = Ctx()
    g = catmouse_game.Scene(ctx)
    sides = []
    for _ in range(3):
        gamectx.tap(g, ctx, RIGHT)
        sides.append(g.side)
    assert sides == ["cat", "watch", "mouse"]
    gamectx.tap(g, ctx, LEFT)
    assert g.side == "watch"


def test_a_watched_game_shows_each_search_then_moves_and_ends():
    ctx, g = _watch()
    w = g.watch
    fb = framebuf.FrameBuffer(ctx.frame, 128, 64, framebuf.MONO_VLSB)
    searches = 0
    last_phase = None
    while w.phase != catmouse_watch.DONE:
        phase = w.phase
        if phase == catmouse_watch.SEARCH and last_phase != phase:
            searches += 1
            assert w.shown == 0 and _status(g).startswith("A* EXP0 LEN- ")
        if phase == catmouse_watch.PATH:
            s = w.order.search
            assert w.shown == w.order.count
            assert " LEN%d " % (s.path_len - 1) in _status(g)
            assert s.path[0] == g.match.game.cat and s.path[s.path_len - 1] == g.match.game.mouse
        last_phase = phase
        gamectx.tick(g, ctx)
        ctx.ticks += 1
        g.draw(fb)
        assert ctx.ticks < 5000
    assert searches >= 5 and g.match.game.winner
    assert _status(g).startswith(("CAUGHT! R", "ESCAPED! R"))
    assert ctx.saved == {}                           # watching wins nothing
    for _ in range(catmouse_watch.DONE_TICKS):
        gamectx.tick(g, ctx)
    assert w.phase == catmouse_watch.LOAD                           # the next game
    for _ in range(8):
        gamectx.tick(g, ctx)
    assert w.phase == catmouse_watch.SEARCH and g.match.game.round == 1


def test_pause_step_speed_algorithm_board_and_back():
    ctx, g = _watch()
    w = g.watch
    gamectx.tick(g, ctx)
    assert w.phase == catmouse_watch.SEARCH and w.astar == 1 and g.match.game.terrain
    gamectx.press(g, ctx, A)                         # pause
    shown = w.shown
    for _ in range(10):
        gamectx.tick(g, ctx)
    assert w.shown == shown and _status(g).endswith(" SP3 PAUSE")
    gamectx.press(g, ctx, RIGHT)                     # one cell
    assert w.shown == shown + 1 and "EXP%d " % (shown + 1) in _status(g)
    gamectx.press(g, ctx, UP)
    assert _status(g).endswith(" SP4 PAUSE")
    gamectx.press(g, ctx, LEFT)                      # BFS: the same turn searched again
    assert w.astar == 0 and w.shown == 0 and _status(g).startswith("BFS EXP0 ")
    bfs_count = w.order.count
    gamectx.press(g, ctx, A)                         # run, 4 cells a tick
    gamectx.tick(g, ctx)
    assert w.shown == min(4, bfs_count)             # the first tick: the terrain back
    for speed, cells in ((5, 16), (1, 0), (2, 1)):
        gamectx.press(g, ctx, UP)
        assert " SP%d" % speed in _status(g) and catmouse_watch._CELLS[w.speed] == cells
    gamectx.press(g, ctx, DOWN)                      # next map, a new game
    for _ in range(7):
        gamectx.tick(g, ctx)
    assert g.level == 1 and g.match.game.round == 0 and w.phase == catmouse_watch.TURN
    assert g.match.cmap.costs == catmouse.parse_map(catmouse_maps.LEVELS[1][1]).costs
    gamectx.press(g, ctx, B)
    assert g.screen is g.title
    assert g.title.lines[1] == "MAP:     %s" % catmouse_maps.LEVELS[1][0].upper()


def test_the_drawing_stays_in_the_terrain_frame():
    """Shades, frontier boxes and the path go into the scene's terrain copy, and
    the next search starts again from the clean terrain."""
    ctx, g = _watch(level=1)
    w = g.watch
    clean = bytes(w.terrain)
    assert bytes(g.view.bg) == clean
    while w.phase != catmouse_watch.PATH:
        gamectx.tick(g, ctx)
    assert bytes(g.view.bg) != clean
    for _ in range(3):
        gamectx.press(g, ctx, UP)                   # slow: one cell every 4 ticks
    assert catmouse_watch._CELLS[w.speed] == 0
    while w.phase != catmouse_watch.SEARCH:
        gamectx.tick(g, ctx)
    gamectx.tick(g, ctx)
    assert w.shown == 0 and bytes(g.view.bg) == clean


# -- no allocation per tick, in the MicroPython VM ---------------------------------------

VM_WATCH = r"""
import games
rt.settings['difficulty'] = 1
idle(3)
tap(buttons.DOWN, [e[0] for e in games.GAMES].index('catmouse'))
tap(buttons.A)                  # the Cat & Mouse title screen
idle(2)
g = rt.screen
tap(buttons.LEFT)               # PLAY AS: WATCH
tap(buttons.A)
idle(3)
w = g.watch
keys = {40: buttons.UP, 80: buttons.UP, 120: buttons.LEFT, 200: buttons.A, 210: buttons.RIGHT,
        220: buttons.A, 300: buttons.DOWN, 400: buttons.UP}
ticks = []
m = g.match
game = m.game
for k in range(MAX_TICKS):
    press(keys.get(k, 0))
    alloc = measure(rt.step)[2]
    CLOCK[0] += 33
    ticks.append((alloc, w.phase, w.shown, m.game.round, w.astar, m.game is not game))
    game = m.game
emit('ticks', ticks)
"""


@pytest.mark.parametrize("max_ticks", [600])
def test_no_allocation_per_tick_of_watching_in_the_micropython_vm(max_ticks):
    with runtime_vm.staged_firmware() as fw:
        r = mpvm.run(runtime_vm.SETUP + "MAX_TICKS = %d\n" % max_ticks + VM_WATCH, input_dir=fw)
    ticks = r["ticks"]
    phases = {t[1] for t in ticks}
    assert phases >= {catmouse_watch.SEARCH, catmouse_watch.PATH, catmouse_watch.MOUSE}
    assert max(t[3] for t in ticks) >= 5 and {t[4] for t in ticks} == {0, 1}
    assert any(t[5] for t in ticks[300:306])         # DOWN: the next board
    # allocation only on the ticks that load a new game (the map parsed, a
    # CatMouseGame made: the next board, or the next game after a result)
    loading = [t[1] == catmouse_watch.LOAD or t[5] for t in ticks]
    allocs = [(i, t) for i, t in enumerate(ticks) if t[0] and not (loading[i] or loading[i - 1])]
    assert allocs == [], allocs[:5]
