"""What the games read from their saves is checked where it is read: a record
that does not fit is dropped with a toast, a game in progress whose values or
whose records inside its hex strings do not fit is refused (the runtime
starts a fresh game, "SAVED GAME LOST"), never a GAME ERROR.  On the
simulator (the firmware on CPython), booted on hand-made saves."""

import sys

import pytest

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

simmod.install_host_modules()

import catmouse_maps  # noqa: E402
import catmouse_records  # noqa: E402
import catmouse_match  # noqa: E402
import gfx  # noqa: E402
import junqi_game  # noqa: E402
import levelpack  # noqa: E402
import errorscreen  # noqa: E402
import runtime  # noqa: E402
import savestore  # noqa: E402
import undosave  # noqa: E402

LINES = {"catmouse": 0, "trapcat": 1, "junqi": 2, "klotski": 3}
PLAY = {"catmouse": "a wait:2 a wait:8 left wait:10 left wait:10 up wait:10",
        "trapcat": "a wait:3 left a wait:20 up a wait:20 down down left a wait:20 right right a wait:30",
        "junqi": "a wait:2 a wait:2 a wait:40 right a wait:40",
        "klotski": "a wait:2 a wait:3 down down a down wait:2 a up right a down wait:2 a"}


def _run(s, keys):
    for k in parse_keys(keys):
        s.step(k)


def _boot(saves):
    fs = savestore.MemFs()
    store = savestore.Saves(fs)
    for save_id, data in saves.items():
        store.store(save_id, data)
    return simmod.Simulator(fs=fs)


def _enter(s, game_id):
    _run(s, "wait:2" + " down" * LINES[game_id] + " a wait:2")
    rt = s.runtime
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)
    assert rt.ctx.game_id == game_id
    return rt


def _snapshot(game_id):
    """A real game in progress (scripted play) and its undo ring's count."""
    s = simmod.Simulator()
    _run(s, "wait:2" + " down" * LINES[game_id] + " wait:2 " + PLAY[game_id])
    snap = s.runtime.game.snapshot()
    assert snap is not None and snap["undo"]
    return snap


def test_the_toast_fits_the_screen():
    assert gfx.text_width("RECORDS RESET") <= 124 and len("RECORDS RESET") <= 31


def test_junqi_drops_a_record_that_is_not_a_count_and_keeps_the_rest():
    s = _boot({"junqi": {"won": {"a": 1}, "lost": 4, "pvp": "x", "easy_won": 2}})
    rt = _enter(s, "junqi")
    game = rt.game
    assert game.screen is game.menu_screen and rt._toast == "RECORDS RESET"
    assert game.saved == {"lost": 4, "easy_won": 2}
    assert "W0 L4" in game.record
    _run(s, "wait:5")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)


def test_catmouse_drops_a_record_that_is_not_a_count():
    s = _boot({"catmouse": {"wins_mouse": -1, "wins_cat": 3, "best_catch": [1]}})
    rt = _enter(s, "catmouse")
    assert rt.game.saved == {"wins_cat": 3} and rt._toast == "RECORDS RESET"


def test_catmouse_keeps_the_map_records_that_fit_and_drops_the_others():
    good = [0] * 17 + [4]
    s = _boot({"catmouse": {"wins_cat": 3, "maps": {
        "Garden": good, "Streams": good[:5], "Courtyard": [-1] + good[1:],
        "a key far too long for a map": good}}})
    rt = _enter(s, "catmouse")
    assert rt.game.saved == {"wins_cat": 3, "maps": {"Garden": good}}
    assert rt._toast == "RECORDS RESET"


def test_records_that_fit_show_no_toast():
    s = _boot({"junqi": {"won": 2, "lost": 1}})
    rt = _enter(s, "junqi")
    assert rt.game.saved == {"won": 2, "lost": 1} and rt._toast != "RECORDS RESET"


def _continue(game_id, snap):
    s = _boot({runtime.play_id(game_id): {runtime.RESUME: snap}})
    return s, _enter(s, game_id)


@pytest.mark.parametrize("game_id", sorted(LINES))
def test_a_real_game_in_progress_is_put_back_and_undone(game_id):
    snap = _snapshot(game_id)
    s, rt = _continue(game_id, snap)
    assert rt._toast != "SAVED GAME LOST" and rt.game.snapshot() == snap
    _run(s, "hold:b:2 b+a wait:5")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)


def _with_undo_byte(snap, record, offset, value):
    undo = bytearray(undosave.from_text(snap["undo"]))
    undo[record * 12 + offset] = value
    return dict(snap, undo=undosave.to_text(undo))


