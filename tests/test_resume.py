"""A game in progress survives leaving it, the screen going off and a power cut:
each scene's snapshot()/restore(), the save after each move (after the tick,
runtime.save_pending), the launcher's CONTINUE, and a cut at every step of a
save's write.  On the simulator (the firmware on CPython)."""

import pytest

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

simmod.install_host_modules()

import savestore as saves  # noqa: E402
from runtime import play_id  # noqa: E402
from savecuts import RecordingFs, cut_states  # noqa: E402
from buttons import A, B, DOWN, LEFT, RIGHT, UP  # noqa: E402,F401
import klotski_levels  # noqa: E402

# keys that leave play in every game: hold B (the pause menu), UP (round to QUIT), A
QUIT = "hold:b:20 up a wait:2"
# per game: its launcher line, keys that make a few moves, keys that leave it
GAMES = {
    "catmouse": (0, "a wait:2 a wait:8 left wait:10 left wait:10 up wait:10", QUIT),
    "trapcat": (1, "a wait:3 left a wait:20 up a wait:20", QUIT),
    "junqi": (2, "a wait:2 a wait:2 a wait:40 right a wait:40", QUIT),
    # (Klotski: 横刀立马, down the list ordered by optimal steps)
    "klotski": (3, "a wait:2 down*%d a wait:3 down down a down wait:2 a up right a down wait:2 a"
                % klotski_levels.LEVELS.split("\n").index("横刀立马|VBBV/VBBV/VHHV/VSSV/S..S|81"), QUIT),
}


def _run(s, keys):
    for k in parse_keys(keys):
        s.step(k)


def _playing(game_id, s=None):
    """A simulator in ``game_id`` after a few moves (and its runtime)."""
    s = s or simmod.Simulator()
    line, moves, _ = GAMES[game_id]
    _run(s, "wait:2" + " down" * line + " wait:2 " + moves)
    assert s.runtime.ctx.game_id == game_id
    return s


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_leaving_saves_the_game_and_continue_puts_it_back(game_id):
    s = _playing(game_id)
    rt = s.runtime
    snap = rt.game.snapshot()
    assert snap is not None and rt.saves.seq[play_id(game_id)] >= 1     # saved after a move
    _run(s, GAMES[game_id][2])
    assert rt.screen is rt.launcher and rt.resumable == [game_id]
    assert rt.saves.load(play_id(game_id))[0]["resume"] == snap
    assert "resume" not in rt.saves.load(game_id)[0]            # the records' save has none
    _run(s, "a wait:3")
    assert rt.ctx.game_id == game_id and rt.game.snapshot() == snap


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_resumed_game_plays_on_as_the_saved_one(game_id):
    """A fresh handheld booted from the saves continues the same game: its
    undo history came along (an undo gives what it gives in the original)."""
    s = _playing(game_id)
    rt = s.runtime
    files = dict(rt.saves.fs.files)
    game = rt.game
    undone = game.undo_ring.count
    assert undone >= 1
    fresh = simmod.Simulator()
    fresh.runtime.saves.fs.files.update(files)
    fresh.runtime.__init__(fresh.runtime.hw, fresh.runtime.saves)    # boot again on these files
    fresh.runtime.launcher = rt.launcher.__class__(fresh.runtime)
    fresh.runtime.screen = fresh.runtime.launcher
    rt2 = fresh.runtime
    assert rt2.resumable == [game_id]
    _run(fresh, "wait:2" + " down" * GAMES[game_id][0] + " a wait:3")
    again = rt2.game
    assert again.snapshot() == game.snapshot()
    assert game.undo() and again.undo()             # every game's undo (docs/conventions.md)
    if game_id == "klotski":
        assert bytes(game.cells) == bytes(again.cells)
    assert again.snapshot() == game.snapshot()


def test_right_starts_a_new_game_and_leaving_its_title_drops_the_saved_one():
    s = _playing("catmouse")
    rt = s.runtime
    _run(s, QUIT)
    assert rt.resumable == ["catmouse"]
    _run(s, "right wait:2")
    assert rt.ctx.game_id == "catmouse" and rt.game.screen is rt.game.title   # no game
    _run(s, "b wait:2")
    assert rt.screen is rt.launcher and rt.resumable == []
    assert "resume" not in rt.saves.load(play_id("catmouse"))[0]


