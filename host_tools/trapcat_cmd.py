"""`python -m host_tools trapcat tournament`: cats against blockers from seeded
random starts; reports the cat's escape rate.

A strategy is a built-in name or ``module:function`` (``file.py:function``):
a callable ``(board, cat_cell, legal_moves) -> cell`` where ``board`` is a
bytes object of size*size cells (row-major, 0 free, non-zero blocked) and
``legal_moves`` a tuple of the cells it may choose.  An illegal answer is
reported with the game and move number and loses the game for that side.
"""

import json
import sys

import host_tools.fwpath  # noqa: F401  (firmware/ on sys.path)
import trapcat
import trapcat_ai
from host_tools.cli import UserError

MAX_TURNS = 400


class PluginSide:
    """Adapts a user callable to ``choose(board)``."""

    def __init__(self, func, is_cat, spec):
        self.func = func
        self.is_cat = is_cat
        self.spec = spec
        self.buf = bytearray(6)
        self.last_legal = ()

    def choose(self, board):
        if self.is_cat:
            m = board.free_neighbours(board.cat, self.buf)
            legal = tuple(self.buf[i] for i in range(m))
        else:
            legal = tuple(x for x in range(board.n) if not board.cells[x] and x != board.cat)
        self.last_legal = legal
        return self.func(bytes(board.cells), board.cat, legal)


def game_seed(seed, index):
    return (seed * 7919 + index * 104729 + 17) & 0x3FFFFFFF


def make_side(spec, is_cat, board, seed):
    names = trapcat_ai.CAT_NAMES if is_cat else trapcat_ai.BLOCKER_NAMES
    if spec in names:
        if is_cat:
            return trapcat_ai.make_cat(spec, board, seed)
        return trapcat_ai.make_blocker(spec, board, seed)
    from host_tools.plugins import load_callable
    return PluginSide(load_callable(spec), is_cat, spec)


def play_game(board, cat, blocker, rng_seed, blocks):
    """One game from a seeded start.  Returns (winner, turns, foul) with
    winner "cat" or "blocker" and foul None or a description."""
    board.reset(trapcat.Rng(rng_seed), blocks)
    turns = 0
    while board.status == trapcat.PLAYING and turns < MAX_TURNS:
        turns += 1
        try:
            b = blocker.choose(board)
        except Exception as exc:  # a plug-in crash is a foul
            return "cat", turns, "blocker raised %s: %s" % (type(exc).__name__, exc)
        if not isinstance(b, int) or not board.can_block(b):
            if b == trapcat.NONE and _no_free(board):
                return "cat", turns, None
            return "cat", turns, "illegal block %r at turn %d" % (b, turns)
        board.block(b)
        if board.status != trapcat.PLAYING:
            break
        try:
            c = cat.choose(board)
        except Exception as exc:
            return "blocker", turns, "cat raised %s: %s" % (type(exc).__name__, exc)
        if not isinstance(c, int) or not board.can_move(c):
            return "blocker", turns, "illegal cat move %r at turn %d" % (c, turns)
        board.move_cat(c)
    if board.status == trapcat.CAT_WON:
        return "cat", turns, None
    return "blocker", turns, None


def _no_free(board):
    for x in range(board.n):
        if not board.cells[x] and x != board.cat:
            return False
    return True


def run_match(cat_spec, blocker_spec, games, seed, blocks=12, size=9,
              first_game=0, progress=False):
    """Play games first_game..first_game+games-1; returns a dict of results."""
    board = trapcat.Board(size)
    cat = make_side(cat_spec, True, board, seed * 31 + 1)
    blocker = make_side(blocker_spec, False, board, seed * 37 + 2)
    escapes = 0
    total_turns = 0
    fouls = []
    it = range(first_game, first_game + games)
    if progress:
        from tqdm import tqdm
        it = tqdm(it, desc="%s vs %s" % (cat_spec, blocker_spec), unit="game",
                  file=sys.stderr, leave=False)
    for g in it:
        winner, turns, foul = play_game(board, cat, blocker, game_seed(seed, g), blocks)
        total_turns += turns
        if winner == "cat":
            escapes += 1
        if foul:
            fouls.append({"game": g + 1, "foul": foul})
    return {"cat": cat_spec, "blocker": blocker_spec, "games": games, "escapes": escapes,
            "escape_rate": escapes / games if games else 0.0,
            "mean_turns": total_turns / games if games else 0.0,
            "seed": seed, "blocks": blocks, "size": size, "fouls": fouls}


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
    res = run_match(args.cat, args.blocker, args.games, args.seed, args.blocks, args.size,
                    progress=args.games >= 50 and not args.json)
    if args.json:
        print(json.dumps(res, indent=1))
    else:
        print("cat %s vs blocker %s: %d games, %dx%d, %d start blocks, seed %d"
              % (res["cat"], res["blocker"], res["games"], args.size, args.size,
                 args.blocks, args.seed))
        print("cat escaped %d/%d (%.1f%%), mean %.1f turns"
              % (res["escapes"], res["games"], 100.0 * res["escape_rate"], res["mean_turns"]))
        for f in res["fouls"]:
            print("game %d: %s (counted as a loss for that side)" % (f["game"], f["foul"]))
    return 0


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
    t.add_argument("--json", action="store_true", help="print the result as JSON")
    t.set_defaults(func=_run_tournament)
