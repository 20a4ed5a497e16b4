"""Level packs: many levels of one game in one file, read one level at a time.

Layout (little-endian)::

    0   4  magic b"PZLV"
    4   1  format version (1)
    5   1  game number (the PACK field of the game's descriptor in games.py:
           1 catmouse, 2 klotski, 3 trapcat)
    6   2  level count N (1..MAX_LEVELS)
    8   4  data length D (bytes of level data)
    12  4  CRC-32 of every byte after the header (offset table + data)
    16     offset table: N + 1 u32, offsets into the data; entry 0 is 0,
           entry N is D, level i is data[off[i]:off[i+1]] (1..MAX_LEVEL_BYTES)
    16 + 4(N+1)   data: each level's bytes, opaque here (the game parses them)

``LevelPack(f)`` validates the whole file on open by streaming it through one
128-byte buffer (header fields, exact file size, CRC-32, offset table), so a bad
pack is refused before any level is used; ``level(i)`` then seeks to one level
and reads only it.  Nothing allocated depends on a length field except one
level's bytes, which are checked against MAX_LEVEL_BYTES first.  (The CRC pass
leaves one boxed 32-bit int of garbage per 128-byte chunk on the device: that is
proportional to the real file size, which is checked before, never to a field.)  Every problem
raises LevelPackError with a precise message (byte offset, field, values).

``build_pack`` (host side; also works on the device) writes a pack.
"""

import binascii

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

MAGIC = b"PZLV"
VERSION = const(1)
HEADER_SIZE = const(16)
MAX_LEVELS = const(4096)
MAX_LEVEL_BYTES = const(4160)  # a 64 x 64 text map with newlines
_CHUNK = const(128)


class LevelPackError(ValueError):
    """A bad level pack (or a bad request to one): one precise message."""


def game_name(number):
    """The game whose packs carry ``number`` (the PACK field of its descriptor
    in games.py), or None."""
    import games
    for game in games.GAMES:
        if game[games.PACK] == number and number:
            return game[games.ID]
    return None


def _u32(b, o):
    return b[o] | (b[o + 1] << 8) | (b[o + 2] << 16) | (b[o + 3] << 24)


def _put_u32(b, o, v):
    b[o] = v & 0xFF
    b[o + 1] = (v >> 8) & 0xFF
    b[o + 2] = (v >> 16) & 0xFF
    b[o + 3] = (v >> 24) & 0xFF


