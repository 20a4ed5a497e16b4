"""User strategies (plug-ins) given as ``module:function`` or ``path/file.py:function``.

One rule for every game's plug-ins (Cat & Mouse, Trap the Cat, Junqi): the strategy runs
in its own worker process, one persistent process per strategy, asked once per
move.  Whatever goes wrong inside it - it takes longer than the per-move time
limit (the worker is killed and started again for the next game), it raises
(``SystemExit`` and ``KeyboardInterrupt`` included), its process dies, it answers
something that is not a cell (or move) number or not one of the legal ones -
is a **foul**: ``ask`` / ``check_cell`` raise ``Foul`` and the command scores
that game as lost for that side.
A foul never ends the run.  Ctrl-C from the user still stops the run: the
workers ignore SIGINT, so the parent alone gets KeyboardInterrupt.

What a plug-in prints goes to stderr, so ``--json`` output stays parseable.
The board it gets is a fresh read-only copy each move (``bytes`` inside), so a
strategy cannot change the game by writing into it.

What a game's plug-ins receive is that game's, beside its laptop code:
host_tools/games/<game>_plugin.py has ``payload(...)`` (the game as plain data,
pickled to the worker) and ``view(*payload)`` (run in the worker: the
strategy's arguments).  The command of the game passes its ``view`` to
``PluginStrategy`` and asks with its ``payload``; this module knows no game.
"""

import importlib
import importlib.util
import multiprocessing
import operator
import os
import signal
import sys

from host_tools.core import UserError

DEFAULT_MOVE_TIMEOUT = 2.0
LOAD_TIMEOUT = 30.0      # importing the strategy's module, per (re)start
FOUL_KINDS = ("timeout", "raised", "crashed", "wrong type", "illegal")
# fork starts a worker in ~5 ms; spawn (macOS, Windows: fork is unsafe or missing) re-imports
START_METHOD = "fork" if sys.platform.startswith("linux") else "spawn"


def load_callable(spec):
    """Return the callable named by ``module:function`` or ``file.py:function``."""
    if ":" not in spec:
        raise UserError("strategy %r must look like module:function" % spec)
    module_name, _, attr = spec.rpartition(":")
    if not module_name or not attr:
        raise UserError("strategy %r must look like module:function" % spec)
    try:
        if module_name.endswith(".py"):
            if not os.path.isfile(module_name):
                raise UserError("strategy file %s does not exist" % module_name)
            loader_spec = importlib.util.spec_from_file_location("user_strategy", module_name)
            module = importlib.util.module_from_spec(loader_spec)
            loader_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except UserError:
        raise
    except (ImportError, ValueError) as exc:
        raise UserError("cannot import strategy module %r: %s" % (module_name, exc)) from None
    except SyntaxError as exc:
        raise UserError("strategy module %r has a syntax error on line %s" % (module_name, exc.lineno)) from None
    func = getattr(module, attr, None)
    if func is None or not callable(func):
        raise UserError("%r has no function %r" % (module_name, attr))
    return func


def check_move_timeout(seconds):
    if not seconds > 0:
        raise UserError("--move-timeout must be more than 0 seconds")
    return seconds


class Foul(Exception):
    """A plug-in broke the rule on one move: ``kind`` is one of FOUL_KINDS,
    ``detail`` says what happened (one line)."""

    def __init__(self, kind, detail):
        Exception.__init__(self, detail)
        self.kind = kind
        self.detail = detail


