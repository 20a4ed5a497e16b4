"""The link cable between two virtual Picos: UART0 of each (TX GP0, RX GP1),
crossed, as docs/link.md wires two handhelds.

``LinkCable(a, b)`` steps both emulated boards together in slices of
``slice_ms`` and carries what each wrote to its UART0 TX to the other's RX
(the runner feeds it in at 115,200 baud's pace, so the 32-byte RX FIFO never
overflows).  A cable can be pulled (``cut``: bytes written meanwhile are lost,
as on a real line) and can flip bits (``noise``: that share of the bytes gets
one bit flipped, from a seeded RNG, so a run is repeatable).
"""

import random


class LinkCable:
    def __init__(self, a, b, slice_ms=2, seed=1):
        self.ends = (a, b)
        self.slice_ms = slice_ms
        self.cut = False
        self.noise = 0.0
        self.rng = random.Random(seed)
        self.carried = [0, 0]        # bytes delivered a->b, b->a
        self.lost = 0                # bytes dropped while cut

    def _carry(self, data):
        if self.cut:
            self.lost += len(data)
            return b""
        if not self.noise:
            return data
        out = bytearray(data)
        for i in range(len(out)):
            if self.rng.random() < self.noise:
                out[i] ^= 1 << self.rng.randrange(8)
        return bytes(out)

    def step(self, ms):
        """Run both boards ``ms`` emulated milliseconds, carrying bytes each slice."""
        a, b = self.ends
        left = ms
        while left > 0:
            d = min(self.slice_ms, left)
            a.run_for(d)
            b.run_for(d)
            ab = self._carry(a.take_uart())
            ba = self._carry(b.take_uart())
            b.feed_uart(ab)
            a.feed_uart(ba)
            self.carried[0] += len(ab)
            self.carried[1] += len(ba)
            left -= d

    def step_until(self, predicate, emulated_ms, step_ms=20):
        """Step until ``predicate()`` holds; False if ``emulated_ms`` passed first."""
        waited = 0
        while not predicate():
            if waited >= emulated_ms:
                return False
            self.step(step_ms)
            waited += step_ms
        return True
