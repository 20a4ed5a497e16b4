"""`make bench` figures for the handheld runtime: resident heap at the
launcher (Node MicroPython port, GC on), allocation per Cat & Mouse tick and
I2C traffic (WASI VM, fuel counted), and the wire time of a full frame."""

from host_tools.emulation import mpnode, mpvm, runtime_vm

I2C_HZ = 400000

# The Node port collects garbage only at the top level (see node_runner.mjs):
# gc.collect() inside a part just schedules it, so every figure is read in the
# part after the collect.  Read within one part, mem_alloc() counts everything
# allocated since the start (compiler scratch, boardcfg after it was dropped,
# temporaries), not what stays resident.
_HEAP = r"""
GC_SAFE = True
import gc
gc.collect()
#@@toplevel
_a = gc.mem_alloc()
import machine       # the fake: built into the firmware on a real device
gc.collect()
#@@toplevel
FAKE_MACHINE = gc.mem_alloc() - _a
""" + runtime_vm.SETUP + r"""
del boardcfg         # the harness's own reference (main.boot drops the module)
idle(10)
BOOT_TOTAL = gc.mem_alloc() - _a - FAKE_MACHINE   # nothing freed yet in this part
gc.collect()
#@@toplevel
emit('heap', (gc.mem_alloc() - _a - FAKE_MACHINE, BOOT_TOTAL, FAKE_MACHINE))
"""

_VM = runtime_vm.SETUP + r"""
import gc
idle(1)
d = rt.display
# the cheapest of five idle ticks (six in all, as before): one tick's fuel varies
# by up to ~15 % with where boot left things on the heap (not after a gc.collect())
emit('launcher_tick', min(measure(step, 0)[1:] for _ in range(5)))
b0 = dev.bytes; t0 = dev.transactions
d.invalidate()
d.show()
emit('full_frame', (dev.bytes - b0, dev.transactions - t0))
tap(buttons.A); idle(3); tap(buttons.A); idle(8)
g = rt.screen
idle_ticks = [measure(step, 0) for _ in range(10)]
emit('cm_idle', (max(t[1] for t in idle_ticks), max(t[2] for t in idle_ticks)))
moves = (buttons.LEFT, buttons.UP, buttons.LEFT, buttons.UP, buttons.A, buttons.LEFT, buttons.DOWN)
c = g.match.game
a0 = gc.mem_alloc(); b0 = dev.bytes; t0 = dev.transactions; n0 = rt.ticks; r0 = c.round
for k in range(21):
    step(moves[k % 7]); step(moves[k % 7])
    for _ in range(6):
        step(0)
play = (gc.mem_alloc() - a0, dev.bytes - b0, dev.transactions - t0, rt.ticks - n0, c.round - r0)
worst = 0                                # a second stretch of play, timed (measure() allocates)
ending = 0                               # the tick that ends a game (records stored), apart
first = 0                                # a new game's first ticks (map, AI's board), apart
for k in range(21):
    step(moves[k % 7]); step(moves[k % 7])
    for _ in range(6):
        # a new game's first map (Scene.held) and the AI's board (Match.ready)
        # come in the ticks after its start: the start's work, timed apart
        playing = g.screen is g.play and not g.match.game.winner
        starting = playing and not g.match.prepared
        _, f, _a = measure(step, 0)
        if starting:
            first = max(first, f)
        if starting or not playing:
            continue
        if g.match.game.winner:
            ending = max(ending, f)
        elif f > worst:
            worst = f
emit('play', play + (worst, ending, first))
"""


def wire_ms(data_bytes, transactions):
    """I2C time: 9 bits per byte incl. the address byte, + start/stop per transaction."""
    bits = 9 * (data_bytes + transactions) + 2 * transactions
    return bits * 1000.0 / I2C_HZ


def collect(report):
    section = "runtime"
    with runtime_vm.staged_firmware() as fw:
        try:
            heap = mpnode.run(_HEAP, firmware_dir=fw)["heap"]
            report.add(section, "resident heap at the launcher (GC on)", heap[0], "bytes",
                       budget=60 * 1024, kind="proxy",
                       note="Node port (modules compiled from source in RAM), collected at top level, "
                       "less the fake machine; the figure that counts is the virtual Pico's (.mpy as "
                       "flashed) in its own section")
            report.add(section, "heap allocated from boot to the launcher", heap[1], "bytes",
                       note="before any collection: incl. compiler scratch, boardcfg")
        except Exception as exc:  # node missing: report, do not crash the bench
            report.add(section, "resident heap at the launcher (GC on)", None, "bytes",
                       budget=60 * 1024, note="not measured: %s" % str(exc).splitlines()[0][:60])
        r = mpvm.run(_VM, input_dir=fw)
    fuel, alloc = r["launcher_tick"]
    report.add(section, "launcher idle tick", round(mpvm.pico_ms(fuel), 2), "ms (Pico)", budget=33.3)
    fuel, alloc = r["cm_idle"]
    report.add(section, "Cat & Mouse bytes allocated per idle tick", alloc, "bytes", budget=0)
    report.add(section, "Cat & Mouse idle tick (worst of 10)", round(mpvm.pico_ms(fuel), 2), "ms (Pico)",
               budget=33.3)
    alloc, sent, trans, ticks, rounds, worst, ending, first = r["play"]
    report.add(section, "Cat & Mouse bytes allocated per tick in play", round(alloc / ticks, 1), "bytes",
               budget=0, note="%d rounds, %d ticks" % (rounds, ticks))
    report.add(section, "Cat & Mouse worst tick in play (AI move)", round(mpvm.pico_ms(worst), 2),
               "ms (Pico)", budget=33.3,
               note="a new game's first tick of play (the AI's board loaded): %s ms" % (
                   round(mpvm.pico_ms(first), 2) if first else "not reached"))
    # the catch that ends the game stores the records, importing catmouse_records:
    # the VM compiles it from source, a Pico loads the .mpy (its figure: the
    # virtual Pico's soak rows, which time every tick of play, endings included)
    report.add(section, "Cat & Mouse tick that ends a game (records stored)",
               round(mpvm.pico_ms(ending), 2) if ending else None, "ms (Pico)",
               note="VM estimate incl. compiling catmouse_records from source; no budget here")
    report.add(section, "I2C bytes per typical move", round((sent + trans) / max(rounds, 1)), "bytes",
               note="player move + AI answer, incl. address bytes")
    data, trans = r["full_frame"]
    report.add(section, "I2C bytes per full frame (SSD1306)", data + trans, "bytes")
    report.add(section, "wire time of a full frame at 400 kHz", round(wire_ms(data, trans), 2), "ms",
               budget=23.5, kind="bus", note="set by the I2C clock, not the CPU: no margin")
    sh = 8 * ((4 + 1) + (129 + 1))
    report.add(section, "wire time of a full frame at 400 kHz (SH1106)", round(wire_ms(sh - 16, 16), 2),
               "ms", note="page addressing: 8 windows + 8 data writes")
