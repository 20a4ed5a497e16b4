"""`solve grid` and `play catmouse` as a user runs them: real subprocesses."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "host_tools", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def test_solve_grid_json_for_the_seed_examples():
    bfs = json.loads(run("solve", "grid", "maps/seed-bfs.txt", "--algo", "bfs", "--json").stdout)
    assert bfs["cost"] == 12 and bfs["moves"] == 12 and len(bfs["path"]) == 13
    assert bfs["path"][0] == 0 and bfs["path"][-1] == 31
    astar = json.loads(run("solve", "grid", "maps/seed-astar.txt", "--algo", "astar", "--json").stdout)
    assert astar["cost"] == 16 and astar["moves"] == len(astar["path"]) - 1


def test_solve_grid_text_output_draws_the_path():
    out = run("solve", "grid", "maps/seed-bfs.txt").stdout
    assert "moves: 12" in out and out.count("*") == 11


def test_unreachable_mouse_is_a_normal_answer(tmp_path):
    walled = tmp_path / "walled.txt"
    walled.write_text("C#..\n.#..\n##.M\n")
    result = run("solve", "grid", str(walled), "--json")
    assert result.returncode == 0 and json.loads(result.stdout) == {"cost": None}


def test_bad_input_is_one_line_and_exit_code_2(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("C..\n.?.\n..M\n")
    for args in (("solve", "grid", str(bad)), ("solve", "grid", str(tmp_path / "missing.txt")),
                 ("play", "catmouse", str(bad))):
        result = run(*args)
        assert result.returncode == 2
        assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "line 2, column 2" in run("solve", "grid", str(bad)).stderr


def test_play_builtin_strategies_json():
    result = json.loads(run("play", "catmouse", "maps/garden.txt", "--cat", "bfs",
                            "--mouse", "random", "--seed", "3", "--json").stdout)
    assert result["winner"] == "cat" and result["fouls"] == []
    survived = json.loads(run("play", "catmouse", "maps/courtyard.txt", "--rounds", "30", "--json").stdout)
    assert survived["winner"] == "mouse" and survived["rounds"] == 30


def test_user_plugins_and_illegal_answers(tmp_path):
    """An illegal answer or an exception is a foul: the game is lost for that
    side, reported in JSON and text, exit code 0 (the run itself worked)."""
    plugin = tmp_path / "my_ai.py"
    plugin.write_text(
        "def lazy(board, position, legal):\n    return position\n"
        "def leap(board, position, legal):\n    return position + 2\n"
        "def cheat(board, position, legal):\n    return board.mouse\n"
        "def crash(board, position, legal):\n    raise RuntimeError('oops')\n")
    leap = json.loads(run("play", "catmouse", "maps/seed-bfs.txt", "--cat", "%s:leap" % plugin,
                          "--rounds", "5", "--json").stdout)
    assert leap["winner"] == "mouse" and leap["rounds"] == 1
    assert leap["fouls"][0]["kind"] == "illegal" and "chose cell 2" in leap["fouls"][0]["foul"]
    lazy = json.loads(run("play", "catmouse", "maps/seed-bfs.txt", "--cat", "%s:lazy" % plugin,
                          "--rounds", "5", "--json").stdout)
    assert lazy["winner"] == "mouse" and lazy["rounds"] == 5 and lazy["fouls"] == []  # it waits
    cheat = run("play", "catmouse", str(ROOT / "maps/seed-bfs.txt"), "--cat", "%s:cheat" % plugin)
    assert cheat.returncode == 0 and "FOUL by the cat" in cheat.stdout and "the mouse wins" in cheat.stdout
    crash = run("play", "catmouse", str(ROOT / "maps/seed-bfs.txt"), "--mouse", "%s:crash" % plugin)
    assert crash.returncode == 0 and "raised RuntimeError: oops" in crash.stdout
    assert "the cat wins" in crash.stdout and "Traceback" not in crash.stderr
    missing = run("play", "catmouse", "maps/seed-bfs.txt", "--cat", "no_such_module:f")
    assert missing.returncode == 2 and "cannot import" in missing.stderr


def test_help_everywhere():
    for args in ((), ("solve",), ("solve", "grid"), ("play", "catmouse")):
        result = run(*args, "--help")
        assert result.returncode == 0 and "usage:" in result.stdout


def test_bad_strategy_specs_and_bom_maps_are_one_line_errors(tmp_path, capsys):
    # Regression: "--cat :" crashed with a ValueError traceback (empty module name);
    # a map saved with a UTF-8 BOM (Windows Notepad) was refused as "unknown character".
    from clirun import run_cli
    for spec in (":", ":chase", "os:"):
        code, out, err = run_cli(["play", "catmouse", str(ROOT / "maps/seed-bfs.txt"),
                                  "--cat", spec], capsys)
        assert code == 2 and err.count("\n") == 1 and "module:function" in err, (spec, err)
    code, out, err = run_cli(["play", "catmouse", str(ROOT / "maps/seed-bfs.txt"),
                              "--cat", "dijkstra"], capsys)
    assert code == 2 and "unknown strategy 'dijkstra': use one of bfs, astar" in err
    bom = tmp_path / "bom.txt"
    bom.write_bytes(b"\xef\xbb\xbfC..\n..M\n")
    code, out, err = run_cli(["solve", "grid", str(bom), "--json"], capsys)
    assert code == 0 and json.loads(out)["moves"] == 3, err


def test_bench_only_typo_is_an_error_not_an_empty_report(capsys):
    # Regression: "bench --only nosuch" exited 0 with 0 figures and overwrote build/bench.json.
    from clirun import run_cli
    bench_json = ROOT / "build" / "bench.json"
    before = bench_json.read_bytes() if bench_json.exists() else None
    code, out, err = run_cli(["bench", "--only", "nosuch"], capsys)
    assert code == 2 and "matches no bench module" in err and err.count("\n") == 1
    assert (bench_json.read_bytes() if bench_json.exists() else None) == before


def test_argparse_mistakes_are_one_line_too(capsys):
    # Regression: bad numbers/choices printed argparse's multi-line usage block.
    import pytest
    from host_tools import cli
    for argv in (["play", "catmouse", "m.txt", "--rounds", "abc"], ["solve", "grid", "m", "--algo", "dfs"],
                 ["nosuch"], ["levels", "catmouse"], ["bench", "--only"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(argv)
        err = capsys.readouterr().err
        assert exc.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, (argv, err)
