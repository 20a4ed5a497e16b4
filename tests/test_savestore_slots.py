"""savestore.make_slots: a game's start creates the two files the saves after
each move rewrite (store_often's .new and .bak), empty, so that no move's save
creates a file.  An empty slot is neither a copy nor damage; a power cut at any
step (making the slots, then saving into them) still loads the old save or
the new one."""

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import savestore as saves
from savecuts import RecordingFs, cut_states


def _load(files, game_id="g"):
    fs = saves.MemFs()
    fs.files = dict(files)
    return saves.Saves(fs).load(game_id)


def test_a_new_game_with_its_slots_made_loads_new_not_corrupt():
    fs = saves.MemFs()
    saves.Saves(fs).make_slots("g")
    assert fs.files == {"g.new": b"", "g.bak": b""}
    assert saves.Saves(fs).load("g") == ({}, "new")


def test_an_empty_bak_is_a_slot_but_a_damaged_one_is_still_damage():
    assert _load({"g.bak": b""}) == ({}, "new")
    assert _load({"g.bak": b"", "g.new": b"PPS2 1 9"}) == ({}, "new")
    assert _load({"g.bak": b"PPS2 1 9 00"}) == ({}, "corrupt")
    assert _load({"g.sav": b"", "g.bak": b""}) == ({}, "corrupt")


def test_making_the_slots_keeps_every_save_and_creates_only_what_is_missing():
    fs = saves.MemFs()
    s = saves.Saves(fs)
    s.store("g", {"won": 2})                      # a .sav only
    s.store_often("g", {"won": 3})                # and a .new
    kept = dict(fs.files)
    saves.Saves(fs).make_slots("g")
    assert set(fs.files) == {"g.sav", "g.new", "g.bak"} and fs.files["g.bak"] == b""
    assert all(fs.files[name] == kept[name] for name in kept)
    assert saves.Saves(fs).load("g") == ({"won": 3}, "ok")
    ops = fs.ops
    saves.Saves(fs).make_slots("g")               # both there: nothing written
    assert fs.ops == ops


def test_after_make_slots_the_saves_after_each_move_create_no_file():
    fs = saves.MemFs()
    s = saves.Saves(fs)
    s.load("g")
    s.make_slots("g")
    names = set(fs.files)
    for i in range(6):
        ops = fs.ops
        s.store_often("g", {"move": i})
        assert fs.ops - ops == 1 and set(fs.files) == names
        assert saves.Saves(fs).load("g") == ({"move": i}, "ok")


def test_a_cut_while_making_the_slots_or_saving_into_them_loads_the_old_or_the_new_save():
    """From every starting point (nothing, records only, records and a move's
    save), a cut at each step of make_slots and at every byte of the next
    saves loads the last complete save ("new" while there is none), never
    "corrupt"."""
    starts = []
    fs = saves.MemFs()
    starts.append(dict(fs.files))
    saves.Saves(fs).store("g", {"won": 1})
    starts.append(dict(fs.files))
    saves.Saves(fs).store_often("g", {"won": 1, "resume": {"move": 0}})
    starts.append(dict(fs.files))
    for files in starts:
        old = _load(files)
        rec = RecordingFs(files)
        saves.Saves(rec).make_slots("g")
        for state in cut_states(files, rec.log):
            assert _load(state) == old, (files, state)
        current = dict(rec.files)
        for i in range(3):
            new = {"won": 1, "resume": {"move": i + 1, "pad": "x" * (5 * i)}}
            rec = RecordingFs(current)
            store = saves.Saves(rec)
            store.load("g")
            store.store_often("g", new)
            assert [step[0] for step in rec.log] == ["write"]
            assert rec.log[0][1] in current              # a slot rewritten, none created
            for state in cut_states(current, rec.log):
                assert _load(state) in (old, (new, "ok")), (i, state)
            current = dict(rec.files)
            old = (new, "ok")


def test_starting_a_game_makes_its_play_save_slots_and_no_move_save_creates_a_file():
    from host_tools.emulation import sim as simmod
    from host_tools.core.keyscript import parse_keys

    simmod.install_host_modules()
    s = simmod.Simulator()
    rt = s.runtime
    files = rt.saves.fs.files
    assert "trapcat/play.new" not in files and "trapcat/play.bak" not in files
    for keys in parse_keys("wait:2 down wait:2 a wait:3"):
        s.step(keys)
    assert rt.ctx.game_id == "trapcat" and rt._toast is None      # not "SAVE CORRUPT"
    assert files["trapcat/play.new"] == b"" and files["trapcat/play.bak"] == b""    # the play save's
    assert saves.Saves(rt.saves.fs).load("trapcat/play") == ({}, "new")
    names = set(files)
    seq = rt.saves.seq["trapcat/play"]
    for keys in parse_keys("left a wait:20 up a wait:20"):
        s.step(keys)
    assert rt.saves.seq["trapcat/play"] > seq and set(files) == names
    assert saves.Saves(rt.saves.fs).load("trapcat/play")[1] == "ok"
