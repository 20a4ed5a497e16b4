"""`make bench` column from the virtual CircuitPython Pico: CircuitPython 10.2.1
(third_party/circuitpython) on the emulated RP2040, the firmware deployed by
``flash`` onto its CIRCUITPY (host_tools/emulation/vpcircuitpy.py).

The measuring program goes onto the drive as code.py (the firmware's own main.py
beside it as ``fwmain.py``), so the firmware boots as on a handheld: real
displayio, bitmaptools, keypad, CircuitPython's heap and GC.  Times come from
``time.monotonic_ns()`` on the emulated 125 MHz clock.  Buttons are fed to the
runtime by replacing ``hw.read_buttons`` (the pins themselves are tested in
tests/test_vpico_circuitpython.py).  Each game runs to its steady state, in
the launcher's order on one boot, as a player meets them: the first screen of
Cat & Mouse, Trap the Cat and Flip Junqi has nothing running in the background
(45 ticks are sampled); from Klotski's list, after the other three, 横刀立马 is
opened and run until its hints are ready, or until it says it has none (marked
before play, or "NO SOLVER").  The solvers (BFS/A*, the hint, Klotski's table
in the plain loop) run on a boot of their own, from a fresh heap.  Each figure
stands beside its budget and the MicroPython figure of the same work on the
virtual Pico (build/bench.json of the same run, when the vpico section ran
first)."""

import re

from host_tools.bench import bench_grid, bench_vpico

SECTION = "virtual Pico running CircuitPython 10.2.1 (rp2040js, 125 MHz; emulated ms)"
CP_FREE_AT_REPL = 169_472        # gc.mem_free() at CircuitPython 10.2.1's REPL on a Pico
FRAME_BUDGET_MS = 33.0
RUN_WITHIN_MS = 600_000          # emulated: the Klotski table in the plain loop is the longest part
READY_WITHIN_TICKS = 3000        # Klotski's level run to its steady state (~100 s)
CLASSIC_NAME = "HENG DAO LI MA"  # 横刀立马 in Klotski's list (klotski_game's pinyin)

# what both measuring programs start with: the result lines and a timer
_PRELUDE = r"""
import gc, time
def emit(tag, value):
    print('@@%s\t%r' % (tag, value))
def cost(fn, *args):
    t = time.monotonic_ns()
    r = fn(*args)
    return r, (time.monotonic_ns() - t) / 1e6
gc.collect()
"""

GUEST = _PRELUDE + r"""
BASE = gc.mem_alloc()       # the measuring program alone: modules and runtime count from here
import boardcfg, hw_circuitpython, buttons, fwmain
cfg = boardcfg.load_device()
hw = hw_circuitpython.Hardware(cfg)
del boardcfg                # the boot drops it from sys.modules, as on a handheld
PRESS = [0]
hw.read_buttons = lambda: PRESS[0]
rt = fwmain.boot(cfg, hw)
gc.collect()
def steps(n, mask=0):
    PRESS[0] = mask
    for _ in range(n):
        rt.step()
        time.sleep(0.033)
    PRESS[0] = 0
def frames(tag):
    rt.invalidate_frame()
    rt.display.invalidate()
    fresh = cost(rt.step)[1]
    idle = min(cost(rt.step)[1] for _ in range(3))
    fb = rt.fb
    fb.pixel(127, 63, 1 - fb.pixel(127, 63))        # one page changes, as a move does
    page = cost(rt.display.show)[1]
    fb.pixel(127, 63, 1 - fb.pixel(127, 63))
    rt.display.show()
    gc.collect()
    emit(tag, (fresh, idle, gc.mem_alloc() - BASE, page))
def klotski_ready():
    # Klotski's list after the other games: 横刀立马 opened from it, run until its
    # hints are ready (or it says it has none); what the game shows, not the program
    import sys
    kg = sys.modules['klotski_game']         # the game's module, while it is open
    ends = (kg.S_READY, kg.S_FAIL, kg.S_NO_TABLE)
    scene = rt.screen
    gc.collect()
    free = gc.mem_free()
    for _ in range(scene.names.index(CLASSIC)):
        steps(2, buttons.DOWN)
        steps(3)
    t = time.monotonic_ns()
    steps(2, buttons.A)
    task = scene.task
    peak = n = 0
    while task.phase not in ends and n < READY_WITHIN:
        steps(1)
        n += 1
        gc.collect()
        peak = max(peak, gc.mem_alloc() - BASE)
    emit('klotski_ready', (task.phase == kg.S_READY, (time.monotonic_ns() - t) / 1e6, n, peak,
                           scene.play_screen.status(), task.piece_set, free))
steps(3)
frames('launcher')
for index in range(4):
    steps(2, buttons.A)
    peak = 0
    for _ in range(45):
        steps(1)
        gc.collect()
        peak = max(peak, gc.mem_alloc() - BASE)
    frames('game%d' % index)
    emit('peak%d' % index, peak)
    if index == 3:
        klotski_ready()
    steps(40, buttons.B)
    steps(10)
    if rt.screen is not rt.launcher:
        rt.back_to_launcher()
    steps(3)
    gc.collect()
    emit('left%d' % index, gc.mem_free())
    steps(2, buttons.DOWN)
    steps(3)
del rt, hw
gc.collect()
emit('free', gc.mem_free())
print('@@done\t1')
"""

