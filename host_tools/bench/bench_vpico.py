"""`make bench` column from the virtual Pico: the device budgets
measured on the official MicroPython v1.28.0 RPI_PICO firmware in rp2040js
(host_tools/emulation/vpico.py), beside the fuel estimate of the same guest code in the
MicroPython VM, with the ratio.

The idle rows (``sleep_rows``) run main.py itself, "screen off after" 30 s, and
read the busy share from the runner's count of halted time
(host_tools/emulation/vpsleep.py).  Each other part below is guest code run
twice: on the virtual Pico, with the firmware compiled to .mpy as `flash` deploys it, ``cost(fn, *args)`` times a
call with ``time.ticks_us()`` (the emulated 125 MHz clock; GC on); in the
WASI VM it is ``measure()``'s fuel / 1.1e8 (the estimate the other bench
sections print).  The same work on both sides, so the ratio compares like with
like.  Budgets apply to the virtual-Pico figure: where it is over, that is the
figure that counts.  rp2040js is typically ~10 % (up to ~40 %) faster than a
real Pico (no flash XIP cache misses, simplified bus timing).
"""

import host_tools.core.fwpath  # noqa: F401
from host_tools.bench import bench_grid, bench_junqi, bench_klotski, bench_trapcat
from host_tools.core.keyscript import parse_keys
from host_tools.emulation import mpvm, runtime_vm
from host_tools.emulation import soak, vpfirmware, vpframes, vpresume, vpsleep

SECTION = "virtual Pico: MicroPython v1.28.0 on rp2040js, 125 MHz (emulated ms; est. = VM fuel / 1.1e8)"
PICO_W_HEAP = 205_184      # the smallest MicroPython heap among the supported boards (Pico W)

PRELUDE = r"""
import time, gc
def emit(tag, value):
    print('@@%s\t%r' % (tag, value))
def cost(fn, *args):
    t = time.ticks_us()
    r = fn(*args)
    return r, time.ticks_diff(time.ticks_us(), t) / 1000.0
collect = gc.collect
"""

_VM_PRELUDE = r"""
def cost(fn, *args):
    r, fuel, alloc = measure(fn, *args)
    return r, fuel / 110000.0
def collect():                  # (the WASI VM's GC stays off: nothing to collect)
    pass
"""

# (name, guest code) pairs; each emits ms figures under its own tags
_GRID = r"""
from gridpath import GridSearch
s = GridSearch(16, 8)
s.load(%(costs)r)
s.bfs(%(src)d, %(dst)d)
s.astar(%(src)d, %(dst)d)
emit('bfs', cost(s.bfs, %(src)d, %(dst)d)[1])
emit('astar', cost(s.astar, %(src)d, %(dst)d)[1])
emit('check_grid', (s.bfs(%(src)d, %(dst)d), s.path_cells(), s.astar(%(src)d, %(dst)d), s.path_cells()))
del s
"""

_MOUSE = r"""
import catmouse_ai
from catmouse import CatMouseGame, parse_map
from catmouse_maps import LEVELS
game = CatMouseGame(parse_map(LEVELS[0][1]), round_limit=60)
cat = catmouse_ai.BfsCat()
mouse = catmouse_ai.EvasiveMouse()
slices = []
board = game.board
while not game.winner:
    game.move('cat', cat(board, game.cat, game.legal_moves('cat')))
    if game.winner:
        break
    begun = cost(mouse.begin, board, game.mouse, game.legal_moves('mouse'))[1]
    done, ms = cost(mouse.step)         # the cat's flood: a tick's slice with begin
    slices.append(begun + ms)
    while not done:
        done, ms = cost(mouse.step)
        slices.append(ms)
    game.move('mouse', mouse.answer)
    game.round += 1
    if game.round >= game.round_limit:
        game.winner = 'mouse'
emit('mouse_slice', (max(slices[1:]), len(slices) - 1))
del game, cat, mouse, slices, board
"""

