"""`python -m host_tools solve GAME ...`: each game adds its `solve` subcommand
through the "solve" hook of its registry entry (host_tools/core/registry.py), a function
receiving the `solve` sub-subparsers.  Cat & Mouse's is here:
`solve grid MAP --algo bfs|astar [--order default|seed] [--trace] [--json]
[--gif OUT.gif] [--png OUT.png]`."""

import json

import host_tools.core.fwpath  # noqa: F401
from gridpath import GridSearch
from gridpath_seed import SeedSearch

from host_tools.core import registry
from host_tools.core import plural
from host_tools.games import catmouse_trace
from host_tools.games.catmouse_mapfile import read_map


def solve_grid(args):
    for name, ext in ((args.gif, "gif"), (args.png, "png")):
        if name is not None:
            catmouse_trace.check_picture_name(name, ext)
    cmap = read_map(args.map)
    if args.trace or args.gif or args.png:
        result = catmouse_trace.trace(cmap, args.algo, args.order)
        if args.gif:
            catmouse_trace.write_gif(args.gif, cmap, result)
        if args.png:
            catmouse_trace.write_png(args.png, cmap, result)
        if args.trace:
            if args.json:
                print(json.dumps(result))
            else:
                print(catmouse_trace.format_trace(result))
                print(_summary(cmap, args.algo, result["cost"], result.get("path", [])))
            return 0
    search = GridSearch(cmap.cols, cmap.rows)
    search.load(cmap.costs)
    solver = SeedSearch(search) if args.order == "seed" else search
    if args.algo == "bfs":
        found = solver.bfs(cmap.cat, cmap.mouse)
    else:
        found = solver.astar(cmap.cat, cmap.mouse)
    path = search.path_cells() if found is not None else []
    if args.json:
        if found is None:
            print(json.dumps({"cost": None}))
        else:
            print(json.dumps({"cost": found, "moves": len(path) - 1, "path": path}))
        return 0
    print(_summary(cmap, args.algo, found, path))
    return 0


def _summary(cmap, algo, found, path):
    if found is None:
        return "no path: the mouse cannot be reached from the cat"
    if algo == "bfs":
        head = "moves: %d" % found
    else:
        head = "stamina: %d (%s)" % (found, plural(len(path) - 1, "move"))
    return "\n".join((head, "path: " + " ".join(str(cell) for cell in path), render_path(cmap, path)))


def render_path(cmap, path):
    """The map with the path drawn as '*' (cat and mouse kept)."""
    on_path = set(path[1:-1])
    lines = []
    for r in range(cmap.rows):
        row = []
        for c in range(cmap.cols):
            cell = r * cmap.cols + c
            if cell == cmap.cat:
                row.append("C")
            elif cell == cmap.mouse:
                row.append("M")
            elif cell in on_path:
                row.append("*")
            else:
                row.append("#.gw"[cmap.costs[cell]])
        lines.append("".join(row))
    return "\n".join(lines)


def add_grid_parser(solvers):
    """Cat & Mouse's `solve grid` (its "solve" hook)."""
    grid = solvers.add_parser("grid", help="shortest cat-to-mouse path on a Cat & Mouse map, "
                                           "or its search round by round")
    grid.add_argument("map", help="map text file (. road, g grass, w stream, # obstacle, C cat, M mouse)")
    grid.add_argument("--algo", choices=("bfs", "astar"), default="bfs",
                      help="bfs: fewest moves; astar: least stamina (default bfs)")
    grid.add_argument("--order", choices=("default", "seed"), default="default",
                      help="default: the games' search (backwards from the mouse, first in first out "
                           "/ least F then last queued); seed: the Cat & Mouse article's (forwards "
                           "from the cat, BFS level by level last found first, A* least F then "
                           "lowest cell number; docs/sources.md)")
    grid.add_argument("--trace", action="store_true",
                      help="print the search round by round: each cell expanded and what it adds, "
                           "the BFS frontier, A*'s open and close lists as cell:F(G+H)")
    grid.add_argument("--json", action="store_true",
                      help="print JSON (with --trace: the rounds, each with its steps, open and "
                           "closed cells)")
    grid.add_argument("--gif", metavar="OUT.gif",
                      help="write an animation: cells shaded in expansion order, the frontier "
                           "outlined, then the path")
    grid.add_argument("--png", metavar="OUT.png", help="write the last frame of --gif as a picture")
    grid.set_defaults(func=solve_grid)


def register(subparsers):
    parser = subparsers.add_parser("solve", help="solve a puzzle or map and print the optimal answer")
    solvers = parser.add_subparsers(dest="game", metavar="GAME")
    solvers.required = True
    for add_parser in registry.solvers():
        add_parser(solvers)
