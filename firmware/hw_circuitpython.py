"""Hardware backend for CircuitPython on the Pico, and for Blinka on a Raspberry Pi.

The hardware contract (firmware/hardware.py: ``Hardware``, its ``Display``) as
hw_machine meets it, built on CircuitPython's own APIs:

- display: ``displayio`` with ``adafruit_displayio_ssd1306`` /
  ``adafruit_displayio_sh1106`` on an ``I2CDisplayBus`` (``displayio.I2CDisplay``
  before CircuitPython 9), ``auto_refresh=False``; one ``refresh()`` per tick;
- buttons: ``keypad.Keys`` (scanned and debounced in the background); its events
  are turned into the same raw mask buttons.py samples.  A press and release
  that both arrive between two reads are reported as pressed once and released
  on the next read, so buttons.py latches the tap like a pin read would; a
  key tapped and pressed again between two reads reads down (it is held);
- buzzer: ``pwmio.PWMOut`` when present.

The frame: games draw into the same MONO_VLSB bytearray as on MicroPython
(``framebuf.FrameBuffer``; CircuitPython has no built-in framebuf, so the
pure-Python one is deployed as framebuf.py).  Each 8-row page is its own 1-bit
``displayio.Bitmap`` of 8 x 128 pixels shown through a ``TileGrid`` with
``transpose_xy``: bitmap row x holds column x of the page, bitmap column b is
the page's bit b.  That is exactly the MONO_VLSB byte order, so one C call,
``bitmaptools.readinto(bitmap, stream, 1)`` (1 bit per pixel, element size 1,
first pixel in the least significant bit), loads a page from the bytes with no
per-pixel or per-byte Python.  Only pages that differ from a shadow copy are
loaded, so displayio refreshes only those 128x8 areas.
"""

import gc
import io
import time

import buttons
import clock
import hardware

_MASK = 0x3FFFFFFF
_WRAP29 = 0x1FFFFFFF


