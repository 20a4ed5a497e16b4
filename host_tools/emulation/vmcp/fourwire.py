"""Stands for CircuitPython's ``fourwire`` (C) inside the MicroPython VMs: only the
name, which adafruit_displayio_sh1106 imports for a type hint."""


class FourWire:
    pass
