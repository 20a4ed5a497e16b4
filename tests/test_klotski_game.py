"""Klotski scene (firmware/klotski_game.py) with scripted buttons, the table cache
(firmware/klotski_cache.py), the host commands and a run in the MicroPython VM."""

import errno
import os
import shutil
import sys
from collections import deque
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host_tools" / "emulation" / "hostfb"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import klotski  # noqa: E402
import klotski_cache  # noqa: E402
import klotski_filetable  # noqa: E402
import klotski_game as kg  # noqa: E402
import klotski_levels  # noqa: E402
import undoring  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402
from gamectx import FakeCtx, chord, hold, press, release, tap, tick  # noqa: E402
from host_tools.emulation.guestctx import GUEST_CTX  # noqa: E402

CLASSIC = "VBBV/VBBV/VHHV/VSSV/S..S"
# its place in the list (ordered by optimal steps)
CLASSIC_AT = [klotski_levels.level(i)[1] for i in range(klotski_levels.count())].index(CLASSIC)
DIRS = {-1: LEFT, 1: RIGHT, -4: UP, 4: DOWN}


def menu(g, ctx, item):
    """Hold B for the pause menu, then its line ``item`` (a label)."""
    hold(g, ctx, B)
    assert g.pause.shown and g.screen is g.play_screen
    for _ in range(g.pause.items.index(item)):
        tap(g, ctx, DOWN)
    tap(g, ctx, A)


def cursor_path(g, target_anchor):
    """Arrow presses that bring the cursor onto the piece anchored at target_anchor."""
    start = g.play_screen.cursor
    seen = {start: None}
    q = deque([start])
    keep = g.play_screen.cursor
    while q:
        c = q.popleft()
        if g.own[c] == target_anchor:
            path = []
            while seen[c] is not None:
                c, d = seen[c]
                path.append(d)
            g.play_screen.cursor = keep
            return path[::-1]
        for d in (-1, 1, -4, 4):
            g.play_screen.cursor = c
            g.play_screen.move_cursor(d)
            n = g.play_screen.cursor
            if n not in seen:
                seen[n] = (c, d)
                q.append(n)
    g.play_screen.cursor = keep
    raise AssertionError("piece %d unreachable" % target_anchor)


def play_move(g, ctx, frm, to):
    """Play one solver move (piece anchored at frm to anchor to) with the buttons."""
    for d in cursor_path(g, frm):
        tap(g, ctx, DIRS[d])
    assert g.own[g.play_screen.cursor] == frm
    tap(g, ctx, A)
    assert g.play_screen.grabbed
    # path for the anchor: one or two cells, maybe around a corner
    delta = to - frm
    if delta in DIRS:
        seq = [delta]
    elif delta in (-2, 2, -8, 8):
        seq = [delta // 2] * 2
    else:
        dx = (to % 4) - (frm % 4)
        dy = (to // 4) - (frm // 4)
        h, v = (1 if dx > 0 else -1), (4 if dy > 0 else -4)
        seq = [h, v] if klotski.can_shift(g.cells, g.own, frm, h) else [v, h]
    a = frm
    for d in seq:
        assert klotski.can_shift(g.cells, g.own, a, d)
        tap(g, ctx, DIRS[d])
        a += d
    if g.screen is g.play_screen:
        tap(g, ctx, A)          # drop


@pytest.fixture(scope="module")
def classic_solver():
    s = klotski.Solver(4, 1, 4)
    s.build()
    return s


@pytest.fixture()
def cache_dir(tmp_path, classic_solver):
    d = tmp_path / "saves"
    klotski_cache.save(klotski_cache.Dir(str(d)), classic_solver)
    return str(d)


def set_up(g, ctx):
    """Tick through the solver's sliced setup and cache load; the tick count."""
    n = 0
    while g.task.phase in (kg.S_NEW, kg.S_SETUP, kg.S_LOAD):
        tick(g, ctx)
        n += 1
        assert n < 100
    return n


def open_ready(ctx, layout=CLASSIC):
    g = kg.Scene(ctx)
    g.level = g.layouts.index(layout)
    tap(g, ctx, A)
    assert g.screen is g.play_screen
    assert set_up(g, ctx) > 3
    assert g.task.phase == kg.S_READY and g.task.cache_status == "ok"
    return g


# ------------------------------------------------------------ scene

def test_level_list_names_and_drawing():
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    assert len(g.layouts) == klotski_levels.count() >= 23
    assert g.optimal == sorted(g.optimal) and g.optimal[CLASSIC_AT] == 81
    assert g.names[0] == "TAO HUA YUAN ZHONG" and g.names[CLASSIC_AT] == "HENG DAO LI MA"
    assert all(all(32 <= ord(ch) < 127 for ch in n) for n in g.names)
    assert not any(n.startswith("GEN ") for n in g.names)
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)
    tap(g, ctx, UP)
    assert g.level == len(g.layouts) - 1 and g.list_screen.top > 0
    g.draw(fb)
    tap(g, ctx, DOWN)
    assert g.level == 0 and g.list_screen.top == 0
    assert tap(g, ctx, B) == "exit"


def test_the_list_marks_solved_and_perfect_levels(monkeypatch):
    """Fewest optimal steps first; a best at the optimum is "*", another "+"."""
    import gfx

    ctx = FakeCtx()
    ctx.saved["klotski"] = {"best": {klotski_levels.level(0)[1]: klotski_levels.level(0)[2],
                                     klotski_levels.level(1)[1]: klotski_levels.level(1)[2] + 5}}
    g = kg.Scene(ctx)
    said = []
    real = gfx.text
    monkeypatch.setattr(gfx, "text", lambda fb, s, x, y, c=1: said.append((s, y)) or real(fb, s, x, y, c))
    g.draw(framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB))
    marks = [(s, y) for s, y in said if s in ("*", "+")]
    assert marks == [("*", 8), ("+", 15)]


def _list_frame(g):
    buf = bytearray(b"\xa5" * 1024)                # whatever fb held: the list copies a whole frame
    g.draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
    return bytes(buf)


