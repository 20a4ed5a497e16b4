"""The laptop side of the test-only "Count Down" game (tests/toygame/toy_game.py):
its `levels`, `solve`, bench and flash hooks, named in its registry entry
(tests/test_game_registry.py: TOY_HOOKS)."""

import json

from host_tools.core import UserError, make_output_dir
from host_tools.core.levelcheck import write_level_dir

import toy_game


def _generate(args):
    make_output_dir(args.output)
    levels = [("%d\n" % (i * 7 % 99 + 1), {"presses": i * 7 % 99 + 1}) for i in range(args.count)]
    write_level_dir(args.output, "toy", levels)
    print("wrote %d toy levels to %s" % (args.count, args.output))
    return 0


def add_levels_parser(levels_subparsers):
    p = levels_subparsers.add_parser("toy", help="generate Count Down levels")
    p.add_argument("--count", type=int, default=3)
    p.add_argument("-o", "--output", default="toy_levels")
    p.set_defaults(func=_generate)


def _solve(args):
    try:
        with open(args.level) as f:
            presses = toy_game.check_level(f.read())
    except (OSError, ValueError) as exc:
        raise UserError("%s: %s" % (args.level, exc)) from None
    print(json.dumps({"presses": presses}) if args.json else "presses: %d" % presses)
    return 0


def add_solve_parser(solvers):
    p = solvers.add_parser("toy", help="fewest presses for a Count Down level")
    p.add_argument("level")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_solve)


def collect(report):
    report.add("Count Down (test-only game)", "presses for level 42", toy_game.check_level("42"),
               "presses", budget=99)


def add_flash_options(parser):
    parser.add_argument("--toy-hints", action="store_true", help="also put Count Down's hint file in /saves")


def flash_files(args, packs, log=print):
    if not args.toy_hints:
        return {}
    log("writing the Count Down hints")
    return {"saves/toy_hints.txt": b"press A\n"}
