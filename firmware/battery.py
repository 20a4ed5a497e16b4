"""The battery gauge: supply readings -> what the launcher shows.

Imported only on a board whose file reads its supply (hw_machine makes a
``Supply``), so the others carry none of it at the launcher.

``Gauge(cell)`` takes readings in millivolts (``add(mv)``; -1 = no reading)
and keeps the last few: the median of them is the filtered supply, so one
stray ADC sample does not move the gauge.  ``state`` is then:
  USB       the board runs from USB (a supply above what the cell can give,
            in the band USB produces, or the board's VBUS-sense pin high);
  UNKNOWN   a supply no cell of that type can produce: shown as "?";
  CHARGE    ``percent`` from the cell's discharge curve and ``level`` (0..4
            bars); ``low`` below 10 %.
The level moves only when the percentage is HYSTERESIS points past a bar's
edge, so a supply wandering around an edge does not make the gauge flicker.
``empty``: on a charge reading at or below the cell's cut-off (_CUTOFF, left
only EMPTY_HYSTERESIS_MV above it): the runtime saves the game in progress
before the brown-out.  A reading the cell cannot give (UNKNOWN, "?") or USB
power is never empty.
Nothing here allocates after construction.
"""

import gfx

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

NONE = const(0)             # no reading yet
USB = const(1)
UNKNOWN = const(2)
CHARGE = const(3)

SAMPLES = const(5)
HYSTERESIS = const(3)       # percentage points past a bar's edge before the bar moves
LOW_PERCENT = const(10)
BAR_EDGES = (10, 35, 60, 85)   # percent at which the 1st..4th bar lights

# Discharge curves at the handheld's light load (~30 mA): (mV, percent) pairs,
# falling.  LiPo: one 3.7 V cell on VSYS (after the Pico's Schottky diode the
# drop is a few mV at this current).  3aaa: three alkaline AAA cells in series.
_CURVES = {
    "lipo": (4200, 100, 4100, 90, 4000, 78, 3900, 63, 3800, 46, 3750, 35, 3700, 25,
             3650, 16, 3600, 10, 3500, 5, 3400, 2, 3300, 0),
    "3aaa": (4650, 100, 4350, 80, 4050, 60, 3750, 40, 3450, 20, 3150, 8, 2700, 0),
}
# what a cell can produce (mV, inclusive) and the band that means USB power
# (0, 0: the cell's range overlaps USB, only a VBUS-sense pin can tell)
_RANGES = {
    "lipo": (3000, 4350, 4400, 5500),
    "3aaa": (2400, 5000, 0, 0),
}
CELLS = ("lipo", "3aaa", "usb")
# the cut-off: the supply (mV) at which the game in progress is saved, with the
# cell still well above the board's brown-out (LiPo ~1 % left, its protection
# cuts at ~3.0 V; 3 AAA ~5 %, the Pico's regulator stops near 1.8 V)
_CUTOFF = {"lipo": 3350, "3aaa": 2900}
EMPTY_HYSTERESIS_MV = const(100)


def percent(curve, mv):
    """The charge left at ``mv`` on a (mV, percent) curve, linear between points."""
    if mv >= curve[0]:
        return curve[1]
    for i in range(2, len(curve), 2):
        if mv >= curve[i]:
            hi_mv, hi_pc, lo_mv, lo_pc = curve[i - 2], curve[i - 1], curve[i], curve[i + 1]
            return lo_pc + (hi_pc - lo_pc) * (mv - lo_mv) // (hi_mv - lo_mv)
    return 0


def bars(pc):
    n = 0
    for edge in BAR_EDGES:
        if pc >= edge:
            n += 1
    return n


