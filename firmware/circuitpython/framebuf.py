"""A pure-Python stand-in for MicroPython's built-in ``framebuf`` module.

The host simulator puts this directory on sys.path so that the unmodified
firmware (``import framebuf``) runs under CPython, and it is flashed as
``framebuf.py`` to CircuitPython, which has no built-in framebuf.  It follows
the C implementation in MicroPython's extmod/modframebuf.c pixel for pixel:
clipping rules, any nonzero colour drawing a set pixel, Bresenham lines, the
8x8 text font (taken from MicroPython's framebuf by rendering it there, MIT
licence), ``blit`` with key and palette, and ``scroll`` leaving the vacated
area untouched.  Formats: MONO_VLSB (the OLEDs' native layout), MONO_HLSB and
MONO_HMSB; the others raise.

MONO_VLSB is the format that runs on the device, so it works on whole page
bytes (8 rows of one column) rather than pixels, with few calls and attribute
loads: every bytecode costs about a microsecond on CircuitPython.  Text is
most of a frame's drawing, and most of it lands on page bytes that hold one
value under the whole line (a cleared screen, a bar): there each glyph's bytes
in a page are written at once, one ``struct.pack_into`` of a few ints (4 bytes
of a 3x5 glyph, 8 of an 8x8 one), after one C-level ``bytearray.count`` tells
that the bytes under the line are alike (_span); elsewhere each byte is read
and changed.  Nothing allocates per call: the tables below (about 2.2 KB) are
made at import, a framebuffer's page views (about 0.4 KB, see _page_views) on
first use, and glyphs' packed font (1 KB, none for gfx's, which comes packed)
on its first call.

One method is not MicroPython's: ``glyphs``, gfx's 3x5 text written straight
into the page bytes (gfx uses it when the framebuf has it, and composes a
strip to blit otherwise).
"""

from array import array

try:
    from micropython import const      # MicroPython/CircuitPython: inlined at compile time
except ImportError:
    def const(value):
        return value

MONO_VLSB = const(0)
MVLSB = MONO_VLSB
RGB565 = const(1)
GS4_HMSB = const(2)
MONO_HLSB = const(3)
MONO_HMSB = const(4)
GS2_HMSB = const(5)
GS8 = const(6)

FONT8X8 = (
    b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x4f\x4f\x00\x00\x00\x00\x07\x07\x00\x00\x07\x07\x00"
    b"\x14\x7f\x7f\x14\x14\x7f\x7f\x14\x00\x24\x2e\x6b\x6b\x3a\x12\x00\x00\x63\x33\x18\x0c\x66\x63\x00"
    b"\x00\x32\x7f\x4d\x4d\x77\x72\x50\x00\x00\x00\x04\x06\x03\x01\x00\x00\x00\x1c\x3e\x63\x41\x00\x00"
    b"\x00\x00\x41\x63\x3e\x1c\x00\x00\x08\x2a\x3e\x1c\x1c\x3e\x2a\x08\x00\x08\x08\x3e\x3e\x08\x08\x00"
    b"\x00\x00\x80\xe0\x60\x00\x00\x00\x00\x08\x08\x08\x08\x08\x08\x00\x00\x00\x00\x60\x60\x00\x00\x00"
    b"\x00\x40\x60\x30\x18\x0c\x06\x02\x00\x3e\x7f\x49\x45\x7f\x3e\x00\x00\x40\x44\x7f\x7f\x40\x40\x00"
    b"\x00\x62\x73\x51\x49\x4f\x46\x00\x00\x22\x63\x49\x49\x7f\x36\x00\x00\x18\x18\x14\x16\x7f\x7f\x10"
    b"\x00\x27\x67\x45\x45\x7d\x39\x00\x00\x3e\x7f\x49\x49\x7b\x32\x00\x00\x03\x03\x79\x7d\x07\x03\x00"
    b"\x00\x36\x7f\x49\x49\x7f\x36\x00\x00\x26\x6f\x49\x49\x7f\x3e\x00\x00\x00\x00\x24\x24\x00\x00\x00"
    b"\x00\x00\x80\xe4\x64\x00\x00\x00\x00\x08\x1c\x36\x63\x41\x41\x00\x00\x14\x14\x14\x14\x14\x14\x00"
    b"\x00\x41\x41\x63\x36\x1c\x08\x00\x00\x02\x03\x51\x59\x0f\x06\x00\x00\x3e\x7f\x41\x4d\x4f\x2e\x00"
    b"\x00\x7c\x7e\x0b\x0b\x7e\x7c\x00\x00\x7f\x7f\x49\x49\x7f\x36\x00\x00\x3e\x7f\x41\x41\x63\x22\x00"
    b"\x00\x7f\x7f\x41\x63\x3e\x1c\x00\x00\x7f\x7f\x49\x49\x41\x41\x00\x00\x7f\x7f\x09\x09\x01\x01\x00"
    b"\x00\x3e\x7f\x41\x49\x7b\x3a\x00\x00\x7f\x7f\x08\x08\x7f\x7f\x00\x00\x00\x41\x7f\x7f\x41\x00\x00"
    b"\x00\x20\x60\x41\x7f\x3f\x01\x00\x00\x7f\x7f\x1c\x36\x63\x41\x00\x00\x7f\x7f\x40\x40\x40\x40\x00"
    b"\x00\x7f\x7f\x06\x0c\x06\x7f\x7f\x00\x7f\x7f\x0e\x1c\x7f\x7f\x00\x00\x3e\x7f\x41\x41\x7f\x3e\x00"
    b"\x00\x7f\x7f\x09\x09\x0f\x06\x00\x00\x1e\x3f\x21\x61\x7f\x5e\x00\x00\x7f\x7f\x19\x39\x6f\x46\x00"
    b"\x00\x26\x6f\x49\x49\x7b\x32\x00\x00\x01\x01\x7f\x7f\x01\x01\x00\x00\x3f\x7f\x40\x40\x7f\x3f\x00"
    b"\x00\x1f\x3f\x60\x60\x3f\x1f\x00\x00\x7f\x7f\x30\x18\x30\x7f\x7f\x00\x63\x77\x1c\x1c\x77\x63\x00"
    b"\x00\x07\x0f\x78\x78\x0f\x07\x00\x00\x61\x71\x59\x4d\x47\x43\x00\x00\x00\x7f\x7f\x41\x41\x00\x00"
    b"\x00\x02\x06\x0c\x18\x30\x60\x40\x00\x00\x41\x41\x7f\x7f\x00\x00\x00\x08\x0c\x06\x06\x0c\x08\x00"
    b"\xc0\xc0\xc0\xc0\xc0\xc0\xc0\xc0\x00\x00\x01\x03\x06\x04\x00\x00\x00\x20\x74\x54\x54\x7c\x78\x00"
    b"\x00\x7f\x7f\x44\x44\x7c\x38\x00\x00\x38\x7c\x44\x44\x6c\x28\x00\x00\x38\x7c\x44\x44\x7f\x7f\x00"
    b"\x00\x38\x7c\x54\x54\x5c\x58\x00\x00\x08\x7e\x7f\x09\x03\x02\x00\x00\x98\xbc\xa4\xa4\xfc\x7c\x00"
    b"\x00\x7f\x7f\x04\x04\x7c\x78\x00\x00\x00\x00\x7d\x7d\x00\x00\x00\x00\x40\xc0\x80\x80\xfd\x7d\x00"
    b"\x00\x7f\x7f\x30\x38\x6c\x44\x00\x00\x00\x41\x7f\x7f\x40\x00\x00\x00\x7c\x7c\x18\x30\x18\x7c\x7c"
    b"\x00\x7c\x7c\x04\x04\x7c\x78\x00\x00\x38\x7c\x44\x44\x7c\x38\x00\x00\xfc\xfc\x24\x24\x3c\x18\x00"
    b"\x00\x18\x3c\x24\x24\xfc\xfc\x00\x00\x7c\x7c\x04\x04\x0c\x08\x00\x00\x48\x5c\x54\x54\x74\x20\x00"
    b"\x04\x04\x3f\x7f\x44\x64\x20\x00\x00\x3c\x7c\x40\x40\x7c\x3c\x00\x00\x1c\x3c\x60\x60\x3c\x1c\x00"
    b"\x00\x1c\x7c\x30\x18\x30\x7c\x1c\x00\x44\x6c\x38\x38\x6c\x44\x00\x00\x9c\xbc\xa0\xa0\xfc\x7c\x00"
    b"\x00\x44\x64\x74\x5c\x4c\x44\x00\x00\x08\x08\x3e\x77\x41\x41\x00\x00\x00\x00\xff\xff\x00\x00\x00"
    b"\x00\x41\x41\x77\x3e\x08\x08\x00\x00\x02\x03\x01\x03\x02\x03\x01\xaa\x55\xaa\x55\xaa\x55\xaa\x55"
)