def test_the_lists_frame_drawn_in_parts_is_the_whole_list():
    """The list draws only what changed into its own frame (LevelList): after
    every key, a new best and "NO HINT", that frame is the one a list drawn
    from scratch in the same state draws; a scroll, a page and the first
    frame are made in their tick and shown in the next (the frame on show
    kept: ``held``)."""
    import random

    rng = random.Random(5)
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    _list_frame(g)
    for n in range(120):
        key = rng.choice([UP, DOWN, DOWN, LEFT, RIGHT, 0])
        top = g.list_screen.top
        press(g, ctx, key)
        scrolled = g.list_screen.top != top
        assert (g.frame_key() == -1) == scrolled                # the old frame kept a tick
        if n % 9 == 0:                                           # a best saved (a win's)
            g.saved["best"][g.layouts[g.level]] = rng.choice([g.optimal[g.level], 200])
            g.stores += 1
        if n % 13 == 0:
            g.list_screen.no_hints = not g.list_screen.no_hints
        release(g, ctx, key)
        fresh = kg.Scene(ctx)
        fresh.saved = g.saved
        fresh.level = g.level
        fresh.list_screen.top = g.list_screen.top
        fresh.list_screen.no_hints = g.list_screen.no_hints
        assert _list_frame(g) == _list_frame(fresh), n


def _board_paused():
    """The first level's board opened (its first ticks run), the pause menu
    held open over it."""
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    tap(g, ctx, A)
    for _ in range(3):
        tick(g, ctx)
    hold(g, ctx, B)
    return ctx, g


def test_levels_from_the_menu_make_the_list_in_that_tick():
    """LEVELS in the pause menu makes the list's frame in its tick, the
    menu kept on show (47 ms in the tick after it on the virtual Pico: the
    list's ~21 ms and a whole frame), and shows it in the next."""
    ctx, g = _board_paused()
    g.pause.item = g.pause.items.index("LEVELS")
    press(g, ctx, A)
    assert g.screen is g.list_screen and g.frame_key() == -1 and g.list_screen.frame is not None
    made = bytes(g.list_screen.frame)
    release(g, ctx, A)
    assert g.frame_key() == g.list_screen.frame_key() and _list_frame(g) == made
    tap(g, ctx, A)                                   # a board again: the list's frame let go
    assert g.screen is g.play_screen and g.list_screen.frame is None


def test_the_menu_covers_the_panel_so_it_is_not_drawn():
    """Under the pause menu the play screen draws its board only: the menu's
    box (x 52-127, cleared) covers the panel, so the frame is the one drawn
    with the panel (~5 ms less in the menu's ticks on the virtual Pico)."""
    import pausemenu

    assert kg._MENU_X == pausemenu._MX
    ctx, g = _board_paused()
    for item in range(len(g.pause.items)):
        g.pause.item = item
        got = bytearray(b"\xff" * 1024)
        g.draw(framebuf.FrameBuffer(got, 128, 64, framebuf.MONO_VLSB))
        want = bytearray(1024)
        fb = framebuf.FrameBuffer(want, 128, 64, framebuf.MONO_VLSB)
        g.play_screen.draw_board(fb, g.own[g.play_screen.cursor], True)
        g.play_screen.draw_panel(fb)
        pausemenu.draw(g.pause, fb)
        assert got == want and any(got)


def test_the_menus_bar_moving_waits_for_the_tables_slices():
    """While the table is built, a tick that moves the menu's bar runs no
    slice of it (38 ms with one on the virtual Pico), nor one that goes from
    the win screen to the list (the list's frame is made in it); the others do."""
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    g.level = next(i for i in range(len(g.layouts)) if g.layouts[i].startswith("SS.V/SBBV"))  # 2V2H6S
    tap(g, ctx, A)
    tick(g, ctx)
    hold(g, ctx, B)
    assert g.pause.shown and g.job.running()
    slices = []
    real = g.job.run
    g.job.run = lambda c: slices.append(1) or real(c)
    press(g, ctx, DOWN)
    assert not slices and g.pause.item == 1
    release(g, ctx, DOWN)
    assert slices
    tap(g, ctx, B)                                   # the menu closed
    g.win(ctx)                                       # (solved by hand before the table)
    for _ in range(3):
        tick(g, ctx)
    assert g.screen is g.win_screen and g.job.running()
    del slices[:]
    press(g, ctx, B)
    release(g, ctx, B)                               # to the list: its frame made, no slice
    assert g.screen is g.list_screen and len(slices) == 1 and g.frame_key() == -1


def test_a_game_saved_before_the_list_was_ordered_plays_on():
    """A play save names its level by its place in the list: one saved when
    横刀立马 was the first level comes back on 横刀立马."""
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    g.level = CLASSIC_AT
    tap(g, ctx, A)
    tap(g, ctx, DOWN)
    snap = g.snapshot()
    snap["level"] = 0                       # its place then
    g2 = kg.Scene(ctx)
    assert g2.restore(snap) and g2.level == CLASSIC_AT and g2.snapshot() == g.snapshot()


def test_select_move_continue_undo_restart():
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    g.level = CLASSIC_AT
    tap(g, ctx, A)
    assert g.screen is g.play_screen and bytes(g.cells) == CLASSIC.replace("/", "").encode()
    assert g.cells[g.play_screen.cursor] == kg.CH_B
    tap(g, ctx, DOWN)                       # off the block onto the H piece
    assert g.own[g.play_screen.cursor] == 9
    tap(g, ctx, DOWN)
    assert g.own[g.play_screen.cursor] == 13            # soldier
    tap(g, ctx, A)
    assert g.play_screen.grabbed
    tap(g, ctx, DOWN)                       # soldier 13 -> 17
    assert g.steps == 1 and g.cells[17] == kg.CH_S and g.cells[13] == kg.DOT
    tap(g, ctx, RIGHT)                      # same piece on: around the corner, still one step
    assert g.steps == 1 and g.cells[18] == kg.CH_S
    tap(g, ctx, RIGHT)                      # blocked by the soldier on 19
    assert g.steps == 1 and g.cells[18] == kg.CH_S
    tap(g, ctx, LEFT)
    tap(g, ctx, UP)                         # back where the step started: cancelled
    assert g.steps == 0 and bytes(g.cells) == CLASSIC.replace("/", "").encode()
    tap(g, ctx, DOWN)
    assert g.steps == 1
    tap(g, ctx, B)                          # B drops the piece
    assert not g.play_screen.grabbed and g.steps == 1
    # another piece: a new step
    tap(g, ctx, RIGHT)                      # the cursor may rest on an empty cell
    assert g.play_screen.cursor == 18 and g.own[18] == kg.NONE
    tap(g, ctx, A)
    assert not g.play_screen.grabbed
    tap(g, ctx, UP)
    assert g.own[g.play_screen.cursor] == 14
    tap(g, ctx, A)
    tap(g, ctx, DOWN)
    assert g.steps == 2 and g.cells[18] == kg.CH_S
    tap(g, ctx, A)
    # the first soldier again: a third step
    tap(g, ctx, LEFT)
    assert g.own[g.play_screen.cursor] == 17
    tap(g, ctx, A)
    tap(g, ctx, UP)
    assert g.steps == 3
    tap(g, ctx, A)
    before = bytes(g.cells)
    tap(g, ctx, B)                          # a B tap with nothing grabbed: nothing
    assert g.steps == 3 and bytes(g.cells) == before
    chord(g, ctx, B, A)                     # B+A: undo
    assert g.steps == 2 and bytes(g.cells) != before and g.cells[17] == kg.CH_S
    assert not g.play_screen.grabbed
    chord(g, ctx, B, A)
    chord(g, ctx, B, A)
    assert g.steps == 0 and bytes(g.cells) == CLASSIC.replace("/", "").encode()
    chord(g, ctx, B, A)                     # nothing left to undo
    assert g.steps == 0 and g.own[g.play_screen.cursor] != kg.NONE
    for d in cursor_path(g, 16):
        tap(g, ctx, DIRS[d])
    tap(g, ctx, A)
    tap(g, ctx, RIGHT)
    assert g.steps == 1
    menu(g, ctx, "RESTART")                         # restart
    assert g.steps == 0 and g.undo_ring.count == 0 and bytes(g.cells) == bytes(g.start)
    menu(g, ctx, "LEVELS")                         # levels
    assert g.screen is g.list_screen


