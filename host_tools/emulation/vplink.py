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


TICK_MS = 1000.0 / 30


class TwoPicos:
    """Two virtual Picos running the flashed firmware (main.py from power-on),
    wired by a ``LinkCable`` and ticked together, 1/30 s of emulated time a
    tick: ``step(keys_a, keys_b)`` holds those buttons for a tick on each
    board (key-script ticks, host_tools/core/keyscript.py).  A board can be
    switched off (``power_off(side)``: its flash keeps what it wrote, the cable
    carries nothing to or from it) and on again (``power_on(side)``)."""

    def __init__(self, a, b, seed=1, slice_ms=2):
        self.picos = [a, b]
        self.on = [True, True]
        self.cable = LinkCable(a, b, slice_ms=slice_ms, seed=seed)
        self.ticks = 0
        self.ms = 0

    def step(self, keys_a=(), keys_b=(), ticks=1):
        a, b = self.picos
        for _ in range(ticks):
            for side, keys in ((0, keys_a), (1, keys_b)):
                if self.on[side]:
                    self.picos[side].set_buttons(keys)
            self.ticks += 1
            target = int(self.ticks * TICK_MS)
            left = target - self.ms
            self.ms = target
            cable = self.cable
            while left > 0:
                d = min(cable.slice_ms, left)
                for side in (0, 1):
                    if self.on[side]:
                        self.picos[side].run_for(d)
                ab = cable._carry(a.take_uart()) if self.on[0] else b""
                ba = cable._carry(b.take_uart()) if self.on[1] else b""
                if self.on[1]:
                    b.feed_uart(ab)
                if self.on[0]:
                    a.feed_uart(ba)
                cable.carried[0] += len(ab)
                cable.carried[1] += len(ba)
                left -= d

    def run_script(self, ticks_a, ticks_b):
        """Two key scripts (lists of key sets per tick, keyscript.parse_keys),
        played together; the shorter one is padded with released ticks."""
        n = max(len(ticks_a), len(ticks_b))
        for i in range(n):
            self.step(ticks_a[i] if i < len(ticks_a) else (), ticks_b[i] if i < len(ticks_b) else ())

    def power_off(self, side):
        self.picos[side].power_off()
        self.on[side] = False

    def power_on(self, side):
        self.picos[side].start()
        self.on[side] = True

    def console(self, side):
        return self.picos[side].console.decode("utf-8", "replace")
