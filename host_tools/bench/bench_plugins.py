"""Plug-in runner figures for `make bench`: what running a user strategy in its
own worker process (host_tools/core/plugins.py) adds per move, and what a restart
after a timeout costs.  The strategy is trivial (``legal[0]``), so the figure is
the runner's overhead alone: pickling the board, two pipe trips, unpickling."""

import os
import tempfile
import time

from host_tools.core import plugins
from host_tools.games import catmouse_plugin, trapcat_plugin

MOVES = 2000
OVERHEAD_BUDGET_US = 1000          # a 2 s move limit is 2000x this


def _per_move_us(view, payload, spec):
    runner = plugins.PluginStrategy(spec, view, 2.0)
    try:
        for _ in range(100):
            runner.ask(payload)
        start = time.perf_counter()
        for _ in range(MOVES):
            runner.ask(payload)
        per_move = (time.perf_counter() - start) / MOVES * 1e6
        start = time.perf_counter()
        runner._stop()
        runner._start()
        restart_ms = (time.perf_counter() - start) * 1e3
    finally:
        runner.close()
    return per_move, restart_ms


def collect(report):
    import host_tools.core.fwpath  # noqa: F401
    from catmouse import CatMouseGame, open_map

    sec = "plug-ins: worker process per strategy (trivial strategy, %d moves)" % MOVES
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "first.py")
        with open(path, "w") as handle:
            handle.write("def first(board, position, legal):\n    return legal[0]\n")
        spec = path + ":first"
        trap_payload = (bytes(81), 9, 40, (30, 31, 39, 41, 48, 49))
        us, restart = _per_move_us(trapcat_plugin.view, trap_payload, spec)
        report.add(sec, "Trap the Cat 9x9, overhead per move", round(us, 1), "us",
                   budget=OVERHEAD_BUDGET_US)
        game = CatMouseGame(open_map(64, 64))
        cm_payload = catmouse_plugin.payload(game.board, game.cat, game.legal_moves("cat"))
        us64, _ = _per_move_us(catmouse_plugin.view, cm_payload, spec)
        report.add(sec, "Cat & Mouse 64x64, overhead per move", round(us64, 1), "us",
                   budget=OVERHEAD_BUDGET_US)
        report.add(sec, "worker restart after a timeout (kill + fork + load)", round(restart, 1),
                   "ms", note="once per timed-out game")