def _glyph_columns(font):
    """Per character code 0..127 (codes below 32 draw glyph 127): the OR of the
    glyph's columns << 16 | the FONT8X8 index of its first nonzero column << 4
    | the number of columns up to its last nonzero one.  Text skips the blank
    columns around a glyph without testing them, and the page below when no
    row of the glyph reaches it."""
    cols = []
    for code in range(128):
        base = ((code if code >= 32 else 127) - 32) * 8
        first = end = rows = 0
        for k in range(8):
            if font[base + k]:
                if not end:
                    first = k
                end = k + 1
                rows |= font[base + k]
        cols.append(rows << 16 | (base + first) << 4 | (end - first))
    return tuple(cols)


_GLYPH_COLUMNS = _glyph_columns(FONT8X8)
# FONT8X8 as 16-bit ints, two columns each (the left one in the low byte: the
# bytes as they are on a little-endian machine), for glyphs written whole
# (_text_stored)
_FONT_PAIRS = array("H", FONT8X8)

# text() iterates over the UTF-8 bytes of a str: struct.pack_into copies them
# into this buffer without allocating (iterating the str itself makes a str
# object per character, looked up among the interned strings).  The NUL padding
# ends the text as the C code's NUL-terminated string does.  CPython (no buffer
# protocol on str) and longer strings use str.encode().
_TEXT_BYTES = bytearray(64)
try:
    from struct import pack_into as _pack_into
    _pack_into("1s", bytearray(1), 0, "a")
except Exception:       # no struct module, or a str without the buffer protocol
    _pack_into = None
# ints written as bytes, several at a time (text into a page row of background)
try:
    from struct import pack_into as _pack_ints
except ImportError:
    _pack_ints = None

_ONES = b"\xff" * 128
_ZEROS = bytes(128)
# 128 copies of one byte value, whatever value a run needs last (a run of a
# partial-page mask, see _fill_rect); refilled by doubling from its own start
_SCRATCH = bytearray(128)
_SCRATCH_HALVES = tuple(memoryview(_SCRATCH)[:1 << k] for k in range(7))


