"""`python -m host_tools …`: one argparse tree; each feature module adds its
subcommands through ``register(subparsers)``.

User mistakes raise UserError and end as one line on stderr with exit code 2;
anything else is a bug and keeps its traceback.
"""

import argparse
import importlib
import sys

# Each module here defines register(subparsers). Adding a tool = one line.
COMMAND_MODULES = (
    "host_tools.solve_cmd",
    "host_tools.play_cmd",
    "host_tools.bench",
    "host_tools.flash",
    "host_tools.levels_cmd",
    "host_tools.trapcat_cmd",
    "host_tools.sim",
    "host_tools.junqi_cmd",
    "host_tools.klotski_cmd",
    "host_tools.run_cmd",
)


class UserError(Exception):
    """A mistake in the user's input: printed as one line, exit code 2."""


def build_parser():
    parser = argparse.ArgumentParser(
        prog="python -m host_tools",
        description="Laptop-side tools for the pocket puzzle handheld.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.func(args)
    except UserError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return result or 0
