"""`make bench` figures for the CircuitPython / Blinka backend.

I2C bytes and wire time of a full frame and of a one-page change are measured
on the host through the real displayio stack (Blinka's displayio + Adafruit's
drivers, host_tools/emulation/cpsim.py) decoding into the controller model, beside the
MicroPython driver.  The
Python-side cost of a CircuitPython frame is the glue in DisplayioOled.show()
(page compare + BytesIO write + one bitmaptools.readinto call per changed page;
readinto and displayio's rendering are C on the device and are NOT counted
here); drawing is the pure-Python framebuf deployed as framebuf.py, measured as
fuel in the MicroPython VM (a proxy for the Pico: 1.1e8 fuel ~ 1 s).
CIRCUITPYTHON_RP2040_HEAP is the heap a Pico has under CircuitPython."""

from host_tools.emulation import runtime_vm
from host_tools.bench.bench_runtime import wire_ms

CIRCUITPYTHON_RP2040_HEAP = 179328
SECTION = "CircuitPython backend"

# one scene per VM run (GC off): the launcher (INDEX -1) or game INDEX's first screen
_SCENE = r"""
def draw_cost():
    fb = rt.fb
    scr = rt.screen
    scr.draw(fb)
    return min(measure(scr.draw, fb)[1] for _ in range(8))
idle(3)
if INDEX >= 0:
    tap(buttons.DOWN, INDEX); tap(buttons.A); idle(12)
emit('draw', draw_cost())
"""

# one idle launcher tick through Runtime.step (buttons, tick, frame cache, show glue),
# with the frame cache (draw skipped: the frame_key did not change) and without
_IDLE = r"""
idle(3)
emit('idle_cached', min(measure(step, 0)[1:] for _ in range(3)))
rt.frame_cache = False
idle(1)
emit('idle_uncached', min(measure(step, 0)[1:] for _ in range(3)))
rt.frame_cache = True
idle(1)
"""

# the Python glue of DisplayioOled.show() (readinto/refresh are C: stubbed by CP_NO_C)
_SHOW = r"""
d = rt.display
emit('show_same', measure(d.show)[1:])
d.invalidate()
emit('show_full', measure(d.show)[1:])
d.fb.pixel(5, 20, 1 - d.fb.pixel(5, 20))
emit('show_one', measure(d.show)[1:])
"""

# resident heap at the launcher, CircuitPython backend (Node port, GC on; see
# bench_runtime._HEAP): the stand-ins' and the driver's modules are measured first and taken off
_HEAP = r"""
GC_SAFE = True
import gc
gc.collect()
#@@toplevel
_a = gc.mem_alloc()
""" + runtime_vm.CP_FAKES + r"""
gc.collect()
#@@toplevel
FAKES = gc.mem_alloc() - _a
""" + runtime_vm.cp_cfg_line() + runtime_vm.CP_FRAMEBUF + runtime_vm.CP_SETUP + r"""
del boardcfg
idle(10)
gc.collect()
#@@toplevel
emit('heap', (gc.mem_alloc() - _a - FAKES, FAKES))
"""


def _i2c_figures(report):
    from host_tools.emulation.cpsim import CpSimulator
    from host_tools.emulation.sim import Simulator

    for mp_board, cp_board in (("pico-ssd1306", "pico-cp-ssd1306"), ("pico-sh1106", "pico-cp-sh1106")):
        cp = CpSimulator(cp_board)
        log = cp.i2c.log
        d = cp.hw.display
        d.invalidate()
        n = len(log)
        d.show()
        full = log[n:]
        data = sum(len(x) for _, x in full)
        report.add(SECTION, "I2C bytes per full frame, displayio (%s)" % cp_board.split("-")[-1],
                   data + len(full), "bytes", note="%d transactions" % len(full))
        report.add(SECTION, "wire time of a full frame, displayio (%s)" % cp_board.split("-")[-1],
                   round(wire_ms(data, len(full)), 2), "ms", budget=33.3, kind="bus")
        was = d.fb.pixel(5, 20)
        d.fb.pixel(5, 20, 1 - was)
        n = len(log)
        d.show()
        part = log[n:]
        report.add(SECTION, "I2C bytes for a one-page change, displayio (%s)" % cp_board.split("-")[-1],
                   sum(len(x) + 1 for _, x in part), "bytes")
        mp = Simulator(mp_board)
        mp.hw.display.invalidate()
        t0, b0 = mp.fake.stats["transactions"], mp.fake.stats["bytes"]
        mp.hw.display.show()
        report.add(SECTION, "I2C bytes per full frame, MicroPython driver (%s)" % mp_board.split("-")[-1],
                   mp.fake.stats["bytes"] - b0, "bytes",
                   note="%d transactions" % (mp.fake.stats["transactions"] - t0))


