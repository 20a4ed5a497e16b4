"""The contracts the firmware is written against, checked against everything
that stands in for them.

The firmware is read with ``ast``: every attribute used on a backend (``hw``,
``self.hw``, ``rt.hw``, ``runtime.hw``, ...), on its display (``display``,
``self.display``, ``hw.display``, ...), on the supply reading, on a game's
``ctx`` (``ctx``, ``self.ctx``, ``scene.ctx``) and on a screen by the runtime
and the web page.  Then each one must be there on every class that plays that
part: the backends (hw_machine on the simulator's fake ``machine``,
hw_circuitpython on cpsim's display stack, hw_web), their displays (the
ssd1306/sh1106 drivers, DisplayioOled, hw_web.Display), battery.Supply,
runtime.Context, tests/gamectx.FakeCtx and the guest context of
host_tools/emulation/guestctx.py (read from its source), and the screen
contract (screens.Screen/Scene) that every screen inherits.  A backend's own
module (hw_*.py) is not read: what a backend uses of itself (the web page's
``hw.keys``, ``go_live``) is its own business, not the contract's.
"""

import ast
import re
from pathlib import Path

import pytest
from gamectx import FakeCtx

from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.emulation import guestctx
from host_tools.emulation.sim import Simulator

# roots: the name an attribute chain passes through -> the part it plays
_PARTS = {"hw": "hw", "display": "display", "supply": "supply", "ctx": "ctx"}
# what the runtime and the web page call a screen (a scene: game)
_SCREENS = {"screen": "screen", "game": "scene"}
_SCREEN_FILES = ("runtime.py", "launcher.py", "hw_web.py")


def _chain(node):
    names = []
    while isinstance(node, ast.Attribute):
        names.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    names.append(node.id)
    return names[::-1]