class LevelPack:
    """A validated pack on an open binary file (anything with seek/readinto)."""

    def __init__(self, f, game=None, check_crc=True):
        self.f = f
        self._buf = bytearray(_CHUNK)
        self._mv = memoryview(self._buf)
        buf = self._buf
        try:
            size = f.seek(0, 2)
            f.seek(0)
            got = f.readinto(self._mv[:HEADER_SIZE]) if size >= HEADER_SIZE else 0
        except OSError as exc:
            raise LevelPackError("cannot read the pack: %s" % exc)
        if size is None or size < HEADER_SIZE or got != HEADER_SIZE:
            raise LevelPackError("the pack is %d bytes, shorter than its %d-byte header"
                                 % (size or 0, HEADER_SIZE))
        if buf[0:4] != MAGIC:
            raise LevelPackError("bad magic %r at byte 0 (expected %r): not a level pack"
                                 % (bytes(buf[0:4]), MAGIC))
        if buf[4] != VERSION:
            raise LevelPackError("unsupported pack format version %d at byte 4 (this reader "
                                 "knows version %d)" % (buf[4], VERSION))
        self.game = game_name(buf[5])
        if self.game is None:
            raise LevelPackError("unknown game id %d at byte 5 (no game of this firmware)"
                                 % buf[5])
        if game is not None and game != self.game:
            raise LevelPackError("the pack holds %s levels, not %s" % (self.game, game))
        count = buf[6] | (buf[7] << 8)
        if not 1 <= count <= MAX_LEVELS:
            raise LevelPackError("level count %d at byte 6 is outside 1..%d"
                                 % (count, MAX_LEVELS))
        data_len = _u32(buf, 8)
        crc = _u32(buf, 12)
        self.count = count
        self.data_len = data_len
        self.table_at = HEADER_SIZE
        self.data_at = HEADER_SIZE + 4 * (count + 1)
        expected = self.data_at + data_len
        if size != expected:
            raise LevelPackError("the pack is %d bytes but its header promises %d (%d levels, "
                                 "%d data bytes): %s" % (size, expected, count, data_len,
                                                         "truncated" if size < expected else
                                                         "trailing bytes"))
        if check_crc:
            got_crc = self._crc(HEADER_SIZE, size)
            if got_crc != crc:
                raise LevelPackError("checksum mismatch: the header (byte 12) says 0x%08x, the "
                                     "contents give 0x%08x: the pack is corrupted"
                                     % (crc, got_crc))
        self._check_table()

    def _read(self, at, n):
        """Read n <= _CHUNK bytes at ``at`` into the shared buffer."""
        f = self.f
        f.seek(at)
        got = f.readinto(self._mv[:n]) if n < _CHUNK else f.readinto(self._buf)
        if got != n:
            raise LevelPackError("short read at byte %d (file changed while reading?)" % at)

    def _crc(self, start, end):
        f = self.f
        f.seek(start)
        crc = 0
        buf = self._buf
        left = end - start
        while left >= _CHUNK:
            if f.readinto(buf) != _CHUNK:
                raise LevelPackError("short read while checking the pack")
            crc = binascii.crc32(buf, crc)
            left -= _CHUNK
        if left:
            tail = self._mv[:left]
            if f.readinto(tail) != left:
                raise LevelPackError("short read while checking the pack")
            crc = binascii.crc32(tail, crc)
        return crc & 0xFFFFFFFF

    def _check_table(self):
        """Entry 0 is 0, entries never decrease, each level is 1..MAX_LEVEL_BYTES,
        the last entry is the data length."""
        buf = self._buf
        entries = self.count + 1
        prev = 0
        i = 0
        while i < entries:
            n = entries - i
            if n > _CHUNK // 4:
                n = _CHUNK // 4
            self._read(self.table_at + 4 * i, 4 * n)
            for k in range(n):
                off = _u32(buf, 4 * k)
                j = i + k
                if j == 0:
                    if off != 0:
                        raise LevelPackError("offset table entry 0 (byte %d) is %d; it must be 0"
                                             % (self.table_at, off))
                else:
                    length = off - prev
                    if off < prev or off > self.data_len:
                        raise LevelPackError(
                            "offset table entry %d (byte %d) is %d: outside %d..%d (level %d)"
                            % (j, self.table_at + 4 * j, off, prev, self.data_len, j - 1))
                    if length == 0:
                        raise LevelPackError("level %d is empty (offset table entries %d and "
                                             "%d are both %d)" % (j - 1, j - 1, j, off))
                    if length > MAX_LEVEL_BYTES:
                        raise LevelPackError("level %d is %d bytes, more than %d"
                                             % (j - 1, length, MAX_LEVEL_BYTES))
                prev = off
            i += n
        if prev != self.data_len:
            raise LevelPackError("the last offset table entry (byte %d) is %d but the data is "
                                 "%d bytes" % (self.table_at + 4 * self.count, prev, self.data_len))

    def span(self, index):
        """(start, length) of level ``index`` in the file."""
        if not 0 <= index < self.count:
            raise LevelPackError("level %d does not exist (the pack has %d: 0..%d)"
                                 % (index, self.count, self.count - 1))
        self._read(self.table_at + 4 * index, 8)
        start = _u32(self._buf, 0)
        end = _u32(self._buf, 4)
        if not 0 <= start < end <= self.data_len or end - start > MAX_LEVEL_BYTES:
            raise LevelPackError("offset table entry %d is damaged" % index)
        return self.data_at + start, end - start

    def level_into(self, index, out):
        """Read level ``index`` into the bytearray ``out``; returns its length."""
        at, length = self.span(index)
        if length > len(out):
            raise LevelPackError("level %d is %d bytes; the buffer holds %d"
                                 % (index, length, len(out)))
        f = self.f
        f.seek(at)
        if f.readinto(memoryview(out)[:length]) != length:
            raise LevelPackError("short read of level %d" % index)
        return length

    def level(self, index):
        """Level ``index`` as bytes (allocates that level only)."""
        at, length = self.span(index)
        f = self.f
        f.seek(at)
        data = f.read(length)
        if data is None or len(data) != length:
            raise LevelPackError("short read of level %d" % index)
        return data

    def check_levels(self, parse):
        """Run ``parse(bytes)`` (the game's own parser) on every level; its error
        becomes LevelPackError naming the level."""
        for i in range(self.count):
            try:
                parse(self.level(i))
            except LevelPackError:
                raise
            except Exception as exc:  # the game's own error type
                raise LevelPackError("level %d: %s" % (i, exc))


def open_pack(path, game=None):
    """Open and validate a pack file; the caller closes ``pack.f``."""
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise LevelPackError("cannot open %s: %s" % (path, exc))
    try:
        return LevelPack(f, game)
    except LevelPackError:
        f.close()
        raise


def build_pack(game, levels):
    """The bytes of a pack holding ``levels`` (a list of bytes) for ``game``."""
    import games
    ID, PACK = games.ID, games.PACK
    number = 0
    for entry in games.GAMES:
        if entry[ID] == game:
            number = entry[PACK]
    if not number:
        raise LevelPackError("unknown game %r (known: %s)" % (
            game, ", ".join(sorted(entry[ID] for entry in games.GAMES if entry[PACK]))))
    count = len(levels)
    if not 1 <= count <= MAX_LEVELS:
        raise LevelPackError("a pack holds 1..%d levels, got %d" % (MAX_LEVELS, count))
    table = bytearray(4 * (count + 1))
    off = 0
    for i in range(count):
        n = len(levels[i])
        if not 1 <= n <= MAX_LEVEL_BYTES:
            raise LevelPackError("level %d is %d bytes; 1..%d allowed" % (i, n, MAX_LEVEL_BYTES))
        off += n
        _put_u32(table, 4 * (i + 1), off)
    body = bytes(table) + b"".join(levels)
    header = bytearray(HEADER_SIZE)
    header[0:4] = MAGIC
    header[4] = VERSION
    header[5] = number
    header[6] = count & 0xFF
    header[7] = count >> 8
    _put_u32(header, 8, off)
    _put_u32(header, 12, binascii.crc32(body) & 0xFFFFFFFF)
    return bytes(header) + body
