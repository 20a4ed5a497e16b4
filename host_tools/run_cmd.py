"""`python -m host_tools run --board oled-bonnet`: the firmware on a Raspberry Pi
through Blinka (adafruit-blinka + adafruit-blinka-displayio), with the same
CircuitPython backend as the Pico (firmware/hw_circuitpython.py).

Before starting, the I2C bus is opened and scanned: a missing Blinka, an I2C
bus that cannot be opened, or no device at the board's address ends as one
line (exit 2).  ``framebuf`` comes from host_tools/hostfb (CPython has none).
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _probe(cfg):
    """Open the board's I2C bus and check that the OLED answers; return the bus."""
    from host_tools.cli import UserError

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
        i2c = hw_circuitpython.open_i2c(cfg)
    except (ValueError, OSError, RuntimeError, AttributeError) as exc:
        raise UserError("cannot open I2C bus %d (SDA %d, SCL %d): %s; enable I2C with "
                        "`sudo raspi-config`" % (bus["bus"], bus["sda"], bus["scl"], exc)) from None
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
    from host_tools.cli import UserError, make_output_dir
    from host_tools.sim import BOARDS_DIR, HOSTFB_DIR
    import sys

    if args.ticks is not None and args.ticks < 0:
        raise UserError("--ticks must be 0 or more (0 or none: run until Ctrl-C)")

    import host_tools.fwpath  # noqa: F401
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
        sys.path.insert(0, str(HOSTFB_DIR))
    i2c = _probe(cfg)
    import hw_circuitpython
    import main
    import savestore as saves

    try:
        hw = hw_circuitpython.Hardware(cfg, i2c=i2c)
    except ValueError as exc:     # I2CDisplayBus: "Unable to find I2C Display at 3c"
        raise UserError("display at 0x%02X: %s" % (cfg["i2c"]["address"], exc)) from None
    save_dir = Path(args.saves) if args.saves else Path.home() / ".pocket-puzzles" / "saves"
    make_output_dir(save_dir)
    rt = main.boot(cfg, hw, saves.Saves(saves.OsFs(str(save_dir))))
    if rt is None:
        return 0
    rt.run(args.ticks if args.ticks else -1)
    return 0


def register(subparsers):
    p = subparsers.add_parser("run", help="run the firmware on a Raspberry Pi with Blinka (oled-bonnet)")
    p.add_argument("--board", default="oled-bonnet", help="a Blinka board from boards/ (default oled-bonnet)")
    p.add_argument("--saves", help="save directory (default ~/.pocket-puzzles/saves)")
    p.add_argument("--ticks", type=int, help="stop after this many ticks (default: run until Ctrl-C)")
    p.set_defaults(func=run_board)