def _runs(source):
    """Views of ``source`` indexed by n >> 3 (8 <= n < 136): each has a power of
    two length L with L <= n <= 2 * L, so two slice copies of it (at the start
    and at the end of a run) set n bytes."""
    views = {}
    runs = [None]
    for k in range(1, 17):
        size = 128
        while size > 8 * k:
            size >>= 1
        if size not in views:
            views[size] = memoryview(source)[:size]
        runs.append(views[size])
    return tuple(runs)


_ONE_RUNS = _runs(_ONES)
_ZERO_RUNS = _runs(_ZEROS)
_SCRATCH_RUNS = _runs(_SCRATCH)


def _set_run(buf, i, n, value):
    """buf[i:i + n] = value (a byte) in a few slice copies from shared buffers:
    bytes * n would allocate on every call."""
    if n < 8:
        for j in range(i, i + n):
            buf[j] = value
        return
    if value == 0:
        runs = _ZERO_RUNS
    elif value == 0xFF:
        runs = _ONE_RUNS
    else:
        runs = _SCRATCH_RUNS
        if _SCRATCH[0] != value:
            _SCRATCH[0] = value
            for k in range(7):
                _SCRATCH[1 << k:2 << k] = _SCRATCH_HALVES[k]
    while n >= 136:
        buf[i:i + 128] = runs[16]
        i += 128
        n -= 128
    run = runs[n >> 3]
    size = len(run)
    buf[i:i + size] = run
    if size < n:
        buf[i + n - size:i + n] = run


def _page_views(fb):
    """Per page of a MONO_VLSB fb: views of its row of bytes without the last
    byte and without the first.  They are equal when every byte of the row is
    the same, which one C-level compare tells (made on first use: a few
    hundred bytes, only for framebuffers that fill wide bands)."""
    buf, width, height, stride, fmt = fb._geom
    view = memoryview(buf)
    views = []
    for page in range((height + 7) >> 3):
        start = page * stride
        views.append(view[start:start + width - 1])
        views.append(view[start + 1:start + width])
    fb._pages = tuple(views)
    return fb._pages


def _fill_rect(fb, x, y, w, h, c):
    """fill_rect with the C code's clipping; also what fill, hline, vline and
    rect call (a plain function call is cheaper than a method call).

    MONO_VLSB goes band by band: the rows of one page.  A whole page is a slice
    copy (one for all of them when the rectangle spans the stride); a partial
    one sets or clears a mask in each byte, unrolled by four to save loop
    overhead per byte."""
    buf, width, height, stride, fmt = fb._geom
    if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= height or x >= width:
        return
    xend = x + w
    if xend > width:
        xend = width
    yend = y + h
    if yend > height:
        yend = height
    if x < 0:
        x = 0
    if y < 0:
        y = 0
    if fmt:
        for yy in range(y, yend):
            for xx in range(x, xend):
                fb._set(xx, yy, c)
        return
    w = xend - x
    i = (y >> 3) * stride + x
    while y < yend:
        end = (y | 7) + 1
        if end > yend:
            end = yend
        if end - y == 8:
            pages = (yend - y) >> 3
            value = 0xFF if c else 0
            if w == stride:
                _set_run(buf, i, pages * stride, value)
                i += pages * stride
            elif w < 8:
                for _ in range(pages):
                    for j in range(i, i + w):
                        buf[j] = value
                    i += stride
            else:
                for _ in range(pages):
                    _set_run(buf, i, w, value)
                    i += stride
            y += pages * 8
            continue
        mask = ((1 << (end - y)) - 1) << (y & 7)
        if w >= 16 and buf[i] == buf[i + w - 1]:
            # a wide band (a bar, a rule) across a page whose row of bytes is
            # all the same, such as a cleared one: one value, slice copies
            views = fb._pages or _page_views(fb)
            if views[2 * (y >> 3)] == views[2 * (y >> 3) + 1]:
                _set_run(buf, i, w, buf[i] | mask if c else buf[i] & ~mask)
                i += stride
                y = end
                continue
        quad = i + (w & ~3)
        if c:
            for j in range(i, quad, 4):
                buf[j] |= mask
                buf[j + 1] |= mask
                buf[j + 2] |= mask
                buf[j + 3] |= mask
            for j in range(quad, i + w):
                buf[j] |= mask
        else:
            mask = ~mask
            for j in range(i, quad, 4):
                buf[j] &= mask
                buf[j + 1] &= mask
                buf[j + 2] &= mask
                buf[j + 3] &= mask
            for j in range(quad, i + w):
                buf[j] &= mask
        i += stride
        y = end


def _sides(buf, i, right, stride, row, h, c):
    """Rows row..row + h - 1 down from the page byte buf[i] and from the one
    ``right`` bytes to its right (a vline: right = 0), a mask per page."""
    while h > 0:
        rows = 8 - row
        if rows > h:
            rows = h
        mask = ((1 << rows) - 1) << row
        if c:
            buf[i] |= mask
            buf[i + right] |= mask
        else:
            buf[i] &= ~mask
            buf[i + right] &= ~mask
        h -= rows
        row = 0
        i += stride


def _text_glyph(buf, stride, w, code, x0, top, rows, shift, c):
    """One 8x8 glyph of text (see FrameBuffer.text) in the general case: cut at
    the left and right edges, and to the glyph rows on screen."""
    if code < 32 or code > 127:
        code = 127
    cols = _GLYPH_COLUMNS[code]
    j0 = cols >> 4 & 0xFFF
    j1 = j0 + (cols & 15)
    lo = top + x0 - (code << 3)
    hi = lo + stride
    left = top - 256 - lo           # the font index drawn at x = 0
    if j0 < left:
        j0 = left
    if j1 > left + w:
        j1 = left + w
    font = FONT8X8
    for j in range(j0, j1):
        v = (font[j] & rows) << shift
        if v & 0xFF:
            if c:
                buf[j + lo] |= v & 0xFF
            else:
                buf[j + lo] &= ~v
        if v > 0xFF:
            if c:
                buf[j + hi] |= v >> 8
            else:
                buf[j + hi] &= ~(v >> 8)


