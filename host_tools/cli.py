"""`python -m host_tools …`: one argparse tree; each feature module adds its
subcommands through ``register(subparsers)``.

User mistakes raise UserError and end as one line on stderr with exit code 2;
anything else is a bug and keeps its traceback.
"""

import argparse
import importlib
import sys

from host_tools.core import UserError

# Each module here defines register(subparsers). Adding a tool = one line.
COMMAND_MODULES = (
    "host_tools.commands.solve_cmd",
    "host_tools.commands.play_cmd",
    "host_tools.bench.runner",
    "host_tools.device.flash",
    "host_tools.commands.levels_cmd",
    "host_tools.commands.trapcat_cmd",
    "host_tools.emulation.sim",
    "host_tools.commands.junqi_cmd",
    "host_tools.commands.klotski_cmd",
    "host_tools.commands.run_cmd",
    "host_tools.commands.fuzz",
    "host_tools.commands.vpico_cmd",
)


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (exit code 2, as before);
    sub-parsers inherit the class through add_subparsers."""

    def error(self, message):
        self.exit(2, "error: %s (see %s --help)\n" % (message, self.prog))


def build_parser():
    parser = _Parser(
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
        sys.stdout.flush()       # a closed pipe shows here, inside the handler below
    except UserError as exc:
        print("error: %s" % exc, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        if not _stdout_reader_gone():
            raise                # some other pipe: a bug, keep the traceback
        _silence_stdout()
        return 1
    return result or 0


def _stdout_reader_gone():
    """True when stdout is a pipe whose reader has closed (Linux reports
    POLLERR, BSD/macOS POLLHUP)."""
    import select
    try:
        poller = select.poll()
        poller.register(sys.stdout.fileno(), select.POLLOUT)
        return any(ev & (select.POLLERR | select.POLLHUP) for _, ev in poller.poll(0))
    except (AttributeError, OSError, ValueError):
        return True


def _silence_stdout():
    """The reader of stdout closed early (``… | head -1``): stop quietly with
    exit code 1 (as the Python docs advise), stdout pointed at /dev/null so the
    interpreter's own flush at exit does not raise again."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
