"""Level packs on the device (firmware/userlevels.py): each game offers the
levels of ``/levels/<game>.bin`` besides its built-in ones, read one at a time;
a bad pack of any kind shows "LEVEL PACK BAD" and the game goes on with its
built-in levels.  One game also runs with a pack inside the MicroPython VM."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gamectx  # noqa: E402
import gamelevels  # noqa: E402
import catmouse_game  # noqa: E402
import catmouse_maps  # noqa: E402
import klotski  # noqa: E402
import klotski_game  # noqa: E402
import levelpack  # noqa: E402
import trapcat  # noqa: E402
import trapcat_game  # noqa: E402
import userlevels  # noqa: E402
from buttons import A, B, DOWN, UP  # noqa: E402
from gamectx import tap, tick  # noqa: E402

CM_LEVELS = (b"; small\nC..#....\n..#..#..\n..#.....\n....#..M\n",
             b"C.....g.........\n.##.#...##.ww.#.\n.#..#.g..#....#.\n...gg...........\n"
             b".#....##.#..#g#.\n.#.ww.#..#..#...\n...##...g...##..\n..........#....M\n")
TC_LEVELS = (b"; 9x9\n" + b".........\n" * 4 + b"...#C....\n" + b".........\n" * 4,
             b"#....\n..#..\n..C..\n.....\n....#\n")
KL_ONE_MOVE = b"VHHV/VSSV/VBBV/VBBV/S..S\n"     # the block one step from the exit
KL_LEVELS = (KL_ONE_MOVE, b"VBBV/VBBV/SHHS/S..S/SHHS\n")
BAD_LEVEL = {"catmouse": b"C..\n.Z.\n..M\n", "trapcat": b"...\n.C.\n..X\n",
             "klotski": b"VBBV/VBBV/VHHV/VSSV\n"}
GOOD = {"catmouse": CM_LEVELS, "trapcat": TC_LEVELS, "klotski": KL_LEVELS}


class Ctx(gamectx.FakeCtx):
    now = 1234
    width = 128
    height = 64

    def __init__(self, levels_dir, difficulty=1):
        gamectx.FakeCtx.__init__(self, difficulty)
        self.levels_dir = str(levels_dir)
        self.frame = bytearray(1024)
        self.fb = framebuf.FrameBuffer(self.frame, 128, 64, framebuf.MONO_VLSB)

    def tick_no(self):
        return 0


def write_pack(tmp_path, game, data):
    d = tmp_path / "levels"
    d.mkdir(exist_ok=True)
    (d / (game + ".bin")).write_bytes(data)
    return d


def corrupt_packs(game):
    """(kind, pack bytes, words the on-screen reason must hold) for every kind of
    bad pack."""
    good = levelpack.build_pack(game, list(GOOD[game]))
    wrong = "klotski" if game != "klotski" else "trapcat"
    return [
        ("magic", b"XXXX" + good[4:], "bad magic"),
        ("checksum", good[:-1] + bytes([good[-1] ^ 0x20]), "checksum mismatch"),
        ("truncated", good[:-3], "truncated"),
        ("short", good[:10], "shorter than its 16-byte header"),
        ("level", levelpack.build_pack(game, [GOOD[game][0], BAD_LEVEL[game]]), "level 1:"),
        ("game", levelpack.build_pack(wrong, list(GOOD[wrong])), "not " + game),
    ]


def shown(fb):
    return sum(fb.pixel(x, y) for x in range(128) for y in range(64))


def reason(game):
    return " ".join(game.pack_error)


def cm_reason(game):
    """Cat & Mouse's: why its gamelevels.Levels dropped the pack."""
    return " ".join(game.levels.error)


# ------------------------------------------------------------------ the helper

def test_no_pack_is_silent(tmp_path):
    ctx = Ctx(tmp_path / "nowhere")
    assert gamelevels.Levels(ctx, "catmouse", None, 3).pack is None
    assert gamelevels.pack_path(gamectx.FakeCtx(), "klotski") == "/levels/klotski.bin"
    g = catmouse_game.Scene(ctx)
    assert g.screen is g.title and g.n_levels() == len(catmouse_maps.LEVELS)


