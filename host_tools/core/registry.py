"""The games on the laptop: what the device reads (firmware/games.py: id, title,
scene module, pack number) plus each game's laptop hooks, keyed by its id here.

`levels`, `solve`, `bench`, `levels preview` and `flash` ask here instead of
keeping lists of their own, so a game registered in games.GAMES (and, for its
laptop tools, in HOOKS) is picked up by all of them.  GAMES and HOOKS are read
at each call (not copied at import), so a test can register a toy game for the
length of one test.  Hooks are named by string and imported only when used:
reading this table imports no game.

A game's hooks (every one optional):

  "levels"  "module:function" adding the `levels ID` generator: function(levels_subparsers)
  "solve"   "module:function" adding a `solve ...` solver: function(solve_subparsers)
  "bench"   bench module with ``collect(report)``
  "flash"   module with ``add_flash_options(parser)`` (its `flash` flags) and
            ``flash_files(args, packs, log)`` -> {device path: bytes} (extra
            files, e.g. Klotski's solver tables; {} when its flag is not given)
"""

import importlib

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import games as _games

HOOKS = {
    "catmouse": {"levels": "host_tools.levels.levels_catmouse:add_parser",
                 "solve": "host_tools.commands.solve_cmd:add_grid_parser",
                 "bench": "host_tools.bench.bench_grid"},
    "trapcat": {"levels": "host_tools.levels.levels_trapcat:add_parser",
                "bench": "host_tools.bench.bench_trapcat"},
    "junqi": {"bench": "host_tools.bench.bench_junqi"},
    "klotski": {"levels": "host_tools.commands.klotski_cmd:add_levels_parser",
                "solve": "host_tools.commands.klotski_cmd:add_solve_parser",
                "bench": "host_tools.bench.bench_klotski",
                "flash": "host_tools.games.klotski_hook"},
}


def game_ids():
    """Every game's id, in GAMES order."""
    return [game[_games.ID] for game in _games.GAMES]


def find(game_id):
    """The device descriptor of ``game_id``, or None."""
    for game in _games.GAMES:
        if game[_games.ID] == game_id:
            return game
    return None


def pack_games():
    """The ids of the games that take level packs (PACK set), in GAMES order."""
    return [game[_games.ID] for game in _games.GAMES if game[_games.PACK]]


def scene_module(game_id):
    """Name of the firmware module with the game's ``Scene(ctx)``, or None."""
    game = find(game_id)
    return game[_games.SCENE] if game else None


def resolve(spec, game_id="?"):
    """The function a "module:function" hook names (the module itself without
    ":function"); a hook naming nothing is a RuntimeError that says which game
    and hook to fix."""
    module, _, name = spec.partition(":")
    try:
        mod = importlib.import_module(module)
        return getattr(mod, name) if name else mod
    except (ImportError, AttributeError) as exc:
        raise RuntimeError("host_tools/core/registry.py: the %r hooks name %r, which cannot be "
                           "loaded (%s)" % (game_id, spec, exc)) from exc


def hook_specs(kind):
    """(game id, spec) of every game with a ``kind`` hook, in GAMES order."""
    out = []
    for game_id in game_ids():
        spec = HOOKS.get(game_id, {}).get(kind)
        if spec:
            out.append((game_id, spec))
    return out


def _hooks(kind):
    return [resolve(spec, game_id) for game_id, spec in hook_specs(kind)]


def level_generators():
    """Each game's ``add_parser(levels_subparsers)`` ("levels"), in GAMES order."""
    return _hooks("levels")


def solvers():
    """Each game's ``add_parser(solve_subparsers)`` ("solve"), in GAMES order."""
    return _hooks("solve")


def bench_modules():
    """The games' bench module names ("bench"), in GAMES order."""
    return [spec for _, spec in hook_specs("bench")]


def flash_hooks():
    """The games' flash hook modules ("flash"), in GAMES order."""
    return _hooks("flash")
