"""UF2 files (what a Pico in BOOTSEL mode takes): 512-byte blocks, each with two
magic words, flags, a target address, a payload size and a chip family.  Read by
the virtual Pico (to load an image) and by the BOOTSEL installer (to check one
before copying it); each words its own errors."""

import struct

from host_tools.core.fwpath import ROOT

BLOCK = 512
MAGIC = (0x0A324655, 0x9E5D5157)
FLAG_NOT_MAIN_FLASH = 0x0001
FLAG_FAMILY_ID = 0x2000
FAMILY_RP2040 = 0xE48BFF56
OTHER_FAMILIES = {0xE48BFF59: "RP2350 (ARM)", 0xE48BFF5A: "RP2350 (RISC-V)",
                  0xE48BFF5B: "RP2350 (ARM, non-secure)"}

# MicroPython v1.28.0 for RPI_PICO and the RP2040 bootrom (provenance, licences,
# SHA256SUMS in its README): the virtual Pico boots it, `flash` installs it
RP2040_BUNDLE = ROOT / "third_party" / "rp2040"
# the same release built with a 256 KiB ROMFS partition at /rom (docs/romfs.md): opt-in,
# `flash --romfs` installs it, `vpico --romfs` boots it
ROMFS_BUNDLE = ROOT / "third_party" / "rp2040-romfs"
CIRCUITPYTHON_BUNDLE = ROOT / "third_party" / "circuitpython"


class UF2Error(ValueError):
    """Not a UF2: ``offset`` is the bad block's byte offset, None for a size that
    is not a whole number of blocks."""

    def __init__(self, offset=None):
        super().__init__("bad UF2 block at byte %d" % offset if offset is not None else "truncated UF2")
        self.offset = offset


def blocks(data):
    """(byte offset, flags, address, payload size, family, payload) of each block;
    UF2Error for a wrong size or a block without the magic words."""
    if not data or len(data) % BLOCK:
        raise UF2Error()
    for off in range(0, len(data), BLOCK):
        magic0, magic1, flags, addr, size, _, _, family = struct.unpack_from("<8I", data, off)
        if (magic0, magic1) != MAGIC:
            raise UF2Error(off)
        yield off, flags, addr, size, family, data[off + 32:off + 32 + min(size, 476)]


def recorded_sha256(name, bundle=RP2040_BUNDLE):
    """The sha256 SHA256SUMS records for a file of the RP2040 bundle (or of
    ``bundle``, e.g. ROMFS_BUNDLE), or None."""
    for line in (bundle / "SHA256SUMS").read_text().splitlines():
        digest, _, file = line.partition("  ")
        if file.strip() == name:
            return digest
    return None
