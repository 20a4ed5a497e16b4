# The device's millisecond clock arithmetic: ``ticks_diff(a, b)`` on the
# 30-bit wrapping clock that MicroPython's ``time.ticks_ms()`` keeps (and that
# firmware/hw_circuitpython.py builds for CircuitPython).  Shared by the
# buttons, the runtime's tick schedule and deadlines, the hardware layers and
# the games; no allocation (results stay small ints).
# (comments, not a docstring: the launcher imports this module, and a docstring
# stays on the heap of a MicroPython that compiles the source)

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_TICKS_HALF = const(0x20000000)
_TICKS_MASK = const(0x3FFFFFFF)


def ticks_diff(a, b):
    """a - b on the device's 30-bit wrapping millisecond clock."""
    return ((a - b + _TICKS_HALF) & _TICKS_MASK) - _TICKS_HALF
