"""What a Cat & Mouse plug-in strategy receives (docs/plugins.md), for ``play
catmouse``: ``payload`` turns the game into plain data for the worker process,
``view`` (run in the worker) turns that data into the strategy's arguments
``(board, position, legal_moves)``: a ``catmouse.BoardView`` over read-only
copies.  The runner is host_tools/core/plugins.py:
``PluginStrategy(spec, view, move_timeout)``."""


def view(cols, rows, costs, flags, cat, mouse, terrain, round_, cat_rest, mouse_rest,
         position, legal):
    import host_tools.core.fwpath  # noqa: F401
    from catmouse import BoardView

    board = BoardView.__new__(BoardView)    # fields set from the game's, no per-cell loop
    board.cols, board.rows = cols, rows
    board.costs, board.flags = costs, flags      # bytes: read-only
    board.cat, board.mouse, board.terrain, board.round = cat, mouse, terrain, round_
    board.cat_rest, board.mouse_rest = cat_rest, mouse_rest
    return board, position, legal


def payload(board, position, legal):
    """The plain data a Cat & Mouse worker needs for ``view``."""
    return (board.cols, board.rows, bytes(board.costs), bytes(board.flags), board.cat,
            board.mouse, board.terrain, board.round, board.cat_rest, board.mouse_rest,
            position, list(legal))
