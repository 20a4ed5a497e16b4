"""Idle and sleep on the virtual Pico, measured (tests/test_vpico_sleep.py and
`make bench`): the flashed firmware with "screen off after" set to 30 s through
the save store, power-cycled so main.py boots with it and runs its own loop on
the emulated clock.  Then, untouched: the panel dims at 20 s and goes off at
30 s; while it is off, the I2C bytes sent and the share of emulated time the
core was executing rather than halted in WFI/WFE (the runner counts both); then
a press of A and the emulated time until the panel is lit with the whole frame
again, and whether the press did anything else (A on the launcher would start
the first game)."""

from host_tools.emulation import vpfirmware
from host_tools.emulation.vpico import MS

SLEEP_S = 30
TICK_MS = 1000.0 / 30
BOOT_MS = 1200
OFF_WINDOW_MS = 5000        # the stretch of screen-off time the figures are taken over
STEP_MS = 250               # how finely the dim / off moments are looked for
DIM_CONTRAST = 8            # firmware/runtime.py: _DIM_CONTRAST

_SETTINGS = r"""
import savestore
savestore.Saves().store('_settings', {'difficulty': 1, 'contrast': 255, 'sound': True, 'sleep': %d})
"""


def _busy_since(pico, start):
    """(emulated ns, halted ns) since ``start`` (a (now_ns, wait_ns) pair)."""
    pico.query()
    return pico.now_ns - start[0], pico.wait_ns - start[1]


def _mark(pico):
    pico.query()
    return pico.now_ns, pico.wait_ns


def _after_a_poll(pico, limit_ms=200):
    """Step 1 ms at a time through two polls of the buttons (the core runs for
    ~0.7 ms over two 1 ms steps: lightsleep's exit, then step()) and on until the
    second is over; returns the ms between their starts.  A press now waits the
    longest for the next poll."""
    starts = []
    busy = None
    running = False
    while limit_ms:
        pico.run_for(1)
        limit_ms -= 1
        now, halted = _mark(pico)
        ran = now - halted
        active = busy is not None and ran - busy > 20_000      # > 20 us executed in that ms
        busy = ran
        if active and not running:
            starts.append(now)
        running = active
        if len(starts) == 2 and not running:
            return (starts[1] - starts[0]) / MS
    return None


def measure(board="pico-ssd1306"):
    """The figures of one sleep-and-wake on the virtual Pico (a dict, times in ms)."""
    out = {}
    with vpfirmware.firmware_pico(board) as pico:
        vpfirmware.repl(pico)
        pico.exec(_SETTINGS % SLEEP_S)
        pico.power_off()
        pico.start()
        pico.query()                    # the new power-on's clock (from 0)
        pico.run_for(BOOT_MS)
        frame = pico.frame_pixels()
        assert any(any(row) for row in frame), "no launcher after boot"
        mark = _mark(pico)
        pico.run_for(2000)
        total, halted = _busy_since(pico, mark)
        out["awake_busy"] = 1 - halted / total
        dim_at = off_at = None
        limit = (SLEEP_S + 5) * 1000
        while pico.now_ns < limit * MS and off_at is None:
            pico.run_for(STEP_MS)
            if dim_at is None and pico.oled.contrast == DIM_CONTRAST and pico.oled.lit():
                dim_at = pico.now_ns / MS
                out["dim_frame_same"] = pico.frame_pixels() == frame
            if not pico.oled.lit():
                off_at = pico.now_ns / MS
        out["dim_at"] = dim_at
        out["off_at"] = off_at
        if off_at is None:
            return out
        pico.run_for(500)
        mark = _mark(pico)
        i2c = pico.i2c_bytes
        pico.run_for(OFF_WINDOW_MS)
        total, halted = _busy_since(pico, mark)
        out["off_busy"] = 1 - halted / total
        out["off_i2c_bytes"] = pico.i2c_bytes - i2c
        out["off_window_ms"] = total / MS
        # wake: A pressed for 150 ms right after a poll (the longest wait for the next
        # one); when is the panel lit with the whole frame again?
        out["poll_gap_ms"] = _after_a_poll(pico)
        press_at = pico.now_ns
        i2c = pico.i2c_bytes
        pico.set_buttons(("a",))
        woke = None
        while pico.now_ns - press_at < 200 * MS:
            pico.run_for(1)
            if (woke is None and pico.oled.lit() and pico.i2c_bytes - i2c >= 1024
                    and pico.frame_pixels() == frame):
                woke = (pico.now_ns - press_at) / MS
            if pico.now_ns - press_at >= 150 * MS:
                pico.set_buttons(())
        out["wake_ms"] = woke
        out["wake_ticks"] = woke / TICK_MS if woke is not None else None
        out["wake_bytes"] = pico.i2c_bytes - i2c
        pico.run_for(1000)
        out["press_did_nothing"] = pico.frame_pixels() == frame and pico.oled.contrast == 255
        # the next press acts: A starts the first game (its screen differs)
        pico.set_buttons(("a",))
        pico.run_for(100)
        pico.set_buttons(())
        pico.run_for(1500)
        out["next_press_acts"] = pico.frame_pixels() != frame
    return out