_TRAPCAT = r"""
import trapcat, trapcat_ai
b = trapcat.Board(9)
cat = trapcat_ai.HardCat(b)
blocker = trapcat_ai.StrongBlocker(b)
moves = []
trail = []              # every block and cat move, in order (hwtest compares it with CPython's)
hint = [0.0, 0.0, 0]    # max, sum, count
for g in range(%(games)d):
    b.reset(trapcat.Rng(1000 + g), 12)
    while b.status == 0:
        x, ms = cost(blocker.choose, b)
        if ms > hint[0]:
            hint[0] = ms
        hint[1] += ms
        hint[2] += 1
        b.block(x)
        trail.append(x)
        if b.status:
            break
        m, ms = cost(cat.choose, b)
        moves.append(ms)
        b.move_cat(m)
        trail.append(m)
emit('trapcat', (max(moves), sum(moves) / len(moves), len(moves)))
emit('trapcat_hint', (hint[0], hint[1] / hint[2], hint[2]))
emit('check_trapcat', trail)
del b, cat, blocker, moves, hint, trail
"""

# the device's hint where it works hardest: the tournament's costliest hints
# (bench_trapcat.costliest_hints; the 7-move look runs in the viper kernel,
# which the WASI VM cannot run, so this part has no VM estimate)
_TRAPCAT_LOOK = r"""
import trapcat, trapcat_ai
b = trapcat.Board(9)
blocker = trapcat_ai.StrongBlocker(b)
ms = []
picks = []
slices = [0.0, 0]
for cells, cat in %(look)r:
    b.load(bytes(cells), cat)
    x, t = cost(blocker.choose, b)
    ms.append(t)
    picks.append(x)
    blocker.begin(b)            # sliced as the game runs it, step() by step()
    done = False
    while not done:
        done, t = cost(blocker.step)
        slices[0] = max(slices[0], t)
        slices[1] += 1
    assert blocker.answer == x
emit('trapcat_look', (max(ms), sum(ms) / len(ms), len(ms), trapcat_ai.LOOK_KERNEL))
emit('trapcat_look_slice', tuple(slices))
emit('check_trapcat_look', picks)
del b, blocker, ms, slices, picks
"""

_JUNQI = r"""
import junqi_board as jb
r = jb.Router()
occ = %(occ)r
for i in range(60):
    r.occ[i] = occ[i]
worst = 0
for src in (25, 5, 30, 9):
    r.destinations(src, 1, jb.ENGINEER)
    worst = max(worst, cost(r.destinations, src, 1, jb.ENGINEER)[1])
emit('junqi_route', worst)
dests = []
for src in (25, 5, 30, 9):
    r.destinations(src, 1, jb.ENGINEER)
    dests.append(r.dest_list())
emit('check_junqi', dests)
del r, dests
"""

# the hints from a collected heap (``collect()``, outside the timing): the
# build, GC on, leaves the heap full of its garbage, so the first hint whose
# allocation found no room paid a whole collection (~8 ms on the virtual
# Pico: 17.3 ms for the worst hint on a fresh boot, 8.4 ms after one
# collection; which hint, if any, met it moved with the heap the parts
# before left: 9.1 ms, then 16.1 ms for the same hints; 10.2 ms collected)
_KLOTSKI = r"""
import klotski
def full():
    s, r = klotski.solver_for(%(layout)r)
    s.build()
    return s, r
(s, r), ms = cost(full)
collect()
worst = 0
rank = r
for i in range(81):
    mv, h = cost(s.best_move, rank)
    worst = max(worst, h)
    rank = mv[2]
emit('klotski', (ms, worst))
import hashlib, binascii
emit('check_klotski', binascii.hexlify(hashlib.sha256(s.table).digest()).decode())
del s
"""

# between two parts on the virtual Pico: forget the modules the part imported
# and collect, as the launcher does when a game exits, so each part starts
# from the same heap (the Klotski table does not fit beside every other
# game's modules and garbage)
MODULES_AT_START = r"""
import sys
KEEP = set(sys.modules)
"""
FORGET_PART = r"""
for _m in list(sys.modules):
    if _m not in KEEP:
        del sys.modules[_m]
gc.collect()
"""

# one full frame: the launcher redrawn from scratch and every page sent
_FRAME = r"""
idle(5)
def full_frame():
    rt.invalidate_frame()
    rt.display.invalidate()
    rt.step()
_, ms = cost(full_frame)
emit('frame', ms)
"""

# the firmware booted on the real hardware layer, stepped on the simulator's clock
_PICO_SETUP = vpframes._STEPPED_BOOT + r"""
def step(mask=0):
    steps(1)
idle = steps
"""

