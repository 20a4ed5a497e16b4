"""Make the device modules in firmware/ importable on the host, unchanged; and
name the repository's root once for every host tool."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
FIRMWARE_DIR = ROOT / "firmware"

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.insert(0, str(FIRMWARE_DIR))

# CircuitPython has no framebuf: `flash` adds this pure-Python one (pixel-identical
# to MicroPython's) to CircuitPython boards only; MicroPython has framebuf built
# in and never gets it.  A subfolder, so the flat firmware/ copy skips it.  The
# simulator and the laptop's level checks use it too (CPython has no framebuf).
FRAMEBUF_DIR = FIRMWARE_DIR / "circuitpython"


def use_pure_framebuf():
    """Make ``import framebuf`` find FRAMEBUF_DIR's framebuf.py (CPython)."""
    if str(FRAMEBUF_DIR) not in sys.path:
        sys.path.insert(0, str(FRAMEBUF_DIR))
