"""A preallocated ring of fixed-size undo records (Trap the Cat, Cat & Mouse,
Flip Junqi; Klotski keeps its own).

``UndoRing(size, depth)`` holds the newest ``depth`` records of ``size``
bytes each in one bytearray.  ``push()`` returns the offset of the slot the
caller fills (the oldest record is overwritten when the ring is full),
``pop()`` the offset of the newest record (-1 when there is none); the caller
reads and writes ``ring.buf`` at that offset.  Nothing is allocated after
construction.  ``put16`` / ``get16`` / ``put30`` / ``get30`` store the ints
a record needs (cells, counters, an RNG's 30-bit state) little-endian.

Saving: ``dump()`` gives the records oldest first as bytes (the ring's
``count`` whole records) and ``load(data)`` puts them back, so a saved game
in progress can carry its undo history as one compact string of bytes.
"""


class UndoRing:
    def __init__(self, size, depth):
        self.size = size
        self.depth = depth
        self.buf = bytearray(size * depth)
        self.count = 0           # records that can be undone (<= depth)
        self.top = 0             # slot of the next record

    def clear(self):
        self.count = 0
        self.top = 0

    def push(self):
        """Offset of a new record's slot (the newest from now on)."""
        base = self.top * self.size
        top = self.top + 1
        self.top = 0 if top == self.depth else top
        if self.count < self.depth:
            self.count += 1
        return base

    def pop(self):
        """Offset of the newest record, which leaves the ring; -1 if empty."""
        if not self.count:
            return -1
        self.count -= 1
        top = self.top - 1
        if top < 0:
            top = self.depth - 1
        self.top = top
        return top * self.size

    def put16(self, at, value):
        buf = self.buf
        buf[at] = value & 0xFF
        buf[at + 1] = (value >> 8) & 0xFF

    def get16(self, at):
        buf = self.buf
        return buf[at] | buf[at + 1] << 8

    def put30(self, at, value):
        buf = self.buf
        buf[at] = value & 0xFF
        buf[at + 1] = (value >> 8) & 0xFF
        buf[at + 2] = (value >> 16) & 0xFF
        buf[at + 3] = (value >> 24) & 0x3F

    def get30(self, at):
        buf = self.buf
        return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24

    # -- saves (not per move: these allocate) -------------------------------------------
    def dump(self):
        """The records, oldest first, as bytes (len = count * size)."""
        out = bytearray(self.count * self.size)
        first = self.top - self.count
        if first < 0:
            first += self.depth
        size = self.size
        for i in range(self.count):
            slot = (first + i) % self.depth
            out[i * size:(i + 1) * size] = self.buf[slot * size:(slot + 1) * size]
        return bytes(out)

    def load(self, data):
        """Records from ``dump()`` (the newest ``depth`` of them are kept)."""
        size = self.size
        if len(data) % size:
            raise ValueError("undo data is not whole records")
        self.clear()
        n = len(data) // size
        for i in range(max(0, n - self.depth), n):
            at = self.push()
            self.buf[at:at + size] = data[i * size:(i + 1) * size]
