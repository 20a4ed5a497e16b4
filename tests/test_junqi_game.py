"""The flip-Junqi scene (firmware/junqi_game.py): scripted buttons through a fake
context (whole games vs the AI and pass-and-play, the AI sliced by the
deadline, saves), the board geometry, and the game started from the launcher
inside the MicroPython VMs (allocation per tick, resident heap)."""

import sys
from pathlib import Path
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gfx  # noqa: E402
import junqi_ai as ja  # noqa: E402
import junqi_board as jb  # noqa: E402
import junqi_flip as jf  # noqa: E402
import junqi_game  # noqa: E402
import work  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402
import gamectx  # noqa: E402
from gamectx import press, release  # noqa: E402


class SliceDeadline(gamectx.CountingDeadline):
    """Counts the job's checks (work.Job asks ``remaining()`` after each
    slice): none left after ``budget`` of them."""

    def remaining(self):
        self.expired()
        return super().remaining()


class FakeCtx(gamectx.FakeCtx):
    """A deadline that runs out after two checks, handed out fresh per tick:
    counts the AI slices run per tick (``deadlines``, ``dl.max_checks``)."""

    def __init__(self, difficulty=1):
        super().__init__(difficulty)
        self.now = 4321
        self.dl = SliceDeadline(budget=2)
        self.deadlines = 0

    def deadline(self, ms=20):
        assert ms <= 20
        self.deadlines += 1
        self.dl.checks = 0
        return self.dl


def goto(scene, ctx, fb, cell):
    """Walk the cursor to ``cell`` with the arrows (rows along x, columns along y)."""
    for _ in range(40):
        c = scene.cursor
        if c == cell:
            return
        r, k = divmod(c, 5)
        tr, tk = divmod(cell, 5)
        btn = RIGHT if tr > r else LEFT if tr < r else DOWN if tk > k else UP
        press(scene, ctx, btn)
        scene.draw(fb)
    raise AssertionError("cursor stuck")


def human_move(scene, ctx, fb, move):
    src, dst = move >> 6, move & 63
    goto(scene, ctx, fb, src)
    press(scene, ctx, A)
    if src != dst:
        assert scene.sel == src and scene.mark[dst]
        goto(scene, ctx, fb, dst)
        scene.draw(fb)
        assert scene.path_len >= 2 and scene.path[0] == src and scene.path[scene.path_len - 1] == dst
        press(scene, ctx, A)


def run_until_input(scene, ctx, fb, limit=400):
    for _ in range(limit):
        if scene.screen is scene.play_screen or scene.screen is scene.end_screen:
            return
        scene.tick(ctx)
        scene.draw(fb)
    raise AssertionError("scene stuck on %s" % type(scene.screen).__name__)


def real_fb():
    return framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)


def start(ctx, mode):
    g = junqi_game.Scene(ctx)
    fb = real_fb()
    g.draw(fb)
    assert g.screen is g.menu_screen
    if mode:
        press(g, ctx, DOWN)
    press(g, ctx, A)
    assert g.screen is g.play_screen and g.mode == mode
    return g, fb


def test_geometry_rotated_board_fits_and_cells_do_not_overlap():
    boxes = set()
    for c in range(jb.CELLS):
        x, y = junqi_game.cell_xy(c)
        assert 0 <= x and x + junqi_game._BOX_W <= 128 and 0 <= y and y + junqi_game._BOX_H <= 64
        boxes.add((x, y))
    assert len(boxes) == jb.CELLS
    # rows A..L left to right, columns 0..4 top to bottom, the front line between F and G
    assert junqi_game.cell_xy(jb.parse_cell("A0")) < junqi_game.cell_xy(jb.parse_cell("L0"))
    fx = junqi_game.cell_xy(jb.parse_cell("F0"))[0]
    gx = junqi_game.cell_xy(jb.parse_cell("G0"))[0]
    assert gx - fx == junqi_game.CELL_W + junqi_game._GAP


def test_glyphs_are_distinct():
    art, n = junqi_game.GLYPHS, junqi_game._GLYPH_ROWS
    assert n == 7 and len(art) == jf.TYPES * n and max(art) < 32     # 5 pixels a row
    assert len({art[t * n:(t + 1) * n] for t in range(jf.TYPES)}) == jf.TYPES


