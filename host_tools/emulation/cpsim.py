"""The CircuitPython backend (firmware/hw_circuitpython.py) on the host, on the REAL
display stack a maker installs: Blinka's ``displayio`` / ``busdisplay`` /
``i2cdisplaybus`` / ``bitmaptools`` (adafruit-blinka-displayio) and Adafruit's
``adafruit_displayio_ssd1306`` / ``adafruit_displayio_sh1106`` drivers, all from
PyPI.  Every I2C transaction they send goes through ``SimI2C`` (ours: it stands
for ``busio.I2C``) into the simulator's controller model, host_tools/emulation/oledmodel.py.

Only what has no CPython implementation is ours, in host_tools/emulation/fakecp: ``board``
(the Pico's GP pins), ``keypad`` (pin levels from the simulator) and
``supervisor`` (ticks_ms).

``CpSimulator(board)`` mirrors host_tools.emulation.sim.Simulator (``step(keys)``,
``oled``), but buttons come in as keypad events from pin levels."""

import contextlib
import io
import sys
import threading
from pathlib import Path

from host_tools.emulation.pinsim import PinSim, install_host_modules

FAKECP_DIR = Path(__file__).resolve().parent / "fakecp"
# ours: CircuitPython modules with no CPython implementation (Blinka's board and
# keypad need a Raspberry Pi's GPIO)
FAKE_MODULES = ("board", "keypad", "supervisor")
# theirs: the real display stack from PyPI
# (the Adafruit driver is imported by hw_circuitpython, only the board's: a Pi
# needs just adafruit-circuitpython-displayio-ssd1306)
REAL_MODULES = ("displayio", "busdisplay", "i2cdisplaybus", "bitmaptools")


class SimI2C:
    """Stands for ``busio.I2C``: devices attached per address (``attach``; a device has
    ``write(bytes)``).  ``try_lock``/``unlock`` behave like a threading.Lock (Blinka's
    BusDisplay spins ``while begin_transaction(): pass``, so try_lock is False while
    locked).  A write to an address nobody acknowledges raises OSError(19) like the
    real port; every transaction is recorded in ``log`` (address, bytes)."""

    def __init__(self, frequency=400000):
        self.frequency = frequency
        self.devices = {}
        self.log = []
        self._lock = threading.Lock()
        self.deinited = False

    def attach(self, address, device):
        self.devices[address] = device

    def try_lock(self):
        return self._lock.acquire(blocking=False)

    def unlock(self):
        if self._lock.locked():
            self._lock.release()

    def _check(self):
        if self.deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if not self._lock.locked():
            raise RuntimeError("Function requires lock")

    def scan(self):
        self._check()
        return sorted(self.devices)

    def writeto(self, address, buffer, *, start=0, end=None):
        self._check()
        dev = self.devices.get(address)
        if dev is None:
            raise OSError(19, "No such device")
        data = bytes(buffer[start:len(buffer) if end is None else end])
        dev.write(data)
        self.log.append((address, data))

    def wire_bytes(self, since=0):
        """Bytes on the wire after log entry ``since`` (address byte included)."""
        return sum(len(d) + 1 for _, d in self.log[since:])

    def deinit(self):
        self.deinited = True


def _load(names, ours):
    """Import ``names``, dropping a same-named module of the other kind (ours from
    host_tools, or the installed one) that an earlier run left in sys.modules."""
    import importlib

    mods = {}
    for name in names:
        mod = sys.modules.get(name)
        if mod is None or str(getattr(mod, "__file__", "")).startswith(str(FAKECP_DIR.parent)) != ours:
            sys.modules.pop(name, None)
            mod = importlib.import_module(name)
        mods[name] = mod
    return mods


def install_circuitpython():
    """The real display stack + our board/keypad/supervisor, firmware/ and the
    host framebuf importable; returns {name: module}."""
    install_host_modules()              # framebuf from firmware/circuitpython, firmware/ importable
    if str(FAKECP_DIR) not in sys.path:
        sys.path.insert(0, str(FAKECP_DIR))
    from host_tools.core import UserError

    try:
        with contextlib.redirect_stdout(io.StringIO()):
            # Blinka's microcontroller prints "GENERIC_X86 is not fully supported" off
            # a board; its pins are not used here (board is ours)
            import microcontroller  # noqa: F401
        mods = _load(FAKE_MODULES, True)
        mods.update(_load(REAL_MODULES, False))
    except ImportError as exc:
        raise UserError("the CircuitPython path needs Blinka's displayio (%s): run `make setup`, "
                        "or pip install adafruit-blinka adafruit-blinka-displayio" % exc) from None
    return mods


class CpSimulator(PinSim):
    def __init__(self, board="pico-cp-ssd1306", saves_fs=None, hold_at_boot=(), address=None):
        from host_tools.core import UserError

        self.modules = install_circuitpython()
        import boardcfg

        from host_tools.emulation.oledmodel import OledModel
        from host_tools.core.boards import BOARDS_DIR

        try:
            self.cfg = boardcfg.load(board, str(BOARDS_DIR))
        except boardcfg.BoardError as exc:
            raise UserError(str(exc)) from None
        keypad = self.modules["keypad"]
        keypad.reset()
        disp = self.cfg["display"]
        self.oled = OledModel(disp["controller"], disp["width"], disp["height"],
                              self.cfg["i2c"]["address"])
        self.i2c = SimI2C(self.cfg["i2c"]["freq"])
        self.i2c.attach(self.cfg["i2c"]["address"] if address is None else address, self.oled)
        self.now = 0
        self._map_buttons()
        self.set_keys(hold_at_boot)
        import hw_circuitpython
        import savestore as saves

        self._boot(hw_circuitpython.Hardware(self.cfg, i2c=self.i2c), saves_fs or saves.MemFs())

    @property
    def levels(self):
        return self.modules["keypad"].levels

    def wire_totals(self):
        """(bytes on the wire, address bytes included; transactions) so far."""
        return self.i2c.wire_bytes(), len(self.i2c.log)

    def screen_text(self):
        return self.oled.to_text()

    def image(self, scale=4):
        return self.oled.image(scale)
