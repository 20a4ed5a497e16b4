"""Make the device modules in firmware/ importable on the host, unchanged; and
name the repository's root once for every host tool."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIRMWARE_DIR = ROOT / "firmware"

if str(FIRMWARE_DIR) not in sys.path:
    sys.path.insert(0, str(FIRMWARE_DIR))
