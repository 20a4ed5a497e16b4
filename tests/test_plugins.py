"""The plug-in rule (host_tools/core/plugins.py) for every game that takes user
strategies (Cat & Mouse, Trap the Cat, Junqi): each kind of fault is a foul that loses that game, is counted and
named in the report (text and --json), and the run goes on.  Each faulty
strategy misbehaves on its first call only (a marker file remembers it across
worker restarts), so the games after the foul show that the run continued."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from host_tools.commands import trapcat_cmd
from host_tools.core import plugins
from host_tools.core import UserError
from host_tools.games import trapcat_plugin

from clirun import run_cli

ROOT = Path(__file__).resolve().parent.parent

STRATEGIES = '''
import os, sys, time

MARK = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fouled")


def _first_time():
    if os.path.exists(MARK):
        return False
    open(MARK, "w").close()
    return True


def fair(board, position, legal):
    return legal[0]


def hang(board, position, legal):
    if _first_time():
        time.sleep(3600)
    return legal[0]


def raise_(board, position, legal):
    if _first_time():
        raise ValueError("no idea")
    return legal[0]


def exit_(board, position, legal):
    if _first_time():
        sys.exit(0)
    return legal[0]


def interrupt(board, position, legal):
    if _first_time():
        raise KeyboardInterrupt
    return legal[0]


def die(board, position, legal):
    if _first_time():
        os._exit(3)
    return legal[0]


def illegal(board, position, legal):
    if _first_time():
        return -5
    return legal[0]


def wrong_type(board, position, legal):
    if _first_time():
        return str(legal[0])
    return legal[0]


def geometry(board, position, legal):
    assert (board.size, board.cols, board.rows, len(board)) == (7, 7, 7, 49)
    assert board[position] == 0 and isinstance(board, bytes)
    return legal[0]


def catmouse_view(board, position, legal):
    assert (board.cols, board.rows, len(board)) == (8, 4, 32)
    assert board[position] == (2, 1) and board[board.cat][0] == 1
    assert isinstance(board.flags, bytes) and isinstance(board.costs, bytes)
    assert board.mouse == position and board.round >= 1 and board.terrain is False
    return legal[-1]


def junqi_view(board, me, legal):
    assert (board.cols, board.rows, board.size, len(board)) == (5, 12, 60, 60)
    assert me in (0, 1) and board.my_colour in (None, 0, 1)
    for c in range(60):
        face_up = board.occ[c] in (1, 2)
        assert (board.kind[c] < 12) == face_up and (board.colour[c] == board.occ[c] - 1) == face_up
    assert sum(board.pool) <= 50 and isinstance(board.occ, bytes)
    return legal[-1]


def noisy(board, position, legal):
    print("thinking about", position)
    return legal[0]


def slow_forever(board, position, legal):
    with open(MARK + ".tmp", "w") as handle:
        handle.write(str(os.getpid()))
    os.replace(MARK + ".tmp", MARK)
    time.sleep(3600)
'''

# fault -> (function, foul kind, words in the foul's text).  The move limit is
# short only where a hang is the point, so a busy machine cannot turn a quick
# answer into a false timeout.
def move_timeout(fault):
    return "0.5" if fault == "hang" else "10"


FAULTS = {
    "hang": ("hang", "timeout", "took longer than 0.5 s"),
    "raise": ("raise_", "raised", "raised ValueError: no idea"),
    "sys.exit": ("exit_", "raised", "raised SystemExit"),
    "KeyboardInterrupt": ("interrupt", "raised", "raised KeyboardInterrupt"),
    "process dies": ("die", "crashed", "exit code 3"),
    "illegal answer": ("illegal", "illegal", "chose"),
    "wrong type": ("wrong_type", "wrong type", "returned str"),
}


@pytest.fixture
def strategies(tmp_path):
    path = tmp_path / "strats.py"
    path.write_text(STRATEGIES)
    return path


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_trapcat_fault_is_a_foul_and_the_tournament_goes_on(fault, strategies, capsys):
    func, kind, words = FAULTS[fault]
    argv = ["trapcat", "tournament", "--cat", "%s:%s" % (strategies, func), "--blocker", "random",
            "--games", "3", "--move-timeout", move_timeout(fault), "--json"]
    code, out, err = run_cli(argv, capsys)
    assert code == 0
    res = json.loads(out)
    assert res["games"] == 3 and not res["interrupted"]
    assert len(res["fouls"]) == 1, res["fouls"]
    foul = res["fouls"][0]
    assert (foul["game"], foul["side"], foul["kind"]) == (1, "cat", kind)
    assert words in foul["foul"] and foul["strategy"].endswith(func)
    assert res["foul_counts"][kind] == 1 and sum(res["foul_counts"].values()) == 1
    (strategies.parent / "fouled").unlink()
    argv.remove("--json")
    code, out, err = run_cli(argv, capsys)
    assert code == 0 and "3 games" in out
    assert "game 1, turn 1: FOUL by the cat" in out and words in out and "fouls: 1 %s" % kind in out


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_catmouse_fault_is_a_foul_that_loses_the_game(fault, strategies, capsys):
    func, kind, words = FAULTS[fault]
    argv = ["play", "catmouse", str(ROOT / "maps/seed-bfs.txt"), "--mouse",
            "%s:%s" % (strategies, func), "--move-timeout", move_timeout(fault), "--json"]
    code, out, err = run_cli(argv, capsys)
    assert code == 0
    res = json.loads(out)
    assert res["winner"] == "cat" and res["rounds"] == 1
    assert [(f["side"], f["kind"], f["round"]) for f in res["fouls"]] == [("mouse", kind, 1)]
    assert words in res["fouls"][0]["foul"] and res["foul_counts"][kind] == 1
    (strategies.parent / "fouled").unlink()
    code, out, err = run_cli(argv[:-1], capsys)
    assert code == 0 and "round 1: FOUL by the mouse" in out and "the cat wins" in out


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_junqi_fault_is_a_foul_and_the_tournament_goes_on(fault, strategies, capsys):
    func, kind, words = FAULTS[fault]
    code, out, err = run_cli(["junqi", "tournament", "--ai", "easy", "--opponent",
                              "%s:%s" % (strategies, func), "--games", "2", "--move-timeout",
                              move_timeout(fault), "--json"], capsys)
    assert code == 0
    res = json.loads(out)
    assert res["games"] == 2 and res["wins"] >= 1 and not res["interrupted"]
    assert [(f["game"], f["side"], f["kind"]) for f in res["fouls"]] == [(1, "opponent", kind)]
    assert words in res["fouls"][0]["foul"] and res["foul_counts"][kind] == 1


def test_junqi_plugin_sees_no_face_down_piece(strategies, capsys):
    code, out, err = run_cli(["junqi", "tournament", "--ai", "easy", "--opponent",
                              "%s:junqi_view" % strategies, "--games", "2"], capsys)
    assert code == 0 and "2 games" in out and "FOUL" not in out


def test_blocker_foul_and_the_board_geometry(strategies):
    res = trapcat_cmd.run_match("%s:geometry" % strategies, "%s:illegal" % strategies, 3, 2,
                                blocks=5, size=7, move_timeout=1.0)
    assert res["games"] == 3 and res["escapes"] >= 1
    assert [(f["game"], f["side"], f["kind"]) for f in res["fouls"]] == [(1, "blocker", "illegal")]
    assert "illegal block: chose block -5" in res["fouls"][0]["foul"]


def test_catmouse_board_view(strategies, capsys):
    code, out, err = run_cli(["play", "catmouse", str(ROOT / "maps/seed-bfs.txt"), "--mouse",
                              "%s:catmouse_view" % strategies, "--json"], capsys)
    assert code == 0 and json.loads(out)["fouls"] == []


def test_a_worker_that_timed_out_is_replaced(strategies):
    runner = plugins.PluginStrategy("%s:hang" % strategies, trapcat_plugin.view, 0.5)
    try:
        first = runner.process.pid
        with pytest.raises(plugins.Foul) as foul:
            runner.ask((bytes(9), 3, 4, (1, 3)))
        assert foul.value.kind == "timeout" and runner.process is None
        assert not _alive(first)
        assert runner.ask((bytes(9), 3, 4, (1, 3))) == 1 and runner.restarts == 1
    finally:
        runner.close()


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("source, words", [
    ("def f(:\n", "syntax error"),
    ("import no_such_module_xyz\n", "cannot import"),
    ("raise SystemExit(4)\n", "raised SystemExit while loading"),
    ("x = 1\n", "has no function 'f'"),
])
def test_a_strategy_that_does_not_load_is_a_user_error(tmp_path, source, words):
    path = tmp_path / "bad.py"
    path.write_text(source)
    with pytest.raises(UserError, match=words):
        plugins.PluginStrategy("%s:f" % path, trapcat_plugin.view)


def test_bad_move_timeout_is_a_user_error(capsys):
    code, out, err = run_cli(["trapcat", "tournament", "--move-timeout", "0"], capsys)
    assert code == 2 and "--move-timeout" in err


def test_what_a_strategy_prints_goes_to_stderr(strategies):
    result = subprocess.run(
        [sys.executable, "-m", "host_tools", "play", "catmouse", "maps/seed-bfs.txt", "--mouse",
         "%s:noisy" % strategies, "--json"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and json.loads(result.stdout)["fouls"] == []
    assert "thinking about 31" in result.stderr


@pytest.mark.parametrize("argv, summary", [
    (["trapcat", "tournament", "--cat", "{}:slow_forever", "--games", "5"],
     ["0 games", "interrupted: 0 of 5 played"]),
    (["play", "catmouse", "maps/seed-bfs.txt", "--mouse", "{}:slow_forever"],
     ["interrupted in round 1 (cat at 8, mouse at 31"]),
    (["junqi", "tournament", "--opponent", "{}:slow_forever", "--games", "3"],
     ["0 games (interrupted: 0 of 3 played)"]),
    (["play", "catmouse", "maps/seed-bfs.txt", "--cat", "{}:slow_forever", "--json"],
     ['{"interrupted": true, "winner": null, "rounds": 1, "cat": 0, "mouse": 31']),
])
def test_ctrl_c_stops_at_once_with_a_summary(strategies, argv, summary):
    """Ctrl-C reaches the whole process group, as from a terminal: the run stops
    inside a 60 s move limit, prints what was played so far and ends 130; the
    worker (which ignores SIGINT) goes with it."""
    argv = [a.format(strategies) for a in argv] + ["--move-timeout", "60"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "host_tools"] + argv,
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while not (strategies.parent / "fouled").exists():
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130
    assert not _alive(int((strategies.parent / "fouled").read_text()))
    for words in summary:
        assert words in out
    assert "interrupted" in err and "Traceback" not in err


def test_a_worker_that_cannot_be_restarted_fouls_the_next_game(tmp_path):
    path = tmp_path / "once.py"
    path.write_text(
        "import os, time\n"
        "MARK = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'started')\n"
        "if os.path.exists(MARK):\n"
        "    raise RuntimeError('second start')\n"
        "open(MARK, 'w').close()\n"
        "def f(board, position, legal):\n"
        "    time.sleep(3600)\n")
    res = trapcat_cmd.run_match("%s:f" % path, "random", 3, 1, move_timeout=0.3)
    assert res["games"] == 3
    assert [f["kind"] for f in res["fouls"]] == ["timeout", "crashed", "crashed"]
    assert "could not be started again" in res["fouls"][1]["foul"]
    assert "second start" in res["fouls"][1]["foul"]


def test_the_spawn_start_method_works_too(strategies, monkeypatch):
    """macOS and Windows start workers with spawn (fork is unsafe or missing there)."""
    monkeypatch.setattr(plugins, "START_METHOD", "spawn")
    res = trapcat_cmd.run_match("%s:hang" % strategies, "random", 2, 1, move_timeout=0.5)
    assert res["games"] == 2 and [f["kind"] for f in res["fouls"]] == ["timeout"]
