"""``flash``: put firmware/ on the handheld, recoverably.

The board file's runtime picks the way: a MicroPython board over USB serial
(host_tools/device/mpflash.py; a blank Pico in BOOTSEL mode gets MicroPython
first, and ``--update-micropython`` reinstalls it: host_tools/device/bootsel.py),
a CircuitPython board through its mounted CIRCUITPY drive
(host_tools/device/cpflash.py), nothing for a Blinka board.  Both go through
the same staged switch (host_tools/device/staging.py): a cut at any moment
leaves a device that boots the old firmware or the new one.

On a MicroPython with a ROMFS partition (``--romfs`` installs one) the modules
go into an image at /rom (host_tools/device/romfs.py).

Level packs (``--levels``) and a game's extra files go through the same switch
as data kept by later flashes: a game whose registry entry has a "flash" hook
(host_tools/core/registry.py) adds its own flags and files, e.g. Klotski's
``--klotski-tables`` (host_tools/games/klotski_hook.py).

Everything that needs no device (the board file, the packs, the runtime against
``--port``/``--drive``) is checked first, so a typo is named before "no device
found".
"""

import time

from host_tools.core import UserError, registry
from host_tools.core.boards import load_board
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.device import bootsel, cpflash, usbserial, mpflash
from host_tools.device.staging import level_files


def _hook_files(args):
    """The extra files the games' flash hooks add for the given flags, as
    ``extra_files(packs, log)`` for flash_micropython/flash_circuitpython."""
    hooks = registry.flash_hooks()

    def extra_files(packs, log):
        files = {}
        for hook in hooks:
            files.update(hook.flash_files(args, packs, log))
        return files
    return extra_files


def board_hook_files(board):
    """``_hook_files`` of a plain ``flash --board BOARD``: the extra files the games'
    flash hooks add by default for that board (the virtual CircuitPython Pico
    deploys through this, as a maker's ``flash`` would)."""
    import argparse

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return _hook_files(parser.parse_args(["flash", "--board", board]))


def cmd_flash(args):
    # Check what needs no device first, so a typo is named before "no device found".
    board_data, _ = load_board(args.board)
    runtime = board_data["runtime"]
    if runtime == "blinka":
        raise UserError("board %s runs under Blinka on a Raspberry Pi: nothing to flash; on the Pi "
                        "run `python -m host_tools run --board %s` (docs/circuitpython.md)"
                        % (args.board, args.board))
    if args.drive is not None:
        cpflash.refuse_board_on_drive(args.board, runtime, args.drive)
    if args.port is not None:
        mpflash.refuse_board_on_port(args.board, runtime, args.port)
    level_files(args.levels)
    drive = args.drive
    if drive is None and args.port is None:
        drives = cpflash.find_circuitpy_drives()
        if len(drives) > 1:
            raise UserError("several CIRCUITPY drives mounted (%s): choose one with --drive"
                            % ", ".join(drives))
        if drives:
            drive = drives[0]
            cpflash.refuse_board_on_drive(args.board, runtime, drive, found=True)
    if drive is not None:
        cpflash.flash_circuitpython(drive, args.board, FIRMWARE_DIR, dry_run=args.dry_run,
                                    levels=args.levels, extra_files=_hook_files(args))
        return 0
    if runtime == "circuitpython":
        raise UserError("board %s runs CircuitPython: no CIRCUITPY drive is mounted (plug the "
                        "Pico in holding B, or give --drive PATH)" % args.board)
    if args.romfs:
        if args.micropython_uf2:
            raise UserError("--romfs installs third_party/rp2040-romfs/firmware.uf2: give "
                            "either it or --micropython-uf2")
        args.micropython_uf2 = bootsel.ROMFS_UF2
    port = args.port
    installed = False
    if port is None and (args.uf2_drive or not usbserial.list_ports()):
        port = bootsel.install(args.uf2_drive, args.micropython_uf2)
        installed = port is not None
    # --romfs on a board that runs MicroPython: its MicroPython is replaced, as --update-micropython
    if (args.update_micropython or (args.romfs and not installed)) and not args.dry_run:
        port = bootsel.update_micropython(port, args.uf2_drive, args.micropython_uf2)
    dev = usbserial.connect(port)
    try:
        with usbserial.stops_answering(dev.port):
            mpflash.flash_micropython(dev, args.board, FIRMWARE_DIR, dry_run=args.dry_run,
                                      levels=args.levels, extra_files=_hook_files(args))
    finally:
        dev.close()
    if args.dry_run:
        return 0
    started = time.monotonic()
    if not usbserial.wait_for_board(dev.port, usbserial.BACK_WITHIN_S):
        raise UserError("flashed, but %s did not answer within %d s after its reset: press the "
                        "handheld's reset button or replug its USB cable, then run doctor"
                        % (dev.port, usbserial.BACK_WITHIN_S))
    print("the handheld answers again after its reset (%.1f s) and starts its game"
          % (time.monotonic() - started))
    return 0


def register(subparsers):
    p = subparsers.add_parser("flash", help="compile firmware/ and copy it to the handheld")
    p.add_argument("--board", default="pico-ssd1306", help="board file boards/NAME.json")
    p.add_argument("--port", help="serial port (default: the one connected board)")
    p.add_argument("--drive", help="a mounted CIRCUITPY drive (default: found automatically)")
    p.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    p.add_argument("--uf2-drive", metavar="PATH",
                   help="a Pico in BOOTSEL mode mounted at PATH (default: found where Linux, macOS "
                        "and Windows mount RPI-RP2): MicroPython is installed on it first")
    p.add_argument("--micropython-uf2", metavar="FILE",
                   help="install this official RP2040 MicroPython UF2 on a BOOTSEL board instead of "
                        "the one that ships with the project (third_party/rp2040)")
    p.add_argument("--update-micropython", action="store_true",
                   help="first reinstall MicroPython on the connected board (it reboots into BOOTSEL "
                        "mode and gets the shipped v1.28.0, or --micropython-uf2 FILE); files and "
                        "saves stay")
    p.add_argument("--romfs", action="store_true",
                   help="install MicroPython with a ROMFS partition first (third_party/rp2040-romfs; "
                        "tried in the emulator only, docs/romfs.md): the modules then run from "
                        "flash at /rom, leaving more heap; files and saves stay")
    p.add_argument("--levels", action="append", metavar="FILE|DIR",
                   help="a level pack (or a folder of *.bin packs) to put in /levels/<game>.bin; "
                        "repeatable")
    for hook in registry.flash_hooks():
        hook.add_flash_options(p)
    p.set_defaults(func=cmd_flash)