# FrameBuffer.glyphs' font: the last one given and its glyphs (_pack_font)
_font_given = None
_font_packed = None


def _pack_font(font):
    """A font of 4 bytes a code (3 columns of 5 rows, a blank) as one int a
    code, the columns in bytes 0, 1 and 2 as they lie in the page bytes of a
    glyph at row 0 (rows past the fifth left out, as a 5-row blit does); made
    for the last font given (1 KB for 256 codes).  A font given as an array
    is that already (gfx's on this framebuf) and is used as it is."""
    global _font_given, _font_packed
    if isinstance(font, array):
        _font_packed = font
    else:
        _font_packed = array("I", (font[b] & 31 | (font[b + 1] & 31) << 8 | (font[b + 2] & 31) << 16
                                   for b in range(0, len(font), 4)))
    _font_given = font
    return _font_packed


# the byte a span of page bytes is counted for (_span)
_BYTE = bytearray(1)


def _span(buf, i, n):
    """The value every byte of buf[i:i + n] holds (n >= 1), -1 if they
    differ: a look at both ends, then one C-level count (bytearray.count,
    about 50 fuel a byte; nothing allocated).  Also -1 where text cannot
    write whole bytes: no struct.pack_into, or a buffer that is not a
    bytearray (a memoryview has no count)."""
    b = buf[i]
    if buf[i + n - 1] != b or _pack_ints is None:
        return -1
    _BYTE[0] = b
    try:
        if buf.count(_BYTE, i, i + n) != n:
            return -1
    except AttributeError:
        return -1
    return b


def _text_stored(buf, stride, w, codes, x0, top, shift, lo, hi, inv):
    """FrameBuffer.text's glyphs whose rows are all on screen, from x0 >= 0,
    where the page bytes they cover hold one value each (``lo`` in the page
    of the top row, ``hi`` in the one below; _span): a glyph's 8 columns in
    a page are written with one struct.pack_into of 4 ints, two columns each
    (_FONT_PAIRS; a glyph that crosses the right edge: _text_glyph), none
    into a page of the colour already.  ``inv``: 0 sets, 0xFF clears.
    "MINE GUARD: ON" costs 0.15 M fuel in one page (0.22 M byte by byte),
    0.28 M over two (0.36 M)."""
    lo = (lo ^ inv) * 0x101         # the page's bytes the same way: 0xFFFF, the colour
    hi = (hi ^ inv) * 0x101
    inv *= 0x101                    # two bytes as they are (set) or inverted (clear)
    d = top - 256 + x0
    last_x = w - 8
    pairs = _FONT_PAIRS
    pack = _pack_ints
    if not shift and lo != 0xFFFF:  # one page
        for code in codes:
            if code < 32 or code > 127:
                if not code:
                    return
                code = 127
            if x0 > last_x:
                _text_glyph(buf, stride, w, code, x0, top, 0xFF, shift, inv ^ 0xFFFF)
                return
            j = (code - 32) << 2
            pack("<HHHH", buf, d, (pairs[j] | lo) ^ inv, (pairs[j + 1] | lo) ^ inv,
                 (pairs[j + 2] | lo) ^ inv, (pairs[j + 3] | lo) ^ inv)
            d += 8
            x0 += 8
        return
    back = 8 - shift                # glyph rows from back down land on the page below
    lo_mask = (0xFF << shift & 0xFF) * 0x101
    hi_mask = ((1 << shift) - 1) * 0x101
    glyph_columns = _GLYPH_COLUMNS
    for code in codes:
        if code < 32 or code > 127:
            if not code:
                return
            code = 127
        if x0 > last_x:
            _text_glyph(buf, stride, w, code, x0, top, 0xFF, shift, inv ^ 0xFFFF)
            return
        j = (code - 32) << 2
        a = pairs[j]
        b = pairs[j + 1]
        f = pairs[j + 2]
        g = pairs[j + 3]
        if lo != 0xFFFF:
            pack("<HHHH", buf, d, (a << shift & lo_mask | lo) ^ inv, (b << shift & lo_mask | lo) ^ inv,
                 (f << shift & lo_mask | lo) ^ inv, (g << shift & lo_mask | lo) ^ inv)
        if hi != 0xFFFF and glyph_columns[code] >> (16 + back):
            pack("<HHHH", buf, d + stride, (a >> back & hi_mask | hi) ^ inv,
                 (b >> back & hi_mask | hi) ^ inv, (f >> back & hi_mask | hi) ^ inv,
                 (g >> back & hi_mask | hi) ^ inv)
        d += 8
        x0 += 8


