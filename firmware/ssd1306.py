"""SSD1306 OLED driver over I2C (``writeto``/``writevto``), frame-diffing.

After micropython-lib's drivers/display/ssd1306 (same init sequence), with:
- one preallocated frame buffer (``self.buffer``, ``self.fb`` a MONO_VLSB
  FrameBuffer) and a shadow copy of what the glass shows;
- ``show()`` compares page by page and sends only the changed pages, as one
  window + data transfer per run of consecutive changed pages.  A full frame is
  one command transaction and one 1025-byte data transaction (about 23 ms at
  400 kHz).  Nothing is allocated per frame: the command bytes, the write
  vector and the memoryviews of every page run are built in the constructor;
- contrast, invert, flip (segment remap / COM scan direction; rotation 180 is
  both), power save, and ``invalidate()`` to force a full resend.
hw_machine's display: a hardware.Display.
"""

import framebuf

import hardware

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_SET_CONTRAST = const(0x81)
_SET_ENTIRE_ON = const(0xA4)
_SET_NORM_INV = const(0xA6)
_SET_DISP = const(0xAE)
_SET_MEM_ADDR = const(0x20)
_SET_COL_ADDR = const(0x21)
_SET_PAGE_ADDR = const(0x22)
_SET_DISP_START_LINE = const(0x40)
_SET_SEG_REMAP = const(0xA0)
_SET_MUX_RATIO = const(0xA8)
_SET_COM_OUT_DIR = const(0xC0)
_SET_DISP_OFFSET = const(0xD3)
_SET_COM_PIN_CFG = const(0xDA)
_SET_DISP_CLK_DIV = const(0xD5)
_SET_PRECHARGE = const(0xD9)
_SET_VCOM_DESEL = const(0xDB)
_SET_CHARGE_PUMP = const(0x8D)