def _vm_figures(report):
    from host_tools.emulation import mpvm

    cp = runtime_vm.cp_cfg_line() + runtime_vm.CP_FRAMEBUF + runtime_vm.CP_FAKES + runtime_vm.CP_SETUP \
        + runtime_vm.CP_NO_C
    import games

    for index, name in [(-1, "launcher")] + [(i, g[games.ID]) for i, g in enumerate(games.GAMES)]:
        with runtime_vm.staged_cp_firmware() as fw:
            r = mpvm.run(cp + "INDEX = %d\n" % index + _SCENE + (_IDLE + _SHOW if index < 0 else ""),
                         input_dir=fw)
        with runtime_vm.staged_firmware() as fw:
            r2 = mpvm.run(runtime_vm.SETUP + "INDEX = %d\n" % index + _SCENE, input_dir=fw)
        report.add(SECTION, "draw %s, pure-Python framebuf (CircuitPython proxy)" % name,
                   round(mpvm.pico_ms(r["draw"]), 2), "ms (Pico)", budget=33.3,
                   note="MicroPython VM fuel; built-in framebuf: %.2f ms" % mpvm.pico_ms(r2["draw"]))
        if index < 0:
            (fuel, alloc), (fuel2, alloc2) = r["idle_cached"], r["idle_uncached"]
            report.add(SECTION, "idle launcher tick through Runtime.step, frame cache (CircuitPython proxy)",
                       round(mpvm.pico_ms(fuel), 2), "ms (Pico)", budget=33.3,
                       note="%d B allocated; frame cache off: %.2f ms, %d B" % (
                           alloc, mpvm.pico_ms(fuel2), alloc2))
            for tag, what in (("show_same", "no page changed"), ("show_full", "all 8 pages"),
                              ("show_one", "one page changed")):
                fuel, alloc = r[tag]
                report.add(SECTION, "displayio show() Python glue, %s" % what,
                           round(mpvm.pico_ms(fuel), 2), "ms (Pico)",
                           note="%d B allocated; readinto/refresh are C, not counted" % alloc)


def _heap_figure(report):
    from host_tools.emulation import mpnode

    with runtime_vm.staged_cp_firmware() as fw:
        heap, fakes = mpnode.run(_HEAP, firmware_dir=fw)["heap"]
    report.add(SECTION, "resident heap at the launcher, CircuitPython backend", heap, "bytes",
               budget=CIRCUITPYTHON_RP2040_HEAP,
               note="Node port, GC on, less the stand-ins' and driver's modules (%d B); "
                    "stand-in displayio objects counted" % fakes)


def collect(report):
    _i2c_figures(report)
    try:
        _vm_figures(report)
    except Exception as exc:   # VM missing: report, do not crash the bench
        report.add(SECTION, "pure-Python framebuf scene (CircuitPython)", None, "ms (Pico)",
                   note="not measured: VM run failed (%s)" % str(exc).splitlines()[0][:50])
    try:
        _heap_figure(report)
    except Exception as exc:   # node missing
        report.add(SECTION, "resident heap at the launcher, CircuitPython backend", None, "bytes",
                   budget=CIRCUITPYTHON_RP2040_HEAP,
                   note="not measured: %s" % str(exc).splitlines()[0][:60])
