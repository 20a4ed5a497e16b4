"""A blank Pico: MicroPython onto a board in BOOTSEL mode, then its serial port.

A new Pico (or one plugged in holding BOOTSEL) shows up as a USB drive, RPI-RP2,
recognised by its ``INFO_UF2.TXT`` (an RP2350 board, a Pico 2, shows RP2350).
Copying a UF2 there flashes it; the board then reboots into MicroPython and a
USB serial port (VID:PID 2E8A:0005) appears.  ``install`` does that with the
MicroPython image that ships with the project (third_party/rp2040, its sha256
checked first) or another official RP2040 UF2, and returns the new port.
``update_micropython`` (``flash --update-micropython``) does the same for a board
that runs MicroPython: it sends it into BOOTSEL mode first (machine.bootloader()).
"""

import glob
import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

from host_tools.core import UserError
from host_tools.core import uf2
from host_tools.device import usbserial

SHIPPED_UF2 = uf2.RP2040_BUNDLE / "firmware.uf2"
SHIPPED_RELEASE = "1.28.0"         # sys.implementation.version of the shipped image
SHIPPED_VERSION = "MicroPython v%s (RPI_PICO)" % SHIPPED_RELEASE
# the same release with a ROMFS partition (docs/romfs.md), installed by `flash --romfs`
ROMFS_UF2 = uf2.ROMFS_BUNDLE / "firmware.uf2"
ROMFS_VERSION = "MicroPython v%s (RPI_PICO_ROMFS)" % SHIPPED_RELEASE
MICROPYTHON_VID_PID = (0x2E8A, 0x0005)
PORT_WITHIN_S = 30          # a Pico enumerates its serial port ~2 s after the UF2 is copied
DRIVE_WITHIN_S = 30         # and its RPI-RP2 drive ~2 s after machine.bootloader()
_open = open                # the tests stand a read-only drive in here


def is_bootsel_drive(path):
    """'RP2040' or 'RP2350' for a mounted BOOTSEL drive, else None."""
    try:
        info = (Path(path) / "INFO_UF2.TXT").read_text(errors="replace")
    except OSError:
        return None
    if "Board-ID: RPI-RP2" in info:
        return "RP2040"
    if "RP2350" in info:
        return "RP2350"
    return None


def find_drives():
    """[(path, chip)] of the BOOTSEL drives mounted where Linux, macOS and Windows
    put them ($PICO_BOOTSEL_DRIVE first, for other places)."""
    cands = []
    if os.environ.get("PICO_BOOTSEL_DRIVE"):
        cands.append(os.environ["PICO_BOOTSEL_DRIVE"])
    user = os.environ.get("USER", "*")
    for name in ("RPI-RP2", "RP2350"):
        for pattern in ("/media/%s/%s*" % (user, name), "/run/media/%s/%s*" % (user, name),
                        "/media/%s*" % name, "/Volumes/%s*" % name):
            cands.extend(sorted(glob.glob(pattern)))
    if sys.platform == "win32":  # pragma: no cover
        cands.extend("%s:\\" % c for c in "DEFGHIJKLMNOPQRSTUVWXYZ")
    found = []
    for cand in cands:
        chip = is_bootsel_drive(cand)
        if chip and cand not in [f for f, _ in found]:
            found.append((cand, chip))
    return found


