"""`python -m host_tools run --board oled-bonnet`: the firmware on a Raspberry Pi
through Blinka (adafruit-blinka + adafruit-blinka-displayio) and Adafruit's real
displayio driver, with the same CircuitPython backend as the Pico
(firmware/hw_circuitpython.py).

Off a Raspberry Pi it says so in one line.  ``--i2c-sim`` runs the same code path
(the real displayio stack and driver, bus scan, Hardware, boot, run loop) with
the I2C bus replaced by the simulator's (host_tools.emulation.cpsim.SimI2C into the OLED
controller model) and ``board``/``keypad`` by host_tools/emulation/fakecp, then prints the
screen; so the Blinka runner is tested end to end on any machine.

Before starting, the I2C bus is opened and scanned: a missing Blinka, an I2C
bus that cannot be opened, or no device at the board's address ends as one
line (exit 2).  ``framebuf`` comes from firmware/circuitpython (CPython has none).
"""

from pathlib import Path



def _raspberry_pi():
    """Blinka's own platform detection: (is a Raspberry Pi, what this machine is)."""
    from host_tools.core import UserError

    try:
        from adafruit_platformdetect import Detector
    except ImportError:
        raise UserError("Blinka is not installed: on a Raspberry Pi run `pip install "
                        "adafruit-blinka adafruit-blinka-displayio "
                        "adafruit-circuitpython-displayio-ssd1306` (docs/circuitpython.md)") from None

    detector = Detector()
    return bool(detector.board.any_raspberry_pi), detector.board.id or "unknown board"


def _open_bus(cfg):
    """Blinka's busio.I2C on the board's pins."""
    from host_tools.core import UserError

    try:
        import board  # noqa: F401  (Blinka: fails off a supported board)
        import busio  # noqa: F401
    except (ImportError, NotImplementedError, RuntimeError) as exc:
        raise UserError("Blinka is not usable here (%s): on a Raspberry Pi run `pip install "
                        "adafruit-blinka adafruit-blinka-displayio` (docs/circuitpython.md)"
                        % (str(exc).splitlines()[0] if str(exc) else type(exc).__name__)) from None
    import hw_circuitpython

    bus = cfg["i2c"]
    try:
        return hw_circuitpython.open_i2c(cfg)
    except (ValueError, OSError, RuntimeError, AttributeError) as exc:
        raise UserError("cannot open I2C bus %d (SDA %d, SCL %d): %s; enable I2C with "
                        "`sudo raspi-config`" % (bus["bus"], bus["sda"], bus["scl"], exc)) from None


def _sim_bus(cfg, address):
    """The simulator's I2C bus with an OLED controller model at ``address`` (-1: none)."""
    from host_tools.emulation.cpsim import SimI2C, install_circuitpython
    from host_tools.emulation.oledmodel import OledModel

    install_circuitpython()
    disp = cfg["display"]
    oled = OledModel(disp["controller"], disp["width"], disp["height"], address)
    i2c = SimI2C(cfg["i2c"]["freq"])
    if address >= 0:
        i2c.attach(address, oled)
    return i2c, oled


def _probe(cfg, i2c):
    """Check that the OLED answers on the opened bus."""
    from host_tools.core import UserError

    bus = cfg["i2c"]
    while not i2c.try_lock():
        pass
    try:
        found = i2c.scan()
    except OSError as exc:
        raise UserError("I2C bus %d does not respond (%s): check the wiring" % (bus["bus"], exc)) from None
    finally:
        i2c.unlock()
    addr = bus["address"]
    if addr not in found:
        if found:
            seen = ", ".join("0x%02X" % a for a in found)
            raise UserError("no display at 0x%02X on I2C bus %d (devices found: %s): set "
                            "i2c.address in boards/%s.json" % (addr, bus["bus"], seen, cfg["name"]))
        raise UserError("no display at 0x%02X on I2C bus %d: nothing answers on the bus; check "
                        "the OLED is plugged in and powered" % (addr, bus["bus"]))
    return i2c


def run_board(args):
    from host_tools.core import UserError, make_output_dir
    from host_tools.core.boards import BOARDS_DIR
    from host_tools.core.fwpath import use_pure_framebuf

    if args.ticks is not None and args.ticks < 0:
        raise UserError("--ticks must be 0 or more (0 or none: run until Ctrl-C)")

    import host_tools.core.fwpath  # noqa: F401
    import boardcfg

    try:
        cfg = boardcfg.load(args.board, str(BOARDS_DIR))
    except boardcfg.BoardError as exc:
        raise UserError(str(exc)) from None
    if cfg["runtime"] != "blinka":
        raise UserError("board %s targets %s; `run` is for Blinka boards on a Raspberry Pi "
                        "(use `flash`, or `sim` to try it here)" % (args.board, cfg["runtime"]))
    try:
        import framebuf  # noqa: F401
    except ImportError:
        use_pure_framebuf()
    oled = None
    if args.i2c_sim:
        i2c, oled = _sim_bus(cfg, cfg["i2c"]["address"] if args.sim_address is None
                             else args.sim_address)
    else:
        is_pi, what = _raspberry_pi()
        if not is_pi:
            raise UserError("this is not a Raspberry Pi (Blinka detects %s): `run` drives a real "
                            "OLED Bonnet; add --i2c-sim to run the same code on the simulated "
                            "OLED, or use `sim --board %s`" % (what, args.board))
        i2c = _open_bus(cfg)
    _probe(cfg, i2c)
    import hw_circuitpython
    import main
    import savestore as saves

    try:
        hw = hw_circuitpython.Hardware(cfg, i2c=i2c)
    except ValueError as exc:     # I2CDisplayBus: "Unable to find I2C Display at 3c"
        raise UserError("display at 0x%02X: %s" % (cfg["i2c"]["address"], exc)) from None
    except ImportError as exc:    # the board's Adafruit driver
        raise UserError("%s: pip install adafruit-circuitpython-displayio-%s"
                        % (exc, cfg["display"]["controller"])) from None
    save_dir = Path(args.saves) if args.saves else Path.home() / ".pocket-puzzles" / "saves"
    make_output_dir(save_dir)
    rt = main.boot(cfg, hw, saves.Saves(saves.OsFs(str(save_dir))))
    if rt is None:
        return 0
    try:
        rt.run(args.ticks if args.ticks else -1)
    except KeyboardInterrupt:
        pass
    if oled is not None:
        from host_tools.emulation.sim import halfblocks

        print(halfblocks(oled))
    return 0


def register(subparsers):
    p = subparsers.add_parser("run", help="run the firmware on a Raspberry Pi with Blinka (oled-bonnet)")
    p.add_argument("--board", default="oled-bonnet", help="a Blinka board from boards/ (default oled-bonnet)")
    p.add_argument("--saves", help="save directory (default ~/.pocket-puzzles/saves)")
    p.add_argument("--ticks", type=int, help="stop after this many ticks (default: run until Ctrl-C)")
    p.add_argument("--i2c-sim", action="store_true",
                   help="no Pi needed: the same code path on the simulated OLED (prints the screen)")
    p.add_argument("--sim-address", type=lambda t: -1 if t == "none" else int(t, 0),
                   metavar="ADDR", help="with --i2c-sim: where the simulated OLED answers "
                   "(default the board's address; 'none': an empty bus), to see the bus checks")
    p.set_defaults(func=run_board)