@pytest.mark.parametrize("offset, value", [(0, 0xFF), (1, 0xC0), (0, 0)])
def test_catmouse_refuses_an_undo_record_with_a_piece_off_the_map_or_on_the_other(offset, value):
    """Valid hex of the right length, wrong content: a cell past the map (or
    both pieces on one cell) in an undo round is refused at CONTINUE."""
    snap = _snapshot("catmouse")
    if value == 0:      # the cat on the mouse's cell
        value = undosave.from_text(snap["undo"])[1]
    s, rt = _continue("catmouse", _with_undo_byte(snap, 0, offset, value))
    assert rt._toast == "SAVED GAME LOST" and rt.resumable == []
    assert rt.game.screen is rt.game.title
    _run(s, "hold:b:2 b+a wait:3 a wait:5 hold:b:2 b+a b+a wait:5")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)


def test_catmouse_refuses_a_state_on_an_obstacle():
    snap = _snapshot("catmouse")
    m = catmouse_match.Match(1)
    m.new_game(snap["level"], snap["map"], "mouse")
    wall = list(m.game.costs).index(0)
    state = bytearray(undosave.from_text(snap["state"]))
    state[0] = wall
    s, rt = _continue("catmouse", dict(snap, state=undosave.to_text(state)))
    assert rt._toast == "SAVED GAME LOST"


@pytest.mark.parametrize("offset, value", [(0, 60), (1, 0xFF), (2, 0x3F), (2, 0x02 | 12 << 4),
                                           (4, 0x0A), (6, 61), (3, 0x03)])
def test_junqi_refuses_an_undo_ply_that_does_not_fit(offset, value):
    snap = _snapshot("junqi")
    s, rt = _continue("junqi", _with_undo_byte(snap, 0, offset, value))
    assert rt._toast == "SAVED GAME LOST" and rt.game.screen is rt.game.menu_screen
    _run(s, "hold:b:2 b+a wait:3")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)


def test_junqi_refuses_a_field_whose_counts_disagree():
    snap = _snapshot("junqi")
    field = bytearray(undosave.from_text(snap["board"]))
    field[3 * 60] += 1                       # one more face-down red flag than on the field
    s, rt = _continue("junqi", dict(snap, board=undosave.to_text(field)))
    assert rt._toast == "SAVED GAME LOST"


def test_junqi_refuses_a_last_move_with_one_cell_off_the_field():
    """Found by fuzzing: the field's marks of the last move drew cell 255."""
    snap = _snapshot("junqi")
    counts = list(snap["counts"])
    counts[4:6] = [55, 255]
    s, rt = _continue("junqi", dict(snap, counts=counts))
    assert rt._toast == "SAVED GAME LOST"


@pytest.mark.parametrize("key, value", [("counts", [0, 0, 1, 99, 0, 0]), ("mode", 2), ("undo", "0g"),
                                        ("easy", 1), ("cursor", 60), ("rng", -1)])
def test_junqi_refuses_a_value_out_of_its_range(key, value):
    s, rt = _continue("junqi", dict(_snapshot("junqi"), **{key: value}))
    assert rt._toast == "SAVED GAME LOST"


def test_catmouse_refuses_a_pack_level_when_there_is_no_pack():
    snap = _snapshot("catmouse")
    s, rt = _continue("catmouse", dict(snap, level=7, map="C..\n...\n..M"))
    assert rt._toast == "SAVED GAME LOST"


