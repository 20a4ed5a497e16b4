"""Run the whole firmware (launcher + games) inside the MicroPython VMs.

``staged_firmware()`` copies firmware/*.py into a temporary directory together
with host_tools/fakemachine.py as ``machine.py`` (the VMs have a built-in
``framebuf``).  ``SETUP`` is guest code that boots the default board on a
counting I2C device with a virtual clock; then ``step(mask)`` runs one tick
with the buttons in ``mask`` held (bit flags from buttons.py).
Shared by tests/test_runtime_vm.py and host_tools/bench_runtime.py.
"""

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def staged_firmware():
    tmp = Path(tempfile.mkdtemp(prefix="fw-vm-"))
    try:
        for path in (ROOT / "firmware").glob("*.py"):
            shutil.copy(path, tmp / path.name)
        shutil.copy(ROOT / "host_tools" / "fakemachine.py", tmp / "machine.py")
        yield tmp
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


SETUP = r"""
try:
    GC_SAFE
except NameError:
    GC_SAFE = False
import machine
dev = machine.Counter()
machine.attach(0x3C, dev)
import boardcfg, hw_machine, main, saves, buttons
cfg = boardcfg.validate(boardcfg.DEFAULT)
hw = hw_machine.Hardware(cfg)
CLOCK = [0]
def _ticks():
    return CLOCK[0]
def _sleep(ms):
    CLOCK[0] += ms
hw.ticks_ms = _ticks
hw.sleep_ms = _sleep
PINS = (2, 3, 6, 7, 8, 9)
LEVELS = machine.levels
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
