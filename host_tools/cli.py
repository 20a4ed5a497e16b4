"""`python -m host_tools …`: one argparse tree; each feature module adds its
subcommands through ``register(subparsers)``.

User mistakes raise UserError and end as one line on stderr with exit code 2;
anything else is a bug and keeps its traceback.
"""

import argparse
import importlib
import sys

from host_tools.core import UserError

# Every command: (name, the module whose register(subparsers) adds it, its help
# line for `python -m host_tools --help`).  Only the chosen command's module is
# imported, so `--help` or one command does not load the other commands, the
# games' AIs or their viper kernels; tests/test_cli_tree.py checks that each
# help line here is the one its module registers.  Adding a tool = one line.
COMMANDS = (
    ("solve", "host_tools.commands.solve_cmd", "solve a puzzle or map and print the optimal answer"),
    ("play", "host_tools.commands.play_cmd", "play a game headless between strategies"),
    ("bench", "host_tools.bench.runner", "measure every budget (make bench)"),
    ("flash", "host_tools.device.flash", "compile firmware/ and copy it to the handheld"),
    ("doctor", "host_tools.device.doctor", "check the connected handheld"),
    ("hwtest", "host_tools.device.hwtest", "run the device-side checks and timings on a connected handheld"),
    ("levels", "host_tools.commands.levels_cmd", "generate, pack, check and preview level packs"),
    ("trapcat", "host_tools.commands.trapcat_cmd", "Trap the Cat tools (tournament)"),
    ("sim", "host_tools.emulation.sim", "run the firmware in the simulator (make sim)"),
    ("web", "host_tools.web.web_cmd", "build the handheld as a static web page, or serve it (make web)"),
    ("junqi", "host_tools.commands.junqi_cmd", "Junqi railway routes and AI tournaments"),
    ("run", "host_tools.commands.run_cmd", "run the firmware on a Raspberry Pi with Blinka (oled-bonnet)"),
    ("fuzz", "host_tools.commands.fuzz", "seeded mutation fuzzing of every parser (maps, layouts, levels, "
                                         "packs, saves, board files, journals, host options)"),
    ("vpico", "host_tools.commands.vpico_cmd", "run the handheld on a virtual Pico (MicroPython in the "
                                               "rp2040js emulator)"),
    ("soak", "host_tools.commands.soak_cmd", "play every game in turn for N emulated minutes and check "
                                             "the heap comes back (make soak)"),
    ("docs", "host_tools.commands.docs_cmd", "regenerate the docs' measured figures from the bench (make docs)"),
    ("wiring", "host_tools.commands.wiring_cmd", "draw a board file's wiring: the Pico's pins, the OLED, "
                                                 "the buttons"),
)


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are one line too (exit code 2, as before);
    sub-parsers inherit the class through add_subparsers."""

    def error(self, message):
        self.exit(2, "error: %s (see %s --help)\n" % (message, self.prog))


def chosen_command(argv):
    """The command named in ``argv`` (its first word that is not an option), or None."""
    for word in argv:
        if not word.startswith("-"):
            return word
    return None


def build_parser(argv=None, everything=False):
    """The argparse tree with the chosen command's parser in full (its module
    imported) and every other command as a help line only; ``everything``
    imports and registers them all."""
    parser = _Parser(
        prog="python -m host_tools",
        description="Laptop-side tools for the pocket puzzle handheld.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    chosen = chosen_command(sys.argv[1:] if argv is None else argv)
    modules = []
    for name, module, _ in COMMANDS:
        if (everything or name == chosen) and module not in modules:
            modules.append(module)
    for module in modules:
        importlib.import_module(module).register(subparsers)
    for name, _, help_line in COMMANDS:
        if name not in subparsers.choices:
            subparsers.add_parser(name, help=help_line, add_help=False)
    return parser


def main(argv=None):
    parser = build_parser(argv)
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
