"""`flash` and `doctor`: put firmware/ on the handheld, recoverably.

MicroPython boards (over USB serial, through one DeviceTransport):
  1. read the device facts; refuse anything that is not MicroPython, and pick the
     mpy-cross whose .mpy version equals the device's ``sys.implementation._mpy``;
  2. build the file set (host_tools/core/build.py): firmware modules compiled to
     .mpy (boot.py, main.py and boot_switch.py stay source), ``board.json`` from
     boards/NAME.json, and ``fw_manifest.txt`` (firmware version + one hash per file);
  3. hash every target file *on the device*; only files whose hash differs are sent;
  4. check the free space for staging, upload to /.stage, verify staged hashes;
  5. commit (journal written then renamed into place), switch (boot_switch.finish),
     verify the live hashes, reset.
A cut before the commit leaves the old firmware (the boot step drops /.stage); a
cut after it is finished by the boot step (firmware/boot_switch.py) at the next
boot, or by the next ``flash``.

Level packs (``--levels FILE|DIR``): each pack is checked as ``levels check``
does (core.levelcheck.level_checker: the game's parser and screen limits) and goes to
``/levels/<game>.bin`` through the same staged switch.  Packs are data, not
firmware: they are not in the manifest, so a later flash without ``--levels``
leaves ``/levels`` as it is.

A game's extra files: a game whose registry entry has a "flash" hook
(host_tools/core/registry.py) adds its own flags and files, e.g. Klotski's
``--klotski-tables`` (host_tools/games/klotski_hook.py); they go through the
same staged switch and, like packs, are data kept by later flashes.

CircuitPython boards (board files with "runtime": "circuitpython"): a mounted
CIRCUITPY drive gets the same tree as source (main.py as code.py), through the
same staged switch, and circup installs the board's displayio driver.  The board
file's runtime picks the path: a MicroPython board file is refused on a drive and
a CircuitPython one over a serial port, before anything is written.
"""

import contextlib
import glob
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import boot_switch
from host_tools.core import UserError, plural, registry
from host_tools.core.boards import boards_for_runtime, load_board
from host_tools.core.build import BOARD_FILE, MANIFEST, SOURCE_ONLY, build_files, decode_mpy, parse_manifest
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.device import devicefs
from strictjson import loads as json_loads

SAVE_DIR = "/saves"
LEVELS_DIR = "levels"                                   # /levels/<game>.bin on the device
FIRST = ("boot_switch.py", "boot.py")                   # switched in first
RUNTIME_NAMES = {"micropython": "MicroPython", "circuitpython": "CircuitPython",
                 "blinka": "Blinka"}
# boards with "runtime": "circuitpython" (firmware/hw_circuitpython.py): displayio drivers
DISPLAYIO_LIBS = {"ssd1306": "adafruit_displayio_ssd1306", "sh1106": "adafruit_displayio_sh1106"}

# Test seams: tests replace these with fakes.
list_ports = devicefs.list_device_ports
open_transport = devicefs.MpremoteTransport


# ---------------------------------------------------------------------------
# Board checks and level packs

def _board_choice(runtime, boards_dir=None):
    """The board files an error should suggest, as "a CircuitPython board file (a, b)"."""
    names = boards_for_runtime(runtime, boards_dir)
    return "a %s board file (%s)" % (RUNTIME_NAMES[runtime],
                                     ", ".join(names) or "none in boards/")


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
                       _board_choice("circuitpython", boards_dir), other))


def refuse_board_on_port(board, runtime, port, boards_dir=None):
    """A serial port only takes MicroPython board files: CircuitPython's firmware goes
    through its drive, with its own boot.py and libraries."""
    if runtime == "micropython":
        return
    raise UserError("board %s is a %s board: it cannot be flashed over the serial port %s; "
                    "flash it through its CIRCUITPY drive (found when mounted, or --drive "
                    "PATH), or choose %s with --board"
                    % (board, RUNTIME_NAMES.get(runtime, runtime), port,
                       _board_choice("micropython", boards_dir)))


def level_files(paths):
    """{"levels/<game>.bin": bytes} for the packs given to --levels (files, or
    folders whose *.bin files are taken); each pack validated as the device does."""
    import io

    import levelpack
    from host_tools.core.levelcheck import level_checker

    packs = []
    for p in paths or ():
        p = Path(p)
        if p.is_dir():
            found = sorted(p.glob("*.bin"))
            if not found:
                raise UserError("--levels %s: no level pack (*.bin) in that folder" % p)
            packs.extend(found)
        elif p.is_file():
            packs.append(p)
        else:
            raise UserError("--levels %s: no such file or folder" % p)
    out = {}
    origin = {}
    for p in packs:
        data = p.read_bytes()
        try:
            pack = levelpack.LevelPack(io.BytesIO(data))
            check = level_checker(pack.game)
            if check is not None:
                pack.check_levels(check)
        except levelpack.LevelPackError as exc:
            raise UserError("--levels %s: bad level pack: %s" % (p, exc)) from None
        name = "%s/%s.bin" % (LEVELS_DIR, pack.game)
        if name in out:
            raise UserError("--levels: %s and %s both hold %s levels; the device takes one "
                            "pack per game (/%s)" % (origin[name], p, pack.game, name))
        out[name] = data
        origin[name] = p
    return out