@pytest.mark.parametrize("difficulty", [1, 0])
def test_vs_ai_whole_game_with_scripted_buttons(difficulty):
    """A whole game against the full AI (NORMAL) and the easy one (EASY):
    each keeps its own record."""
    ctx = FakeCtx(difficulty)
    g, fb = start(ctx, 0)
    ctx.game, ctx.game_id = g, "junqi"          # the play save follows the scene
    assert g.ai.top_k == (0 if difficulty == 0 else ja._TOP_K)
    rng = jf.Rng(99)
    engineer_routes = 0
    for _ in range(600):
        run_until_input(g, ctx, fb)
        if g.screen is g.end_screen:
            break
        model = g.model
        assert model.to_move == 0
        n = model.legal_moves()
        # prefer piece moves (they exercise selection, highlight and the route)
        moves = [model.moves[i] for i in range(n)]
        walks = [m for m in moves if m >> 6 != m & 63]
        move = (walks or moves)[rng.below(len(walks or moves))]
        if walks and model.kind[move >> 6] == jf.ENGINEER:
            engineer_routes += 1
        before = model.plies
        human_move(g, ctx, fb, move)
        if g.screen is g.move_screen:
            assert g.path_len >= 2
        run_until_input(g, ctx, fb)
        assert model.plies >= before + 1
    assert g.screen is g.end_screen
    assert ctx.deadlines > 0 and ctx.dl.max_checks <= 2   # sliced: a few AI steps per tick
    rec = ctx.saved["junqi"]
    prefix = "easy_" if difficulty == 0 else ""
    assert sum(rec.get(prefix + k, 0) for k in ("won", "lost", "drawn")) == 1
    assert len(rec) == 1
    assert g.record.startswith("VS EASY AI" if difficulty == 0 else "VS AI ")
    assert g.end_screen.banner in ("YOU WIN", "AI WINS", "DRAW")
    # the end went through ctx.finish once: no game in progress from then on
    assert ctx.finishes == 1 and g.snapshot() is None and ctx.saved["junqi/play"] == {}
    g.draw(fb)
    press(g, ctx, B)
    release(g, ctx, B)                      # B: back to the menu
    assert g.screen is g.menu_screen
    assert release(g, ctx, B) == "exit"


def test_ai_turn_is_sliced_and_shows_thinking():
    ctx = FakeCtx()
    g, fb = start(ctx, 0)
    human_move(g, ctx, fb, 27 * 65)      # flip F2
    assert g.screen is g.think_screen
    ticks = 0
    while g.screen is g.think_screen:
        g.tick(ctx)
        g.draw(fb)
        ticks += 1
    assert ticks >= junqi_game._THINK_MIN
    run_until_input(g, ctx, fb)
    assert g.model.plies == 2 and g.model.to_move == 0


def test_pass_and_play_and_cancel_selection():
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    ai = [ja.AI(seed=5), ja.AI(seed=6)]
    cancelled = False
    for _ in range(400):
        run_until_input(g, ctx, fb)
        if g.screen is g.end_screen:
            break
        model = g.model
        move = ai[model.to_move].choose(model)
        src = move >> 6
        if not cancelled and src != move & 63:
            goto(g, ctx, fb, src)
            press(g, ctx, A)
            assert g.sel == src
            release(g, ctx, B)
            assert g.sel == jb.NONE and not any(g.mark)
            cancelled = True
        human_move(g, ctx, fb, move)
    assert g.screen is g.end_screen and cancelled
    assert g.end_screen.banner in ("P1 WINS", "P2 WINS", "DRAW")
    assert ctx.saved["junqi"] == {"pvp": 1} and ctx.finishes == 1 and g.snapshot() is None


