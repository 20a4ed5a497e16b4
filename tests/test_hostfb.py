"""firmware/circuitpython/framebuf.py (the pure-Python framebuf flashed to CircuitPython)
against MicroPython's built-in framebuf, call by call.

The MONO_VLSB primitives work on whole page bytes (text's per-glyph column spans
and its copy of a str's bytes, blit's one-page fast path and low/high page passes
per mode, slice runs for whole pages and for bands over rows of equal bytes,
unrolled partial pages, rect's and vline's masks per page); these tests drive every such path with random calls at the
screen borders and past them, in the MicroPython VM next to the built-in module
(compared after every call), and under CPython, and check that the common
primitives allocate nothing.
"""

import importlib.util
import random
from pathlib import Path

import pytest

from host_tools.emulation import runtime_vm

HOSTFB = Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"

# (width, height, stride, format): the OLED, a height that is not a multiple of 8,
# a stride wider than the width, and the horizontal formats (per-pixel paths)
GEOMETRIES = ((128, 64, None, 0), (128, 61, None, 0), (100, 37, 104, 0), (9, 5, None, 0),
              (64, 24, None, 3), (40, 21, None, 4))

# blit sources: (bytes, width, height, stride): a glyph-sized 3x5 (gfx.text), 8x8 and
# 16x24 sprites, an odd height with a wider stride, a single pixel, a 24x16 wider than a page
_SOURCES = ((b"\x1f\x15\x0a", 3, 5, None),
            (b"\x81\x42\x24\x18\x18\x24\x42\x81", 8, 8, None),
            (bytes(range(7, 7 + 48)), 16, 24, None),
            (bytes(range(200, 256)) + bytes(range(0, 256, 5))[:25], 20, 13, 23),
            (b"\xff", 1, 1, None),
            (bytes((i * 37) & 0xFF for i in range(48)), 24, 16, None))
# palettes (2x1 MONO_VLSB unless noted): inverse, all on, all off, identity, and a
# MONO_HLSB one (per-pixel path)
_PALETTES = ("inv", "one", "zero", "same", "hlsb")


def _text(rnd):
    pick = rnd.random()
    if pick < 0.15:
        return bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 6)))
    chars = [chr(rnd.randint(32, 126)) for _ in range(rnd.randint(0, 12))]
    if pick < 0.4:
        odd = rnd.choice(("\n", "\x00", "\x7f", "\xe9", "\u20ac", "\U0001f600"))
        chars.insert(rnd.randint(0, len(chars)), odd)
    return "".join(chars)


def _coord(rnd, size, span=20):
    """Mostly on screen, often on or across a border, sometimes far off."""
    pick = rnd.random()
    if pick < 0.5:
        return rnd.randint(0, size - 1)
    if pick < 0.85:
        return rnd.choice((0, size)) + rnd.randint(-span, span)
    return rnd.randint(-300, 300)


def random_ops(seed, n, width=128, height=64):
    rnd = random.Random(seed)
    ops = []
    for _ in range(n):
        kind = rnd.choice(("fill_rect", "fill_rect", "hline", "vline", "rect", "text", "text", "text",
                           "blit", "blit", "blit", "blit", "line", "pixel", "pixel", "fill", "scroll"))
        c = rnd.choice((0, 1, 0, 1, 2, -1))
        x = _coord(rnd, width)
        y = _coord(rnd, height)
        if kind == "fill":
            ops.append(("fill", (c,)))
        elif kind == "scroll":
            ops.append(("scroll", (rnd.randint(-12, 12), rnd.randint(-12, 12))))
        elif kind == "text":
            ops.append(("text", (_text(rnd), x, y, c)))
        elif kind == "blit":
            key = rnd.choice((-1, -1, 0, 0, 1, 2))
            palette = rnd.choice((None, None, None) + _PALETTES)
            if rnd.random() < 0.05:
                source = -1                 # the destination itself (per-pixel path)
            else:
                source = rnd.randrange(len(_SOURCES))
            ops.append(("blit", (source, x, y, key, palette)))
        elif kind == "pixel":
            ops.append(("pixel", (x, y) if rnd.random() < 0.3 else (x, y, c)))
        elif kind == "line":
            ops.append(("line", (x, y, _coord(rnd, width), _coord(rnd, height), c)))
        elif kind in ("hline", "vline"):
            ops.append((kind, (x, y, rnd.randint(-3, 200), c)))
        elif kind == "rect":
            ops.append(("rect", (x, y, rnd.randint(-3, 150), rnd.randint(-3, 80), c, rnd.random() < 0.3)))
        else:
            ops.append(("fill_rect", (x, y, rnd.randint(-3, 200), rnd.randint(-3, 80), c)))
    return ops


