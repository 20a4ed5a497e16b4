"""An undo ring (undoring.UndoRing) as bytes and back, for a saved game in
progress: ``dump(ring)`` gives the records oldest first (count * size bytes),
``load(ring, data)`` puts them back (the newest ``depth`` of them).  Imported
only when saving or resuming (these allocate), not while playing."""


def dump(ring):
    size = ring.size
    out = bytearray(ring.count * size)
    first = (ring.top - ring.count) % ring.depth
    for i in range(ring.count):
        slot = (first + i) % ring.depth
        out[i * size:(i + 1) * size] = ring.buf[slot * size:(slot + 1) * size]
    return bytes(out)


def load(ring, data):
    size = ring.size
    if len(data) % size:
        raise ValueError("undo data is not whole records")
    ring.clear()
    n = len(data) // size
    for i in range(max(0, n - ring.depth), n):
        at = ring.push()
        ring.buf[at:at + size] = data[i * size:(i + 1) * size]
