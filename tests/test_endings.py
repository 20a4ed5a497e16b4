"""Every ending of every game goes through ``ctx.finish``: the game in progress
is cleared first, then the records stored, once.  On the simulator (the
firmware on CPython, its saves in a folder as on the flash), each game is
played to each ending it has, then the handheld is booted again on that
folder twice: as the end screen left it (a power cut there) and after the
player left the end screen for the launcher.  Both times the finished game is
not offered (not in ``runtime.resumable``, the launcher draws what it draws
with no saved game: no "*", no "A:CONTINUE") and its records changed exactly
as that one result says (the save written at most once).

An ending may start from a position near the end: a crafted snapshot in the
play save, put back by the launcher's CONTINUE as after a power cut, built
from a real snapshot of the game with the fields that matter changed; the
ending itself is always played by the buttons.  Then power cuts at every step
of an ending's writes (tests/savecuts.py), and one ending per game on the
virtual Pico (slow)."""

import json
import shutil
from functools import lru_cache

import pytest

from host_tools.emulation import sim as simmod
from host_tools.core.keyscript import parse_keys  # noqa: E402

simmod.install_host_modules()

import games  # noqa: E402
import junqi_board as jb  # noqa: E402
import junqi_flip as jf  # noqa: E402
import savestore  # noqa: E402
import trapcat  # noqa: E402
import undosave  # noqa: E402
from runtime import play_id  # noqa: E402
from savecuts import RecordingFs, cut_states  # noqa: E402

LINE = {entry[games.ID]: i for i, entry in enumerate(games.GAMES)}
# keys that leave each game's end screen for the launcher
LEAVE = {"catmouse": "b wait:2 b wait:2", "trapcat": "b wait:2", "junqi": "b wait:2 b wait:2",
         "klotski": "b wait:2 b wait:2"}
# keys from the launcher's first line into a game, to a game in progress
START = {"catmouse": "a wait:3 a wait:10", "trapcat": "a wait:3", "junqi": "a wait:3 a wait:3",
         "klotski": "a wait:3 a wait:3"}


