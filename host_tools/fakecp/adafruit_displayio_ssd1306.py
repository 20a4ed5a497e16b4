"""Stand-in for the Adafruit library ``adafruit_displayio_ssd1306`` (same init
sequence, same BusDisplay arguments, same mux/COM patches)."""

try:
    from busdisplay import BusDisplay
except ImportError:
    from displayio import Display as BusDisplay

_INIT_SEQUENCE = (
    b"\xAE\x00"
    b"\x20\x01\x00"
    b"\x81\x01\xcf"
    b"\xA1\x00"
    b"\xA6\x00"
    b"\xc8\x00"
    b"\xA8\x01\x3f"
    b"\xd5\x01\x80"
    b"\xd9\x01\xf1"
    b"\xda\x01\x12"
    b"\xdb\x01\x40"
    b"\x8d\x01\x14"
    b"\xAF\x00"
)


class SSD1306(BusDisplay):
    def __init__(self, bus, **kwargs):
        init_sequence = bytearray(_INIT_SEQUENCE)
        height = kwargs["height"]
        if "rotation" in kwargs and kwargs["rotation"] % 180 != 0:
            height = kwargs["width"]
        init_sequence[16] = height - 1
        if kwargs["height"] == 32:
            init_sequence[25] = 0x02
        super().__init__(bus, init_sequence, color_depth=1, grayscale=True,
                         pixels_in_byte_share_row=False, set_column_command=0x21,
                         set_row_command=0x22, data_as_commands=True, brightness_command=0x81,
                         single_byte_bounds=True, **kwargs)
        self._is_awake = True

    @property
    def is_awake(self):
        return self._is_awake

    def sleep(self):
        if self._is_awake:
            self.bus.send(0xAE, b"")
            self._is_awake = False

    def wake(self):
        if not self._is_awake:
            self.bus.send(0xAF, b"")
            self._is_awake = True
