"""Klotski solver figures for `make bench`: CPython solve time, VM fuel ->
Pico seconds, total allocation (constructor + full table), hint time, beside a
naive set-based BFS; then the virtual Pico's own figures (the viper kernel,
every piece set of the built-in levels, the scene's ticks and heap)."""

import re
import tempfile
import time

import host_tools.core.fwpath  # noqa: F401
import klotski
from host_tools.core import kernelgen
from host_tools.emulation import mpvm
from host_tools.emulation.guestctx import GUEST_CTX

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
    cpu, wall = [], []
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        steps, _ = klotski.solve(LAYOUT)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - t0)
    # CPU time: what the solve costs; wall time also counts the time other processes
    # held the cores (0.19 s idle, 0.25-0.29 s beside the test suite), so it is shown
    # without a budget
    report.add(sec, "CPython full solve 横刀立马 (%s steps), CPU time, best of 3" % steps, min(cpu), "s",
               budget=0.2, note="process time: the neighbours' load does not count")
    report.add(sec, "CPython full solve 横刀立马, wall time, best of 3", min(wall), "s",
               note="moves with the machine's load")
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
    report.add(sec, "est. Pico time, full table", mpvm.pico_ms(fuel) / 1000.0, "s",
               note="the plain loop (no viper in the VMs); the Pico's own figure: virtual Pico below")
    report.add(sec, "total allocation, constructor + table", alloc, "bytes", budget=96 * 1024)
    report.add(sec, "worst hint along the solution (est. Pico)", mpvm.pico_ms(hint), "ms", budget=50.0)
    # the UI solves in slices: worst fuel of one step(40) call over the whole table
    res = mpvm.run(WORST_STEP % (4, 1, 4)).results
    n, light, heavy, total = res['setup']
    report.add(sec, "solver setup, worst slice (est. Pico)", mpvm.pico_ms(light), "ms", budget=50.0,
               note="%d slices, %.2f s in all; the table's own slice %.1f ms"
               % (n, mpvm.pico_ms(total) / 1000.0, mpvm.pico_ms(heavy)))
    worst, _ = res['w']
    report.add(sec, "worst step(40) slice, full table (est. Pico)", mpvm.pico_ms(worst), "ms", budget=50.0)
    collect_vpico(report)


# ------------------------------------------------------------ virtual Pico

# Guest code for the virtual Pico (official MicroPython v1.28.0, emulated
# 125 MHz clock: time.ticks_us reads as on hardware).  Per piece set: the
# whole table (constructor + build) in emulated microseconds and its total
# allocation (GC off for that call, as in the VM); then 横刀立马's set built
# in slices (worst setup slice, worst step(40) slice).
VPICO_SOLVER = r'''
import time, gc, klotski
def full(ps):
    gc.collect()
    gc.disable()
    a0 = gc.mem_alloc()
    t0 = time.ticks_us()
    s = klotski.Solver(ps[0], ps[1], ps[2])
    s.build()
    t = time.ticks_diff(time.ticks_us(), t0)
    a = gc.mem_alloc() - a0
    gc.enable()
    return t, a, s._kernel is not None
for ps in SETS:
    print('set', (ps, full(ps)))
s = klotski.Solver(4, 1, 4, sliced=True)
setup = 0
while True:
    t0 = time.ticks_us()
    done = s.setup()
    t = time.ticks_diff(time.ticks_us(), t0)
    setup = max(setup, t)
    if done:
        break
step = 0
while True:
    t0 = time.ticks_us()
    done = s.step(40)
    step = max(step, time.ticks_diff(time.ticks_us(), t0))
    if done:
        break
print('slices', (setup, step))
'''

