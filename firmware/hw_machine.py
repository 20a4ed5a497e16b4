"""Hardware backend for MicroPython boards: ``machine.I2C`` / ``machine.Pin``.

The simulator runs this same module against its fake ``machine`` module, so
the code path from button pins to I2C bytes is the one that runs on a Pico.
Games never import this (nor ``machine``): they get ``ctx`` from the runtime.
"""

import gc
import time

import machine

import buttons
import clock
import hardware

_MASK = 0x3FFFFFFF
_LIGHTSLEEP = getattr(machine, "lightsleep", None)


def _ticks_ms():
    return int(time.monotonic() * 1000) & _MASK


def _sleep_ms(ms):
    time.sleep(ms / 1000.0)


def make_display(cfg, i2c):
    disp = cfg["display"]
    addr = cfg["i2c"]["address"]
    if disp["controller"] == "sh1106":
        from sh1106 import SH1106_I2C as Driver
    else:
        from ssd1306 import SSD1306_I2C as Driver
    return Driver(disp["width"], disp["height"], i2c, addr, rotate=disp["rotation"])


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


class Hardware(hardware.Hardware):
    """The backend of MicroPython boards (hardware.Hardware): ``display`` the
    ssd1306/sh1106 driver, buttons on pins, the buzzer on PWM, ``supply`` a
    battery.Supply on a board that reads its supply."""

    def __init__(self, cfg):
        import boardcfg

        self.cfg = cfg
        bus = cfg["i2c"]
        self.i2c = machine.I2C(bus["bus"], sda=machine.Pin(bus["sda"]),
                               scl=machine.Pin(bus["scl"]), freq=bus["freq"])
        try:
            self.display = make_display(cfg, self.i2c)
        except OSError as exc:
            import displaycheck

            found = scan_bus(self.i2c, cfg["i2c"]["address"])
            raise displaycheck.DisplayFault(cfg, found, exc, start_blink) from None
        pins = []
        active = []
        masks = []
        for pin, pull, mask in boardcfg.button_pins(cfg):
            if pull == "up":
                p = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_UP)
                active.append(0)
            elif pull == "down":
                p = machine.Pin(pin, machine.Pin.IN, machine.Pin.PULL_DOWN)
                active.append(1)
            else:
                p = machine.Pin(pin, machine.Pin.IN)
                active.append(0)
            pins.append(p)
            masks.append(mask)
        self.pins = pins
        self.active = bytes(active)
        self.masks = bytes(masks)
        self.combos = boardcfg.combos(cfg)
        self.buzzer = None
        self._beep_until = 0
        if cfg.get("buzzer"):
            try:
                self.buzzer = machine.PWM(machine.Pin(cfg["buzzer"]["pin"]))
                self.buzzer.duty_u16(0)
            except (AttributeError, ValueError):
                self.buzzer = None
        self.ticks_ms = getattr(time, "ticks_ms", _ticks_ms)
        self.sleep_ms = getattr(time, "sleep_ms", _sleep_ms)
        power = cfg.get("power")
        if power and (power.get("adc") is not None or power.get("vbus") is not None):
            import battery

            self.supply = battery.Supply(power, machine)

    def doze(self, ms):
        """Wait ``ms`` with the screen off: ``machine.lightsleep`` where the port has
        it (the rp2 port halts the core in WFI with its clocks slowed), else
        ``sleep_ms`` (which the simulators replace with their virtual clock)."""
        if _LIGHTSLEEP is None:
            self.sleep_ms(ms)
        else:
            _LIGHTSLEEP(ms)

    def read_buttons(self):
        raw = 0
        pins = self.pins
        for i in range(len(pins)):
            if pins[i].value() == self.active[i]:
                raw |= self.masks[i]
        if self.combos:
            raw = buttons.combine(raw, self.combos)
        return raw

    def beep(self, freq, ms):
        if self.buzzer is None:
            return
        self.buzzer.freq(freq)
        self.buzzer.duty_u16(16384)
        self._beep_until = (self.ticks_ms() + ms) & _MASK

    def service(self, now):
        """Called every tick: ends a beep when its time is up."""
        if self._beep_until and clock.ticks_diff(now, self._beep_until) >= 0:
            self.buzzer.duty_u16(0)
            self._beep_until = 0

    def mem_free(self):
        return gc.mem_free() if hasattr(gc, "mem_free") else -1