def test_pack_reads_one_level_per_open_and_keeps_no_handle(tmp_path, monkeypatch):
    d = write_pack(tmp_path, "catmouse", levelpack.build_pack("catmouse", list(CM_LEVELS)))
    pack, err = userlevels.open_for(gamelevels.pack_path(Ctx(d), "catmouse"), "catmouse",
                                    catmouse_game.check_level)
    assert err is None and pack.count == 2 and pack._lp.f is None
    reads = []
    real_open = open

    def spy(path, mode="r", *a):
        f = real_open(path, mode, *a)
        real_read = f.read
        f.read = lambda n=-1: reads.append(n) or real_read(n)
        return f
    monkeypatch.setattr("builtins.open", spy)
    assert pack.text(1) == CM_LEVELS[1].decode()
    assert reads == [len(CM_LEVELS[1])]          # one read of that level alone
    assert pack._lp.f is None


def test_wrap_fits_the_screen():
    lines = userlevels.wrap("checksum mismatch: the header (byte 12) says 0x12345678, the "
                            "contents give 0x9abcdef0: the pack is corrupted " + "x" * 80)
    assert len(lines) == 5 and all(len(line) <= 31 for line in lines)
    assert lines[-1].endswith("...")


# ------------------------------------------------------------------ Cat & Mouse

def test_catmouse_plays_a_pack_level(tmp_path):
    d = write_pack(tmp_path, "catmouse", levelpack.build_pack("catmouse", list(CM_LEVELS)))
    ctx = Ctx(d)
    g = catmouse_game.Scene(ctx)
    nb = len(catmouse_maps.LEVELS)
    assert g.screen is g.title and g.n_levels() == nb + 2
    tap(g, ctx, UP)                               # wraps to the last level: pack 2/2
    tap(g, ctx, UP)                               # pack 1/2
    assert g.level == nb and "PACK 1/2" in g.title.lines[1]
    tap(g, ctx, A)
    c = g.match.game
    assert g.screen is g.play and (c.cols, c.rows) == (8, 4)
    assert g.map_text == g.match.map_text == CM_LEVELS[0].decode()
    for _ in range(40):                           # the cat answers, the mouse stays
        tick(g, ctx, down=A)
        tick(g, ctx)
        if g.screen is not g.play:
            break
    assert c.round >= 2
    g.draw(ctx.fb)
    assert shown(ctx.fb) > 100


@pytest.mark.parametrize("kind,data,words", corrupt_packs("catmouse"))
def test_catmouse_bad_pack_shows_the_error_then_builtins(tmp_path, kind, data, words):
    ctx = Ctx(write_pack(tmp_path, "catmouse", data))
    g = catmouse_game.Scene(ctx)
    assert g.screen is g.error_screen and g.levels.pack is None
    assert words in cm_reason(g), cm_reason(g)
    g.draw(ctx.fb)
    assert shown(ctx.fb) > 200                   # the title bar and the reason
    tap(g, ctx, A)
    assert g.screen is g.title and g.n_levels() == len(catmouse_maps.LEVELS)
    tap(g, ctx, A)
    assert g.screen is g.play and g.map_text is None


def test_catmouse_pack_replaced_after_open(tmp_path):
    d = write_pack(tmp_path, "catmouse", levelpack.build_pack("catmouse", list(CM_LEVELS)))
    ctx = Ctx(d)
    g = catmouse_game.Scene(ctx)
    (d / "catmouse.bin").write_bytes(b"PZLV")      # gone bad underneath
    tap(g, ctx, UP)
    tap(g, ctx, A)
    assert g.screen is g.error_screen and "short read" in cm_reason(g)
    tap(g, ctx, A)
    assert g.screen is g.title and g.level == 0


def test_catmouse_map_too_big_for_the_screen(tmp_path):
    big = (b"C" + b"." * 19 + b"\n") + (b"." * 20 + b"\n") * 3 + (b"." * 19 + b"M\n")
    ctx = Ctx(write_pack(tmp_path, "catmouse", levelpack.build_pack("catmouse", [big])))
    g = catmouse_game.Scene(ctx)
    assert g.screen is g.error_screen and "fits 16x8" in cm_reason(g)


