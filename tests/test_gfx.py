"""firmware/gfx.py: text() composes a whole string into one strip and blits it once
(per 32 characters), or on the pure-Python framebuf has FrameBuffer.glyphs write
the glyphs into the page bytes, reading a str's characters from its UTF-8 bytes
packed with struct.pack_into on MicroPython/CircuitPython; its pixels must be
exactly those of one blit per glyph, the simple way, for every colour, clipping,
length and odd character (non-ASCII, NUL, more than 64 characters)."""

import random
import struct
import sys
from pathlib import Path

import pytest

from host_tools.emulation import runtime_vm

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


# guest code: the reference, one blit per glyph on the built-in framebuf FB (a module)
_PER_GLYPH = r"""
glyph = bytearray(3)
gfb = FB.FrameBuffer(glyph, 3, 5, FB.MONO_VLSB)
inverse = FB.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, FB.MONO_VLSB)
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
            fb.blit(gfb, x, y, 1, inverse)
        x += 4
    return x
"""

_VM_TEXT = r"""
import framebuf, gfx
FB = framebuf
""" + _PER_GLYPH + r"""
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


def test_text_codes_draws_a_range_of_a_buffer():
    """text_codes(fb, buf, start, end, ...) draws what text() draws for those bytes."""
    rnd = random.Random(3)
    line = bytearray(rnd.randint(0, 255) for _ in range(40))
    for _ in range(200):
        start = rnd.randint(0, 40)
        end = rnd.randint(start, 40)
        x = rnd.choice((0, 1, 34, 82, 120, rnd.randint(-50, 130)))
        y = rnd.choice((0, 8, 15, 36, 59, rnd.randint(-6, 66)))
        c = rnd.randint(0, 1)
        a, b = bytearray(range(256)) * 4, bytearray(range(256)) * 4
        fa = framebuf.FrameBuffer(a, 128, 64, framebuf.MONO_VLSB)
        fb = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
        assert gfx.text_codes(fa, line, start, end, x, y, c) == gfx.text(fb, bytes(line[start:end]), x, y, c)
        assert a == b, (start, end, x, y, c)


# The pure-Python framebuf inside the VM (real MicroPython: struct.pack_into of a
# str, small ints, bytearray stores) draws text with FrameBuffer.glyphs; the
# reference is one blit per glyph on the VM's built-in framebuf.
_VM_GLYPHS = r"""
import sys
import framebuf as builtin
import cpframebuf
sys.modules['framebuf'] = cpframebuf
import gfx
FB = builtin
""" + _PER_GLYPH + r"""
ok = gfx._GLYPHS and gfx._pack_into is not None
bad = []
for s, x, y, c in CASES:
    a = bytearray(1024)
    b = bytearray(1024)
    for i in range(1024):
        a[i] = b[i] = (i * 37) & 0xFF
    fa = cpframebuf.FrameBuffer(a, 128, 64, cpframebuf.MONO_VLSB)
    fb = builtin.FrameBuffer(b, 128, 64, builtin.MONO_VLSB)
    if not (gfx.text(fa, s, x, y, c) == per_glyph(fb, s, x, y, c) and a == b):
        bad.append((s, x, y, c))
line = bytearray(b"12/81")
fa = cpframebuf.FrameBuffer(bytearray(1024), 128, 64, cpframebuf.MONO_VLSB)
calls = ((gfx.text, (fa, "HENG DAO LI MA", 1, 15, 1)), (gfx.text, (fa, "BEST/OPT", 64, 8, 0)),
         (gfx.text_codes, (fa, line, 1, 5, 82, 22, 1)))
alloc = []
for fn, args in calls:
    fn(*args)
    alloc.append(measure(fn, *args)[2])
