"""`levels preview`: levels rendered through the game's draw code, the display
driver, the I2C bus and the controller model (host_tools/levels/levels_preview.py)."""

import pytest
from PIL import Image

import catmouse
from host_tools.levels import levels_preview
from levelpack import build_pack
from test_levels import run_cli

GARDEN = (b"C.....g.........\n.##.#...##.ww.#.\n.#..#.g..#....#.\n...gg...........\n"
          b".#....##.#..#g#.\n.#.ww.#..#..#...\n...##...g...##..\n..........#....M\n")
SMALL = b"C..#....\n..#..#..\n..#.....\n....#..M\n"


@pytest.fixture
def pack(tmp_path):
    path = tmp_path / "cm.bin"
    path.write_bytes(build_pack("catmouse", [GARDEN, SMALL, GARDEN]))
    return path


def _lit(img, x, y, w=8, h=8):
    px = img.load()
    return sum(1 for yy in range(y, y + h) for xx in range(x, x + w) if px[xx, yy] != (0, 0, 0))


def test_one_level_shows_every_cell_as_the_map_says(pack, tmp_path, capsys):
    out = tmp_path / "one.png"
    code, stdout, err = run_cli(["levels", "preview", str(pack), "--index", "0", "--scale", "1",
                                 "-o", str(out)], capsys)
    assert code == 0, err
    assert "level 0" in stdout
    img = Image.open(out).convert("RGB")
    assert img.size == (128, 64)
    cmap = catmouse.parse_map(GARDEN.decode())
    for row in range(8):               # 8 x 7 cells: every row shown, the bar below
        for col in range(16):
            cell = row * cmap.cols + col
            drawn = _lit(img, col * 8, row * 7, 8, 7) > 0
            assert drawn == (cmap.costs[cell] != 1 or cell in (cmap.cat, cmap.mouse)), (col, row)
    assert _lit(img, 0, 0, 8, 7) > 10 and _lit(img, 120, 49, 8, 7) > 10   # the cat, the mouse
    assert _lit(img, 0, 56, 128, 1) == 0 and _lit(img, 0, 57, 128, 7) > 300   # the bar apart


def test_small_board_keeps_the_status_bar_off_the_board(pack, tmp_path, capsys):
    out = tmp_path / "small.png"
    assert run_cli(["levels", "preview", str(pack), "--index", "1", "-o", str(out)], capsys)[0] == 0
    img = Image.open(out).convert("RGB")
    assert img.size == (512, 256)
    small = img.resize((128, 64), Image.NEAREST)
    assert _lit(small, 0, 0) > 10                     # the cat at (0, 0)
    assert _lit(small, 0, 28, 128, 29) == 0           # nothing between map and bar
    assert _lit(small, 0, 57, 128, 7) > 300           # the status bar at the bottom


def test_whole_pack_on_a_contact_sheet(pack, tmp_path, capsys):
    out = tmp_path / "all.png"
    code, stdout, _ = run_cli(["levels", "preview", str(pack), "--scale", "2", "-o", str(out)],
                              capsys)
    assert code == 0 and "levels 0..2" in stdout
    gap = levels_preview.GAP * 2
    assert Image.open(out).size == (3 * 256 + 2 * gap, 128)


def test_renders_match_the_simulator_glass(pack):
    a = levels_preview.render_level("catmouse", GARDEN, scale=1)
    b = levels_preview.render_level("catmouse", GARDEN, scale=1)
    assert a.tobytes() == b.tobytes()
    assert a.tobytes() != levels_preview.render_level("catmouse", SMALL, scale=1).tobytes()


@pytest.mark.parametrize("argv, message", [
    (["--index", "3"], "--index 3 is out of range"),
    (["--index", "-1"], "out of range"),
    (["--scale", "0"], "--scale must be"),
])
def test_user_mistakes_are_one_line(pack, tmp_path, capsys, argv, message):
    code, _, err = run_cli(["levels", "preview", str(pack), "-o", str(tmp_path / "x.png")] + argv,
                           capsys)
    assert code == 2 and message in err and "Traceback" not in err


