"""Stand-in for the Adafruit library ``adafruit_displayio_sh1106`` (same init
sequence and BusDisplay arguments: page addressing through SH1107_addressing)."""

try:
    from busdisplay import BusDisplay
except ImportError:
    from displayio import Display as BusDisplay

_INIT_SEQUENCE = (
    b"\xae\x00"
    b"\xd5\x01\x80"
    b"\xa8\x01\x3f"
    b"\xd3\x01\x00"
    b"\x40\x00"
    b"\xad\x01\x8b"
    b"\xa1\x00"
    b"\xc8\x00"
    b"\xda\x01\x12"
    b"\x81\x01\xff"
    b"\xd9\x01\x1f"
    b"\xdb\x01\x40"
    b"\x20\x01\x20"
    b"\x33\x00"
    b"\xa6\x00"
    b"\xa4\x00"
    b"\xaf\x00"
)


class SH1106(BusDisplay):
    def __init__(self, bus, **kwargs):
        super().__init__(bus, bytearray(_INIT_SEQUENCE), color_depth=1, grayscale=True,
                         pixels_in_byte_share_row=False, data_as_commands=True,
                         brightness_command=0x81, single_byte_bounds=True,
                         SH1107_addressing=True, **kwargs)
        self._is_awake = True

    @property
    def is_awake(self):
        return self._is_awake

    def sleep(self):
        if self._is_awake:
            self.bus.send(0xAE, b"\x00")
            self._is_awake = False

    def wake(self):
        if not self._is_awake:
            self.bus.send(0xAF, b"\x00")
            self._is_awake = True