def test_watching_the_ais_leaves_nothing_to_continue():
    """WATCH (AI against AI) is not a game of the player's: leaving it offers no
    CONTINUE, where a saved 'watch' game could only be refused as lost."""
    s = simmod.Simulator()
    rt = s.runtime
    _run(s, "wait:2 a wait:2 left wait:2 a wait:20")          # PLAY AS: WATCH, started
    assert rt.ctx.game_id == "catmouse" and rt.game.side == "watch"
    assert rt.game.snapshot() is None
    _run(s, "b wait:2 b wait:2")
    assert rt.screen is rt.launcher and rt.resumable == []


def test_the_screen_going_off_saves_what_changed_since_the_last_move():
    s = _playing("trapcat")
    rt = s.runtime
    rt.settings["sleep"] = 30
    seq = rt.saves.seq["trapcat/play"]
    _run(s, "right wait:2 right wait:2")                 # the cursor moves: no save
    assert rt.saves.seq["trapcat/play"] == seq
    cursor = rt.game.cursor
    while rt.power != 2:
        s.step(())
    assert rt.saves.seq["trapcat/play"] == seq + 1
    assert rt.saves.load("trapcat/play")[0]["resume"]["cursor"] == cursor


def test_the_save_comes_after_the_tick_of_the_move():
    s = _playing("trapcat")
    rt = s.runtime
    seq = rt.saves.seq["trapcat/play"]
    rt.game.cursor = 0
    _run(s, "right a")
    while rt.game.play_screen.cat_turn:  # the cat's reply: the move is complete
        rt.step()
    assert rt.save_due and rt.saves.seq["trapcat/play"] == seq
    rt.save_pending()
    assert not rt.save_due and rt.saves.seq["trapcat/play"] == seq + 1


def test_the_end_of_a_game_keeps_the_records_and_drops_the_saved_game():
    s = _playing("trapcat")
    rt = s.runtime
    g = rt.game
    while g.screen is not g.end_screen:  # block the cells next to the cat until it ends
        b = g.board
        cells = [c for c in range(b.n) if b.can_block(c)]
        near = [c for c in cells if b.is_adjacent(b.cat, c)] or cells
        g.cursor = near[0]
        _run(s, "a")
        while g.play_screen.cat_turn:
            s.step(())
    _run(s, "wait:2")                    # the end's two writes, one after each light tick
    saved = rt.saves.load("trapcat")[0]
    assert saved.get("won", 0) + saved.get("lost", 0) == 1
    assert rt.resumable == [] and rt.saves.load("trapcat/play")[0] == {}
    _run(s, "b wait:2")
    assert rt.resumable == [] and "*" not in s.screen_text().splitlines()[14]


def test_a_cut_at_a_games_end_never_offers_the_finished_game_with_its_new_records():
    """The end stores the records (their own save) and clears the game in progress
    (the play save), the play save first: a cut between them loses the end's
    record at worst, and never leaves CONTINUE on a game whose result counted."""
    s = _playing("trapcat")
    rt = s.runtime
    g = rt.game
    while True:                          # up to the move that ends the game
        b = g.board
        cells = [c for c in range(b.n) if b.can_block(c)]
        near = [c for c in cells if b.is_adjacent(b.cat, c)] or cells
        g.cursor = near[0]
        before = dict(rt.saves.fs.files)
        rec = RecordingFs(before)
        rt.saves.fs = rec
        _run(s, "a")
        while g.play_screen.cat_turn:
            s.step(())
        rt.save_pending()
        if g.screen is g.end_screen:
            break
        rt.saves.fs = saves.MemFs()
        rt.saves.fs.files = dict(rec.files)
    fs = saves.MemFs()
    fs.files = dict(before)
    old = saves.Saves(fs).load("trapcat")[0]
    assert [step[1].split(".")[0] for step in rec.log] == ["trapcat/play", "trapcat"]
    offered = lost = 0
    for files in cut_states(before, rec.log):
        boot = simmod.Simulator()
        boot.runtime.saves.fs.files.update(files)
        boot.runtime.__init__(boot.runtime.hw, boot.runtime.saves)
        records = boot.runtime.saves.load("trapcat")[0]
        if boot.runtime.resumable:
            assert records == old, files          # CONTINUE only with the records before the end
            offered += 1
        elif records == old:
            lost += 1                             # cut between the two writes
    assert offered and lost


def test_a_snapshot_the_game_refuses_starts_a_fresh_game_and_keeps_the_records():
    s = _playing("trapcat")
    rt = s.runtime
    _run(s, QUIT)
    rt.saves.store("trapcat", {"won": 7})
    play = rt.saves.load("trapcat/play")[0]
    play["resume"]["size"] = 99
    rt.saves.store("trapcat/play", play)
    _run(s, "a wait:2")
    assert rt.ctx.game_id == "trapcat" and rt._toast == "SAVED GAME LOST"
    assert rt.game.board.moves == 0 and rt.resumable == []
    assert rt.saves.load("trapcat")[0] == {"won": 7}
    assert rt.saves.load("trapcat/play")[0] == {}


