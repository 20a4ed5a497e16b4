"""The laptop's reading of firmware/games.py, the one descriptor per game.

`levels`, `solve`, `bench`, `levels preview` and `flash` ask here instead of
keeping lists of their own, so a game registered in games.GAMES is picked up
by all of them.  GAMES is read at each call (not copied at import), so a test
can register a toy game for the length of one test.
"""

import importlib

import host_tools.fwpath  # noqa: F401  (firmware/ on sys.path)
import games as _games


def find(game_id):
    """The descriptor of ``game_id``, or None."""
    for game in _games.GAMES:
        if game[_games.ID] == game_id:
            return game
    return None


def pack_games():
    """The ids of the games that take level packs (PACK set), in GAMES order."""
    return [game[_games.ID] for game in _games.GAMES if game[_games.PACK]]


def scene_module(game_id):
    """Name of the firmware module with the game's ``Game(ctx)``, or None."""
    game = find(game_id)
    return game[_games.SCENE] if game else None


def resolve(spec, game_id="?"):
    """The function a "module:function" field names; a field naming nothing
    is a RuntimeError that says which descriptor and field to fix."""
    module, _, name = spec.partition(":")
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as exc:
        raise RuntimeError("firmware/games.py: the %r descriptor names %r, which cannot be "
                           "loaded (%s)" % (game_id, spec, exc)) from exc


def _hooks(field):
    return [resolve(game[field], game[_games.ID]) for game in _games.GAMES if game[field]]


def level_generators():
    """Each game's ``add_parser(levels_subparsers)`` (LEVELS), in GAMES order."""
    return _hooks(_games.LEVELS)


def solvers():
    """Each game's ``add_parser(solve_subparsers)`` (SOLVE), in GAMES order."""
    return _hooks(_games.SOLVE)


def bench_modules():
    """The games' bench modules, in GAMES order."""
    return [game[_games.BENCH] for game in _games.GAMES if game[_games.BENCH]]