def test_hint_moves_toward_the_goal(cache_dir, classic_solver):
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx)
    s = classic_solver
    d0 = s.distance(s.rank_of(g.cells))
    assert d0 == 81
    for k in range(1, 6):
        menu(g, ctx, "HINT")
        assert g.steps == k
        assert s.distance(s.rank_of(g.cells)) == 81 - k
    assert g.helped
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)


def test_auto_solve_reaches_the_goal_without_record(cache_dir):
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx, "VBBV/VBBV/SHHS/VSSV/V..V")      # 指挥若定, 70 steps
    menu(g, ctx, "AUTO SOLVE")
    assert g.play_screen.auto
    for _ in range(70 * kg.AUTO_TICKS + 5):
        tick(g, ctx)
        if g.screen is g.win_screen:
            break
    assert g.screen is g.win_screen and klotski.is_goal_cells(g.cells)
    assert g.steps == 70 and g.helped and not g.new_best
    assert "klotski" not in ctx.saved or not ctx.saved["klotski"]["best"]
    assert ctx.finishes == 1 and g.snapshot() is None    # the ending, without a record
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)
    tap(g, ctx, B)
    assert g.screen is g.list_screen


def test_auto_solve_stops_on_a_key(cache_dir):
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx)
    menu(g, ctx, "AUTO SOLVE")
    for _ in range(3 * kg.AUTO_TICKS):
        tick(g, ctx)
    n = g.steps
    assert n >= 2
    tap(g, ctx, LEFT)
    assert not g.play_screen.auto
    for _ in range(20):
        tick(g, ctx)
    assert g.steps == n


def test_playing_the_solution_by_buttons_wins_and_saves_the_best(cache_dir, classic_solver):
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx)
    s = classic_solver
    moves = s.solution(s.rank_of(g.cells))
    assert len(moves) == 81
    for frm, to in moves:
        play_move(g, ctx, frm, to)
    assert g.screen is g.win_screen
    assert g.steps == 81 and not g.helped and g.new_best
    assert ctx.saved["klotski"]["best"][CLASSIC] == 81
    assert ctx.finishes == 1 and g.snapshot() is None
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)
    # the winning move was made with the block grabbed: the A that drops it
    # leaves the win screen on show (it is not A:NEXT)
    assert g.win_screen.drop_first
    tap(g, ctx, A)
    assert g.screen is g.win_screen and g.level == CLASSIC_AT
    # a worse win does not replace the record; the list shows it
    tap(g, ctx, B)
    assert g.screen is g.list_screen
    tap(g, ctx, A)
    play_move(g, ctx, 16, 17)               # a wasted step first
    moves = s.solution(s.rank_of(g.cells))
    for frm, to in moves:
        play_move(g, ctx, frm, to)
    assert g.screen is g.win_screen and g.steps == len(moves) + 1 >= 81 and not g.new_best
    assert ctx.saved["klotski"]["best"][CLASSIC] == 81 and ctx.finishes == 2
    # a new Game reads the saved best
    g2 = kg.Scene(ctx)
    assert g2.best(CLASSIC_AT) == 81


def test_sliced_build_progress_pending_hint_and_cache_written(tmp_path):
    ctx = FakeCtx(cache_dir=str(tmp_path / "saves"))
    g = kg.Scene(ctx)
    level = next(i for i in range(len(g.layouts)) if g.layouts[i].startswith("SS.V/SBBV"))  # 2V2H6S
    g.level = level
    key = g.frame_key()
    tap(g, ctx, A)                                # the level opened, then the old solver collected
    assert g.task.phase == kg.S_NEW and not g.task.opening and not g.task.filed   # (no table file)
    assert g.frame_key() == key                   # the list stays on show meanwhile
    tick(g, ctx)
    assert g.task.phase == kg.S_NEW               # the board's first frame: the slices wait a tick
    assert g.frame_key() is None
    tick(g, ctx)
    assert g.task.phase == kg.S_SETUP and g.task.solver.heavy_next is False
    assert g.play_screen.status() == "SOLVER: SETUP" and g.task.progress() == 0
    set_up(g, ctx)
    assert g.task.phase == kg.S_BUILD and g.task.cache_status == "missing"
    menu(g, ctx, "HINT")                          # hint asked for before the table exists
    assert g.play_screen.pending == 1 and g.steps == 0 and not ctx.toasts   # no toast over the panel
    assert g.play_screen.status().startswith("HINT WAITS ")
    seen = []
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    for n in range(5000):
        before = g.task.solver.expanded if g.task.solver else 0
        tick(g, ctx)
        if g.task.solver:
            # a step(CHUNK) call may finish the geometry it is in: up to a
            # geometry's pairs more than CHUNK layouts
            assert g.task.solver.expanded - before <= (kg.CHUNK + g.task.solver.pairs) * kg.MAX_SLICES
        seen.append(g.task.progress())
        if n % 50 == 0:
            g.draw(fb)
        if g.task.phase == kg.S_READY:
            break
    assert g.task.phase == kg.S_READY and g.task.cache_status == "written"
    assert seen == sorted(seen) and len(set(seen)) > 5
    tick(g, ctx)                             # the pending hint runs now
    assert g.steps == 1 and g.play_screen.pending == 0
    s = g.task.solver
    assert s.distance(s.rank_of(g.cells)) == g.optimal[level] - 1
    name = "klotski_%d%d%d.tbl" % (s.nv, s.nh, s.ns)
    assert (tmp_path / "saves" / name).is_file()
    assert not (tmp_path / "saves" / (name + ".new")).exists()
    # a new game on the same piece set loads it at once
    ctx2 = FakeCtx(cache_dir=str(tmp_path / "saves"))
    g2 = kg.Scene(ctx2)
    g2.level = level
    tap(g2, ctx2, A)
    set_up(g2, ctx2)
    assert g2.task.phase == kg.S_READY and g2.task.cache_status == "ok"


