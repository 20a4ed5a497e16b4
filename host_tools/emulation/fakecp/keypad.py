"""Stands for CircuitPython's ``keypad`` (C; Blinka's needs a Pi's GPIO): Keys, Event,
EventQueue.

``Keys(pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64)``;
the real one scans in the background every ``interval``; here a scan happens
when the queue is read (``events.get_into`` / ``get`` / ``len``), comparing each
pin's level (``levels[pin.id]``, default: the pull's idle level) with
``value_when_pressed`` and queueing one Event per change.  Tests can also
``queue(key_number, pressed)`` scripted events directly (that Keys then stops
reading pin levels).  A full queue drops
events and sets ``overflowed``."""

levels = {}
clock = [0]


def reset():
    global levels
    levels = {}


class Event:
    def __init__(self, key_number=0, pressed=True, timestamp=None):
        self.key_number = key_number
        self.pressed = pressed
        self.timestamp = clock[0] if timestamp is None else timestamp

    @property
    def released(self):
        return not self.pressed

    def __eq__(self, other):
        return self.key_number == other.key_number and self.pressed == other.pressed

    def __repr__(self):
        return "<Event: key_number %d %s>" % (self.key_number, "pressed" if self.pressed else "released")


class EventQueue:
    def __init__(self, keys, max_events):
        self._keys = keys
        self._q = []
        self._max = max_events
        self.overflowed = False

    def _put(self, key_number, pressed):
        if len(self._q) >= self._max:
            self.overflowed = True
            return
        self._q.append((key_number, pressed, clock[0]))

    def get_into(self, event):
        self._keys._scan()
        if not self._q:
            return False
        event.key_number, event.pressed, event.timestamp = self._q.pop(0)
        return True

    def get(self):
        e = Event()
        return e if self.get_into(e) else None

    def clear(self):
        self._q = []
        self.overflowed = False

    def __len__(self):
        self._keys._scan()
        return len(self._q)

    def __bool__(self):
        return len(self) > 0


class Keys:
    def __init__(self, pins, *, value_when_pressed, pull=True, interval=0.02, max_events=64,
                 debounce_threshold=1):
        self.pins = tuple(pins)
        self.value_when_pressed = bool(value_when_pressed)
        self.pull = pull
        self.interval = interval
        self.key_count = len(self.pins)
        self._state = [False] * self.key_count
        self.events = EventQueue(self, max_events)
        self.scans = 0
        self.scripted = False

    def _level(self, pin):
        level = levels.get(pin.id)
        if level is None:
            # with pull=True the idle level is the opposite of value_when_pressed
            return (not self.value_when_pressed) if self.pull else 0
        return level

    def _scan(self):
        self.scans += 1
        if self.scripted:
            return
        for i in range(self.key_count):
            down = bool(self._level(self.pins[i])) == self.value_when_pressed
            if down != self._state[i]:
                self._state[i] = down
                self.events._put(i, down)

    def queue(self, key_number, pressed):
        """A scripted event; from then on this Keys ignores pin levels."""
        self.scripted = True
        self._state[key_number] = pressed
        self.events._put(key_number, pressed)

    def reset(self):
        self._state = [False] * self.key_count
        self._scan()

    def deinit(self):
        pass
