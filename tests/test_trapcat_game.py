"""Smoke test of the handheld scene with a fake context and framebuffer."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gamectx  # noqa: E402
import trapcat  # noqa: E402
import trapcat_ai  # noqa: E402
import trapcat_game  # noqa: E402
import work  # noqa: E402
from buttons import A, B, DOWN, RIGHT  # noqa: E402
from gamectx import press  # noqa: E402


class FakeCtx(gamectx.FakeCtx):
    now = 1234          # seeds the boards these games were checked with


def hint(g, ctx):
    """The pause menu's HINT: hold B, DOWN onto HINT, A."""
    gamectx.hold(g, ctx, B)
    assert g.pause.shown
    for _ in range(g.pause.items.index("HINT")):
        press(g, ctx, DOWN)
    press(g, ctx, A)
    assert not g.pause.shown


def hint_found(g, ctx, fb=None):
    """Ticks while the hint is worked out, then the one that shows it (a tick
    runs the slices or sends the changed frame, not both)."""
    while g.job.running():
        g.tick(ctx)
        if fb is not None:
            g.draw(fb)
    g.tick(ctx)


class FakeFb:
    def __init__(self):
        self.calls = 0

    def __getattr__(self, name):
        def f(*args):
            self.calls += 1
        return f


class SlicedCtx(FakeCtx):
    """A clock that moves 10 ms at each reading: the job's deadline ends a
    tick after a slice or two, as on the device."""

    def ticks_ms(self):
        self.now += 10
        return self.now

    def deadline(self, ms):
        return Deadline(self, ms)


class Deadline:
    def __init__(self, ctx, ms):
        self.ctx = ctx
        self.at = ctx.now + ms

    def remaining(self):
        return self.at - self.ctx.now

    def expired(self):
        return self.remaining() <= 0


def _over(g):
    return g.screen is g.end_screen


def _cat_turn(g):
    return g.screen is g.play_screen and g.play_screen.cat_turn


def test_scene_plays_whole_games_with_hints():
    for diff in (0, 1, 2):
        ctx = FakeCtx(diff)
        g = trapcat_game.Scene(ctx)
        fb = FakeFb()
        g.draw(fb)
        assert fb.calls > 81
        real = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
        g.draw(real)
        start = g.cursor
        press(g, ctx, DOWN)
        assert g.cursor == start + 9
        press(g, ctx, RIGHT)
        assert g.cursor == start + 10
        for _ in range(200):
            if _over(g):
                break
            if not _cat_turn(g):
                hint(g, ctx)                        # hint moves the cursor
                hint_found(g, ctx, fb)              # worked out over ticks
                assert g.board.can_block(g.cursor)
                press(g, ctx, A)
            else:
                g.tick(ctx)
            g.draw(fb)
        assert _over(g) and g.snapshot() is None
        assert ctx.finishes == 1 and ctx.saved["trapcat/play"] == {}
        # every block a hint's: the game is marked and leaves the records as they were
        assert g.helped and g.lines[0] == ("EASY", "NORMAL", "HARD")[diff] + ": HELPED"
        assert ctx.saved["trapcat"] == {}
        press(g, ctx, A)
        assert g.screen is g.play_screen and g.board.moves == 0
        g.screen = g.end_screen
        assert gamectx.tap(g, ctx, B) == "exit"


def test_every_ending_calls_finish_once_with_the_records():
    """Won by the block that traps the cat, lost by the cat's step out: each
    ends through ctx.finish (the game in progress cleared, the records kept),
    and snapshot() is None from then on."""
    for level, cell, won in (("###\n#C.\n###\n", 5, True), ("#.#\n#C.\n###\n", 5, False)):
        ctx = FakeCtx(2)
        ctx.saved["trapcat"] = {"won": 3, "lost": 4}
        g = trapcat_game.Scene(ctx)
        g.show_level(level)
        assert g.snapshot() is not None
        g.cursor = cell
        press(g, ctx, A)
        for _ in range(20):
            if _over(g):
                break
            g.tick(ctx)
        assert _over(g) and g.snapshot() is None and ctx.finishes == 1
        assert ctx.saved["trapcat/play"] == {}
        assert ctx.saved["trapcat"] == ({"won": 4, "lost": 4, "won2": 1} if won
                                        else {"won": 3, "lost": 5, "lost2": 1})
        assert g.banner == ("TRAPPED!" if won else "ESCAPED!")
        press(g, ctx, A)                               # again: a new game, nothing finished
        assert g.screen is g.play_screen and ctx.finishes == 1