def _uses():
    """{part: {attribute: set of firmware files}} for every part above."""
    uses = {part: {} for part in ("hw", "display", "supply", "ctx", "screen", "scene")}
    for path in sorted(FIRMWARE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or isinstance(node.ctx, ast.Store):
                continue
            chain = _chain(node)
            if chain is None:
                continue
            # only the last link is this node's own; the inner ones are visited on their own
            parent, attr = chain[-2], chain[-1]
            if parent in _PARTS and not path.name.startswith("hw_"):
                uses[_PARTS[parent]].setdefault(attr, set()).add(path.name)
            if parent in _SCREENS and path.name in _SCREEN_FILES:
                uses[_SCREENS[parent]].setdefault(attr, set()).add(path.name)
    return uses


USES = _uses()


def missing(obj, part):
    """The attributes the firmware uses on ``part`` that ``obj`` lacks."""
    return sorted(name for name in USES[part] if not hasattr(obj, name))


def test_the_firmware_uses_what_the_contract_lists():
    """The reading finds the contract (so an empty reading cannot pass), and every
    name the firmware uses on a backend or a display is listed in hardware.py."""
    assert {"display", "read_buttons", "ticks_ms", "sleep_ms", "doze", "service", "mem_free",
            "beep", "buzzer", "supply"} <= set(USES["hw"])
    assert {"fb", "buffer", "width", "height", "controller", "show", "contrast", "poweroff",
            "poweron", "invalidate"} <= set(USES["display"])
    assert {"buttons", "settings", "ticks_ms", "deadline", "load", "finish", "beep",
            "toast", "save_game", "out_of_memory", "cache_dir"} <= set(USES["ctx"])
    assert {"tick", "draw", "frame_key", "busy"} <= set(USES["screen"])
    assert {"snapshot", "restore", "n_levels", "open_level"} <= set(USES["scene"])
    listed = set(re.findall(r"\w+", (FIRMWARE_DIR / "hardware.py").read_text()))
    for part in ("hw", "display"):
        assert sorted(set(USES[part]) - listed) == [], part


@pytest.fixture(scope="module")
def machine_backends():
    """hw_machine.Hardware on the simulator's fake machine: the SSD1306 and the
    SH1106 driver, and a board that reads its supply."""
    return [Simulator(board).hw for board in ("pico-ssd1306", "pico-sh1106", "pico-ssd1306-lipo")]


@pytest.fixture(scope="module")
def circuitpython_backend():
    from host_tools.emulation.cpsim import CpSimulator

    return CpSimulator().hw


@pytest.fixture(scope="module")
def web_backend():
    from host_tools.emulation.pinsim import install_host_modules

    install_host_modules()
    import hw_web

    return hw_web.Hardware(play=lambda freq, ms: None)


def _backends(machine_backends, circuitpython_backend, web_backend):
    return machine_backends + [circuitpython_backend, web_backend]


def test_every_backend_and_its_display_has_what_the_firmware_uses(
        machine_backends, circuitpython_backend, web_backend):
    import hardware

    kinds = set()
    for hw in _backends(machine_backends, circuitpython_backend, web_backend):
        name = type(hw).__module__ + "." + type(hw).__name__
        assert missing(hw, "hw") == [], name
        display = hw.display
        kinds.add(type(display).__name__)
        assert missing(display, "display") == [], type(display)
        assert isinstance(hw, hardware.Hardware), name          # met by inheriting
        assert isinstance(display, hardware.Display), type(display)
    assert kinds == {"SSD1306_I2C", "SH1106_I2C", "DisplayioOled", "Display"}


def test_the_supply_reading_has_what_the_runtime_and_the_gauge_use(machine_backends):
    import battery

    supplies = [hw.supply for hw in machine_backends]
    assert supplies[:2] == [None, None]             # no supply reading: None, not absent
    assert isinstance(supplies[2], battery.Supply)
    assert missing(supplies[2], "supply") == []


def test_the_defaults_of_the_contract():
    """What a backend that has no use for a hook inherits."""
    import hardware

    class Bare(hardware.Hardware):
        def __init__(self):
            self.slept = []
            self.display = hardware.Display()

        def sleep_ms(self, ms):
            self.slept.append(ms)

    hw = Bare()
    assert hw.buzzer is None and hw.supply is None and hw.mem_free() == -1
    hw.doze(33)
    assert hw.slept == [33]                         # doze: sleep_ms
    assert hw.beep(440, 10) is None and hw.service(0) is None
    assert hw.open_link() is None                   # no link cable
    d = hw.display
    assert d.controller == "ssd1306"
    assert d.poweroff() is None and d.poweron() is None
    assert d.contrast(8) is None and d.invalidate() is None


def _meet(end_a, end_b, carry):
    """Two link.Link sessions over two transports, ``carry()`` moving the bytes
    between them each tick: True once both are READY."""
    import link

    a = link.Link(end_a, 1, 1, "0.3.0", 100)
    b = link.Link(end_b, 1, 1, "0.3.0", 200)
    a.start(0)
    b.start(0)
    for now in range(0, 1000, 33):
        a.poll(now)
        b.poll(now)
        carry()
    return a.state == link.READY and b.state == link.READY and a.first and not b.first


def test_every_backend_opens_its_link_cable(machine_backends, web_backend, monkeypatch):
    """hw.open_link(): the board file's UART on MicroPython (machine.UART, the
    link's pins, 115,200 baud, reads that never wait), busio.UART on
    CircuitPython, the page's own pipe on the web; the same transport on every
    call, and two of them carry a link session."""
    import sys
    import types

    import hw_circuitpython
    import hw_web

    hw = machine_backends[0]
    port = hw.open_link()
    uart = port.uart                    # link.UartPort over the fake machine.UART
    assert port is hw.open_link() and (uart.id, uart.baudrate) == (0, 115200)
    other_port = Simulator("pico-sh1106").hw.open_link()
    other = other_port.uart

    def cable():
        other.feed(uart.take())
        uart.feed(other.take())

    assert _meet(port, other_port, cable)

    pipe = web_backend.open_link()
    assert pipe is web_backend.open_link()
    twin = hw_web.LinkPipe()

    def tabs():
        twin.feed(bytes(pipe.out))
        pipe.out[:] = b""
        pipe.feed(bytes(twin.out))
        twin.out[:] = b""

    assert _meet(pipe, twin, tabs)

    made = []
    busio = types.ModuleType("busio")
    busio.UART = lambda tx, rx, **kw: made.append((tx, rx, kw)) or hw_web.LinkPipe()
    monkeypatch.setitem(sys.modules, "busio", busio)
    # CircuitPython's ``board`` (GP0..GP29): the stand-in, whichever ``board`` (Blinka's on
    # this host) an earlier test left imported
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "board", Path(__file__).resolve().parent.parent / "host_tools" / "emulation" / "fakecp" / "board.py")
    fake_board = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake_board)
    monkeypatch.setitem(sys.modules, "board", fake_board)
    cp = object.__new__(hw_circuitpython.Hardware)
    cp.cfg = {"mcu": "rp2040", "link": {"uart": 0, "tx": 0, "rx": 1}}
    cp._uart = None
    port = cp.open_link()
    assert port is cp.open_link() and len(made) == 1
    tx, rx, kw = made[0]
    import board
    assert (tx, rx) == (board.GP0, board.GP1) and kw["baudrate"] == 115200 and kw["timeout"] == 0
    cp.cfg = {"mcu": "rp2040", "link": None}
    assert cp.open_link() is None


