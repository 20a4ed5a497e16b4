"""The display fault a maker meets first: the OLED miswired, missing or at
another address.

Pure (no ``machine``): the hardware backend raises ``DisplayFault`` with what
``i2c.scan()`` found, main.py has ``report`` print ``console_lines`` and
start the LED blink code, and the laptop's ``doctor`` words its one-line verdict with the
same ``verdict`` so the serial console and the laptop never disagree.
Imported only when the display does not answer, so it costs no heap at a
normal boot.

LED blink codes (groups of short blinks, a pause, repeated; docs/runtime.md):
  2 blinks: a device answers on the bus, but not at the board file's address
  3 blinks: nothing answers on the bus at all (power, wiring, SDA/SCL swapped)
  4 blinks: the display answers at its address but its set-up failed
            (a loose wire or the wrong controller in the board file)
"""

BLINKS_OTHER_ADDRESS = 2
BLINKS_NOTHING = 3
BLINKS_INIT_FAILED = 4


class DisplayFault(OSError):
    """The display did not answer; ``found`` is the list ``i2c.scan()`` gave.
    ``signal(cfg, count)`` (set by the backend, or None) starts the LED blink code."""

    def __init__(self, cfg, found, cause=None, signal=None):
        super().__init__(verdict(cfg, found))
        self.cfg = cfg
        self.found = found
        self.cause = cause
        self.signal = signal


def bus_text(cfg):
    """``I2C0 (SDA GP4, SCL GP5)``: the names printed on a Pico's pinout."""
    bus = cfg["i2c"]
    prefix = "GP" if cfg.get("mcu", "rp2040") in ("rp2040", "rp2350") else "pin "
    return "I2C%s (SDA %s%d, SCL %s%d)" % (bus["bus"], prefix, bus["sda"], prefix, bus["scl"])


def hex_list(found):
    return ", ".join("0x%02X" % a for a in found)


def blink_count(cfg, found):
    if not found:
        return BLINKS_NOTHING
    if cfg["i2c"]["address"] in found:
        return BLINKS_INIT_FAILED
    return BLINKS_OTHER_ADDRESS


def verdict(cfg, found):
    """One line: what was tried, what answered, what to do."""
    addr = cfg["i2c"]["address"]
    where = bus_text(cfg)
    if not found:
        return ("no display at 0x%02X on %s; found: nothing - check the display's power "
                "(VCC to 3V3, GND) and that SDA and SCL are not swapped" % (addr, where))
    if addr in found:
        return ("display at 0x%02X on %s answers but did not start - check for a loose wire "
                "and the controller in the board file (%s)"
                % (addr, where, cfg["display"]["controller"]))
    return ("no display at 0x%02X on %s; found: %s - set the address in the board file"
            % (addr, where, hex_list(found)))


def console_lines(fault):
    """What main.py prints on the serial console before returning to the REPL."""
    lines = ["display fault: " + verdict(fault.cfg, fault.found)]
    if fault.cause is not None:
        lines.append("  (the driver's error: %r)" % (fault.cause,))
    lines.append("  i2c.scan() on %s found: %s"
                 % (bus_text(fault.cfg), hex_list(fault.found) or "nothing"))
    lines.append("  LED: %d blinks, repeated (docs/runtime.md); the REPL is free"
                 % blink_count(fault.cfg, fault.found))
    return lines


def report(fault):
    """main.py's report of ``fault``: the console lines, then the LED blink
    code (here, not in main.py, which stays resident while the launcher runs)."""
    for line in console_lines(fault):
        print(line)
    if fault.signal is not None:
        fault.signal(fault.cfg, blink_count(fault.cfg, fault.found))
