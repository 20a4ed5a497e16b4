"""``flash`` onto a CircuitPython board (board files with "runtime": "circuitpython"):
a mounted CIRCUITPY drive gets the same tree compiled with CircuitPython's own mpy-cross
(main.py as code.py and boot.py stay source; no viper kernels),
through the same staged switch as a MicroPython board (host_tools/device/staging.py),
and circup installs the board's displayio driver.  The board file's runtime picks
the path: a MicroPython board file is refused on a drive (here) and a
CircuitPython one over a serial port (mpflash.py), before anything is written.
"""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

from host_tools.core import UserError
from host_tools.core.boards import load_board
from host_tools.core.build import build_files
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.device import devicefs
from host_tools.device.staging import (RUNTIME_NAMES, board_choice, deploy, finish_pending, level_files,
                                       make_plan)

# boards with "runtime": "circuitpython" (firmware/hw_circuitpython.py): displayio drivers
DISPLAYIO_LIBS = {"ssd1306": "adafruit_displayio_ssd1306", "sh1106": "adafruit_displayio_sh1106"}


def refuse_board_on_drive(board, runtime, drive, found=False, boards_dir=None):
    """A drive only takes CircuitPython board files: any other copy there cannot boot its
    backend (no boot.py, no framebuf.py, the wrong driver libraries)."""
    if runtime == "circuitpython":
        return
    how, other = (("found mounted", "give --port") if found
                  else ("given with --drive", "drop --drive"))
    raise UserError("board %s is a %s board: it cannot go on the CircuitPython drive %s %s; "
                    "choose %s with --board, or %s to flash it over USB serial"
                    % (board, RUNTIME_NAMES.get(runtime, runtime), drive, how,
                       board_choice("circuitpython", boards_dir), other))


class LocalFs:
    """A mounted drive as a boot_switch filesystem (paths relative to its root)."""

    def __init__(self, root):
        self.root = Path(root)

    def _p(self, path):
        return self.root / path.lstrip("/")

    def exists(self, path):
        return self._p(path).exists()

    def isdir(self, path):
        return self._p(path).is_dir()

    def listdir(self, path):
        return sorted(os.listdir(self._p(path)))

    def rename(self, old, new):
        os.replace(self._p(old), self._p(new))

    def remove(self, path):
        os.remove(self._p(path))

    def rmdir(self, path):
        os.rmdir(self._p(path))

    def read(self, path):
        return self._p(path).read_bytes()

    def write(self, path, data):
        with open(self._p(path), "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())

    def mkdir(self, path):
        os.mkdir(self._p(path))


def is_circuitpy_drive(path):
    boot_out = Path(path) / "boot_out.txt"
    try:
        return "CircuitPython" in boot_out.read_text(errors="replace")
    except OSError:
        return False


def find_circuitpy_drives():
    cands = []
    if os.environ.get("CIRCUITPY_DRIVE"):
        cands.append(os.environ["CIRCUITPY_DRIVE"])
    user = os.environ.get("USER", "*")
    for pattern in ("/media/%s/CIRCUITPY*" % user, "/run/media/%s/CIRCUITPY*" % user,
                    "/media/CIRCUITPY*", "/Volumes/CIRCUITPY*"):
        cands.extend(sorted(glob.glob(pattern)))
    if sys.platform == "win32":  # pragma: no cover
        cands.extend("%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ")
    seen = []
    for c in cands:
        if c not in seen and is_circuitpy_drive(c):
            seen.append(c)
    return seen


def run_circup(drive, libs):
    """Install Adafruit libraries onto the drive with circup (a subprocess)."""
    exe = shutil.which("circup")
    # circup has no __main__: without the script on PATH (a venv not activated) its
    # entry point is called the way the script does
    cmd = [exe] if exe else [sys.executable, "-c", "import sys, circup; sys.exit(circup.main())"]
    if not exe:
        try:
            import circup  # noqa: F401
        except ImportError:
            raise UserError("circup is not installed (pip install circup, or make setup); it "
                            "installs the Adafruit libraries %s" % ", ".join(libs)) from None
    proc = subprocess.run(cmd + ["--path", str(drive), "install"] + list(libs),
                          capture_output=True, text=True)
    if proc.returncode:
        tail = (proc.stderr or proc.stdout or "").strip().splitlines()
        raise UserError("circup could not install %s: %s" % (
            ", ".join(libs), tail[-1] if tail else "exit %d" % proc.returncode))


def flash_circuitpython(drive, board, fw_dir=None, boards_dir=None, dry_run=False, log=print,
                        levels=None, extra_files=None, install_libs=None):
    """The firmware onto a mounted CIRCUITPY drive; ``install_libs(drive, libs)``
    installs the display driver (circup; the virtual CircuitPython Pico copies it
    from its pinned PyPI package instead, having no network)."""
    board_data, _ = load_board(board, boards_dir)
    refuse_board_on_drive(board, board_data["runtime"], drive, boards_dir=boards_dir)
    if not is_circuitpy_drive(drive):
        raise UserError("%s is not a mounted CIRCUITPY drive (no boot_out.txt naming "
                        "CircuitPython)" % drive)
    packs = level_files(levels)
    files = build_files(fw_dir or FIRMWARE_DIR, board, boards_dir, None, circuitpython=True)
    files.update(packs)
    if extra_files is not None:
        files.update(extra_files(packs, log))   # the games' flash hooks (data, like packs)
    libs = [DISPLAYIO_LIBS[board_data["display"]["controller"]]]
    fs = LocalFs(drive)
    if not dry_run:
        finish_pending(fs, log)
    usage = shutil.disk_usage(drive)
    info = {"fs_block": 512, "fs_free": usage.free}
    plan = make_plan(_HashingFs(fs), files, info)
    log("CircuitPython drive %s" % drive)
    for line in plan.lines(files):
        log(line)
    log("  circup install %s" % " ".join(libs))
    if dry_run:
        log("dry run: nothing was written")
        return plan
    deploy(_HashingFs(fs), files, plan, log)
    (install_libs or run_circup)(drive, libs)
    log("flashed firmware %s to %s" % (plan.new_version, drive))
    return plan


class _HashingFs(LocalFs, devicefs.DeviceTransport):
    """LocalFs with the DeviceTransport extras deploy() uses."""

    def __init__(self, fs):
        LocalFs.__init__(self, fs.root)
        self.port = str(fs.root)

    def sha256(self, path):
        p = self._p(path)
        return devicefs.sha256_hex(p.read_bytes()) if p.is_file() else None

    def reset(self):
        pass  # CircuitPython reloads code.py by itself when the drive changes