def test_a_solver_out_of_memory_is_the_jobs_toast_and_no_solver(monkeypatch):
    """A MemoryError in a slice of the solver's setup ends its job: the one
    "NOT ENOUGH MEMORY" toast, the solver dropped, the panel says so and a
    hint finds no solver; the board plays on."""
    ctx = FakeCtx()
    g = kg.Scene(ctx)
    tap(g, ctx, A)                            # opened, the old solver collected
    tick(g, ctx)                              # the board's first frame
    tick(g, ctx)                              # the constructor's tick
    assert g.task.phase == kg.S_SETUP and g.job.running()

    def no_memory():
        raise MemoryError("memory allocation failed")
    monkeypatch.setattr(g.task.solver, "setup", no_memory)
    tick(g, ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"]
    assert g.task.phase == kg.S_FAIL and g.task.solver is None and not g.job.running()
    assert g.play_screen.status() == "NO SOLVER"
    menu(g, ctx, "HINT")
    assert ctx.toasts[-1] == "NO SOLVER" and g.steps == 0 and g.screen is g.play_screen


def test_same_piece_set_keeps_the_solver(cache_dir):
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx)
    s = g.task.solver
    menu(g, ctx, "LEVELS")
    tap(g, ctx, UP)
    tap(g, ctx, A)                            # 兵分三路: 4V1H4S too
    assert g.task.solver is s and g.task.phase == kg.S_READY



def test_undo_ring_keeps_layouts_in_half_the_bytes():
    """Two cells a byte: every layout comes back letter for letter, the newest
    first; past UNDO steps the oldest are gone."""
    ring = kg.LayoutUndo()
    assert isinstance(ring, undoring.UndoRing) and ring.size == 10 and len(ring.buf) == 10 * kg.UNDO
    layouts = [bytearray(klotski.parse(t)) for t in
               (CLASSIC, "VBBV/VBBV/SHHS/VSSV/V..V", "SS.V/SBBV/VBBS/VSHH/HHS.")]
    for cells in layouts:
        ring.push_layout(cells)
    # the newest is dropped only when it is the layout asked about
    assert not ring.drop_if_top(layouts[0]) and ring.count == 3
    assert ring.drop_if_top(layouts[2]) and ring.count == 2
    ring.push_layout(layouts[2])
    out = bytearray(20)
    for cells in reversed(layouts):
        assert ring.pop_into(out) and out == cells
    assert not ring.pop_into(out) and ring.count == 0
    assert not ring.drop_if_top(layouts[0])
    for k in range(kg.UNDO + 5):
        ring.push_layout(layouts[k % 3])
    assert ring.count == kg.UNDO
    # a saved game keeps the newest few, oldest first, and gets them back
    kept = kg.LayoutUndo()
    kept.load(ring.dump(12))
    assert kept.count == 12
    for k in reversed(range(kg.UNDO + 5 - 12, kg.UNDO + 5)):
        assert kept.pop_into(out) and out == layouts[k % 3]
    for k in reversed(range(5, kg.UNDO + 5)):
        assert ring.pop_into(out) and out == layouts[k % 3]
    assert not ring.pop_into(out)

# ------------------------------------------------------------ cache