# a boot of its own: the solvers' figures from a fresh heap (the tables' plain
# loop needs most of it), not what the games left
GUEST_SOLVERS = _PRELUDE + r"""
emit('free_at_start', gc.mem_free())
import klotski
def full():
    s = klotski.Solver(4, 1, 4, kernel=False)
    s.build()
    return s
try:
    s, ms = cost(full)
    emit('klotski', (ms, s.reached))
    del s
except MemoryError:
    emit('klotski', None)
del full, klotski
import sys
for name in list(sys.modules):
    if name.startswith('klotski'):
        del sys.modules[name]
gc.collect()
""" + "%(grid)s" + r"""
import trapcat, trapcat_ai
b = trapcat.Board(9)
blocker = trapcat_ai.StrongBlocker(b, look=False)
cat = trapcat_ai.HardCat(b)
hints = []
b.reset(trapcat.Rng(1000), 12)
while b.status == 0:
    x, ms = cost(blocker.choose, b)
    hints.append(ms)
    b.block(x)
    if b.status:
        break
    b.move_cat(cat.choose(b))
emit('hint', (max(hints), sum(hints) / len(hints), len(hints)))
del b, blocker, cat, hints
gc.collect()
print('@@done\t1')
"""

# what the whole-screen rows mean (measured on this virtual Pico: displayio's own
# refresh of the whole 128x64 panel from one plain bitmap takes ~74 ms, of which the
# 1,128 bytes on the I2C wire at 400 kHz are ~25 ms; a one-pixel change ~0.6 ms)
FULL_SCREEN_NOTE = ("no budget row: entering a screen redraws the whole panel, and displayio's own "
                    "refresh of all 128x64 pixels takes ~74 ms here (the wire ~25 ms of it), so a "
                    "screen change costs ~100 ms once on CircuitPython, over the 33 ms frame the "
                    "stand-ins suggested; the ticks of play change a few pages (rows below). Writing "
                    "the pages straight over busio.I2C, as the MicroPython driver does, would take a "
                    "whole frame to ~25 ms")
GAMES = ("Cat & Mouse", "Trap the Cat", "Flip Junqi", "Klotski")   # the launcher's order


def _run(code):
    """{tag: value} printed by ``code`` run as code.py on one boot."""
    from host_tools.emulation import mpvm, vpcircuitpy, vpico

    with vpcircuitpy.cp_pico(code=code) as pico:
        pico.wait_serial(b"Code done running", RUN_WITHIN_MS, step_ms=200, timeout=3600)
        out = bytes(pico.console).decode(errors="replace")
    if "Traceback" in out or "@@done" not in out:
        raise vpico.VPicoError("the measuring program failed on CircuitPython:\n" + out[-1500:])
    out = re.sub("\x1b\\][^\x1b]*\x1b\\\\", "", out)     # CircuitPython's title-bar updates
    return mpvm._parse_results(out.replace("\r\n", "\n"))


def measure():
    """{tag: value} from two boots: the games as a player meets them (the
    launcher, each game in turn, Klotski's 横刀立马 until its hints are ready
    after the other three), then the solvers from a fresh heap."""
    name, cols, rows, costs, src, dst = bench_grid.boards()[0]
    got = _run("READY_WITHIN = %d\nCLASSIC = %r\n" % (READY_WITHIN_TICKS, CLASSIC_NAME) + GUEST)
    got.update(_run(GUEST_SOLVERS.replace(
        "%(grid)s", bench_vpico._GRID % {"costs": costs, "src": src, "dst": dst})))
    return got