def _short(value, limit=60):
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _worker(conn, spec, view):
    """The worker process: load the strategy, then answer ``view(*payload)``
    calls until the pipe closes.  Every answer is ("ok", int) or a foul."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # Ctrl-C is the parent's to handle
    sys.stdout = sys.stderr
    try:
        func = load_callable(spec)
    except UserError as exc:
        conn.send(("load-error", str(exc)))
        return
    except BaseException as exc:
        conn.send(("load-error", "strategy %r raised %s while loading: %s"
                   % (spec, type(exc).__name__, exc)))
        return
    conn.send(("ready", None))
    while True:
        try:
            payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            answer = func(*view(*payload))
        except BaseException as exc:
            conn.send(("raised", "raised %s%s" % (type(exc).__name__, _one_line(exc))))
            continue
        try:
            if isinstance(answer, bool):
                raise TypeError("a bool is not a cell")
            cell = operator.index(answer)       # int, or NumPy integers and the like
        except BaseException:
            shown = "None" if answer is None else "%s %s" % (type(answer).__name__, _short(answer))
            conn.send(("wrong type", "returned %s, not a cell number" % shown))
            continue
        conn.send(("ok", int(cell)))


def _one_line(exc, limit=200):
    """``": message"`` of an exception, one line, or "" (also when str() fails)."""
    try:
        text = " ".join(str(exc).split())
    except BaseException:
        return ""
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return ": " + text if text else ""


class PluginStrategy:
    """One user strategy in a persistent worker process.  ``ask(payload)``
    returns the cell the worker's ``view(*payload)`` call chose, or raises Foul.
    ``view`` is a module-level function (payload -> the plug-in's arguments)."""

    def __init__(self, spec, view, move_timeout=DEFAULT_MOVE_TIMEOUT):
        self.spec = spec
        self.view = view
        self.move_timeout = move_timeout
        self.process = None
        self.conn = None
        self.restarts = 0
        self._start()

    def _start(self):
        ctx = multiprocessing.get_context(START_METHOD)
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_worker, args=(child, self.spec, self.view), daemon=True,
                           name="strategy %s" % self.spec)
        proc.start()
        child.close()
        self.process, self.conn = proc, parent
        try:
            ready = parent.poll(LOAD_TIMEOUT)
            status, message = parent.recv() if ready else ("load-error", None)
        except (EOFError, OSError):
            status, message = "load-error", "strategy %r: its process ended while loading " \
                "(exit code %s)" % (self.spec, self._stop())
        if status != "ready":
            self.close()
            if message is None:
                message = "strategy %r did not load within %d s" % (self.spec, LOAD_TIMEOUT)
            raise UserError(message)

    def _stop(self):
        """Kill the worker; returns its exit code."""
        proc, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            conn.close()
        if proc is None:
            return None
        if proc.is_alive():
            proc.kill()
        proc.join()
        return proc.exitcode

    def ask(self, payload):
        if self.process is None:
            self.restarts += 1
            try:
                self._start()
            except UserError as exc:     # loaded once, not now: this move is lost, not the run
                raise Foul("crashed", "could not be started again: %s" % exc) from None
        conn = self.conn
        try:
            conn.send(payload)
            if not conn.poll(self.move_timeout):
                self._stop()
                raise Foul("timeout", "took longer than %g s" % self.move_timeout)
            status, value = conn.recv()
        except (EOFError, OSError):
            code = self._stop()
            raise Foul("crashed", "its process ended (exit code %s)" % code) from None
        if status == "ok":
            return value
        raise Foul(status, value)

    def close(self):
        self._stop()


def check_cell(answer, legal, describe="cell", legal_name="cells"):
    """Raise an ``illegal`` Foul unless ``answer`` is one of ``legal``."""
    if answer not in legal:
        shown = sorted(legal)
        listed = _short(shown, 80) if shown else "none"
        raise Foul("illegal", "chose %s %r, not one of the legal %s %s"
                   % (describe, answer, legal_name, listed))


def foul_counts(fouls):
    """{kind: count} over a list of foul dicts, every kind present."""
    counts = dict((kind, 0) for kind in FOUL_KINDS)
    for foul in fouls:
        counts[foul["kind"]] += 1
    return counts


def print_fouls(res, when):
    """The tournament's fouls, one line each, then their count by kind. ``when``
    names the game and the step in the game's own words (``"game 3, ply 5"``)."""
    for f in res.get("fouls", ()):
        print("%s: FOUL by the %s (%s): %s; that game is lost"
              % (when(f), f["side"], f["strategy"], f["foul"]))
    if res.get("fouls"):
        print("fouls: %s" % ", ".join("%d %s" % (n, kind)
                                     for kind, n in res["foul_counts"].items() if n))


def finish(res):
    """Exit status of a tournament command: 130 after Ctrl-C (what was played is printed)."""
    if res["interrupted"]:
        sys.stdout.flush()
        print("interrupted", file=sys.stderr)
        return 130
    return 0


def add_move_timeout_argument(parser):
    parser.add_argument("--move-timeout", type=float, default=DEFAULT_MOVE_TIMEOUT,
                        metavar="SECONDS",
                        help="time a plug-in strategy gets per move; longer is a foul "
                             "(default %g)" % DEFAULT_MOVE_TIMEOUT)

