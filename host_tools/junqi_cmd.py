"""`python -m host_tools junqi …`: railway routes and AI tournaments (against a
random player or the other AI strength) for Junqi (军棋), using the firmware
modules unchanged."""

import json

import host_tools.fwpath  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.cli import UserError, plural

import junqi_ai as ja
import junqi_board as jb
import junqi_flip as jf


def _cell(name):
    try:
        return jb.parse_cell(name.strip())
    except ValueError as exc:
        raise UserError(str(exc))


def route(src, dst, occupied, engineer):
    """{"steps": N, "path": [...]} or {"steps": None} for a piece at src.

    Occupied cells are other pieces of the opposing side: the route may end on
    one (an attack, unless it stands in a camp) but never pass through one."""
    router = jb.Router()
    for c in occupied:
        if c != src:
            router.occ[c] = 2
    router.occ[src] = 1
    steps = router.route(src, dst, 1, jb.ENGINEER if engineer else jb.NORMAL)
    if steps is None:
        return {"steps": None}
    return {"steps": steps, "path": [jb.cell_name(c) for c in router.path_cells()]}


def _route_cmd(args):
    src = _cell(args.src)
    dst = _cell(args.dst)
    occupied = [_cell(n) for n in args.occupied.split(",") if n.strip()] if args.occupied else []
    res = route(src, dst, occupied, args.engineer)
    if args.json:
        print(json.dumps(res))
    elif res["steps"] is None:
        print("no legal route from %s to %s" % (args.src.upper(), args.dst.upper()))
    else:
        print("%s: %s" % (plural(res["steps"], "step"), " ".join(res["path"])))
    return 0


PLAYERS = ("full", "easy", "random")


def _player(name, seed):
    if name == "random":
        return ja.RandomPlayer(seed=seed)
    return ja.AI(seed=seed, easy=name == "easy")


def tournament(games, seed, quiet_limit=80, ai="full", opponent="random"):
    """``ai`` vs ``opponent`` ("full" / "easy" AI or "random"), seats
    alternating; returns a summary dict counted from ``ai``'s side."""
    wins = losses = draws = plies = 0
    for g in range(games):
        game = jf.FlipGame(seed=seed * 100003 + g, quiet_limit=quiet_limit)
        ai_seat = g % 2
        players = [None, None]
        players[ai_seat] = _player(ai, seed + 2 * g)
        players[1 - ai_seat] = _player(opponent, seed + 2 * g + 1)
        w = ja.play(game, players)
        plies += game.plies
        if w == ai_seat:
            wins += 1
        elif w == jf.DRAW:
            draws += 1
        else:
            losses += 1
    return {"ai": ai, "opponent": opponent, "games": games, "wins": wins, "losses": losses,
            "draws": draws, "win_rate": wins / games if games else 0.0,
            "mean_plies": plies / games if games else 0.0}


def _tournament_cmd(args):
    if args.games < 1:
        raise UserError("--games must be at least 1")
    res = tournament(args.games, args.seed, ai=args.ai, opponent=args.opponent)
    if args.json:
        print(json.dumps(res))
    else:
        goal = " (goal >= 95%)" if (args.ai, args.opponent) == ("full", "random") else ""
        print("%s AI vs %s: %s, %d won, %d lost, %d drawn; win rate %.1f%%%s, "
              "%.0f plies per game" % (
                  args.ai, args.opponent if args.opponent == "random" else args.opponent + " AI",
                  plural(res["games"], "game"), res["wins"], res["losses"], res["draws"],
                  100 * res["win_rate"], goal, res["mean_plies"]))
    return 0


def register(subparsers):
    parser = subparsers.add_parser("junqi", help="Junqi railway routes and AI tournaments")
    sub = parser.add_subparsers(dest="junqi_command", metavar="ACTION")
    sub.required = True
    p = sub.add_parser("route", help="shortest legal route of a piece")
    p.add_argument("src", metavar="FROM", help="start cell, e.g. B0 (rows A-L, columns 0-4)")
    p.add_argument("dst", metavar="TO", help="destination cell")
    p.add_argument("--engineer", action="store_true", help="the piece is an engineer (工兵)")
    p.add_argument("--occupied", default="", help="comma-separated cells holding enemy pieces")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_route_cmd)
    p = sub.add_parser("tournament", help="device AI against a random player (or another AI)")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--ai", choices=PLAYERS[:2], default="full",
                   help="the AI measured: full (NORMAL/HARD on the handheld) or easy (EASY)")
    p.add_argument("--opponent", choices=PLAYERS, default="random", help="who it plays against")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_tournament_cmd)
