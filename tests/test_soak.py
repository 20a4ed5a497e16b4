"""The soak (host_tools/emulation/soak.py, `python -m host_tools soak`): games in
a row on one boot, the heap read back at the launcher after each.  A short VM
soak here; a few games on the virtual Pico (slow)."""

import pytest

from clirun import run_cli
from host_tools.emulation import soak


def _checked(result):
    s = result.totals()
    assert s["tracebacks"] == 0, result.findings()
    assert s["memory_errors"] == 0, result.findings()
    assert s["errors"] == 0, result.findings()
    # the objects a game leaves behind: the heap at the launcher less what the
    # qstr pool grew by (each game's first import interns its names for good)
    assert abs(s["objects_dev_max"]) <= soak.HEAP_SLACK, result.table()
    assert s["largest_free_min"] > 0
    return s


def test_vm_soak_plays_every_game_and_the_heap_comes_back():
    result = soak.run("vm", minutes=0.5, seed=1, play_s=(2, 6))
    s = _checked(result)
    assert {name for name, _ in result.rows()} >= set(soak.GAME_IDS), result.table()
    assert s["games"] >= 4
    assert result.baseline == result.visits[0].heap
    # the heap read at the launcher is the resident one (the launcher alone is ~35 KB on
    # a Pico; the VM compiles the source, so its code objects are on the heap too)
    assert 30_000 < result.baseline < soak.PICO_HEAP
    assert "soak vm" in result.summary()


def test_the_same_seed_plays_the_same_keys():
    a = soak.run("vm", minutes=0.1, seed=7, play_s=(1, 3))
    b = soak.run("vm", minutes=0.1, seed=7, play_s=(1, 3))
    assert [(v.game, v.keys, v.heap) for v in a.visits] == [(v.game, v.keys, v.heap) for v in b.visits]


class _Lines(soak.Target):
    name = "lines"


def test_tracebacks_error_screens_and_a_heap_off_baseline_fail():
    t = _Lines()
    t.feed("@@launcher\n@@game\ttrapcat\ttrapcat_game\n@@launcher\n"
           "@@home\t50000\t190000\t0\t5\t0\t1\ttrapcat\t90\n"
           "qstr pool: n_pool=1, n_qstr=2, n_str_data_bytes=3, n_total_bytes=9000\n"
           "GC: total: 245888, used: 50000, free: 190000\n"
           " No. of 1-blocks: 1, 2-blocks: 2, max blk sz: 3, max free sz: 5000\n")
    t.feed("@@game\tklotski\tklotski_game\nTraceback (most recent call last):\n"
           "  File \"klotski_game.py\", line 1, in tick\nMemoryError: memory allocation failed\n"
           "@@error\tGAME ERROR\n@@launcher\n@@home\t52000\t188000\t2\t40\t1\t3\t\t120\n"
           "qstr pool: n_pool=1, n_qstr=2, n_str_data_bytes=3, n_total_bytes=9000\n"
           "GC: total: 245888, used: 52000, free: 188000\n"
           " No. of 1-blocks: 1, 2-blocks: 2, max blk sz: 3, max free sz: 4000\n")
    result = soak.Result(t, 1, 1, [])
    s = result.totals()
    assert s["games"] == 2 and result.baseline == 50000
    assert s["heap_dev_max"] == 2000 and s["objects_dev_max"] == 2000
    assert s["largest_free_min"] == 4000 * soak.BLOCK
    assert s["tracebacks"] == 1
    assert s["memory_errors"] == 2      # the MemoryError traceback and the toast (GAME ERROR is not one)
    assert s["errors"] == 1
    assert (s["worst_tick"], s["over_33"], s["switch_tick"]) == (40, 2, 120)
    assert not result.ok()
    assert result.summary().endswith("FAIL")
    assert any("MemoryError" in line for line in result.findings())
    assert t.sel == 3 and t.resumable == ()


def test_a_long_tick_is_told_with_what_it_did_as_it_comes():
    """A tick over 45 ms: the probe's line (the screen, the saves, the modules
    it imported) goes to ``live`` at once and into the findings."""
    t = _Lines()
    seen = []
    t.live = seen.append
    t.feed("@@launcher\n@@game\tklotski\tklotski_game\n"
           "@@tick\t61\tPlayScreen menu saves=0 +pausemenu\n")
    assert seen == ["tick over 45 ms: 61 ms in klotski (PlayScreen menu saves=0 +pausemenu)"]
    assert t.long_ticks == [(61, "klotski", "PlayScreen menu saves=0 +pausemenu", "")]
    result = soak.Result(t, 1, 1, [])
    assert any("61 ms in klotski (PlayScreen menu saves=0 +pausemenu)" in line for line in result.findings())


def test_an_out_of_memory_toast_tells_the_heap_and_where():
    """The probe's @@oom line and the mem_info() after it: the heap free, its
    largest block and the game's state, in the visit and its findings (and not
    taken for a launcher report)."""
    t = _Lines()
    seen = []
    t.live = seen.append
    t.feed("@@launcher\n@@game\tklotski\tklotski_game\n"
           "@@oom\t55008\tPlayScreen level 22, piece set (2, 3, 4), solver phase 2\n"
           "stack: 2380 out of 7936\nGC: total: 245888, used: 190992, free: 54896\n"
           " No. of 1-blocks: 1020, 2-blocks: 272, max blk sz: 1780, max free sz: 394\n")
    note = "free 55008 B, largest free block 6304 B, in PlayScreen level 22, piece set (2, 3, 4), solver phase 2"
    assert t.visit.oom_at == [note] and seen == ["out of memory: " + note]
    assert t.homes == [] and t.visit is t.visits[-1]
    t.visit.oom = 1
    assert "  out of memory: " + note in soak.Result(t, 1, 1, []).findings()


def test_the_virtual_picos_flash_has_what_flash_puts_there():
    """The vpico soak plays on what a plain `flash` deploys: the firmware and
    Klotski's tables of every built-in level's piece set in saves/."""
    import klotski
    import klotski_levels

    from host_tools.emulation import vpfirmware

    files = vpfirmware.flashed_files()
    assert set(vpfirmware.firmware_files()) < set(files)
    sets = {klotski.piece_set(klotski.parse(klotski_levels.level(i)[1]))
            for i in range(klotski_levels.count())}
    assert {name for name in files if name.startswith("saves/")} == {
        "saves/klotski_%d%d%d.tbl" % ps for ps in sets}


def test_soak_command_help_and_one_line_errors(capsys):
    with pytest.raises(SystemExit) as exc:
        run_cli(["soak", "--help"], capsys)
    assert exc.value.code == 0
    assert "--minutes" in capsys.readouterr().out
    with pytest.raises(SystemExit) as exc:
        run_cli(["soak", "--minutes", "0"], capsys)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "minutes" in err


def test_soak_command_prints_the_table_and_the_summary(capsys):
    code, out, err = run_cli(["soak", "--minutes", "0.1", "--target", "vm", "--no-progress"], capsys)
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["game", "visits", "ticks"]
    assert lines[-1].startswith("soak vm: ")
    # the raw heap includes the qstr pool's growth: the first games' new names
    assert code == (0 if lines[-1].endswith("; OK") else 1)


@pytest.mark.device
def test_vpico_soak_a_few_games():
    # 24 emulated seconds: two games and back (a minute took ~13 min of wall time
    # on a loaded 2-core machine; `make soak SOAK_TARGET=vpico` is the long run)
    result = soak.run("vpico", minutes=0.4, seed=1)
    s = _checked(result)
    assert s["games"] >= 2, result.table()
    print(result.table())
    print(result.summary())
