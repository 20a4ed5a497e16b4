"""`python -m host_tools trapcat tournament`: cats against blockers from seeded
random starts; reports the cat's escape rate.

A strategy is a built-in name or ``module:function`` (``file.py:function``):
a callable ``(board, cat_cell, legal_moves) -> cell`` where ``board`` is the
size*size cells as ``bytes`` (row-major, 0 free, non-zero blocked) with
``board.size`` / ``.cols`` / ``.rows``, and ``legal_moves`` a tuple of the
cells it may choose.  Plug-ins follow host_tools/core/plugins.py: a hang, an
exception, an illegal answer or a wrong type is a foul that loses that game
for that side, is counted and named in the report, and the tournament goes on.
"""

import json
import sys

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import trapcat
import trapcat_ai
from host_tools.core import plugins
from host_tools.core import UserError, plural
from host_tools.games import trapcat_plugin

MAX_TURNS = 400


class PluginSide:
    """Adapts a user strategy (in its worker process) to ``choose(board)``;
    raises plugins.Foul."""

    def __init__(self, spec, is_cat, move_timeout):
        self.spec = spec
        self.is_cat = is_cat
        self.buf = bytearray(6)
        self.runner = plugins.PluginStrategy(spec, trapcat_plugin.view, move_timeout)

    def choose(self, board):
        if self.is_cat:
            m = board.free_neighbours(board.cat, self.buf)
            legal = tuple(self.buf[i] for i in range(m))
        else:
            legal = tuple(x for x in range(board.n) if not board.cells[x] and x != board.cat)
            if not legal:
                return trapcat.NONE
        answer = self.runner.ask(trapcat_plugin.payload(board, legal))
        plugins.check_cell(answer, legal, "cell" if self.is_cat else "block")
        return answer

    def close(self):
        self.runner.close()


def game_seed(seed, index):
    return (seed * 7919 + index * 104729 + 17) & 0x3FFFFFFF


def make_side(spec, is_cat, board, seed, move_timeout=plugins.DEFAULT_MOVE_TIMEOUT):
    names = trapcat_ai.CAT_NAMES if is_cat else trapcat_ai.BLOCKER_NAMES
    if spec in names:
        if is_cat:
            return trapcat_ai.make_cat(spec, board, seed)
        return trapcat_ai.make_blocker(spec, board, seed)
    return PluginSide(spec, is_cat, move_timeout)


def play_game(board, cat, blocker, rng_seed, blocks):
    """One game from a seeded start.  Returns (winner, turns, foul) with
    winner "cat" or "blocker" and foul None or a dict (side, kind, turn, foul)."""
    board.reset(trapcat.Rng(rng_seed), blocks)
    turns = 0
    while board.status == trapcat.PLAYING and turns < MAX_TURNS:
        turns += 1
        try:
            b = blocker.choose(board)
        except plugins.Foul as foul:
            return "cat", turns, _foul("blocker", foul, turns)
        if b == trapcat.NONE and _no_free(board):
            return "cat", turns, None
        board.block(b)
        if board.status != trapcat.PLAYING:
            break
        try:
            c = cat.choose(board)
        except plugins.Foul as foul:
            return "blocker", turns, _foul("cat", foul, turns)
        board.move_cat(c)
    if board.status == trapcat.CAT_WON:
        return "cat", turns, None
    return "blocker", turns, None


def _foul(side, foul, turn):
    text = foul.detail
    if foul.kind == "illegal":
        text = "illegal %s: %s" % ("cat move" if side == "cat" else "block", foul.detail)
    return {"side": side, "kind": foul.kind, "turn": turn, "foul": text}


def _no_free(board):
    for x in range(board.n):
        if not board.cells[x] and x != board.cat:
            return False
    return True