# The Klotski scene building 横刀立马's table with the GC on: every tick (game
# tick + board drawn into a frame buffer) timed on the emulated clock, then
# gc.collect() and gc.mem_alloc() (outside the timing): the heap in use at the
# tick boundaries, everything the scene imported included.
VPICO_SCENE = r'''
import time, gc, os, framebuf, buttons, micropython
CACHE = '/kcache'
ticks = time.ticks_ms
''' + GUEST_CTX + r'''
gc.collect()
base = gc.mem_alloc()
import klotski_game
ctx = Ctx()
fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
g = klotski_game.Scene(ctx)
g.level = 0
ctx.buttons.down = buttons.A
g.tick(ctx)
ctx.buttons.down = 0
micropython.qstr_info()
gc.collect()
peak = gc.mem_alloc()
worst = 0
n = 0
t_all = time.ticks_us()
while g.task.phase != klotski_game.S_READY and g.task.phase != klotski_game.S_FAIL and n < 5000:
    t0 = time.ticks_us()
    g.tick(ctx)
    g.draw(fb)
    worst = max(worst, time.ticks_diff(time.ticks_us(), t0))
    n += 1
    gc.collect()
    peak = max(peak, gc.mem_alloc())
print('scene', (g.task.phase == klotski_game.S_READY, g.task.cache_status, n, worst, peak, base,
                time.ticks_diff(time.ticks_us(), t_all)))
'''

# the piece sets of the built-in levels, 横刀立马's first
VPICO_SETS = ((4, 1, 4), (2, 3, 4), (3, 2, 4), (1, 4, 4), (2, 2, 6), (1, 3, 6), (0, 4, 6))
# 横刀立马's set with the plain-Python loop on the virtual Pico (constructor
# 0.71 s + build 18.21 s, measured 2026-11-23): the figure before the kernel
VPICO_BEFORE_S = 18.9


def _parse(out, tag):
    """The Python value printed after ``tag`` on each line starting with it."""
    import ast
    return [ast.literal_eval(line[len(tag) + 1:]) for line in out.splitlines()
            if line.startswith(tag + " ")]


def collect_vpico(report):
    from host_tools.emulation import vpico

    sec = "klotski (virtual Pico)"
    # the firmware without its entry points (main.py would start the launcher)
    # and what flash leaves off a device, with the kernels the build renders
    from host_tools.core.build import NOT_ON_DEVICES

    with tempfile.TemporaryDirectory() as kernels:
        files = sorted(str(p) for p in mpvm.FIRMWARE_DIR.glob("*.py")
                       if p.name != "main.py" and not p.name.startswith("boot")
                       and p.name not in NOT_ON_DEVICES)
        files += [str(p) for p in kernelgen.render_into(kernels)]
        scene = vpico.run_snippet(VPICO_SCENE, files=files, mpy=True, emulated_ms=120000)
        out = vpico.run_snippet("SETS = %r\n" % (VPICO_SETS,) + VPICO_SOLVER, files=files, mpy=True,
                                emulated_ms=300000)
    for ps, (us, alloc, kernel) in _parse(out, "set"):
        classic = ps == (4, 1, 4)
        name = "%dV%dH%dS full table" % ps + (" 横刀立马" if classic else "")
        report.add(sec, name, us / 1e6, "s", budget=8.0 if classic else None,
                   note=("viper kernel" if kernel else "plain loop")
                   + (" (stretch 4 s; plain loop %.1f s)" % VPICO_BEFORE_S if classic else ""))
        if classic:
            report.add(sec, "total allocation, constructor + table", alloc, "bytes",
                       budget=96 * 1024, note="GC off for the build")
    setup, step = _parse(out, "slices")[0]
    report.add(sec, "solver setup, worst slice", setup / 1000.0, "ms", budget=50.0)
    report.add(sec, "worst step(40) slice, full table", step / 1000.0, "ms", budget=50.0)
    ready, status, ticks, worst, peak, base, total = _parse(scene, "scene")[0]
    report.add(sec, "scene build: worst tick (tick + draw)", worst / 1000.0, "ms", budget=50.0,
               note="%d ticks, %.1f s, ready=%s, cache %s" % (ticks, total / 1e6, ready, status))
    names = re.search(r"n_qstr=(\d+)", scene)
    report.add(sec, "scene build: peak heap (GC on)", peak, "bytes", budget=150 * 1024,
               note="at tick boundaries after gc.collect(); %d B before the scene; %s names "
               "interned as the build starts (the qstr pool's next 3.9 KB chunk comes with the "
               "621st)" % (base, names.group(1) if names else "?"))