# main.py ran before Ctrl-C: forget its modules, so BASE is the bare interpreter's heap
_HEAP_BASE = r"""
import sys
for _m in list(sys.modules):
    if _m != 'rp2':
        del sys.modules[_m]
gc.collect()
BASE = gc.mem_alloc()
"""

_HEAP_LAUNCHER = r"""
idle(10)
del boardcfg, cfg
gc.collect()
emit('heap_launcher', gc.mem_alloc() - BASE)
"""

# per game: start it from the launcher (buttons on the GPIO pins, driven by the
# host between calls), play, and sample the live heap after every tick
_HEAP_GAME = r"""
def play(n, peak):
    for _ in range(n):
        step()
        gc.collect()
        a = gc.mem_alloc() - BASE
        if a > peak[0]:
            peak[0] = a
PEAK = [0]
"""

# Cat & Mouse's watch mode, every tick timed whole (buttons, the scene's tick
# and draw, the frame sent) from the A on its title that enters it (the one
# that imports catmouse_watch, kept apart): each speed, BFS and A*, paused
# steps, a board switch.  WORST = [worst tick after the first, ticks, first]
_WATCH_TICKS = r"""
def watch(n, worst):
    for _ in range(n):
        t = time.ticks_us()
        step()
        ms = time.ticks_diff(time.ticks_us(), t) / 1000.0
        if not worst[1]:
            worst[2] = ms
        elif ms > worst[0]:
            worst[0] = ms
        worst[1] += 1
WORST = [0.0, 0, 0.0]
"""
WATCH_SCRIPT = ("a wait:60 up wait:40 up wait:40 up wait:60 left wait:60 "
                "up wait:60 a right*6 a wait:10 down wait:90 left wait:90")

# the timed parts, in the order they run (hwtest runs the same on a real board)
PARTS = (("grid", _GRID), ("mouse", _MOUSE), ("trapcat", _TRAPCAT), ("trapcat_look", _TRAPCAT_LOOK),
         ("junqi", _JUNQI), ("klotski", _KLOTSKI))

# the rows the timed parts give: (figure, tag, index in the tag's tuple or None, budget ms)
ROWS = (
    ("BFS 16x8 default board", "bfs", None, bench_grid.BFS_16x8_MS),
    ("A* 16x8 default board", "astar", None, bench_grid.ASTAR_16x8_MS),
    ("evasive mouse, largest slice", "mouse_slice", 0, 50.0),
    ("9x9 hard cat move, max", "trapcat", 0, 250.0),
    ("9x9 hard cat move, mean", "trapcat", 1, None),
    ("9x9 hint (strong blocker), max", "trapcat_hint", 0, 1000.0),
    ("9x9 hint (strong blocker), mean", "trapcat_hint", 1, None),
    ("9x9 hint, the tournament's costliest (7-move look), max", "trapcat_look", 0, 1000.0),
    ("9x9 hint, the tournament's costliest (7-move look), mean", "trapcat_look", 1, None),
    ("9x9 hint, the tournament's costliest, largest slice", "trapcat_look_slice", 0, 50.0),
    ("Junqi engineer all destinations, busy board", "junqi_route", None, 20.0),
    ("Klotski full table (横刀立马)", "klotski", 0, 8000.0),     # budget: <= 8 s on the Pico
    ("Klotski worst hint along the solution", "klotski", 1, 50.0),
)

GAME_SCRIPTS = (
    # (game title, key script from the launcher with the cursor on it, exit script)
    # (every game is left the same way: B held for the pause menu, UP round to QUIT, A)
    ("Cat & Mouse", "a wait:2 a wait:3 left wait:15 up wait:15", "hold:b:20 up a wait:2"),
    ("Trap the Cat", "a wait:3 right a wait:15 up a wait:15", "hold:b:20 up a wait:2"),
    ("Flip Junqi", "a wait:2 a wait:2 a wait:30", "hold:b:20 up a wait:2"),
    ("Klotski", "a wait:2 a wait:40 right wait:5", "hold:b:20 up a wait:2"),
)


