"""Trap the Cat figures for `make bench`: the strength table (cats x blockers,
500 seeded games each, escape rate of the cat) and the hard cat's cost per
move measured in the MicroPython VM (fuel, estimated Pico ms, bytes)."""

import multiprocessing
import time

from host_tools import mpvm

GAMES = 500
SEED = 2024
CATS = ("easy", "normal", "hard")
BLOCKERS = ("random", "greedy", "strong")
HARD_FUEL_BUDGET = 27_500_000          # 250 ms at 1.1e8 fuel/s
HARD_BYTES_BUDGET = 16 * 1024
SLICE_FUEL_BUDGET = 5_500_000          # input polled every 50 ms


def _match(job):
    from host_tools.trapcat_cmd import run_match
    cat, blocker, first, games = job
    r = run_match(cat, blocker, games, SEED, first_game=first)
    return cat, blocker, r["escapes"], games


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
U = trapcat_ai.SLICE_UNITS
fuels = []
allocs = [0]
hints = []
slices = [0, 0]
hslices = [0, 0]
def sliced(task, out):
    task.start(b)
    done = False
    while not done:
        done, f, a = measure(task.step, None, U)
        if f > out[0]:
            out[0] = f
        out[1] += 1
        if a > allocs[0]:
            allocs[0] = a
    return task.result
for g in range(%(games)d):
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
    r = mpvm.run(_VM_SAMPLE % {"size": size, "games": games, "blocks": blocks},
                 fuel=200_000_000_000, timeout=600.0)
    return r["fuel"], r["alloc"], r["hint"], r["slices"], r["hslices"]


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
            report.add(sec, "%dx%d hint (strong blocker) est. Pico, max" % (size, size),
                       mpvm.pico_ms(max(hints)), "ms", note="%d hints, whole" % len(hints))
            report.add(sec, "%dx%d hint (strong blocker) est. Pico, mean" % (size, size),
                       mpvm.pico_ms(sum(hints) / len(hints)), "ms")
        # sliced as on the device: step(units=SLICE_UNITS) per tick
        report.add(sec, "%dx%d hard move fuel per slice, max" % (size, size), slices[0], "fuel",
                   budget=SLICE_FUEL_BUDGET, note="%d slices" % slices[1])
        report.add(sec, "%dx%d hint fuel per slice, max" % (size, size), hslices[0], "fuel",
                   budget=SLICE_FUEL_BUDGET, note="%d slices" % hslices[1])

    started = time.time()
    table = strength_table()
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
