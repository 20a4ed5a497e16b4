"""``flash`` onto a MicroPython board over USB serial (through one DeviceTransport):

  1. read the device facts; refuse anything that is not MicroPython, and pick the
     mpy-cross whose .mpy version equals the device's ``sys.implementation._mpy``;
  2. build the file set (host_tools/core/build.py): firmware modules compiled to
     .mpy (boot.py, main.py and boot_switch.py stay source), ``board.json`` from
     boards/NAME.json, and ``fw_manifest.txt`` (firmware version + one hash per file);
  3. hash every target file *on the device*; only files whose hash differs are sent;
  4. check the free space for staging, upload to /.stage, verify staged hashes;
  5. commit (journal written then renamed into place), switch (boot_switch.finish),
     verify the live hashes, reset.
On a MicroPython with a ROMFS partition (third_party/rp2040-romfs) the .mpy modules
go into one image at /rom instead, written before step 4, and the switch removes
their copies from the littlefs root (host_tools/device/romfs.py).
The plan and the staged switch are host_tools/device/staging.py (shared with the
CircuitPython drive, cpflash.py); connecting is host_tools/device/usbserial.py.
"""

from host_tools.core import UserError
from host_tools.core.boards import load_board
from host_tools.core.build import build_files, decode_mpy
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.device import romfs
from host_tools.device.staging import (RUNTIME_NAMES, board_choice, deploy, finish_pending, level_files,
                                       make_plan)


def refuse_board_on_port(board, runtime, port, boards_dir=None):
    """A serial port only takes MicroPython board files: CircuitPython's firmware goes
    through its drive, with its own boot.py and libraries."""
    if runtime == "micropython":
        return
    raise UserError("board %s is a %s board: it cannot be flashed over the serial port %s; "
                    "flash it through its CIRCUITPY drive (found when mounted, or --drive "
                    "PATH), or choose %s with --board"
                    % (board, RUNTIME_NAMES.get(runtime, runtime), port,
                       board_choice("micropython", boards_dir)))


def check_device(info, boards_dir=None):
    impl = info.get("implementation")
    if impl == "circuitpython":
        raise UserError("this board runs CircuitPython: mount its CIRCUITPY drive and flash "
                        "%s with --board" % board_choice("circuitpython", boards_dir))
    if impl != "micropython":
        raise UserError("the device runs %r, not MicroPython" % impl)
    if info.get("mpy") is None:
        raise UserError("the device's MicroPython %s is too old (no sys.implementation._mpy): run "
                        "flash again with --update-micropython to install the release this project "
                        "ships (files and saves stay)" % info.get("version"))


def flash_micropython(dev, board, fw_dir=None, boards_dir=None, dry_run=False, log=print,
                      levels=None, extra_files=None):
    board_data, _ = load_board(board, boards_dir)
    refuse_board_on_port(board, board_data["runtime"], dev.port, boards_dir)
    info = dev.info()
    check_device(info, boards_dir)
    log("device %s: MicroPython %s, .mpy v%d.%d, %d KB flash free"
        % (dev.port, info["version"], *decode_mpy(info["mpy"]), (info["fs_free"] or 0) // 1024))
    packs = level_files(levels)
    files = build_files(fw_dir or FIRMWARE_DIR, board, boards_dir, info["mpy"])
    files.update(packs)            # after the manifest: packs are not firmware
    if extra_files is not None:
        files.update(extra_files(packs, log))   # the games' flash hooks (data, like packs)
    if not dry_run:
        finish_pending(dev, log)
        info = dev.info()
    rom = romfs.prepare(dev, files, log)     # None without a ROMFS partition
    if rom is not None:
        files = rom.fs_files
    plan = make_plan(dev, files, info)
    if rom is not None:
        plan.delete = sorted(set(plan.delete) | rom.shadowing(dev, files))
    for line in plan.lines(files):
        log(line)
    if rom is not None:
        log(rom.line())
    if dry_run:
        log("dry run: nothing was written")
        return plan
    if rom is not None:
        rom.deploy(dev, log)       # first: the staged switch then removes what would shadow it
    deploy(dev, files, plan, log)
    log("flashed firmware %s" % plan.new_version)
    return plan
