"""What a Flip Junqi plug-in strategy receives (docs/plugins.md), for ``junqi
tournament``: ``payload`` turns the game into what one player may know, as
plain data for the worker process, ``view`` (run in the worker) turns that
data into the strategy's arguments ``(board, me, legal_moves)``.  The runner
is host_tools/core/plugins.py: ``PluginStrategy(spec, view, move_timeout)``."""


class JunqiBoard:
    """Flip Junqi as a player sees it: ``occ[c]`` 0 empty, 1 / 2 a face-up piece
    of colour 0 / 1, 3 face down; ``kind[c]`` and ``colour[c]`` of face-up
    pieces (255 for empty and face-down cells: hidden stays hidden);
    ``pool[colour * 12 + type]`` the face-down pieces left, ``alive`` the
    pieces on the board; ``my_colour`` (None before your first flip), ``plies``,
    ``quiet`` (plies without a flip or capture), ``cols`` 5, ``rows`` 12,
    ``size`` 60 cells (c = row * 5 + col, row A = 0)."""

    cols = 5
    rows = 12
    size = 60

    def __len__(self):
        return self.size


def view(occ, kind, colour, pool, alive, my_colour, plies, quiet, me, legal):
    board = JunqiBoard()
    board.occ, board.kind, board.colour = occ, kind, colour
    board.pool, board.alive = pool, alive
    board.my_colour, board.plies, board.quiet = my_colour, plies, quiet
    return board, me, legal


def payload(game, me, legal):
    """What player ``me`` may know of ``game`` (face-down pieces stay unknown)."""
    occ = bytes(game.occ)
    kind = bytes(k if o in (1, 2) else 255 for k, o in zip(game.kind, occ))
    colour = bytes(c if o in (1, 2) else 255 for c, o in zip(game.colour, occ))
    mine = game.player_colour[me]
    return (occ, kind, colour, bytes(game.pool), bytes(game.alive),
            None if mine == 255 else mine, game.plies, game.quiet, me, legal)
