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

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MASK = const(0x3FFFFFFF)
_LINK_BAUD = const(115200)
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


class Hardware(hardware.Hardware):
    """hardware.Hardware on machine: the ssd1306/sh1106 driver, pins, PWM buzzer."""

    def __init__(self, cfg):
        import boardcfg

        self.cfg = cfg
        bus = cfg["i2c"]
        self.i2c = machine.I2C(bus["bus"], sda=machine.Pin(bus["sda"]),
                               scl=machine.Pin(bus["scl"]), freq=bus["freq"])
        try:
            self.display = make_display(cfg, self.i2c)
        except OSError as exc:
            # the bus scan and the LED blink code: imported only now, not resident
            import displaycheck
            import hw_machine_fault as fault

            found = fault.scan_bus(self.i2c, cfg["i2c"]["address"])
            raise displaycheck.DisplayFault(cfg, found, exc, fault.start_blink) from None
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
        self._uart = None
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

    def open_link(self):
        """The board file's "link" UART (115,200 baud, 8N1), opened on the first
        call, as a link.UartPort (reads only what is waiting); None without a link."""
        cfg = self.cfg.get("link")
        if cfg is None:
            return None
        if self._uart is None:
            import link

            self._uart = link.UartPort(machine.UART(cfg["uart"], _LINK_BAUD, tx=machine.Pin(cfg["tx"]),
                                                    rx=machine.Pin(cfg["rx"]), timeout=0, rxbuf=512))
        return self._uart
