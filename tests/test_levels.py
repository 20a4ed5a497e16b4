"""Level packs (firmware/levelpack.py), the `levels` command, and the Cat & Mouse
generator."""

import io
import json
import tracemalloc

import pytest

import catmouse
from clirun import run_cli
import levelpack
from gridpath import GridSearch
from host_tools.levels import levels_catmouse
from levelpack import LevelPack, LevelPackError, build_pack

MAPS = [b"C..g\n.##.\nw..M\n", b"C.#.\n....\n..#M\n", b"Cwww\n...M\n"]




def test_round_trip_reads_one_level_at_a_time():
    blob = build_pack("catmouse", MAPS)
    pack = LevelPack(io.BytesIO(blob), game="catmouse")
    assert (pack.game, pack.count) == ("catmouse", 3)
    assert [pack.level(i) for i in range(3)] == MAPS
    buf = bytearray(levelpack.MAX_LEVEL_BYTES)
    n = pack.level_into(1, buf)
    assert bytes(buf[:n]) == MAPS[1]
    with pytest.raises(LevelPackError, match="level 3 does not exist"):
        pack.level(3)
    with pytest.raises(LevelPackError, match="holds catmouse levels, not klotski"):
        LevelPack(io.BytesIO(blob), game="klotski")


def corrupt(blob, at, value, fix_crc=True):
    b = bytearray(blob)
    b[at:at + len(value)] = value
    if fix_crc:
        import binascii
        levelpack._put_u32(b, 12, binascii.crc32(bytes(b[16:])) & 0xFFFFFFFF)
    return bytes(b)


@pytest.mark.parametrize("mutate,message", [
    (lambda b: b[:10], "shorter than its 16-byte header"),
    (lambda b: b"ZZZZ" + b[4:], "bad magic b'ZZZZ' at byte 0"),
    (lambda b: corrupt(b, 4, b"\x07"), "unsupported pack format version 7 at byte 4"),
    (lambda b: corrupt(b, 5, b"\x09"), "unknown game id 9 at byte 5"),
    (lambda b: corrupt(b, 6, b"\x00\x00"), "level count 0 at byte 6"),
    (lambda b: corrupt(b, 8, b"\xff\xff\xff\xff"), "header promises 4294967327"),
    (lambda b: b[:-1], "truncated"),
    (lambda b: b + b"x", "trailing bytes"),
    (lambda b: corrupt(b, 40, b"Q", fix_crc=False), "checksum mismatch: the header (byte 12)"),
    (lambda b: corrupt(b, 16, b"\x01\x00\x00\x00"), "offset table entry 0 (byte 16) is 1"),
    (lambda b: corrupt(b, 20, b"\x00\x00\x00\x00"), "level 0 is empty"),
    (lambda b: corrupt(b, 24, b"\x01\x00\x00\x00"), "offset table entry 2 (byte 24) is 1: outside"),
    (lambda b: corrupt(b, 28, b"\x24\x00\x00\x00"), "the last offset table entry (byte 28) is 36 but the data is 40"),
])
def test_each_problem_has_a_precise_message(mutate, message):
    blob = mutate(build_pack("catmouse", MAPS))
    with pytest.raises(LevelPackError) as info:
        LevelPack(io.BytesIO(blob))
    assert message in str(info.value)


def test_oversized_level_refused_by_writer_and_reader():
    with pytest.raises(LevelPackError, match="1..4160"):
        build_pack("klotski", [b"x" * 5000])
    blob = build_pack("klotski", [b"a" * 4000, b"b" * 4000])
    # move the boundary so level 0 claims 5000 bytes
    bad = corrupt(blob, 20, (5000).to_bytes(4, "little"))
    with pytest.raises(LevelPackError, match="level 0 is 5000 bytes, more than 4160"):
        LevelPack(io.BytesIO(bad))


def test_no_allocation_proportional_to_the_file_or_bogus_fields():
    big = build_pack("trapcat", [bytes([i % 251]) * 100 for i in range(3000)])  # 312 KB
    bogus = corrupt(big, 8, b"\xff\xff\xff\x7f")
    bogus_level = corrupt(big, 16 + 4 * 1500, b"\xff\xff\xff\x7f")
    for blob in (big, bogus, bogus_level):
        f = io.BytesIO(blob)
        tracemalloc.start()
        try:
            pack = LevelPack(f)
            pack.level(2999)
        except LevelPackError:
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        assert peak < 8 * 1024, peak


