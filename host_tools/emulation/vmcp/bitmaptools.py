"""Stands for CircuitPython's ``bitmaptools.readinto`` (C) inside the MicroPython VMs,
following shared-module/bitmaptools (C):

Reads ``bitmap.height`` rows from a stream (anything with ``read``), each row the
smallest multiple of ``element_size`` bytes holding ``bitmap.width`` pixels.
For 1 bit per pixel, pixel x of a row is bit ``x % 8`` of byte ``x // 8``, or bit
``7 - x % 8`` when ``reverse_pixels_in_element`` is set (the C code and Blinka's
bitmaptools agree on this; the docstring words it the other way round).  The
whole bitmap is marked dirty.  ``calls`` counts invocations for the benches."""

calls = [0]


def readinto(bitmap, file, bits_per_pixel, element_size=1, reverse_pixels_in_element=False,
             swap_bytes_in_element=False, reverse_rows=False):
    if bits_per_pixel not in (1, 2, 4, 8, 16, 24, 32):
        raise ValueError("bits_per_pixel")
    if element_size not in (1, 2, 4):
        raise ValueError("element_size")
    if bits_per_pixel != 1 or swap_bytes_in_element:
        raise NotImplementedError("fake readinto: 1 bit per pixel only")
    calls[0] += 1
    width = bitmap.width
    rowsize = element_size * ((width * bits_per_pixel + element_size * 8 - 1) // (element_size * 8))
    mask = (1 << bitmap.bits_per_value) - 1
    bitmap.dirty()
    for y in range(bitmap.height):
        row = file.read(rowsize)
        if len(row) != rowsize:
            raise EOFError()
        yd = bitmap.height - 1 - y if reverse_rows else y
        for x in range(width):
            bit = 7 - x % 8 if reverse_pixels_in_element else x % 8
            bitmap._write(x, yd, ((row[x // 8] >> bit) & 1) & mask)