# ------------------------------------------------------------------ Trap the Cat

def _tc_reason(g):
    return " ".join(g.levels.error)


def _tc_cat_turn(g):
    return g.screen is g.play_screen and g.play_screen.cat_turn


def test_trapcat_plays_pack_levels(tmp_path):
    ctx = Ctx(write_pack(tmp_path, "trapcat", levelpack.build_pack("trapcat", list(TC_LEVELS))))
    g = trapcat_game.Scene(ctx)
    assert g.screen is g.choice_screen and g.levels.pack.count == 2
    g.draw(ctx.fb)
    assert shown(ctx.fb) > 100
    tap(g, ctx, DOWN)
    assert g.choice_screen.choice == 1 and "PACK 1/2" in g.choice_screen.text
    tick(g, ctx, down=A)
    size, cells, cat = trapcat.parse_level(TC_LEVELS[0].decode())
    assert g.screen is g.play_screen and g.board.size == 9 and g.board.cat == cat
    assert bytes(g.board.cells) == bytes(cells)
    tick(g, ctx)                                   # the grid's first frame: a tick of its own
    g.cursor = 0
    tick(g, ctx, down=A)                           # block a corner; the cat answers
    assert _tc_cat_turn(g)
    for _ in range(40):
        if not _tc_cat_turn(g):
            break
        tick(g, ctx)
    assert g.screen in (g.play_screen, g.end_screen) and g.board.cat != cat
    assert not _tc_cat_turn(g)
    # back to the choice, then the 5x5 position
    g.screen = g.end_screen
    tap(g, ctx, B)
    assert g.screen is g.choice_screen
    tap(g, ctx, DOWN)
    tick(g, ctx, down=A)
    assert g.screen is g.play_screen and g.board.size == 5
    tick(g, ctx)                                   # its first frame
    g.draw(ctx.fb)
    # the random grid is still there
    g.screen = g.choice_screen
    g.choice_screen.pick(0)
    assert g.choice_screen.text == "< RANDOM GRID >"
    tick(g, ctx, down=A)
    assert g.board.size == 9 and g.fixed is None and g.board.moves == 0


@pytest.mark.parametrize("kind,data,words", corrupt_packs("trapcat"))
def test_trapcat_bad_pack_shows_the_error_then_the_random_game(tmp_path, kind, data, words):
    ctx = Ctx(write_pack(tmp_path, "trapcat", data))
    g = trapcat_game.Scene(ctx)
    assert g.screen is g.error_screen and g.levels.pack is None
    assert words in _tc_reason(g), _tc_reason(g)
    g.draw(ctx.fb)
    assert shown(ctx.fb) > 200
    tick(g, ctx, down=A)
    assert g.screen is g.play_screen and g.board.size == 9 and g.fixed is None
    g.screen = g.end_screen
    assert tap(g, ctx, B) == "exit"               # no pack: B leaves as before


def test_trapcat_grid_too_big(tmp_path):
    big = (b"." * 11 + b"\n") * 5 + b".....C.....\n" + (b"." * 11 + b"\n") * 5
    ctx = Ctx(write_pack(tmp_path, "trapcat", levelpack.build_pack("trapcat", [big])))
    g = trapcat_game.Scene(ctx)
    assert g.screen is g.error_screen and "fits 9x9" in _tc_reason(g)


# ------------------------------------------------------------------ Klotski

