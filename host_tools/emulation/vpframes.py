"""The same key script on the virtual Pico and in the host simulator, screens
compared at checkpoints.

A script is a list of ``(label, keys)`` segments in `sim --keys` syntax.  Both
sides play the segments one after another; after each segment the OLED frame
of each side is kept.  The simulator ticks on a virtual clock (one key-script
entry per tick, 1000/30 ms apart).  On the virtual Pico, two ways:

- ``realtime_frames``: main.py's own 30 ticks/s loop on the emulated clock,
  the buttons following the script one entry every 1000/30 ms.  Anything
  seeded from the clock (Trap the Cat's and Flip Junqi's boards) differs from
  the simulator there, so real-time scripts stay on clock-free screens.
- ``stepped_frames``: main.py stopped (Ctrl-C), then the firmware booted again
  from the REPL (``main.boot``) with the simulator's virtual clock put in
  ``hw.ticks_ms``/``hw.sleep_ms`` and stepped one tick per script entry;
  buttons are still the GPIO pins, the screen still the real ``machine.I2C``
  transfers of the .mpy driver.  Every frame must then match the simulator's.
"""

from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod
from host_tools.emulation import vpfirmware

TICK_MS = 1000.0 / 30
BOOT_MS = 1200          # power-on to the launcher's first frame on the virtual Pico (~0.5 s)


def sim_frames(script, board="pico-ssd1306", battery=None):
    """[(label, pixel rows)] from the host simulator."""
    sim = simmod.Simulator(board, battery=battery)
    frames = []
    for label, keys in script:
        for tick in parse_keys(keys):
            sim.step(tick)
        frames.append((label, sim.oled.pixels()))
    return frames


def realtime_frames(pico, script):
    """[(label, pixel rows)] from main.py's own loop (``pico``: a freshly started
    firmware_pico)."""
    frames = []
    pico.run_for(BOOT_MS)
    start = pico.now_ns
    n = 0
    for label, keys in script:
        for tick in parse_keys(keys):
            pico.set_buttons(tick)
            n += 1
            pico.run_until(start + int(n * TICK_MS * 1e6))
        frames.append((label, pico.frame_pixels()))
    return frames


# Guest code: boot the firmware as the simulator does (virtual clock, saves in memory)
_STEPPED_BOOT = r"""
import gc, boardcfg, hw_machine, main
import savestore as saves
cfg = boardcfg.load_device()
hw = hw_machine.Hardware(cfg)
CLOCK = [0, 0]
def _ticks():
    return CLOCK[0] & 0x3FFFFFFF
def _sleep(ms):
    CLOCK[0] += ms
hw.ticks_ms = _ticks
hw.sleep_ms = _sleep
rt = main.boot(cfg, hw, saves.Saves(saves.MemFs()))
def steps(n):
    for _ in range(n):
        rt.step()
        rt.save_pending()
        CLOCK[1] += 1
        CLOCK[0] = CLOCK[1] * 1000 // 30
gc.collect()
"""


def _runs(ticks):
    """[(keys, count)] of consecutive equal ticks."""
    runs = []
    for tick in ticks:
        if runs and runs[-1][0] == tick:
            runs[-1][1] += 1
        else:
            runs.append([tick, 1])
    return runs


def stepped_frames(pico, script):
    """[(label, pixel rows)] from the firmware stepped on the simulator's clock
    (``pico``: a running firmware_pico, main.py gets interrupted)."""
    vpfirmware.repl(pico)
    pico.set_buttons(())
    pico.exec(_STEPPED_BOOT)
    frames = []
    for label, keys in script:
        for tick, count in _runs(parse_keys(keys)):
            pico.set_buttons(tick)
            pico.exec("steps(%d)" % count, emulated_ms=120000)
        frames.append((label, pico.frame_pixels()))
    return frames


def differences(a, b):
    """Number of pixels that differ between two frames."""
    return sum(x != y for ra, rb in zip(a, b) for x, y in zip(ra, rb))


def text(rows):
    return "".join("".join("#" if v else "." for v in row) + "\n" for row in rows)
