"""Hardware backend for MicroPython boards: ``machine.I2C`` / ``machine.Pin``.

The simulator runs this same module against its fake ``machine`` module, so
the code path from button pins to I2C bytes is the one that runs on a Pico.
Games never import this (nor ``machine``): they get ``ctx`` from the runtime.
"""

import gc
import time

import machine

import buttons

_MASK = 0x3FFFFFFF


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


class Hardware:
    """``display`` (driver with ``.fb``/``.show()``), ``read_buttons()`` -> mask,
    ``ticks_ms``/``sleep_ms``, ``beep(freq, ms)``, ``mem_free()``."""

    def __init__(self, cfg):
        import boardcfg

        self.cfg = cfg
        bus = cfg["i2c"]
        self.i2c = machine.I2C(bus["bus"], sda=machine.Pin(bus["sda"]),
                               scl=machine.Pin(bus["scl"]), freq=bus["freq"])
        self.display = make_display(cfg, self.i2c)
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
        if self._beep_until and buttons.ticks_diff(now, self._beep_until) >= 0:
            self.buzzer.duty_u16(0)
            self._beep_until = 0

    def mem_free(self):
        return gc.mem_free() if hasattr(gc, "mem_free") else -1
