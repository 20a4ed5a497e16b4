"""`python -m host_tools junqi …`: railway routes and AI tournaments (against a
random player, the other AI strength or your own strategy) for Junqi (军棋),
using the firmware modules unchanged.  A strategy ``module:function`` follows
host_tools/core/plugins.py: a foul loses that game and the tournament goes on."""

import json

import host_tools.core.fwpath  # noqa: F401  (puts firmware/ on sys.path)
from host_tools.core import plugins
from host_tools.core import UserError, plural
from host_tools.games import junqi_plugin

import junqi_ai as ja
import junqi_board as jb
import junqi_flip as jf


def _cell(name):
    try:
        return jb.parse_cell(name.strip())
    except ValueError as exc:
        raise UserError(str(exc)) from None


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


class PluginPlayer:
    """A user strategy ``(board, me, legal_moves) -> move`` in its worker
    process, as a player with ``choose(model)`` (a junqi_flip.FlipGame);
    raises plugins.Foul.  ``seat``
    is set per game (seats alternate)."""

    def __init__(self, spec, move_timeout):
        self.spec = spec
        self.seat = 0
        self.runner = plugins.PluginStrategy(spec, junqi_plugin.view, move_timeout)

    def choose(self, model):
        n = model.legal_moves()
        legal = list(model.moves[:n])
        answer = self.runner.ask(junqi_plugin.payload(model, self.seat, legal))
        plugins.check_cell(answer, legal, "move", "moves")
        return answer

    def close(self):
        self.runner.close()


def _player(name, seed):
    if name == "random":
        return ja.RandomPlayer(seed=seed)
    return ja.AI(seed=seed, easy=name == "easy")


def tournament(games, seed, quiet_limit=80, ai="full", opponent="random",
               move_timeout=plugins.DEFAULT_MOVE_TIMEOUT, interruptible=False,
               mines_guard_flag=False):
    """``ai`` vs ``opponent`` ("full" / "easy" AI, "random" or a plug-in
    ``module:function``), seats alternating; returns a summary dict counted
    from ``ai``'s side.  A plug-in's foul loses it that game.  With
    ``interruptible``, Ctrl-C ends the run with the games played so far.
    ``mines_guard_flag``: the variant rule (a flag may be attacked only once
    its colour has no mines left)."""
    wins = losses = draws = plies = played = 0
    fouls = []
    interrupted = False
    plugin = PluginPlayer(opponent, move_timeout) if opponent not in PLAYERS else None
    try:
        for g in range(games):
            model = jf.FlipGame(seed=seed * 100003 + g, quiet_limit=quiet_limit,
                                mines_guard_flag=mines_guard_flag)
            ai_seat = g % 2
            players = [None, None]
            players[ai_seat] = _player(ai, seed + 2 * g)
            if plugin is None:
                players[1 - ai_seat] = _player(opponent, seed + 2 * g + 1)
            else:
                plugin.seat = 1 - ai_seat
                players[1 - ai_seat] = plugin
            try:
                w = ja.play(model, players)
            except plugins.Foul as foul:
                w = ai_seat
                fouls.append({"game": g + 1, "side": "opponent", "strategy": opponent,
                              "kind": foul.kind, "ply": model.plies + 1, "foul": foul.detail})
            played += 1
            plies += model.plies
            if w == ai_seat:
                wins += 1
            elif w == jf.DRAW:
                draws += 1
            else:
                losses += 1
    except KeyboardInterrupt:
        if not interruptible:
            raise
        interrupted = True
    finally:
        if plugin is not None:
            plugin.close()
    res = {"ai": ai, "opponent": opponent, "games": played, "wins": wins, "losses": losses,
           "draws": draws, "win_rate": wins / played if played else 0.0,
           "mean_plies": plies / played if played else 0.0, "mines_guard_flag": mines_guard_flag}
    if plugin is not None:
        res.update(fouls=fouls, foul_counts=plugins.foul_counts(fouls))
    if interruptible:
        res["interrupted"] = interrupted
    return res


def _tournament_cmd(args):
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if args.opponent not in PLAYERS and ":" not in args.opponent:
        raise UserError("unknown opponent %r: use one of %s or module:function"
                        % (args.opponent, ", ".join(PLAYERS)))
    plugins.check_move_timeout(args.move_timeout)
    res = tournament(args.games, args.seed, ai=args.ai, opponent=args.opponent,
                     move_timeout=args.move_timeout, interruptible=True,
                     mines_guard_flag=args.mines_guard_flag)
    if args.json:
        print(json.dumps(res))
    else:
        goal = " (goal >= 95%)" if (args.ai, args.opponent) == ("full", "random") else ""
        who = args.opponent if args.opponent not in ("full", "easy") else args.opponent + " AI"
        print("%s AI vs %s: %s%s, %d won, %d lost, %d drawn; win rate %.1f%%%s, "
              "%.0f %s per game" % (
                  args.ai, who, plural(res["games"], "game"),
                  " (interrupted: %d of %d played)" % (res["games"], args.games)
                  if res["interrupted"] else "",
                  res["wins"], res["losses"], res["draws"],
                  100 * res["win_rate"], goal, res["mean_plies"],
                  "ply" if round(res["mean_plies"]) == 1 else "plies"))
        plugins.print_fouls(res, lambda f: "game %d, ply %d" % (f["game"], f["ply"]))
    return plugins.finish(res)


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
    p.add_argument("--opponent", default="random",
                   help="who it plays against: random, full, easy or module:function "
                        "(default random)")
    p.add_argument("--mines-guard-flag", action="store_true",
                   help="play the variant rule: a flag may be attacked only once its "
                        "colour has no mines left")
    plugins.add_move_timeout_argument(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=_tournament_cmd)