def test_hard_cat_and_hint_are_sliced_over_ticks():
    """The job runs the slices under each tick's deadline; the answer equals
    the one-call choose()."""
    ctx = SlicedCtx(2)
    g = trapcat_game.Scene(ctx)
    b = g.board
    ref_hint = trapcat_ai.StrongBlocker(b).choose(b)
    hint(g, ctx)
    assert g.job.task is g.hinter
    ticks = 1
    while g.job.running():
        g.tick(ctx)
        ticks += 1
    g.tick(ctx)                                        # the hint shown in the next tick
    assert g.cursor == ref_hint and ticks > 2          # several ticks
    # a hint in progress is dropped when the player blocks
    hint(g, ctx)
    assert g.job.running() and g.job.task is g.hinter
    g.cursor = ref_hint
    press(g, ctx, A)
    assert _cat_turn(g) and g.job.task is g.cat
    ref_cat = trapcat_ai.HardCat(b).choose(b)
    ticks = 0
    while _cat_turn(g):
        g.tick(ctx)
        ticks += 1
        assert ticks < 200
    assert b.cat == ref_cat or b.status != trapcat.PLAYING


def test_a_step_is_one_slice_of_work_units():
    b = trapcat.Board(9)
    b.reset(trapcat.Rng(3), 12)
    task = trapcat_ai.StrongBlocker(b)
    task.slice_units = 1                     # one unit a step
    task.begin(b)
    assert task.answer == work.NO_ANSWER
    steps = 1
    while not task.step():
        steps += 1
    assert task.answer == trapcat_ai.StrongBlocker(b).choose(b) != work.NO_ANSWER
    assert steps > 20


def test_out_of_memory_in_a_slice_is_the_jobs_toast_and_the_game_goes_on():
    """A MemoryError in the hint: the toast, the cursor stays; in the cat's
    move: the toast, and the cat takes its first free step."""
    ctx = FakeCtx(2)
    g = trapcat_game.Scene(ctx)

    def no_memory():
        raise MemoryError

    g.hinter.step = no_memory
    cursor = g.cursor
    hint(g, ctx)
    g.tick(ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] and not g.job.running() and g.cursor == cursor
    b = g.board
    g.cat.step = no_memory
    g.cursor = next(c for c in range(b.n) if b.can_block(c) and not b.is_adjacent(b.cat, c))
    press(g, ctx, A)
    first = bytearray(6)
    b.free_neighbours(b.cat, first)
    for _ in range(trapcat_game._AI_DELAY + 1):
        g.tick(ctx)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] * 2
    assert not _cat_turn(g) and b.cat == first[0] and b.moves == 1


