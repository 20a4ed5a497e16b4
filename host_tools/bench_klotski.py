"""Klotski solver figures for `make bench`: CPython solve time, VM fuel ->
Pico seconds, total allocation (constructor + full table), hint time, beside a
naive set-based BFS."""

import time

import host_tools.fwpath  # noqa: F401
import klotski
from host_tools import mpvm

# Guest code: the slices of a sliced setup (count, worst, the table's own slice,
# total fuel), then the most fuel one step(40) call takes over a whole table
# build of piece set (nv, nh, ns); emits (worst fuel, layouts reached).
WORST_STEP = '''
import klotski
s = klotski.Solver(%d, %d, %d, True)
setup = []
while True:
    f0 = _fuel()
    heavy = s.heavy_next
    done = s.setup()
    setup.append((f0 - _fuel(), heavy))
    if done:
        break
emit('setup', (len(setup), max(f for f, h in setup if not h), max(f for f, h in setup if h),
               sum(f for f, h in setup)))
worst = 0
while True:
    f0 = _fuel()
    done = s.step(40)
    f = f0 - _fuel()
    if f > worst:
        worst = f
    if done:
        break
emit('w', (worst, s.reached))
'''

LAYOUT = "VBBV/VBBV/VHHV/VSSV/S..S"


def _naive_bfs(text):
    import sys
    sys.path.insert(0, str(mpvm.FIRMWARE_DIR.parent / "tests"))
    from test_klotski import _pieces, legal_targets, apply_move, is_goal
    seen = {text}
    frontier = [text]
    d = 0
    while frontier:
        nxt = []
        for t in frontier:
            if is_goal(t):
                return d
            for _, cells in _pieces(t)[1]:
                for to in legal_targets(t, cells[0])[2]:
                    n = apply_move(t, cells[0], to)
                    if n not in seen:
                        seen.add(n)
                        nxt.append(n)
        frontier = nxt
        d += 1
    return None


def collect(report):
    sec = "klotski"
    t0 = time.perf_counter()
    steps, _ = klotski.solve(LAYOUT)
    report.add(sec, "CPython full solve 横刀立马 (%s steps)" % steps, time.perf_counter() - t0, "s", budget=0.2)
    t0 = time.perf_counter()
    nsteps = _naive_bfs(LAYOUT)
    report.add(sec, "CPython naive set BFS (%s steps)" % nsteps, time.perf_counter() - t0, "s")
    r = mpvm.run('''
import klotski
def full():
    s, r = klotski.solver_for("%s")
    s.build()
    return s, r
(s, r), fuel, alloc = measure(full)
worst = 0
rank = r
for i in range(81):
    mv, f, a = measure(s.best_move, rank)
    if f > worst:
        worst = f
    rank = mv[2]
emit('x', (fuel, alloc, worst))
''' % LAYOUT)
    fuel, alloc, hint = r['x']
    report.add(sec, "VM fuel, full table (MicroPython)", fuel, "fuel")
    report.add(sec, "est. Pico time, full table", mpvm.pico_ms(fuel) / 1000.0, "s", budget=10.0)
    report.add(sec, "total allocation, constructor + table", alloc, "bytes", budget=64 * 1024)
    report.add(sec, "worst hint along the solution (est. Pico)", mpvm.pico_ms(hint), "ms", budget=50.0)
    # the UI solves in slices: worst fuel of one step(40) call over the whole table
    res = mpvm.run(WORST_STEP % (4, 1, 4)).results
    n, light, heavy, total = res['setup']
    report.add(sec, "solver setup, worst slice (est. Pico)", mpvm.pico_ms(light), "ms", budget=50.0,
               note="%d slices, %.2f s in all; the table's own slice %.1f ms"
               % (n, mpvm.pico_ms(total) / 1000.0, mpvm.pico_ms(heavy)))
    worst, _ = res['w']
    report.add(sec, "worst step(40) slice, full table (est. Pico)", mpvm.pico_ms(worst), "ms", budget=50.0)
