"""Trap the Cat figures for `make bench`: the hard cat's and the hint's cost
per move in the MicroPython VM (fuel, estimated Pico ms, bytes, slices), the
exact-depth audit (misses by depth against the exact host solver on every
position of seeded games), the hint-vs-hard-cat tournament (with and without
the kernel's 7-move look) beside an exact 7-move blocker, the strength table
(cats x blockers, escape rate), and the tournament's costliest hints for the
virtual Pico to time (bench_vpico)."""

import multiprocessing
import time

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import trapcat
import trapcat_ai
from host_tools.emulation import mpvm

GAMES = 200
SEED = 2024
AUDIT_GAMES = 60
EXACT_GAMES = 60
EXACT_HORIZON = 7
TOURNAMENT_BUDGET = 15.0               # % escapes, hint blocker vs hard cat
HINT_FUEL_BUDGET = 110_000_000         # 1 s at 1.1e8 fuel/s
CATS = ("easy", "normal", "hard")
BLOCKERS = ("random", "greedy", "strong")
HARD_FUEL_BUDGET = 27_500_000          # 250 ms at 1.1e8 fuel/s
HARD_BYTES_BUDGET = 16 * 1024
SLICE_FUEL_BUDGET = 5_500_000          # input polled every 50 ms


def _match(job):
    from host_tools.commands.trapcat_cmd import run_match
    cat, blocker, first, games = job
    r = run_match(cat, blocker, games, SEED, first_game=first)
    return cat, blocker, r["escapes"], games


def _match_without_look(job):
    """The hint as it plays where the viper kernel cannot run (the VMs,
    CircuitPython): no look past 5 moves (a worker process of its own)."""
    from host_tools.commands.trapcat_cmd import run_match
    trapcat_ai.LOOK_KERNEL = False
    first, games = job
    return run_match("hard", "strong", games, SEED, first_game=first)["escapes"]


def costliest_hints(games=GAMES, top=6):
    """The ``top`` hints of the hint-vs-hard-cat tournament with the most
    search work, as (cells, cat): kernel expansions plus 24 per plain Deep
    expansion (the kernel is ~24x faster on the virtual Pico).  Counted, not
    timed, so the same positions every run."""
    from host_tools.commands.trapcat_cmd import game_seed, play_game
    work = [0]
    run, run_kernel = trapcat_ai.Deep.run, trapcat_ai.Deep.run_kernel

    def counted(fn, weight):
        def wrapper(deep, limit=trapcat_ai._FOREVER):
            n0 = deep.nodes
            v = fn(deep, limit)
            work[0] += weight * (deep.nodes - n0)
            return v
        return wrapper

    class Counted(trapcat_ai.StrongBlocker):
        def choose(self, board):
            work[0] = 0
            x = trapcat_ai.StrongBlocker.choose(self, board)
            seen.append((work[0], bytes(board.cells), board.cat))
            return x

    seen = []
    trapcat_ai.Deep.run = counted(run, 24)
    trapcat_ai.Deep.run_kernel = counted(run_kernel, 1)
    try:
        b = trapcat.Board(9)
        hint, cat = Counted(b), trapcat_ai.HardCat(b)
        for g in range(games):
            play_game(b, cat, hint, game_seed(SEED, g), 12)
    finally:
        trapcat_ai.Deep.run, trapcat_ai.Deep.run_kernel = run, run_kernel
    seen.sort(key=lambda s: -s[0])
    return [(list(cells), c) for _, cells, c in seen[:top]]


def _audit(job):
    from host_tools.oracles import trapcat_audit
    first, games = job
    t = trapcat_audit.audit(trapcat_audit.game_positions(games, first))
    return t.cat_escape, t.cat_avoid, t.hint_capture, t.hint_avoid


def _exact(job):
    from host_tools.oracles import trapcat_audit
    first, games = job
    return trapcat_audit.exact_blocker_escapes(games, SEED, first, EXACT_HORIZON)