def test_a_draw_ends_through_finish_too():
    """Quiet moves only (none flips or attacks) until the quiet limit: a
    draw, stored by ctx.finish like a win; the game in progress is gone."""
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    ctx.game, ctx.game_id = g, "junqi"
    model = g.model
    model.quiet_limit = 4
    rng = jf.Rng(3)
    for _ in range(400):
        run_until_input(g, ctx, fb)
        if g.screen is g.end_screen:
            break
        n = model.legal_moves()
        moves = [model.moves[i] for i in range(n)]
        quiet = [m for m in moves if m >> 6 != m & 63 and model.occ[m & 63] == 0]
        pick = quiet or moves
        human_move(g, ctx, fb, pick[rng.below(len(pick))])
    assert g.screen is g.end_screen and model.winner == jf.DRAW
    assert (g.end_screen.banner, g.end_screen.reason) == ("DRAW", "4 QUIET MOVES")
    assert ctx.saved["junqi"] == {"pvp": 1} and ctx.finishes == 1
    assert g.snapshot() is None and ctx.saved["junqi/play"] == {}


class StarvedAI(ja.AI):
    """The device AI whose search runs out of memory in its ``fail_at``-th
    slice (``found``: its answer at that moment)."""

    def __init__(self, fail_at, seed):
        super().__init__(seed=seed)
        self.fail_at = fail_at
        self.slices = 0
        self.found = None

    def step(self):
        self.slices += 1
        if self.slices == self.fail_at:
            self.found = self.answer
            raise MemoryError("memory allocation failed")
        return super().step()


@pytest.mark.parametrize("fail_at", [1, 6])
def test_the_ai_out_of_memory_plays_on(fail_at):
    """A MemoryError in the AI's search: the job shows the one "NOT ENOUGH
    MEMORY" toast and the AI plays the move found so far (in the 6th slice:
    after some flips were scored), or the first legal move when it had none
    (the 1st slice); then it is the player's turn and the next search runs
    as usual."""
    ctx = FakeCtx()
    g, fb = start(ctx, 0)
    ctx.game, ctx.game_id = g, "junqi"
    g.ai = ai = StarvedAI(fail_at, seed=g.seed + 1)
    model = g.model
    human_move(g, ctx, fb, 27 * 65)                  # flip F2: the AI's turn
    assert g.screen is g.think_screen
    model.legal_moves()
    first_legal = model.moves[0]
    run_until_input(g, ctx, fb)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] and ai.slices == fail_at
    assert (ai.found == work.NO_ANSWER) == (fail_at == 1)
    played = model.last_src * 64 + model.last_dst
    assert played == (first_legal if fail_at == 1 else ai.found)
    assert g.screen is g.play_screen and model.plies == 2 and model.to_move == 0
    assert g.snapshot() is not None and ctx.saved["junqi/play"]["resume"] == g.snapshot()
    model.legal_moves()
    human_move(g, ctx, fb, model.moves[0])           # the next turn: a whole search
    run_until_input(g, ctx, fb)
    assert ctx.toasts == ["NOT ENOUGH MEMORY"] and ai.slices > fail_at + 5
    assert model.plies == 4 and g.screen is g.play_screen


def test_illegal_presses_change_nothing():
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    human_move(g, ctx, fb, 27 * 65)
    run_until_input(g, ctx, fb)
    model = g.model
    # player 1 may not pick up a face-up piece of player 0's colour
    goto(g, ctx, fb, 27)
    plies = model.plies
    press(g, ctx, A)
    assert g.sel == jb.NONE and model.plies == plies


VM_SCRIPT = r"""
import games
k = [e[0] for e in games.GAMES].index('junqi')
idle(3)
tap(buttons.DOWN, k)
tap(buttons.A)
idle(3)
g = rt.screen
emit('screen', (type(g).__name__, type(g.screen).__name__))
tap(buttons.A)            # vs AI
idle(2)
emit('idle_alloc', [measure(step, 0)[2] for _ in range(4)])
tap(buttons.A)            # flip F2, then the AI thinks over several ticks
worst = 0
think = 0
for i in range(40):
    thinking = g.screen is g.think_screen
    _, f, a = measure(step, 0)
    if thinking:
        think += 1
        if f > worst:
            worst = f
emit('ai', (think, worst, g.model.plies, type(g.screen).__name__))
tap(buttons.RIGHT)
emit('cursor', g.cursor)
"""


