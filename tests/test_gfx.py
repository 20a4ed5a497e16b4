"""firmware/gfx.py: text() composes a whole string into one strip and blits it once
(per 32 characters), reading a str's characters from its UTF-8 bytes packed with
struct.pack_into on MicroPython/CircuitPython; its pixels must be exactly those of
one blit per glyph, the simple way, for every colour, clipping, length and odd
character (non-ASCII, NUL, more than 64 characters)."""

import random
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))
import host_tools.core.fwpath  # noqa: E402,F401
import framebuf  # noqa: E402
import gfx  # noqa: E402

_glyph = bytearray(3)
_glyph_fb = framebuf.FrameBuffer(_glyph, 3, 5, framebuf.MONO_VLSB)


def text_per_glyph(fb, s, x, y, c=1):
    """The reference: one blit per glyph."""
    for i in range(len(s)):
        code = s[i] if isinstance(s[i], int) else ord(s[i])
        if code < 32 or code > 126:
            code = 63
        _glyph[:] = gfx._FONT[(code - 32) * 3:(code - 32) * 3 + 3]
        if c:
            fb.blit(_glyph_fb, x, y, 0)
        else:
            fb.blit(_glyph_fb, x, y, 1, gfx._inverse)
        x += gfx.ADVANCE
    return x


def _string(rnd):
    n = rnd.choice((0, 1, 2, 5, 12, 31, 32, 33, 40, 64, 65, 70))
    chars = [chr(rnd.randint(28, 126)) for _ in range(n)]
    if n and rnd.random() < 0.3:
        chars[rnd.randrange(n)] = rnd.choice(("\x00", "\x7f", "\x80", "\xe9", "\u20ac", "\U0001f600"))
    chars = "".join(chars)
    if rnd.random() < 0.3:
        return chars
    pick = rnd.random()
    if pick < 0.15:
        return memoryview(chars.encode("latin-1", "replace"))     # catmouse's status bar text
    return chars.encode("latin-1", "replace") if pick < 0.4 else chars


def _micropython_pack_into(fmt, buf, offset, value):
    """struct.pack_into as on MicroPython/CircuitPython: a str packs as its UTF-8 bytes."""
    struct.pack_into(fmt, buf, offset, value.encode() if isinstance(value, str) else value)


@pytest.mark.parametrize("seed", range(4))
def test_text_pixels_equal_one_blit_per_glyph(seed):
    rnd = random.Random(seed)
    for _ in range(150):
        h = rnd.choice((64, 61))
        bg = bytes(rnd.getrandbits(8) for _ in range(128 * ((h + 7) // 8)))
        a, b = bytearray(bg), bytearray(bg)
        fa = framebuf.FrameBuffer(a, 128, h, framebuf.MONO_VLSB)
        fb = framebuf.FrameBuffer(b, 128, h, framebuf.MONO_VLSB)
        s = _string(rnd)
        x = rnd.choice((0, 1, 4, 60, 125, rnd.randint(-200, 140)))
        y = rnd.choice((0, 3, 8, 57, 59, 62, rnd.randint(-8, 70)))
        c = rnd.randint(0, 1)
        assert gfx.text(fa, s, x, y, c) == text_per_glyph(fb, s, x, y, c)
        assert a == b, (s, x, y, c)


@pytest.mark.parametrize("seed", range(2))
def test_text_pixels_equal_with_micropython_str_packing(monkeypatch, seed):
    monkeypatch.setattr(gfx, "_pack_into", _micropython_pack_into)
    test_text_pixels_equal_one_blit_per_glyph(seed + 10)


_VM_TEXT = r"""
import framebuf, gfx
glyph = bytearray(3)
gfb = framebuf.FrameBuffer(glyph, 3, 5, framebuf.MONO_VLSB)
def per_glyph(fb, s, x, y, c):
    for i in range(len(s)):
        code = s[i] if isinstance(s[i], int) else ord(s[i])
        if code < 32 or code > 126:
            code = 63
        base = (code - 32) * 3
        glyph[0] = gfx._FONT[base]
        glyph[1] = gfx._FONT[base + 1]
        glyph[2] = gfx._FONT[base + 2]
        if c:
            fb.blit(gfb, x, y, 0)
        else:
            fb.blit(gfb, x, y, 1, gfx._inverse)
        x += 4
    return x
ok = gfx._pack_into is not None
for s, x, y, c in CASES:
    a = bytearray(1024)
    b = bytearray(1024)
    fa = framebuf.FrameBuffer(a, 128, 64, framebuf.MONO_VLSB)
    fb = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
    fa.fill_rect(0, 20, 128, 30, 1)
    fb.fill_rect(0, 20, 128, 30, 1)
    ok = ok and gfx.text(fa, s, x, y, c) == per_glyph(fb, s, x, y, c) and a == b
emit('ok', ok)
"""


def test_text_on_micropython_equals_one_blit_per_glyph(vm):
    """The real thing: the VM's struct.pack_into and built-in framebuf."""
    rnd = random.Random(7)
    cases = [(_string(rnd), rnd.randint(-10, 120), rnd.choice((0, 18, 22, 59)), rnd.randint(0, 1))
             for _ in range(60)]
    cases = [(bytes(s) if isinstance(s, memoryview) else s, x, y, c) for s, x, y, c in cases]
    # a non-ASCII str on screen: its UTF-8 bytes are not its characters
    cases += [("\u00e9A!V3", 10, 0, 1), ("A\u20acB\x00C", 0, 18, 0), ("\U0001f600xy", 3, 59, 1),
              ("ABCDE\u00e9" + "x" * 27, 0, 22, 1), ("x" * 31 + "\u00e9yz", -100, 22, 0)]
    assert vm("CASES = %r\n" % (cases,) + _VM_TEXT)["ok"]
