"""The virtual CircuitPython Pico: CircuitPython 10.2.1 (third_party/circuitpython)
on the same emulated RP2040 as the MicroPython one (host_tools/emulation/vpico.py).

rp2040js' USB host serves only the serial console, so CIRCUITPY never mounts
as a drive.  Its files go in the way a maker's would, but on the host: the FAT
filesystem CircuitPython formats at flash offset 1 MiB on its first boot is
copied out to a folder with Debian's mtools, ``flash`` deploys onto that
folder exactly as onto a mounted CIRCUITPY drive (the same staged switch,
boot.py, framebuf.py, board.json, manifest), and the folder goes back into
the FAT.  The display driver that ``flash`` installs with circup (which
downloads Adafruit's bundle) comes here from its pinned PyPI package, the
same source file.

``circuitpython_image(board)`` is a cached flash image with the firmware
deployed; ``cp_pico(board)`` starts a private copy of it.
"""

import hashlib
import importlib.util
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path

from host_tools.core.boards import BOARDS_DIR
from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.emulation import vpico

CIRCUITPY_OFFSET = 1 << 20          # raspberry_pi_pico: firmware below 1 MiB, CIRCUITPY above
CIRCUITPY_SIZE = 1 << 20
FORMAT_WITHIN_MS = 8000             # the first boot formats CIRCUITPY, then waits at the REPL prompt


class CircuitpyError(vpico.VPicoError):
    pass


def _mtools(*argv):
    """Run one mtools command (Debian's mtools: FAT images without mounting)."""
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1", MTOOLS_NO_VFAT="0")
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, env=env)
    except FileNotFoundError:
        raise CircuitpyError("%s not found: install Debian's mtools (apt-get install mtools); "
                             "the virtual CircuitPython Pico writes CIRCUITPY with it" % argv[0]) from None
    if proc.returncode:
        raise CircuitpyError("%s failed: %s" % (" ".join(argv[:2]), (proc.stderr or proc.stdout).strip()))
    return proc.stdout


@contextmanager
def drive_folder(image):
    """CIRCUITPY of the flash ``image`` as a folder (yielded); what the block leaves in
    the folder is written back into the image's FAT when it ends without error."""
    image = Path(image)
    flash = bytearray(image.read_bytes())
    with tempfile.TemporaryDirectory(prefix="circuitpy-") as tmp:
        part = Path(tmp) / "fat.img"
        part.write_bytes(flash[CIRCUITPY_OFFSET:CIRCUITPY_OFFSET + CIRCUITPY_SIZE])
        folder = Path(tmp) / "CIRCUITPY"
        folder.mkdir()
        names = _top_level(part)
        dirs = set(_dirs(part))
        if names:
            _mtools("mcopy", "-s", "-n", "-m", "-i", str(part), *("::/" + n for n in names), str(folder))
        yield folder
        for name in names:
            _mtools("mdeltree" if name in dirs else "mdel", "-i", str(part), "::/" + name)
        entries = sorted(p.name for p in folder.iterdir())
        if entries:
            _mtools("mcopy", "-s", "-m", "-i", str(part), *(str(folder / n) for n in entries), "::/")
        flash[CIRCUITPY_OFFSET:CIRCUITPY_OFFSET + CIRCUITPY_SIZE] = part.read_bytes()
        tmp_image = image.with_suffix(".tmp")
        tmp_image.write_bytes(flash)
        os.replace(tmp_image, image)


def _top_level(part):
    """Names in the FAT's root folder (long names, as CircuitPython shows them)."""
    out = _mtools("mdir", "-b", "-a", "-i", str(part), "::/")
    return [line.rstrip("/").split("/")[-1] for line in out.splitlines()
            if line.strip() and line.rstrip("/").split("/")[-1] not in (".", "..")]


def _dirs(part):
    """Names of the folders in the FAT's root folder."""
    out = _mtools("mdir", "-b", "-a", "-i", str(part), "::/")
    return [line.rstrip("/").split("/")[-1] for line in out.splitlines() if line.endswith("/")]


def install_libs_from_packages(drive, libs):
    """What circup installs into CIRCUITPY/lib, from the pinned PyPI packages of the
    same libraries (requirements.txt): each module's source file."""
    lib = Path(drive) / "lib"
    lib.mkdir(exist_ok=True)
    for name in libs:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.origin:
            raise CircuitpyError("the Adafruit library %s is not installed (make setup)" % name)
        shutil.copyfile(spec.origin, lib / (name + ".py"))