def test_the_numbers_each_games_saves_module_copies_are_the_modules_own():
    import catmouse_saves
    import junqi_board
    import junqi_flip
    import junqi_saves
    import klotski_game
    import klotski_levels
    import klotski_saves
    import trapcat_game
    import trapcat_saves
    for saves in (catmouse_saves, klotski_saves):
        assert (saves._PACK_LEVELS, saves._LEVEL_BYTES) == (levelpack.MAX_LEVELS,
                                                            levelpack.MAX_LEVEL_BYTES)
    assert (catmouse_saves._UNDO_SIZE, catmouse_saves._UNDO_DEPTH) == (catmouse_match.UNDO_SIZE,
                                                                       catmouse_match.UNDO_DEPTH)
    assert (catmouse_saves._MAPS, catmouse_saves._MAP_RECORD, catmouse_saves._MAP_KEY_LEN) == (
        catmouse_records.MAX_MAPS, catmouse_records.MAP_RECORD, catmouse_records.MAP_KEY_LEN)
    assert catmouse_records.MAP_RECORD == 3 * catmouse_records._MAP_DIFF
    assert max(len(name) for name, _ in catmouse_maps.LEVELS) <= catmouse_records.MAP_KEY_LEN
    assert (junqi_saves._UNDO_SIZE, junqi_saves._UNDO_PLIES) == (junqi_game.UNDO_SIZE,
                                                                 junqi_game._UNDO_PLIES)
    assert (junqi_saves._CELLS, junqi_saves._TYPES, junqi_saves._HIDDEN, junqi_saves._NOBODY) == (
        junqi_board.CELLS, junqi_flip.TYPES, junqi_flip.HIDDEN, junqi_flip.NOBODY)
    assert (trapcat_saves._SIDE, trapcat_saves._UNDO_SIZE, trapcat_saves._UNDO_DEPTH) == (
        trapcat_game.MAX_SIDE, trapcat_game.UNDO_SIZE, trapcat_game.UNDO_DEPTH)
    assert (klotski_saves._UNDO_SIZE, klotski_saves._SAVED_UNDO, klotski_saves._LEVELS) == (
        klotski_game.LayoutUndo().size, klotski_game._SAVED_UNDO,
        len(klotski_levels.LEVELS.split("\n")))


def test_each_game_loads_only_its_own_saves_module():
    """A game's start and CONTINUE import its own checks (``<game>_saves``),
    never another game's: each name a module holds is a qstr on the device,
    interned for good."""
    import re
    from host_tools.core.fwpath import FIRMWARE_DIR
    assert {p.stem for p in FIRMWARE_DIR.glob("*_saves.py")} == {game + "_saves" for game in LINES}
    found = set()
    for path in sorted(FIRMWARE_DIR.glob("*.py")):
        for name in re.findall(r"^\s*(?:import|from) (\w+_saves)\b", path.read_text(), re.M):
            assert path.stem.split("_")[0] + "_saves" == name, path.name
            found.add(name)
    assert found == {game + "_saves" for game in LINES}


def test_the_watch_mode_draws_the_title_when_redrawn_before_its_first_map_loads():
    """Found by fuzzing: a redraw (a toast that ends, the panel waking) while
    the watch mode loads its first map found no terrain to draw."""
    import catmouse_game
    import framebuf
    import gamectx
    ctx = gamectx.FakeCtx()
    g = catmouse_game.Scene(ctx)
    title, shown = bytearray(1024), bytearray(1024)
    g.title.draw(framebuf.FrameBuffer(title, 128, 64, framebuf.MONO_VLSB))
    g.side = "watch"
    g.start_watch()
    g.draw(framebuf.FrameBuffer(shown, 128, 64, framebuf.MONO_VLSB))
    assert shown == title


# -- Trap the Cat and Klotski ------------------------------------------------------------
def _trapcat_undo(snap, offset, value, record=-1):
    undo = bytearray(undosave.from_text(snap["undo"]))
    undo[record * 6 % len(undo) + offset] = value
    return dict(snap, undo=undosave.to_text(undo))


def _refused_and_played_on(game_id, snap):
    """CONTINUE on ``snap``: refused ("SAVED GAME LOST", the play save gone),
    then a fresh game that plays, undoes and leaves to the launcher."""
    s, rt = _continue(game_id, snap)
    assert rt._toast == "SAVED GAME LOST" and rt.resumable == []
    assert rt.saves.load(runtime.play_id(game_id))[0] == {}
    _run(s, "wait:3 a wait:3 hold:b:2 b+a wait:3 b wait:3 hold:b:40 wait:3 b wait:3 b wait:3")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)
    _to_launcher(s, rt)
    return s, rt


def _to_launcher(s, rt):
    """Leave the game as a player does: in play, holding B opens the pause
    menu, UP wraps round to its last line, QUIT (Klotski's: LEVELS, then B);
    on an end screen, B."""
    for _ in range(6):
        if rt.screen is rt.launcher:
            return
        g = rt.game
        if rt.ctx.game_id == "klotski" and g.screen is g.play_screen:
            _run(s, "hold:b:20 up a wait:2")
        elif rt.ctx.game_id == "klotski" and g.screen is g.menu_screen:
            _run(s, "b wait:2")
        else:
            _run(s, "hold:b:20 wait:2")
            _run(s, "up a wait:3" if rt.screen is not rt.launcher and g.pause.shown else "b wait:3")
    assert rt.screen is rt.launcher