def params():
    name, cols, rows, costs, src, dst = bench_grid.boards()[0]
    return {"costs": costs, "src": src, "dst": dst, "games": 4,
            "occ": bench_junqi._busy_occ(), "layout": bench_klotski.LAYOUT}


def vm_estimates():
    """ms estimated from VM fuel for every timed part."""
    p = params()
    est = {}
    for part in (_GRID, _MOUSE, _TRAPCAT, _JUNQI, _KLOTSKI):
        est.update(mpvm.run(_VM_PRELUDE + part % p, timeout=900).results)
    with runtime_vm.staged_firmware() as fw:
        r = mpvm.run(_VM_PRELUDE + runtime_vm.SETUP + r"""
b0 = dev.bytes; t0 = dev.transactions
""" + _FRAME + r"""
emit('frame_i2c', (dev.bytes - b0, dev.transactions - t0))
""", input_dir=fw).results
    from host_tools.bench.bench_runtime import wire_ms
    data, trans = r["frame_i2c"]
    est["frame"] = r["frame"] + wire_ms(data, trans)
    return est


def vpico_figures():
    """Every part on the virtual Pico running the flashed firmware (three boots)."""
    p = params()
    p["look"] = bench_trapcat.costliest_hints()
    out = {}
    with vpfirmware.firmware_pico() as pico:
        vpfirmware.repl(pico)
        pico.exec(PRELUDE)
        pico.exec(MODULES_AT_START)
        for _, part in PARTS:
            out.update(mpvm._parse_results(pico.exec(part % p, emulated_ms=600000, timeout=3600)))
            pico.exec(FORGET_PART)
    # a second boot: the heap figures start from the bare REPL's heap
    with vpfirmware.firmware_pico() as pico:
        out.update(heap_figures(pico))
    # a third boot: Cat & Mouse's watch mode from a fresh launcher (its cursor on
    # Cat & Mouse), to its title and PLAY AS: WATCH untimed, then timed from the A
    # that starts it (catmouse_watch imported; the game loads over the next ticks)
    with vpfirmware.firmware_pico() as pico:
        vpfirmware.repl(pico)
        pico.exec(PRELUDE)
        pico.set_buttons(())
        pico.exec(_PICO_SETUP)
        pico.exec(_WATCH_TICKS)
        for script, run in (("wait:2 a wait:2 left wait:2", "steps(%d)"),
                            (WATCH_SCRIPT, "watch(%d, WORST)")):
            for tick, count in vpframes._runs(parse_keys(script)):
                pico.set_buttons(tick)
                pico.exec(run % count, emulated_ms=600000, timeout=3600)
        out.update(mpvm._parse_results(pico.exec(
            "emit('watch_tick', tuple(WORST))\n"
            "emit('watch_end', (type(rt.screen).__module__, type(rt.screen.screen).__name__,"
            " rt.screen.level))")))
    return out


def qstr_pool_bytes(pico):
    """The interned names' pools (micropython.qstr_info's n_total_bytes): never
    freed, and grown a chunk at a time, each about twice the last (18 KB to
    29 KB in one step), in whichever game's imports fill the last one."""
    return int(soak.QSTR_POOL.search(pico.exec("import micropython\nmicropython.qstr_info()")).group(1))


def heap_figures(pico):
    """On a started virtual Pico running the flashed firmware: the full frame's ms
    ("frame"), the resident heap at the launcher ("heap_launcher") and each game's
    peak live heap ("peak TITLE"), from the bare REPL's heap (bench_romfs runs the
    same on the ROMFS firmware)."""
    out = {}
    vpfirmware.repl(pico)
    pico.exec(PRELUDE)
    pico.exec(_HEAP_BASE)
    pico.set_buttons(())
    pico.exec(_PICO_SETUP)
    out.update(mpvm._parse_results(pico.exec(_FRAME)))
    out.update(mpvm._parse_results(pico.exec(_HEAP_LAUNCHER)))
    out["qstr launcher"] = qstr_pool_bytes(pico)
    pico.exec(_HEAP_GAME)
    for title, keys, leave in GAME_SCRIPTS:
        pico.exec("PEAK[0] = 0")
        for tick, count in vpframes._runs(parse_keys(keys + " " + leave)):
            pico.set_buttons(tick)
            pico.exec("play(%d, PEAK)" % count, emulated_ms=600000, timeout=3600)
        out["peak " + title] = int(pico.exec("print(PEAK[0])").strip())
        out["qstr " + title] = qstr_pool_bytes(pico)
        pico.set_buttons(("down",))
        pico.exec("step(); step()")
        pico.set_buttons(())
        pico.exec("idle(2)")
    return out


