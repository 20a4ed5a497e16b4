"""Stands for CircuitPython's ``supervisor`` (C, no CPython implementation): only
``ticks_ms()``, which wraps at 2**29 like CircuitPython's.

``now[0]`` None follows the host's clock; a number is a virtual clock that a
test drives."""

import time

now = [None]


def ticks_ms():
    t = now[0]
    if t is None:
        t = time.monotonic_ns() // 1000000 if hasattr(time, "monotonic_ns") else time.ticks_ms()
    return t & 0x1FFFFFFF
