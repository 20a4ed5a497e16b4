"""A preallocated ring of fixed-size undo records (Trap the Cat, Cat & Mouse,
Flip Junqi, Klotski: its layouts in 10-byte records, klotski_game.LayoutUndo).

``UndoRing(size, depth)`` holds the newest ``depth`` records of ``size``
bytes each in one bytearray, ``buf``.  ``push()`` returns the offset of the
slot the caller fills (the oldest record is overwritten when the ring is
full), ``pop()`` the offset of the newest record (-1 when there is none).
``put30`` / ``get30`` store a 30-bit int (an RNG's state) in 4 bytes.
Nothing is allocated after construction.  Saving: the records are plain
bytes; undosave.py turns a ring into bytes (oldest first) and back, so a
saved game in progress can carry its undo history.
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
        top = self.top
        self.top = 0 if top + 1 == self.depth else top + 1
        if self.count < self.depth:
            self.count += 1
        return top * self.size

    def pop(self):
        """Offset of the newest record, which leaves the ring; -1 if empty."""
        if not self.count:
            return -1
        self.count -= 1
        top = (self.top or self.depth) - 1
        self.top = top
        return top * self.size

    def put30(self, at, value):
        buf = self.buf
        buf[at] = value & 0xFF
        buf[at + 1] = (value >> 8) & 0xFF
        buf[at + 2] = (value >> 16) & 0xFF
        buf[at + 3] = (value >> 24) & 0x3F

    def get30(self, at):
        buf = self.buf
        return buf[at] | buf[at + 1] << 8 | buf[at + 2] << 16 | buf[at + 3] << 24