def test_klotski_lists_and_plays_pack_levels(tmp_path):
    ctx = Ctx(write_pack(tmp_path, "klotski", levelpack.build_pack("klotski", list(KL_LEVELS))))
    g = klotski_game.Scene(ctx)
    nb = g.nb
    assert g.screen is g.list_screen and g.n_levels() == nb + 2
    tap(g, ctx, UP)                                # wraps to the last: pack 2/2
    assert g.level == nb + 1 and g.name(g.level) == "PACK 2/2"
    g.draw(ctx.fb)                                 # the list with the pack level's thumbnail
    assert bytes(g.list_screen.thumb) == bytes(klotski.parse(KL_LEVELS[1].decode()))
    tap(g, ctx, UP)
    assert g.level == nb
    tick(g, ctx, down=A)
    assert g.screen is g.play_screen
    assert bytes(g.start) == bytes(klotski.parse(KL_ONE_MOVE.decode()))
    g.draw(ctx.fb)
    # the cursor starts on the block: grab it, move it down: solved
    tick(g, ctx, down=A)
    tick(g, ctx, down=DOWN)
    assert g.screen is g.win_screen and g.steps == 1
    assert ctx.saved["klotski"]["best"][KL_ONE_MOVE.decode()] == 1
    g.draw(ctx.fb)
    tick(g, ctx, down=A)                           # drops the block: the win screen stays
    assert g.screen is g.win_screen
    tick(g, ctx, down=A)                           # next: pack level 2
    assert g.screen is g.play_screen and g.level == nb + 1


@pytest.mark.parametrize("kind,data,words", corrupt_packs("klotski"))
def test_klotski_bad_pack_shows_the_error_then_builtins(tmp_path, kind, data, words):
    ctx = Ctx(write_pack(tmp_path, "klotski", data))
    g = klotski_game.Scene(ctx)
    assert g.screen is g.error_screen and g.levels.pack is None
    why = " ".join(g.levels.error)
    assert words in why, why
    g.draw(ctx.fb)
    assert shown(ctx.fb) > 200
    tick(g, ctx, down=A)
    assert g.screen is g.list_screen and g.n_levels() == g.nb
    tick(g, ctx, down=A)
    assert g.screen is g.play_screen and g.level == 0


def test_klotski_pack_with_a_piece_that_does_not_fit(tmp_path):
    bad = b"VBBV/VBBV/HVVH/SSSS/S..S\n"              # parse() passes, the tiling does not
    ctx = Ctx(write_pack(tmp_path, "klotski", levelpack.build_pack("klotski", [bad])))
    g = klotski_game.Scene(ctx)
    assert g.screen is g.error_screen and "level 0" in " ".join(g.levels.error)


# ------------------------------------------------------------------ in the MicroPython VM

VM_SCRIPT = r"""
rt.ctx.levels_dir = '/input/levels'
idle(3)
tap(buttons.A)                 # the launcher's first game: Cat & Mouse
idle(3)
g = rt.screen
emit('open', (type(g).__name__, type(g.screen).__name__, g.n_levels(), g.levels.pack is not None,
              g.levels.error and ' '.join(g.levels.error)))
if g.screen is g.error_screen:
    tap(buttons.A)
    idle(2)
    emit('after_error', (type(g.screen).__name__, g.n_levels()))
else:
    tap(buttons.UP)
    idle(1)
    tap(buttons.UP)
    idle(1)
    emit('title', g.title.lines[1])
    tap(buttons.A)
    idle(6)
    emit('play', (type(g.screen).__name__, g.match.game.cols, g.match.game.rows))
    for k in range(8):
        tap(buttons.A)
        idle(5)
    emit('rounds', g.match.game.round)
"""


@pytest.mark.parametrize("pack", ["good", "bad"])
def test_catmouse_pack_in_the_micropython_vm(pack):
    from host_tools.emulation import mpvm, runtime_vm

    with runtime_vm.staged_firmware() as fw:
        (fw / "levels").mkdir()
        data = levelpack.build_pack("catmouse", list(CM_LEVELS))
        if pack == "bad":
            data = data[:-1] + bytes([data[-1] ^ 1])
        (fw / "levels" / "catmouse.bin").write_bytes(data)
        r = mpvm.run(runtime_vm.SETUP + VM_SCRIPT, input_dir=fw)
    name, state, n, has_pack, err = r["open"]
    nb = len(catmouse_maps.LEVELS)
    assert name == "Scene"
    if pack == "good":
        assert (state, n, has_pack, err) == ("TitleScreen", nb + 2, True, None)
        assert "PACK 1/2" in r["title"]
        assert r["play"] == ("PlayScreen", 8, 4)
        assert r["rounds"] >= 2
    else:
        assert state == "PackErrorScreen" and not has_pack and "checksum mismatch" in err
        assert r["after_error"] == ("TitleScreen", nb)
