"""`trapcat tournament` command: built-ins, plug-ins, fouls, JSON, user errors."""

import argparse
import json

import pytest

from host_tools.commands import trapcat_cmd
from host_tools.core import UserError


def run(argv):
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    trapcat_cmd.register(sub)
    args = parser.parse_args(argv)
    return args.func(args)


def test_tournament_json(capsys):
    assert run(["trapcat", "tournament", "--cat", "normal", "--blocker", "greedy",
                "--games", "6", "--seed", "3", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert res["games"] == 6 and 0 <= res["escapes"] <= 6 and res["fouls"] == []


def test_tournament_is_reproducible_and_other_sizes(capsys):
    a = trapcat_cmd.run_match("easy", "random", 8, 5)
    b = trapcat_cmd.run_match("easy", "random", 8, 5)
    assert a == b
    r = trapcat_cmd.run_match("hard", "strong", 3, 1, blocks=20, size=11)
    assert r["games"] == 3 and r["size"] == 11


def test_text_output(capsys):
    run(["trapcat", "tournament", "--cat", "hard", "--blocker", "random", "--games", "3"])
    assert "cat escaped" in capsys.readouterr().out


def test_plugins_and_fouls(tmp_path, capsys):
    f = tmp_path / "strat.py"
    f.write_text(
        "def first(board, cat, legal):\n"
        "    return legal[0]\n"
        "def cheat(board, cat, legal):\n"
        "    assert board[cat] == 0 and len(board) == 81\n"
        "    return cat\n")
    res = trapcat_cmd.run_match("%s:first" % f, "%s:first" % f, 4, 1)
    assert res["fouls"] == []
    res = trapcat_cmd.run_match("hard", "%s:cheat" % f, 3, 1)
    assert res["escapes"] == 3
    assert [x["game"] for x in res["fouls"]] == [1, 2, 3]
    assert "illegal block" in res["fouls"][0]["foul"] and res["fouls"][0]["turn"] == 1
    assert res["foul_counts"]["illegal"] == 3
    res = trapcat_cmd.run_match("%s:cheat" % f, "greedy", 2, 1)
    assert res["escapes"] == 0 and "illegal cat move" in res["fouls"][0]["foul"]
    run(["trapcat", "tournament", "--cat", "%s:cheat" % f, "--games", "1"])
    assert "game 1, turn 1: FOUL by the cat" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["--cat", "tiger"], ["--blocker", "nobody"], ["--games", "0"], ["--size", "40"],
    ["--cat", "no_such_module_xyz:f"], ["--blocks", "500"]])
def test_user_errors(argv):
    with pytest.raises(UserError):
        run(["trapcat", "tournament", "--games", "1"] + argv)
