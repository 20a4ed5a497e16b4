"""The CircuitPython backend (firmware/hw_circuitpython.py) on the host, against the
fake CircuitPython modules in host_tools/fakecp and the simulator's controller
model: every I2C transaction displayio sends is decoded by host_tools/oledmodel.py.

``CpSimulator(board)`` mirrors host_tools.sim.Simulator (``step(keys)``,
``oled``), but buttons come in as keypad events from pin levels."""

import sys
from pathlib import Path

from host_tools.sim import PinSim

FAKECP_DIR = Path(__file__).resolve().parent / "fakecp"
FAKE_MODULES = ("board", "busio", "displayio", "busdisplay", "i2cdisplaybus", "bitmaptools",
                "keypad", "supervisor", "adafruit_displayio_ssd1306", "adafruit_displayio_sh1106")


def install_fake_circuitpython():
    """Put the fakes (and the host framebuf) first on sys.path; returns the fake modules."""
    from host_tools import sim

    sim.install_host_modules()          # framebuf from hostfb, firmware/ importable
    if str(FAKECP_DIR) not in sys.path:
        sys.path.insert(0, str(FAKECP_DIR))
    import importlib

    mods = {}
    for name in FAKE_MODULES:
        mod = sys.modules.get(name)
        if mod is None or not str(getattr(mod, "__file__", "")).startswith(str(FAKECP_DIR)):
            sys.modules.pop(name, None)
            mod = importlib.import_module(name)
        mods[name] = mod
    return mods


class CpSimulator(PinSim):
    def __init__(self, board="pico-ssd1306", saves_fs=None, hold_at_boot=(), address=None):
        import boardcfg

        from host_tools.oledmodel import OledModel
        from host_tools.sim import BOARDS_DIR

        self.fakes = install_fake_circuitpython()
        self.cfg = boardcfg.load(board, str(BOARDS_DIR))
        busio = self.fakes["busio"]
        busio.reset()
        keypad = self.fakes["keypad"]
        keypad.reset()
        disp = self.cfg["display"]
        self.oled = OledModel(disp["controller"], disp["width"], disp["height"],
                              self.cfg["i2c"]["address"])
        busio.attach(self.cfg["i2c"]["address"] if address is None else address, self.oled)
        self.now = 0
        self._map_buttons()
        self.set_keys(hold_at_boot)
        import hw_circuitpython
        import savestore as saves

        self._boot(hw_circuitpython.Hardware(self.cfg), saves_fs or saves.MemFs())

    @property
    def levels(self):
        return self.fakes["keypad"].levels
