"""The bottom layer of host_tools: what every tool shares, importing nothing
above it (tests/test_layers.py checks this).

    UserError            a user's mistake: one line on stderr, exit code 2
    plural(n, word)      "1 step", "2 steps"
    write_atomic(path, data), make_output_dir(path), output_dir(path)
                         output files through a temp file + rename

The rest of core/: ``fwpath`` (repository paths, firmware/ on sys.path),
``boards`` (board files, BOARDS_DIR), ``registry`` (the games: firmware/games.py
plus each game's laptop hooks), ``levelcheck`` (the device's own level checks),
``build`` (the firmware file set: mpy-cross, manifest), ``plugins`` (the one
runner of user strategies, docs/plugins.md), ``keyscript`` (the key scripts of
``sim --keys``, ``vpico --keys`` and the tests).
"""

import contextlib


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
