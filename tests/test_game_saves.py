"""What Cat & Mouse and Flip Junqi read from their saves is checked where it is
read: a record that does not fit is dropped with a toast, a game in progress
whose values or whose records inside its hex strings do not fit is refused
(the runtime starts a fresh game, "SAVED GAME LOST"), never a GAME ERROR.  On
the simulator (the firmware on CPython), booted on hand-made saves."""

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
import runtime  # noqa: E402
import savestore  # noqa: E402
import undosave  # noqa: E402

LINES = {"catmouse": 0, "junqi": 2}
PLAY = {"catmouse": "a wait:2 a wait:8 left wait:10 left wait:10 up wait:10",
        "junqi": "a wait:2 a wait:2 a wait:40 right a wait:40"}


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
    assert not isinstance(rt.screen, runtime.ErrorScreen)
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
    assert not isinstance(rt.screen, runtime.ErrorScreen)


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
    assert not isinstance(rt.screen, runtime.ErrorScreen)


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
    assert not isinstance(rt.screen, runtime.ErrorScreen)


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
    assert not isinstance(rt.screen, runtime.ErrorScreen)


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


def test_the_numbers_gamesaves_copies_are_the_modules_own():
    import gamesaves
    import junqi_board
    import junqi_flip
    assert (gamesaves.PACK_LEVELS, gamesaves.LEVEL_BYTES) == (levelpack.MAX_LEVELS,
                                                              levelpack.MAX_LEVEL_BYTES)
    assert (gamesaves.CM_UNDO_SIZE, gamesaves.CM_UNDO_DEPTH) == (catmouse_match.UNDO_SIZE,
                                                                 catmouse_match.UNDO_DEPTH)
    assert (gamesaves.CM_MAPS, gamesaves.CM_MAP_RECORD, gamesaves.CM_MAP_KEY_LEN) == (
        catmouse_records.MAX_MAPS, catmouse_records.MAP_RECORD, catmouse_records.MAP_KEY_LEN)
    assert catmouse_records.MAP_RECORD == 3 * catmouse_records.MAP_DIFF
    assert max(len(name) for name, _ in catmouse_maps.LEVELS) <= catmouse_records.MAP_KEY_LEN
    assert (gamesaves.JQ_UNDO_SIZE, gamesaves.JQ_UNDO_PLIES) == (junqi_game.UNDO_SIZE,
                                                                 junqi_game.UNDO_PLIES)
    assert (gamesaves._CELLS, gamesaves._TYPES, gamesaves._HIDDEN, gamesaves._NOBODY) == (
        junqi_board.CELLS, junqi_flip.TYPES, junqi_flip.HIDDEN, junqi_flip.NOBODY)


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
