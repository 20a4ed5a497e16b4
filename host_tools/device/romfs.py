"""``flash`` onto a MicroPython whose flash has a ROMFS partition (``/rom``;
third_party/rp2040-romfs, docs/romfs.md): the compiled modules go into one ROMFS
image there, and everything else stays on the littlefs.

Why: a ``.mpy`` imported from the littlefs is read into the heap, bytecode and
all; one imported from ``/rom`` runs its bytecode where it sits in flash (the
heap keeps the module's functions and names only).  Native and viper code is
still copied to RAM.

What goes where:

- ``/rom``: every ``.mpy`` of the build (``Rom.modules``), as one image made by
  mpremote's ROMFS writer (the same bytes as ``mpremote romfs build`` of a folder
  holding them).
- the littlefs: boot.py, main.py, boot_switch.py (a Pico runs those from ``/``),
  board.json, data files, level packs, the games' extra files (Klotski's
  tables), saves; and ``fw_manifest.txt``, which keeps the build's version and
  gets a ``rom SHA256 BYTES`` line for the image (the lines of its littlefs files
  follow, so ``doctor`` checks those).
- deleted from the littlefs root: a ``X.mpy`` or ``X.py`` for any module of the
  image, since ``sys.path`` has ``''`` before ``/rom`` and it would shadow it.
  They are removed by the staged switch (host_tools/device/staging.py), after
  the image is in place.

Writing the image (``Rom.deploy``), after a soft reset (no game code, no timer,
runs from ``/rom`` meanwhile): ``/rom`` is unmounted, the blocks the image
needs are erased (the first one first), every block but the first is written,
then the first, which holds the ROMFS header.  Until that last write the
partition has no header, and the firmware mounts nothing at ``/rom``; so a cut
leaves either the new image or none.  Without an image the board runs the
modules still on its littlefs (a board that came from the stock firmware keeps
them until the switch), or stops at the first import (a board whose modules
were already in ``/rom``): either way the next ``flash`` sees that the
partition's bytes differ from the image and writes it again.  The hash
is taken on the device (``memoryview`` of the partition), so an unchanged image
is not written again.
"""

import binascii

from host_tools.core import UserError, plural
from host_tools.core.build import MANIFEST, SOURCE_ONLY, parse_manifest
from host_tools.device import devicefs
from host_tools.device.staging import files_present

ROM = "/rom"
PAGE = 256                      # the flash's program page
WRITE_SILENCE_S = 60            # erasing 64 blocks: ~3 s on a Pico, longer on the virtual one

_HASH_CODE = """
import vfs, hashlib
print(repr(hashlib.sha256(memoryview(vfs.rom_ioctl(2, 0))[:%d]).digest()))
"""

_ERASE_CODE = """
import vfs
try:
    vfs.umount('/rom')
except OSError:
    pass
_d = vfs.rom_ioctl(2, 0)
for _b in range(%d):
    _d.ioctl(6, _b)
from binascii import a2b_base64
print('erased')
"""

_WRITE_CODE = "_d.writeblocks(%d, a2b_base64(%r), 0)\nprint('ok')"


def image_of(modules):
    """The ROMFS image (bytes) holding ``modules`` ({name: bytes}) at its root."""
    from mpremote.romfs import VfsRomWriter

    writer = VfsRomWriter()
    for name in sorted(modules):
        writer.mkfile(name, modules[name])
    return writer.finalise()


def manifest_with_rom(manifest, fs_files, image):
    """``fw_manifest.txt`` for the littlefs: the build's version and board (the
    same version as a flash without ROMFS: the same modules), the image's line,
    then one line per littlefs file."""
    version, board, _ = parse_manifest(manifest)
    lines = ["version %s" % version, "board %s" % board,
             "rom %s %d" % (devicefs.sha256_hex(image), len(image))]
    lines += ["file %s %s" % (devicefs.sha256_hex(fs_files[n]), n) for n in sorted(fs_files)]
    return ("\n".join(lines) + "\n").encode()


