"""Stands for CircuitPython's ``busdisplay.BusDisplay`` (C) inside the MicroPython VMs.

Follows shared-module/busdisplay + displayio/display_core for what a 1-bit OLED
uses:
- the init sequence (command, argument count | 0x80 delay flag, arguments,
  [delay]) is sent command by command; with ``data_as_commands`` each command
  and its arguments go out as one command send;
- brightness: ``brightness_command`` + round(255 * brightness) as one command send;
- refresh: the first refresh after ``root_group`` is set covers the whole
  screen, later ones the dirty areas of the group's tile grids; each area is
  clipped and sent in one piece (Blinka's buffer holds a whole area), or as 8-row
  pages with ``SH1107_addressing``; the group's tile grids are visited top-most
  first (Blinka's order);
- set_region: column (x + colstart) and row bounds, rows collapsed to bytes (/8)
  when ``pixels_in_byte_share_row`` is False, single-byte bounds; with
  SH1107 addressing the column is 0x10|hi, lo and the row 0xB0|page;
- pixels packed by column (offset = x * area_height + y, bit = offset % 8);
- rotation 0 only (the boards the VM benches run; the host runs Blinka's real one).
``refreshes``/``areas`` count work for the tests and benches."""

import i2cdisplaybus


class BusDisplay:
    def __init__(self, display_bus, init_sequence, *, width, height, colstart=0, rowstart=0,
                 rotation=0, color_depth=16, grayscale=False, pixels_in_byte_share_row=True,
                 bytes_per_cell=1, reverse_pixels_in_byte=False, reverse_bytes_in_word=True,
                 set_column_command=0x2A, set_row_command=0x2B, write_ram_command=0x2C,
                 backlight_pin=None, brightness_command=None, brightness=1.0,
                 single_byte_bounds=False, data_as_commands=False, auto_refresh=True,
                 native_frames_per_second=60, backlight_on_high=True, SH1107_addressing=False,
                 **kwargs):
        if rotation:
            raise NotImplementedError("VM stand-in BusDisplay: rotation 0 only")
        if color_depth != 1 or pixels_in_byte_share_row:
            raise NotImplementedError("VM stand-in BusDisplay: 1-bit, column-packed only")
        self.bus = display_bus
        self.width = width
        self.height = height
        self.colstart = colstart
        self.rowstart = rowstart
        self.set_column_command = set_column_command
        self.set_row_command = set_row_command
        self.data_as_commands = data_as_commands
        self.brightness_command = brightness_command
        self.single_byte_bounds = single_byte_bounds
        self.sh1107 = SH1107_addressing
        self.auto_refresh = auto_refresh
        self.reverse_pixels_in_byte = reverse_pixels_in_byte
        self._root = None
        self._full = True
        self.refreshes = 0
        self.areas = 0
        i = 0
        seq = init_sequence
        while i < len(seq):
            cmd = seq[i]
            n = seq[i + 1]
            delay = n & 0x80
            n &= 0x7F
            args = bytes(seq[i + 2:i + 2 + n])
            if data_as_commands:
                display_bus._send(i2cdisplaybus.COMMAND, bytes((cmd,)) + args)
            else:
                display_bus._send(i2cdisplaybus.COMMAND, bytes((cmd,)))
                display_bus._send(i2cdisplaybus.DATA, args)
            i += 2 + n + (1 if delay else 0)
        self._brightness = 1.0
        self.brightness = brightness

    @property
    def brightness(self):
        return self._brightness

    @brightness.setter
    def brightness(self, value):
        if not 0 <= value <= 1.0:
            raise ValueError("brightness must be 0.0-1.0")
        self._brightness = value
        if self.brightness_command is not None:
            level = round(0xFF * value) & 0xFF
            if self.data_as_commands:
                self.bus._send(i2cdisplaybus.COMMAND, bytes((self.brightness_command, level)))
            else:
                self.bus._send(i2cdisplaybus.COMMAND, bytes((self.brightness_command,)))
                self.bus._send(i2cdisplaybus.DATA, bytes((level,)))

    @property
    def root_group(self):
        return self._root

    @root_group.setter
    def root_group(self, group):
        self._root = group
        self._full = True

    def refresh(self, *, target_frames_per_second=None, minimum_frames_per_second=0):
        if self._root is None:
            return True
        areas = self._root.take_dirty()
        if self._full:
            areas = [(0, 0, self.width, self.height)]
            self._full = False
        for a in areas:
            self._refresh_area(a)
        self.refreshes += 1
        return True

    def _refresh_area(self, a):
        x1, y1 = max(0, a[0]), max(0, a[1])
        x2, y2 = min(self.width, a[2]), min(self.height, a[3])
        if x1 >= x2 or y1 >= y2:
            return
        self.areas += 1
        h = y2 - y1
        rows = 8 if self.sh1107 else h
        y = y1
        while y < y2:
            ye = min(y2, y + rows)
            self._set_region(x1, y, x2, ye)
            self._send_pixels(x1, y, x2, ye)
            y = ye

    def _set_region(self, x1, y1, x2, y2):
        x1 += self.colstart
        x2 += self.colstart
        y1 += self.rowstart
        y2 += self.rowstart
        y1 //= 8
        y2 //= 8
        x2 -= 1
        y2 -= 1
        if self.sh1107:
            col = bytes((0x10 | ((x1 >> 4) & 0x0F), x1 & 0x0F))
            row = bytes((0xB0 | y1,))
        else:
            col = bytes((self.set_column_command, x1, x2))
            row = bytes((self.set_row_command, y1, y2))
        self.bus._send(i2cdisplaybus.COMMAND, col)
        self.bus._send(i2cdisplaybus.COMMAND, row)

    def _send_pixels(self, x1, y1, x2, y2):
        h = y2 - y1
        buf = bytearray(((x2 - x1) * h + 7) // 8)
        for x in range(x1, x2):
            for y in range(y1, y2):
                if self._root.pixel(x, y):
                    off = (x - x1) * h + (y - y1)
                    shift = off % 8
                    if self.reverse_pixels_in_byte:
                        shift = 7 - shift
                    buf[off // 8] |= 1 << shift
        self.bus._send(i2cdisplaybus.DATA, buf)
