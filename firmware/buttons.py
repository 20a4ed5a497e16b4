"""Buttons: bit flags, debounce, per-tick state with latching and auto-repeat.

Games use ``from buttons import UP, DOWN, LEFT, RIGHT, A, B`` and ask
``ctx.buttons``: ``pressed(b)``, ``just_pressed(b)``, ``just_released(b)``,
``held(b)`` (pressed in this tick and the one before), ``held_ms(b)`` and
``repeat(b)`` (just pressed, or auto-repeat while held).  Any of these accept a
mask of several buttons: ``pressed(A | B)`` is true when either is down.

The hardware layer calls ``sample(raw_mask, now_ms)`` as often as it likes
(every millisecond while the loop idles, or once per tick); the main loop calls
``update(now_ms)`` once per tick.  Debounce is leading-edge with a lock-out:
the first edge is taken at once and further changes of that button are ignored
for _DEBOUNCE_MS, so a switch that bounces for a few milliseconds gives exactly
one press.  An edge seen between two ticks is latched: a press released again
before the next tick still shows as pressed/just_pressed in that tick and as
just_released in the tick after.  Nothing here allocates after construction.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from clock import ticks_diff

UP = const(1)
DOWN = const(2)
LEFT = const(4)
RIGHT = const(8)
A = const(16)
B = const(32)
ALL = const(63)
COUNT = const(6)
NAMES = ("up", "down", "left", "right", "a", "b")

_DEBOUNCE_MS = const(30)
_REPEAT_DELAY_MS = const(300)
_REPEAT_MS = const(100)


def bit(name):
    """Flag for a button name ("up", ..., "a", "b"); ValueError otherwise."""
    return 1 << NAMES.index(name)


def combine(raw, combos):
    """Map chords to virtual buttons for boards with fewer buttons.

    ``combos`` is a sequence of (chord_mask, virtual_mask): when every button of
    the chord is down, the chord's buttons are replaced by the virtual one."""
    for i in range(len(combos)):
        chord = combos[i][0]
        if raw & chord == chord:
            raw = (raw & ~chord) | combos[i][1]
    return raw


class Buttons:
    def __init__(self, debounce_ms=_DEBOUNCE_MS, repeat_delay_ms=_REPEAT_DELAY_MS,
                 repeat_ms=_REPEAT_MS):
        self.debounce_ms = debounce_ms
        self.repeat_delay_ms = repeat_delay_ms
        self.repeat_ms = repeat_ms
        self.stable = 0           # debounced level, updated by sample()
        self._latch_down = 0      # press edges since the last update()
        self._latch_up = 0        # release edges since the last update()
        self._pending_up = 0      # releases deferred to the next tick
        self._edge_at = [0] * COUNT
        self._down_at = [0] * COUNT
        self._next_repeat = [0] * COUNT
        self.state = 0            # pressed in this tick
        self.prev = 0
        self.down = 0             # just pressed
        self.up = 0               # just released
        self.rep = 0              # repeat (just pressed or auto-repeat)
        self.now = 0
        self.edges = 0            # accepted debounced edges (diagnostics)

    def reset(self, raw=0, now=0):
        """Forget history; buttons already down count as held, not pressed."""
        self.stable = raw
        self.state = self.prev = raw
        self._latch_down = self._latch_up = self._pending_up = 0
        self.down = self.up = self.rep = 0
        for i in range(COUNT):
            self._edge_at[i] = now
            self._down_at[i] = now
            self._next_repeat[i] = now + 0x100000  # no repeat for keys held at reset

    def sample(self, raw, now):
        """Feed one raw reading (bit mask of buttons down) taken at ``now`` ms.

        The runtime calls it every 8 ms while it waits for the next tick, so
        its call frame stays within the 11 words MicroPython keeps on the C
        stack (a larger one is allocated on the heap at every call: 40 us a
        call instead of 17 on the virtual Pico, no button changed; see
        docs/conventions.md): a ``while`` loop, as ``for i in range(COUNT)``
        holds one more word."""
        changed = (raw ^ self.stable) & ALL
        if not changed:
            return
        edge_at = self._edge_at
        i = 0
        while i < COUNT:
            m = 1 << i
            if changed & m and ticks_diff(now, edge_at[i]) >= self.debounce_ms:
                edge_at[i] = now
                self.edges += 1
                if raw & m:
                    self.stable |= m
                    self._latch_down |= m
                else:
                    self.stable &= ~m
                    self._latch_up |= m
            i += 1

    def update(self, now):
        """Once per tick: turn the latched edges into this tick's state."""
        self.now = now
        self.prev = self.state
        stable = self.stable
        down = self._latch_down
        # a release pending from the last tick, unless it was pressed again
        up = self._pending_up & ~down
        latched_up = self._latch_up
        # pressed and released again between ticks: show the press now,
        # report the release on the next tick
        quick = down & latched_up & ~stable
        self._pending_up = quick
        up |= latched_up & ~quick & self.prev
        state = stable | down
        self.state = state
        self.down = down
        self.up = up
        self._latch_down = 0
        self._latch_up = 0
        rep = self.down
        for i in range(COUNT):
            m = 1 << i
            if self.down & m:
                self._down_at[i] = now
                self._next_repeat[i] = now + self.repeat_delay_ms
            elif state & m and ticks_diff(now, self._next_repeat[i]) >= 0:
                rep |= m
                self._next_repeat[i] = now + self.repeat_ms
        self.rep = rep

    # the game-facing questions ---------------------------------------------
    def pressed(self, mask=ALL):
        return bool(self.state & mask)

    def just_pressed(self, mask=ALL):
        return bool(self.down & mask)

    def just_released(self, mask=ALL):
        return bool(self.up & mask)

    def held(self, mask=ALL):
        """Down in this tick and in the one before."""
        return bool(self.state & self.prev & mask)

    def held_ms(self, button):
        """How long a single button has been down (0 when up)."""
        if not self.state & button:
            return 0
        i = 0
        while button > 1:
            button >>= 1
            i += 1
        return ticks_diff(self.now, self._down_at[i])

    def repeat(self, mask=ALL):
        return bool(self.rep & mask)

    def any(self):
        return bool(self.down)