def check_uf2(path):
    """The bytes of an RP2040 UF2, or a UserError that says what is wrong with it.
    The shipped image must also match its recorded sha256."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UserError("cannot read %s: %s" % (path, exc.strerror or exc)) from None
    try:
        families = set(family for _, flags, _, _, family, _ in uf2.blocks(data)
                       if flags & uf2.FLAG_FAMILY_ID)
    except uf2.UF2Error as exc:
        if exc.offset is None:
            raise UserError("%s is not a UF2 file (its size is not a whole number of 512-byte "
                            "blocks)" % path) from None
        raise UserError("%s is not a UF2 file (bad block at byte %d)" % (path, exc.offset)) from None
    if families != {uf2.FAMILY_RP2040}:
        raise UserError("%s is not an RP2040 UF2 (families: %s): use the RPI_PICO image from "
                        "micropython.org" % (path, ", ".join("0x%08x" % f for f in sorted(families)) or "none"))
    for shipped, bundle in ((SHIPPED_UF2, uf2.RP2040_BUNDLE), (ROMFS_UF2, uf2.ROMFS_BUNDLE)):
        if path.resolve() == shipped.resolve():
            want = uf2.recorded_sha256(shipped.name, bundle)
            folder = "third_party/" + bundle.name
            if hashlib.sha256(data).hexdigest() != want:
                raise UserError("%s does not match its recorded sha256 (%s/SHA256SUMS): "
                                "restore it with `git checkout -- %s`" % (path, folder, folder))
    return data


def micropython_ports():
    """Serial ports of boards running MicroPython on an RP2 (VID:PID 2E8A:0005)."""
    from serial.tools import list_ports
    return sorted(p.device for p in list_ports.comports()
                  if (p.vid, p.pid) == MICROPYTHON_VID_PID)


def copy_uf2(data, drive, log=print):
    """Write the UF2 onto the drive (the board flashes it and reboots as the
    last block lands); one-line errors for a read-only or full drive."""
    target = Path(drive) / "micropython.uf2"
    try:
        free = shutil.disk_usage(drive).free
    except OSError as exc:
        raise UserError("cannot read the BOOTSEL drive %s: %s" % (drive, exc.strerror or exc)) from None
    if free < len(data):
        raise UserError("the BOOTSEL drive %s has %d KB free, the UF2 needs %d KB: is it really a "
                        "Pico in BOOTSEL mode? (unplug it, hold BOOTSEL, plug it in again)"
                        % (drive, free // 1024, len(data) // 1024 + 1))
    log("copying %s (%d KB) to %s ..." % (target.name, len(data) // 1024, drive))
    try:
        with _open(target, "wb") as handle:
            for at in range(0, len(data), 64 * 1024):
                handle.write(data[at:at + 64 * 1024])
            handle.flush()
            os.fsync(handle.fileno())
    except OSError as exc:
        if exc.errno in (30, 13):           # EROFS, EACCES
            raise UserError("the BOOTSEL drive %s is read-only (%s): mount it writable, or copy "
                            "the UF2 by hand" % (drive, exc.strerror)) from None
        raise UserError("copying the UF2 to %s failed: %s; unplug the Pico, hold BOOTSEL, plug it "
                        "in and run the command again" % (drive, exc.strerror or exc)) from None


def wait_for_port(before, within=None, log=print):
    """The MicroPython serial port that was not there ``before``, once it appears."""
    within = within or PORT_WITHIN_S
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        new = [p for p in micropython_ports() if p not in before]
        if new:
            return new[0]
        time.sleep(0.25)
    raise UserError("no MicroPython serial port (USB 2E8A:0005) appeared within %d s after the UF2 "
                    "was copied: unplug the Pico and plug it in again (without BOOTSEL), then run "
                    "flash again" % within)


def wait_for_drive(drive=None, within=None):
    """The BOOTSEL drive (``drive``, or the one found) once it is mounted, after a
    board was sent into BOOTSEL mode."""
    within = within or DRIVE_WITHIN_S
    deadline = time.monotonic() + within
    while True:
        if drive is not None:
            if is_bootsel_drive(drive):
                return drive
        else:
            drives = find_drives()
            if len(drives) == 1:
                return drives[0][0]
            if len(drives) > 1:
                raise UserError("several boards in BOOTSEL mode (%s): choose one with --uf2-drive"
                                % ", ".join(d for d, _ in drives))
        if time.monotonic() >= deadline:
            raise UserError("the board rebooted into BOOTSEL mode, but no RPI-RP2 drive was mounted "
                            "within %d s: mount it (or give its path with --uf2-drive) and run flash "
                            "again; the board stays in BOOTSEL mode until it gets a UF2" % within)
        time.sleep(0.25)


def install(drive=None, uf2=None, log=print):
    """MicroPython onto the BOOTSEL board at ``drive`` (found when None) from ``uf2``
    (the shipped image when None); returns the serial port it comes back on."""
    if drive is None:
        drives = find_drives()
        if not drives:
            return None
        if len(drives) > 1:
            raise UserError("several boards in BOOTSEL mode (%s): choose one with --uf2-drive"
                            % ", ".join(d for d, _ in drives))
        drive, chip = drives[0]
    else:
        chip = is_bootsel_drive(drive)
        if chip is None:
            raise UserError("%s is not a Pico in BOOTSEL mode (no INFO_UF2.TXT naming RPI-RP2)" % drive)
    image = Path(uf2) if uf2 else SHIPPED_UF2
    if chip == "RP2350":
        raise UserError("the board at %s is an RP2350 (a Pico 2): the %s image is for the RP2040; "
                        "download the RPI_PICO2 UF2 from micropython.org and copy it to the drive by "
                        "hand, then run flash again" % (drive, image.name))
    data = check_uf2(image)
    log("found a Pico in BOOTSEL mode at %s: installing %s"
        % (drive, {SHIPPED_UF2: SHIPPED_VERSION, ROMFS_UF2: ROMFS_VERSION}.get(image, image)))
    before = micropython_ports()
    started = time.monotonic()
    copy_uf2(data, drive, log)
    port = wait_for_port(before, log=log)
    log("MicroPython is up on %s (%.1f s after the copy)" % (port, time.monotonic() - started))
    return port


def update_micropython(port, drive=None, uf2=None, log=print):
    """Reinstall MicroPython on a board that runs it: reboot it into BOOTSEL mode
    (machine.bootloader()), copy the UF2 (the shipped one, or ``uf2``) to its
    drive and return the serial port it comes back on.  The UF2 covers only the
    firmware's part of the flash, so the filesystem, saves included, stays."""
    check_uf2(Path(uf2) if uf2 else SHIPPED_UF2)   # refused before the board reboots
    dev = usbserial.connect(port)
    with usbserial.stops_answering(dev.port):
        info = dev.info()
    log("%s runs MicroPython %s: rebooting it into BOOTSEL mode to install %s (files and saves stay)"
        % (dev.port, info["version"], uf2 or ("MicroPython " + SHIPPED_RELEASE)))
    dev.reboot_to_bootsel()
    return install(wait_for_drive(drive), uf2, log)
