"""Run the whole firmware (launcher + games) inside the MicroPython VMs.

``staged_firmware()`` copies firmware/*.py into a temporary directory (games.py
as `flash` writes it) together with host_tools/emulation/fakemachine.py as
``machine.py`` (the VMs have a built-in
``framebuf``).  ``SETUP`` is guest code that boots the default board on a
counting I2C device with a virtual clock; then ``step(mask)`` runs one tick
with the buttons in ``mask`` held (bit flags from buttons.py).
Shared by tests/test_runtime_vm.py and host_tools/bench/bench_runtime.py.
"""

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from host_tools.core.fwpath import FRAMEBUF_DIR, ROOT


@contextmanager
def staged_firmware():
    tmp = Path(tempfile.mkdtemp(prefix="fw-vm-"))
    try:
        for path in (ROOT / "firmware").glob("*.py"):
            shutil.copy(path, tmp / path.name)
        shutil.copy(ROOT / "host_tools" / "emulation" / "fakemachine.py", tmp / "machine.py")
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# Guest code shared by both backends once ``hw`` exists: a virtual clock, the
# button pins driven through LEVELS, boot, and step/tap/idle helpers.
_DRIVE = r"""
CLOCK = [0]
def _ticks():
    return CLOCK[0]
def _sleep(ms):
    CLOCK[0] += ms
hw.ticks_ms = _ticks
hw.sleep_ms = _sleep
PINS = (2, 3, 6, 7, 8, 9)
LEVELS = PIN_LEVELS
def press(mask):
    for i in range(6):
        LEVELS[PINS[i]] = 0 if mask & (1 << i) else 1
press(0)
rt = main.boot(cfg, hw, saves.Saves(saves.MemFs()))
def _nocollect():
    pass
if not GC_SAFE:
    rt.collect = _nocollect
def step(mask=0):
    press(mask)
    rt.step()
    CLOCK[0] += 33
def tap(mask, n=1):
    for _ in range(n):
        step(mask); step(mask); step(0); step(0)
def idle(n):
    for _ in range(n):
        step(0)
"""

SETUP = r"""
try:
    GC_SAFE
except NameError:
    GC_SAFE = False
import machine
dev = machine.Counter()
machine.attach(0x3C, dev)
import boardcfg, hw_machine, main, buttons
import savestore as saves
cfg = boardcfg.validate(boardcfg.DEFAULT)
hw = hw_machine.Hardware(cfg)
PIN_LEVELS = machine.levels
""" + _DRIVE


@contextmanager
def staged_cp_firmware():
    """firmware/*.py + what the CircuitPython backend needs inside the VMs, where
    Blinka cannot run: our board/keypad/supervisor (host_tools/emulation/fakecp), the smallest
    stand-ins of CircuitPython's C display modules (host_tools/emulation/vmcp, tested to send
    the real stack's bytes), the REAL Adafruit drivers (their .py from the installed
    packages), and the pure-Python framebuf as ``cpframebuf.py`` (the VMs' built-in
    framebuf would win over a ``framebuf.py``; CP_FRAMEBUF installs it under that name)."""
    import importlib.util

    drivers = [Path(importlib.util.find_spec(name).origin)      # located, not imported
               for name in ("adafruit_displayio_ssd1306", "adafruit_displayio_sh1106")]
    with staged_firmware() as tmp:
        (tmp / "machine.py").unlink()
        for folder in ("fakecp", "vmcp"):
            for path in (ROOT / "host_tools" / "emulation" / folder).glob("*.py"):
                shutil.copy(path, tmp / path.name)
        for path in drivers:
            shutil.copy(path, tmp / path.name)
        shutil.copy(FRAMEBUF_DIR / "framebuf.py", tmp / "cpframebuf.py")
        yield tmp


def cp_cfg_line(board="pico-cp-ssd1306"):
    """Guest line defining CP_CFG (the board file as a dict) for CP_SETUP."""
    import json

    return "CP_CFG = %r\n" % (json.loads((ROOT / "boards" / (board + ".json")).read_text()),)


# The pure-Python framebuf replaces the built-in one (sys.modules is consulted
# first by import); CP_FAKES imports the stand-ins (host_tools/emulation/fakecp,
# host_tools/emulation/vmcp) and the real driver.
CP_FRAMEBUF = r"""
import sys
import cpframebuf
sys.modules['framebuf'] = cpframebuf
"""

CP_FAKES = r"""
import board, busio, displayio, busdisplay, i2cdisplaybus, bitmaptools, keypad, supervisor
import adafruit_displayio_ssd1306
class _Sink:
    def write(self, data):
        pass
busio.attach(0x3C, _Sink())
"""

CP_SETUP = r"""
try:
    GC_SAFE
except NameError:
    GC_SAFE = False
import boardcfg, hw_circuitpython, main, buttons
import savestore as saves
cfg = boardcfg.validate(CP_CFG)
hw = hw_circuitpython.Hardware(cfg)
PIN_LEVELS = keypad.levels
""" + _DRIVE

# After CP_SETUP: replace the C work of a frame (bitmaptools.readinto and the
# displayio refresh, per-pixel Python in the fakes) by no-ops, so that what is
# counted is the Python that runs on the device, and a long GC-off run does not
# fill the heap with the fakes' garbage.
CP_NO_C = r"""
def _noread(*a):
    pass
class _NoOled:
    brightness = 1.0
    def refresh(self):
        pass
    def sleep(self):
        pass
    def wake(self):
        pass
hw.display._readinto = _noread
hw.display.oled = _NoOled()
"""
