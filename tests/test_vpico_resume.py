"""Resume on the virtual Pico (the flashed firmware, main.py's own loop, the saves
on littlefs): Trap the Cat played by the buttons with records already saved
(won 5, lost 3), the power cut at random emulated moments of play and inside
the writes of a move's save; every time the flash boots, its save loads "ok",
it is the last completed save or the one being written, the records are
there, and CONTINUE puts exactly that board back (host_tools/emulation/vpresume.py)."""

import random
import shutil

import pytest

pytestmark = pytest.mark.device

TICK_NS = 1e9 / 30


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """(records image, flash operations after each tick of the script, the
    tick's start offset, what the uncut run's flash holds at the end)."""
    from host_tools.emulation import vpresume

    tmp = tmp_path_factory.mktemp("resume")
    img = vpresume.prepared_image(tmp)
    ref = tmp / "ref.img"
    shutil.copyfile(img, ref)
    ops, start = vpresume.flash_ops_of_the_script(ref)
    final, out = vpresume.saved_game(ref)
    assert "Traceback" not in out
    return img, ops, start, final


def _writes(ops):
    """The ticks of the script with flash operations, as runs of consecutive ticks
    [(first, last), ...]: a save runs after its tick's frame, in the wait for the
    next tick, and a long one (a game's end: the play save cleared, then the
    records stored) can go on past the tick's end."""
    runs = []
    for t in range(len(ops)):
        if ops[t] > (ops[t - 1] if t else 0):
            if runs and runs[-1][1] == t - 1:
                runs[-1] = (runs[-1][0], t)
            else:
                runs.append((t, t))
    return runs


def _start_tick(ops):
    """The tick that starts Trap the Cat: the first that writes, making the two
    files its play save's saves after each move rewrite (savestore.make_slots;
    the records image has none yet), which is no save."""
    return _writes(ops)[0][0]


def _play_saves(ops):
    """The writes of a play save, (first tick, last tick) each: every write after
    the game's start (a move's save, or a game's end: its play save cleared)."""
    return _writes(ops)[1:]


def _stores_before(ops, tick):
    """Play saves completed before tick ``tick`` of the script."""
    return sum(1 for _, last in _play_saves(ops) if last < tick)


def _check(got, done, final):
    status, play_status, seq, won, lost, moves, resumable, toast, moves_after, same_board = got
    assert status == "ok" and won == 5 and lost in (3, 4), got          # the records
    assert play_status == ("new" if seq == 0 else "ok"), got
    assert seq in (done, 1 + done), (got, done)         # the last save, or the one being written
    if moves is not None:
        assert resumable == ["trapcat"] and toast is None and same_board and moves_after == moves, got


def test_the_uncut_play_saved_every_move(reference):
    from host_tools.emulation import vpresume

    img, ops, start, final = reference
    presses = [t for t, keys in enumerate(vpresume.play_ticks()) if "a" in keys and t
               and "a" not in vpresume.play_ticks()[t - 1]]
    assert _start_tick(ops) < presses[2]        # the game's start, before the first block
    stores = _stores_before(ops, len(ops))
    # (how many depends on the board, seeded from the clock: the cat may escape early)
    assert stores >= 3 and final[2] == stores, (stores, final)
    _check(final, stores - 1, final)


def test_power_cuts_at_random_moments_of_play(reference, tmp_path):
    from host_tools.emulation import vpresume

    img, ops, start, final = reference
    rng = random.Random(20261125)
    first = _play_saves(ops)[0][0]                                   # the first move's save
    for k in range(3):
        tick = rng.randrange(first - 10, len(ops))
        cut_ns = start + tick * TICK_NS + rng.randrange(int(TICK_NS))
        cut = tmp_path / ("cut%d.img" % k)
        shutil.copyfile(img, cut)
        assert vpresume.play_and_cut(cut, cut_ns=int(cut_ns)), cut_ns
        got, out = vpresume.saved_game(cut)
        assert "Traceback" not in out
        _check(got, _stores_before(ops, tick), final)


def test_power_cuts_inside_a_move_save(reference, tmp_path):
    from host_tools.emulation import vpresume

    img, ops, start, final = reference
    saves_at = [first for first, _ in _play_saves(ops)]
    tick = saves_at[1]                                           # the second move's save
    count = ops[tick] - ops[tick - 1]
    seen = set()
    for n in sorted({1, count // 2 + 1, count}):
        cut = tmp_path / ("ops%d.img" % n)
        shutil.copyfile(img, cut)
        assert vpresume.play_and_cut(cut, cut_after_ops=n, arm_at_tick=tick), n
        got, out = vpresume.saved_game(cut)
        assert "Traceback" not in out
        _check(got, _stores_before(ops, tick), final)
        seen.add(got[2])
    assert seen