def test_reader_on_micropython(vm):
    """The device reader in the real MicroPython VM: a valid pack opens with a
    small constant allocation, level_into allocates nothing, a bad pack raises
    LevelPackError."""
    blob = build_pack("catmouse", MAPS * 40)
    small = build_pack("catmouse", MAPS)
    bad = blob[:-3]
    r = vm("""
import io, levelpack
f = io.BytesIO(%r)
small = io.BytesIO(%r)
levelpack.LevelPack(small)
_, _, small_alloc = measure(levelpack.LevelPack, small)
emit('small', small_alloc)
pack, fuel, alloc = measure(levelpack.LevelPack, f)
emit('open', (pack.count, fuel, alloc))
buf = bytearray(levelpack.MAX_LEVEL_BYTES)
pack.level_into(5, buf)
n, fuel, alloc = measure(pack.level_into, 7, buf)
emit('into', (bytes(buf[:n]), fuel, alloc))
try:
    levelpack.LevelPack(io.BytesIO(%r))
    emit('bad', None)
except levelpack.LevelPackError as e:
    emit('bad', str(e))
""" % (blob, small, bad))
    count, open_fuel, open_alloc = r["open"]
    # object + buffer + memoryviews, plus one boxed CRC int per 128-byte chunk of the
    # real file (the size is checked before): nothing near the file's size
    chunks = (len(blob) - 16 + 127) // 128
    assert count == 120 and open_alloc - r["small"] <= 32 * chunks, (r["open"], r["small"])
    assert open_alloc < len(blob) // 2
    data, fuel, alloc = r["into"]
    assert data == MAPS[1] and alloc <= 64, r["into"]
    assert "truncated" in r["bad"]
    print("open %d-level pack: %d fuel (%.2f ms on a Pico), %d bytes; level_into %d fuel, %d bytes"
          % (count, open_fuel, open_fuel / 110_000, open_alloc, fuel, alloc))


# --------------------------------------------------------------- the command

def test_pack_and_check_cli(tmp_path, capsys):
    d = tmp_path / "maps"
    d.mkdir()
    for i, m in enumerate(MAPS):
        (d / ("%02d.txt" % i)).write_bytes(m)
    out = tmp_path / "levels.bin"
    code, o, e = run_cli(["levels", "pack", str(d), "-o", str(out), "--game", "catmouse"], capsys)
    assert code == 0, e
    assert "packed 3 catmouse levels" in o
    code, o, e = run_cli(["levels", "check", str(out)], capsys)
    assert code == 0 and "OK, 3 catmouse levels" in o
    # a damaged pack: first problem, one line, exit 2
    out.write_bytes(out.read_bytes()[:-2])
    code, o, e = run_cli(["levels", "check", str(out)], capsys)
    assert code == 2 and "truncated" in e and len(e.strip().splitlines()) == 1
    # a pack whose level the game's parser rejects (CRC valid)
    bad = tmp_path / "bad.bin"
    bad.write_bytes(build_pack("catmouse", [MAPS[0], b"C..\n.x.\n..M\n"]))
    code, o, e = run_cli(["levels", "check", str(bad)], capsys)
    assert code == 2 and "level 1: line 2, column 2: unknown character 'x'" in e
    # pack refuses a bad map file, naming it
    (d / "03.txt").write_text("C..\n...\n")
    code, o, e = run_cli(["levels", "pack", str(d), "-o", str(out), "--game", "catmouse"], capsys)
    assert code == 2 and "03.txt" in e and "no mouse" in e
    code, o, e = run_cli(["levels", "pack", str(d), "-o", str(out)], capsys)
    assert code == 2 and "which game?" in e


def catmouse_map(cols, rows):
    """An open Cat & Mouse map of cols x rows, cat top left, mouse bottom right."""
    lines = ["." * cols for _ in range(rows)]
    lines[0] = "C" + lines[0][1:]
    lines[-1] = lines[-1][:-1] + "M"
    return ("\n".join(lines) + "\n").encode()


def trapcat_board(size):
    """An open Trap the Cat board of size x size, cat in the centre."""
    lines = ["." * size for _ in range(size)]
    middle = size // 2
    lines[middle] = lines[middle][:middle] + "C" + lines[middle][middle + 1:]
    return ("\n".join(lines) + "\n").encode()


# Levels the games' parsers accept but the 128x64 screen cannot draw (check_level in
# firmware/<game>_game.py); level 0 of each pack is fine, so the error must name level 1.
TOO_BIG_FOR_THE_SCREEN = [
    ("catmouse", catmouse_map(4, 3), catmouse_map(17, 8), "the map is 17x8; the screen fits 16x8"),
    ("catmouse", catmouse_map(4, 3), catmouse_map(16, 9), "the map is 16x9; the screen fits 16x8"),
    ("trapcat", trapcat_board(5), trapcat_board(10),
     "the grid is 10x10; the screen fits 9x9 at most"),
]