def test_game_from_the_launcher_in_the_micropython_vm(vm):
    from host_tools.emulation import mpvm, runtime_vm

    with runtime_vm.staged_firmware() as fw:
        r = mpvm.run(runtime_vm.SETUP + VM_SCRIPT, input_dir=fw)
    assert r["screen"] == ("Scene", "MenuScreen")
    assert r["idle_alloc"] == [0] * 4
    think, worst, plies, state = r["ai"]
    assert plies == 2 and state == "PlayScreen" and think >= junqi_game._THINK_MIN - 4
    print('worst AI tick fuel', worst)
    assert worst < 5_500_000           # one tick (AI slices + draw) <= 50 ms on a Pico
    assert r["cursor"] == 32


HEAP_SCRIPT = r"""
GC_SAFE = True
import gc
gc.collect()
#@@toplevel
_a = gc.mem_alloc()
import machine
gc.collect()
#@@toplevel
FAKE_MACHINE = gc.mem_alloc() - _a
""" + r"""%s
del boardcfg
import games
idle(5)
gc.collect()
#@@toplevel
base = gc.mem_alloc() - FAKE_MACHINE
tap(buttons.DOWN, [e[0] for e in games.GAMES].index('junqi'))
tap(buttons.A)
idle(2)
tap(buttons.A)
idle(2)
tap(buttons.A)
for i in range(60):
    step(0)
gc.collect()
#@@toplevel
emit('heap', (base, gc.mem_alloc() - FAKE_MACHINE, rt.screen.model.plies))
"""

PICO_FREE_HEAP = 175 * 1024      # MicroPython 1.27 on a Pico after boot (tests/test_flash.py)


def test_resident_heap_while_playing_fits_the_pico(node_vm):
    from host_tools.emulation import mpnode, runtime_vm

    with runtime_vm.staged_firmware() as fw:
        r = mpnode.run(HEAP_SCRIPT % runtime_vm.SETUP, firmware_dir=fw)
    base, playing, plies = r["heap"]
    assert plies >= 2
    # the launcher, the runtime and the running game with its modules' bytecode
    assert playing < PICO_FREE_HEAP * 2 // 3, playing


def test_an_engineer_on_the_railway_shows_the_cells_its_bfs_reached():
    """Picked up on the railway of an emptied board, the engineer's reachable
    cells show router.dist (cells entered) as numbers; other pieces do not."""
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    human_move(g, ctx, fb, 27 * 65)                  # P1 flips F2: P1 has a colour
    run_until_input(g, ctx, fb)
    model = g.model
    model.to_move = 0
    col = model.player_colour[0]
    src = next(c for c in range(jb.CELLS) if jb.ON_RAIL[c] and jb.KIND[c] != jb.HQ)
    for c in range(jb.CELLS):
        model.occ[c] = 0
    model.occ[src] = col + 1
    model.kind[src] = jf.ENGINEER
    model.colour[src] = col
    goto(g, ctx, fb, src)
    press(g, ctx, A)
    assert g.sel == src
    dist = model.router.dist
    reached = [c for c in range(jb.CELLS) if g.mark[c]]
    assert len(reached) > 10 and max(dist[c] for c in reached) >= 2
    assert all(g.steps[c] == dist[c] for c in reached)
    g.frame = 8                                      # the blink's off phase: numbers stay
    g.note_ticks = 0                                 # (the first flip's note gone)
    g.draw(fb)
    digits = [gfx.glyph(ch) for ch in "0123456789"]
    for c in reached:
        if c == g.cursor or dist[c] >= 10:
            continue
        x, y = junqi_game.cell_xy(c)
        glyph = digits[dist[c]]
        assert all(fb.pixel(x + 3 + dx, y + 3 + dy) == glyph.pixel(dx, dy)
                   for dx in range(3) for dy in range(5)), c
    release(g, ctx, B)                               # dropped: no numbers left
    model.kind[src] = jf.ENGINEER + 1                 # any other piece: no numbers
    goto(g, ctx, fb, src)
    press(g, ctx, A)
    assert g.sel == src and not any(g.steps[c] for c in range(jb.CELLS) if g.mark[c])