def recorded_figures(path):
    """{row name: value} of this section in an earlier run's bench.json ({} when
    there is none): what hwtest and the CircuitPython section put beside theirs."""
    from pathlib import Path

    from host_tools.bench.runner import load_rows
    if not Path(path).exists():
        return {}
    return {name: row["value"] for (section, name), row in load_rows(path).items()
            if section == SECTION}


def _row(report, name, pico_ms, est_ms, budget=None, note=""):
    ratio = ""
    if pico_ms and est_ms:
        ratio = "est. %.3g ms = %.2fx" % (est_ms, est_ms / pico_ms)
    report.add(SECTION, name, round(pico_ms, 2), "ms", budget,
               note="; ".join(part for part in (ratio, note) if part))


def _notes(got):
    """The note of each timed row: counts, and what the VM estimate stands for."""
    return {
        "evasive mouse, largest slice": "%d slices, 60-round game" % got["mouse_slice"][1],
        "9x9 hard cat move, max": "%d moves, 4 games" % got["trapcat"][2],
        "9x9 hint (strong blocker), max": "%d hints, whole, same 4 games; est. is the VM's hint: "
                                          "no kernel there, no 7-move look" % got["trapcat_hint"][2],
        "9x9 hint, the tournament's costliest (7-move look), max":
            "%d hints of 200 games, most search work; kernel %s" % got["trapcat_look"][2:4],
        "9x9 hint, the tournament's costliest, largest slice":
            "%d slices of step() (SLICE_UNITS work units)" % got["trapcat_look_slice"][1],
    }


def sleep_rows(report):
    """Idle and sleep, main.py's own loop (host_tools/emulation/vpsleep.py)."""
    got = vpsleep.measure()
    window = "%.0f s with the panel off" % (got["off_window_ms"] / 1000)
    report.add(SECTION, "sleep: CPU busy while the screen is off", round(100 * got["off_busy"], 2),
               "%", 5.0, note="emulated time executing, not halted in WFI/WFE, over %s" % window)
    # the battery while a screen waits for a press: the tick's own work plus the
    # buttons' poll between ticks (every 8 ms; a 1 ms poll read 21.5 % here)
    report.add(SECTION, "idle launcher, screen on: CPU busy", round(100 * got["awake_busy"], 2),
               "%", 15.0, note="2 s of main.py's loop on the launcher, nothing pressed")
    report.add(SECTION, "sleep: I2C bytes while the screen is off", got["off_i2c_bytes"], "bytes",
               0, note=window)
    wake = got["wake_ticks"]
    # set by the doze's poll interval (a timer) and the frame's 1 KB over I2C at
    # 400 kHz (~23 ms of wire), not by the CPU (~1 ms of it): no device margin
    report.add(SECTION, "wake to a full frame", None if wake is None else round(wake, 2), "ticks",
               2.0, kind="bus",
               note="A pressed just after a poll (polls %s ms apart) to the panel lit with the "
               "whole frame: %.1f ms, the wait for the poll and the frame on the wire; the press "
               "did %s" % (got["poll_gap_ms"], got["wake_ms"] or 0,
                           "nothing else" if got["press_did_nothing"] else "MORE"))