def _glyphs_drawn(buf, packed, codes, start, end, i, stride, shift, lo, hi, c):
    """FrameBuffer.glyphs' pixels.  In a page whose bytes under the glyphs
    are all clear (set, for c 0; ``lo`` for the page of the top row, ``hi``
    for the one below) a glyph's 4 bytes (3 columns and the blank one) are
    one int written with one struct.pack_into; elsewhere each byte is read
    and changed.  A blank glyph writes nothing.  A 29-character line costs
    0.13 M fuel in one page written whole (0.18 M changed), 0.21 M over two
    (0.29 M)."""
    pack = _pack_ints
    if shift < 4:                   # the 5 rows in the page of row y
        if lo:
            inv = 0 if c else -1    # the bytes as they are (set) or inverted (clear)
            for k in range(start, end):
                v = packed[codes[k]]
                if v:
                    pack("<i", buf, i, v << shift ^ inv)
                i += 4
        elif c:
            for k in range(start, end):
                v = packed[codes[k]] << shift
                if v:
                    buf[i] |= v & 0xFF
                    buf[i + 1] |= v >> 8 & 0xFF
                    buf[i + 2] |= v >> 16
                i += 4
        else:
            for k in range(start, end):
                v = ~(packed[codes[k]] << shift)
                if v != -1:
                    buf[i] &= v
                    buf[i + 1] &= v >> 8
                    buf[i + 2] &= v >> 16
                i += 4
        return
    # the rows from 8 - shift down land in the page below: shifted up, the
    # low byte of each column's int is its part in the top page
    inv = 0 if c else -1
    lo_mask = (0xFF << shift & 0xFF) * 0x10101
    hi_mask = ((1 << (shift - 3)) - 1) * 0x10101
    back = 8 - shift
    j = i + stride
    if not (lo or hi):              # both pages changed byte by byte
        for k in range(start, end):
            v = packed[codes[k]]
            if v:
                b = v << shift & lo_mask
                h = v >> back & hi_mask
                if c:
                    buf[i] |= b & 0xFF
                    buf[i + 1] |= b >> 8 & 0xFF
                    buf[i + 2] |= b >> 16
                    buf[j] |= h & 0xFF
                    buf[j + 1] |= h >> 8 & 0xFF
                    buf[j + 2] |= h >> 16
                else:
                    b = ~b
                    h = ~h
                    buf[i] &= b
                    buf[i + 1] &= b >> 8
                    buf[i + 2] &= b >> 16
                    buf[j] &= h
                    buf[j + 1] &= h >> 8
                    buf[j + 2] &= h >> 16
            i += 4
            j += 4
        return
    for k in range(start, end):
        v = packed[codes[k]]
        if v:
            b = v << shift & lo_mask
            if lo:
                pack("<i", buf, i, b ^ inv)
            elif c:
                buf[i] |= b & 0xFF
                buf[i + 1] |= b >> 8 & 0xFF
                buf[i + 2] |= b >> 16
            else:
                b = ~b
                buf[i] &= b
                buf[i + 1] &= b >> 8
                buf[i + 2] &= b >> 16
            b = v >> back & hi_mask
            if not b:
                pass
            elif hi:
                pack("<i", buf, j, b ^ inv)
            elif c:
                buf[j] |= b & 0xFF
                buf[j + 1] |= b >> 8 & 0xFF
                buf[j + 2] |= b >> 16
            else:
                b = ~b
                buf[j] &= b
                buf[j + 1] &= b >> 8
                buf[j + 2] &= b >> 16
        i += 4
        j += 4


# blit modes on MONO_VLSB: what a source 1 / 0 pixel does to the destination
_BLIT_OR = const(1)         # 1 sets, 0 leaves
_BLIT_CLEAR = const(2)      # 1 clears, 0 leaves
_BLIT_COPY = const(3)       # 1 sets, 0 clears
_BLIT_OTHER = const(4)      # the rest (set/clear on 0, or the same on both)


