"""`python -m host_tools …`: one argparse tree; each feature module adds its
subcommands through ``register(subparsers)``.

User mistakes raise UserError and end as one line on stderr with exit code 2;
anything else is a bug and keeps its traceback.
"""

import argparse
import contextlib
import importlib
import sys

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
    "host_tools.commands.wiring_cmd",
)


class UserError(Exception):
    """A mistake in the user's input: printed as one line, exit code 2."""


def plural(count, word, words=None):
    """``1 step``, ``2 steps`` (``words`` for an irregular plural)."""
    return "%d %s" % (count, word if count == 1 else (words or word + "s"))


def write_atomic(path, data):
    """Write ``data`` (bytes or str) to ``path`` through ``path.tmp`` + rename, so
    a failure or Ctrl-C never leaves a half-written file; OS errors -> UserError."""
    import os
    path = os.fspath(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = path + ".tmp"
    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "Is a directory")
        with open(tmp, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException as exc:
        try:
            os.remove(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise UserError("cannot write %s: %s" % (path, exc.strerror or exc)) from None
        raise


def write_level_dir(out, game, levels, **info):
    """Write generated levels as ``out/<game>_NNN.txt`` plus ``pack.json`` (the
    game, ``info`` and each level's grade with its file name): the folder
    `levels pack` reads.  ``levels`` holds (file text, grade dict) pairs.
    Every level first goes through the device's own check (screen limits
    included), so nothing is written that the handheld would refuse."""
    import json
    from pathlib import Path

    from host_tools.commands.levels_cmd import level_checker

    check = level_checker(game)
    if check is not None:
        for i, (text, _) in enumerate(levels, 1):
            try:
                check(text)
            except ValueError as exc:
                raise UserError("generated level %d does not fit the handheld: %s" % (i, exc)) from None
    out = Path(out)
    grades = []
    for i, (text, grade) in enumerate(levels, 1):
        name = "%s_%03d.txt" % (game, i)
        write_atomic(out / name, text)
        grades.append(dict(grade, file=name))
    pack = {"game": game}
    pack.update(info)
    pack["levels"] = grades
    write_atomic(out / "pack.json", json.dumps(pack, indent=1) + "\n")


def make_output_dir(path):
    """Create an output directory (and parents); OS errors -> UserError.
    Returns True when it made ``path``."""
    import os
    path = os.fspath(path)
    created = not os.path.isdir(path)
    if os.path.exists(path) and not os.path.isdir(path):
        raise UserError("cannot create output directory %s: it is a file, not a folder" % path)
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as exc:
        raise UserError("cannot create output directory %s: %s" % (path, exc.strerror or exc)) from None
    return created


@contextlib.contextmanager
def output_dir(path):
    """make_output_dir for the block's output; when the block fails or is
    interrupted (nothing found, a level refused, Ctrl-C), ``path`` is removed
    again if this run made it and it is still empty."""
    import os
    created = make_output_dir(path)
    try:
        yield path
    except BaseException:
        if created:
            try:
                os.rmdir(path)
            except OSError:
                pass
        raise


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