def _klotski_ready(report, figures):
    """The rows of 横刀立马 opened from Klotski's list after the other three games,
    run until its hints are ready (or the board says it has none)."""
    ready, ms, ticks, peak, status, piece_set, free = figures
    why = "" if ready else ("not reached: the board says %s (%d ticks, peak live heap %d B, "
                            "%d B free at the list)" % (status, ticks, peak, free))
    where = ("after Cat & Mouse, Trap the Cat and Flip Junqi on the same boot (%d B free at "
             "Klotski's list)" % free)
    report.add(SECTION, "Klotski: time to hints ready", round(ms) if ready else None, "ms",
               note="横刀立马 (%dV%dH%dS) opened from the list %s, %d ticks of 33 ms"
               % (piece_set + (where, ticks)) if ready else why)
    report.add(SECTION, "Klotski: peak live heap, table ready", peak if ready else None, "bytes",
               CP_FREE_AT_REPL, note="max at tick boundaries after gc.collect(), modules included, "
               "%s; budget: the %d B free at the REPL (THIN past 95 %%: a game's peak with its "
               "work done leaves 5 %%), as the other peak rows" % (where, CP_FREE_AT_REPL)
               if ready else why)


def collect(report):
    got = measure()
    from host_tools.bench.runner import BUILD_DIR
    mp = bench_vpico.recorded_figures(BUILD_DIR / "bench.json")   # the last run's MicroPython column

    def beside(name):
        return "" if mp.get(name) is None else "MicroPython on the virtual Pico: %.3g ms" % mp[name]

    for i, title in enumerate(("launcher",) + GAMES):
        fresh, idle, heap, page = got["launcher" if i == 0 else "game%d" % (i - 1)]
        report.add(SECTION, "%s: whole-screen frame (tick + draw + displayio refresh)" % title,
                   round(fresh, 2), "ms", note=FULL_SCREEN_NOTE if i == 0 else "")
        report.add(SECTION, "%s: idle tick" % title, round(idle, 2), "ms", FRAME_BUDGET_MS)
        report.add(SECTION, "%s: a one-page change shown (as a move draws)" % title, round(page, 2),
                   "ms", FRAME_BUDGET_MS)
        if i == 0:
            report.add(SECTION, "resident heap at the launcher (after gc.collect())", heap, "bytes",
                       CP_FREE_AT_REPL, note="gc.mem_alloc() less the measuring program's own, "
                       "modules included; budget: the heap free at CircuitPython's REPL")
        else:
            report.add(SECTION, "%s peak live heap" % title, got["peak%d" % (i - 1)], "bytes",
                       CP_FREE_AT_REPL, note="max over 45 ticks of its first screen after gc.collect(), "
                       "modules included" + (" (Klotski: its level list; its board below)" if i == 4 else ""))
    _klotski_ready(report, got["klotski_ready"])
    report.add(SECTION, "heap free after the runtime is gone", got["free"], "bytes",
               note="gc.mem_free(): CircuitPython's heap with the firmware's modules loaded")
    report.add(SECTION, "BFS 16x8 default board", round(got["bfs"], 2), "ms", bench_grid.BFS_16x8_MS,
               note=beside("BFS 16x8 default board"))
    report.add(SECTION, "A* 16x8 default board", round(got["astar"], 2), "ms", bench_grid.ASTAR_16x8_MS,
               note=beside("A* 16x8 default board"))
    worst, mean, n = got["hint"]
    report.add(SECTION, "9x9 hint without the 7-move look (no viper here), max", round(worst, 1), "ms",
               1000.0, note="%d hints, one game against the hard cat" % n)
    report.add(SECTION, "9x9 hint without the look, mean", round(mean, 1), "ms")
    if got["klotski"] is None:
        report.add(SECTION, "Klotski full table (横刀立马), plain Python loop", None, "ms",
                   note="MemoryError: the table does not fit beside CircuitPython's own use of the "
                   "heap (%d B free when it started)" % got["free_at_start"])
    else:
        ms, reached = got["klotski"]
        report.add(SECTION, "Klotski full table (横刀立马), plain Python loop", round(ms), "ms",
                   note="%d layouts, from a fresh heap (%d B free); no budget row: the 8 s budget "
                   "is met on MicroPython by its viper kernel (%s); CircuitPython has no "
                   "native emitter, and its game reads the tables flash puts on the board from "
                   "their files instead (the time to hints ready above)" % (reached, got["free_at_start"],
                                                 beside("Klotski full table (横刀立马)") or "vpico section"))