def test_mines_guard_the_flag_is_a_menu_setting_on_by_default():
    """The menu's third line switches the rule (A, LEFT or RIGHT), stored in
    the game's save; a new game plays the setting, a saved game its own."""
    ctx = FakeCtx()
    g = junqi_game.Scene(ctx)
    assert g.guard() is True
    g.new_game()
    assert g.model.mines_guard_flag is True
    g.screen = g.menu_screen
    press(g, ctx, DOWN)
    press(g, ctx, DOWN)
    fb = real_fb()
    key = g.frame_key()
    press(g, ctx, A)
    assert g.screen is g.menu_screen and ctx.saved["junqi"] == {"guard": False}
    assert g.frame_key() != key
    press(g, ctx, UP)
    press(g, ctx, UP)
    press(g, ctx, A)                                  # VS DEVICE AI
    assert g.screen is g.play_screen and g.model.mines_guard_flag is False
    g2 = junqi_game.Scene(ctx)                        # read back from the save
    assert g2.guard() is False
    g2.draw(fb)
    snap = g.snapshot()
    assert snap["guard"] is False
    # a saved game keeps its rule; one saved before the rule existed plays without it
    snap["guard"] = True
    g3 = junqi_game.Scene(FakeCtx())
    assert g3.restore(snap) and g3.model.mines_guard_flag is True
    del snap["guard"]
    assert g3.restore(snap) and g3.model.mines_guard_flag is False
    snap["guard"] = 1                                 # not a boolean: refused
    assert not g3.restore(snap)
    bad = FakeCtx()
    bad.saved["junqi"] = {"won": 2, "guard": "yes"}
    g4 = junqi_game.Scene(bad)
    assert g4.saved == {"won": 2} and bad.toasts == ["RECORDS RESET"] and g4.guard() is True


def test_an_enemy_flag_guarded_by_mines_says_so():
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    human_move(g, ctx, fb, 27 * 65)                  # P1 flips F2
    run_until_input(g, ctx, fb)
    m = g.model
    mine = m.player_colour[0]
    for c in range(jb.CELLS):
        m.occ[c] = 0
        m.colour[c] = jf.NOBODY
    m.to_move = 0

    def put(c, col, t):
        m.occ[c] = col + 1
        m.colour[c] = col
        m.kind[c] = t
    put(jb.parse_cell("K1"), mine, 8)
    put(jb.parse_cell("L1"), 1 - mine, jf.FLAG)
    put(jb.parse_cell("L4"), 1 - mine, jf.MINE)      # alive[] still counts its mines
    goto(g, ctx, fb, jb.parse_cell("K1"))
    press(g, ctx, A)
    assert g.sel == jb.parse_cell("K1") and not g.mark[jb.parse_cell("L1")]
    goto(g, ctx, fb, jb.parse_cell("L1"))
    press(g, ctx, A)
    assert ctx.toasts[-1] == "MINES GUARD THE FLAG" and m.plies == 1
    goto(g, ctx, fb, jb.parse_cell("C2"))            # an empty cell, nothing picked up
    release(g, ctx, B)
    press(g, ctx, A)
    assert ctx.toasts[-1] == "NOT A MOVE" and m.plies == 1


@pytest.mark.parametrize("mode", [0, 1])
def test_the_first_flip_says_which_colour_is_yours(mode):
    """The first flip gives the colours: a note over the field says which is
    yours and that filled is red, for NOTE_TICKS; an undo of that flip takes
    it away."""
    ctx = FakeCtx()
    g, fb = start(ctx, mode)
    human_move(g, ctx, fb, 27 * 65)
    c = g.model.player_colour[0]
    note = "%s: %s" % ("YOU" if mode == 0 else "P1", ("RED (FILLED)", "BLUE (OUTLINED)")[c])
    assert g.note == note and g.note_ticks == junqi_game._NOTE_TICKS
    g.draw(fb)
    w = gfx.text_width(note)
    x = 67 - (w + 6) // 2
    assert _read(fb, x, 29, len(note)) == note
    if mode:
        human_move(g, ctx, fb, 22 * 65)           # the second flip says nothing
    else:
        run_until_input(g, ctx, fb)
    assert g.note == note and 0 < g.note_ticks < junqi_game._NOTE_TICKS
    while g.model.plies:                          # back before the first flip
        gamectx.chord(g, ctx, B, A)
    assert g.model.player_colour[0] == jf.NOBODY and g.note_ticks == 0
    g.draw(fb)
    assert _read(fb, x, 29, len(note)) != note
    human_move(g, ctx, fb, 27 * 65)
    for _ in range(junqi_game._NOTE_TICKS):
        g.tick(ctx)
    g.draw(fb)
    assert g.note_ticks == 0 and _read(fb, x, 29, len(note)) != note and ctx.toasts == []


