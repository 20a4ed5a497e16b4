"""`solve klotski LAYOUT [--json]` and `levels klotski ...`: the shared `solve` /
`levels` groups call ``add_solve_parser(solve_subparsers)`` and
``add_levels_parser(levels_subparsers)``, named in Klotski's hooks
(host_tools/core/registry.py: HOOKS["klotski"], "solve" and "levels")."""

import contextlib
import json
import random

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import klotski
from host_tools.core import UserError, output_dir, plural
from host_tools.core.levelcheck import write_level_dir

DIR_NAMES = {-1: "left", 1: "right", -4: "up", 4: "down"}


def move_dict(cells, frm, to):
    return {"piece": chr(cells[frm]), "from": [frm // 4, frm % 4], "to": [to // 4, to % 4]}


def solve_layout(text):
    """{"steps": N, "moves": [...], "layouts": [...]} or {"steps": None}."""
    try:
        solver, rank = klotski.solver_for(text)
    except klotski.LayoutError as exc:
        raise UserError(str(exc)) from None
    solver.build()
    moves = solver.solution(rank)
    if moves is None:
        return {"steps": None}
    out = []
    layouts = []
    for frm, to in moves:
        cells = solver.cells_of(rank)
        out.append(move_dict(cells, frm, to))
        rank = solver.best_move(rank)[2]
        layouts.append(klotski.to_text(solver.cells_of(rank)))
    return {"steps": len(moves), "moves": out, "layouts": layouts}


def _run_solve(args):
    res = solve_layout(args.layout)
    if args.json:
        print(json.dumps({"steps": res["steps"], "moves": res.get("moves", [])} if res["steps"] is not None
                         else {"steps": None}))
    elif res["steps"] is None:
        print("unsolvable")
    else:
        print(plural(res["steps"], "step"))
        for i, (m, lay) in enumerate(zip(res["moves"], res["layouts"])):
            print("%3d  %s (%d,%d) -> (%d,%d)   %s" % (i + 1, m["piece"], m["from"][0], m["from"][1],
                                                     m["to"][0], m["to"][1], lay))
    return 0


def table_files(layouts, log=print):
    """{"saves/klotski_<V><H><S>.tbl": bytes}: the finished solver table of every
    piece set among ``layouts``, written by the device's own cache code
    (firmware/klotski_cache.py) and solved here with the same module.  Flashed
    with the firmware, the handheld has its hints at once instead of solving on
    the device first (about 29 s for the classic set)."""
    import tempfile
    from pathlib import Path

    import klotski_cache

    sets = {}
    for text in layouts:
        try:
            ps = klotski.piece_set(klotski.parse(text))
        except klotski.LayoutError as exc:
            raise UserError("klotski layout %s: %s" % (text, exc)) from None
        sets[ps] = sets.get(ps, 0) + 1
    files = {}
    with tempfile.TemporaryDirectory() as tmp:
        cache = klotski_cache.Dir(tmp)
        for (nv, nh, ns), count in sorted(sets.items()):
            solver = klotski.Solver(nv, nh, ns)
            solver.build()
            klotski_cache.save(cache, solver)
            name = klotski_cache.name_for(solver)
            files["saves/" + name] = (Path(tmp) / name).read_bytes()
            log("  klotski table %dV%dH%dS for %s: %s"
                % (nv, nh, ns, plural(count, "level"), plural(len(files["saves/" + name]), "byte")))
    return files


def parse_piece_set(text):
    """'4V1H4S' / '4,1,4' -> (nv, nh, ns)."""
    if not text.isascii():      # before upper()/isdigit(): '²'.isdigit() is True
        raise UserError("piece set must look like 4V1H4S or 4,1,4")
    t = text.upper().replace(" ", "")
    if "," in t:
        parts = t.split(",")
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            raise UserError("piece set must look like 4V1H4S or 4,1,4")
        nv, nh, ns = (int(p) for p in parts)
    else:
        nv = nh = ns = 0
        num = ""
        for ch in t:
            if ch.isdigit():
                num += ch
            elif ch in "VHS" and num:
                if ch == "V":
                    nv = int(num)
                elif ch == "H":
                    nh = int(num)
                else:
                    ns = int(num)
                num = ""
            else:
                raise UserError("piece set must look like 4V1H4S or 4,1,4")
    if 2 * (nv + nh) + ns != 14:
        raise UserError("piece set must fill the board: 2*(V+H)+S must be 14, got %d" % (2 * (nv + nh) + ns))
    return nv, nh, ns


def generate_levels(nv, nh, ns, min_steps, count, seed=1, tries=4000):
    """Up to ``count`` layouts of the piece set needing >= min_steps, hardest first.
    Returns [(steps, layout_text)]."""
    solver = klotski.Solver(nv, nh, ns)
    solver.build()
    rng = random.Random(seed)
    found = {}
    for _ in range(tries):
        r = rng.randrange(solver.size)
        if solver.value(r) == 3:
            continue
        # climb away from the goal: prefer neighbours one step farther
        for _ in range(200):
            v = solver.value(r)
            want = (v + 1) % 3
            n = solver.ranker.neighbors(r)
            nxt = None
            for q in range(n):
                if solver.value(solver.ranker.out_rank[q]) == want:
                    nxt = solver.ranker.out_rank[q]
                    break
            if nxt is None:
                break
            r = nxt
        text = klotski.to_text(solver.cells_of(r))
        if text in found:
            continue
        d = solver.distance(r)
        if d is not None and d >= min_steps:
            found[text] = d
        if len(found) >= 4 * count:
            break
    best = sorted(((d, t) for t, d in found.items()), key=lambda x: (-x[0], x[1]))
    return best[:count]


def _run_levels(args):
    nv, nh, ns = parse_piece_set(args.piece_set)
    if args.count < 1:
        raise UserError("--count must be at least 1")
    with output_dir(args.output) if args.output else contextlib.nullcontext():
        levels = generate_levels(nv, nh, ns, args.min_steps, args.count, seed=args.seed)
        if not levels:
            raise UserError("no layout of %s needs %s or more" % (args.piece_set, plural(args.min_steps, "step")))
        if args.output:
            # One layout per file, the format `levels pack` and the device read.
            write_level_dir(args.output, "klotski",
                            [(t + "\n", {"layout": t, "optimal_steps": d}) for d, t in levels],
                            piece_set=args.piece_set.upper(), seed=args.seed)
    if args.output:
        print("wrote %s to %s" % (plural(len(levels), "layout"), args.output))
        return 0
    for i, (d, t) in enumerate(levels):
        # the line format of firmware/klotski_levels.py: name|layout|optimal steps
        print("Gen %s #%d|%s|%d" % (args.piece_set.upper(), i + 1, t, d))
    return 0


def add_solve_parser(solve_subparsers):
    p = solve_subparsers.add_parser("klotski", help="optimal Klotski solution for LAYOUT")
    p.add_argument("layout", help="e.g. VBBV/VBBV/VHHV/VSSV/S..S")
    p.add_argument("--json", action="store_true", help='print {"steps": N, "moves": [...]}')
    p.set_defaults(func=_run_solve)
    return p


def _levels_args(p):
    p.add_argument("--piece-set", default="4V1H4S", help="e.g. 4V1H4S (verticals, horizontals, soldiers)")
    p.add_argument("--min-steps", type=int, default=60)
    p.add_argument("--count", type=int, default=5)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-o", "--output", help="write DIR/klotski_NNN.txt + pack.json for `levels pack` "
                                          "(default: print name|layout|steps lines)")
    p.set_defaults(func=_run_levels)


def add_levels_parser(levels_subparsers):
    p = levels_subparsers.add_parser("klotski", help="generate Klotski levels graded by optimal steps")
    _levels_args(p)
    return p