def test_bad_pack_and_games_without_a_renderer(tmp_path, capsys):
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"PZLV" + bytes(20))
    code, _, err = run_cli(["levels", "preview", str(bad), "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "bad.bin" in err
    kl = tmp_path / "kl.bin"
    kl.write_bytes(build_pack("klotski", [b"AAB\n"]))
    code, _, err = run_cli(["levels", "preview", str(kl), "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "kl.bin: level 0: layout needs 5 rows" in err
    assert len(err.strip().splitlines()) == 1


KLOTSKI = (b"VBBV/VBBV/VHHV/VSSV/S..S\n", b"VBBV/VBBV/SHHS/S..S/SHHS\n")
TRAPCAT = (b"; a 9x9 start\n" + b".........\n" * 4 + b"....C....\n" + b".........\n" * 4,
           b"#....\n..#..\n..C..\n.....\n....#\n")


def _screen_pixels(img, scale):
    px = img.load()
    return [[px[x * scale, y * scale] != (0, 0, 0) for x in range(128)] for y in range(64)]


def test_klotski_preview_draws_the_layout(tmp_path, capsys):
    import klotski

    path = tmp_path / "kl.bin"
    path.write_bytes(build_pack("klotski", list(KLOTSKI)))
    out = tmp_path / "k.png"
    code, stdout, err = run_cli(["levels", "preview", str(path), "--index", "1", "--scale", "1",
                                 "-o", str(out)], capsys)
    assert code == 0, err
    img = Image.open(out).convert("RGB")
    assert img.size == (128, 64)
    px = _screen_pixels(img, 1)
    # the two empty cells (row 3, columns 1-2: 12-px cells from x=1, y=1)
    # are blank inside; the 2x2 block (row 0, columns 1-2) is drawn
    cells = klotski.parse(KLOTSKI[1].decode())
    for c in range(20):
        x, y = 1 + (c % 4) * 12, 1 + (c // 4) * 12
        lit = sum(px[yy][xx] for yy in range(y + 2, y + 10) for xx in range(x + 2, x + 10))
        if cells[c] == ord("."):
            assert lit == 0, c
        else:
            assert lit > 0, c
    sheet = tmp_path / "sheet.png"
    code, stdout, err = run_cli(["levels", "preview", str(path), "--scale", "2", "-o", str(sheet)],
                                capsys)
    assert code == 0, err
    assert Image.open(sheet).size == (2 * (2 * 128 + 4), 2 * 64)


def test_trapcat_preview_draws_the_position(tmp_path, capsys):
    import trapcat

    path = tmp_path / "tc.bin"
    path.write_bytes(build_pack("trapcat", list(TRAPCAT)))
    for index, level in enumerate(TRAPCAT):
        out = tmp_path / ("t%d.png" % index)
        code, stdout, err = run_cli(["levels", "preview", str(path), "--index", str(index),
                                     "--scale", "2", "-o", str(out)], capsys)
        assert code == 0, err
        px = _screen_pixels(Image.open(out).convert("RGB"), 2)
        size, cells, cat = trapcat.parse_level(level.decode())
        for cell in range(size * size):
            r, c = divmod(cell, size)
            x, y = c * 7 + (3 if r & 1 else 0), r * 7
            lit = sum(px[yy][xx] for yy in range(y + 1, y + 6) for xx in range(x + 1, x + 6))
            if cell == cat or cells[cell]:
                assert lit >= 20, (index, cell, lit)     # solid block / the cat
            else:
                assert lit == 1, (index, cell, lit)      # the dot of a free cell


def test_trapcat_level_too_big_for_the_screen(tmp_path, capsys):
    big = (b"." * 11 + b"\n") * 5 + b".....C.....\n" + (b"." * 11 + b"\n") * 5
    path = tmp_path / "big.bin"
    path.write_bytes(build_pack("trapcat", [big]))
    code, _, err = run_cli(["levels", "preview", str(path), "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "level 0" in err and "fits 9x9" in err


def test_a_level_the_game_rejects(tmp_path, capsys):
    path = tmp_path / "broken.bin"
    path.write_bytes(build_pack("catmouse", [GARDEN, b"C..\n.Z.\n..M\n"]))
    code, _, err = run_cli(["levels", "preview", str(path), "--index", "1",
                            "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "level 1" in err


def test_catmouse_level_too_big_for_the_screen(tmp_path, capsys):
    # Regression: a 20x10 map (accepted by `levels check`, refused by `flash` and the
    # device) was rendered as if it were fine; now preview refuses it like flash does.
    big = b"C" + b"." * 19 + b"\n" + (b"." * 20 + b"\n") * 8 + b"." * 19 + b"M\n"
    path = tmp_path / "big.bin"
    path.write_bytes(build_pack("catmouse", [big]))
    out = tmp_path / "x.png"
    code, _, err = run_cli(["levels", "preview", str(path), "-o", str(out)], capsys)
    assert code == 2 and "level 0" in err and "fits 16x8" in err and err.count("\n") == 1
    assert not out.exists()