def _read(fb, x, y, n):
    """The 3x5 characters at (x, y), each matched against the font ('?': none)."""
    out = ""
    for i in range(n):
        cols = bytes(sum(fb.pixel(x + 4 * i + cx, y + cy) << cy for cy in range(5))
                     for cx in range(3))
        out += next((chr(c) for c in range(32, 96) if gfx._FONT[3 * (c - 32):3 * (c - 32) + 3] == cols),
                    "?")
    return out


def _field(g):
    fb = real_fb()
    g.view.draw(fb, g, jb.NONE)
    return fb


def test_the_last_move_is_marked_apart_from_the_roads():
    """A dashed frame in the gaps around the piece that moved (every other
    pixel: no road or railway looks like it) and a square where it came from."""
    ctx = FakeCtx()
    g, fb = start(ctx, 1)
    m = g.model
    human_move(g, ctx, fb, 27 * 65)
    run_until_input(g, ctx, fb)
    mine = m.player_colour[0]
    for c in range(jb.CELLS):
        m.occ[c] = 0
        m.colour[c] = jf.NOBODY
    m.occ[27] = jf.HIDDEN                             # someone's piece, so nobody runs out of moves
    m.colour[27] = 1 - mine
    m.to_move = 0
    src, dst = jb.parse_cell("B1"), jb.parse_cell("B3")
    m.occ[src] = mine + 1
    m.colour[src] = mine
    m.kind[src] = 8
    move = src * 64 + dst
    human_move(g, ctx, fb, move)
    run_until_input(g, ctx, fb)
    assert (m.last_src, m.last_dst) == (src, dst) and m.occ[dst] == mine + 1
    marked = _field(g)
    m.last_src = m.last_dst = jf.NOBODY
    plain = _field(g)
    x, y = junqi_game.cell_xy(dst)
    frame = [(x - 1 + i, y - 1) for i in range(11)] + [(x - 1, y - 1 + i) for i in range(13)]
    assert [marked.pixel(*p) for p in frame] == [1 - i % 2 for i in range(11)] + [1 - i % 2 for i in range(13)]
    # where it came from: a 5x5 square around the cell's centre, its middle dark
    x, y = junqi_game.cell_xy(src)
    ring = [(x + 2 + i, y + 3) for i in range(5)] + [(x + 2, y + 3 + i) for i in range(5)]
    assert all(marked.pixel(*p) for p in ring) and not marked.pixel(x + 4, y + 5)
    diff = sum(marked.pixel(i, j) != plain.pixel(i, j) for i in range(128) for j in range(64))
    assert diff >= 30


def test_the_ais_flip_turns_the_tile_over():
    """The AI's flip is shown FLIP_TICKS ticks: the face-down tile narrows,
    then the piece widens; the model changes once it is over."""
    ctx = FakeCtx()
    g, fb = start(ctx, 0)
    human_move(g, ctx, fb, 27 * 65)
    while g.screen is g.think_screen:
        g.tick(ctx)
    m = g.model
    assert g.screen is g.move_screen
    move = g.move_screen.move
    c = move >> 6
    assert c == move & 63 and m.occ[c] == jf.HIDDEN      # the AI opens with a flip
    x, y = junqi_game.cell_xy(c)
    widths = []
    while g.screen is g.move_screen:
        g.draw(fb)
        lit = [i for i in range(junqi_game._BOX_W) if any(fb.pixel(x + i, y + j) for j in range(junqi_game._BOX_H))]
        widths.append(lit[-1] - lit[0] + 1 if lit else 0)
        assert m.occ[c] == jf.HIDDEN and m.plies == 1
        g.tick(ctx)
    assert len(widths) == junqi_game._FLIP_TICKS
    assert widths[2] < widths[1] < widths[0] and widths[3] < widths[4] < widths[5]
    assert m.occ[c] != jf.HIDDEN and m.plies == 2 and g.screen is g.play_screen


