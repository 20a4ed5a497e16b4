"""An undo ring (undoring.UndoRing) as bytes and back, for a saved game in
progress: ``dump(ring)`` gives the records oldest first (count * size bytes),
``load(ring, data)`` puts them back (the newest ``depth`` of them).  Imported
only when saving or resuming (these allocate), not while playing.
``to_text`` / ``from_text``: bytes as hex text and back, for the JSON body."""

from binascii import hexlify, unhexlify


def dump(ring):
    """At most two slices of the ring's buffer (it may wrap), no loop."""
    size = ring.size
    n = ring.count
    first = (ring.top - n) % ring.depth
    buf = ring.buf
    if first + n <= ring.depth:
        return bytes(buf[first * size:(first + n) * size])
    return bytes(buf[first * size:]) + bytes(buf[:(first + n - ring.depth) * size])


def load(ring, data):
    size = ring.size
    if len(data) % size:
        raise ValueError("undo data is not whole records")
    ring.clear()
    n = len(data) // size
    for i in range(max(0, n - ring.depth), n):
        at = ring.push()
        ring.buf[at:at + size] = data[i * size:(i + 1) * size]


def to_text(data):
    """Bytes as hex text (a save's JSON body holds only text)."""
    return hexlify(data).decode()


def from_text(text):
    """The bytes of ``to_text``'s hex; ValueError if it is not hex."""
    try:
        return unhexlify(text)
    except (TypeError, ValueError):
        raise ValueError("not hex")