def test_dots_written_into_the_frame_equal_pixel_calls():
    """With ctx.frame (the bytes behind fb) the free cells' dots are set in the frame
    directly; the screen is the one pixel() calls draw, also for a 15x15 pack grid
    that runs off the bottom of the screen."""
    import random

    rnd = random.Random(3)
    for size in (9, 15):
        plain = FakeCtx(1)
        g = trapcat_game.Scene(plain)
        assert g.screen is g.play_screen
        g._set_size(size)
        b = g.board
        for cell in range(b.n):
            b.cells[cell] = 1 if rnd.random() < 0.2 else 0
        b.cells[b.cat] = 0
        for cursor, screen in ((b.n // 2 + 1, g.play_screen), (3, g.end_screen)):
            g.cursor = cursor
            g.screen = screen
            ref = bytearray(1024)
            g.draw(framebuf.FrameBuffer(ref, 128, 64, framebuf.MONO_VLSB))
            direct = FakeCtx(1)
            direct.frame = bytearray(1024)
            direct.width, direct.height = 128, 64
            g.ctx = direct
            g.draw(framebuf.FrameBuffer(direct.frame, 128, 64, framebuf.MONO_VLSB))
            g.ctx = plain
            assert direct.frame == ref and sum(ref) > 500


def _text_at(fb, x, y, n):
    """The 3x5 characters at (x, y) read back from ``fb`` as a string of ``n``
    (each glyph matched against the font; '?' where none fits)."""
    import gfx
    out = ""
    for i in range(n):
        cols = bytes(sum(fb.pixel(x + 4 * i + cx, y + cy) << cy for cy in range(5))
                     for cx in range(3))
        code = next((c for c in range(32, 96) if gfx._FONT[3 * (c - 32):3 * (c - 32) + 3] == cols),
                    63)
        out += chr(code)
    return out


def _screen(g):
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    g.draw(fb)
    return fb


def _play_out(g, ctx, pick):
    """Block ``pick(g)`` each turn until the game is over (the cat's turns ticked)."""
    for _ in range(1000):
        if _over(g):
            return
        if _cat_turn(g):
            g.tick(ctx)
        else:
            g.cursor = pick(g)
            press(g, ctx, A)
    raise AssertionError("the game did not end")


def _first_free(g):
    b = g.board
    return next(c for c in range(b.n) if b.can_block(c))


def test_records_are_kept_per_difficulty_and_an_old_save_reads_into_them():
    """A save from before the records were per difficulty ("won"/"lost" of
    every difficulty, the bests) is read as it is; each game then counts at
    its difficulty and in the totals, the panel shows the difficulty's own;
    a value that does not fit is dropped with "RECORDS RESET"."""
    ctx = FakeCtx(2)
    ctx.saved["trapcat"] = {"won": 3, "lost": 4, "best1": 12, "best2": 20}
    g = trapcat_game.Scene(ctx)
    assert g.records == {"won": 3, "lost": 4, "best1": 12, "best2": 20} and ctx.toasts == []
    assert g.lines[2:] == ("WON 0 LOST 0", "BEST 20")
    _play_out(g, ctx, _first_free)                    # blocks far from the cat: lost
    assert g.board.status == trapcat.CAT_WON
    assert ctx.saved["trapcat"] == {"won": 3, "lost": 5, "lost2": 1, "best1": 12, "best2": 20}
    assert g.lines[2:] == ("WON 0 LOST 1", "BEST 20")
    # a win at EASY on a random grid: the difficulty's counters and best
    ctx = FakeCtx(0)
    ctx.saved["trapcat"] = {"won": 3, "lost": 5, "lost2": 1, "best1": 12, "best2": 20}
    g = trapcat_game.Scene(ctx)
    assert g.lines[2:] == ("WON 0 LOST 0", "BEST -")
    b = g.board
    for c in range(b.n):                              # the cat walled in but one cell
        b.cells[c] = 0
    for k in range(6):
        if b.adj[6 * b.cat + k] != trapcat.NONE:
            b.cells[b.adj[6 * b.cat + k]] = 1
    last = b.adj[6 * b.cat]
    b.cells[last] = 0
    g.cursor = last
    press(g, ctx, A)
    assert _over(g) and b.status == trapcat.PLAYER_WON and not g.helped
    assert ctx.saved["trapcat"] == {"won": 4, "lost": 5, "won0": 1, "best0": 1, "lost2": 1,
                                    "best1": 12, "best2": 20}
    assert g.lines[2:] == ("WON 1 LOST 0", "BEST 1")
    # a damaged value: dropped, the rest kept
    ctx = FakeCtx(1)
    ctx.saved["trapcat"] = {"won": 2, "lost1": "x", "best1": 9}
    g = trapcat_game.Scene(ctx)
    assert g.records == {"won": 2, "best1": 9} and ctx.toasts == ["RECORDS RESET"]


def test_a_hint_won_game_leaves_the_records_unchanged():
    """HARD, a hint at every turn (the pause menu's HINT, then A on its
    cell): a won game is marked, ends through ctx.finish with the records as
    they were, and its end screen says "WITH HELP: NO RECORD"."""
    won = 0
    for seed in range(4):
        ctx = FakeCtx(2)
        ctx.now = 1000 + 37 * seed
        old = {"won": 1, "lost": 2, "won2": 1, "best2": 30}
        ctx.saved["trapcat"] = dict(old)
        g = trapcat_game.Scene(ctx)
        for _ in range(1000):
            if _over(g):
                break
            if _cat_turn(g):
                g.tick(ctx)
                continue
            hint(g, ctx)
            hint_found(g, ctx)
            assert g.hint_cell == g.cursor != trapcat.NONE
            press(g, ctx, A)
        assert _over(g) and g.helped and ctx.finishes == 1
        assert ctx.saved["trapcat"] == old and ctx.saved["trapcat/play"] == {}
        fb = _screen(g)
        assert _text_at(fb, trapcat_game.PX, 26, 10) == "WITH HELP:"
        assert _text_at(fb, trapcat_game.PX, 34, 9) == "NO RECORD"
        won += g.board.status == trapcat.PLAYER_WON
    assert won >= 3, won


def test_a_tick_runs_the_hints_slices_or_sends_a_changed_frame_not_both():
    """Together they came to 37-50 ms on the virtual Pico: a tick whose cursor
    moved runs no slice, and the hint found is shown in the tick after."""
    ctx = SlicedCtx(2)
    g = trapcat_game.Scene(ctx)
    hint(g, ctx)
    steps = []
    step = g.hinter.step
    g.hinter.step = lambda: steps.append(1) or step()
    cursor = g.cursor
    press(g, ctx, RIGHT)                               # the cursor moves: no slice
    assert g.cursor == cursor + 1 and steps == [] and g.job.running()
    gamectx.release(g, ctx, RIGHT)
    assert steps                                       # a still cursor: the slices run
    while g.job.running():
        g.tick(ctx)
    assert g.hint_cell == trapcat.NONE and g.cursor == cursor + 1   # found, not yet shown
    n = len(steps)
    g.tick(ctx)
    assert g.hint_cell == g.cursor != cursor + 1 and len(steps) == n
    assert not g.job.running() and g.job.task is None


def test_help_is_kept_across_continue_and_an_older_snapshot_is_unhelped():
    ctx = FakeCtx(1)
    g = trapcat_game.Scene(ctx)
    hint(g, ctx)
    hint_found(g, ctx)
    snap = g.snapshot()
    assert snap["helped"] is True
    h = trapcat_game.Scene(FakeCtx(1))
    assert h.restore(snap) and h.helped and h.lines[0] == "NORMAL: HELPED"
    del snap["helped"]                                # a save from before the key
    assert h.restore(snap) and not h.helped and h.lines[0] == "NORMAL"


def test_a_hint_is_labelled_and_its_cell_marked_until_the_block():
    ctx = FakeCtx(1)
    g = trapcat_game.Scene(ctx)
    fb = _screen(g)
    assert _text_at(fb, trapcat_game.PX, 44, 7) == "A:BLOCK"
    assert _text_at(fb, trapcat_game.PX, 51, 8) == "B+A:UNDO"
    assert _text_at(fb, trapcat_game.PX, 58, 12) == "HOLD B: MENU"
    hint(g, ctx)
    hint_found(g, ctx)
    cell = g.hint_cell
    assert cell == g.cursor and g.board.can_block(cell)
    g.cursor = _first_free(g) if _first_free(g) != cell else cell + 1   # the cursor leaves it
    fb = _screen(g)
    assert _text_at(fb, trapcat_game.PX, 44, 13) == "HINT: BLOCK X"
    size = g.board.size
    x = (cell % size) * trapcat_game.CELL + (trapcat_game.SHIFT if cell // size & 1 else 0)
    y = cell // size * trapcat_game.CELL
    # an X: both diagonals lit, the cell's centre dot drawn as part of it, the edges' middles dark
    assert all(fb.pixel(x + 1 + i, y + 1 + i) and fb.pixel(x + 5 - i, y + 1 + i) for i in range(5))
    assert not fb.pixel(x + 3, y + 1) and not fb.pixel(x + 1, y + 3)
    g.cursor = cell
    press(g, ctx, A)
    assert g.hint_cell == trapcat.NONE
    assert _text_at(_screen(g), trapcat_game.PX, 44, 10) == "CAT THINKS"


def test_the_cats_thinking_and_the_hints_search_look_different():
    ctx = SlicedCtx(2)
    g = trapcat_game.Scene(ctx)
    hint(g, ctx)
    g.tick(ctx)
    assert g.job.running() and not g.play_screen.cat_turn
    fb = _screen(g)
    px = trapcat_game.PX
    assert fb.pixel(px - 1, 43) == 1                         # inverse video
    assert _text_at(_inverted(fb), px, 44, 12) == "FINDING HINT"
    while g.job.running():
        g.tick(ctx)
    press(g, ctx, A)
    g.tick(ctx)
    assert g.play_screen.cat_turn
    fb = _screen(g)
    assert fb.pixel(px - 1, 43) == 0 and _text_at(fb, px, 44, 10) == "CAT THINKS"


def _inverted(fb):
    out = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    for y in range(64):
        for x in range(128):
            out.pixel(x, y, 1 - fb.pixel(x, y))
    return out


def test_the_cursor_on_a_blocked_cell_is_not_a_bigger_block():
    """A block is a lit 5x5 square; the cursor a 7x7 frame; the two together
    leave a dark ring between the frame and a smaller block."""
    ctx = FakeCtx(1)
    g = trapcat_game.Scene(ctx)
    b = g.board
    cell = next(c for c in range(b.n) if b.cells[c] and c != b.cat)
    size = b.size
    x = (cell % size) * trapcat_game.CELL + (trapcat_game.SHIFT if cell // size & 1 else 0)
    y = cell // size * trapcat_game.CELL

    def look():
        fb = _screen(g)
        return ["".join("#" if fb.pixel(x + i, y + j) else "." for i in range(7)) for j in range(7)]

    g.cursor = cell + 1 if cell + 1 != b.cat else cell - 1
    assert look() == [".......", ".#####.", ".#####.", ".#####.", ".#####.", ".#####.", "......."]
    g.cursor = cell
    assert look() == ["#######", "#.....#", "#.###.#", "#.###.#", "#.###.#", "#.....#", "#######"]
    press(g, ctx, A)                                  # and A there is refused, on screen too
    assert ctx.toasts == ["CAN'T BLOCK THERE"] and b.moves == 0
    gamectx.chord(g, ctx, B, A)                       # B+A with nothing to undo
    assert ctx.toasts == ["CAN'T BLOCK THERE", "NOTHING TO UNDO"]



# -- ticks drawn over the frame on show (the pause menu's first frame, a new game) ---------
def _whole_draw(scene):
    real = type(scene).draw

    def draw(fb):
        scene.menu_first = False
        real(scene, fb)
    return draw


def _handheld_frames(script, toast_at, whole, opened=None):
    """The frame on the simulated handheld's screen after each tick of
    ``script`` (Trap the Cat opened by the launcher), a toast shown for 4 ticks
    from tick ``toast_at``; ``whole``: the pause menu's first frame drawn whole
    (the play screen, then the menu), as every other frame is; ``opened``: a
    list given the ticks the menu's first frame was drawn in."""
    import games
    from host_tools.core.keyscript import parse_keys
    from host_tools.emulation import sim as simmod

    s = simmod.Simulator()
    rt = s.runtime
    i = [g[0] for g in games.GAMES].index("trapcat")
    out = []
    for t, keys in enumerate(parse_keys("down*%d a wait:10 " % i + script)):
        scene = rt.screen
        if whole and type(scene).__name__ == "Scene" and "draw" not in vars(scene):
            scene.draw = _whole_draw(scene)
        if t == toast_at:
            rt.toast("NOT ENOUGH MEMORY", 4)     # wider than the grid left of the menu
        s.step(keys)
        if opened is not None and type(rt.screen).__name__ == "Scene" and rt.screen.menu_first:
            opened.append(t)
        out.append(bytes(rt.display.buffer))
    return out


def test_the_menus_first_frame_over_the_frame_on_show_is_the_whole_frame():
    # the cursor on the cat's row, the distance map off or on: a toast that
    # goes in the tick before the menu's first frame, in it or after, or stays,
    # leaves the same pixels as the whole frame drawn again
    for script in ("right wait:8 hold:b:20 wait:4 b wait:3",
                   "up b+down wait:8 hold:b:20 wait:4 b wait:3"):
        opened = []
        _handheld_frames(script, -1, False, opened)
        assert len(opened) == 1
        for toast_at in range(opened[0] - 6, opened[0] + 2):
            fast = _handheld_frames(script, toast_at, False)
            assert fast == _handheld_frames(script, toast_at, True), (script, toast_at)


def test_a_new_game_keeps_the_frame_on_show_one_tick():
    # RESTART from the pause menu: in the tick of A the menu stays on screen,
    # the new grid shows from the next tick
    frames = _handheld_frames("right a wait:8 hold:b:20 down*3 a wait:4", -1, False)
    restart = len(frames) - 8                      # A: 2 ticks down, 2 up, then 4 more
    menu = frames[restart - 1]
    assert frames[restart] == menu and menu != frames[restart - 30]
    assert frames[restart + 1] != menu and frames[restart + 1] == frames[-1]
