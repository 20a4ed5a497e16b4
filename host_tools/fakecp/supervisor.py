"""Fake ``supervisor``: ticks_ms() wraps at 2**29 like CircuitPython's."""

now = [0]


def ticks_ms():
    return now[0] & 0x1FFFFFFF
