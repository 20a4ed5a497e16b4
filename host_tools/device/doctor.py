"""``doctor``: what the connected handheld runs and whether it is ready: the
MicroPython (or CircuitPython) release, free heap and flash, the board file,
the display on the board file's I2C bus (worded by the firmware's own
displaycheck), the firmware ``flash`` installed and any file of it missing, the
ROMFS image at /rom where the firmware has a partition, a pending switch, the
saves.  Exit code 1 when something is wrong.
"""

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import boot_switch
from host_tools.core.build import BOARD_FILE, MANIFEST, decode_mpy, parse_manifest
from host_tools.device import devicefs, romfs, usbserial
from host_tools.device.staging import files_present
from strictjson import loads as json_loads

SAVE_DIR = "/saves"


def check_display(dev, board, problems, log=print):
    """Scan the board file's I2C bus on the device (the default board when there
    is none, as the firmware does); a missing display is worded by the
    firmware's own displaycheck.verdict, as on the serial console."""
    import boardcfg
    import displaycheck

    if board is None:
        board = boardcfg.DEFAULT
    try:
        cfg = boardcfg.validate(board)
    except (boardcfg.BoardError, TypeError, AttributeError):
        log("display:      not checked (the board file is not valid)")
        return
    if cfg["runtime"] != "micropython":
        log("display:      not checked (a %s board)" % cfg["runtime"])
        return
    bus = cfg["i2c"]
    try:
        found = dev.scan_i2c(bus["bus"], bus["sda"], bus["scl"], bus["freq"], bus["address"])
    except devicefs.DeviceError as exc:
        log("display:      not checked (%s)" % exc)
        return
    if bus["address"] in found:
        log("display:      %s at 0x%02X on %s answers" % (
            cfg["display"]["controller"].upper(), bus["address"], displaycheck.bus_text(cfg)))
        return
    line = displaycheck.verdict(cfg, found)
    log("display:      " + line)
    problems.append(line)


def _shipped_note(info):
    """Whether the board runs the MicroPython release that ships with the project."""
    from host_tools.device.bootsel import SHIPPED_RELEASE
    if info["implementation"] != "micropython":
        return ""
    if info["version"] == SHIPPED_RELEASE:
        return " (the release this project ships)"
    return (" (this project ships %s: `flash --update-micropython` installs it, files and saves stay)"
            % SHIPPED_RELEASE)


def doctor(dev, log=print):
    info = dev.info()
    problems = []
    log("port:         %s" % dev.port)
    impl = {"micropython": "MicroPython", "circuitpython": "CircuitPython"}.get(
        info["implementation"], info["implementation"])
    log("runs:         %s %s on %s%s" % (impl, info["version"], info["machine"], _shipped_note(info)))
    if info["mpy"] is not None:
        log(".mpy version: v%d.%d" % decode_mpy(info["mpy"]))
    log("free heap:    %d KB" % (info["mem_free"] // 1024))
    log("flash:        %d KB free of %d KB" % (info["fs_free"] // 1024, info["fs_total"] // 1024))
    if info["implementation"] not in ("micropython", "circuitpython"):
        problems.append("neither MicroPython nor CircuitPython")
    board = None
    if dev.exists("/" + BOARD_FILE):
        try:
            board = json_loads(dev.read("/" + BOARD_FILE))
            if not isinstance(board, dict):
                raise ValueError("not an object")
            log("board file:   %s (%s)" % (BOARD_FILE, board.get("name") or board.get("board") or "unnamed"))
        except ValueError:
            log("board file:   %s is not valid JSON" % BOARD_FILE)
            problems.append("bad board file")
    else:
        log("board file:   missing")
        problems.append("no board file (run flash)")
    runtime = (board or {}).get("runtime", "micropython")
    if board is not None and runtime in ("micropython", "circuitpython") and runtime != info["implementation"]:
        log("board file:   is for %s, the board runs %s" % (runtime, info["implementation"]))
        problems.append("board file for %s (flash the matching board file)" % runtime)
    if info["implementation"] == "micropython":
        check_display(dev, board, problems, log)
    else:
        log("display:      not scanned from here on CircuitPython (code.py prints a missing "
            "display on the console)")
    manifest = dev.read("/" + MANIFEST) if dev.exists("/" + MANIFEST) else None
    if manifest is not None:
        version, board_name, names = parse_manifest(manifest)
        present = files_present(dev)
        missing = [n for n in names if not present(n)]
        log("firmware:     %s for %s, %d files%s" % (
            version, board_name, len(names), (", MISSING " + ", ".join(missing)) if missing else ""))
        if missing:
            problems.append("firmware files missing")
    else:
        log("firmware:     none installed by flash")
        problems.append("no firmware (run flash)")
    rom_problem = romfs.doctor_check(dev, manifest, log)     # a MicroPython with a ROMFS partition
    if rom_problem:
        problems.append(rom_problem)
    if dev.exists(boot_switch.JOURNAL) or dev.exists(boot_switch.STAGE):
        log("switch:       an interrupted flash is pending (it finishes at the next boot)")
    saves = []
    if dev.isdir(SAVE_DIR):
        saves = [SAVE_DIR + "/" + n for n in dev.listdir(SAVE_DIR)]
    saves += ["/" + n for n in dev.listdir("/") if n.endswith(".sav")]
    log("saves:        %s" % (", ".join(saves) if saves else "none"))
    log("status:       %s" % ("OK" if not problems else "; ".join(problems)))
    return problems


def cmd_doctor(args):
    dev = usbserial.connect(args.port)
    try:
        with usbserial.stops_answering(dev.port):
            problems = doctor(dev)
    finally:
        dev.close()
    return 1 if problems else 0


def register(subparsers):
    d = subparsers.add_parser("doctor", help="check the connected handheld")
    d.add_argument("--port", help="serial port (default: the one connected board)")
    d.set_defaults(func=cmd_doctor)