def _draw_whole(view, empty, fb, s, moving):
    """The field as drawn before FieldView kept its pieces in ``bg``: the
    empty field, the route, every cell's piece or marks, the last move."""
    fb.blit(empty, 0, 0)
    if s.path_len:
        view.draw_path(fb, s.path, s.path_len)
    m = s.model
    last = moving == jb.NONE and m.last_src != jf.NOBODY
    if last and m.last_src != m.last_dst:
        c = m.last_src
        fb.fill_rect(view.cx[c] + 2, view.cy[c] + 3, 5, 5, 0)
        fb.rect(view.cx[c] + 2, view.cy[c] + 3, 5, 5, 1)
    blink = (s.frame >> 3) & 1
    for c in range(jb.CELLS):
        o = m.occ[c]
        x, y = view.cx[c], view.cy[c]
        if o == 0 or c == moving:
            if s.mark[c] and s.steps[c]:
                view.draw_steps(fb, x, y, s.steps[c])
            elif s.mark[c] and blink:
                fb.fill_rect(x + 2, y + 3, 5, 5, 1)
            continue
        if o == jf.HIDDEN:
            fb.blit(view.hidden, x, y)
        else:
            col = m.colour[c]
            if s.mark[c] and blink:
                col = 1 - col
            fb.blit(view.sprites[col * jf.TYPES + m.kind[c]], x, y)
        if jb.KIND[c] == jb.CAMP:
            for px, py in ((x, y), (x + 8, y), (x, y + 10), (x + 8, y + 10)):
                fb.pixel(px, py, 0)
    if last:
        c = m.last_dst
        fb.blit(view.dashed, view.cx[c] - 1, view.cy[c] - 1, 0)


@pytest.mark.parametrize("frame_bytes", [False, True])
def test_the_kept_field_draws_what_the_whole_field_did(frame_bytes):
    """FieldView keeps the field with its pieces (``bg``, drawn again only
    where a piece changed) and draws the route, marks and last move over it:
    through random games (flips, moves, captures, new deals), selections
    with their marks and routes, pieces in flight and both blink phases, every
    frame is the one the whole field drawn from scratch gives, through fb's
    blit and through the frame's bytes (ctx.frame)."""
    import random

    rnd = random.Random(7)
    ctx = FakeCtx()
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    if frame_bytes:
        ctx.frame = buf
    g = junqi_game.Scene(ctx)
    view = g.view
    empty = framebuf.FrameBuffer(bytearray(view.bg), 128, 64, framebuf.MONO_VLSB)
    want = real_fb()
    m = g.model
    checked = 0
    for game in range(3):
        m.reset(game + 1)
        for ply in range(120):
            if m.winner != jf.NOBODY or not m.legal_moves():
                break
            g.clear_marks()
            g.path_len = 0
            g.sel = jb.NONE
            mine = [c for c in range(jb.CELLS) if m.is_mine(m.to_move, c) and m.destinations(c)]
            if mine and rnd.random() < 0.7:
                g.cursor = rnd.choice(mine)
                g.select(g.cursor)
                dests = [c for c in range(jb.CELLS) if g.mark[c]]
                g.cursor = rnd.choice(dests)
                g.route_preview()
            for moving in (jb.NONE, rnd.choice([g.path[0] if g.path_len else g.cursor, jb.NONE])):
                for frame in (0, 8):
                    g.frame = frame
                    buf[:] = bytes(1024)
                    view.draw(fb, g, moving)
                    _draw_whole(view, empty, want, g, moving)
                    assert bytes(buf) == bytes(want.buf), (game, ply, moving, frame)
                    checked += 1
            m.apply(m.moves[rnd.randrange(m.nmoves)])
    assert checked > 500