class FrameBuffer:
    def __init__(self, buffer, width, height, format, stride=None):
        if format not in (MONO_VLSB, MONO_HLSB, MONO_HMSB):
            raise ValueError("invalid format (host framebuf supports MONO_VLSB/HLSB/HMSB)")
        if stride is None:
            stride = width
        if format == MONO_VLSB:
            need = stride * ((height + 7) // 8)
        else:
            stride = (stride + 7) & ~7
            need = stride * height // 8
        if isinstance(buffer, bytearray):
            buf = buffer
        else:
            buf = memoryview(buffer)
            if hasattr(buf, "cast"):        # CPython only; MicroPython views index as bytes already
                buf = buf.cast("B")
        if len(buf) < need:
            raise ValueError("buffer too small")
        self.buf = buf
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride
        # one attribute load + unpack instead of four or five loads per call
        self._geom = (buf, width, height, stride, format)
        self._pages = None

    # -- raw pixel access (the per-pixel paths: other formats, line, scroll) --
    def _get(self, x, y):
        if self.format == MONO_VLSB:
            return (self.buf[(y >> 3) * self.stride + x] >> (y & 7)) & 1
        index = (x + y * self.stride) >> 3
        offset = 7 - (x & 7) if self.format == MONO_HLSB else x & 7
        return (self.buf[index] >> offset) & 1

    def _set(self, x, y, c):
        if self.format == MONO_VLSB:
            i = (y >> 3) * self.stride + x
            m = 1 << (y & 7)
        else:
            i = (x + y * self.stride) >> 3
            m = 1 << (7 - (x & 7) if self.format == MONO_HLSB else x & 7)
        if c:
            self.buf[i] |= m
        else:
            self.buf[i] &= ~m

    # -- the framebuf API -----------------------------------------------------
    def fill(self, c):
        # like the C code: the width x height rectangle only (rows past a height
        # that is not a multiple of 8 and stride padding keep their bits)
        _fill_rect(self, 0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        buf, w, h, stride, fmt = self._geom
        if 0 <= x < w and 0 <= y < h:
            if fmt:
                if c is None:
                    return self._get(x, y)
                self._set(x, y, c)
                return None
            i = (y >> 3) * stride + x
            if c is None:
                return buf[i] >> (y & 7) & 1
            if c:
                buf[i] |= 1 << (y & 7)
            else:
                buf[i] &= ~(1 << (y & 7))
        return None

    fill_rect = _fill_rect

    def hline(self, x, y, w, c):
        _fill_rect(self, x, y, w, 1, c)

    def vline(self, x, y, h, c):
        buf, width, height, stride, fmt = self._geom
        if fmt or h < 1 or x < 0 or x >= width or y < 0 or y + h > height:
            _fill_rect(self, x, y, 1, h, c)
            return
        _sides(buf, (y >> 3) * stride + x, 0, stride, y & 7, h, c)

    def rect(self, x, y, w, h, c, f=False):
        buf, width, height, stride, fmt = self._geom
        if f or fmt or w < 1 or h < 1 or x < 0 or y < 0 or x + w > width or y + h > height:
            if f:
                _fill_rect(self, x, y, w, h, c)
            else:
                _fill_rect(self, x, y, w, 1, c)
                _fill_rect(self, x, y + h - 1, w, 1, c)
                _fill_rect(self, x, y, 1, h, c)
                _fill_rect(self, x + w - 1, y, 1, h, c)
            return
        # an outline on screen in MONO_VLSB: the top and bottom rows are a bit
        # in each byte between the sides (one pass for both when they share a
        # page), the sides a mask per page
        right = w - 1
        first = (y >> 3) * stride + x
        last = ((y + h - 1) >> 3) * stride + x
        top = 1 << (y & 7)
        bottom = 1 << ((y + h - 1) & 7)
        if first == last:
            top |= bottom
        if c:
            for i in range(first + 1, first + right):
                buf[i] |= top
            if first != last:
                for i in range(last + 1, last + right):
                    buf[i] |= bottom
        else:
            for i in range(first + 1, first + right):
                buf[i] &= ~top
            if first != last:
                for i in range(last + 1, last + right):
                    buf[i] &= ~bottom
        _sides(buf, first, right, stride, y & 7, h, c)

    def line(self, x1, y1, x2, y2, c):
        buf, w, h, stride, fmt = self._geom
        dx = x2 - x1
        sx = 1
        if dx < 0:
            dx = -dx
            sx = -1
        dy = y2 - y1
        sy = 1
        if dy < 0:
            dy = -dy
            sy = -1
        steep = dy > dx
        if steep:
            x1, y1 = y1, x1
            dx, dy = dy, dx
            sx, sy = sy, sx
        e = 2 * dy - dx
        for _ in range(dx):
            if steep:
                px = y1
                py = x1
            else:
                px = x1
                py = y1
            if 0 <= px < w and 0 <= py < h:
                if fmt:
                    self._set(px, py, c)
                elif c:
                    buf[(py >> 3) * stride + px] |= 1 << (py & 7)
                else:
                    buf[(py >> 3) * stride + px] &= ~(1 << (py & 7))
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            self._set(x2, y2, c)

    def text(self, s, x0, y0, c=1):
        # like the C code: the bytes of a str (UTF-8) or bytes up to a NUL; a
        # byte outside 32..127 draws glyph 127 (a box)
        if isinstance(s, str):
            codes = _TEXT_BYTES
            if _pack_into is None:
                codes = s.encode()
            else:
                _pack_into("64s", codes, 0, s)
                if codes[63]:               # 64 bytes or more: maybe cut short
                    codes = s.encode()
        elif isinstance(s, bytes):
            codes = s
        else:
            raise TypeError("can't convert %s to str implicitly" % type(s).__name__)
        buf, w, h, stride, fmt = self._geom
        if fmt:
            self._text_pixels(codes, x0, y0, c)
            return
        if y0 >= h or y0 <= -8:
            return
        # A font column is one byte in VLSB order: shifted by y0 & 7 it lands on
        # the page byte at row y0 (low 8 bits) and the one below (high bits).
        # rows keeps the glyph rows that are on screen.
        shift = y0 & 7
        rows = 0xFF
        if y0 < 0:
            rows = (0xFF << -y0) & 0xFF
        if y0 + 8 > h:
            rows &= (1 << (h - y0)) - 1
        # font byte j of the glyph for code at x0 goes to buf[j + lo] (and the
        # byte below it, buf[j + lo + stride]) where lo = top + x0 - 8 * code
        top = (y0 >> 3) * stride + 256
        if x0 < 0 or rows != 0xFF:
            for code in codes:
                if not code or x0 >= w:
                    return
                _text_glyph(buf, stride, w, code, x0, top, rows, shift, c)
                x0 += 8
            return
        # the glyphs wholly on screen: the page bytes they cover
        n = codes.find(b"\x00")
        if n < 0 or n > (w - x0) >> 3:
            n = (w - x0) >> 3
        if n > 0:
            lo = _span(buf, top - 256 + x0, 8 * n)
            hi = _span(buf, top - 256 + x0 + stride, 8 * n) if shift else 0xFF
            if lo >= 0 and hi >= 0:
                _text_stored(buf, stride, w, codes, x0, top, shift, lo, hi, 0 if c else 0xFF)
                return
        # The glyphs are whole until one crosses the right edge, the last one
        # drawn.  A loop per case keeps the tests out of the loop over glyphs.
        last_x = w - 8
        font = FONT8X8
        glyph_columns = _GLYPH_COLUMNS
        if not shift:
            for code in codes:
                if code < 32 or code > 127:
                    if not code:
                        return
                    code = 127
                if x0 > last_x:
                    _text_glyph(buf, stride, w, code, x0, top, rows, shift, c)
                    return
                cols = glyph_columns[code]
                j0 = cols >> 4 & 0xFFF
                lo = top + x0 - (code << 3)
                if c:
                    for j in range(j0, j0 + (cols & 15)):
                        buf[j + lo] |= font[j]
                else:
                    for j in range(j0, j0 + (cols & 15)):
                        buf[j + lo] &= ~font[j]
                x0 += 8
            return
        back = 8 - shift        # glyph rows from back down land on the page below
        for code in codes:
            if code < 32 or code > 127:
                if not code:
                    return
                code = 127
            if x0 > last_x:
                _text_glyph(buf, stride, w, code, x0, top, rows, shift, c)
                return
            cols = glyph_columns[code]
            j0 = cols >> 4 & 0xFFF
            j1 = j0 + (cols & 15)
            lo = top + x0 - (code << 3)
            if not cols >> (16 + back):       # no glyph row reaches the page below
                if c:
                    for j in range(j0, j1):
                        buf[j + lo] |= font[j] << shift & 0xFF
                else:
                    for j in range(j0, j1):
                        buf[j + lo] &= ~(font[j] << shift)
            elif c:
                hi = lo + stride
                for j in range(j0, j1):
                    v = font[j] << shift
                    buf[j + lo] |= v & 0xFF
                    buf[j + hi] |= v >> 8
            else:
                hi = lo + stride
                for j in range(j0, j1):
                    v = font[j] << shift
                    buf[j + lo] &= ~v
                    buf[j + hi] &= ~(v >> 8)
            x0 += 8

    def glyphs(self, font, codes, start, end, x, y, c):
        """Not in MicroPython's framebuf: gfx's 3x5 text, fast.  The glyphs of
        ``codes[start:end]`` at x, x + 4, ... set (c) or cleared (c 0), from
        ``font``: 4 bytes a code, 3 columns of 5 rows (the top row the low
        bit) and a blank (or an array of one int a code, those 4 bytes read
        little-endian: gfx's on this framebuf).  The pixels of blitting those columns with key 0, or
        with key 1 and an inverting palette, written straight into the page
        bytes: one read a glyph (see _pack_font), nothing for a blank one;
        where the page bytes under the glyphs are all clear (set, for c 0)
        each glyph's 4 bytes at once, else byte by byte (_glyphs_drawn).
        Returns False, drawing nothing, unless the format is MONO_VLSB and
        every glyph is on screen."""
        packed = _font_packed
        if font is not _font_given:
            packed = _pack_font(font)
        buf, width, height, stride, fmt = self._geom
        if fmt or x < 0 or y < 0 or y + 5 > height or x + 4 * (end - start) - 1 > width:
            return False
        shift = y & 7
        i = (y >> 3) * stride + x
        n = end - start
        if x + 4 * n > width:       # the last blank column is off the row
            n -= 1
        lo = hi = False
        if n > 0:
            # a page whose bytes under the glyphs are all clear (set, for c 0)
            bg = 0 if c else 0xFF
            lo = buf[i] == bg and _span(buf, i, 4 * n) == bg
            hi = shift > 3 and buf[i + stride] == bg and _span(buf, i + stride, 4 * n) == bg
            if n < end - start and (lo or hi):      # the last glyph changed byte by byte
                _glyphs_drawn(buf, packed, codes, end - 1, end, i + 4 * n, stride, shift, False,
                              False, c)
                end -= 1
        _glyphs_drawn(buf, packed, codes, start, end, i, stride, shift, lo, hi, c)
        return True

    def _text_pixels(self, codes, x0, y0, c):
        w = self.width
        h = self.height
        for code in codes:
            if not code:
                return
            if code < 32 or code > 127:
                code = 127
            base = (code - 32) * 8
            for j in range(8):
                if 0 <= x0 < w:
                    bits = FONT8X8[base + j]
                    y = y0
                    while bits:
                        if bits & 1 and 0 <= y < h:
                            self._set(x0, y, c)
                        bits >>= 1
                        y += 1
                x0 += 1

    def blit(self, source, x, y, key=-1, palette=None):
        try:
            sbuf, sw, sh, _, sfmt = source._geom
        except AttributeError:
            source = FrameBuffer(*source)
            sbuf, sw, sh, _, sfmt = source._geom
        dbuf, w, h, stride, fmt = self._geom
        per_pixel = fmt or sfmt or sbuf is dbuf
        # pixel value v (after the palette) is drawn unless it equals key
        if palette is None:
            mode = _BLIT_OR if key == 0 else _BLIT_OTHER if key == 1 else _BLIT_COPY
        elif palette.format == MONO_VLSB and palette.width >= 2 and palette.height >= 1:
            zero = palette.buf[0] & 1
            one = palette.buf[1] & 1
            if one != key:
                if zero == key:
                    mode = _BLIT_OR if one else _BLIT_CLEAR
                else:
                    mode = _BLIT_COPY if one and not zero else _BLIT_OTHER
            elif zero != key:
                mode = _BLIT_OTHER
            else:
                return
        else:
            per_pixel = True
        if per_pixel:
            if x < w and y < h and -x < sw and -y < sh:
                self._blit_pixels(source, x, y, key, palette)
            return
        if sh <= 8 and mode != _BLIT_OTHER and 0 <= x <= w - sw and 0 <= y <= h - sh:
            # the common case (glyphs, tiles, sprites): one source page, all of
            # it on screen; source column k lands at dbuf[d + k] (and below)
            shift = y & 7
            d = (y >> 3) * stride + x
            rows = 0xFF >> (8 - sh)
            if shift + sh <= 8:
                if mode == _BLIT_OR:
                    for k in range(sw):
                        dbuf[d + k] |= (sbuf[k] & rows) << shift
                elif mode == _BLIT_CLEAR:
                    for k in range(sw):
                        dbuf[d + k] &= ~((sbuf[k] & rows) << shift)
                else:
                    keep = ~(rows << shift)
                    for k in range(sw):
                        dbuf[d + k] = dbuf[d + k] & keep | (sbuf[k] & rows) << shift
                return
            e = d + stride
            if mode == _BLIT_OR:
                for k in range(sw):
                    v = (sbuf[k] & rows) << shift
                    dbuf[d + k] |= v & 0xFF
                    dbuf[e + k] |= v >> 8
            elif mode == _BLIT_CLEAR:
                for k in range(sw):
                    v = (sbuf[k] & rows) << shift
                    dbuf[d + k] &= ~v
                    dbuf[e + k] &= ~(v >> 8)
            else:
                keep = ~(rows << shift)
                keep_below = keep >> 8
                for k in range(sw):
                    v = (sbuf[k] & rows) << shift
                    dbuf[d + k] = dbuf[d + k] & keep | v & 0xFF
                    dbuf[e + k] = dbuf[e + k] & keep_below | v >> 8
            return
        self._blit_pages(source, x, y, key, palette, mode)

    def _blit_pages(self, source, x, y, key, palette, mode):
        """MONO_VLSB onto MONO_VLSB, page by page: a source of several pages,
        one partly off screen, or a mode that sets or clears on 0 (``mode``
        and ``palette`` as blit read them)."""
        sbuf, sw, sh, sstride, _ = source._geom
        dbuf, w, h, stride, _ = self._geom
        if x >= w or y >= h or -x >= sw or -y >= sh:
            return
        if mode == _BLIT_OTHER:
            # source bit 1 / 0: the destination bits to set and to clear
            zero = 0
            one = 1
            if palette is not None:
                zero = palette.buf[0] & 1
                one = palette.buf[1] & 1
            set1 = 0xFF if one != key and one else 0
            clr1 = 0xFF if one != key and not one else 0
            set0 = 0xFF if zero != key and zero else 0
            clr0 = 0xFF if zero != key and not zero else 0
        # Source page bytes in order: the visible rows r0..r1-1 of each source
        # page, shifted by y & 7, fall on a destination page byte (low part)
        # and the one below it (high part); a pass per part over the columns.
        x0 = x if x > 0 else 0
        xend = x + sw if x + sw < w else w
        r0 = -y if y < 0 else 0
        r1 = h - y if h - y < sh else sh
        shift = y & 7
        low_rows = 0xFF >> shift
        row = r0 & ~7
        si = (row >> 3) * sstride + x0 - x
        off = ((y + row) >> 3) * stride + x0 - si      # destination index - source index
        while row < r1:
            rows = 0xFF
            if r0 > row:
                rows = (0xFF << (r0 - row)) & 0xFF
            if r1 - row < 8:
                rows &= (1 << (r1 - row)) - 1
            send = si + xend - x0
            part = rows & low_rows
            left = shift
            right = 0
            d = off
            while True:
                if part:
                    if part == 0xFF and not shift and mode == _BLIT_OR:
                        for i in range(si, send):       # whole source bytes, aligned
                            dbuf[i + d] |= sbuf[i]
                    elif mode == _BLIT_OR:
                        for i in range(si, send):
                            dbuf[i + d] |= (sbuf[i] & part) << left >> right
                    elif mode == _BLIT_CLEAR:
                        for i in range(si, send):
                            dbuf[i + d] &= ~((sbuf[i] & part) << left >> right)
                    elif mode == _BLIT_COPY:
                        keep = ~(part << left >> right)
                        for i in range(si, send):
                            dbuf[i + d] = dbuf[i + d] & keep | (sbuf[i] & part) << left >> right
                    else:
                        for i in range(si, send):
                            b = sbuf[i]
                            on = (b & set1 | ~b & set0) & part
                            off_bits = (b & clr1 | ~b & clr0) & part
                            dbuf[i + d] = (dbuf[i + d] | on << left >> right) & ~(off_bits << left >> right)
                if right or not shift:
                    break
                part = rows & ~low_rows
                left = 0
                right = 8 - shift
                d = off + stride
            row += 8
            si += sstride
            off += stride - sstride

    def _blit_pixels(self, source, x, y, key, palette):
        """The C code's per-pixel loop: other formats, or a source sharing the
        destination's buffer (the order of reads and writes matters)."""
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self.width, x + source.width)
        y0end = min(self.height, y + source.height)
        while y0 < y0end:
            cx1 = x1
            for cx0 in range(x0, x0end):
                col = source._get(cx1, y1)
                if palette is not None:
                    col = palette._get(col, 0)
                if col != key:
                    self._set(cx0, y0, col)
                cx1 += 1
            y1 += 1
            y0 += 1

    def scroll(self, xstep, ystep):
        if xstep < 0:
            sx = 0
            xend = self.width + xstep
            if xend <= 0:
                return
            dx = 1
        else:
            sx = self.width - 1
            xend = xstep - 1
            if xend >= sx:
                return
            dx = -1
        if ystep < 0:
            y = 0
            yend = self.height + ystep
            if yend <= 0:
                return
            dy = 1
        else:
            y = self.height - 1
            yend = ystep - 1
            if yend >= y:
                return
            dy = -1
        while y != yend:
            x = sx
            while x != xend:
                self._set(x, y, self._get(x - xstep, y - ystep))
                x += dx
            y += dy


def FrameBuffer1(buffer, width, height, stride=None):
    """Deprecated MicroPython alias: a MONO_VLSB FrameBuffer."""
    return FrameBuffer(buffer, width, height, MONO_VLSB, stride)