class SSD1306_I2C(hardware.Display):
    """``SSD1306_I2C(width, height, i2c, addr=0x3C, external_vcc=False,
    rotate=0, flip_x=False, flip_y=False)``."""

    controller = "ssd1306"
    col_offset = 0

    def __init__(self, width, height, i2c, addr=0x3C, external_vcc=False, rotate=0,
                 flip_x=False, flip_y=False):
        if rotate not in (0, 180):
            raise ValueError("rotate must be 0 or 180")
        self.width = width
        self.height = height
        self.pages = height // 8
        self.i2c = i2c
        self.addr = addr
        self.external_vcc = external_vcc
        self.flip_x = bool(flip_x) != (rotate == 180)
        self.flip_y = bool(flip_y) != (rotate == 180)
        self.buffer = bytearray(self.pages * width)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shadow = bytearray(self.pages * width)
        mv = memoryview(self.buffer)
        smv = memoryview(self.shadow)
        self._pages = [mv[p * width:(p + 1) * width] for p in range(self.pages)]
        self._spages = [smv[p * width:(p + 1) * width] for p in range(self.pages)]
        self._cmd1 = bytearray(2)          # 0x80, command
        self._cmd1[0] = 0x80
        self._win = bytearray(7)           # 0x00, 0x21 c0 c1, 0x22 p0 p1
        self._data_prefix = b"\x40"
        self._vec = [self._data_prefix, None]
        # memoryviews of every run of pages [p0, p1], built once, by p0 then
        # p1 (index: the runs before p0's, then p1 - p0); a run of one page is that page's view
        n = self.pages
        runs = self._runs = [None] * (n * (n + 1) // 2)
        i = 0
        for p0 in range(n):
            runs[i] = self._pages[p0]
            for p1 in range(p0 + 1, n):
                i += 1
                runs[i] = mv[p0 * width:(p1 + 1) * width]
            i += 1
        self.frames = 0
        self.bytes_sent = 0
        self.powered = False
        self._first = 0
        self.invalidate()
        self.init_display()

    # -- commands -------------------------------------------------------------
    def write_cmd(self, cmd):
        self._cmd1[1] = cmd
        self.i2c.writeto(self.addr, self._cmd1)
        self.bytes_sent += 3

    def init_display(self):
        for cmd in (
            _SET_DISP,                               # off
            _SET_MEM_ADDR, 0x00,                     # horizontal addressing
            _SET_DISP_START_LINE | 0x00,
            _SET_SEG_REMAP | (0 if self.flip_x else 1),
            _SET_MUX_RATIO, self.height - 1,
            _SET_COM_OUT_DIR | (0 if self.flip_y else 0x08),
            _SET_DISP_OFFSET, 0x00,
            _SET_COM_PIN_CFG, 0x02 if self.width > 2 * self.height else 0x12,
            _SET_DISP_CLK_DIV, 0x80,
            _SET_PRECHARGE, 0x22 if self.external_vcc else 0xF1,
            _SET_VCOM_DESEL, 0x30,
            _SET_CONTRAST, 0xFF,
            _SET_ENTIRE_ON,
            _SET_NORM_INV,
            _SET_CHARGE_PUMP, 0x10 if self.external_vcc else 0x14,
        ):
            self.write_cmd(cmd)
        self.fb.fill(0)
        self.invalidate()
        self.show()
        self.poweron()

    def poweroff(self):
        """Power save: panel off, RAM kept."""
        self.write_cmd(_SET_DISP)
        self.powered = False

    def poweron(self):
        self.write_cmd(_SET_DISP | 0x01)
        self.powered = True

    def contrast(self, contrast):
        self.write_cmd(_SET_CONTRAST)
        self.write_cmd(contrast & 0xFF)

    def invert(self, invert):
        self.write_cmd(_SET_NORM_INV | (invert & 1))

    def flip(self, flip_x=None, flip_y=None):
        """Mirror horizontally / vertically (both = rotate 180).  Resends the frame
        when the horizontal direction changes (RAM columns move)."""
        if flip_x is not None and bool(flip_x) != self.flip_x:
            self.flip_x = bool(flip_x)
            self.write_cmd(_SET_SEG_REMAP | (0 if self.flip_x else 1))
            self.invalidate()
        if flip_y is not None:
            self.flip_y = bool(flip_y)
            self.write_cmd(_SET_COM_OUT_DIR | (0 if self.flip_y else 0x08))

    def rotate(self, rotate):
        self.flip(rotate == 180, rotate == 180)

    def invalidate(self):
        self._stale = (1 << self.pages) - 1     # every page (4 on a 128x32 panel)

    # -- frames -----------------------------------------------------------------
    def _window(self, p0, p1):
        w = self._win
        w[0] = 0x00
        w[1] = _SET_COL_ADDR
        w[2] = self.col_offset
        w[3] = self.col_offset + self.width - 1
        w[4] = _SET_PAGE_ADDR
        w[5] = p0
        w[6] = p1
        self.i2c.writeto(self.addr, w)
        self.bytes_sent += 8

    def _send_run(self, p0, p1):
        self._window(p0, p1)
        run = self._runs[p0 * self.pages - (p0 * (p0 - 1) >> 1) + p1 - p0]
        self._vec[1] = run
        self.i2c.writevto(self.addr, self._vec)
        self._vec[1] = None
        self.bytes_sent += 2 + len(run)

    def show(self, most=8):
        """Send the pages that differ from what the panel shows, at most
        ``most`` of them; return how many.  Pages left over go first next time,
        so a frame split over ticks comes out in order and none waits forever."""
        stale = self._stale
        left = sent = 0
        if stale or self.buffer != self.shadow:    # (one compare when none changed)
            pages = self._pages
            spages = self._spages
            # pages first..last, then 0..first-1: one body, two plain loops (a
            # page number wrapped in one loop costs more VM fuel a call)
            lo = self._first
            hi = self.pages
            while hi:
                start = -1
                stop = hi
                for p in range(lo, hi):
                    if stale and stale >> p & 1 or pages[p] != spages[p]:
                        if sent >= most:
                            left = stop = p     # first next time; the rest wait too
                            lo = 0
                            break
                        spages[p][:] = pages[p]
                        stale &= ~(1 << p)
                        sent += 1
                        if start < 0:
                            start = p
                    elif start >= 0:
                        self._send_run(start, p - 1)
                        start = -1
                if start >= 0:
                    self._send_run(start, stop - 1)
                hi, lo = lo, 0
            self._stale = stale
        self._first = left
        self.frames += 1
        return sent
