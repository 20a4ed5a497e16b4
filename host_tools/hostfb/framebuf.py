"""A pure-Python stand-in for MicroPython's built-in ``framebuf`` module.

The host simulator puts this directory on sys.path so that the unmodified
firmware (``import framebuf``) runs under CPython.  It follows the C
implementation in MicroPython's extmod/modframebuf.c pixel for pixel: clipping
rules, Bresenham lines, the 8x8 text font (taken from MicroPython's framebuf by
rendering it there, MIT licence), ``blit`` with key and palette, and ``scroll``
leaving the vacated area untouched.  Formats: MONO_VLSB (the OLEDs' native
layout, with fast byte paths), MONO_HLSB and MONO_HMSB; the others raise.
"""

MONO_VLSB = 0
MVLSB = MONO_VLSB
RGB565 = 1
GS4_HMSB = 2
MONO_HLSB = 3
MONO_HMSB = 4
GS2_HMSB = 5
GS8 = 6

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

_CHUNK = 128
_ONES = b"\xff" * _CHUNK
_ZEROS = bytes(_CHUNK)


def _fill_bytes(buf, start, n, value):
    """buf[start:start + n] = value, in slice copies from a shared constant (no
    allocation per call, unlike bytes * n)."""
    src = _ONES if value else _ZEROS
    end = start + n
    while end - start >= _CHUNK:
        buf[start:start + _CHUNK] = src
        start += _CHUNK
    if start < end:
        if value:
            for i in range(start, end):
                buf[i] = 0xFF
        else:
            for i in range(start, end):
                buf[i] = 0


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
            self.buf = buffer
        else:
            buf = memoryview(buffer)
            if hasattr(buf, "cast"):        # CPython only; MicroPython views index as bytes already
                buf = buf.cast("B")
            self.buf = buf
        if len(self.buf) < need:
            raise ValueError("buffer too small")
        self.width = width
        self.height = height
        self.format = format
        self.stride = stride

    # -- raw pixel access ---------------------------------------------------
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
        if c & 1:
            self.buf[i] |= m
        else:
            self.buf[i] &= ~m & 0xFF

    def _fill_rect(self, x, y, w, h, c):
        if self.format != MONO_VLSB:
            for yy in range(y, y + h):
                for xx in range(x, x + w):
                    self._set(xx, yy, c)
            return
        buf = self.buf
        stride = self.stride
        on = c & 1
        yy = y
        yend = y + h
        while yy < yend:
            page = yy >> 3
            top = yy & 7
            bottom = min(8, top + (yend - yy))
            mask = ((1 << bottom) - 1) & ~((1 << top) - 1)
            base = page * stride
            if mask == 0xFF:
                _fill_bytes(buf, base + x, w, 0xFF if on else 0)
            elif on:
                for i in range(base + x, base + x + w):
                    buf[i] |= mask
            else:
                inv = ~mask & 0xFF
                for i in range(base + x, base + x + w):
                    buf[i] &= inv
            yy += bottom - top

    # -- the framebuf API -----------------------------------------------------
    def fill(self, c):
        # like the C code: the width x height rectangle only (rows past a height
        # that is not a multiple of 8 and stride padding keep their bits)
        self._fill_rect(0, 0, self.width, self.height, c)

    def pixel(self, x, y, c=None):
        if 0 <= x < self.width and 0 <= y < self.height:
            if c is None:
                return self._get(x, y)
            self._set(x, y, c)
        return None

    def fill_rect(self, x, y, w, h, c):
        if h < 1 or w < 1 or x + w <= 0 or y + h <= 0 or y >= self.height or x >= self.width:
            return
        xend = min(self.width, x + w)
        yend = min(self.height, y + h)
        x = max(x, 0)
        y = max(y, 0)
        self._fill_rect(x, y, xend - x, yend - y, c)

    def hline(self, x, y, w, c):
        self.fill_rect(x, y, w, 1, c)

    def vline(self, x, y, h, c):
        self.fill_rect(x, y, 1, h, c)

    def rect(self, x, y, w, h, c, f=False):
        if f:
            self.fill_rect(x, y, w, h, c)
        else:
            self.fill_rect(x, y, w, 1, c)
            self.fill_rect(x, y + h - 1, w, 1, c)
            self.fill_rect(x, y, 1, h, c)
            self.fill_rect(x + w - 1, y, 1, h, c)

    def line(self, x1, y1, x2, y2, c):
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
        w = self.width
        h = self.height
        for _ in range(dx):
            if steep:
                if 0 <= y1 < w and 0 <= x1 < h:
                    self._set(y1, x1, c)
            elif 0 <= x1 < w and 0 <= y1 < h:
                self._set(x1, y1, c)
            while e >= 0:
                y1 += sy
                e -= 2 * dx
            x1 += sx
            e += 2 * dy
        if 0 <= x2 < w and 0 <= y2 < h:
            self._set(x2, y2, c)

    def text(self, s, x0, y0, c=1):
        w = self.width
        h = self.height
        if self.format != MONO_VLSB:
            for ch in str(s):
                code = ord(ch)
                reps = 1
                if code > 127:          # one box per UTF-8 byte, like the C code
                    reps = 2 if code < 0x800 else 3 if code < 0x10000 else 4
                if code < 32 or code > 127:
                    code = 127
                base = (code - 32) * 8
                for j in range(8 * reps):
                    j &= 7
                    if 0 <= x0 < w:
                        bits = FONT8X8[base + j]
                        y = y0
                        while bits:
                            if bits & 1 and 0 <= y < h:
                                self._set(x0, y, c)
                            bits >>= 1
                            y += 1
                    x0 += 1
            return
        # MONO_VLSB: a font column is one byte in VLSB order, so it lands on at
        # most two page bytes: OR it in (c = 1) or clear it (c = 0), clipped to
        # the rows that exist.
        if y0 >= h or y0 <= -8:
            return
        buf = self.buf
        stride = self.stride
        font = FONT8X8
        shift = y0 & 7
        page = y0 >> 3
        # page byte offsets and the row masks that are on screen
        if page >= 0:
            lo_base = page * stride
            rows = h - page * 8
            lo_mask = 0xFF if rows >= 8 else (1 << rows) - 1
        else:
            lo_base = -1
            lo_mask = 0
        hi_base = -1
        hi_mask = 0
        if shift and (page + 1) * 8 < h:
            hi_base = (page + 1) * stride
            rows = h - (page + 1) * 8
            hi_mask = 0xFF if rows >= 8 else (1 << rows) - 1
        on = c & 1
        back = 8 - shift
        for ch in str(s):
            code = ord(ch)
            reps = 1
            if code < 32:
                code = 127
            elif code > 127:
                # the C code walks UTF-8 bytes: one box per byte of the character
                reps = 2 if code < 0x800 else 3 if code < 0x10000 else 4
                code = 127
            base = (code - 32) * 8
            if x0 >= w or x0 + 8 * reps <= 0:
                x0 += 8 * reps
                continue
            for j in range(8 * reps):
                if j & 7 == 0:
                    base = (code - 32) * 8 - j
                if 0 <= x0 < w:
                    bits = font[base + j]
                    if lo_base >= 0:
                        m = (bits << shift) & lo_mask
                        if on:
                            buf[lo_base + x0] |= m
                        else:
                            buf[lo_base + x0] &= ~m & 0xFF
                    if hi_base >= 0:
                        m = (bits >> back) & hi_mask
                        if on:
                            buf[hi_base + x0] |= m
                        else:
                            buf[hi_base + x0] &= ~m & 0xFF
                x0 += 1

    def blit(self, source, x, y, key=-1, palette=None):
        if isinstance(source, tuple):
            source = FrameBuffer(*source)
        if (x >= self.width or y >= self.height
                or -x >= source.width or -y >= source.height):
            return
        x0 = max(0, x)
        y0 = max(0, y)
        x1 = max(0, -x)
        y1 = max(0, -y)
        x0end = min(self.width, x + source.width)
        y0end = min(self.height, y + source.height)
        if (self.format == MONO_VLSB and source.format == MONO_VLSB and source.buf is not self.buf
                and (palette is None or (palette.format == MONO_VLSB and palette.width >= 2
                                         and palette.height >= 1))):
            self._blit_vlsb(source, x, y, x0, y0, x1, x0end, y0end, key, palette)
            return
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

    def _blit_vlsb(self, source, x, y, x0, y0, x1, x0end, y0end, key, palette):
        """MONO_VLSB onto MONO_VLSB, one destination page byte at a time: the
        source column's 8 rows for that page are gathered from (at most) two
        source page bytes, then set / cleared under the mask of rows drawn.
        Same result as the per-pixel loop: pixel value v (after the palette) is
        written unless it equals key."""
        if palette is None:
            m0 = 0
            m1 = 1
        else:
            m0 = palette._get(0, 0)
            m1 = palette._get(1, 0)
        # what happens to destination bits whose source bit is 1 / 0
        s1 = 0xFF if m1 != key and m1 & 1 else 0
        c1 = 0xFF if m1 != key and not m1 & 1 else 0
        s0 = 0xFF if m0 != key and m0 & 1 else 0
        c0 = 0xFF if m0 != key and not m0 & 1 else 0
        if not (s1 or c1 or s0 or c0):
            return
        dbuf = self.buf
        sbuf = source.buf
        dstride = self.stride
        sstride = source.stride
        spages = (source.height + 7) >> 3
        n = x0end - x0
        q = y0 >> 3
        qend = (y0end - 1) >> 3
        while q <= qend:
            top = q * 8
            lo = y0 - top if y0 > top else 0
            hi = y0end - top if y0end < top + 8 else 8
            mask = ((1 << hi) - 1) & ~((1 << lo) - 1)
            sr = top - y                     # source row shown at this page's bit 0
            sp = sr >> 3
            sh = sr & 7
            a_base = sp * sstride + x1 if 0 <= sp < spages else -1
            b_base = (sp + 1) * sstride + x1 if sh and 0 <= sp + 1 < spages else -1
            d = q * dstride + x0
            for k in range(n):
                v = 0
                if a_base >= 0:
                    v = sbuf[a_base + k] >> sh
                if b_base >= 0:
                    v |= (sbuf[b_base + k] << (8 - sh)) & 0xFF
                setm = ((v & s1) | (~v & s0)) & mask
                clrm = ((v & c1) | (~v & c0)) & mask
                dbuf[d + k] = (dbuf[d + k] | setm) & ~clrm & 0xFF
            q += 1

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