def test_trapcat_drops_records_that_are_not_counts():
    """The issue's case: {"won": "x", "lost": [1]} showed GAME ERROR ('%d format')."""
    s = _boot({"trapcat": {"won": "x", "lost": [1], "best1": 7}})
    rt = _enter(s, "trapcat")
    assert rt._toast == "RECORDS RESET" and rt.game.records == {"best1": 7}
    assert rt.game.lines[2] == "WON 0 LOST 0" and rt.game.lines[3] == "BEST 7"
    _run(s, "a wait:30 hold:b:20 up a wait:5")     # the pause menu's QUIT
    assert rt.screen is rt.launcher


def test_trapcat_undo_of_ff_bytes_is_refused_not_a_game_error():
    """The issue's case: an undo field of valid hex, wrong content (a cell past
    the grid): CONTINUE took it and the first B+A raised IndexError."""
    snap = dict(_snapshot("trapcat"), undo="ff" * 12, moves=5)
    _refused_and_played_on("trapcat", snap)


@pytest.mark.parametrize("offset, value, record", [
    (0, 81, -1),     # the block past the grid
    (1, 200, -1),    # the cat before it past the grid
    (0, 0, -1),      # the block on a free cell
    (1, None, -1),   # the cat before it on its own block
    (1, None, 0),    # the same in the oldest turn
])
def test_trapcat_refuses_an_undo_record_that_does_not_fit(offset, value, record):
    snap = _snapshot("trapcat")
    undo = undosave.from_text(snap["undo"])
    assert len(undo) >= 12
    if value is None:
        value = undo[record * 6 % len(undo)]
    if value == 0:
        cells = undosave.from_text(snap["cells"])
        value = next(c for c in range(81) if not cells[c] and c != snap["cat"])
    _refused_and_played_on("trapcat", _trapcat_undo(snap, offset, value, record))


@pytest.mark.parametrize("key, value", [
    ("size", 10), ("cells", "00" * 80), ("cat", 81), ("cursor", "1"), ("moves", 1),
    ("diff", 3), ("fixed", [9, "00" * 81, 90]), ("fixed", [5, "00" * 25, 0]),
    ("cat_turn", 1), ("undo", "00" * 5), ("rng", None), ("seed", -1)])
def test_trapcat_refuses_a_value_out_of_its_range(key, value):
    s, rt = _continue("trapcat", dict(_snapshot("trapcat"), **{key: value}))
    assert rt._toast == "SAVED GAME LOST"


def test_trapcat_refuses_a_cat_on_a_block_or_a_finished_game():
    snap = _snapshot("trapcat")
    cells = bytearray(undosave.from_text(snap["cells"]))
    on_block = dict(snap, cat=cells.index(1))
    s, rt = _continue("trapcat", on_block)
    assert rt._toast == "SAVED GAME LOST"
    s, rt = _continue("trapcat", dict(snap, cat=0))          # on the border: the cat is out
    assert rt._toast == "SAVED GAME LOST"


def test_trapcat_easy_cat_keeps_its_rng_in_a_saved_game():
    snap = dict(_snapshot("trapcat"), diff=0, rng=5 | 7 << 15, undo="")
    s, rt = _continue("trapcat", snap)
    assert rt._toast != "SAVED GAME LOST" and rt.game.snapshot()["rng"] == 5 | 7 << 15
    s, rt = _continue("trapcat", dict(snap, rng=0))            # a generator stuck at zero
    assert rt._toast == "SAVED GAME LOST"


def test_klotski_null_steps_is_refused_not_a_game_error():
    """Found by fuzzing: "steps": null was taken, and the first undo raised TypeError."""
    snap = _snapshot("klotski")
    assert snap["steps"] >= 1
    _refused_and_played_on("klotski", dict(snap, steps=None))


@pytest.mark.parametrize("key, value", [
    ("level", 999), ("level", -1), ("level", 1.0), ("steps", 0), ("last", 20), ("last", 5),
    ("cursor", 20), ("helped", 0), ("start", "VBBV" * 5 + "x"), ("cells", "VBBV/VBBV/VHHV/VSSV/S...S"),
    ("cells", "VBBV/VBBV/VHHV/VSSV/SSSS"), ("undo", "zz"), ("undo", "00" * 130)])
def test_klotski_refuses_a_value_out_of_its_range(key, value):
    snap = _snapshot("klotski")
    s, rt = _continue("klotski", dict(snap, **{key: value}))
    assert rt._toast == "SAVED GAME LOST"
    _run(s, "b wait:3 a wait:3 b+a wait:3")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)
    _to_launcher(s, rt)