# Guest: the same calls on the built-in framebuf and on the pure one, the buffers
# compared after every call; emits (geometry, index of the first differing call or
# -1, final bytes of the built-in buffer, return values differing).
_GUEST = r'''
import framebuf as builtin
''' + runtime_vm.CP_FRAMEBUF + r'''
pure = cpframebuf
def setup(mod, geom, seed):
    w, h, stride, fmt = geom
    s = stride or w
    if fmt == 0:
        size = s * ((h + 7) // 8)
    else:
        size = ((s + 7) & ~7) * h // 8
    buf = bytearray((seed * 7 + i * 13) & 0xFF for i in range(size))
    if stride is None:
        fb = mod.FrameBuffer(buf, w, h, fmt)
    else:
        fb = mod.FrameBuffer(buf, w, h, fmt, stride)
    srcs = []
    for data, sw, sh, sst in SOURCES:
        if sst is None:
            srcs.append(mod.FrameBuffer(bytearray(data), sw, sh, mod.MONO_VLSB))
        else:
            srcs.append(mod.FrameBuffer(bytearray(data), sw, sh, mod.MONO_VLSB, sst))
    pals = {None: None,
            'inv': mod.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, mod.MONO_VLSB),
            'one': mod.FrameBuffer(bytearray(b"\x01\x01"), 2, 1, mod.MONO_VLSB),
            'zero': mod.FrameBuffer(bytearray(b"\x00\x00"), 2, 1, mod.MONO_VLSB),
            'same': mod.FrameBuffer(bytearray(b"\x00\x01"), 2, 1, mod.MONO_VLSB),
            'hlsb': mod.FrameBuffer(bytearray(b"\x80\x00"), 2, 1, mod.MONO_HLSB)}
    return buf, fb, srcs, pals
def call(fb, srcs, pals, name, args):
    if name == 'blit':
        src = fb if args[0] < 0 else srcs[args[0]]
        return fb.blit(src, args[1], args[2], args[3], pals[args[4]])
    return getattr(fb, name)(*args)
for gi in range(len(GEOMS)):
    geom = GEOMS[gi]
    a, fa, sa, pa = setup(builtin, geom, gi)
    b, fb, sb, pb = setup(pure, geom, gi)
    first = -1
    results = []
    for k in range(len(OPS)):
        name, args = OPS[k]
        ra = call(fa, sa, pa, name, args)
        rb = call(fb, sb, pb, name, args)
        if ra != rb:
            results.append((k, ra, rb))
        if first < 0 and a != b:
            first = k
    emit('g%d' % gi, (first, bytes(a), results))
'''