class DisplayioOled(hardware.Display):
    """hardware.Display over a displayio OLED."""

    def __init__(self, cfg, i2c):
        import bitmaptools
        import displayio
        import framebuf

        disp = cfg["display"]
        self.controller = disp["controller"]
        self.width = w = disp["width"]
        self.height = h = disp["height"]
        self.pages = h // 8
        try:
            from i2cdisplaybus import I2CDisplayBus
        except ImportError:            # CircuitPython 8
            from displayio import I2CDisplay as I2CDisplayBus
        displayio.release_displays()
        self.bus = I2CDisplayBus(i2c, device_address=cfg["i2c"]["address"])
        if self.controller == "sh1106":
            from adafruit_displayio_sh1106 import SH1106
            # 132-column RAM, the glass shows columns 2..129
            self.oled = SH1106(self.bus, width=w, height=h, colstart=2,
                               rotation=disp["rotation"], auto_refresh=False)
        else:
            from adafruit_displayio_ssd1306 import SSD1306
            self.oled = SSD1306(self.bus, width=w, height=h, rotation=disp["rotation"],
                                auto_refresh=False)
        self.buffer = bytearray(self.pages * w)
        self.fb = framebuf.FrameBuffer(self.buffer, w, h, framebuf.MONO_VLSB)
        self.shadow = bytearray(self.pages * w)
        mv = memoryview(self.buffer)
        smv = memoryview(self.shadow)
        self._pages = [mv[p * w:(p + 1) * w] for p in range(self.pages)]
        self._spages = [smv[p * w:(p + 1) * w] for p in range(self.pages)]
        palette = displayio.Palette(2)
        palette[0] = 0x000000
        palette[1] = 0xFFFFFF
        group = displayio.Group()
        self.bitmaps = []
        for p in range(self.pages):
            bmp = displayio.Bitmap(8, w, 2)
            grid = displayio.TileGrid(bmp, pixel_shader=palette, x=0, y=8 * p)
            grid.transpose_xy = True
            group.append(grid)
            self.bitmaps.append(bmp)
        self.group = group
        # the bytes readinto() reads from: written per changed page (a C memcpy)
        self.stream = io.BytesIO(bytes(self.pages * w))
        self._readinto = bitmaptools.readinto
        self.frames = 0
        self.powered = True
        # the pages in the order a show visits them, from each page round
        self._order = tuple(tuple((first + i) % self.pages for i in range(self.pages))
                            for first in range(self.pages))
        self._first = 0
        self._every = (1 << self.pages) - 1     # _stale: every page (4 on a 128x32 panel)
        self.invalidate()
        self.oled.root_group = group
        self.show()

    def show(self, most=8):
        """Load the pages that changed into their bitmaps, at most ``most`` of
        them (the rest go first next time), refresh; return how many.
        Written for VM fuel (a CircuitPython RP2040 runs this glue in Python):
        a whole invalidated frame that may go at once has a loop of its own,
        with no compare and no limit (84k fuel; 102k through the general
        loop), and there is no whole-frame compare first, as ssd1306's has:
        here it cost a changed frame up to 21k fuel more and saved an
        unchanged one 17k."""
        stale = self._stale
        pages = self._pages
        spages = self._spages
        st = self.stream
        readinto = self._readinto
        bitmaps = self.bitmaps
        width = self.width
        sent = 0
        if stale and most >= self.pages and stale == self._every:
            for p in self._order[0]:
                page = pages[p]
                spages[p][:] = page
                at = p * width
                st.seek(at)
                st.write(page)
                st.seek(at)
                readinto(bitmaps[p], st, 1, 1, False)
            sent = self.pages
            stale = 0
            self._first = 0
        else:
            first = self._first             # where a limited show stopped, else 0
            for p in self._order[first]:
                if stale and stale >> p & 1 or pages[p] != spages[p]:
                    if sent >= most:
                        self._first = p         # first next time; the rest wait too
                        break
                    page = pages[p]
                    spages[p][:] = page
                    if stale:
                        stale &= ~(1 << p)
                    at = p * width
                    st.seek(at)
                    st.write(page)
                    st.seek(at)
                    readinto(bitmaps[p], st, 1, 1, False)
                    sent += 1
            else:
                if first:
                    self._first = 0
        self._stale = stale
        if sent:
            self.oled.refresh()
        self.frames += 1
        return sent

    def invalidate(self):
        self._stale = self._every

    def contrast(self, contrast):
        self.oled.brightness = (contrast & 0xFF) / 255

    def poweroff(self):
        self.oled.sleep()
        self.powered = False

    def poweron(self):
        self.oled.wake()
        self.powered = True


def pin(board, cfg, number):
    """board.GPn on a Pico, board.Dn (BCM numbering) on a Raspberry Pi."""
    prefix = "D" if cfg["mcu"] == "bcm283x" else "GP"
    return getattr(board, prefix + str(number))


def open_i2c(cfg):
    import board
    import busio

    bus = cfg["i2c"]
    return busio.I2C(pin(board, cfg, bus["scl"]), pin(board, cfg, bus["sda"]),
                     frequency=bus["freq"])


def open_display(cfg, i2c=None):
    """(i2c, DisplayioOled), or displaycheck.DisplayFault that says what the bus holds.
    CircuitPython refuses a bus with nothing on it (no pull-ups: "No pull up found on
    SDA or SCL", RuntimeError) and a display that does not answer its probe
    (ValueError): both are the maker's wiring, not a crash.  No LED blink code here:
    CircuitPython's own status LED already blinks for a stopped code.py.
    displaycheck is imported only for a fault (resident it took ~1.4 KB)."""
    try:
        if i2c is None:
            i2c = open_i2c(cfg)
    except RuntimeError as exc:
        import displaycheck
        raise displaycheck.DisplayFault(cfg, [], exc) from None
    try:
        return i2c, DisplayioOled(cfg, i2c)
    except (ValueError, RuntimeError, OSError) as exc:
        import displaycheck
        found = []
        if i2c.try_lock():
            try:
                found = i2c.scan()
            finally:
                i2c.unlock()
        raise displaycheck.DisplayFault(cfg, found, exc) from None