def test_golden_launcher_with_a_saved_game(golden):
    s = simmod.Simulator()
    rt = s.runtime
    rt.registry = rt.registry[:1]
    rt.launcher.items = [rt.registry[0][1], "Settings", "About"]
    _run(s, "wait:2 a wait:2 a wait:8 left wait:10 " + QUIT)
    assert rt.resumable == ["catmouse"]
    golden("launcher_continue", s.screen_text())


@pytest.mark.parametrize("game_id", ["trapcat", "klotski"])
def test_a_power_cut_during_a_move_save_resumes_at_that_move_or_the_one_before(game_id):
    s = _playing(game_id)
    rt = s.runtime
    before = dict(rt.saves.fs.files)
    old = rt.saves.load(play_id(game_id))[0]
    rec = RecordingFs(before)
    rt.saves.fs = rec
    rt.saves.seq.clear()
    if game_id == "trapcat":
        g = rt.game
        b = g.board
        g.cursor = [c for c in range(b.n) if b.can_block(c)][0]
        _run(s, "a wait:20")
    else:
        _run(s, "b+a wait:2")                # undo a step: a change, saved as a move is
    new = rt.saves.load(play_id(game_id))[0]
    assert rec.log and new["resume"] != old["resume"]
    for files in cut_states(before, rec.log, every=97):
        fs = saves.MemFs()
        fs.files = files
        data, status = saves.Saves(fs).load(play_id(game_id))
        assert status == "ok" and data in (old, new)
        boot = simmod.Simulator()
        boot.runtime.saves.fs.files.update(files)
        boot.runtime.__init__(boot.runtime.hw, boot.runtime.saves)
        assert boot.runtime.resumable == [game_id]


def _often_cut_states(files, game_id, data, full=False):
    rec = RecordingFs(files)
    store = saves.Saves(rec)
    (store.store if full else store.store_often)(game_id, data)
    return cut_states(files, rec.log)


def test_store_often_writes_one_file_and_a_cut_anywhere_loads_the_old_or_the_new_save():
    """Saves made after every move (store_often) mixed with whole stores (a
    game's end): each writes one file, never the newest copy, and a cut at any
    byte of any step loads the last save or the new one, "ok", records kept."""
    fs = saves.MemFs()
    plan = ["often", "often", "full", "often", "often", "often", "full", "full", "often"]
    for i, kind in enumerate(plan):
        old = saves.Saves(fs).load("g")
        new = {"won": 5, "resume": {"move": i, "pad": "x" * (i * 7)}}
        states = 0
        for files in _often_cut_states(fs.files, "g", new, kind == "full"):
            cut = saves.MemFs()
            cut.files = files
            got = saves.Saves(cut).load("g")
            assert got in (old, (new, "ok")), (i, kind, files, got)
            states += 1
        store = saves.Saves(fs)
        ops = fs.ops
        (store.store if kind == "full" else store.store_often)("g", new)
        if kind == "often":
            assert fs.ops - ops == 1                     # one write, no rename or remove
        assert saves.Saves(fs).load("g") == (new, "ok")


def test_store_often_keeps_going_on_one_saves_object():
    """One Saves (the runtime's) storing often, then whole, then often: the
    sequence goes up, every load is the newest."""
    fs = saves.MemFs()
    s = saves.Saves(fs)
    for i in range(7):
        (s.store if i in (2, 5) else s.store_often)("g", {"i": i})
        assert saves.Saves(fs).load("g") == ({"i": i}, "ok")
        assert s.seq["g"] == i + 1


# -- the battery at its cut-off ------------------------------------------------------------
LIPO = "pico-ssd1306-lipo"


def test_the_gauge_is_empty_only_at_the_cut_off_of_a_reading_the_cell_can_give():
    import battery

    def gauge(*mv):
        g = battery.Gauge("lipo")
        for v in mv:
            g.add(v)
        return g

    assert not gauge(3400, 3400, 3400).empty and gauge(3350, 3350, 3350).empty
    for mv in (2999, 1000, 0, 9000, 4700):        # "?" (no cell gives it) or USB
        assert not gauge(mv, mv, mv).empty, mv
    g = gauge(3300, 3300, 3300)
    g.add(3420)
    g.add(3420)
    assert g.empty                                  # the median is still low
    g.add(3420)
    assert g.empty                                  # 3420 is within the hysteresis
    for _ in range(3):
        g.add(3500)
    assert not g.empty
    g = gauge(3300, 3300, 3300, 2000, 2000, 2000)    # the supply reads as nothing a cell gives
    assert g.state == battery.UNKNOWN and not g.empty
    assert not gauge(2800, 2800, 2800).empty and battery.Gauge("3aaa").cutoff == 2900