class Rom:
    """The split of one build: ``modules`` for ``/rom``, ``fs_files`` for the littlefs
    (manifest included), the ``image``, and what the device's partition holds."""

    def __init__(self, files, size, block):
        self.modules = {n: d for n, d in files.items()
                        if n.endswith(".mpy") and "/" not in n and n not in SOURCE_ONLY}
        self.image = image_of(self.modules)
        self.fs_files = {n: d for n, d in files.items() if n not in self.modules and n != MANIFEST}
        self.fs_files[MANIFEST] = manifest_with_rom(files[MANIFEST], self.fs_files, self.image)
        self.size = size
        self.block = block
        self.same = False

    def fits(self):
        return len(self.image) <= self.size

    def check(self, dev):
        """Whether ``/rom`` already holds exactly this image (hashed on the device)."""
        got = _eval(dev, _HASH_CODE % len(self.image))
        self.same = got == binascii.unhexlify(devicefs.sha256_hex(self.image))
        return self.same

    def shadowing(self, dev, files):
        """Names on the littlefs root that would shadow a module of the image."""
        present = files_present(dev)
        found = set()
        for name in self.modules:
            for cand in (name, name[:-4] + ".py"):
                if cand not in files and cand not in SOURCE_ONLY and present(cand):
                    found.add(cand)
        return found

    def line(self):
        return "  romfs   %s, %d bytes -> %s (%d KB partition): %s" % (
            plural(len(self.modules), "module"), len(self.image), ROM, self.size // 1024,
            "unchanged" if self.same else "write")

    def deploy(self, dev, log=print):
        """Write the image (header last, see the module docstring), then check its hash."""
        if self.same:
            return
        block = self.block
        blocks = -(-len(self.image) // block)
        log("  writing the ROMFS image (%s of %d bytes)" % (plural(blocks, "block"), block))
        dev.soft_reset()
        if dev.run(_ERASE_CODE % blocks, WRITE_SILENCE_S).strip() != "erased":
            raise UserError("erasing the ROMFS partition failed; run flash again")
        for index in list(range(1, blocks)) + [0]:
            chunk = self.image[index * block:(index + 1) * block]
            # whole 256-byte pages (what the flash programs); 0xff leaves erased bytes as they are
            write_block(dev, index, chunk + b"\xff" * (-len(chunk) % PAGE))
        if not self.check(dev):
            raise UserError("the ROMFS image on the device differs from what was sent; run flash again")
        log("  verified the ROMFS image (%d bytes)" % len(self.image))


def write_block(dev, index, chunk):
    """One block of the image (a raw-REPL exchange; the last one is shorter)."""
    code = _WRITE_CODE % (index, binascii.b2a_base64(chunk, newline=False))
    if dev.run(code, WRITE_SILENCE_S).strip() != "ok":
        raise UserError("writing the ROMFS image failed at block %d; run flash again" % index)


def _eval(dev, code):
    import ast
    return ast.literal_eval(dev.run(code, WRITE_SILENCE_S).strip())


def prepare(dev, files, log=print):
    """A ``Rom`` for a device with a ROMFS partition that the image fits, else None
    (the files go to the littlefs as on stock firmware)."""
    size, block = dev.rom_partition()
    if not size:
        return None
    rom = Rom(files, size, block)
    if not rom.fits():
        log("the ROMFS image (%d KB) does not fit the %d KB partition: the modules go to the "
            "filesystem" % (len(rom.image) // 1024 + 1, size // 1024))
        return None
    rom.check(dev)
    return rom


def recorded_image(manifest):
    """(sha256 hex, bytes) of the image a manifest's ``rom`` line records, or None."""
    for line in manifest.decode(errors="replace").splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "rom" and parts[2].isdigit():
            return parts[1], int(parts[2])
    return None


def doctor_check(dev, manifest, log=print):
    """``doctor``'s ROMFS line; a problem (one phrase) when ``/rom`` lost the image
    ``flash`` wrote (a cut mid-write), else None.  Nothing without a partition."""
    size, _ = dev.rom_partition()
    if not size:
        return None
    recorded = recorded_image(manifest or b"")
    if recorded is None:
        log("romfs:        %d KB partition at %s, not used by the installed firmware" % (size // 1024, ROM))
        return None
    digest, length = recorded
    same = _eval(dev, _HASH_CODE % length) == binascii.unhexlify(digest)
    log("romfs:        %d KB partition at %s, image of %d bytes %s" % (
        size // 1024, ROM, length, "as flashed" if same else "DIFFERS from the one flashed"))
    return None if same else "the ROMFS image differs from the one flashed (run flash)"