def test_a_backend_without_poweroff_is_caught(monkeypatch, web_backend):
    """The web page's display once lacked poweroff (the page stopped after a
    minute idle): a display like it, or a contract that lost it, fails here."""
    import hardware
    import hw_web

    old = type("Display", (), {k: v for k, v in vars(hw_web.Display).items()
                               if k not in ("poweroff", "poweron", "__dict__", "__weakref__")})
    assert "poweroff" in missing(old(), "display") and "poweron" in missing(old(), "display")
    monkeypatch.delattr(hw_web.Display, "poweroff")
    monkeypatch.delattr(hardware.Display, "poweroff")
    assert missing(hw_web.Display(), "display") == ["poweroff"]
    assert missing(web_backend.display, "display") == ["poweroff"]


def _guest_ctx_names():
    """The attributes of guestctx's Ctx, read from its source (it runs in a guest)."""
    tree = ast.parse(guestctx.GUEST_CTX)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Ctx")
    names = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
            for sub in ast.walk(node):
                if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) \
                        and _chain(sub) == ["self", sub.attr]:
                    names.add(sub.attr)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_every_game_context_has_what_the_games_use():
    s = Simulator()
    assert missing(s.runtime.ctx, "ctx") == []
    assert missing(FakeCtx(), "ctx") == []
    assert sorted(set(USES["ctx"]) - _guest_ctx_names()) == []


def test_every_screen_has_what_the_runtime_calls():
    """The screen contract: screens.Screen/Scene have every hook the runtime and
    the web page call, and every screen the runtime runs inherits it."""
    import errorscreen
    import games
    import howto
    import launcher
    import screens

    assert missing(screens.Screen(), "screen") == []
    assert missing(screens.Scene(), "scene") == [] and missing(screens.Scene(), "screen") == []
    assert issubclass(launcher.Launcher, screens.Screen)
    assert issubclass(errorscreen.ErrorScreen, screens.Screen)
    assert issubclass(howto.Scene, screens.Scene)
    for entry in games.GAMES:
        module = __import__(entry[games.SCENE])
        assert issubclass(module.Scene, screens.Scene), entry[games.ID]
        if entry[games.PACK]:                   # a game with level packs checks their levels
            assert callable(module.check_level), entry[games.ID]


def test_no_probing_in_the_runtime_the_launcher_or_the_web_backend():
    """No probing in the runtime, the launcher or the web backend: no hasattr, and
    getattr only where the standard library may lack a name (sys.print_exception)."""
    for name in ("runtime.py", "launcher.py", "hw_web.py"):
        text = (FIRMWARE_DIR / name).read_text()
        code = "\n".join(line.split("#")[0] for line in text.splitlines())
        probes = re.findall(r"(?:hasattr|getattr)\((\w+)", code)
        assert set(probes) <= {"sys", "gc"}, (name, probes)
