"""firmware/gfx.py: text() composes a whole string into one strip and blits it once
(per 32 characters); its pixels must be exactly those of one blit per glyph, the
simple way, for every colour, clipping, length and odd character."""

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "host_tools" / "hostfb"))
import host_tools.fwpath  # noqa: E402,F401
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
    n = rnd.choice((0, 1, 2, 5, 12, 31, 32, 33, 40, 70))
    chars = "".join(chr(rnd.randint(28, 130)) for _ in range(n))
    pick = rnd.random()
    if pick < 0.15:
        return memoryview(chars.encode("latin-1"))     # catmouse's status bar text
    return chars.encode("latin-1") if pick < 0.4 else chars


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
