# Small drawing helpers for games on the 128x64 MONO_VLSB frame buffer.
#
# - ``text(fb, s, x, y, c=1)``: compact 3x5 font (4 px advance, 6 px line),
#   ASCII 32..126, lower case drawn as upper case.  Returns the x after the text.
#   M has a solid top and A a closed one, so neither reads as N or H.
#   ``text_codes(fb, buf, start, end, x, y, c=1)``: the same for the codes
#   ``buf[start:end]`` of a preallocated buffer (a number made without a str).
#   ``fb.text`` is the 8x8 font.  ``text_width(s)``, ``center(fb, s, y)``.
# - ``Sprite(data, w, h)``: a MONO_VLSB bitmap from bytes (one byte per column
#   per 8-pixel band, as framebuf stores it); ``sprite.draw(fb, x, y, key=-1)``
#   blits it (``key=0`` makes 0 pixels transparent).  ``sprite_rows(rows)`` builds
#   the bytes from strings such as ``"..XX.."`` (host/import-time helper).
# - ``invert_rect``, ``box``.
#
# Nothing here allocates per call once sprites exist: text packs a str's bytes
# into a preallocated buffer (or, on CPython, indexes it); the pure-Python
# framebuf (CircuitPython) writes the glyphs into its page bytes itself
# (``FrameBuffer.glyphs``, from ``_FONT4`` as one int a glyph), MicroPython's
# gets them composed into a preallocated strip and blitted (the strip's
# framebuffers are made on the first text composed).
#
# Comments, not a docstring: a MicroPython that compiles the source keeps a module's
# docstring on the heap, and this module stays loaded at the launcher.


import framebuf

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_FONT_W = const(3)
_FONT_H = const(5)
ADVANCE = const(4)
LINE = const(6)

_FONT = (
    b"\x00\x00\x00\x00\x17\x00\x03\x00\x03\x1f\x0a\x1f\x12\x1f\x09\x09\x04\x12\x0a\x15\x1a\x00\x03\x00"
    b"\x00\x0e\x11\x11\x0e\x00\x0a\x04\x0a\x04\x0e\x04\x10\x08\x00\x04\x04\x04\x00\x10\x00\x18\x04\x03"
    b"\x1f\x11\x1f\x12\x1f\x10\x19\x15\x12\x11\x15\x0a\x07\x04\x1f\x17\x15\x09\x1e\x15\x1d\x01\x1d\x03"
    b"\x1f\x15\x1f\x17\x15\x0f\x00\x0a\x00\x10\x0a\x00\x04\x0a\x11\x0a\x0a\x0a\x11\x0a\x04\x01\x15\x02"
    b"\x0e\x11\x16\x1f\x05\x1f\x1f\x15\x0a\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05\x01\x0e\x11\x1d"
    b"\x1f\x04\x1f\x11\x1f\x11\x08\x10\x0f\x1f\x04\x1b\x1f\x10\x10\x1f\x03\x1f\x1f\x01\x1e\x0e\x11\x0e"
    b"\x1f\x05\x02\x0e\x19\x16\x1f\x05\x1a\x12\x15\x09\x01\x1f\x01\x1f\x10\x1f\x0f\x10\x0f\x1f\x0c\x1f"
    b"\x1b\x04\x1b\x03\x1c\x03\x19\x15\x13\x1f\x11\x00\x03\x04\x18\x00\x11\x1f\x02\x01\x02\x10\x10\x10"
    b"\x01\x02\x00\x1f\x05\x1f\x1f\x15\x0a\x0e\x11\x11\x1f\x11\x0e\x1f\x15\x11\x1f\x05\x01\x0e\x11\x1d"
    b"\x1f\x04\x1f\x11\x1f\x11\x08\x10\x0f\x1f\x04\x1b\x1f\x10\x10\x1f\x03\x1f\x1f\x01\x1e\x0e\x11\x0e"
    b"\x1f\x05\x02\x0e\x19\x16\x1f\x05\x1a\x12\x15\x09\x01\x1f\x01\x1f\x10\x1f\x0f\x10\x0f\x1f\x0c\x1f"
    b"\x1b\x04\x1b\x03\x1c\x03\x19\x15\x13\x04\x1f\x11\x00\x1f\x00\x11\x1f\x04\x04\x06\x02"
)



# Text is composed into a strip (a glyph's 3 columns + a blank one per
# character) and drawn with ONE blit per up to _STRIP_CHARS characters: the
# blank columns are transparent in both colours, so the pixels are those of
# one blit per glyph.  The pure-Python framebuf (deployed to CircuitPython,
# where a blit's setup costs more than its columns) skips the strip: its
# FrameBuffer.glyphs draws the same pixels from _FONT4 when the text is on
# screen.
_STRIP_CHARS = const(32)
_strip = bytearray(_STRIP_CHARS * ADVANCE)
# _strips[n]: the first n characters of the strip (4n - 1 columns, no trailing
# blank), made when text is first composed (_strip_views): on the pure-Python
# framebuf only text cut by the screen's edge is, and 32 framebuffers take 3 KB
_strips = None


def _strip_views():
    global _strips
    _strips = [None] + [framebuf.FrameBuffer(_strip, n * ADVANCE - 1, _FONT_H, framebuf.MONO_VLSB)
                        for n in range(1, _STRIP_CHARS + 1)]
    return _strips


_inverse = framebuf.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, framebuf.MONO_VLSB)  # 0->1, 1->0
_GLYPHS = hasattr(_inverse, "glyphs")    # the pure-Python framebuf (CircuitPython, CPython)


