"""Every pseudo-random generator of the firmware.

Each keeps its state and every intermediate below 2**30 (a small int on the
device), so drawing allocates nothing on MicroPython and gives the same numbers
on CPython, which the tests compare.  All three offer ``below(n)``.

Why three algorithms and not one: each one's seeded sequence is already pinned
by what people hold.  `levels trapcat --seed S`, `trapcat tournament --seed S`
and `junqi` matches promise the same boards, deals and games for a seed, and
the tests and the bench figures are checked on seeded runs; one shared
algorithm would re-deal them all.  New code uses ``Rng``.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MASK = const(0x3FFFFFFF)


class Rng:
    """xorshift with masked shifts (Cat & Mouse's AI and level picks; new code)."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        self.state = (seed * 7919 + 12345) & _MASK or 1

    def next(self):
        """Next 30-bit value (never 0)."""
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


class BoardRng:
    """Two Lehmer generators combined, L'Ecuyer style (Trap the Cat's boards
    and random cats and blockers: trapcat.Rng)."""

    def __init__(self, seed=1):
        self.seed(seed)

    def seed(self, seed):
        seed = int(seed) & _MASK
        self.a = seed % 32362 + 1
        self.b = (seed // 32362) % 31726 + 1

    def next(self):
        """Next value in 1..32361."""
        a = 157 * (self.a % 206) - 21 * (self.a // 206)
        if a < 0:
            a += 32363
        b = 146 * (self.b % 217) - 45 * (self.b // 217)
        if b < 0:
            b += 31727
        self.a = a
        self.b = b
        z = a - b
        if z < 1:
            z += 32362
        return z

    def below(self, n):
        """Uniform-enough integer in 0..n-1 (n <= 32361)."""
        return (self.next() - 1) % n


class DealRng:
    """Lehmer (Park-Miller) modulo the prime 2**30 - 35 with Schrage's trick
    (Flip Junqi's deals and its AIs' noise: junqi_flip.Rng)."""

    def __init__(self, seed):
        self.s = seed % 1073741788 + 1

    def below(self, n):
        """Uniform-ish int in 0..n-1."""
        s = self.s
        s = 16807 * (s % 63886) - 9787 * (s // 63886)
        if s <= 0:
            s += 1073741789
        self.s = s
        return (s >> 4) % n