@pytest.fixture(scope="module", autouse=True)
def _no_host_sync():
    """OsFs.write ends with os.sync(), which on CPython flushes every disk of the
    machine (tens of ms each on a busy one); a simulator booted again reads the
    same files without it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(savestore.OsFs, "sync", lambda self: None)
        yield


def _run(s, keys):
    for k in parse_keys(keys):
        s.step(k)


def _until(s, done, limit=900):
    """Idle ticks until ``done()`` (at most ``limit``)."""
    for _ in range(limit):
        if done():
            return True
        s.step(())
    return done()


def _saves(folder):
    return savestore.Saves(savestore.OsFs(str(folder)))


def _records(folder, game_id):
    """(records, load status, sequence number of the records save)."""
    saves = _saves(folder)
    data, status = saves.load(game_id)
    return data, status, saves.seq[game_id]


def _copy(data):
    return json.loads(json.dumps(data))


@lru_cache(maxsize=None)
def _template(game_id):
    """A real snapshot of ``game_id`` in play (JSON text), to craft others from."""
    s = simmod.Simulator()
    _run(s, "wait:2" + " down" * LINE[game_id] + " " + START[game_id])
    snap = s.runtime.game.snapshot()
    assert snap is not None, game_id
    return json.dumps(snap)


def _snap(game_id):
    return json.loads(_template(game_id))


@lru_cache(maxsize=None)
def _launcher(line):
    """The launcher with line ``line`` chosen and no saved game (pixels as text)."""
    s = simmod.Simulator()
    _run(s, "wait:2" + " down" * line + " wait:3")
    assert s.runtime.resumable == []
    return s.screen_text()


# -- the positions near an ending --------------------------------------------------------
def _catmouse(side, cat, mouse, rnd, started):
    """Cat & Mouse on its first map (16 x 8, 96 rounds): ``side`` to play, the
    pieces on ``cat`` / ``mouse``, round ``rnd`` (``started``: the cat has moved
    in it).  The state is an undo record (catmouse_game: _put_round)."""
    snap = _snap("catmouse")
    state = bytearray(undosave.from_text(snap["state"]))
    state[0] = cat
    state[1] = mouse
    state[2] = rnd
    state[3:7] = bytes(4)                       # stamina
    state[7] = 64 if started else 0             # no rests
    snap.update(side=side, level=0, map=None, state=undosave.to_text(state), undo="")
    return snap


def _trapcat(cat, blocked, moves, cursor):
    """Trap the Cat on a 9 x 9 random board (NORMAL): the cat on ``cat``, the
    cells ``blocked``, ``moves`` blocks so far, the cursor on ``cursor``."""
    snap = _snap("trapcat")
    cells = bytearray(81)
    for c in blocked:
        cells[c] = trapcat.BLOCKED
    snap.update(size=9, cells=undosave.to_text(cells), cat=cat, moves=moves, diff=1,
                fixed=None, cursor=cursor, cat_turn=False, undo="")
    return snap


def _neighbours(cell):
    b = trapcat.Board(9)
    return [b.adj[6 * cell + k] for k in range(b.deg[cell])]


def _junqi(pieces, quiet=0, mode=0, easy=False):
    """Flip Junqi with every piece face up: ``pieces`` {cell: (colour, type)};
    player 0 (you, or P1) is red (0) and to move, the cursor on F2 (27)."""
    n = jb.CELLS
    occ = bytearray(n)
    kind = bytearray(n)
    colour = bytearray([jf.NOBODY] * n)
    alive = bytearray(2 * jf.TYPES)
    for cell, (col, t) in pieces.items():
        occ[cell] = col + 1
        kind[cell] = t
        colour[cell] = col
        alive[col * jf.TYPES + t] += 1
    board = bytes(occ) + kind + colour + bytes(2 * jf.TYPES) + alive + bytes([0, 1])
    snap = _snap("junqi")
    snap.update(mode=mode, easy=easy, board=undosave.to_text(board),
                counts=[0, quiet, 60, 0, jf.NOBODY, jf.NOBODY], cursor=27, undo="")
    return snap


RED, BLUE = 0, 1
F2, G2, E2, A1, K0, L1 = 27, 32, 22, 1, 50, 56
KLOTSKI_0 = "SBBS/VBBV/VSSV/VHHV/V..V"          # the first level (桃花园中)


def _klotski(helped=False):
    """Klotski's first level one step from the goal: the block (cells 9, 10, 13,
    14) over the gap at 17, 18, 80 steps played, the cursor on the block."""
    snap = _snap("klotski")
    assert snap["level"] == 0 and snap["start"] == KLOTSKI_0.replace("/", "")
    snap.update(cells="VSSV/VHHV/VBBV/VBBV/S..S", steps=80, last=255, helped=helped,
                cursor=9, undo="")
    return snap


# -- the endings ---------------------------------------------------------------------------
class Ending:
    """One ending of one game: ``snap()`` the position it is played from (None:
    from the game's start with ``start`` keys), ``prior`` the records before,
    ``keys`` the play that ends it, ``over(scene)`` True on its end screen,
    ``expect(prior)`` the records after."""

    def __init__(self, game, name, keys, over, expect, snap=None, start=None, prior=None,
                 settings=None):
        self.game = game
        self.name = name
        self.keys = keys
        self.over = over
        self.expect = expect
        self.snap = snap
        self.start = start
        self.prior = prior or {}
        self.settings = settings

    def __repr__(self):
        return "%s-%s" % (self.game, self.name)


def _changed(add=None, put=None):
    """expect(): the prior records with the counts in ``add`` added to and the
    keys in ``put`` set."""
    def expect(prior):
        out = _copy(prior)
        for key, n in (add or {}).items():
            out[key] = out.get(key, 0) + n
        out.update(put or {})
        return out
    return expect


def _same(prior):
    return _copy(prior)


def _best(key, steps):
    def expect(prior):
        out = _copy(prior)
        out.setdefault("best", {})[key] = steps
        return out
    return expect


def _catmouse_end(text):
    return lambda g: g.screen is g.end and g.end.banner == text


def _trapcat_end(text):
    return lambda g: g.screen is g.end_screen and g.banner == text


def _junqi_end(text):
    return lambda g: g.screen is g.end_screen and g.end_screen.banner == text


def _klotski_won(helped):
    return lambda g: g.screen is g.win_screen and g.helped == helped


CM_PRIOR = {"wins_mouse": 4, "wins_cat": 2}


CM_CAUGHT_IN = 26    # the round the left/right mouse is caught in (the script below)


def _cm_map(side, won, best, diff=1):
    """Cat & Mouse's record of the first map (Garden) after one game at
    ``diff`` (catmouse_game: MAP_DIFF counts per difficulty)."""
    row = [0] * 18
    at = 6 * diff + (0 if side == "mouse" else 3)
    row[at + (0 if won else 1)] = 1
    row[at + 2] = best
    return {"maps": {"Garden": row}}

TC_PRIOR = {"won": 5, "lost": 3, "best1": 20}
JQ_PRIOR = {"won": 2, "lost": 1, "drawn": 1, "easy_won": 3, "pvp": 4}
JQ_WON = {F2: (RED, jf._MARSHAL), A1: (RED, jf.FLAG), G2: (BLUE, jf.FLAG), K0: (BLUE, jf._MARSHAL)}
JQ_LOST = {F2: (RED, 4), A1: (RED, jf.FLAG), G2: (BLUE, jf.MINE), K0: (BLUE, jf._MARSHAL),
           L1: (BLUE, jf.FLAG)}
JQ_QUIET = {F2: (RED, jf._MARSHAL), A1: (RED, jf.FLAG), K0: (BLUE, jf._MARSHAL), L1: (BLUE, jf.FLAG)}
TC_WALL = _neighbours(40)             # the cells next to the centre

ENDINGS = [
    # Cat & Mouse: as the mouse, caught by the cat (played from the start) ...
    Ending("catmouse", "mouse-lost", "left wait:6 right wait:6 " * 48,
           _catmouse_end(b"CAUGHT!"), _changed({"lost_mouse": 1}, _cm_map("mouse", False, CM_CAUGHT_IN)),
           start="wait:8 a wait:20 a wait:10",
           prior=CM_PRIOR),
    # ... or cornered: A (stay) next to the cat, which takes the mouse in the next round
    Ending("catmouse", "mouse-lost-cornered", "a wait:12", _catmouse_end(b"CAUGHT!"),
           _changed({"lost_mouse": 1}, _cm_map("mouse", False, 31)),
           snap=lambda: _catmouse("mouse", 126, 127, 30, True), prior=CM_PRIOR),
    # ... or still free after round 96: A (stay) in the last round
    Ending("catmouse", "mouse-won", "wait:8 a wait:8", _catmouse_end(b"ESCAPED!"),
           _changed({"wins_mouse": 1}, _cm_map("mouse", True, 96)),
           snap=lambda: _catmouse("mouse", 0, 127, 95, False),
           prior=CM_PRIOR),
    # as the cat: onto the mouse (round 11: the fastest catch) ...
    Ending("catmouse", "cat-won", "right wait:8", _catmouse_end(b"YOU CAUGHT IT!"),
           _changed({"wins_cat": 1}, dict(_cm_map("cat", True, 11), best_catch=11)),
           snap=lambda: _catmouse("cat", 126, 127, 10, False), prior=CM_PRIOR),
    # ... or the mouse still free after the last round
    Ending("catmouse", "cat-lost", "right wait:20", _catmouse_end(b"IT ESCAPED!"),
           _changed({"lost_cat": 1}, _cm_map("cat", False, 0)),
           snap=lambda: _catmouse("cat", 0, 127, 95, False), prior=CM_PRIOR),
    # Trap the Cat: the cat's last free neighbour blocked (8 blocks: a new best) ...
    Ending("trapcat", "won", "a wait:4", _trapcat_end("TRAPPED!"),
           _changed({"won": 1, "won1": 1}, {"best1": 8}),
           snap=lambda: _trapcat(40, TC_WALL[1:] + [0, 80], 7, TC_WALL[0]), prior=TC_PRIOR),
    Ending("trapcat", "won-no-best", "a wait:4", _trapcat_end("TRAPPED!"),
           _changed({"won": 1, "won1": 1}),
           snap=lambda: _trapcat(40, TC_WALL[1:] + [0, 80], 7, TC_WALL[0]),
           prior=dict(TC_PRIOR, best1=4)),
    # ... or a block far away while the cat stands next to the border: it runs out
    Ending("trapcat", "lost", "a wait:30", _trapcat_end("ESCAPED!"),
           _changed({"lost": 1, "lost1": 1}),
           snap=lambda: _trapcat(10, [40, 41], 2, 80), prior=TC_PRIOR),
    # Flip Junqi against the AI: the marshal takes the flag (F2 -> G2) ...
    Ending("junqi", "won", "a wait:2 right wait:2 a wait:10", _junqi_end("YOU WIN"),
           _changed({"won": 1}), snap=lambda: _junqi(JQ_WON), prior=JQ_PRIOR),
    # ... the last movable piece dies on a mine: after the AI's move you have none
    Ending("junqi", "lost", "a wait:2 right wait:2 a wait:60", _junqi_end("AI WINS"),
           _changed({"lost": 1}), snap=lambda: _junqi(JQ_LOST), prior=JQ_PRIOR),
    # ... the 80th quiet move (F2 -> E2)
    Ending("junqi", "drawn", "a wait:2 left wait:2 a wait:10", _junqi_end("DRAW"),
           _changed({"drawn": 1}), snap=lambda: _junqi(JQ_QUIET, quiet=79), prior=JQ_PRIOR),
    # ... against the easy AI (its own records) ...
    Ending("junqi", "easy-won", "a wait:2 right wait:2 a wait:10", _junqi_end("YOU WIN"),
           _changed({"easy_won": 1}), snap=lambda: _junqi(JQ_WON, easy=True), prior=JQ_PRIOR,
           settings={"difficulty": 0}),
    # ... and two players (one count for every result)
    Ending("junqi", "two-players", "a wait:2 right wait:2 a wait:10", _junqi_end("P1 WINS"),
           _changed({"pvp": 1}), snap=lambda: _junqi(JQ_WON, mode=1), prior=JQ_PRIOR),
    # Klotski: the block down to the exit, the 81st step: the level's first best
    # (the A after it drops the block: the win screen stays) ...
    Ending("klotski", "solved", "a wait:2 down wait:4 a wait:4", _klotski_won(False),
           _best(KLOTSKI_0, 81), snap=_klotski, prior={"best": {"VBBV/VBBV/SHHS/VSSV/V..V": 70}}),
    # ... a better one than the saved best ...
    Ending("klotski", "solved-new-best", "a wait:2 down wait:4 a wait:4", _klotski_won(False),
           _best(KLOTSKI_0, 81), snap=_klotski, prior={"best": {KLOTSKI_0: 100}}),
    # ... not better than it ...
    Ending("klotski", "solved-no-best", "a wait:2 down wait:4 a wait:4", _klotski_won(False), _same,
           snap=_klotski, prior={"best": {KLOTSKI_0: 50}}),
    # ... with help: the last step is the menu's HINT (played once the solver's
    # table is built): no record
    Ending("klotski", "solved-with-hint", "hold:b:20 down a", _klotski_won(True), _same,
           snap=_klotski, prior={"best": {KLOTSKI_0: 100}}),
]


def _prepare(folder, e):
    """The saves folder before the ending: records, settings, the crafted game."""
    saves = _saves(folder)
    if e.prior:
        saves.store(e.game, e.prior)
    if e.settings:
        saves.store("_settings", e.settings)
    if e.snap is not None:
        saves.store(play_id(e.game), {"resume": e.snap()})


def _reach(folder, e):
    """Boot on ``folder`` and reach the ending's position.  Returns the simulator
    and the records before the ending (data, status, sequence number)."""
    _prepare(folder, e)
    s = simmod.Simulator(saves_dir=folder)
    rt = s.runtime
    line = LINE[e.game]
    if e.snap is not None:
        assert rt.resumable == [e.game]
        _run(s, "wait:2" + " down" * line + " a wait:3")     # CONTINUE
        assert rt.ctx.game_id == e.game and rt._toast is None, rt._toast
    else:
        _run(s, "wait:2" + " down" * line + " " + e.start)
        assert rt.ctx.game_id == e.game and rt.game.snapshot() is not None
    before = _records(folder, e.game)
    assert before[:2] == (e.prior, "ok" if e.prior else "new")
    return s, before


def _play_ending(s, e):
    """Play the ending's keys, on to its end screen."""
    game = s.runtime.game
    _run(s, e.keys)
    assert _until(s, lambda: e.over(game)), (e, game.snapshot())
    _run(s, "wait:5")


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    """``ended(e)``: the ending played once (cached): {"cut": a copy of the saves
    as the end screen left them, "left": the saves after leaving it, "before":
    the records before it, "at_end" / "after_leaving": what the runtime said}."""
    cache = {}

    def play(e):
        if repr(e) not in cache:
            root = tmp_path_factory.mktemp(repr(e))
            s, before = _reach(root / "left", e)
            _play_ending(s, e)
            rt = s.runtime
            at_end = (list(rt.resumable), rt.game.snapshot())
            shutil.copytree(root / "left", root / "cut")
            _run(s, LEAVE[e.game] + " wait:60")
            after = (rt.screen is rt.launcher, list(rt.resumable), s.screen_text())
            cache[repr(e)] = {"cut": root / "cut", "left": root / "left", "before": before,
                              "at_end": at_end, "after_leaving": after}
        return cache[repr(e)]
    return play


def _check_booted(folder, e, before):
    """Boot again on ``folder``: the game is not offered and its records are the
    prior ones changed by this one result, written at most once."""
    s = simmod.Simulator(saves_dir=folder)
    rt = s.runtime
    assert e.game not in rt.resumable, "the finished game is offered again"
    assert "resume" not in _saves(folder).load(play_id(e.game))[0]
    _run(s, "wait:2" + " down" * LINE[e.game] + " wait:3")
    assert s.screen_text() == _launcher(LINE[e.game]), "the launcher draws a saved game"
    data, status, seq = _records(folder, e.game)
    assert status == "ok" and data == e.expect(before[0]), (data, before[0])
    assert seq - before[2] == 1, "the records were written %d times" % (seq - before[2])


def _endings(names):
    return [e for name in names for e in ENDINGS if repr(e) == name]


def _params(endings):
    """``endings`` as test parameters, each named by its game and ending."""
    return [pytest.param(e, id=repr(e)) for e in endings]


@pytest.mark.parametrize("e", _params(ENDINGS))
def test_a_boot_at_the_end_screen_offers_nothing_and_has_the_result(ended, e):
    """A power cut on the end screen (or the battery run out there)."""
    got = ended(e)
    resumable, snap = got["at_end"]
    assert e.game not in resumable and snap is None
    _check_booted(got["cut"], e, got["before"])


@pytest.mark.parametrize("e", _params(ENDINGS))
def test_leaving_the_end_screen_offers_nothing_and_keeps_the_result(ended, e):
    got = ended(e)
    at_launcher, resumable, screen = got["after_leaving"]
    assert at_launcher and resumable == []
    assert screen == _launcher(LINE[e.game])
    _check_booted(got["left"], e, got["before"])


# -- power cuts during an ending's writes -----------------------------------------------------
SAVE_SUFFIXES = (".sav", ".new", ".bak")


def _files(folder):
    """The saves in ``folder`` as savestore names -> bytes (a MemFs's files)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*")
            if p.is_file() and p.suffix in SAVE_SUFFIXES}


def _write_files(folder, files):
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _save_id(name):
    return name[:name.rindex(".")]


CUT = ["catmouse-mouse-won", "catmouse-mouse-lost-cornered", "trapcat-won", "junqi-lost",
       "klotski-solved"]


@pytest.mark.parametrize("e", _params(_endings(CUT)))
def test_a_power_cut_during_an_ending_never_offers_the_finished_game(tmp_path, e):
    """The ending's writes recorded (tests/savecuts.py), the flash as a cut at
    each step (and every 7th byte of each write) leaves it, booted: a game is
    offered only with the records before the ending and plays on when
    continued; else the records have the result or not (at most that one
    result lost); without a cut nothing is offered and the result is there."""
    folder = tmp_path / "saves"
    s, before = _reach(folder, e)
    rt = s.runtime
    start = _files(folder)
    rec = RecordingFs(start)
    rt.saves.fs = rec
    _play_ending(s, e)
    writes = [_save_id(step[1]) for step in rec.log if step[0] == "write"]
    assert writes[-2:] == [play_id(e.game), e.game], writes        # cleared, then the records
    cleared = [step[2] for step in rec.log if step[0] == "write" and
               _save_id(step[1]) == play_id(e.game)][-1]
    assert savestore.decode(cleared)[1] == {}
    old = before[0]
    new = e.expect(old)
    boot = tmp_path / "boot"
    seen = {"offered": 0, "lost": 0, "counted": 0}
    continued = []
    states = list(cut_states(start, rec.log, every=7))
    for k, files in enumerate(states):
        _write_files(boot, files)
        b = simmod.Simulator(saves_dir=boot)
        data, status = _saves(boot).load(e.game)
        assert status == "ok" and data in (old, new), (k, data)
        if e.game in b.runtime.resumable:
            assert data == old, k                  # offered only before the result counts
            seen["offered"] += 1
            snap = _saves(boot).load(play_id(e.game))[0]["resume"]
            if snap not in continued:              # CONTINUE: a game in play, not an end
                continued.append(snap)
                _run(b, "wait:2" + " down" * LINE[e.game] + " a wait:3")
                assert b.runtime._toast is None and b.runtime.game.snapshot() is not None, k
        else:
            seen["lost" if data == old else "counted"] += 1
    assert e.game not in b.runtime.resumable and data == new      # the last: no cut
    assert seen["offered"] and seen["lost"] and (seen["counted"] or new == old), seen


# -- on the virtual Pico ------------------------------------------------------------------------
# One ending per game, in one boot: the flashed firmware (.mpy, littlefs) booted
# again from the REPL as the simulator boots it (main.boot; the simulator's
# virtual clock, so the games play as they do above; the buttons from MASK),
# the four crafted games stored in their play saves first, each continued from
# the launcher and played to its end and left; then the runtime booted again
# on the flash.  Klotski first, on the freshest heap (its solver's table).
VPICO = ["klotski-solved", "catmouse-mouse-lost-cornered", "trapcat-won", "junqi-won"]
VPICO_OVER = {"klotski": "g.screen is g.win_screen and not g.helped",
              "catmouse": "g.screen is g.end and g.end.banner == b'CAUGHT!'",
              "trapcat": "g.screen is g.end_screen and g.banner == 'TRAPPED!'",
              "junqi": "g.screen is g.end_screen and g.end_screen.banner == 'YOU WIN'"}

_VP_BOOT = r"""
import gc, boardcfg, hw_machine, main, savestore
def emit(tag, value):
    print('@@%%s\t%%r' %% (tag, value))
S = savestore.Saves()
for _gid, _rec, _snap in %(data)r:
    S.store(_gid, _rec)
    S.store(_gid + '/play', {'resume': _snap})
_gid = _rec = _snap = None
cfg = boardcfg.load_device()
hw = hw_machine.Hardware(cfg)
CLOCK = [0, 0]
MASK = [0]
def _ticks():
    return CLOCK[0] & 0x3FFFFFFF
def _sleep(ms):
    CLOCK[0] += ms
def _buttons():
    return MASK[0]
hw.ticks_ms = _ticks
hw.sleep_ms = _sleep
hw.read_buttons = _buttons
rt = main.boot(cfg, hw, savestore.Saves())
def step(mask):
    MASK[0] = mask
    rt.step()
    rt.save_pending()
    CLOCK[1] += 1
    CLOCK[0] = CLOCK[1] * 1000 // 30
def play(masks):
    for m in masks:
        step(m)
def records(gid):
    d, st = S.load(gid)
    return d, st, S.seq[gid]
emit('boot', list(rt.resumable))
gc.collect()
"""

_VP_GAME = r"""
while rt._toast_ticks:
    step(0)
while rt.launcher.sel < %(line)d:
    play(%(down)r)
while rt.launcher.sel > %(line)d:
    play(%(up)r)
play(%(a)r)
g = rt.game
emit('start', (rt.ctx.game_id, rt._toast if rt._toast_ticks else None, records(%(id)r)))
play(%(keys)r)
n = 0
while not (%(over)s) and n < 900:
    step(0)
    n += 1
play(%(settle)r)
emit('end', (%(over)s, list(rt.resumable), g.snapshot() is None))
g = None
play(%(leave)r)
emit('left', (rt.screen is rt.launcher, list(rt.resumable)))
"""

_VP_RESTART = r"""
rt = None
gc.collect()
rt = main.boot(cfg, hw, savestore.Saves())
play(b'\x00\x00\x00')
emit('restart', (list(rt.resumable), [(gid, records(gid), S.load(gid + '/play')[0])
                                      for gid in %(ids)r]))
"""


def _masks(keys):
    """A key script as the guest's button masks, one byte a tick."""
    from buttons import A, B, DOWN, LEFT, RIGHT, UP
    bits = {"up": UP, "down": DOWN, "left": LEFT, "right": RIGHT, "a": A, "b": B}
    return bytes(sum(bits[name] for name in tick) for tick in parse_keys(keys))


@pytest.fixture(scope="module")
def on_the_pico():
    """{game id: {"start", "end", "left": what the guest said}, "boot": resumable
    at the first boot, "restart": (resumable, [(id, records, play save)]),
    "launcher": the glass after the restart}."""
    from host_tools.emulation import mpvm, vpfirmware

    endings = _endings(VPICO)
    data = [(e.game, e.prior, e.snap()) for e in endings]
    out = {}
    with vpfirmware.firmware_pico() as pico:
        vpfirmware.repl(pico)
        pico.set_buttons(())
        out.update(mpvm._parse_results(pico.exec(_VP_BOOT % {"data": data}, emulated_ms=120000)))
        for e in endings:
            code = _VP_GAME % {"line": LINE[e.game], "down": _masks("down"), "up": _masks("up"),
                               "a": _masks("a wait:3"), "id": e.game, "keys": _masks(e.keys),
                               "over": VPICO_OVER[e.game], "settle": _masks("wait:5"),
                               "leave": _masks(LEAVE[e.game] + " wait:5")}
            out[e.game] = mpvm._parse_results(pico.exec(code, emulated_ms=600000, timeout=1800))
        out.update(mpvm._parse_results(pico.exec(_VP_RESTART % {"ids": [e.game for e in endings]},
                                                 emulated_ms=120000)))
        out["launcher"] = pico.oled.to_text()
    return out


@pytest.mark.device
@pytest.mark.parametrize("e", _params(_endings(VPICO)))
def test_on_the_virtual_pico_an_ending_offers_nothing_and_has_the_result(on_the_pico, e):
    got = on_the_pico
    assert e.game in got["boot"]                              # the crafted game, offered
    game_id, toast, before = got[e.game]["start"]
    assert game_id == e.game and toast is None, toast
    assert before[:2] == (e.prior, "ok")
    over, resumable, no_snapshot = got[e.game]["end"]
    assert over and e.game not in resumable and no_snapshot
    at_launcher, resumable = got[e.game]["left"]
    assert at_launcher and e.game not in resumable
    resumable, saves = got["restart"]
    assert e.game not in resumable
    records, play = [(r, p) for gid, r, p in saves if gid == e.game][0]
    assert records[:2] == (e.expect(e.prior), "ok") and records[2] - before[2] <= 1
    assert "resume" not in play
    if e.game == "catmouse":                  # its line is the first: chosen after the boot
        assert got["launcher"] == _launcher(0), "the launcher draws a saved game"