class Supply:
    """The board's supply pins (board file "power"): ``read_mv()`` through the
    divider (-1 when no ADC pin), ``on_usb()`` from the VBUS-sense pin; ``gauge``
    its Gauge, already filled with SAMPLES readings."""

    def __init__(self, power, machine):
        self.adc = None if power.get("adc") is None else machine.ADC(power["adc"])
        vbus = power.get("vbus")
        self.vbus = None if vbus is None else machine.Pin(vbus, machine.Pin.IN)
        self.mv_per_count = 3300 * power.get("divider", 1) / 65535
        self.gauge = Gauge(power.get("cell", "usb"), self)
        for _ in range(SAMPLES):
            self.gauge.sample()

    def read_mv(self):
        if self.adc is None:
            return -1
        return int(self.adc.read_u16() * self.mv_per_count)

    def on_usb(self):
        return self.vbus is not None and self.vbus.value() == 1


class Gauge:
    def __init__(self, cell, supply=None):
        self.cell = cell
        self.supply = supply
        self.curve = _CURVES.get(cell)
        self.ranges = _RANGES.get(cell, (0, 0, 0, 0))
        self._ring = [0] * SAMPLES
        self._sorted = [0] * SAMPLES
        self._count = 0
        self._at = 0
        self.mv = -1            # the filtered supply
        self.state = NONE
        self.percent = 0
        self.level = -1         # bars shown; -1 until the first charge reading
        self.low = False
        self.cutoff = _CUTOFF.get(cell, -1)
        self.empty = False      # at the cut-off: save now

    def sample(self):
        """One reading from the supply."""
        self.add(self.supply.read_mv(), self.supply.on_usb())

    def add(self, mv, usb=False):
        """One reading (mV, -1 when there is none); ``usb`` from a VBUS-sense pin."""
        if mv < 0:
            return
        self._ring[self._at] = mv
        self._at = (self._at + 1) % SAMPLES
        if self._count < SAMPLES:
            self._count += 1
        self.mv = self._median()
        self._judge(usb)

    def _median(self):
        n = self._count
        s = self._sorted
        for i in range(n):                  # insertion sort of at most SAMPLES values
            v = self._ring[i]
            j = i
            while j > 0 and s[j - 1] > v:
                s[j] = s[j - 1]
                j -= 1
            s[j] = v
        return s[n // 2]

    def _judge(self, usb):
        mv = self.mv
        lo, hi, usb_lo, usb_hi = self.ranges
        if usb or self.curve is None or (usb_hi and usb_lo <= mv <= usb_hi):
            self.state = USB
            self.empty = False
            return
        if not lo <= mv <= hi:
            self.state = UNKNOWN
            self.empty = False
            return
        self.empty = mv <= self.cutoff + (EMPTY_HYSTERESIS_MV if self.empty else 0)
        pc = percent(self.curve, mv)
        self.percent = pc
        level = self.level
        if level < 0:
            level = bars(pc)
        elif bars(pc - HYSTERESIS) > level:
            level = bars(pc - HYSTERESIS)
        elif bars(pc + HYSTERESIS) < level:
            level = bars(pc + HYSTERESIS)
        self.level = level
        if self.state == CHARGE and self.low:    # the warning goes only HYSTERESIS above
            self.low = pc < LOW_PERCENT + HYSTERESIS
        else:
            self.low = pc < LOW_PERCENT
        self.state = CHARGE

    def code(self):
        """A small int that changes whenever what the gauge shows changes."""
        return self.state | (self.level + 1) << 2 | (32 if self.low else 0)

    def warning(self):
        """True below LOW_PERCENT on battery (the launcher says so)."""
        return self.state == CHARGE and self.low

    def draw(self, fb, x, y):
        """12 x 8 pixels at (x, y), dark on a lit bar: "USB", or a cell with 0..4
        bars, or with "?" when the supply reads as nothing the cell can give."""
        state = self.state
        if state == USB:
            gfx.text(fb, "USB", x + 1, y + 2, 0)
            return
        if state == NONE:
            return
        fb.rect(x, y, 11, 8, 0)
        fb.fill_rect(x + 11, y + 2, 1, 4, 0)
        if state == UNKNOWN:
            gfx.text(fb, "?", x + 4, y + 1, 0)
            return
        for k in range(self.level):
            fb.fill_rect(x + 2 + 2 * k, y + 2, 1, 4, 0)