emit('ok', (ok, bad, alloc))
"""


def test_glyphs_on_micropython_equal_the_builtin_framebuf(vm):
    rnd = random.Random(11)
    cases = [(_string(rnd), rnd.choice((0, 1, 5, 82, 101, rnd.randint(-10, 120))), y, rnd.randint(0, 1))
             for y in list(range(0, 60)) + [-3, 60, 62] for _ in range(2)]
    cases = [(bytes(s) if isinstance(s, memoryview) else s, x, y, c) for s, x, y, c in cases]
    cases += [("HENG DAO LI MA", 1, y, c) for y in (8, 15, 22, 29, 36, 43, 50, 57) for c in (0, 1)]
    cases += [("\u00e9A!V3", 10, 15, 1), ("A\u20acB\x00C", 0, 18, 0), ("AB\x00", 3, 36, 1)]
    with runtime_vm.staged_cp_firmware() as fw:
        ok, bad, alloc = vm("CASES = %r\n" % (cases,) + _VM_GLYPHS, input_dir=fw)["ok"]
    assert ok and bad == []
    assert alloc == [0, 0, 0]           # text on the glyphs path allocates nothing


# Backgrounds under a text (drawn on both framebuffers before it): where the
# page bytes under the glyphs all hold one value the pure-Python framebuf
# writes whole glyphs (struct.pack_into), each page on its own, else it
# changes byte by byte.  ("fill", c), ("band", y, h, c): a full-width band;
# ("dot", dx, dy): a pixel that breaks the run, relative to the text
# (inside its span, in the page below it, left of it).
_BACKGROUNDS = ((("fill", 0),), (("fill", 1),), (("fill", 0), ("band", 0, 10, 1)),
                (("fill", 0), ("band", 11, 11, 1)), (("fill", 1), ("band", 20, 30, 0)),
                (("fill", 0), ("dot", 9, 1)), (("fill", 0), ("dot", 6, 7)), (("fill", 0), ("dot", -2, 2)),
                (("fill", 1), ("dot", 2, 6)), (("fill", 0), ("band", 11, 11, 1), ("dot", 13, 3)))


def _background_cases(rnd):
    cases = []
    for y in list(range(0, 20)) + [44, 46, 47, 57, 59]:
        for bg in _BACKGROUNDS:
            s = rnd.choice(("ALL MAPS: WINS MOUSE 0  CAT 0", "A:BLOCK", "MINE GUARD: ON", "X", " A B ", "\x7f~"))
            x = rnd.choice((0, 2, 4, 70, 128 - 4 * len(s), 127 - 4 * len(s)))
            cases.append((s, x, y, rnd.randint(0, 1), bg))
    return cases


def _draw_background(fb, bg, x, y):
    for op in bg:
        if op[0] == "fill":
            fb.fill(op[1])
        elif op[0] == "band":
            fb.fill_rect(0, op[1], 128, op[2], op[3])
        else:
            fb.pixel(x + op[1], y + op[2], 2)       # 2: set


def test_text_on_backgrounds_equals_one_blit_per_glyph():
    rnd = random.Random(5)
    for s, x, y, c, bg in _background_cases(rnd):
        a, b = bytearray(1024), bytearray(1024)
        fa = framebuf.FrameBuffer(a, 128, 64, framebuf.MONO_VLSB)
        fb = framebuf.FrameBuffer(b, 128, 64, framebuf.MONO_VLSB)
        _draw_background(fa, bg, x, y)
        _draw_background(fb, bg, x, y)
        assert gfx.text(fa, s, x, y, c) == text_per_glyph(fb, s, x, y, c)
        assert a == b, (s, x, y, c, bg)


_VM_BACKGROUNDS = r"""
import sys
import framebuf as builtin
import cpframebuf
sys.modules['framebuf'] = cpframebuf
import gfx
FB = builtin
""" + _PER_GLYPH + r"""
def background(fb, bg, x, y):
    for op in bg:
        if op[0] == "fill":
            fb.fill(op[1])
        elif op[0] == "band":
            fb.fill_rect(0, op[1], 128, op[2], op[3])
        else:
            fb.pixel(x + op[1], y + op[2], 2)
bad = []
for s, x, y, c, bg in CASES:
    a = bytearray(1024)
    b = bytearray(1024)
    fa = cpframebuf.FrameBuffer(a, 128, 64, cpframebuf.MONO_VLSB)
    fb = builtin.FrameBuffer(b, 128, 64, builtin.MONO_VLSB)
    background(fa, bg, x, y)
    background(fb, bg, x, y)
    if not (gfx.text(fa, s, x, y, c) == per_glyph(fb, s, x, y, c) and a == b):
        bad.append((s, x, y, c, bg))
emit('bad', bad)
"""


def test_glyphs_on_backgrounds_on_micropython_equal_the_builtin_framebuf(vm):
    """The whole-glyph writes (struct.pack_into of MicroPython, bytearray.count)
    in the VM, page by page, against one blit per glyph on the built-in framebuf."""
    cases = _background_cases(random.Random(6))
    with runtime_vm.staged_cp_firmware() as fw:
        assert vm("CASES = %r\n" % (cases,) + _VM_BACKGROUNDS, input_dir=fw)["bad"] == []


def _rows(ch):
    g = gfx._FONT[(ord(ch) - 32) * 3:(ord(ch) - 32) * 3 + 3]
    return ["".join("#" if g[x] >> y & 1 else "." for x in range(3)) for y in range(5)]


def test_m_and_n_a_and_h_are_told_apart():
    """In the 3x5 font M was N's diagonal ("NOUSE") and A an H with a dot on
    top ("HI"): M now has a solid top, N an open corner; A a closed top, H an
    open one.  Lower case draws the same glyphs."""
    assert _rows("M") == ["###", "###", "#.#", "#.#", "#.#"]
    assert _rows("N") == ["##.", "#.#", "#.#", "#.#", "#.#"]
    assert _rows("A") == ["###", "#.#", "###", "#.#", "#.#"]
    assert _rows("H") == ["#.#", "#.#", "###", "#.#", "#.#"]
    for up in "AHMN":
        assert _rows(up.lower()) == _rows(up)
    # no two capitals and digits share a glyph
    chars = [chr(c) for c in range(ord("A"), ord("Z") + 1)] + list("0123456789")
    assert len({tuple(_rows(ch)) for ch in chars}) == len(chars)
