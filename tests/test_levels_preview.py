"""`levels preview`: levels rendered through the game's draw code, the display
driver, the I2C bus and the controller model (host_tools/levels_preview.py)."""

import pytest
from PIL import Image

import catmouse
from host_tools import levels_preview
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
    for row in range(1, 7):            # rows 0 and 7 carry the status bar
        for col in range(16):
            cell = row * cmap.cols + col
            drawn = _lit(img, col * 8, row * 8) > 0
            assert drawn == (cmap.costs[cell] != 1), (col, row)   # 1 = road
    # the cat and mouse stay visible where the status bar overlaps their row
    assert _lit(img, 0, 0) > 10 and _lit(img, 120, 56) > 10


def test_small_board_keeps_the_status_bar_off_the_board(pack, tmp_path, capsys):
    out = tmp_path / "small.png"
    assert run_cli(["levels", "preview", str(pack), "--index", "1", "-o", str(out)], capsys)[0] == 0
    img = Image.open(out).convert("RGB")
    assert img.size == (512, 256)
    small = img.resize((128, 64), Image.NEAREST)
    assert _lit(small, 0, 0) > 10                     # the cat at (0, 0)
    assert _lit(small, 0, 32, 128, 24) == 0           # nothing between board and bar
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
    assert code == 2 and "cannot preview klotski levels yet" in err


def test_a_level_the_game_rejects(tmp_path, capsys):
    path = tmp_path / "broken.bin"
    path.write_bytes(build_pack("catmouse", [GARDEN, b"C..\n.Z.\n..M\n"]))
    code, _, err = run_cli(["levels", "preview", str(path), "--index", "1",
                            "-o", str(tmp_path / "x.png")], capsys)
    assert code == 2 and "level 1" in err
