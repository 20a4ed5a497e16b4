"""A game is described once: a fifth, test-only game (tests/toygame/) registered by
one device descriptor (firmware/games.py) and one entry of laptop hooks
(host_tools/core/registry.py) is picked up by the launcher, `levels` (generate,
pack, check, preview), `solve`, `bench` and `flash` (its own flag and files)."""

import json
import sys
from pathlib import Path

import pytest

from clirun import run_cli
from host_tools.bench import runner
from host_tools.core import build, registry
from host_tools.device import flash
from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

import games

TOY_DIR = Path(__file__).parent / "toygame"
TOY = ("toy", "Count Down", "toy_game", 9)
TOY_HOOKS = {"levels": "toy_tools:add_levels_parser", "solve": "toy_tools:add_solve_parser",
             "bench": "toy_tools", "flash": "toy_tools"}


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(TOY_DIR))
    monkeypatch.setattr(games, "GAMES", games.GAMES + (TOY,))
    monkeypatch.setitem(registry.HOOKS, "toy", TOY_HOOKS)
    yield
    for name in ("toy_game", "toy_tools"):
        sys.modules.pop(name, None)


def test_the_launcher_lists_and_starts_the_toy_game(toy):
    s = simmod.Simulator("pico-ssd1306")
    assert s.runtime.launcher.items[len(games.GAMES) - 1] == "Count Down"
    for keys in parse_keys("wait:2 down*%d a wait:2 a wait a wait:2" % (len(games.GAMES) - 1)):
        s.step(keys)
    assert s.runtime.game_entry[0] == "toy"
    assert "toy_game" in sys.modules and s.runtime.game.left == 1
    for keys in parse_keys("b wait:3"):
        s.step(keys)
    assert s.runtime.game is None and "toy_game" not in sys.modules


def test_levels_generates_packs_and_checks_toy_levels(toy, tmp_path, capsys):
    out = tmp_path / "toy"
    code, o, e = run_cli(["levels", "toy", "--count", "4", "-o", str(out)], capsys)
    assert code == 0, e
    assert json.loads((out / "pack.json").read_text())["game"] == "toy"
    pack = tmp_path / "toy.bin"
    code, o, e = run_cli(["levels", "pack", str(out), "-o", str(pack)], capsys)
    assert code == 0 and "packed 4 toy levels" in o, e
    assert pack.read_bytes()[5] == 9                 # the descriptor's PACK number
    code, o, e = run_cli(["levels", "check", str(pack)], capsys)
    assert (code, o.strip()) == (0, "%s: OK, 4 toy levels" % pack)
    png = tmp_path / "toy.png"
    code, o, e = run_cli(["levels", "preview", str(pack), "--index", "1", "-o", str(png)], capsys)
    assert code == 0 and png.read_bytes()[:4] == b"\x89PNG", e
    (out / "toy_005.txt").write_text("100\n")        # the toy's own check_level refuses it
    code, o, e = run_cli(["levels", "pack", str(out), "-o", str(pack)], capsys)
    assert code == 2 and "a Count Down level is a number 1..99, not '100'" in e


def test_solve_runs_the_toy_solver(toy, tmp_path, capsys):
    level = tmp_path / "level.txt"
    level.write_text("17\n")
    code, o, e = run_cli(["solve", "toy", str(level), "--json"], capsys)
    assert (code, json.loads(o)) == (0, {"presses": 17})


def test_bench_runs_the_toy_bench(toy, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "BUILD_DIR", tmp_path)
    assert "toy_tools" in runner.bench_modules()
    code, o, e = run_cli(["bench", "--only", "toy"], capsys)
    assert code == 0, e
    assert "Count Down (test-only game)" in o and "presses for level 42" in o
    rows = json.loads((tmp_path / "bench.json").read_text())["rows"]
    assert [(r["name"], r["value"], r["ok"]) for r in rows] == [("presses for level 42", 42, True)]


def test_games_py_holds_only_what_the_device_reads_and_flash_copies_it_as_is(tmp_path):
    for entry in games.GAMES:
        assert len(entry) == 4 and entry[games.ID] in registry.HOOKS
    assert (games.ID, games.TITLE, games.SCENE, games.PACK) == (0, 1, 2, 3)
    assert {n for n in vars(games) if not n.startswith("__")} == {"ID", "TITLE", "SCENE", "PACK", "GAMES",
                                                                  "LINK"}
    # LINK: the launcher's "2 Players" scene, no game (no laptop hooks, no level packs)
    assert len(games.LINK) == 4 and games.LINK[games.ID] not in registry.HOOKS
    assert games.LINK[games.PACK] == 0 and games.LINK not in games.GAMES
    assert not any("host_tools" in str(field) for entry in games.GAMES for field in entry)
    cp_board = Path(build.__file__).resolve().parents[2] / "boards"
    files = build.build_files(Path(games.__file__).parent, "pico-cp-ssd1306", cp_board, None,
                              circuitpython=True)
    # compiled as it is (CircuitPython's mpy-cross), never rewritten; the .mpy names its source
    # by the module's own name (a qstr the module needs anyway, rather than one more for "games.py")
    mpy = files["games.mpy"]
    assert mpy[:2] == b"C\x06" and b"\ngames\x00" in mpy and b"games.py" not in mpy
    assert b"host_tools" not in mpy and b"klotski_game" in mpy


def test_every_hook_entry_is_a_game():
    assert set(registry.HOOKS) <= set(registry.game_ids())


def test_flash_takes_the_toy_games_flag_and_files(toy, capsys):
    parser = __import__("argparse").ArgumentParser()
    sub = parser.add_subparsers()
    flash.register(sub)
    usage = sub.choices["flash"].format_help()
    assert "--toy-hints" in usage and "--klotski-tables" in usage
    lines = []
    args = parser.parse_args(["flash", "--toy-hints", "--no-klotski-tables"])
    assert flash._hook_files(args)({}, lines.append) == {"saves/toy_hints.txt": b"press A\n"}
    assert lines == ["writing the Count Down hints"]
    args = parser.parse_args(["flash", "--no-klotski-tables"])
    assert flash._hook_files(args)({}, lines.append) == {}


def test_a_hook_naming_nothing_says_which(toy, monkeypatch):
    monkeypatch.setitem(registry.HOOKS, "toy", {"levels": "toy_tools:no_such_function"})
    with pytest.raises(RuntimeError, match="the 'toy' hooks name 'toy_tools:no_such_function'"):
        registry.level_generators()


def test_a_scene_that_fails_to_import_is_an_error_not_packed_unchecked(toy, monkeypatch, tmp_path, capsys):
    out = tmp_path / "toy"
    code, o, e = run_cli(["levels", "toy", "--count", "2", "-o", str(out)], capsys)
    assert code == 0, e
    monkeypatch.setattr(games, "GAMES", games.GAMES[:-1] + (("toy", "Count Down", "toy_gone", 9),))
    code, o, e = run_cli(["levels", "pack", str(out), "-o", str(tmp_path / "toy.bin")], capsys)
    assert code == 2 and len(e.strip().splitlines()) == 1, e
    assert "firmware/toy_gone.py cannot be imported" in e and "unchecked" not in o
    assert not (tmp_path / "toy.bin").exists()
