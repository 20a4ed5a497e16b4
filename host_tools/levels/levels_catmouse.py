"""`levels catmouse`: generate graded Cat & Mouse maps.

Each candidate map is random terrain (obstacles, and with --terrain grass and
streams) with the cat and mouse placed apart.  It is kept only when
- the mouse is reachable from the cat (GridSearch.bfs),
- no earlier map is the same or a mirror image of it,
- its grade falls in the asked difficulty band.
Grade: the built-in cat (BFS, or A* with --terrain) plays the built-in evasive
mouse (firmware/catmouse_ai.py) under the game's rules (firmware/catmouse.py);
the fraction of the round limit the mouse survives decides the band:
easy < 0.35 <= medium < 0.7 <= hard (hard includes escaping to the limit).
Recorded too: optimal BFS moves and A* stamina from cat to mouse.

Output: DIR/catmouse_NNN.txt (the grade in ``;`` comment lines, which
parse_map ignores) and DIR/pack.json (game and grades) for ``levels pack DIR``.
"""

import random
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401
import catmouse
import catmouse_ai
from gridpath import GridSearch
from host_tools.core import UserError, output_dir, plural
from host_tools.core.levelcheck import write_level_dir
from host_tools.core.levelcheck import game_module

BANDS = {"easy": (0.0, 0.35), "medium": (0.35, 0.7), "hard": (0.7, 1.01)}
OBSTACLES = {"easy": 0.08, "medium": 0.14, "hard": 0.2}
MAX_TRIES_PER_MAP = 400


def parse_size(text):
    try:
        if not text.isascii():      # int() would read Unicode digits
            raise ValueError(text)
        cols, rows = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UserError("--size must look like 16x8, got %r" % text) from None
    if not (4 <= cols <= catmouse.MAX_SIDE and 4 <= rows <= catmouse.MAX_SIDE):
        raise UserError("--size %s: each side must be 4..%d" % (text, catmouse.MAX_SIDE))
    screen = game_module("catmouse")
    if cols > screen._SCREEN_COLS or rows > screen._SCREEN_ROWS:
        raise UserError("--size %s: the handheld's screen fits %dx%d at most"
                        % (text, screen._SCREEN_COLS, screen._SCREEN_ROWS))
    return cols, rows


def random_map(rnd, cols, rows, terrain, obstacle_rate):
    n = cols * rows
    costs = bytearray(n)
    for i in range(n):
        r = rnd.random()
        if r < obstacle_rate:
            costs[i] = 0
        elif terrain and r < obstacle_rate + 0.18:
            costs[i] = 2
        elif terrain and r < obstacle_rate + 0.28:
            costs[i] = 3
        else:
            costs[i] = 1
    # cat in the left third, mouse in the right third
    third = max(1, cols // 3)
    cat = rnd.randrange(rows) * cols + rnd.randrange(third)
    mouse = rnd.randrange(rows) * cols + cols - 1 - rnd.randrange(third)
    costs[cat] = 1
    costs[mouse] = 1
    return catmouse.CatMouseMap(cols, rows, costs, cat, mouse)


def variants(text):
    """The map and its mirror images (so mirrored maps count as alike)."""
    lines = text.rstrip("\n").split("\n")
    flips = (lines, [row[::-1] for row in lines], lines[::-1], [row[::-1] for row in lines[::-1]])
    return ["\n".join(f) for f in flips]


def grade(cmap, terrain, search=None):
    """dict: bfs moves, astar stamina, rounds survived, round limit, survival."""
    search = search or GridSearch(cmap.cols, cmap.rows)
    search.load(cmap.costs)
    moves = search.bfs(cmap.cat, cmap.mouse)
    if moves is None:
        return None
    stamina = search.astar(cmap.cat, cmap.mouse)
    game = catmouse.CatMouseGame(cmap, terrain=terrain)
    cat = catmouse_ai.make("astar" if terrain else "bfs")
    mouse = catmouse_ai.make("evasive")
    winner = game.play(cat, mouse)
    survived = game.round if winner == "cat" else game.round_limit
    return {"bfs_moves": moves, "astar_stamina": stamina, "rounds_survived": survived,
            "round_limit": game.round_limit, "caught": winner == "cat",
            "survival": round(survived / game.round_limit, 3)}


def band_of(g):
    for name, (lo, hi) in BANDS.items():
        if lo <= g["survival"] < hi:
            return name
    return "hard"


def generate(count, cols, rows, terrain, difficulty, seed, progress=None):
    """[(text, grade)] of ``count`` distinct maps in the difficulty band."""
    rnd = random.Random(seed)
    search = GridSearch(cols, rows)
    seen = set()
    out = []
    tries = 0
    min_dist = max(3, (cols + rows) // 3)
    while len(out) < count:
        tries += 1
        if tries > MAX_TRIES_PER_MAP * count:
            raise UserError("found only %s in %s; try another --difficulty or --size"
                            % (plural(len(out), "%s %dx%d map" % (difficulty, cols, rows)),
                               plural(tries - 1, "try", "tries")))
        rate = OBSTACLES[difficulty] * (0.5 + rnd.random())
        cmap = random_map(rnd, cols, rows, terrain, rate)
        text = cmap.to_text()
        if text.rstrip("\n") in seen:
            continue
        g = grade(cmap, terrain, search)
        if g is None or g["bfs_moves"] < min_dist or band_of(g) != difficulty:
            continue
        seen.update(variants(text))
        g["difficulty"] = difficulty
        out.append((text, g))
        if progress is not None:
            progress.update(1)
    return out


def cmd_catmouse(args):
    cols, rows = parse_size(args.size)
    if args.count < 1:
        raise UserError("--count must be at least 1")
    from tqdm import tqdm
    out = Path(args.output)
    with output_dir(out):
        with tqdm(total=args.count, desc="catmouse %s" % args.difficulty, unit="map",
                  disable=args.quiet) as bar:
            maps = generate(args.count, cols, rows, args.terrain, args.difficulty, args.seed, bar)
        files = []
        for text, g in maps:
            head = ("; Cat & Mouse %dx%d%s, %s: cat reaches mouse in %d moves (A* stamina %d); "
                    "the built-in mouse survives %d of %d rounds\n" % (
                        cols, rows, " terrain" if args.terrain else "", g["difficulty"],
                        g["bfs_moves"], g["astar_stamina"], g["rounds_survived"], g["round_limit"]))
            files.append((head + text, g))
        write_level_dir(out, "catmouse", files, size="%dx%d" % (cols, rows), terrain=args.terrain,
                        seed=args.seed)
    print("wrote %s to %s" % (plural(len(maps), "map"), out))
    return 0


def add_parser(sub):
    p = sub.add_parser("catmouse", help="generate graded Cat & Mouse maps")
    p.add_argument("--count", type=int, default=10)
    p.add_argument("--size", default="16x8", help="COLSxROWS (default 16x8)")
    p.add_argument("--terrain", action="store_true", help="grass and streams (stamina)")
    p.add_argument("--difficulty", choices=sorted(BANDS), default="medium")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-o", "--output", required=True, help="output directory")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_catmouse)
