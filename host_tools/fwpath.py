"""Make the device modules in firmware/ importable on the host, unchanged."""

import sys
from pathlib import Path

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.insert(0, str(FIRMWARE_DIR))
