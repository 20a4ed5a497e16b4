"""`python -m host_tools play catmouse MAP --cat … --mouse … [--rounds N] [--json]`:
a whole game, headless.  User strategies run under host_tools/core/plugins.py: a
hang, an exception, an illegal answer or a wrong type is a foul that loses the
game for that side and is named in the report."""

import json
import sys

import host_tools.core.fwpath  # noqa: F401
import catmouse_ai
from catmouse import CatMouseGame

from host_tools.core import plugins
from host_tools.core import UserError, plural
from host_tools.games import catmouse_plugin
from host_tools.games.catmouse_mapfile import read_map

MOUSE_NAMES = ("easy", "normal", "hard")    # the handheld's mice, by difficulty
BUILTIN = ("bfs", "astar", "evasive", "random", "stay") + MOUSE_NAMES


def difficulty_mouse(name, seed):
    """The handheld's mouse of difficulty ``name`` (catmouse_ai.MOUSE_SLIPS, as
    catmouse_match.Match.start makes it): the random mouse, or the evasive one
    that slips."""
    slip = catmouse_ai.MOUSE_SLIPS[MOUSE_NAMES.index(name)]
    return catmouse_ai.RandomMover(seed) if slip == 1 else catmouse_ai.EvasiveMouse(slip, seed)


class StayPut:
    """Keeps its piece where it is: the article's side without a handler
    (either piece may stay: the cat waits a round)."""

    def __call__(self, board, position, legal):
        return position


class PluginPiece:
    """A user strategy in its worker process, called like a built-in one;
    raises plugins.Foul instead of answering badly."""

    def __init__(self, spec, side, move_timeout):
        self.spec = spec
        self.side = side
        self.runner = plugins.PluginStrategy(spec, catmouse_plugin.view, move_timeout)

    def __call__(self, board, position, legal):
        try:
            answer = self.runner.ask(catmouse_plugin.payload(board, position, legal))
            plugins.check_cell(answer, legal)
        except plugins.Foul as foul:
            foul.side, foul.spec = self.side, self.spec
            raise
        return answer

    def close(self):
        self.runner.close()


def strategy(spec, seed, side="cat", move_timeout=plugins.DEFAULT_MOVE_TIMEOUT):
    if spec == "stay":
        return StayPut()
    if spec in MOUSE_NAMES:
        return difficulty_mouse(spec, seed)
    if spec in BUILTIN:
        return catmouse_ai.make(spec, seed)
    if ":" not in spec:
        raise UserError("unknown strategy %r: use one of %s or module:function"
                        % (spec, ", ".join(BUILTIN)))
    return PluginPiece(spec, side, move_timeout)


def play_game(game, cat, mouse):
    """Play to the end; returns the foul dict that ended the game, or None."""
    try:
        while not game.winner:
            game.play_round(cat, mouse)
    except plugins.Foul as foul:
        game.winner = "mouse" if foul.side == "cat" else "cat"
        return {"side": foul.side, "strategy": foul.spec, "kind": foul.kind,
                "round": game.round, "foul": foul.detail}
    return None


def play_catmouse(args):
    cmap = read_map(args.map)
    if args.rounds is not None and args.rounds < 1:
        raise UserError("--rounds must be at least 1")
    plugins.check_move_timeout(args.move_timeout)
    cat_spec = args.cat or ("astar" if cmap.terrain else "bfs")
    game = CatMouseGame(cmap, round_limit=args.rounds or 0)
    pieces = []
    try:
        cat = strategy(cat_spec, args.seed, "cat", args.move_timeout)
        pieces.append(cat)
        mouse = strategy(args.mouse, args.seed + 1, "mouse", args.move_timeout)
        pieces.append(mouse)
        try:
            foul = play_game(game, cat, mouse)
        except KeyboardInterrupt:
            if args.json:
                print(json.dumps({"interrupted": True, "winner": None, "rounds": game.round,
                                  "cat": game.cat, "mouse": game.mouse,
                                  "cat_stamina": game.cat_stamina,
                                  "mouse_stamina": game.mouse_stamina}))
            else:
                print("interrupted in round %d (cat at %d, mouse at %d, stamina: cat %d, mouse %d)"
                      % (game.round, game.cat, game.mouse, game.cat_stamina, game.mouse_stamina))
            raise
    finally:
        for piece in pieces:
            if isinstance(piece, PluginPiece):
                piece.close()
    fouls = [foul] if foul else []
    result = {
        "winner": game.winner, "rounds": game.round, "round_limit": game.round_limit,
        "cat": game.cat, "mouse": game.mouse,
        "cat_stamina": game.cat_stamina, "mouse_stamina": game.mouse_stamina,
        "fouls": fouls, "foul_counts": plugins.foul_counts(fouls), "interrupted": False,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    if foul:
        print("round %d: FOUL by the %s (%s): %s; the %s wins"
              % (foul["round"], foul["side"], foul["strategy"], foul["foul"], game.winner))
    elif game.winner == "cat":
        print("the cat caught the mouse in round %d (stamina: cat %d, mouse %d)"
              % (game.round, game.cat_stamina, game.mouse_stamina))
    else:
        print("the mouse survived all %s (stamina: cat %d, mouse %d)"
              % (plural(game.round, "round"), game.cat_stamina, game.mouse_stamina))
    sys.stdout.flush()
    return 0


def register(subparsers):
    parser = subparsers.add_parser("play", help="play a game headless between strategies")
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    cm = games.add_parser("catmouse", help="Cat & Mouse on a map file")
    cm.add_argument("map", help="map text file")
    cm.add_argument("--cat", help="bfs, astar, random, stay (never moves) or module:function "
                    "(default: bfs, astar on terrain maps)")
    cm.add_argument("--mouse", default="evasive", help="evasive, random, stay (never moves, as the article's demo), "
                    "easy / normal / hard (the handheld's mouse of that difficulty) or "
                    "module:function (default evasive)")
    cm.add_argument("--rounds", type=int, help="round limit (default 4 x (cols + rows))")
    cm.add_argument("--seed", type=int, default=1, help="seed for the random strategies")
    plugins.add_move_timeout_argument(cm)
    cm.add_argument("--json", action="store_true", help="print JSON")
    cm.set_defaults(func=play_catmouse)
