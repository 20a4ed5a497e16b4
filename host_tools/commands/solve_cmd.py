"""`python -m host_tools solve GAME ...`: each game adds its `solve` subcommand
through the "solve" hook of its registry entry (host_tools/core/registry.py), a function
receiving the `solve` sub-subparsers.  Cat & Mouse's is here:
`solve grid MAP --algo bfs|astar [--json]`."""

import json

import host_tools.core.fwpath  # noqa: F401
from gridpath import GridSearch

from host_tools.core import registry
from host_tools.core import plural
from host_tools.games.catmouse_mapfile import read_map


def solve_grid(args):
    cmap = read_map(args.map)
    search = GridSearch(cmap.cols, cmap.rows)
    search.load(cmap.costs)
    if args.algo == "bfs":
        found = search.bfs(cmap.cat, cmap.mouse)
    else:
        found = search.astar(cmap.cat, cmap.mouse)
    path = search.path_cells() if found is not None else []
    if args.json:
        if found is None:
            print(json.dumps({"cost": None}))
        else:
            print(json.dumps({"cost": found, "moves": len(path) - 1, "path": path}))
        return 0
    if found is None:
        print("no path: the mouse cannot be reached from the cat")
        return 0
    if args.algo == "bfs":
        print("moves: %d" % found)
    else:
        print("stamina: %d (%s)" % (found, plural(len(path) - 1, "move")))
    print("path: " + " ".join(str(cell) for cell in path))
    print(render_path(cmap, path))
    return 0


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
    grid = solvers.add_parser("grid", help="shortest cat-to-mouse path on a Cat & Mouse map")
    grid.add_argument("map", help="map text file (. road, g grass, w stream, # obstacle, C cat, M mouse)")
    grid.add_argument("--algo", choices=("bfs", "astar"), default="bfs",
                      help="bfs: fewest moves; astar: least stamina (default bfs)")
    grid.add_argument("--json", action="store_true", help="print JSON")
    grid.set_defaults(func=solve_grid)


def register(subparsers):
    parser = subparsers.add_parser("solve", help="solve a puzzle or map and print the optimal answer")
    solvers = parser.add_subparsers(dest="game", metavar="GAME")
    solvers.required = True
    for add_parser in registry.solvers():
        add_parser(solvers)