def blank_image(board="pico-cp-ssd1306"):
    """A cached flash image: CircuitPython after its first boot formatted CIRCUITPY."""
    vpico.CACHE_DIR.mkdir(parents=True, exist_ok=True)
    key = hashlib.sha256(vpico.CIRCUITPYTHON_UF2.read_bytes()).hexdigest()[:16]
    path = vpico.CACHE_DIR / ("cp-blank-%s.img" % key)
    if not path.exists():
        tmp = vpico.CACHE_DIR / ("cp-blank-%s.%d.img" % (key, os.getpid()))
        pico = vpico.VirtualPico(tmp, board=board)
        try:
            pico.start()
            pico.wait_serial(b"Press any key to enter the REPL", FORMAT_WITHIN_MS)
        finally:
            pico.close()
        os.replace(tmp, path)
    return path


def _firmware_version(board):
    """The version ``flash`` would give the firmware it puts on CIRCUITPY (a hash of
    every file it copies, board file included)."""
    from host_tools.core.build import MANIFEST, build_files, parse_manifest

    files = build_files(FIRMWARE_DIR, board, BOARDS_DIR, None, circuitpython=True)
    # + what else `flash` puts there by default (the Klotski tables, made from the firmware)
    return parse_manifest(files[MANIFEST])[0] + "+hook-files"


def _deploy(image, board, log):
    """``flash`` onto the CIRCUITPY of ``image``, as onto a mounted drive."""
    from host_tools.device import cpflash, flash

    with drive_folder(image) as drive:
        cpflash.flash_circuitpython(str(drive), board, log=log, install_libs=install_libs_from_packages,
                                    extra_files=flash.board_hook_files(board))


def circuitpython_image(board="pico-cp-ssd1306", log=None):
    """A cached flash image with the firmware deployed onto CIRCUITPY by ``flash``."""
    blank = blank_image(board)
    key = hashlib.sha256((blank.name + _firmware_version(board)).encode()).hexdigest()[:16]
    path = vpico.CACHE_DIR / ("cp-fw-%s.img" % key)
    if path.exists():
        return path
    work = vpico.CACHE_DIR / ("cp-fw.%d.img" % os.getpid())
    shutil.copyfile(blank, work)
    _deploy(work, board, log or (lambda line: None))
    os.replace(work, path)
    return path


def provision(image, board="pico-cp-ssd1306", log=print):
    """Make sure the flash ``image`` holds CircuitPython and the current firmware on
    its CIRCUITPY, deployed by ``flash`` as onto a mounted drive (only changed files
    are written, so saves stay); returns the image path."""
    image = Path(image)
    stamp = hashlib.sha256(vpico.CIRCUITPYTHON_UF2.read_bytes())
    stamp.update(_firmware_version(board).encode())
    stamp_path = Path(str(image) + ".stamp")
    if image.exists() and stamp_path.exists() and stamp_path.read_text() == stamp.hexdigest():
        return image
    image.parent.mkdir(parents=True, exist_ok=True)
    if not image.exists():
        shutil.copyfile(blank_image(board), image)
    log("vpico: flashing the firmware onto the virtual CircuitPython Pico's CIRCUITPY (%s) ..." % image)
    _deploy(image, board, lambda line: None)
    stamp_path.write_text(stamp.hexdigest())
    return image


@contextmanager
def cp_pico(board="pico-cp-ssd1306", oled_address="board", hold=(), code=None):
    """A started (paused) virtual CircuitPython Pico on a private copy of the image.
    ``code``: a program to run as code.py instead of the game (the game's own
    main.py stays importable as ``fwmain``), e.g. a benchmark."""
    image = circuitpython_image(board)
    with tempfile.TemporaryDirectory(prefix="vpcp-") as tmp:
        path = Path(tmp) / "flash.img"
        shutil.copyfile(image, path)
        if code is not None:
            with drive_folder(path) as drive:
                os.replace(drive / "code.py", drive / "fwmain.py")
                (drive / "code.py").write_text(code, encoding="utf-8")
        pico = vpico.VirtualPico(path, board=board, oled_address=oled_address)
        try:
            pico.start(hold=hold)
            yield pico
        finally:
            pico.close()