class Hardware(hardware.Hardware):
    # supply: None (not read on these boards); doze: the default, sleep_ms
    # (CircuitPython's time.sleep already idles the core)
    def __init__(self, cfg, i2c=None):
        import board
        import boardcfg
        import keypad

        self.cfg = cfg
        self.i2c, self.display = open_display(cfg, i2c)
        # one keypad.Keys per (pressed level, pull) group of inputs
        groups = {}
        order = []
        for number, pull, mask in boardcfg.button_pins(cfg):
            key = pull
            if key not in groups:
                groups[key] = ([], [])
                order.append(key)
            groups[key][0].append(pin(board, cfg, number))
            groups[key][1].append(mask)
        self.keys = []
        self.key_base = []
        masks = []
        for pull in order:
            pins, gmasks = groups[pull]
            self.key_base.append(len(masks))
            masks.extend(gmasks)
            self.keys.append(keypad.Keys(pins, value_when_pressed=(pull == "down"),
                                         pull=(pull != "none"), interval=0.01))
        self.masks = bytes(masks)
        self.combos = boardcfg.combos(cfg)
        self._event = keypad.Event()
        self._down = 0          # physical inputs down (bit per input)
        self._release = 0       # releases held back one read (tap inside one read)
        self.buzzer = None
        self._beep_until = 0
        if cfg.get("buzzer"):
            try:
                import pwmio

                self.buzzer = pwmio.PWMOut(pin(board, cfg, cfg["buzzer"]["pin"]), frequency=440,
                                           duty_cycle=0, variable_frequency=True)
            except (ImportError, AttributeError, ValueError, RuntimeError):
                self.buzzer = None
        try:
            import supervisor

            self._clock = supervisor.ticks_ms           # wraps at 2**29
        except (ImportError, AttributeError):
            self._clock = _cpython_ms
        self._uart = None
        self._last = self._clock()
        self._now = 0
        # let keypad scan once so a button held at power-on (safe mode) is seen
        self.sleep_ms(25)

    def ticks_ms(self):
        """A 30-bit wrapping ms clock (clock.ticks_diff) from a 29-bit source."""
        t = self._clock()
        self._now = (self._now + ((t - self._last) & _WRAP29)) & _MASK
        self._last = t
        return self._now

    def sleep_ms(self, ms):
        time.sleep(ms / 1000)

    def read_buttons(self):
        down = self._down & ~self._release
        self._release = 0
        fresh = 0
        ev = self._event
        keys = self.keys
        for g in range(len(keys)):
            base = self.key_base[g]
            queue = keys[g].events
            while queue.get_into(ev):
                bit = 1 << (base + ev.key_number)
                if ev.pressed:
                    down |= bit
                    fresh |= bit
                    self._release &= ~bit   # tapped and pressed again: it is down
                elif fresh & bit:
                    self._release |= bit
                else:
                    down &= ~bit
        self._down = down
        raw = 0
        masks = self.masks
        for i in range(len(masks)):
            if down & (1 << i):
                raw |= masks[i]
        if self.combos:
            raw = buttons.combine(raw, self.combos)
        return raw

    def beep(self, freq, ms):
        if self.buzzer is None:
            return
        self.buzzer.frequency = freq
        self.buzzer.duty_cycle = 16384
        self._beep_until = (self.ticks_ms() + ms) & _MASK

    def service(self, now):
        if self._beep_until and clock.ticks_diff(now, self._beep_until) >= 0:
            self.buzzer.duty_cycle = 0
            self._beep_until = 0

    def mem_free(self):
        return gc.mem_free() if hasattr(gc, "mem_free") else -1

    def open_link(self):
        """The board file's "link" pins as ``busio.UART`` (115,200 baud; timeout 0:
        readinto does not wait), opened on the first call; None without a link."""
        cfg = self.cfg.get("link")
        if cfg is None:
            return None
        if self._uart is None:
            import board
            import busio

            self._uart = busio.UART(pin(board, self.cfg, cfg["tx"]), pin(board, self.cfg, cfg["rx"]),
                                    baudrate=115200, timeout=0, receiver_buffer_size=512)
        return self._uart


def _cpython_ms():
    return (time.monotonic_ns() // 1000000) & _WRAP29
