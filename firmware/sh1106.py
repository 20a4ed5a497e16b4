"""SH1106 (1.3" 128x64) OLED driver over I2C, frame-diffing like ssd1306.py.

The SH1106 has 132 columns of RAM, shows columns 2..129 on a 128-pixel panel
and only knows page addressing: each changed page is sent as its own window
(page address, column 2) followed by its 128 data bytes.  No allocation per
frame.  Everything else (contrast, invert, flip, power save, shadow copy) is
shared with the SSD1306 driver.
"""

from ssd1306 import SSD1306_I2C

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_SET_PAGE = const(0xB0)
_COL_LOW = const(0x00)
_COL_HIGH = const(0x10)


class SH1106_I2C(SSD1306_I2C):
    controller = "sh1106"
    col_offset = 2

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False, rotate=0,
                 flip_x=False, flip_y=False):
        self._pagecmd = bytearray(4)   # 0x00, page, column low, column high
        SSD1306_I2C.__init__(self, width, height, i2c, addr, external_vcc, rotate,
                             flip_x, flip_y)

    def init_display(self):
        for cmd in (
            0xAE,                                   # display off
            0xD5, 0x80,                             # clock divide
            0xA8, self.height - 1,                  # multiplex
            0xD3, 0x00,                             # display offset
            0x40,                                   # start line 0
            0xAD, 0x8B,                             # DC-DC on (SH1106 pump)
            0xA0 | (0 if self.flip_x else 1),       # segment remap
            0xC0 | (0 if self.flip_y else 0x08),    # COM scan direction
            0xDA, 0x12,                             # COM pins
            0x81, 0xFF,                             # contrast
            0xD9, 0x1F,                             # precharge
            0xDB, 0x40,                             # VCOM deselect
            0x32,                                   # pump voltage 8.0 V
            0xA4, 0xA6,
        ):
            self.write_cmd(cmd)
        self.fb.fill(0)
        self.invalidate()
        self.show()
        self.poweron()

    def _send_run(self, p0, p1):
        cmd = self._pagecmd
        width = self.width
        for p in range(p0, p1 + 1):
            cmd[0] = 0x00
            cmd[1] = _SET_PAGE | p
            cmd[2] = _COL_LOW | (self.col_offset & 0x0F)
            cmd[3] = _COL_HIGH | (self.col_offset >> 4)
            self.i2c.writeto(self.addr, cmd)
            self._vec[1] = self._pages[p]
            self.i2c.writevto(self.addr, self._vec)
            self.bytes_sent += 5 + 2 + width
        self._vec[1] = None
