"""The MicroPython backend's display fault (hw_machine): what answers on the
bus (``scan_bus``) and the LED blink code (``start_blink``/``stop_blink``)
that displaycheck.DisplayFault signals.  Imported only when the display does
not answer, so none of it stays on the heap at a normal boot.
"""

import machine


def scan_bus(i2c, address):
    """What answers on the bus: ``i2c.scan()`` plus the display addresses (0x3C,
    0x3D and the board's) probed with the driver's own kind of transfer, a
    one-byte write of 0x00 (an empty command stream for an SSD1306/SH1106).
    The rp2 port's scan() probes with zero-length writes bit-banged on the pins;
    a display that only understands the I2C peripheral's transfers (the virtual
    Pico's OLED model, a marginal module) is still found this way."""
    found = i2c.scan()
    for addr in (0x3C, 0x3D, address):
        if addr not in found and (_probe(i2c, addr) or _probe(i2c, addr)):
            found.append(addr)
    found.sort()
    return found


def _probe(i2c, addr):
    """One try; scan_bus tries twice because a transfer that timed out can leave
    its abort pending, failing the next transfer whatever the address (seen on
    the virtual Pico)."""
    try:
        i2c.writeto(addr, b"\x00")
        return True
    except OSError:
        return False


# LED blink code timing, in 100 ms slots: a blink is 2 on + 3 off, then 15 off
_SLOT_MS = 100
_ON_SLOTS = 2
_BLINK_SLOTS = 5
_PAUSE_SLOTS = 15
_blinker = []


def _led_pin():
    """The board LED: "LED" names it on Pico, Pico W and Pico 2 (the W's hangs off
    the radio chip); older ports only know GP25."""
    try:
        return machine.Pin("LED", machine.Pin.OUT)
    except (TypeError, ValueError):
        return machine.Pin(25, machine.Pin.OUT)


def start_blink(cfg, count):
    """Blink ``count`` times, pause, repeat, from a machine.Timer: the REPL stays
    free (a soft reset or ``stop_blink()`` ends it).  Only the Picos have a
    known LED; elsewhere the console message is the signal."""
    stop_blink()
    if cfg.get("mcu") not in ("rp2040", "rp2350"):
        return
    led = _led_pin()
    period = count * _BLINK_SLOTS + _PAUSE_SLOTS
    slot = [0]

    def tick(_timer):
        s = slot[0]
        led.value(1 if s < count * _BLINK_SLOTS and s % _BLINK_SLOTS < _ON_SLOTS else 0)
        slot[0] = (s + 1) % period

    timer = machine.Timer(mode=machine.Timer.PERIODIC, period=_SLOT_MS, callback=tick)
    _blinker.append((timer, led))
    tick(timer)


def stop_blink():
    while _blinker:
        timer, led = _blinker.pop()
        timer.deinit()
        led.value(0)
