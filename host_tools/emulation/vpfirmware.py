"""The whole handheld firmware on the virtual Pico (host_tools/emulation/vpico.py), for
tests and `make bench`: what `flash` would put on the device (compiled .mpy,
board.json, boot hook, manifest), in a cached flash image, booted with the
OLED present, absent or at another address.

``firmware_pico(...)`` starts a fresh copy of that image and runs main.py as a
Pico does at power-on; ``repl(pico)`` enters the raw REPL afterwards (Ctrl-C
stops the launcher; timers such as the LED blink keep running).
"""

import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path

from host_tools.core import build
from host_tools.core.boards import BOARDS_DIR
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.emulation import vpico

MPY_V6_3_ARMV6M = 4870          # sys.implementation._mpy of MicroPython v1.28.0 RPI_PICO
RAW_REPL = b"raw REPL; CTRL-B to exit\r\n>"


def firmware_files(board="pico-ssd1306"):
    """{device name: bytes}: exactly the set `flash --board BOARD` deploys."""
    return build.build_files(FIRMWARE_DIR, board, BOARDS_DIR, MPY_V6_3_ARMV6M)


def firmware_image(board="pico-ssd1306"):
    """A cached flash image with the firmware installed (the first build of a given
    firmware writes ~220 KB over the raw REPL: ~14 s; later calls reuse it)."""
    return vpico.provisioned_image(firmware_files(board), board)


def flashed_files(board="pico-ssd1306"):
    """``firmware_files`` and what a plain ``flash --board BOARD`` adds through the
    games' flash hooks (Klotski's solver tables in saves/)."""
    from host_tools.device import flash

    files = dict(firmware_files(board))
    files.update(flash.board_hook_files(board)({}, lambda *_: None))
    return files


def flashed_image(board="pico-ssd1306"):
    """A cached flash image with ``flashed_files``: the handheld as a maker flashes
    it (the soak plays on this)."""
    return vpico.provisioned_image(flashed_files(board), board)


@contextmanager
def firmware_pico(board="pico-ssd1306", oled_address="board", hold=(), battery=None):
    """A started (paused) VirtualPico on a private copy of the firmware image
    (``battery``: the supply volts its ADC pin reads, None for USB)."""
    image = firmware_image(board)
    with tempfile.TemporaryDirectory(prefix="vpfw-") as tmp:
        path = Path(tmp) / "flash.img"
        shutil.copyfile(image, path)
        pico = vpico.VirtualPico(path, board=board, oled_address=oled_address, battery=battery)
        try:
            pico.start(hold=hold)
            yield pico
        finally:
            pico.close()


def wait_usb(pico, emulated_ms=3000):
    end = pico.now_ns + emulated_ms * vpico.MS
    while not pico.usb_up:
        if pico.now_ns >= end:
            raise vpico.VPicoError("USB did not come up within %d ms" % emulated_ms)
        pico.run_for(10)


def repl(pico, tries=4):
    """Stop whatever main.py runs (Ctrl-C) and enter the raw REPL.  Keys sent in
    the first moments after USB comes up can be lost (boot.py still running, the
    CDC not yet read), so they are sent again until the raw REPL answers."""
    wait_usb(pico)
    for attempt in range(tries):
        pico.write_serial(b"\r\x03\x03\x01")
        try:
            pico.wait_serial(RAW_REPL, 1000)
            return
        except vpico.VPicoError:
            if attempt == tries - 1:
                raise