# ---------------------------------------------------------------------------
# Plan and deploy on a MicroPython device

class Plan:
    def __init__(self):
        self.send = []        # names to upload (hash differs or absent)
        self.same = []        # names already right
        self.delete = []      # live names the new firmware no longer has
        self.need = 0         # bytes of free space staging needs
        self.free = 0
        self.pending = None   # result of finishing an interrupted switch first
        self.old_version = None
        self.new_version = None

    def lines(self, files):
        out = ["firmware %s -> %s" % (self.old_version or "none", self.new_version)]
        for name in self.send:
            out.append("  send    %-22s %6d bytes" % (name, len(files[name])))
        for name in self.delete:
            out.append("  delete  %s" % name)
        out.append("  %s unchanged; staging needs %d KB, %d KB free"
                   % (plural(len(self.same), "file"), self.need // 1024, self.free // 1024))
        return out


def _blocks(size, block):
    return max(1, -(-size // block)) * block


def check_device(info, boards_dir=None):
    impl = info.get("implementation")
    if impl == "circuitpython":
        raise UserError("this board runs CircuitPython: mount its CIRCUITPY drive and flash "
                        "%s with --board" % _board_choice("circuitpython", boards_dir))
    if impl != "micropython":
        raise UserError("the device runs %r, not MicroPython" % impl)
    if info.get("mpy") is None:
        raise UserError("the device's MicroPython %s is too old (no sys.implementation._mpy): run "
                        "flash again with --update-micropython to install the release this project "
                        "ships (files and saves stay)" % info.get("version"))


def files_present(dev):
    """``present(name)``: whether the device has ``/name``, the root listed in one
    exchange instead of an exists() per name (a name in a folder still asks)."""
    at_root = set(dev.listdir("/"))

    def present(name):
        return name in at_root if "/" not in name else dev.exists("/" + name)
    return present


def make_plan(dev, files, info):
    plan = Plan()
    block = info.get("fs_block") or 4096
    old = dev.read("/" + MANIFEST) if dev.exists("/" + MANIFEST) else b""
    plan.old_version, _, old_names = parse_manifest(old)
    plan.new_version = parse_manifest(files[MANIFEST])[0]
    names = sorted(files, key=_switch_order)
    for name, digest in zip(names, dev.sha256_many(["/" + n for n in names])):
        if digest == devicefs.sha256_hex(files[name]):
            plan.same.append(name)
        else:
            plan.send.append(name)
    present = files_present(dev)
    stale = set(n for n in old_names if n not in files)
    for name in files:  # a module that changed form: X.py would shadow X.mpy
        for a, b in ((".mpy", ".py"), (".py", ".mpy")):
            if name.endswith(a):
                other = name[: -len(a)] + b
                if other not in files and other not in SOURCE_ONLY and present(other):
                    stale.add(other)
    plan.delete = sorted(n for n in stale if present(n))
    plan.need = sum(_blocks(len(files[n]), block) for n in plan.send) + 3 * block
    plan.free = info.get("fs_free") or 0
    return plan


def _switch_order(name):
    if name in FIRST:
        return (0, FIRST.index(name), name)
    if name == MANIFEST:
        return (2, 0, name)
    return (1, 0, name)


def _discard_stage(dev):
    try:
        boot_switch.run(dev)
    except OSError:
        pass


def deploy(dev, files, plan, log=print):
    """Upload, verify, commit, switch, verify, reset.  Leaves the device with the
    old firmware on any UserError raised before the commit."""
    if not plan.send and not plan.delete:
        log("device already has firmware %s; nothing to send" % plan.new_version)
        dev.reset()
        return
    if plan.need > plan.free:
        raise UserError("not enough room on the device: staging needs %d KB but only %d KB "
                        "are free (delete old files or saves)" % (plan.need // 1024, plan.free // 1024))
    stage = boot_switch.STAGE
    if dev.exists(stage):
        _discard_stage(dev)
    try:
        dev.mkdir(stage)
        for name in plan.send:
            log("  send %s (%s)" % (name, plural(len(files[name]), "byte")))
            dev.write(boot_switch.staged(name), files[name])
        got = dev.sha256_many([boot_switch.staged(name) for name in plan.send])
        for name, digest in zip(plan.send, got):
            if digest != devicefs.sha256_hex(files[name]):
                raise UserError("%s arrived damaged on the device (hash differs); nothing "
                                "was changed, try again" % name)
        for folder in sorted(set("/" + n.rsplit("/", 1)[0] for n in plan.send if "/" in n)):
            if not dev.exists(folder):       # an empty folder is harmless to the old firmware
                dev.mkdir(folder)
        steps = [("M", n) for n in plan.send] + [("D", n) for n in plan.delete]
        dev.write(boot_switch.JOURNAL_TMP, boot_switch.format_journal(steps))
    except OSError as exc:
        _discard_stage(dev)
        if exc.errno == devicefs.ENOSPC:
            raise UserError("the device's filesystem is full: staging the new firmware "
                            "failed; nothing was changed (free some space)") from None
        raise UserError("writing to the device failed (%s); nothing was changed" % exc) from None
    except UserError:
        _discard_stage(dev)
        raise
    dev.rename(boot_switch.JOURNAL_TMP, boot_switch.JOURNAL)  # commit point
    log("  switching %s into place" % plural(len(plan.send), "file"))
    if dev.switch_on_board() is None:
        boot_switch.run(dev)
    got = dev.sha256_many(["/" + n for n in plan.send])
    bad = [n for n, digest in zip(plan.send, got) if digest != devicefs.sha256_hex(files[n])]
    if bad:
        raise UserError("after the switch %s differ(s) from what was sent; run flash again"
                        % ", ".join(bad))
    log("  verified %s; resetting" % plural(len(plan.send), "file"))
    dev.reset()


# ---------------------------------------------------------------------------
# Connecting

def connect(port=None):
    if port is None:
        ports = list_ports()
        if not ports:
            raise UserError("no device found: plug the handheld in over USB (or give --port); a new "
                            "Pico: hold BOOTSEL while plugging it in, and flash installs MicroPython")
        if len(ports) > 1:
            raise UserError("several devices found (%s): choose one with --port"
                            % ", ".join(p for p, _ in ports))
        port = ports[0][0]
    try:
        return open_transport(port)
    except devicefs.DeviceError as exc:
        raise UserError(str(exc)) from None


def finish_pending(dev, log=print):
    """Complete a switch an earlier flash left half-done (before anything else)."""
    if dev.exists(boot_switch.JOURNAL) or dev.exists(boot_switch.STAGE) \
            or dev.exists(boot_switch.JOURNAL_TMP):
        result = boot_switch.run(dev)
        log("an interrupted flash was %s" % ("completed" if result == "finished" else "cleaned up"))
        return result
    return None


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
    plan = make_plan(dev, files, info)
    for line in plan.lines(files):
        log(line)
    if dry_run:
        log("dry run: nothing was written")
        return plan
    deploy(dev, files, plan, log)
    log("flashed firmware %s" % plan.new_version)
    return plan


# ---------------------------------------------------------------------------
# CircuitPython

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


# ---------------------------------------------------------------------------
# doctor

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
    if dev.exists("/" + MANIFEST):
        version, board_name, names = parse_manifest(dev.read("/" + MANIFEST))
        present = files_present(dev)
        missing = [n for n in names if not present(n)]
        log("firmware:     %s for %s, %d files%s" % (
            version, board_name, len(names), (", MISSING " + ", ".join(missing)) if missing else ""))
        if missing:
            problems.append("firmware files missing")
    else:
        log("firmware:     none installed by flash")
        problems.append("no firmware (run flash)")
    if dev.exists(boot_switch.JOURNAL) or dev.exists(boot_switch.STAGE):
        log("switch:       an interrupted flash is pending (it finishes at the next boot)")
    saves = []
    if dev.isdir(SAVE_DIR):
        saves = [SAVE_DIR + "/" + n for n in dev.listdir(SAVE_DIR)]
    saves += ["/" + n for n in dev.listdir("/") if n.endswith(".sav")]
    log("saves:        %s" % (", ".join(saves) if saves else "none"))
    log("status:       %s" % ("OK" if not problems else "; ".join(problems)))
    return problems


# ---------------------------------------------------------------------------
# CLI

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


def cmd_flash(args):
    # Check what needs no device first, so a typo is named before "no device found".
    board_data, _ = load_board(args.board)
    runtime = board_data["runtime"]
    if runtime == "blinka":
        raise UserError("board %s runs under Blinka on a Raspberry Pi: nothing to flash; on the Pi "
                        "run `python -m host_tools run --board %s` (docs/circuitpython.md)"
                        % (args.board, args.board))
    if args.drive is not None:
        refuse_board_on_drive(args.board, runtime, args.drive)
    if args.port is not None:
        refuse_board_on_port(args.board, runtime, args.port)
    level_files(args.levels)
    drive = args.drive
    if drive is None and args.port is None:
        drives = find_circuitpy_drives()
        if len(drives) > 1:
            raise UserError("several CIRCUITPY drives mounted (%s): choose one with --drive"
                            % ", ".join(drives))
        if drives:
            drive = drives[0]
            refuse_board_on_drive(args.board, runtime, drive, found=True)
    if drive is not None:
        flash_circuitpython(drive, args.board, dry_run=args.dry_run, levels=args.levels,
                            extra_files=_hook_files(args))
        return 0
    if runtime == "circuitpython":
        raise UserError("board %s runs CircuitPython: no CIRCUITPY drive is mounted (plug the "
                        "Pico in holding B, or give --drive PATH)" % args.board)
    port = args.port
    if port is None and (args.uf2_drive or not list_ports()):
        from host_tools.device import bootsel
        port = bootsel.install(args.uf2_drive, args.micropython_uf2)
    if args.update_micropython and not args.dry_run:
        port = update_micropython(port, args.uf2_drive, args.micropython_uf2)
    dev = connect(port)
    try:
        with stops_answering(dev.port):
            flash_micropython(dev, args.board, dry_run=args.dry_run, levels=args.levels,
                              extra_files=_hook_files(args))
    finally:
        dev.close()
    if args.dry_run:
        return 0
    started = time.monotonic()
    if not wait_for_board(dev.port, BACK_WITHIN_S):
        raise UserError("flashed, but %s did not answer within %d s after its reset: press the "
                        "handheld's reset button or replug its USB cable, then run doctor"
                        % (dev.port, BACK_WITHIN_S))
    print("the handheld answers again after its reset (%.1f s) and starts its game"
          % (time.monotonic() - started))
    return 0


def update_micropython(port, drive=None, uf2=None, log=print):
    """Reinstall MicroPython on a board that runs it: reboot it into BOOTSEL mode
    (machine.bootloader()), copy the UF2 (the shipped one, or ``uf2``) to its
    drive and return the serial port it comes back on.  The UF2 covers only the
    firmware's part of the flash, so the filesystem, saves included, stays."""
    from host_tools.device import bootsel
    bootsel.check_uf2(Path(uf2) if uf2 else bootsel.SHIPPED_UF2)   # refused before the board reboots
    dev = connect(port)
    with stops_answering(dev.port):
        info = dev.info()
    log("%s runs MicroPython %s: rebooting it into BOOTSEL mode to install %s (files and saves stay)"
        % (dev.port, info["version"], uf2 or ("MicroPython " + bootsel.SHIPPED_RELEASE)))
    dev.reboot_to_bootsel()
    return bootsel.install(bootsel.wait_for_drive(drive), uf2, log)


BACK_WITHIN_S = 60          # a Pico re-enumerates within seconds of a reset; an emulated one under load takes longer
RESET_SETTLE_S = 1.0        # before the first knock: a Ctrl-C sent while it resets can stop the reset


def wait_for_board(port, within):
    """After a reset: wait until the board on ``port`` answers again (its USB port
    is back and it enters the raw REPL), then send it back to its game.  True if
    it answered within ``within`` s."""
    deadline = time.monotonic() + within
    time.sleep(RESET_SETTLE_S)
    while True:
        try:
            dev = open_transport(port)
        except devicefs.DeviceError:
            dev = None
        if dev is not None:
            if dev.has_reset():
                dev.restart()
                return True
            dev.reset()                 # the reset did not happen (a Ctrl-C can stop it): again
            dev.close()
            time.sleep(RESET_SETTLE_S)
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.5)


@contextlib.contextmanager
def stops_answering(port):
    """A board that stops answering midway (mpremote's deadline passed, the cable was
    pulled) ends the command with one line, not a traceback."""
    from mpremote.transport import TransportError
    from serial import SerialException
    try:
        yield
    except (TransportError, SerialException, devicefs.DeviceError) as exc:
        raise UserError("%s stopped answering (%s): press the handheld's reset button or replug "
                        "its USB cable and run the command again (an interrupted flash is "
                        "finished or undone at the next boot)"
                        % (port, str(exc).strip().splitlines()[-1] if str(exc).strip() else
                           exc.__class__.__name__)) from None


def cmd_doctor(args):
    dev = connect(args.port)
    try:
        with stops_answering(dev.port):
            problems = doctor(dev)
    finally:
        dev.close()
    return 1 if problems else 0


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
    p.add_argument("--levels", action="append", metavar="FILE|DIR",
                   help="a level pack (or a folder of *.bin packs) to put in /levels/<game>.bin; "
                        "repeatable")
    for hook in registry.flash_hooks():
        hook.add_flash_options(p)
    p.set_defaults(func=cmd_flash)
    d = subparsers.add_parser("doctor", help="check the connected handheld")
    d.add_argument("--port", help="serial port (default: the one connected board)")
    d.set_defaults(func=cmd_doctor)
