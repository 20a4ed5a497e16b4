"""A model of the SSD1306 / SH1106 OLED controllers, fed the raw I2C stream.

The simulator's fake I2C bus hands every ``writeto`` transaction (the bytes
after the address) to ``OledModel.write``.  The model decodes what the chip
would: control bytes (Co / D-C bits: 0x80 single command, 0x00 command
stream, 0xC0 single data, 0x40 data stream), multi-byte commands split across
control bytes, the three SSD1306 addressing modes with their column/page
windows and wrap-around, page addressing's low/high column nibbles, segment
remap, COM scan direction, COM pin configuration, start line and display
offset, multiplex ratio, contrast, invert, entire-display-on, display on/off
and the charge pump.  The SH1106 has 132 columns of RAM, page addressing only,
and its 128-pixel glass shows columns 2..129.  ``pixels()`` is what the glass
shows, so a driver bug (a forgotten charge pump, a wrong window, a missing
column offset) shows here exactly as on a real panel.
"""

_ARGS_SSD1306 = {
    0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1,
    0xD9: 1, 0xDA: 1, 0xDB: 1, 0xA3: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5,
}
_ARGS_SH1106 = {
    0x81: 1, 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1, 0xAD: 1,
}


class OledModel:
    def __init__(self, controller="ssd1306", width=128, height=64, address=0x3C):
        if controller not in ("ssd1306", "sh1106"):
            raise ValueError("unknown controller %r" % controller)
        self.controller = controller
        self.width = width
        self.height = height
        self.address = address
        self.ram_cols = 132 if controller == "sh1106" else 128
        self.ram = bytearray(8 * self.ram_cols)
        self.transactions = 0
        self.bytes_in = 0          # bytes after the address byte
        self.data_bytes = 0
        self.unknown = []          # commands the chip would not understand
        self.reset()

    def reset(self):
        self.display_on = False
        self.contrast = 0x7F if self.controller == "ssd1306" else 0x80
        self.invert = False
        self.entire_on = False
        self.seg_remap = False
        self.com_reverse = False
        self.start_line = 0
        self.offset = 0
        self.mux = 63
        self.com_pins = 0x12
        self.pump = self.controller == "sh1106"   # SH1106 DC-DC is on after reset
        self.mode = 2                              # page addressing after reset
        self.col_start, self.col_end = 0, 127
        self.page_start, self.page_end = 0, 7
        self.col = 0
        self.page = 0
        self._pending = None
        self._args = []

    # -- the I2C side -----------------------------------------------------------
    def write(self, data):
        """One I2C write transaction to this device (bytes after the address)."""
        self.transactions += 1
        self.bytes_in += len(data)
        i = 0
        n = len(data)
        while i < n:
            ctrl = data[i]
            i += 1
            is_data = bool(ctrl & 0x40)
            if ctrl & 0x80:                # Co=1: one byte, then another control byte
                if i < n:
                    self._byte(data[i], is_data)
                    i += 1
                continue
            while i < n:                   # Co=0: the rest of the transaction
                self._byte(data[i], is_data)
                i += 1

    def _byte(self, b, is_data):
        if is_data:
            self._data(b)
        elif self._pending is not None:
            self._args.append(b)
            if len(self._args) == self._need:
                cmd, args = self._pending, self._args
                self._pending = None
                self._args = []
                self._command(cmd, args)
        else:
            table = _ARGS_SH1106 if self.controller == "sh1106" else _ARGS_SSD1306
            need = table.get(b, 0)
            if need:
                self._pending = b
                self._need = need
                self._args = []
            else:
                self._command(b, ())

    def _data(self, b):
        self.data_bytes += 1
        if self.col < self.ram_cols and self.page < 8:
            self.ram[self.page * self.ram_cols + self.col] = b
        if self.controller == "sh1106" or self.mode == 2:
            if self.col < self.ram_cols - 1:
                self.col += 1
            elif self.controller == "ssd1306":
                self.col = 0
            return
        if self.mode == 0:                 # horizontal
            if self.col >= self.col_end:
                self.col = self.col_start
                self.page = self.page_start if self.page >= self.page_end else self.page + 1
            else:
                self.col += 1
        else:                              # vertical
            if self.page >= self.page_end:
                self.page = self.page_start
                self.col = self.col_start if self.col >= self.col_end else self.col + 1
            else:
                self.page += 1

    def _command(self, c, args):
        sh = self.controller == "sh1106"
        if c <= 0x0F:
            self.col = (self.col & 0xF0) | c
        elif c <= 0x1F:
            self.col = (self.col & 0x0F) | ((c & 0x0F) << 4)
        elif c == 0x20 and not sh:
            self.mode = args[0] & 3
        elif c == 0x21 and not sh:
            self.col_start, self.col_end = args[0] & 0x7F, args[1] & 0x7F
            self.col = self.col_start
        elif c == 0x22 and not sh:
            self.page_start, self.page_end = args[0] & 7, args[1] & 7
            self.page = self.page_start
        elif sh and 0x30 <= c <= 0x33:
            pass                           # pump voltage
        elif 0x40 <= c <= 0x7F:
            self.start_line = c & 0x3F
        elif c == 0x81:
            self.contrast = args[0]
        elif c == 0x8D and not sh:
            self.pump = bool(args[0] & 0x04)
        elif c == 0xAD and sh:
            self.pump = bool(args[0] & 0x01)
        elif c in (0xA0, 0xA1):
            self.seg_remap = c == 0xA1
        elif c in (0xA4, 0xA5):
            self.entire_on = c == 0xA5
        elif c in (0xA6, 0xA7):
            self.invert = c == 0xA7
        elif c == 0xA8:
            self.mux = max(15, args[0] & 0x3F)
        elif c in (0xAE, 0xAF):
            self.display_on = c == 0xAF
        elif 0xB0 <= c <= 0xB7:
            self.page = c & 7
        elif c in (0xC0, 0xC8):
            self.com_reverse = c == 0xC8
        elif c == 0xD3:
            self.offset = args[0] & 0x3F
        elif c == 0xDA:
            self.com_pins = args[0]
        elif c in (0xD5, 0xD9, 0xDB, 0xE3, 0x2E, 0x2F, 0xA3, 0x26, 0x27, 0x29, 0x2A):
            pass                           # timing, scrolling, nop: no effect on pixels here
        else:
            self.unknown.append(c)

    # -- the glass side -----------------------------------------------------------
    def _ram_row(self, y):
        alt = bool(self.com_pins & 0x10)
        if self.height == 64 and not alt:
            com = (y // 2) + (y % 2) * 32      # sequential config on a 64-row panel
        elif self.height == 32 and alt:
            com = y * 2
        else:
            com = y
        n = self.mux + 1
        # the glass is mounted upside down on the usual modules: its top row is
        # the last COM line, so COM scan remapped (0xC8) shows the image upright
        com = n - 1 - com
        if com < 0:
            return -1
        line = n - 1 - com if self.com_reverse else com
        return (line + self.start_line + self.offset) % 64

    def lit(self):
        """True when the panel emits light at all (on, pump running)."""
        return self.display_on and self.pump

    def pixels(self):
        """Rows of 0/1 as shown on the glass (list of bytearrays)."""
        w = self.width
        seg0 = 2 if self.controller == "sh1106" else 0
        rows = []
        on = self.lit()
        for y in range(self.height):
            row = bytearray(w)
            if on:
                r = self._ram_row(y)
                for x in range(w):
                    if r < 0:
                        v = 0
                    elif self.entire_on:
                        v = 1
                    else:
                        # and mirrored: its left column is the last segment
                        # in use, so segment remap (0xA1) shows it upright
                        seg = self.ram_cols - 1 - seg0 - x
                        col = self.ram_cols - 1 - seg if self.seg_remap else seg
                        v = (self.ram[(r >> 3) * self.ram_cols + col] >> (r & 7)) & 1
                    if self.invert and r >= 0:
                        v ^= 1
                    row[x] = v
            rows.append(row)
        return rows

    def to_text(self):
        """The glass as text: '#' lit, '.' dark, one line per pixel row."""
        return "".join("".join("#" if v else "." for v in row) + "\n" for row in self.pixels())

    def image(self, scale=1, color=(120, 200, 255)):
        """A Pillow RGB image of the glass; lit pixels dimmed by the contrast."""
        from PIL import Image

        k = 0.35 + 0.65 * self.contrast / 255.0
        lit = tuple(int(c * k) for c in color)
        img = Image.new("RGB", (self.width, self.height), (0, 0, 0))
        px = img.load()
        for y, row in enumerate(self.pixels()):
            for x, v in enumerate(row):
                if v:
                    px[x, y] = lit
        if scale != 1:
            img = img.resize((self.width * scale, self.height * scale), Image.NEAREST)
        return img

    def write_parts(self, vector):
        """One ``writevto`` transaction: the parts are one continuous write."""
        self.write(b"".join(bytes(part) for part in vector))
