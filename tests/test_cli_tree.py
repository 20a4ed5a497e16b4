"""`python -m host_tools`: each command's module is imported only when that
command runs, so `--help` loads no game, AI or viper kernel; the help line of a
command in cli.COMMANDS is the one its module registers."""

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cli

ROOT = Path(__file__).resolve().parent.parent
NAMES = ("sim", "run", "solve", "play", "levels", "trapcat", "junqi", "flash", "doctor", "hwtest", "bench",
         "vpico", "fuzz", "wiring", "web", "soak", "docs")
GAME_MODULES = ("catmouse", "catmouse_ai", "catmouse_game", "trapcat", "trapcat_ai", "trapcat_viper",
                "junqi_board", "junqi_ai", "klotski", "klotski_viper", "klotski_cache", "gridpath")

_PROBE = r"""
import json, sys
from host_tools.cli import main
try:
    main(sys.argv[1:])
except SystemExit as exc:
    code = exc.code
print("@@" + json.dumps([code, sorted(sys.modules)]))
"""


def _modules_after(argv):
    proc = subprocess.run([sys.executable, "-c", _PROBE] + argv, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    line = [ln for ln in proc.stdout.splitlines() if ln.startswith("@@")][-1]
    code, modules = json.loads(line[2:])
    return code, proc.stdout, set(modules)


def test_help_imports_no_command_and_no_game():
    code, out, modules = _modules_after(["--help"])
    assert code == 0
    for name in NAMES:
        assert "\n    %s " % name in out, name
    assert not modules & set(GAME_MODULES), sorted(modules & set(GAME_MODULES))
    commands = {module for _, module, _ in cli.COMMANDS}
    assert not modules & commands, sorted(modules & commands)
    assert not [m for m in modules if m.startswith(("host_tools.commands.", "host_tools.emulation.",
                                                    "host_tools.bench.", "host_tools.levels."))]


def test_one_command_imports_only_its_own_module():
    code, out, modules = _modules_after(["doctor", "--help"])
    assert code == 0 and "--port" in out
    assert "host_tools.device.doctor" in modules
    assert not modules & set(GAME_MODULES), sorted(modules & set(GAME_MODULES))
    assert not modules & ({module for _, module, _ in cli.COMMANDS} - {"host_tools.device.doctor"})


def test_the_real_entry_point_prints_help():
    proc = subprocess.run([sys.executable, "-m", "host_tools", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "COMMAND" in proc.stdout and proc.stderr == ""


def test_every_documented_command_is_listed_once():
    assert sorted(name for name, _, _ in cli.COMMANDS) == sorted(NAMES)


def test_help_lines_are_the_ones_the_modules_register():
    parser = cli.build_parser([], everything=True)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    registered = {action.dest: action.help for action in sub._choices_actions}
    assert registered == {name: help_line for name, _, help_line in cli.COMMANDS}


def test_an_unknown_command_is_one_line_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["flahs"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "invalid choice: 'flahs'" in err
