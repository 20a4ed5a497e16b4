"""`python -m host_tools play catmouse MAP --cat … --mouse … [--rounds N] [--json]`:
a whole game, headless."""

import json

import host_tools.fwpath  # noqa: F401
import catmouse_ai
from catmouse import CatMouseGame

from host_tools.cli import UserError
from host_tools.maps import read_map
from host_tools.plugins import load_callable

BUILTIN = ("bfs", "astar", "evasive", "random")


def strategy(spec, seed):
    if spec in BUILTIN:
        return catmouse_ai.make(spec, seed)
    if ":" not in spec:
        raise UserError("unknown strategy %r: use one of %s or module:function"
                        % (spec, ", ".join(BUILTIN)))
    return load_callable(spec)


def play_catmouse(args):
    cmap = read_map(args.map)
    if args.rounds is not None and args.rounds < 1:
        raise UserError("--rounds must be at least 1")
    cat = strategy(args.cat or ("astar" if cmap.terrain else "bfs"), args.seed)
    mouse = strategy(args.mouse, args.seed + 1)
    game = CatMouseGame(cmap, round_limit=args.rounds or 0)
    errors = []

    def on_error(round_number, message):
        errors.append({"round": round_number, "error": message})
        if not args.json:
            print("round %d: illegal move ignored: %s" % (round_number, message))

    try:
        game.play(cat, mouse, on_error)
    except Exception as exc:  # a plug-in crashed: name it, do not dump our stack
        raise UserError("a strategy raised %s: %s (round %d)" % (type(exc).__name__, exc, game.round))
    result = {
        "winner": game.winner, "rounds": game.round, "round_limit": game.round_limit,
        "cat": game.cat, "mouse": game.mouse,
        "cat_stamina": game.cat_stamina, "mouse_stamina": game.mouse_stamina,
        "illegal_moves": errors,
    }
    if args.json:
        print(json.dumps(result))
    elif game.winner == "cat":
        print("the cat caught the mouse in round %d (stamina: cat %d, mouse %d)"
              % (game.round, game.cat_stamina, game.mouse_stamina))
    else:
        print("the mouse survived all %d rounds (stamina: cat %d, mouse %d)"
              % (game.round, game.cat_stamina, game.mouse_stamina))
    return 0


def register(subparsers):
    parser = subparsers.add_parser("play", help="play a game headless between strategies")
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    cm = games.add_parser("catmouse", help="Cat & Mouse on a map file")
    cm.add_argument("map", help="map text file")
    cm.add_argument("--cat", help="bfs, astar, random or module:function (default: bfs, astar on terrain maps)")
    cm.add_argument("--mouse", default="evasive", help="evasive, random or module:function (default evasive)")
    cm.add_argument("--rounds", type=int, help="round limit (default 4 x (cols + rows))")
    cm.add_argument("--seed", type=int, default=1, help="seed for the random strategies")
    cm.add_argument("--json", action="store_true", help="print JSON")
    cm.set_defaults(func=play_catmouse)