def _font4():
    """The glyph of every byte value at 4 * code (3 columns, a blank); outside
    32..126 the '?'."""
    out = bytearray(1024)
    for code in range(256):
        g = (code if 32 <= code <= 126 else 63) - 32
        out[4 * code] = _FONT[3 * g]
        out[4 * code + 1] = _FONT[3 * g + 1]
        out[4 * code + 2] = _FONT[3 * g + 2]
    return bytes(out)


_FONT4 = _STRIP_FONT = _font4()   # the strip's source: 4 bytes a code
del _font4                          # run once: its code need not stay resident
if _GLYPHS:
    # the pure-Python framebuf's form (FrameBuffer.glyphs): one int a code,
    # the 4 bytes read little-endian (column 0 in the low byte)
    from array import array
    _FONT4 = array("I", _FONT4)
# A str's characters cost a str object each to index; its UTF-8 bytes packed into
# _codes cost one call (MicroPython and CircuitPython pack a str for "s"; CPython
# does not, and indexes the str).
_CODES = const(64)
_codes = bytearray(_CODES)
try:
    from struct import pack_into as _pack_into
    _pack_into("1s", bytearray(1), 0, "a")
except Exception:                   # ImportError; CPython: struct.error (a str is not bytes)
    _pack_into = None


def text(fb, s, x, y, c=1):
    """Draw ``s`` (str or bytes) in the 3x5 font; return the x after it.
    Only the glyphs' pixels are drawn (the background shows through)."""
    n = len(s)
    if not isinstance(s, str):
        return text_codes(fb, s, 0, n, x, y, c)
    if _pack_into is not None and n < _CODES:
        _pack_into("64s", _codes, 0, s)
        # ASCII: its n UTF-8 bytes are its characters and the zero padding
        # follows; a non-ASCII str's bytes run on past n, nonzero there unless
        # that byte is a NUL character of the str (hence the second test)
        if not _codes[n] and "\x00" not in s:
            if _GLYPHS and fb.glyphs(_FONT4, _codes, 0, n, x, y, c):
                return x + n * ADVANCE
            return text_codes(fb, _codes, 0, n, x, y, c)
    # a str's characters one by one (CPython, non-ASCII, _CODES or more long)
    done = 0
    while done < n:
        count = n - done
        if count > _STRIP_CHARS:
            count = _STRIP_CHARS
        for i in range(count):
            code = ord(s[done + i])
            _codes[i] = code if code < 256 else 63
        x = text_codes(fb, _codes, 0, count, x, y, c)
        done += count
    return x


def text_codes(fb, codes, start, end, x, y, c=1):
    """Draw the character codes ``codes[start:end]`` (bytes, a bytearray: a
    line made in a preallocated buffer needs no slice); return the x after."""
    if _GLYPHS and fb.glyphs(_FONT4, codes, start, end, x, y, c):
        return x + (end - start) * ADVANCE
    font = _STRIP_FONT
    strip = _strip
    strips = _strips or _strip_views()
    while start < end:
        count = end - start
        if count > _STRIP_CHARS:
            count = _STRIP_CHARS
        o = 0
        for i in range(start, start + count):
            base = codes[i] << 2
            strip[o] = font[base]
            strip[o + 1] = font[base + 1]
            strip[o + 2] = font[base + 2]
            strip[o + 3] = 0
            o += 4
        if c:
            fb.blit(strips[count], x, y, 0)
        else:
            fb.blit(strips[count], x, y, 1, _inverse)
        x += o
        start += count
    return x


def glyph(char):
    """A 3x5 FrameBuffer of one character of the font (a glyph drawn by one
    blit, no text composing: digits in board cells)."""
    code = ord(char)
    base = 3 * ((code if 32 <= code <= 126 else 63) - 32)
    return framebuf.FrameBuffer(bytearray(_FONT[base:base + _FONT_W]), _FONT_W, _FONT_H,
                                framebuf.MONO_VLSB)


def text_width(s):
    n = len(s)
    return n * ADVANCE - 1 if n else 0


def center(fb, s, y, c=1, width=128):
    """3x5 text centred horizontally."""
    return text(fb, s, (width - text_width(s)) // 2, y, c)


def center8(fb, s, y, c=1, width=128):
    """8x8 framebuf text centred horizontally."""
    fb.text(s, (width - 8 * len(s)) // 2, y, c)


def sprite_rows(rows):
    """Bytes in MONO_VLSB layout from strings of '.'/'X' (any non-'.' is on)."""
    h = len(rows)
    w = len(rows[0])
    out = bytearray(w * ((h + 7) // 8))
    for y in range(h):
        for x in range(w):
            if rows[y][x] not in ". ":
                out[(y // 8) * w + x] |= 1 << (y % 8)
    return bytes(out)


class Sprite:
    def __init__(self, data, w, h):
        self.w = w
        self.h = h
        self.buf = bytearray(data)
        self.fb = framebuf.FrameBuffer(self.buf, w, h, framebuf.MONO_VLSB)

    def draw(self, fb, x, y, key=-1):
        fb.blit(self.fb, x, y, key)


def invert_rect(fb, x, y, w, h):
    for yy in range(y, y + h):
        for xx in range(x, x + w):
            fb.pixel(xx, yy, 1 - fb.pixel(xx, yy))


def box(fb, x, y, w, h, c=1):
    """A cleared rectangle with a 1 px border (dialogs, toasts)."""
    fb.fill_rect(x, y, w, h, 1 - c)
    fb.rect(x, y, w, h, c)