def run_match(cat_spec, blocker_spec, games, seed, blocks=12, size=9,
              first_game=0, progress=False, move_timeout=plugins.DEFAULT_MOVE_TIMEOUT,
              interruptible=False):
    """Play games first_game..first_game+games-1; returns a dict of results.
    With ``interruptible``, Ctrl-C stops after the games finished so far:
    ``interrupted`` is then True and ``games`` counts the games played
    (otherwise KeyboardInterrupt propagates, after the workers are stopped)."""
    board = trapcat.Board(size)
    sides = []
    escapes = 0
    total_turns = 0
    played = 0
    fouls = []
    interrupted = False
    try:
        cat = make_side(cat_spec, True, board, seed * 31 + 1, move_timeout)
        sides.append(cat)
        blocker = make_side(blocker_spec, False, board, seed * 37 + 2, move_timeout)
        sides.append(blocker)
        it = range(first_game, first_game + games)
        if progress:
            from tqdm import tqdm
            it = tqdm(it, desc="%s vs %s" % (cat_spec, blocker_spec), unit="game",
                      file=sys.stderr, leave=False)
        for g in it:
            winner, turns, foul = play_game(board, cat, blocker, game_seed(seed, g), blocks)
            played += 1
            total_turns += turns
            if winner == "cat":
                escapes += 1
            if foul:
                foul["game"] = g + 1
                foul["strategy"] = cat_spec if foul["side"] == "cat" else blocker_spec
                fouls.append(foul)
    except KeyboardInterrupt:
        if not interruptible:
            raise
        interrupted = True
    finally:
        for side in sides:
            if isinstance(side, PluginSide):
                side.close()
    return {"cat": cat_spec, "blocker": blocker_spec, "games": played, "escapes": escapes,
            "escape_rate": escapes / played if played else 0.0,
            "mean_turns": total_turns / played if played else 0.0,
            "seed": seed, "blocks": blocks, "size": size, "fouls": fouls,
            "foul_counts": plugins.foul_counts(fouls), "interrupted": interrupted}


def _run_tournament(args):
    if args.games < 1:
        raise UserError("--games must be at least 1")
    if not 3 <= args.size <= trapcat.MAX_SIZE:
        raise UserError("--size must be 3..%d" % trapcat.MAX_SIZE)
    if not 0 <= args.blocks < args.size * args.size - 1:
        raise UserError("--blocks must be 0..%d" % (args.size * args.size - 2))
    for spec, names in ((args.cat, trapcat_ai.CAT_NAMES), (args.blocker, trapcat_ai.BLOCKER_NAMES)):
        if spec not in names and ":" not in spec:
            raise UserError("unknown strategy %r: use one of %s or module:function"
                            % (spec, ", ".join(names)))
    plugins.check_move_timeout(args.move_timeout)
    res = run_match(args.cat, args.blocker, args.games, args.seed, args.blocks, args.size,
                    progress=args.games >= 50 and not args.json, move_timeout=args.move_timeout,
                    interruptible=True)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print("cat %s vs blocker %s: %s, %dx%d, %s, seed %d%s"
              % (res["cat"], res["blocker"], plural(res["games"], "game"), args.size, args.size,
                 plural(args.blocks, "start block"), args.seed,
                 " (interrupted: %d of %d played)" % (res["games"], args.games)
                 if res["interrupted"] else ""))
        print("cat escaped %d/%d (%.1f%%), mean %.1f turns"
              % (res["escapes"], res["games"], 100.0 * res["escape_rate"], res["mean_turns"]))
        plugins.print_fouls(res, lambda f: "game %d, turn %d" % (f["game"], f["turn"]))
    return plugins.finish(res)


def register(subparsers):
    parser = subparsers.add_parser("trapcat", help="Trap the Cat tools (tournament)")
    sub = parser.add_subparsers(dest="trapcat_command", metavar="SUBCOMMAND")
    sub.required = True
    t = sub.add_parser("tournament", help="play cats against blockers, report escape rate")
    t.add_argument("--cat", default="hard",
                   help="easy|normal|hard|module:function (default hard)")
    t.add_argument("--blocker", default="strong",
                   help="random|greedy|strong|module:function (default strong)")
    t.add_argument("--games", type=int, default=100)
    t.add_argument("--seed", type=int, default=1)
    t.add_argument("--blocks", type=int, default=trapcat.DEFAULT_BLOCKS,
                   help="random blocked cells at the start (default 12)")
    t.add_argument("--size", type=int, default=9, help="board side (default 9)")
    plugins.add_move_timeout_argument(t)
    t.add_argument("--json", action="store_true", help="print the result as JSON")
    t.set_defaults(func=_run_tournament)