def test_cache_roundtrip_corrupt_truncated_stale(tmp_path, classic_solver):
    d = klotski_cache.Dir(str(tmp_path))
    s = classic_solver
    klotski_cache.save(d, s)
    path = tmp_path / klotski_cache.name_for(s)
    raw = path.read_bytes()
    assert raw.startswith(b"KTC2 4 1 4 ") and len(raw) < s.table_nbytes + 100

    fresh = klotski.Solver(4, 1, 4)
    assert klotski_cache.load(d, fresh) == "ok" and fresh.done
    assert fresh.search is None           # no search arrays (nor its row offset table) for a loaded table
    assert fresh.table == s.table
    r = fresh.rank_of(klotski.parse(CLASSIC))
    assert fresh.distance(r) == 81 and fresh.step(10) is True

    def bad(data, expect):
        path.write_bytes(data)
        f = klotski.Solver(4, 1, 4)
        assert klotski_cache.load(d, f) == expect
        assert not any(f.table) and not f.done
        assert not path.exists()             # removed: it is rebuilt and written again

    body = bytearray(raw)
    body[len(raw) // 2] ^= 0x10
    bad(bytes(body), "corrupt")
    bad(raw[:-100], "corrupt")
    bad(raw + b"x", "corrupt")
    bad(b"garbage\n" + raw, "corrupt")
    bad(b"", "corrupt")
    hdr, rest = raw.split(b"\n", 1)
    parts = hdr.split(b" ")
    bad(b" ".join(parts[:4] + [b"65881"] + parts[5:]) + b"\n" + rest, "stale")
    bad(b"KTC1" + raw[4:], "stale")          # the previous format (a bytearray table)
    # a probe that decodes differently (another rank encoding, same size)
    other = klotski.to_text(s.cells_of(s.size // 2 + 1)).encode()
    bad(b" ".join(parts[:8] + [other]) + b"\n" + rest, "stale")
    f = klotski.Solver(4, 1, 4)
    assert klotski_cache.load(d, f) == "missing"


class FullDir(klotski_cache.Dir):
    """A flash that fills up after ``room`` bytes."""

    def __init__(self, root, room):
        super().__init__(root)
        self.room = room

    def open(self, name, mode):
        f = super().open(name, mode)
        if "w" not in mode:
            return f
        outer = self

        class Limited:
            def write(self, data):
                if len(data) > outer.room:
                    raise OSError(errno.ENOSPC, "No space left on device")
                outer.room -= len(data)
                return f.write(data)

            def flush(self):
                f.flush()

            def close(self):
                f.close()
        return Limited()


def test_the_heap_a_ready_solver_holds_counts_as_free_for_another_set(cache_dir, monkeypatch):
    """The list weighs another piece set's setup against the heap free plus what the
    solver held now takes (measured when it became ready): it goes before that setup;
    the setup's module, dropped once a solver is ready, is counted too (it is imported
    again)."""
    monkeypatch.setattr(kg, "BUILDS", False)
    free = [10 ** 6]
    monkeypatch.setattr(klotski_filetable, "heap_free", lambda: free[0])
    __import__("klotski_setup")             # loaded, as at the list (an earlier solver may have dropped it)
    ctx = FakeCtx(cache_dir=cache_dir)
    g = kg.Scene(ctx)
    tap(g, ctx, A)                          # 横刀立马: the solver made with 10**6 free ...
    # ... holds 5,000 B once ready, when its setup's module is gone again
    free[0] = 10 ** 6 - 5000 + klotski_filetable.SETUP_CODE
    set_up(g, ctx)
    assert g.task.phase == kg.S_READY and g.task.held == 5000
    assert not g.task.can_solve((2, 2, 6))     # no table file for that set
    # a file for it (only its name counts here)
    shutil.copy(Path(cache_dir) / "klotski_414.tbl", Path(cache_dir) / "klotski_226.tbl")
    assert "klotski_setup" not in sys.modules  # dropped by the ready solver's setup
    need = klotski_filetable.SETUP_SPARE + klotski_filetable.SETUP_CODE
    for spare, fits in ((4000, True), (6000, False)):
        free[0] = need - spare
        assert g.task.can_solve((4, 1, 4))     # its own set: ready
        assert g.task.can_solve((2, 2, 6)) is fits
    # 3V2H4S's setup needs WIDE_SPARE more (its arrays in one piece)
    shutil.copy(Path(cache_dir) / "klotski_414.tbl", Path(cache_dir) / "klotski_324.tbl")
    for more, fits in ((klotski_filetable.WIDE_SPARE, True), (klotski_filetable.WIDE_SPARE - 1, False)):
        free[0] = need - 5000 + more
        assert g.task.can_solve((2, 2, 6)) and g.task.can_solve((3, 2, 4)) is fits
    __import__("klotski_setup")                 # loaded (as at the list before any setup)
    free[0] = klotski_filetable.SETUP_SPARE - 4000
    assert g.task.can_solve((2, 2, 6))


def test_a_table_read_from_its_file_answers_as_the_one_in_memory(tmp_path, classic_solver):
    """klotski_filetable.attach: a solver without a table array or search (its setup
    makes neither) reads the cached table word by word and answers as the solver
    that built it; the file's checks are load's, and a bad file stays where it is."""
    import random

    d = klotski_cache.Dir(str(tmp_path))
    klotski_cache.save(d, classic_solver)
    s = klotski.Solver(4, 1, 4, search=False)
    assert s.table is None and s.search is None and s._loop is None
    assert klotski_filetable.attach(d, s) == "ok" and s.done
    rng = random.Random(5)
    for rank in [rng.randrange(s.size) for _ in range(300)]:
        assert s.value(rank) == classic_solver.value(rank)
    rank = s.rank_of(klotski.parse(CLASSIC))
    assert s.solution(rank) == classic_solver.solution(rank)
    s.table.close()
    path = tmp_path / klotski_cache.name_for(s)
    good = path.read_bytes()
    for bad, status in ((good[:-1], "corrupt"), (good + b"x", "corrupt"),
                        (good[:-1] + bytes([good[-1] ^ 1]), "corrupt"),
                        (good.replace(b"KTC2", b"KTC1", 1), "stale")):
        path.write_bytes(bad)
        assert klotski_filetable.attach(d, klotski.Solver(4, 1, 4, search=False)) == status
        assert path.read_bytes() == bad
    path.unlink()
    assert klotski_filetable.attach(d, klotski.Solver(4, 1, 4, search=False)) == "missing"


def test_cache_write_in_steps_keeps_the_old_file_until_the_last(tmp_path, classic_solver):
    s = classic_solver
    d = klotski_cache.Dir(str(tmp_path))
    klotski_cache.save(d, s)
    name = klotski_cache.name_for(s)
    old = (tmp_path / name).read_bytes()
    w = klotski_cache.Writer(d, s)
    assert w.step() is False and w.step() is False
    assert (tmp_path / name).read_bytes() == old and (tmp_path / (name + ".new")).read_bytes() == old
    assert w.step() is True
    assert sorted(os.listdir(tmp_path)) == [name]
    # a level of another piece set opened mid-write drops the temp file
    w = klotski_cache.Writer(d, s)
    w.step()
    w.abort()
    assert sorted(os.listdir(tmp_path)) == [name]
    assert klotski_cache.load(d, klotski.Solver(4, 1, 4)) == "ok"


def test_cache_full_disk_is_reported_and_not_fatal(tmp_path, classic_solver):
    s = classic_solver
    d = FullDir(str(tmp_path), 50)
    with pytest.raises(OSError) as exc:
        klotski_cache.save(d, s)
    assert exc.value.args[0] == klotski_cache.ENOSPC
    assert os.listdir(tmp_path) == []        # no half-written temp file left
    # an old cache survives a failed rewrite
    klotski_cache.save(klotski_cache.Dir(str(tmp_path)), s)
    d.room = 2000
    with pytest.raises(OSError):
        klotski_cache.save(d, s)
    assert sorted(os.listdir(tmp_path)) == [klotski_cache.name_for(s)]
    assert klotski_cache.load(d, klotski.Solver(4, 1, 4)) == "ok"
    # in the game: a toast, the table is used anyway
    ctx = FakeCtx(cache_dir=str(tmp_path / "game"))
    g = kg.Scene(ctx)
    g.task.cache = FullDir(str(tmp_path / "game"), 10)
    g.task.piece_set = (4, 1, 4)
    g.task.solver = klotski.Solver(4, 1, 4)
    g.task.solver.table[:] = s.table
    g.task.solver.done = True
    g.screen = g.play_screen
    g.task.phase = kg.S_BUILD
    g.job.start(g.task)
    tick(g, ctx)
    assert g.task.phase == kg.S_SAVE             # the write gets ticks of its own
    tick(g, ctx)                                # the header: 10 bytes of room are too few
    assert g.task.phase == kg.S_READY and g.task.cache_status == "full"
    assert "FLASH FULL: NO CACHE" in ctx.toasts
    # other write failures
    class Broken(klotski_cache.Dir):
        def open(self, name, mode):
            if "w" in mode:
                raise OSError(errno.EIO, "I/O error")
            return super().open(name, mode)
    g.task.cache = Broken(str(tmp_path / "game"))
    g.task.phase = kg.S_BUILD
    g.job.start(g.task)
    tick(g, ctx)
    tick(g, ctx)
    assert g.task.cache_status == "failed" and "CACHE WRITE FAILED" in ctx.toasts


def test_corrupt_cache_in_the_game_is_rebuilt(cache_dir):
    path = Path(cache_dir) / "klotski_414.tbl"
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 1
    path.write_bytes(bytes(raw))
    ctx = FakeCtx(cache_dir=cache_dir)
    g = kg.Scene(ctx)
    tap(g, ctx, A)
    set_up(g, ctx)
    assert g.task.phase == kg.S_BUILD and g.task.cache_status == "corrupt"
    assert "CACHE CORRUPT - REBUILD" in ctx.toasts


def _mark_shown(g):
    """The list's "NO HINT" under the thumbnail (x 100-127, y 56-60) is drawn."""
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)
    return any(fb.pixel(x, y) for x in range(100, 128) for y in range(56, 61))


def test_a_runtime_that_cannot_build_marks_the_levels_without_a_table(cache_dir, monkeypatch):
    """Where no table can be built (CircuitPython), a level has hints only from a table
    in the cache, read from its file by a solver whose setup fits the heap: the list
    marks the others before play, and their board says NO HINTS without starting a
    solver; a damaged table is not rebuilt."""
    monkeypatch.setattr(kg, "BUILDS", False)
    free = [10 ** 6]
    monkeypatch.setattr(klotski_filetable, "heap_free", lambda: free[0])
    ctx = FakeCtx(cache_dir=cache_dir)
    g = kg.Scene(ctx)
    tick(g, ctx)
    assert not g.list_screen.no_hints and not _mark_shown(g)
    six = next(i for i in range(g.nb) if klotski.piece_set(klotski.parse(g.layouts[i])) == (2, 2, 6))
    for _ in range(six):
        tap(g, ctx, DOWN)
    assert g.list_screen.no_hints and _mark_shown(g)
    tap(g, ctx, A)
    assert g.task.phase == kg.S_NO_TABLE and g.task.solver is None and not g.job.running()
    assert g.play_screen.status() == "NO HINTS"
    menu(g, ctx, "HINT")
    assert "NO HINTS" in ctx.toasts and g.steps == 0
    menu(g, ctx, "LEVELS")                  # on to the classic layout, whose table loads
    for _ in range(CLASSIC_AT - six):
        tap(g, ctx, DOWN)
    assert not _mark_shown(g)
    tap(g, ctx, A)
    set_up(g, ctx)
    assert g.task.phase == kg.S_READY and g.task.cache_status == "ok"
    s = g.task.solver
    assert s.search is None and isinstance(s.table, klotski_filetable.FileWords)
    assert s.distance(s.rank_of(g.cells)) == 81
    menu(g, ctx, "HINT")                    # a hint, from the file
    assert g.steps == 1 and s.distance(s.rank_of(g.cells)) == 80
    table = s.table
    classic_set = klotski.piece_set(klotski.parse(CLASSIC))
    assert klotski.piece_set(klotski.parse(g.layouts[CLASSIC_AT - 1])) == classic_set
    menu(g, ctx, "LEVELS")
    tap(g, ctx, UP)
    tap(g, ctx, A)                          # the same piece set: the same solver
    assert g.task.solver is s and g.task.phase == kg.S_READY
    menu(g, ctx, "LEVELS")
    for _ in range(CLASSIC_AT - 1 - six):
        tap(g, ctx, UP)
    tap(g, ctx, A)                          # another set: the file is closed
    assert table.f.closed and g.task.phase == kg.S_NO_TABLE
    # a heap with too little room for the setup
    free[0] = klotski_filetable.SETUP_SPARE - 1
    g = kg.Scene(ctx)
    tick(g, ctx)
    assert _mark_shown(g)
    # a damaged table: no hints (and no rebuild) rather than a silent failure
    free[0] = 10 ** 6
    path = Path(cache_dir) / "klotski_414.tbl"
    raw = bytearray(path.read_bytes())
    raw[-1] ^= 1
    path.write_bytes(bytes(raw))
    g = kg.Scene(ctx)
    tap(g, ctx, A)
    set_up(g, ctx)
    assert g.task.phase == kg.S_NO_TABLE and g.task.solver is None
    assert "TABLE CORRUPT: NO HINTS" in ctx.toasts



def test_a_runtime_that_builds_reads_a_table_file_from_the_file(cache_dir, classic_solver):
    """Where tables can be built (MicroPython), a level whose table file is in the
    cache reads it from the file (klotski_filetable: no table array, no search)
    rather than building it or reading it whole, and its hints are the built
    table's, all the way to the goal; a set without a file is built as before."""
    assert kg.BUILDS
    ctx = FakeCtx(cache_dir=cache_dir)
    g = open_ready(ctx)
    s = g.task.solver
    assert g.task.filed and s.search is None and isinstance(s.table, klotski_filetable.FileWords)
    ref = classic_solver
    hints = 0
    while g.screen is g.play_screen:
        expect = ref.best_move(ref.rank_of(g.cells))
        assert s.best_move(s.rank_of(g.cells)) == expect
        before = ref.distance(ref.rank_of(g.cells))
        menu(g, ctx, "HINT")
        hints += 1
        if g.screen is g.play_screen:
            assert ref.distance(ref.rank_of(g.cells)) == before - 1
    assert hints == 81 and g.screen is g.win_screen
    table = s.table
    other = next(t for t in g.layouts if klotski.piece_set(klotski.parse(t)) != (4, 1, 4))
    g.show_level(other)                     # a set without a file: its file closed, a build
    assert table.f.closed and not g.task.filed
    set_up(g, ctx)
    assert g.task.phase == kg.S_BUILD and g.task.cache_status == "missing"
    assert g.task.solver.search is not None


def test_a_table_files_opening_and_check_come_a_step_a_tick(cache_dir):
    """The tick that opens a level whose table is a file parses it and finds the
    file; the old solver's collection and klotski_filetable's import follow in
    a tick each with the list's frame kept on show (held: they were 44 of the
    open tick's 58 ms on the virtual Pico), then the board's first frame.  The
    file's check is a slice a tick: the file opened, its CRC-32, the probe.
    A level opened during the check closes its file."""
    ctx = FakeCtx(cache_dir=cache_dir)
    g = kg.Scene(ctx)
    g.level = CLASSIC_AT
    tick(g, ctx)                                  # the list, scrolled to it
    key = g.frame_key()
    press(g, ctx, A)
    assert g.task.filed and g.task.opening == kg._O_COLLECT and g.frame_key() == key
    release(g, ctx, A)                            # the collection
    assert g.task.opening == kg._O_IMPORT and g.frame_key() == key
    tick(g, ctx)                                  # the import
    assert not g.task.opening and g.frame_key() == key and g.task.phase == kg.S_NEW
    tick(g, ctx)                                  # the first frame
    assert g.frame_key() is None and g.task.phase == kg.S_NEW
    n = 0
    while g.task.phase != kg.S_LOAD:
        tick(g, ctx)
        n += 1
        assert n < 100
    left = []
    while g.task.phase == kg.S_LOAD:
        tick(g, ctx)
        left.append(g.task.check.left if g.task.check else None)
    nbytes = g.task.solver.table_nbytes
    assert 0 < nbytes < klotski_filetable._CHECK_BYTES and left == [nbytes, -1, None]
    assert g.task.phase == kg.S_READY and g.task.cache_status == "ok"
    # a level of another set opened half way through the check: the file closed
    g = kg.Scene(ctx)
    g.open_level(CLASSIC_AT)
    while g.task.check is None:
        tick(g, ctx)
    f = g.task.check.f
    assert not f.closed
    g.show_level(next(t for t in g.layouts if klotski.piece_set(klotski.parse(t)) != (4, 1, 4)))
    assert f.closed and g.task.check is None and not g.task.filed


def test_a_table_files_check_in_slices_is_attachs(cache_dir, monkeypatch):
    """klotski_filetable.Check: the file opened and its header read, then its
    CRC-32 _CHECK_BYTES a slice, then the probe; what attach finds, for a sound
    file and a damaged one (the file closed)."""
    monkeypatch.setattr(klotski_filetable, "_CHECK_BYTES", 4096)
    d = klotski_cache.Dir(cache_dir)
    s = klotski.Solver(4, 1, 4, search=False)
    c = klotski_filetable.Check(d, s)
    left = []
    while not c.step():
        left.append(c.left)
    n = s.table_nbytes
    assert left == [n - 4096 * i for i in range(n // 4096 + 1)] + [-1]
    assert c.status == "ok" and isinstance(s.table, klotski_filetable.FileWords)
    assert s.distance(s.rank_of(klotski.parse(CLASSIC))) == 81
    path = Path(cache_dir) / "klotski_414.tbl"
    raw = bytearray(path.read_bytes())
    raw[-5000] ^= 1
    path.write_bytes(bytes(raw))
    s = klotski.Solver(4, 1, 4, search=False)
    c = klotski_filetable.Check(d, s)
    while not c.step():
        pass
    assert c.status == "corrupt" and c.f is None and s.table is None
    assert klotski_filetable.attach(d, klotski.Solver(4, 1, 4, search=False)) == "corrupt"


# ------------------------------------------------------------ host commands

def test_solve_and_levels_commands(capsys):
    from host_tools import cli

    def run(argv):
        try:
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code
        o = capsys.readouterr()
        return code, o.out, o.err

    code, out, err = run(["solve", "klotski", "VBBV/VBBV/SHHS/VSSV/V..V", "--json"])
    assert code in (0, None) and '"steps": 70' in out
    code, out, err = run(["levels", "klotski", "--piece-set", "2V2H6S", "--min-steps", "45",
                          "--count", "1"])
    assert code in (0, None)
    name, layout, steps = out.strip().split("|")
    assert name == "Gen 2V2H6S #1" and int(steps) >= 45
    assert klotski.solve(layout)[0] == int(steps)
    code, out, err = run(["klotski-solve", CLASSIC])
    assert code == 2
    code, out, err = run(["klotski-levels"])
    assert code == 2


# ------------------------------------------------------------ simulator

def test_in_the_simulator_launcher(tmp_path):
    from host_tools.emulation import sim as simmod
    from host_tools.core.keyscript import parse_keys

    s = simmod.Simulator("pico-ssd1306", tmp_path)
    rt = s.runtime
    names = [e[1] for e in rt.registry]
    k = names.index("Klotski")
    for key in parse_keys("wait:3 " + "down wait " * k + "a wait:3"):
        s.step(key)
    g = rt.screen
    assert type(g).__name__ == "Scene" and g.screen is g.list_screen
    for key in parse_keys("down wait " * CLASSIC_AT):
        s.step(key)
    assert g.level == CLASSIC_AT
    for key in parse_keys("a wait:3 down wait down wait a wait down wait:3"):
        s.step(key)
    assert g.screen is g.play_screen and g.steps == 1 and g.cells[17] == kg.CH_S
    for key in parse_keys("wait:40"):
        s.step(key)
    assert g.task.solver.expanded > 0


# ------------------------------------------------------------ MicroPython VM

VM_GAME = r"""
import gc, framebuf
gc.collect()
import buttons
F0 = _fuel()
CLOCK = [0]
def ticks():
    CLOCK[0] += 1
    return (F0 - _fuel()) // 110000      # emulated Pico milliseconds
CLOCK_ALLOC = measure(ticks)[2]          # the fuel read allocates: the heap figure leaves it out
""" + GUEST_CTX + r"""
ctx = Ctx()
fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
def tap(g, m):
    ctx.buttons.down = m
    g.tick(ctx)
    ctx.buttons.down = 0
    ctx.buttons.up = m
    g.tick(ctx)
    ctx.buttons.up = 0
def frame(g):
    g.tick(ctx)
    g.draw(fb)
a0 = gc.mem_alloc()
import klotski_game
g, f, al = measure(klotski_game.Scene, ctx)
emit('game', (f, al, gc.mem_alloc() - a0))
"""

VM_PLAY = VM_GAME + r"""
measure(g.draw, fb)
emit('list_draw', measure(frame, g)[1:])
g.level = LEVEL
ctx.buttons.down = buttons.A
g.tick(ctx)                              # opens the level
ctx.buttons.down = 0
while g.task.opening:                    # its opening's steps: the old solver collected and
    g.tick(ctx)                          # klotski_filetable imported (here compiled from source)
open_ticks = []                          # Solver(), its sliced setup, the cache load
alloc = 0
while g.task.phase in (klotski_game.S_NEW, klotski_game.S_SETUP, klotski_game.S_LOAD) and len(open_ticks) < 200:
    r = measure(frame, g)
    open_ticks.append(r[1])
    alloc += r[2]
emit('open', (max(open_ticks), alloc, g.task.phase, g.task.cache_status, len(open_ticks)))
emit('frame', [measure(frame, g)[1:] for _ in range(3)])
tap(g, buttons.DOWN); tap(g, buttons.DOWN); tap(g, buttons.A)
emit('move', measure(tap, g, buttons.DOWN)[1:] + (g.steps,))
hints = []
for _ in range(4):
    hints.append(measure(g.play_screen.request, ctx, 1)[1])   # _WANT_HINT
emit('hint', (max(hints), g.steps))
g.play_screen.request(ctx, 2)   # _WANT_AUTO (a private const: the VM folds it away)
n = 0
while g.screen is not g.win_screen and n < 2000:
    g.tick(ctx)
    n += 1
g.draw(fb)
emit('auto', (g.screen is g.win_screen, g.steps, g.helped))
emit('heap', gc.mem_alloc() - a0 - CLOCK[0] * CLOCK_ALLOC)
"""

VM_SLICE = VM_GAME + r"""
g.level = LEVEL
ctx.buttons.down = buttons.A
g.tick(ctx)
ctx.buttons.down = 0
setup = []
heavy = []
while g.task.phase in (klotski_game.S_NEW, klotski_game.S_SETUP, klotski_game.S_LOAD) and len(setup) < 200:
    h = g.task.solver is not None and g.task.solver.heavy_next
    f = measure(frame, g)[1]
    (heavy if h else setup).append(f)
emit('setup', (g.task.phase, g.task.cache_status, setup, heavy))
seed = measure(frame, g)[1]
t = []
for _ in range(30):
    t.append(measure(frame, g)[1])
emit('ticks', (seed, t, g.task.solver.reached, g.task.progress()))
emit('heap', gc.mem_alloc() - a0)
"""


def _stage(tmp_path, solver=None):
    from host_tools.emulation import runtime_vm

    fw = tmp_path / "fw"
    fw.mkdir()
    for p in (runtime_vm.ROOT / "firmware").glob("*.py"):
        shutil.copy(p, fw / p.name)
    (fw / "cache").mkdir()
    if solver is not None:
        klotski_cache.save(klotski_cache.Dir(str(fw / "cache")), solver)
    return fw


def test_game_in_the_micropython_vm(tmp_path, classic_solver):
    from host_tools.emulation import mpvm

    fw = _stage(tmp_path, classic_solver)
    r = mpvm.run("CACHE = '/input/cache'\nLEVEL = %d\n" % CLASSIC_AT + VM_PLAY, input_dir=fw)
    res = r.results
    open_fuel, open_alloc, phase, status, open_ticks = res["open"]
    assert status == "ok" and phase == 3, res
    assert open_ticks >= 3 and open_fuel < 5_500_000     # the setup is sliced too
    assert res["move"][-1] == 1
    hint_fuel, steps = res["hint"]
    assert steps == 5
    assert res["auto"] == (True, 81, True)
    frames = [f for f, _ in res["frame"]]
    print("\nVM: Game() %d fuel %d B; open+setup+cache load worst tick %d fuel (%.0f ms) %d B; "
          "frame %d fuel (%.1f ms) "
          "alloc %s; worst hint %d fuel (%.1f ms); heap after play %d B"
          % (res["game"][0], res["game"][1], open_fuel, mpvm.pico_ms(open_fuel), open_alloc,
             max(frames), mpvm.pico_ms(max(frames)), [a for _, a in res["frame"]],
             hint_fuel, mpvm.pico_ms(hint_fuel), res["heap"]))
    assert hint_fuel < 5_500_000
    assert res["heap"] < 200_000


@pytest.mark.parametrize("prefix", ["VBBV/VBBV/VHHV", "SS.V/SBBV"])
def test_solver_slices_in_the_micropython_vm(tmp_path, prefix):
    """Per-tick fuel while the table builds, with the deadline on an emulated
    Pico clock (fuel / 110,000 per ms)."""
    from host_tools.emulation import mpvm

    fw = _stage(tmp_path)
    level = next(i for i in range(klotski_levels.count())
                 if klotski_levels.level(i)[1].startswith(prefix))
    r = mpvm.run("CACHE = '/input/cache'\nLEVEL = %d\n" % level + VM_SLICE, input_dir=fw)
    res = r.results
    phase, status, setup, heavy = res["setup"]
    assert (phase, status) == (2, "missing")
    seed, ticks, reached, progress = res["ticks"]
    print("\nVM slices %s: setup %d ticks, worst %d fuel (%.0f ms), the table's tick %d fuel (%.0f ms)"
          % (prefix, len(setup), max(setup), mpvm.pico_ms(max(setup)), heavy[0],
             mpvm.pico_ms(heavy[0])))
    print("VM slices: seed tick %d fuel (%.0f ms), build ticks max %d fuel (%.1f ms), "
          "min %d; %d layouts reached; heap %d B"
          % (seed, mpvm.pico_ms(seed), max(ticks), mpvm.pico_ms(max(ticks)), min(ticks), reached,
             res["heap"]))
    assert reached > 0 and progress >= 0
    # solver slice + the game's own tick and draw stay near the 50 ms budget
    assert max(ticks) < 5_500_000, ticks
    assert len(setup) >= 3 and max(setup) < 5_500_000, setup
    # the one slice that makes the table runs alone in its tick: ~2.4 M fuel for
    # 16-bit words, ~4.1 M for the 30-bit words of sets with 5+ soldiers
    assert len(heavy) == 1 and heavy[0] < 6_500_000


def test_a_cached_table_that_leads_nowhere_is_built_again(tmp_path):
    """A cache file whose checksum is right but whose table leads nowhere (every
    value the same): the first distance the scene asks for (a shown layout's
    optimal steps) refuses it as the cache refuses a corrupt file: the file is
    removed, CACHE CORRUPT - REBUILD, and the table is built again."""
    d = tmp_path / "saves"
    bad = klotski.Solver(4, 1, 4)
    for i in range(bad.distances.units):
        bad.table[i] = 0xFFFF
    bad.finish()
    klotski_cache.save(klotski_cache.Dir(str(d)), bad)
    ctx = FakeCtx(cache_dir=str(d))
    g = kg.Scene(ctx)
    g.show_level(CLASSIC)
    set_up(g, ctx)
    assert g.task.phase == kg.S_READY and g.task.cache_status == "ok"
    assert g.optimal_of(g.level) is None
    assert "CACHE CORRUPT - REBUILD" in ctx.toasts
    assert not (d / klotski_cache.name_for(bad)).exists()
    n = 0
    while g.task.phase != kg.S_READY:
        tick(g, ctx)
        n += 1
        assert n < 5000
    assert g.task.cache_status == "written"
    assert g.optimal_of(g.level) == 81
