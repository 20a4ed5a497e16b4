"""A game is described once (firmware/games.py): a fifth, test-only game
(tests/toygame/) registered by one descriptor is picked up by the launcher,
`levels` (generate, pack, check, preview), `solve`, `bench` and `flash`'s device copy
of the list."""

import json
import sys
from pathlib import Path

import pytest

from clirun import run_cli
from host_tools.bench import runner
from host_tools.device import flash
from host_tools.emulation import sim as simmod

import games

TOY_DIR = Path(__file__).parent / "toygame"
TOY = ("toy", "Count Down", "toy_game", 9,
       "toy_tools:add_levels_parser", "toy_tools:add_solve_parser", "toy_tools")


@pytest.fixture
def toy(monkeypatch):
    monkeypatch.syspath_prepend(str(TOY_DIR))
    monkeypatch.setattr(games, "GAMES", games.GAMES + (TOY,))
    yield
    for name in ("toy_game", "toy_tools"):
        sys.modules.pop(name, None)


def test_the_launcher_lists_and_starts_the_toy_game(toy):
    s = simmod.Simulator("pico-ssd1306")
    assert s.runtime.launcher.items[len(games.GAMES) - 1] == "Count Down"
    for keys in simmod.parse_keys("wait:2 down*%d a wait:2 a wait a wait:2" % (len(games.GAMES) - 1)):
        s.step(keys)
    assert s.runtime.game_entry[0] == "toy"
    assert "toy_game" in sys.modules and s.runtime.game.left == 1
    for keys in simmod.parse_keys("b wait:3"):
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


def test_flash_writes_the_descriptors_without_their_laptop_fields(toy):
    source = (Path(games.__file__)).read_text()
    source = source.replace("\n)\n", "\n    %r,\n)\n" % (TOY,), 1)
    namespace = {}
    exec(flash.device_games(source), namespace)
    assert namespace["GAMES"] == tuple(g[:games.LEVELS] for g in games.GAMES)
    assert set(namespace) == {"GAMES", "__builtins__"}


def test_flash_refuses_a_games_file_it_cannot_read():
    with pytest.raises(flash.UserError, match="firmware/games.py: GAMES must be a tuple of literal"):
        flash.device_games("GAMES = tuple(make())\nID, TITLE, SCENE, PACK, LEVELS = range(5)\n")


def test_a_descriptor_naming_a_missing_hook_says_which(toy, monkeypatch):
    from host_tools import registry
    broken = TOY[:4] + ("toy_tools:no_such_function", None, None)
    monkeypatch.setattr(games, "GAMES", games.GAMES[:-1] + (broken,))
    with pytest.raises(RuntimeError, match="the 'toy' descriptor names 'toy_tools:no_such_function'"):
        registry.level_generators()