def _pool_sum(fn, total, workers=2, chunks=6):
    """fn((first, games)) over ``total`` games in chunks on ``workers``."""
    size = -(-total // chunks)
    jobs = [(i, min(size, total - i)) for i in range(0, total, size)]
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        return pool.map(fn, jobs)


def audit_table(games=AUDIT_GAMES):
    cat_escape = {}
    cat_avoid = [0, 0]
    hint_capture = {}
    hint_avoid = [0, 0]
    for ce, ca, hc, ha in _pool_sum(_audit, games):
        for k, (n, m) in ce.items():
            a = cat_escape.setdefault(k, [0, 0])
            a[0] += n
            a[1] += m
        for h, (n, m) in hc.items():
            a = hint_capture.setdefault(h, [0, 0])
            a[0] += n
            a[1] += m
        cat_avoid[0] += ca[0]
        cat_avoid[1] += ca[1]
        hint_avoid[0] += ha[0]
        hint_avoid[1] += ha[1]
    return cat_escape, cat_avoid, hint_capture, hint_avoid


def strength_table(games=GAMES, workers=2):
    """{(cat, blocker): escape rate}.  Each pairing is split in two halves so
    the two workers stay busy; seeds depend only on the game number."""
    half = games // 2
    jobs = []
    for cat in CATS:
        for blocker in BLOCKERS:
            jobs.append((cat, blocker, 0, half))
            jobs.append((cat, blocker, half, games - half))
    jobs.sort(key=lambda j: j[1] != "strong")      # slow jobs first
    escapes = {}
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        for cat, blocker, esc, n in pool.imap_unordered(_match, jobs):
            e, t = escapes.get((cat, blocker), (0, 0))
            escapes[(cat, blocker)] = (e + esc, t + n)
    return {k: e / t for k, (e, t) in escapes.items()}


_VM_SAMPLE = r'''
import trapcat, trapcat_ai
b = trapcat.Board(%(size)d)
cat = trapcat_ai.HardCat(b)
blockers = (trapcat_ai.StrongBlocker(b), trapcat_ai.GreedyBlocker(b),
            trapcat_ai.RandomBlocker(b, 5))
hint = trapcat_ai.StrongBlocker(b)
fuels = []
allocs = [0]
hints = []
slices = [0, 0]
hslices = [0, 0]
def sliced(task, out):
    task.begin(b)
    done = False
    while not done:
        done, f, a = measure(task.step)
        if f > out[0]:
            out[0] = f
        out[1] += 1
        if a > allocs[0]:
            allocs[0] = a
    return task.answer
for g in range(%(first)d, %(first)d + %(games)d):
    b.reset(trapcat.Rng(1000 + g), %(blocks)d)
    bl = blockers[g %% 3]
    while b.status == 0:
        if g %% 4 == 0:
            x, f, a = measure(hint.choose, b)
            hints.append(f)
            if g %% 8 == 0:
                assert sliced(hint, hslices) == x
        else:
            x = bl.choose(b)
        b.block(x)
        if b.status:
            break
        m, f, a = measure(cat.choose, b)
        fuels.append(f)
        allocs.append(a)
        if g %% 2 == 0:
            assert sliced(cat, slices) == m
        b.move_cat(m)
emit('fuel', fuels)
emit('alloc', allocs)
emit('hint', hints)
emit('slices', slices)
emit('hslices', hslices)
'''


def hard_cat_cost(size=9, games=24, blocks=12):
    """Per move in the VM: hard cat fuel and bytes, hint fuel, max fuel per
    slice for both (as the game runs them)."""
    fuel, alloc, hints = [], [], []
    slices, hslices = [0, 0], [0, 0]
    for first in range(0, games, 4):    # the VM heap (1 MB, no GC) holds ~4 games
        r = mpvm.run(_VM_SAMPLE % {"size": size, "games": min(4, games - first),
                                   "blocks": blocks, "first": first},
                     fuel=200_000_000_000, timeout=600.0)
        fuel += r["fuel"]
        alloc += r["alloc"]
        hints += r["hint"]
        for acc, got in ((slices, r["slices"]), (hslices, r["hslices"])):
            acc[0] = max(acc[0], got[0])
            acc[1] += got[1]
    return fuel, alloc, hints, slices, hslices


def collect(report):
    sec = "trapcat: hard cat per move (MicroPython VM)"
    for size, games in ((9, 30), (11, 12)):
        fuel, alloc, hints, slices, hslices = hard_cat_cost(size, games)
        budget = HARD_FUEL_BUDGET if size == 9 else None
        note = "%d moves" % len(fuel)
        report.add(sec, "%dx%d hard move fuel, max" % (size, size), max(fuel), "fuel",
                   budget=budget, note=note)
        report.add(sec, "%dx%d hard move fuel, mean" % (size, size),
                   sum(fuel) / len(fuel), "fuel")
        report.add(sec, "%dx%d hard move est. Pico, max" % (size, size),
                   mpvm.pico_ms(max(fuel)), "ms", budget=250 if size == 9 else None)
        report.add(sec, "%dx%d hard move est. Pico, mean" % (size, size),
                   mpvm.pico_ms(sum(fuel) / len(fuel)), "ms")
        report.add(sec, "%dx%d hard move allocation, max" % (size, size), max(alloc), "bytes",
                   budget=HARD_BYTES_BUDGET if size == 9 else None)
        if hints:
            report.add(sec, "%dx%d hint (strong blocker) fuel, max" % (size, size), max(hints),
                       "fuel", budget=HINT_FUEL_BUDGET if size == 9 else None)
            report.add(sec, "%dx%d hint (strong blocker) est. Pico, max" % (size, size),
                       mpvm.pico_ms(max(hints)), "ms", budget=1000 if size == 9 else None,
                       note="%d hints, whole; no viper kernel in the VM, so no 7-move look "
                            "(the device's hint: virtual Pico section)" % len(hints))
            report.add(sec, "%dx%d hint (strong blocker) est. Pico, mean" % (size, size),
                       mpvm.pico_ms(sum(hints) / len(hints)), "ms")
        # sliced as on the device: step() slices of SLICE_UNITS work units
        report.add(sec, "%dx%d hard move fuel per slice, max" % (size, size), slices[0], "fuel",
                   budget=SLICE_FUEL_BUDGET, note="%d slices" % slices[1])
        report.add(sec, "%dx%d hint fuel per slice, max" % (size, size), hslices[0], "fuel",
                   budget=SLICE_FUEL_BUDGET, note="%d slices" % hslices[1])

    started = time.time()
    cat_escape, cat_avoid, hint_capture, hint_avoid = audit_table()
    sec = ("trapcat: exact guarantees vs the host solver, every position of %d seeded games"
           % AUDIT_GAMES)
    for k in sorted(cat_escape):
        n, m = cat_escape[k]
        report.add(sec, "hard cat misses, forced escape in %d" % k, m, "positions", budget=0,
                   note="of %d" % n)
    report.add(sec, "hard cat steps into a capture forced within 4", cat_avoid[1], "positions",
               budget=0, note="of %d avoidable" % cat_avoid[0])
    for h in sorted(hint_capture):
        n, m = hint_capture[h]
        report.add(sec, "hint loses a capture forced in %d" % h, m, "positions", budget=0,
                   note="of %d" % n)
    report.add(sec, "hint hands an avoidable escape within 5", hint_avoid[1], "positions",
               budget=0, note="of %d avoidable" % hint_avoid[0])
    report.add(sec, "audit wall time", round(time.time() - started, 1), "s")

    started = time.time()
    table = strength_table()
    exact = sum(_pool_sum(_exact, EXACT_GAMES))
    plain = sum(_pool_sum(_match_without_look, GAMES, chunks=2))
    sec = "trapcat: hint blocker vs hard cat, seed %d, 12 start blocks" % SEED
    report.add(sec, "hint (strong) blocker: hard cat escapes", round(100.0 * table[("hard", "strong")], 1),
               "%", budget=TOURNAMENT_BUDGET,
               note="%d games; the device's hint: 7-move look within %d kernel expansions"
                    % (GAMES, trapcat_ai.LOOK_NODES))
    report.add(sec, "hint without the look (no viper: VMs, CircuitPython): hard cat escapes",
               round(100.0 * plain / GAMES, 1), "%", note="%d games" % GAMES)
    report.add(sec, "exact %d-move blocker: hard cat escapes" % EXACT_HORIZON,
               round(100.0 * exact / EXACT_GAMES, 1), "%",
               note="%d games (host only, reference)" % EXACT_GAMES)
    sec = "trapcat: cat escape rate, %d games per cell, seed %d" % (GAMES, SEED)
    for cat in CATS:
        for blocker in BLOCKERS:
            report.add(sec, "%s cat vs %s blocker" % (cat, blocker),
                       round(100.0 * table[(cat, blocker)], 1), "%")
    ordered = all(table[("hard", bl)] >= table[("normal", bl)] >= table[("easy", bl)]
                  for bl in BLOCKERS)
    strict = sum(table[("hard", bl)] > table[("normal", bl)] for bl in BLOCKERS)
    report.add(sec, "hard >= normal >= easy vs every blocker", int(ordered), "bool",
               budget=1, higher_is_better=True,
               note="hard strictly ahead vs %d/3 blockers (vs random both ~100%%: a tie, "
                    "not a win; see docs/trapcat.md)" % strict)
    report.add(sec, "strength table wall time", round(time.time() - started, 1), "s")
