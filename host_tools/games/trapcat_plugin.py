"""What a Trap the Cat plug-in strategy receives (docs/plugins.md), for
``trapcat tournament``: ``payload`` turns the game into plain data for the
worker process, ``view`` (run in the worker) turns that data into the
strategy's arguments ``(board, cat_cell, legal_moves)``.  The runner is
host_tools/core/plugins.py: ``PluginStrategy(spec, view, move_timeout)``."""


class TrapBoard(bytes):
    """Trap the Cat board for a plug-in: the cells as ``bytes`` (row-major,
    0 free, non-zero blocked; old strategies index it as before) plus the
    geometry: ``size`` (side), ``cols`` and ``rows`` (both = size)."""

    @property
    def cols(self):
        return self.size

    @property
    def rows(self):
        return self.size


def view(cells, size, cat, legal):
    board = TrapBoard(cells)
    board.size = size
    return board, cat, legal


def payload(board, legal):
    """The plain data of a ``trapcat.Board`` for ``view``: a copy of its cells."""
    return bytes(board.cells), board.size, board.cat, legal