def _host_framebuf():
    """The host framebuf.py as its own module (whatever ``framebuf`` other tests imported)."""
    spec = importlib.util.spec_from_file_location("hostfb_framebuf_under_test", HOSTFB / "framebuf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _host_run(geom, gi, ops):
    """The same calls on the host framebuf under CPython: the final bytes."""
    framebuf = _host_framebuf()
    w, h, stride, fmt = geom
    s = stride or w
    size = s * ((h + 7) // 8) if fmt == 0 else ((s + 7) & ~7) * h // 8
    buf = bytearray((gi * 7 + i * 13) & 0xFF for i in range(size))
    fb = framebuf.FrameBuffer(buf, w, h, fmt, stride)
    srcs = [framebuf.FrameBuffer(bytearray(d), sw, sh, 0, sst) for d, sw, sh, sst in _SOURCES]
    pals = {None: None, "inv": b"\x01\x00", "one": b"\x01\x01", "zero": b"\x00\x00", "same": b"\x00\x01"}
    pals = {k: v if v is None else framebuf.FrameBuffer(bytearray(v), 2, 1, 0) for k, v in pals.items()}
    pals["hlsb"] = framebuf.FrameBuffer(bytearray(b"\x80\x00"), 2, 1, framebuf.MONO_HLSB)
    for name, args in ops:
        if name == "blit":
            fb.blit(fb if args[0] < 0 else srcs[args[0]], args[1], args[2], args[3], pals[args[4]])
        else:
            getattr(fb, name)(*args)
    return bytes(buf)


@pytest.mark.parametrize("seed", range(6))
def test_every_call_matches_builtin_framebuf(vm, seed):
    """Random calls on several geometries and formats: after each call the pure
    framebuf's buffer equals the built-in one's, and pixel() reads agree; the same
    calls under CPython end with the same bytes."""
    ops = random_ops(seed, 160)
    for geom, results in zip(GEOMETRIES, _matches_builtin(vm, ops, GEOMETRIES)):
        assert results == [], (geom, results[:3])


def _matches_builtin(vm, ops, geoms):
    """``ops`` on each of ``geoms`` in the VM, the pure framebuf beside the
    built-in one: no call differs, and the same calls under CPython end with
    the same bytes.  The pixel() reads that disagreed, per geometry."""
    code = "OPS = %r\nGEOMS = %r\nSOURCES = %r\n" % (ops, geoms, _SOURCES) + _GUEST
    with runtime_vm.staged_cp_firmware() as fw:
        r = vm(code, input_dir=fw)
    out = []
    for gi, geom in enumerate(geoms):
        first, final, results = r["g%d" % gi]
        assert first == -1, "geometry %r: call %d %r differs" % (geom, first, ops[first])
        assert _host_run(geom, gi, ops) == final, geom
        out.append(results)
    return out


def _edge_ops():
    """Deterministic border cases for each fast path: text and blits at every row
    shift across the top and bottom edges and the left and right edges, fills of
    every partial-page band and run length."""
    ops = []
    for y in (-9, -8, -7, -5, -1, 0, 1, 3, 7, 8, 55, 56, 57, 59, 60, 63, 64):
        for x in (-9, -8, -5, -1, 0, 1, 120, 121, 124, 127, 128):
            ops.append(("text", ("Ag_|~\x7f", x, y, y & 1)))
            ops.append(("blit", (0, x, y, 0, None)))
            ops.append(("blit", (2, x, y, -1, None)))
            ops.append(("blit", (3, x, y, 1, "inv")))
            ops.append(("blit", (5, x, y, 0, "same")))
    # str longer than text's 64-byte copy (63, 64, 66 and 70 bytes), the tail on screen
    for s, x in (("A" * 62 + "B", -432), ("A" * 63 + "B", -440), ("\u20ac" * 22, -400),
                 ("0123456789" * 7, -440)):
        ops.append(("text", (s, x, 20, 1)))
        ops.append(("text", (s, x + 4, 33, 0)))
    for y in range(-2, 18):
        for h in (1, 2, 7, 8, 9, 16, 17):
            ops.append(("fill_rect", (3, y, 5, h, 1)))
            ops.append(("fill_rect", (0, y + 40, 128, h, 0)))
    for w in range(0, 140, 3):
        ops.append(("fill_rect", (128 - w, 8, w, 8, w & 1)))
        ops.append(("hline", (w - 10, 60, w, 1)))
        ops.append(("vline", (w, -3, w // 2, 0)))
    # outlines and vertical lines on screen (rect's and vline's per-page masks):
    # in one page, across two or three, touching the bottom, both colours
    for y in (0, 3, 6, 7, 8, 13, 29, 50, 56, 59):
        for h in (1, 2, 5, 8, 9, 17, 27):
            for x, w, c in ((20, 5, 1), (30, 1, 0), (40, 2, 2), (50, 9, 0), (99 - h, h, 1)):
                ops.append(("rect", (x, y, w, h, c)))
            ops.append(("vline", (60 + h, y, h, y & 1)))
    # wide bands over page rows of equal bytes (slice copies), and over rows
    # where one byte differs, inside the band or outside it
    for background in (0, 1):
        for odd_x in (None, 0, 50, 99, 127):
            for y, h, c in ((0, 10, 1), (11, 10, 1), (3, 2, 0), (17, 13, 0), (58, 9, 1)):
                ops.append(("fill", (background,)))
                ops.append(("fill_rect", (0, 0, 128, 10, 1)))
                if odd_x is not None:
                    ops.append(("pixel", (odd_x, y, 1 - background)))
                    ops.append(("pixel", (odd_x, y + h - 1, 1 - background)))
                ops.append(("fill_rect", (-5, y, 200, h, c)))
                ops.append(("hline", (0, y + 1, 128, 1 - c)))
                ops.append(("hline", (20, y + 2, 60, c)))
                ops.append(("fill_rect", (40, y, 16, h, 1 - c)))
    return ops


def test_border_cases_match_builtin_framebuf(vm):
    ops = _edge_ops()
    _matches_builtin(vm, ops, GEOMETRIES[:3])


def _background_ops():
    """8x8 text at every row shift over page rows of one value (cleared, set,
    a band's partial pages: whole glyphs written at once), and over ones a
    pixel breaks inside the text's span, in the page below it or beside it."""
    ops = []
    for y in list(range(0, 18)) + [48, 55, 56]:
        for x in (0, 3, 8, 100, 121):
            for bg in ((("fill", (0,)),), (("fill", (1,)),), (("fill", (0,)), ("fill_rect", (0, 0, 128, 10, 1))),
                       (("fill", (0,)), ("fill_rect", (0, 11, 128, 11, 1))),
                       (("fill", (0,)), ("pixel", (x + 9, y + 2, 1))), (("fill", (1,)), ("pixel", (x + 4, y + 7, 0))),
                       (("fill", (0,)), ("pixel", (x - 1, y, 1))),
                       (("fill", (0,)), ("pixel", (x + 3, (y | 7) + 1, 1)))):
                ops.extend(bg)
                ops.append(("text", ("MINE GUARD: ON" if x < 50 else "Ag_J", x, y, (x + y) & 1)))
    return ops


def test_text_over_backgrounds_matches_builtin_framebuf(vm):
    ops = _background_ops()
    _matches_builtin(vm, ops, GEOMETRIES[:3])


_ALLOC = runtime_vm.CP_FRAMEBUF + r'''
fb = cpframebuf.FrameBuffer(bytearray(1024), 128, 64, cpframebuf.MONO_VLSB)
glyph = cpframebuf.FrameBuffer(bytearray(b"\x1f\x15\x0a"), 3, 5, cpframebuf.MONO_VLSB)
sprite = cpframebuf.FrameBuffer(bytearray(range(32)), 16, 16, cpframebuf.MONO_VLSB)
inverse = cpframebuf.FrameBuffer(bytearray(b"\x01\x00"), 2, 1, cpframebuf.MONO_VLSB)
font = bytes(range(256)) * 4       # glyphs: 4 bytes a code
calls = [('fill', fb.fill, (0,)), ('fill', fb.fill, (1,)),
         ('fill_rect', fb.fill_rect, (0, 11, 128, 10, 1)), ('fill_rect', fb.fill_rect, (5, 8, 40, 16, 0)),
         ('hline', fb.hline, (-3, 5, 200, 1)), ('vline', fb.vline, (7, 3, 50, 0)),
         ('rect', fb.rect, (4, 4, 30, 20, 1)), ('pixel', fb.pixel, (5, 6, 1)), ('pixel', fb.pixel, (5, 6)),
         ('text', fb.text, ("POCKET PUZZLES", 8, 1, 0)), ('text', fb.text, ("Cat & Mouse", -3, 60, 1)),
         ('blit', fb.blit, (glyph, 10, 13, 0)), ('blit', fb.blit, (glyph, 10, 13, 1, inverse)),
         ('blit', fb.blit, (sprite, 100, 50)), ('line', fb.line, (0, 0, 127, 63, 1)),
         ('glyphs', fb.glyphs, (font, b"AB C", 0, 4, 10, 15, 1)), ('glyphs', fb.glyphs, (font, b"AB", 0, 2, 9, 3, 0))]
out = []
for k in range(len(calls)):
    name, fn, args = calls[k]
    fn(*args)
    out.append((k, name, measure(fn, *args)[2]))
emit('alloc', out)
'''


def test_common_primitives_allocate_nothing(vm):
    with runtime_vm.staged_cp_firmware() as fw:
        r = vm(_ALLOC, input_dir=fw)
    assert [(k, name, n) for k, name, n in r["alloc"] if n] == []
