"""`levels trapcat`: generate Trap the Cat start layouts graded by difficulty.

A candidate is a seeded random start (cat in the centre, --blocks random
blocked cells, as Board.reset makes them).  It is graded by playing it out
with the built-in strategies (firmware/trapcat_ai.py, deterministic):
- the strong blocker against the hard cat: does it trap it, with how many
  blocks;
- the strong blocker against the normal cat (the same);
- the greedy blocker against the normal cat.
Bands (only layouts the strong blocker wins against at least the normal cat,
so every level is winnable on the normal setting):
- easy: the strong blocker traps the hard cat and even the greedy blocker
  traps the normal cat;
- medium: the strong blocker traps the hard cat (any other case);
- hard: the strong blocker loses to the hard cat but traps the normal cat.
Layouts already taken, or a mirror image (top-bottom flip, a symmetry of
odd-sized offset-row boards), are skipped.

Output: DIR/trapcat_NNN.txt (grade in ``;`` comment lines, then the board as
trapcat.parse_level reads it) and DIR/pack.json for ``levels pack DIR``.
"""

import random
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401
import trapcat
import trapcat_ai
from host_tools.core import UserError, output_dir, plural
from host_tools.core.levelcheck import write_level_dir
from host_tools.core.levelcheck import game_module
from host_tools.commands.trapcat_cmd import MAX_TURNS

DIFFICULTIES = ("easy", "medium", "hard")
MAX_TRIES_PER_LEVEL = 300


def play(board, cells, cat_name, blocker_name):
    """(trapped, blocks placed) from the start ``cells``."""
    board.load(cells, board.center)
    cat = trapcat_ai.make_cat(cat_name, board, 1)
    blocker = trapcat_ai.make_blocker(blocker_name, board, 1)
    turns = 0
    while board.status == trapcat.PLAYING and turns < MAX_TURNS:
        turns += 1
        board.block(blocker.choose(board))
        if board.status != trapcat.PLAYING:
            break
        board.move_cat(cat.choose(board))
    return board.status == trapcat.PLAYER_WON, board.moves


def grade(board, cells):
    hard_won, hard_blocks = play(board, cells, "hard", "strong")
    normal_won, normal_blocks = play(board, cells, "normal", "strong")
    greedy_won, _ = play(board, cells, "normal", "greedy")
    g = {"strong_traps_hard": hard_won, "strong_blocks_vs_hard": hard_blocks,
         "strong_traps_normal": normal_won, "strong_blocks_vs_normal": normal_blocks,
         "greedy_traps_normal": greedy_won}
    if hard_won and greedy_won:
        g["difficulty"] = "easy"
    elif hard_won:
        g["difficulty"] = "medium"
    elif normal_won:
        g["difficulty"] = "hard"
    else:
        g["difficulty"] = None      # not known to be winnable: never kept
    return g


def variants(board):
    """The layout's keys: itself and (odd sizes) its top-bottom mirror."""
    size = board.size
    cells = bytes(board.cells)
    keys = [cells]
    if size & 1:
        keys.append(b"".join(cells[(size - 1 - r) * size:(size - r) * size] for r in range(size)))
    return keys


def generate(count, size, blocks, difficulty, seed, progress=None):
    """[(text, grade)] of ``count`` distinct layouts in the band."""
    rnd = random.Random(seed)
    board = trapcat.Board(size)
    seen = set()
    out = []
    tries = 0
    while len(out) < count:
        tries += 1
        if tries > MAX_TRIES_PER_LEVEL * count:
            raise UserError("found only %s with %s in %s; try another --difficulty or --blocks"
                            % (plural(len(out), "%s %dx%d layout" % (difficulty, size, size)),
                               plural(blocks, "block"), plural(tries - 1, "try", "tries")))
        board.reset(trapcat.Rng(rnd.randrange(1 << 30)), blocks)
        if board.status != trapcat.PLAYING or bytes(board.cells) in seen:
            continue
        start = bytes(board.cells)
        g = grade(board, start)
        if g["difficulty"] != difficulty:
            continue
        board.load(start, board.center)
        seen.update(variants(board))
        out.append((trapcat.level_text(board), g))
        if progress is not None:
            progress.update(1)
    return out


def cmd_trapcat(args):
    if args.count < 1:
        raise UserError("--count must be at least 1")
    if not 5 <= args.size <= trapcat.MAX_SIZE:
        raise UserError("--size must be 5..%d" % trapcat.MAX_SIZE)
    screen = game_module("trapcat").MAX_SIDE
    if args.size > screen:
        raise UserError("--size %d: the handheld's screen fits %dx%d boards at most"
                        % (args.size, screen, screen))
    if not 0 <= args.blocks <= args.size * args.size // 2:
        raise UserError("--blocks must be 0..%d" % (args.size * args.size // 2))
    from tqdm import tqdm
    out = Path(args.output)
    with output_dir(out):
        with tqdm(total=args.count, desc="trapcat %s" % args.difficulty, unit="level",
                  disable=args.quiet) as bar:
            levels = generate(args.count, args.size, args.blocks, args.difficulty, args.seed, bar)
        files = []
        for text, g in levels:
            head = ("; Trap the Cat %dx%d, %d start blocks, %s: strong blocker vs hard cat: %s; "
                    "vs normal cat: %s\n" % (
                        args.size, args.size, args.blocks, g["difficulty"],
                        ("trapped in %d blocks" % g["strong_blocks_vs_hard"])
                        if g["strong_traps_hard"] else "escapes",
                        ("trapped in %d blocks" % g["strong_blocks_vs_normal"])
                        if g["strong_traps_normal"] else "escapes"))
            files.append((head + text, g))
        write_level_dir(out, "trapcat", files, size=args.size, blocks=args.blocks, seed=args.seed)
    print("wrote %s to %s" % (plural(len(levels), "layout"), out))
    return 0


def add_parser(sub):
    p = sub.add_parser("trapcat", help="generate graded Trap the Cat start layouts")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--size", type=int, default=9, help="board side (default 9)")
    p.add_argument("--blocks", type=int, default=trapcat.DEFAULT_BLOCKS,
                   help="random blocked cells at the start (default 12)")
    p.add_argument("--difficulty", choices=DIFFICULTIES, default="medium")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-o", "--output", required=True, help="output directory")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_trapcat)