@pytest.mark.parametrize("byte", [0x00, 0x11, 0xEE, 0x33])
def test_klotski_refuses_an_undo_layout_that_is_no_tiling_of_its_pieces(byte):
    """0x00 and 0x11: codes of no letter; 0xEE: four empty cells; 0x33: a
    soldier where the block was (another piece set)."""
    snap = _snapshot("klotski")
    undo = bytearray(undosave.from_text(snap["undo"]))
    assert len(undo) >= 10
    undo[0] = byte
    _refused_and_played_on("klotski", dict(snap, undo=undosave.to_text(undo)))


def test_klotski_drops_bests_that_are_not_counts_and_keeps_the_rest():
    s = _boot({"klotski": {"best": {"VBBV/VBBV/VHHV/VSSV/S..S": 90, "x": "y", "z": -1}}})
    rt = _enter(s, "klotski")
    assert rt._toast == "RECORDS RESET"
    assert rt.game.saved == {"best": {"VBBV/VBBV/VHHV/VSSV/S..S": 90}}
    s = _boot({"klotski": {"best": None}})
    rt = _enter(s, "klotski")
    assert rt._toast == "RECORDS RESET" and rt.game.saved == {"best": {}}
    _run(s, "a wait:5 down a down wait:3 hold:b:40 wait:3")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)


def _sealed(save_id, body):
    return "%s.sav" % save_id, ("PPS1 7 %d %s\n" % (len(body), savestore.checksum(body))).encode() + body


def test_the_issues_four_cases_end_in_a_default_with_a_toast_and_the_launcher():
    """Bad settings, bad records, a game in progress of the wrong content and a
    number the writer cannot write back, all under a valid checksum, in one
    boot: each is dropped with its toast, and the handheld reaches its
    launcher and plays on."""
    fs = savestore.MemFs()
    for name, raw in (_sealed(runtime.SETTINGS_ID, b'{"contrast": "x"}'),
                      _sealed("trapcat", b'{"won": "x", "lost": [1]}'),
                      _sealed("junqi", b'{"won": 1, "lost": 1e999}')):
        fs.files[name] = raw
    store = savestore.Saves(fs)
    store.store(runtime.play_id("trapcat"), {runtime.RESUME: dict(_snapshot("trapcat"),
                                                                  undo="ff" * 12, moves=9)})
    s = simmod.Simulator(fs=fs)
    rt = s.runtime
    assert rt._toast == "SETTINGS RESET" and rt.screen is rt.launcher
    assert rt.settings["contrast"] == runtime.DEFAULT_SETTINGS["contrast"]
    rt = _enter(s, "trapcat")       # refused (its toast, then the fresh game's RECORDS RESET)
    assert rt.resumable == [] and rt._toast == "RECORDS RESET" and rt.game.records == {}
    _run(s, "wait:60 hold:b:2 b+a wait:3")
    _to_launcher(s, rt)
    _run(s, "up")                   # the launcher's cursor back on the first game
    rt = _enter(s, "junqi")
    assert rt._toast == "SAVE CORRUPT - RESET" and rt.game.saved == {}
    _run(s, "a wait:5")
    assert not isinstance(rt.screen, errorscreen.ErrorScreen)
    _to_launcher(s, rt)


def test_a_game_with_no_records_yet_loads_no_checker(monkeypatch):
    """scenekit.records: nothing saved is nothing to check, so neither the
    game's saves module nor saveschema is imported (their names would stay
    interned on the device); records that are there are checked."""
    import gamectx
    import scenekit
    for name in ("klotski_saves", "saveschema"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    ctx = gamectx.FakeCtx()
    assert scenekit.records(ctx, "klotski") == {}
    assert "klotski_saves" not in sys.modules and "saveschema" not in sys.modules
    ctx.store("klotski", {"best": {"VBBV/VBBV/VHHV/VSSV/S..S": 81, "bad": "x"}})
    got = scenekit.records(ctx, "klotski")
    assert got == {"best": {"VBBV/VBBV/VHHV/VSSV/S..S": 81}} and "RECORDS RESET" in ctx.toasts[-1]


def test_first_bad_reads_text_and_bytes_alike():
    from asciitext import first_bad
    assert first_bad("VBBV/\nVB\u00dfV") == (2, 3, "\u00df")
    assert first_bad("VBBV/\nVB\u00dfV".encode()) == (2, 3, "\u00c3")
    assert first_bad("ok\ttext\r\n") is None and first_bad(b"") is None


def test_the_klotski_writers_enospc_is_the_systems():
    """klotski_writer names ENOSPC as a number (importing errno on the device
    searches the file system first, ~14 ms): the host's errno agrees."""
    import errno
    import klotski_writer
    assert klotski_writer.ENOSPC == errno.ENOSPC
