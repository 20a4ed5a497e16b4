"""Stands for CircuitPython's ``displayio`` (C) inside the MicroPython VMs: Bitmap,
Palette, TileGrid, Group, release_displays.

Modelled on CircuitPython's shared-module/displayio:
- ``Bitmap(width, height, value_count)``: bits per value = the smallest power of
  two holding value_count; rows padded to 32-bit words; values below 8 bits are
  packed first-pixel-in-the-most-significant-bits of each byte.  Writes record a
  dirty area that the display collects at refresh.
- ``Palette(n)``: colours as 0xRRGGBB; a 1-bit grayscale display shows a colour
  as 1 when its luma is >= 128.
- ``TileGrid(bitmap, pixel_shader, ...)`` with ``transpose_xy`` (swaps the axes:
  bitmap pixel (bx, by) appears at (x + by, y + bx)).
- ``Group``: children drawn in order, later ones on top.
"""


class Bitmap:
    def __init__(self, width, height, value_count):
        bpv = 1
        while (1 << bpv) < value_count:
            bpv *= 2
        self.width = width
        self.height = height
        self.bits_per_value = bpv
        self.stride = ((width * bpv + 31) // 32) * 4          # bytes per row
        self.data = bytearray(self.stride * height)
        self.dirty_area = None
        self.writes = 0

    def _pos(self, x, y):
        bit = x * self.bits_per_value
        return y * self.stride + (bit >> 3), 8 - (bit & 7) - self.bits_per_value

    def __getitem__(self, index):
        if isinstance(index, tuple):
            x, y = index
        else:
            x, y = index % self.width, index // self.width
        if not (0 <= x < self.width and 0 <= y < self.height):
            raise IndexError("pixel index out of range")
        i, shift = self._pos(x, y)
        return (self.data[i] >> shift) & ((1 << self.bits_per_value) - 1)

    def _write(self, x, y, value):
        i, shift = self._pos(x, y)
        mask = ((1 << self.bits_per_value) - 1) << shift
        self.data[i] = (self.data[i] & ~mask & 0xFF) | ((value << shift) & mask)
        self.writes += 1

    def __setitem__(self, index, value):
        if isinstance(index, tuple):
            x, y = index
        else:
            x, y = index % self.width, index // self.width
        self._write(x, y, value)
        self.mark_dirty(x, y, x + 1, y + 1)

    def mark_dirty(self, x1, y1, x2, y2):
        a = self.dirty_area
        if a is None:
            self.dirty_area = (x1, y1, x2, y2)
        else:
            self.dirty_area = (min(a[0], x1), min(a[1], y1), max(a[2], x2), max(a[3], y2))

    def dirty(self, x1=0, y1=0, x2=-1, y2=-1):
        self.mark_dirty(x1, y1, self.width if x2 < 0 else x2, self.height if y2 < 0 else y2)

    def fill(self, value):
        for y in range(self.height):
            for x in range(self.width):
                self._write(x, y, value)
        self.dirty()


class Palette:
    def __init__(self, color_count, *, dither=False):
        self.colors = [0] * color_count
        self.transparent = [False] * color_count

    def __len__(self):
        return len(self.colors)

    def __setitem__(self, i, color):
        self.colors[i] = color

    def __getitem__(self, i):
        return self.colors[i]

    def make_transparent(self, i):
        self.transparent[i] = True

    def make_opaque(self, i):
        self.transparent[i] = False

    def luma_bit(self, i):
        c = self.colors[i]
        r, g, b = (c >> 16) & 0xFF, (c >> 8) & 0xFF, c & 0xFF
        return 1 if (r * 19 + g * 182 + b * 54) // 255 >= 128 else 0


class TileGrid:
    def __init__(self, bitmap, *, pixel_shader, width=1, height=1, tile_width=None,
                 tile_height=None, default_tile=0, x=0, y=0):
        if width != 1 or height != 1 or default_tile != 0:
            raise NotImplementedError("fake TileGrid: one tile only")
        self.bitmap = bitmap
        self.pixel_shader = pixel_shader
        self.x = x
        self.y = y
        self.transpose_xy = False
        self.hidden = False

    @property
    def width(self):
        return self.bitmap.height if self.transpose_xy else self.bitmap.width

    @property
    def height(self):
        return self.bitmap.width if self.transpose_xy else self.bitmap.height

    def area(self):
        return (self.x, self.y, self.x + self.width, self.y + self.height)

    def pixel(self, gx, gy):
        """Colour bit at group coordinates, or None outside / transparent."""
        lx = gx - self.x
        ly = gy - self.y
        if self.hidden or not (0 <= lx < self.width and 0 <= ly < self.height):
            return None
        if self.transpose_xy:
            lx, ly = ly, lx
        v = self.bitmap[lx, ly]
        if self.pixel_shader.transparent[v]:
            return None
        return self.pixel_shader.luma_bit(v)

    def take_dirty(self):
        """The changed area in group coordinates (and clear the bitmap's record)."""
        a = self.bitmap.dirty_area
        if a is None:
            return None
        self.bitmap.dirty_area = None
        x1, y1, x2, y2 = a
        if self.transpose_xy:
            x1, y1, x2, y2 = y1, x1, y2, x2
        return (self.x + x1, self.y + y1, self.x + x2, self.y + y2)


class Group:
    def __init__(self, *, scale=1, x=0, y=0):
        if scale != 1 or x or y:
            raise NotImplementedError("fake Group: no scale/offset")
        self.children = []
        self.hidden = False

    def append(self, item):
        self.children.append(item)

    def __len__(self):
        return len(self.children)

    def __getitem__(self, i):
        return self.children[i]

    def pixel(self, gx, gy):
        out = 0
        for child in self.children:
            v = child.pixel(gx, gy)
            if v is not None:
                out = v
        return out

    def take_dirty(self):
        areas = []
        for child in reversed(self.children):     # top-most first, like Blinka
            if isinstance(child, Group):
                areas.extend(child.take_dirty())
            else:
                a = child.take_dirty()
                if a is not None:
                    areas.append(a)
        return areas


displays = []


def release_displays():
    del displays[:]