@pytest.mark.parametrize("game,good,big,reason", TOO_BIG_FOR_THE_SCREEN,
                         ids=["catmouse-17x8", "catmouse-16x9", "trapcat-10x10"])
def test_check_refuses_a_level_too_big_for_the_screen_like_flash(tmp_path, capsys,
                                                                 game, good, big, reason):
    # Regression: `levels check` used the bare parser, so a pack it passed was then
    # refused by `flash` (and `levels preview`) for the game's screen limits.
    from host_tools.device import staging
    from host_tools.core import UserError

    path = tmp_path / ("%s.bin" % game)
    path.write_bytes(build_pack(game, [good, big]))
    code, o, e = run_cli(["levels", "check", str(path)], capsys)
    assert (code, o) == (2, "")
    assert e == "error: %s: level 1: %s\n" % (path, reason)
    with pytest.raises(UserError) as refused:
        staging.level_files([path])
    assert str(refused.value).endswith("level 1: " + reason)


@pytest.mark.parametrize("game,level", [
    ("catmouse", catmouse_map(16, 8)),
    ("trapcat", trapcat_board(9)),
], ids=["catmouse-16x8", "trapcat-9x9"])
def test_check_passes_a_level_exactly_at_the_screen_limit(tmp_path, capsys, game, level):
    from host_tools.device import staging

    path = tmp_path / ("%s.bin" % game)
    path.write_bytes(build_pack(game, [level]))
    code, o, e = run_cli(["levels", "check", str(path)], capsys)
    assert (code, e) == (0, "") and "OK, 1 %s level" % game in o
    assert list(staging.level_files([path])) == ["levels/%s.bin" % game]


def test_check_refuses_a_klotski_layout_whose_pieces_do_not_fit(tmp_path, capsys):
    # klotski.parse accepts it (two empty cells, one 2x2 block); the game's check_level,
    # which flash applies, refuses the lone V: check now does too.
    path = tmp_path / "k.bin"
    path.write_bytes(build_pack("klotski", [b"VBBV/VBBV/SHHV/VSSV/S..S\n"]))
    code, o, e = run_cli(["levels", "check", str(path)], capsys)
    assert code == 2 and e == ("error: %s: level 0: vertical piece at row 4 col 1 has no V "
                               "below it\n" % path)


def test_opaque_games_are_packed_without_parser(tmp_path, capsys):
    d = tmp_path / "k"
    d.mkdir()
    (d / "a.txt").write_text("VBBV/VBBV/VHHV/VSSV/S..S\n")
    (d / "pack.json").write_text(json.dumps({"game": "klotski"}))
    out = tmp_path / "k.bin"
    code, o, e = run_cli(["levels", "pack", str(d), "-o", str(out)], capsys)
    assert code == 0, e
    pack = LevelPack(io.BytesIO(out.read_bytes()))
    assert pack.game == "klotski" and pack.level(0) == b"VBBV/VBBV/VHHV/VSSV/S..S\n"


def test_catmouse_generator(tmp_path, capsys):
    out = tmp_path / "gen"
    code, o, e = run_cli(["levels", "catmouse", "--count", "4", "--size", "12x6", "--terrain",
                          "--difficulty", "easy", "--seed", "5", "-o", str(out), "--quiet"], capsys)
    assert code == 0, e
    info = json.loads((out / "pack.json").read_text())
    assert info["game"] == "catmouse" and len(info["levels"]) == 4
    texts = set()
    search = GridSearch(12, 6)
    for g in info["levels"]:
        text = (out / g["file"]).read_text()
        cmap = catmouse.parse_map(text)
        assert (cmap.cols, cmap.rows) == (12, 6)
        search.load(cmap.costs)
        assert search.bfs(cmap.cat, cmap.mouse) == g["bfs_moves"]
        assert search.astar(cmap.cat, cmap.mouse) == g["astar_stamina"]
        assert g["difficulty"] == "easy" and g["survival"] < 0.35 and g["caught"]
        body = "\n".join(row for row in text.splitlines() if not row.startswith(";"))
        assert not any(v in texts for v in levels_catmouse.variants(body))
        texts.add(body)
    # same seed, same maps
    again = levels_catmouse.generate(4, 12, 6, True, "easy", 5)
    assert [t for t, _ in again] == [(out / g["file"]).read_text().split("\n", 1)[1]
                                     for g in info["levels"]]
    # and they pack
    code, o, e = run_cli(["levels", "pack", str(out), "-o", str(tmp_path / "g.bin")], capsys)
    assert code == 0 and "packed 4 catmouse" in o