def resume_rows(report):
    """The save of the game in progress after each move, on the flash's littlefs
    (host_tools/emulation/vpresume.py): Trap the Cat over several games, Klotski
    with its undo ring full (the largest snapshot)."""
    got = vpresume.save_costs(20)
    saves = got["trapcat_saves"]
    tick, tick_and_save = got["trapcat_worst_tick"]
    report.add(SECTION, "per-move save of the game in progress (Trap the Cat), max", round(max(saves), 2),
               "ms", 30.0, note="%d saves over %d moves, %d games; mean %.1f ms; a game's end "
               "(its game in progress cleared, its records stored: after its tick too, as a move's "
               "save) %s ms" % (
                   len(saves), got["trapcat_moves"][0], got["trapcat_moves"][1] + 1,
                   sum(saves) / len(saves), "/".join("%.1f" % ms for ms in got["trapcat_ends"]) or "-"))
    ksaves = got["klotski_saves"]
    ms, layouts, size, snap_ms, encode_ms = got["klotski_save"]
    report.add(SECTION, "per-move save (Klotski, undo ring full), max", round(max(ksaves), 2), "ms", 30.0,
               note="%d saves; mean %.1f ms; %d B file (%d undo layouts in play); snapshot %.1f ms, "
               "encode %.1f ms" % (len(ksaves), sum(ksaves) / len(ksaves), size, layouts, snap_ms,
                                   encode_ms))
    report.add(SECTION, "worst tick + the save after it (Trap the Cat)", round(tick_and_save, 2), "ms",
               50.0, note="the save runs after a tick's frame is sent, the first tick under 16 ms "
               "(at most 8 later); worst tick alone %.1f ms, a collection ahead of need "
               "included" % tick)
    for title, key in (("Trap the Cat", "trapcat_flash"), ("Klotski, undo ring full", "klotski_flash")):
        saves = got[key]
        each = [ms + vpresume.chip_ms(erased, programmed) for ms, erased, programmed in saves]
        erases = sum(1 for _, erased, _ in saves if erased)
        report.add(SECTION, "per-move save with the flash chip's own time, est. (%s), mean" % title,
                   round(sum(each) / len(each), 2), "ms", 30.0,
                   note="%d saves, worst %.1f ms: emulated ms + %.0f ms per 4 KB erase, %.1f ms per "
                   "256 B page (W25Q16JV typ.; the emulator takes none); %d of them erased a sector "
                   "(littlefs compacting the folder's log, or a file too big to live in it), %d B "
                   "programmed at most" % (len(saves), max(each), vpresume.SECTOR_ERASE_MS,
                                           vpresume.PAGE_PROGRAM_MS, erases,
                                           max(p for _, _, p in saves)))


def collect(report):
    sleep_rows(report)
    resume_rows(report)
    est = vm_estimates()
    got = vpico_figures()
    notes = _notes(got)
    for name, tag, index, budget in ROWS:
        value = got[tag] if index is None else got[tag][index]
        estimate = est.get(tag)            # the look runs in the viper kernel: no VM estimate
        if estimate is not None and index is not None:
            estimate = estimate[index]
        _row(report, name, value, estimate, budget, notes.get(name, ""))
    _row(report, "full frame: launcher redrawn + all pages over I2C at 400 kHz",
         got["frame"], est["frame"], 50.0, "est. = VM fuel + wire time")
    worst, ticks, entry = got["watch_tick"]
    if got["watch_end"] != ("catmouse_game", "WatchScreen", 1):    # watching, on the map switched to
        raise RuntimeError("the watch-mode script ended on %r, not in WATCH" % (got["watch_end"],))
    _row(report, "Cat & Mouse watch mode: worst tick", worst, None, 50.0,
         "%d ticks: each speed, BFS and A*, steps, a board switch; whole ticks, "
         "frame sent" % (ticks - 1))
    _row(report, "Cat & Mouse watch mode: the tick that enters it", entry, None, 50.0,
         "A on the title: catmouse_watch imported (the game loads over the next ticks)")
    report.add(SECTION, "resident heap at the launcher (GC on, after gc.collect())",
               got["heap_launcher"], "bytes", 60 * 1024,
               note="gc.mem_alloc() less the bare REPL's")
    for title, _, _ in GAME_SCRIPTS:
        report.add(SECTION, "%s peak live heap" % title, got["peak " + title], "bytes",
                   PICO_W_HEAP, note="max over ticks, after gc.collect(); budget: Pico W heap")
    # which game's visit meets the names' pool's next chunk depends on how many
    # names the games before it brought: these rows compare games across changes
    for title, _, _ in GAME_SCRIPTS:
        grown = got["qstr " + title] - got["qstr launcher"]
        report.add(SECTION, "%s peak live heap less the names' pool growth" % title,
                   got["peak " + title] - grown, "bytes", None,
                   note="the row above less the qstr pool's growth since the launcher (%d -> %d B, "
                   "read after the visit)" % (got["qstr launcher"], got["qstr " + title]))