def _lipo_trapcat(volts=3.8):
    s = simmod.Simulator(LIPO, battery=volts)
    _run(s, "wait:2 down wait:2 a wait:3")
    g = s.runtime.game
    b = g.board
    g.cursor = [c for c in range(b.n) if b.can_block(c)][0]
    _run(s, "a wait:20")
    assert b.moves == 1 and g.screen is g.play_screen and not g.play_screen.cat_turn
    return s


def test_at_the_cut_off_the_game_is_saved_and_the_screen_says_so(golden):
    s = _lipo_trapcat()
    rt = s.runtime
    seq = rt.saves.seq["trapcat/play"]
    _run(s, "right wait:2")                          # not a move: not saved yet
    cursor = rt.game.cursor
    assert rt.saves.seq["trapcat/play"] == seq
    s.set_supply(3.3)
    for _ in range(90):
        s.step(())
        if rt.saves.seq["trapcat/play"] != seq:
            break
    assert rt.saves.seq["trapcat/play"] == seq + 1
    assert rt.saves.load("trapcat/play")[0]["resume"]["cursor"] == cursor
    assert rt._toast == "BATTERY EMPTY - GAME SAVED"
    _run(s, "wait:3")
    golden("trapcat_battery_empty", s.screen_text())
    _run(s, "wait:90")
    assert rt.saves.seq["trapcat/play"] == seq + 1   # once, while the supply stays there
    _run(s, "hold:b:20 up a wait:20")                # the next reading, at the launcher
    assert rt.screen is rt.launcher and rt._toast == "BATTERY EMPTY - CHARGE NOW"
    golden("launcher_battery_empty", s.screen_text())


@pytest.mark.parametrize("volts", [2.0, 9.0, None])
def test_a_supply_the_cell_cannot_give_never_saves_for_the_battery(volts):
    s = _lipo_trapcat()
    rt = s.runtime
    seq = rt.saves.seq["trapcat/play"]
    _run(s, "right wait:2")
    s.set_supply(volts)
    _run(s, "wait:120")
    assert rt.saves.seq["trapcat/play"] == seq and rt._toast_ticks == 0
    assert not rt.battery.empty


# -- on MicroPython ---------------------------------------------------------------------------
_VM_RESUME = r"""
import games, json
from buttons import A, UP, LEFT, DOWN
results = []
for gi in range(4):
    rt.start_game(games.GAMES[gi])
    g = rt.game
    if gi == 0:
        tap(A); idle(6); tap(LEFT); idle(10); tap(UP); idle(10)
    elif gi == 1:
        b = g.board
        c = 0
        while not b.can_block(c):
            c += 1
        g.cursor = c
        tap(A); idle(20)
    elif gi == 2:
        tap(A); idle(2); tap(A); idle(40)
    else:
        tap(A); idle(3)
        g.move_piece(13, 4); g.move_piece(14, 4)
        idle(1)
    snap = json.loads(json.dumps(g.snapshot()))
    g = b = None
    rt.leave_game()
    listed = games.GAMES[gi][0] in rt.resumable
    rt.start_game(games.GAMES[gi], resume=True)
    results.append((games.GAMES[gi][0], listed, rt._toast, rt.game.snapshot() == snap,
                    len(snap['undo'])))
    rt.leave_game()
emit('r', results)
"""


def test_every_game_resumes_in_micropython(node_vm):
    """snapshot() -> the save (JSON) -> restore() on MicroPython (the WebAssembly
    port: GC on, four games one after another), each game after a move or two,
    through the runtime (leave, CONTINUE)."""
    from host_tools.emulation import runtime_vm

    with runtime_vm.staged_firmware() as fw:
        got = node_vm("GC_SAFE = True\n" + runtime_vm.SETUP + _VM_RESUME, firmware_dir=fw)["r"]
    assert [r[0] for r in got] == ["catmouse", "trapcat", "junqi", "klotski"]
    for game_id, listed, toast, same, undo in got:
        assert listed and toast is None and same and undo > 0, (game_id, listed, toast, same, undo)