def test_generator_hard_plain_and_bad_size(tmp_path, capsys):
    maps = levels_catmouse.generate(3, 16, 8, False, "hard", 2)
    assert all(g["survival"] >= 0.7 for _, g in maps)
    code, o, e = run_cli(["levels", "catmouse", "--size", "big", "-o", str(tmp_path)], capsys)
    assert code == 2 and "--size must look like 16x8" in e


def test_pack_and_generators_refuse_what_the_screen_cannot_show(tmp_path, capsys):
    d = tmp_path / "src"
    d.mkdir()
    (d / "a.txt").write_bytes(catmouse_map(17, 8))
    out = tmp_path / "p.bin"
    code, o, e = run_cli(["levels", "pack", str(d), "-o", str(out), "--game", "catmouse"], capsys)
    assert code == 2 and "the map is 17x8; the screen fits 16x8" in e and not out.exists()
    for argv, reason in (
            (["catmouse", "--size", "20x10"], "--size 20x10: the handheld's screen fits 16x8 at most"),
            (["trapcat", "--size", "11"], "--size 11: the handheld's screen fits 9x9 boards at most")):
        dest = tmp_path / argv[0]
        code, o, e = run_cli(["levels"] + argv + ["--count", "1", "-o", str(dest)], capsys)
        assert (code, e) == (2, "error: %s\n" % reason) and not dest.exists()


def test_unwritable_outputs_are_one_line_errors(tmp_path, capsys):
    # Regression: -o under a file or in /proc ended in a mkdir/write traceback; --count 0
    # for klotski claimed no layout needs 60 steps.
    afile = tmp_path / "afile"
    afile.write_text("x")
    cases = [
        ["levels", "catmouse", "--count", "1", "--quiet", "-o", str(afile)],
        ["levels", "catmouse", "--count", "1", "--quiet", "-o", str(afile / "sub")],
        ["levels", "trapcat", "--count", "1", "--quiet", "-o", str(afile / "sub")],
        ["levels", "klotski", "--count", "1", "-o", str(afile / "sub")],
    ]
    for argv in cases:
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and err.startswith("error: cannot create output directory"), (argv, err)
        assert err.count("\n") == 1
    code, out, err = run_cli(["levels", "klotski", "--count", "0"], capsys)
    assert (code, err) == (2, "error: --count must be at least 1\n")
    lv = tmp_path / "lv"
    code, out, err = run_cli(["levels", "catmouse", "--count", "1", "--quiet", "--seed", "3",
                              "-o", str(lv)], capsys)
    assert code == 0, err
    for bad in (tmp_path, afile / "x.bin"):       # a directory; a path under a file
        code, out, err = run_cli(["levels", "pack", str(lv), "-o", str(bad)], capsys)
        assert code == 2 and err.startswith("error: cannot write ") and err.count("\n") == 1, err
    assert sorted(p.name for p in lv.iterdir()) == ["catmouse_001.txt", "pack.json"]
    assert not list(tmp_path.glob("*.tmp"))


def test_failed_generation_leaves_no_empty_output_folder(tmp_path, capsys, monkeypatch):
    from host_tools.core import UserError

    def fail(*args, **kwargs):
        raise UserError("found only 0 maps")
    monkeypatch.setattr(levels_catmouse, "generate", fail)
    out = tmp_path / "new"
    code, o, e = run_cli(["levels", "catmouse", "--quiet", "-o", str(out)], capsys)
    assert code == 2 and e == "error: found only 0 maps\n" and not out.exists()
    out.mkdir()                                 # a folder the user made is kept
    code, o, e = run_cli(["levels", "catmouse", "--quiet", "-o", str(out)], capsys)
    assert code == 2 and out.is_dir()


def test_a_generated_level_the_device_refuses_leaves_no_output_folder(tmp_path, capsys, monkeypatch):
    # write_level_dir checks every level before writing; the folder the run made goes too
    monkeypatch.setattr(levels_catmouse, "generate",
                        lambda *a, **k: [(catmouse_map(17, 8).decode(), {"difficulty": "easy",
                                          "bfs_moves": 1, "astar_stamina": 1,
                                          "rounds_survived": 1, "round_limit": 1})])
    out = tmp_path / "new"
    code, o, e = run_cli(["levels", "catmouse", "--quiet", "-o", str(out)], capsys)
    assert code == 2 and "does not fit the handheld: the map is 17x8" in e and not out.exists()
