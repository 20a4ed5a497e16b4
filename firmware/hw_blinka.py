"""Hardware backend for a Raspberry Pi through Adafruit Blinka (the OLED Bonnet).

Runs under CPython on the Pi: ``board``/``busio``/``digitalio`` from Blinka.
``busio.I2C`` has no ``writevto``, so a small adapter joins the parts into a
preallocated buffer.  Same interface as hw_machine.Hardware.
"""

import gc
import time

import board
import busio
import digitalio

import boardcfg
import buttons
from hw_machine import make_display

_MASK = 0x3FFFFFFF


class _I2C:
    def __init__(self, bus):
        self.bus = bus
        self.buf = bytearray(1100)
        while not bus.try_lock():
            pass

    def writeto(self, addr, data):
        self.bus.writeto(addr, data)

    def writevto(self, addr, vector):
        n = 0
        for part in vector:
            self.buf[n:n + len(part)] = part
            n += len(part)
        self.bus.writeto(addr, memoryview(self.buf)[:n])


class Hardware:
    def __init__(self, cfg):
        self.cfg = cfg
        self.i2c = _I2C(busio.I2C(board.SCL, board.SDA, frequency=cfg["i2c"]["freq"]))
        self.display = make_display(cfg, self.i2c)
        self.inputs = []
        for pin, pull, mask in boardcfg.button_pins(cfg):
            io = digitalio.DigitalInOut(getattr(board, "D%d" % pin))
            io.direction = digitalio.Direction.INPUT
            if pull == "up":
                io.pull = digitalio.Pull.UP
            elif pull == "down":
                io.pull = digitalio.Pull.DOWN
            self.inputs.append((io, pull != "down", mask))
        self.combos = boardcfg.combos(cfg)
        self.buzzer = None

    def read_buttons(self):
        raw = 0
        for io, active_low, mask in self.inputs:
            if io.value != active_low:
                raw |= mask
        return buttons.combine(raw, self.combos) if self.combos else raw

    def ticks_ms(self):
        return int(time.monotonic() * 1000) & _MASK

    def sleep_ms(self, ms):
        time.sleep(ms / 1000.0)

    def beep(self, freq, ms):
        pass

    def service(self, now):
        pass

    def mem_free(self):
        return -1
