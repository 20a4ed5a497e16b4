"""A tiny deterministic random generator that stays within 30-bit small ints,
so it allocates nothing on MicroPython and gives the same sequence on CPython
(tests compare both)."""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MASK = const(0x3FFFFFFF)


class Rng:
    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        self.state = (seed * 7919 + 12345) & _MASK or 1

    def next(self):
        """Next 30-bit value (xorshift with masked shifts, never 0)."""
        x = self.state
        x ^= (x & 0x7FFFFF) << 7
        x ^= x >> 9
        x ^= (x & 0x3FFFF) << 12
        x &= _MASK
        self.state = x or 1
        return x

    def below(self, n):
        """A value in 0 .. n-1 (n >= 1)."""
        return self.next() % n

    def choice(self, seq):
        return seq[self.next() % len(seq)]
