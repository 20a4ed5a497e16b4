"""`make bench` figures for the CircuitPython / Blinka backend (issue 8).

Measured on the host with the fake CircuitPython modules (host_tools/fakecp)
decoding into the controller model: I2C bytes and wire time of a full frame and
of a one-page change through displayio, beside the MicroPython driver.  The
Python-side cost of a CircuitPython frame is the glue in DisplayioOled.show()
(page compare + BytesIO write + one bitmaptools.readinto call per changed page;
readinto and displayio's rendering are C on the device and are NOT counted
here); drawing is the pure-Python framebuf deployed as framebuf.py, measured as
fuel in the MicroPython VM (a proxy for the Pico: 1.1e8 fuel ~ 1 s).
CIRCUITPYTHON_RP2040_HEAP is the heap a Pico has under CircuitPython."""

from host_tools.bench_runtime import wire_ms

CIRCUITPYTHON_RP2040_HEAP = 179328
SECTION = "CircuitPython backend (issue 8)"

_VM_DRAW = r"""
import sys
sys.path.insert(0, '/input/hostfb')
import framebuf as builtin
buf = bytearray(1024)
def scene(fb):
    fb.fill(0)
    fb.fill_rect(0, 0, 128, 10, 1)
    fb.text('POCKET PUZZLES', 8, 1, 0)
    for i in range(5):
        fb.text('GAME %d' % i, 8, 14 + 9 * i, 1)
    fb.rect(2, 13 + 9 * 2, 124, 10, 1)
    fb.line(0, 63, 127, 0, 1)
fb = builtin.FrameBuffer(buf, 128, 64, builtin.MONO_VLSB)
scene(fb)
emit('native', measure(scene, fb)[1])
del sys.modules['framebuf']
sys.path.pop(0)
sys.path.insert(0, '/input/hostfb')
import hostfb_framebuf as pyfb
fb2 = pyfb.FrameBuffer(buf, 128, 64, pyfb.MONO_VLSB)
scene(fb2)
emit('python', measure(scene, fb2)[1])
"""


def _i2c_figures(report):
    from host_tools.cpsim import CpSimulator
    from host_tools.sim import Simulator

    for mp_board, cp_board in (("pico-ssd1306", "pico-cp-ssd1306"), ("pico-sh1106", "pico-cp-sh1106")):
        cp = CpSimulator(cp_board)
        busio = cp.fakes["busio"]
        d = cp.hw.display
        d.invalidate()
        n = len(busio.log)
        d.show()
        full = busio.log[n:]
        data = sum(len(x) for _, x in full)
        report.add(SECTION, "I2C bytes per full frame, displayio (%s)" % cp_board.split("-")[-1],
                   data + len(full), "bytes", note="%d transactions" % len(full))
        report.add(SECTION, "wire time of a full frame, displayio (%s)" % cp_board.split("-")[-1],
                   round(wire_ms(data, len(full)), 2), "ms", budget=33.3)
        was = d.fb.pixel(5, 20)
        d.fb.pixel(5, 20, 1 - was)
        n = len(busio.log)
        d.show()
        part = busio.log[n:]
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
    import shutil
    import tempfile
    from pathlib import Path

    from host_tools import mpvm

    tmp = Path(tempfile.mkdtemp(prefix="cp-bench-"))
    try:
        (tmp / "hostfb").mkdir()
        shutil.copy(Path(__file__).resolve().parent / "hostfb" / "framebuf.py",
                    tmp / "hostfb" / "hostfb_framebuf.py")
        r = mpvm.run(_VM_DRAW, input_dir=tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report.add(SECTION, "launcher-like scene, built-in framebuf (MicroPython)",
               round(mpvm.pico_ms(r["native"]), 2), "ms (Pico)", note="VM fuel proxy")
    report.add(SECTION, "same scene, pure-Python framebuf (CircuitPython)",
               round(mpvm.pico_ms(r["python"]), 2), "ms (Pico)", budget=33.3,
               note="VM fuel proxy; CircuitPython has no built-in framebuf")


def collect(report):
    _i2c_figures(report)
    try:
        _vm_figures(report)
    except Exception as exc:   # VM missing: report, do not crash the bench
        report.add(SECTION, "pure-Python framebuf scene (CircuitPython)", None, "ms (Pico)",
                   note="not measured: VM run failed (%s)" % str(exc).splitlines()[0][:50])
    report.add(SECTION, "CircuitPython RP2040 heap (reference)", CIRCUITPYTHON_RP2040_HEAP, "bytes",
               note="launcher heap under CircuitPython not measured yet (see docs/circuitpython.md)")
