"""``flash`` onto a MicroPython with a ROMFS partition (host_tools/device/romfs.py)
against a fake device whose partition behaves as flash (erase to 0xff, program
clears bits), the bundle in third_party/rp2040-romfs, and the options that
choose it.  The same on the emulated RP2040: tests/test_vpico_romfs.py."""

import ast
import binascii
import contextlib
import hashlib
import io
import re

import pytest

from clirun import run_cli
from host_tools.core import UserError, uf2
from host_tools.core.build import MANIFEST, make_manifest, parse_manifest
from host_tools.device import bootsel, mpflash, romfs
from host_tools.emulation.fakedevice import FakeDevice, PowerCut

BUNDLE = uf2.ROMFS_BUNDLE
PARTITION = 256 * 1024
BLOCK = 4096


class RomDevice(FakeDevice):
    """A FakeDevice with a ROMFS partition; ``cut_writes``: the power goes after
    that many block writes (PowerCut)."""

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.rom = bytearray(b"\xff" * PARTITION)
        self.written = []
        self.cut_writes = None
        self.soft_resets = 0

    def rom_partition(self):
        return (PARTITION, BLOCK)

    def soft_reset(self):
        self.soft_resets += 1

    def run(self, code, silence_s):
        n = re.search(r"memoryview\(vfs.rom_ioctl\(2, 0\)\)\[:(\d+)\]", code)
        if n:
            return repr(hashlib.sha256(bytes(self.rom[:int(n.group(1))])).digest())
        n = re.search(r"for _b in range\((\d+)\):\n    _d.ioctl\(6, _b\)", code)
        if n:
            for b in range(int(n.group(1))):
                self.rom[b * BLOCK:(b + 1) * BLOCK] = b"\xff" * BLOCK
            return "erased\n"
        n = re.match(r"_d.writeblocks\((\d+), a2b_base64\((b'[^']*')\), 0\)", code)
        assert n, code
        if self.cut_writes is not None and len(self.written) >= self.cut_writes:
            raise PowerCut()
        index, data = int(n.group(1)), binascii.a2b_base64(ast.literal_eval(n.group(2)))
        at = index * BLOCK
        self.rom[at:at + len(data)] = bytes(a & b for a, b in zip(self.rom[at:at + len(data)], data))
        self.written.append(index)
        return "ok\n"


def quiet(line):
    pass


def files_of(modules=("a.mpy", "b.mpy")):
    files = {"boot.py": b"import boot_switch\n", "main.py": b"import a\n", "boot_switch.py": b"x = 1\n",
             "board.json": b"{}", "levels/klotski.bin": b"pack"}
    files.update({name: name.encode() * 3000 for name in modules})
    files[MANIFEST] = make_manifest(files, "pico-ssd1306")
    return files


def test_the_bundle_matches_its_sha256_and_its_readme():
    sums = dict(reversed(line.split()) for line in (BUNDLE / "SHA256SUMS").read_text().splitlines())
    shipped = {str(p.relative_to(BUNDLE)) for p in BUNDLE.rglob("*") if p.is_file()
               and p.name not in ("SHA256SUMS", "README.md") and not p.name.startswith("LICENSE")}
    assert set(sums) == shipped
    readme = (BUNDLE / "README.md").read_text()
    for name, digest in sums.items():
        assert hashlib.sha256((BUNDLE / name).read_bytes()).hexdigest() == digest, name
        assert "`%s`" % digest in readme, name
    assert uf2.recorded_sha256("firmware.uf2", BUNDLE) == sums["firmware.uf2"]
    image = (BUNDLE / "firmware.bin").read_bytes()
    assert b"RPI_PICO_ROMFS" in image and len(image) <= 0x60000       # below the partition


def test_a_tampered_romfs_uf2_is_refused(tmp_path, monkeypatch):
    assert bootsel.check_uf2(bootsel.ROMFS_UF2) == bootsel.ROMFS_UF2.read_bytes()
    raw = bytearray(bootsel.ROMFS_UF2.read_bytes())
    raw[1000] ^= 1
    tampered = tmp_path / "firmware.uf2"
    tampered.write_bytes(raw)
    monkeypatch.setattr(bootsel, "ROMFS_UF2", tampered)
    with pytest.raises(UserError, match="rp2040-romfs/SHA256SUMS"):
        bootsel.check_uf2(tampered)


def test_the_image_is_what_mpremote_romfs_build_makes_of_the_modules(tmp_path):
    from mpremote.romfs import make_romfs

    files = files_of()
    rom = romfs.Rom(files, PARTITION, BLOCK)
    for name, data in rom.modules.items():
        (tmp_path / name).write_bytes(data)
    with contextlib.redirect_stdout(io.StringIO()):
        assert rom.image == make_romfs(str(tmp_path), mpy_cross=False)


def test_modules_go_to_rom_the_rest_and_a_manifest_with_the_image_stay():
    files = files_of()
    rom = romfs.Rom(files, PARTITION, BLOCK)
    assert sorted(rom.modules) == ["a.mpy", "b.mpy"]
    assert sorted(rom.fs_files) == ["board.json", "boot.py", "boot_switch.py", MANIFEST, "levels/klotski.bin",
                                    "main.py"]
    version, board, names = parse_manifest(rom.fs_files[MANIFEST])
    assert (version, board) == parse_manifest(files[MANIFEST])[:2]   # the build's version
    assert sorted(names) == sorted(n for n in rom.fs_files if n != MANIFEST)
    assert ("rom %s %d" % (hashlib.sha256(rom.image).hexdigest(), len(rom.image))).encode() \
        in rom.fs_files[MANIFEST]


def test_flash_puts_the_modules_in_rom_and_removes_what_would_shadow_them():
    dev = RomDevice({"/klotski.py": b"old", "/launcher.mpy": b"old", "/saves/klotski.json": b"{}"})
    lines = []
    plan = mpflash.flash_micropython(dev, "pico-ssd1306", log=lines.append)
    rom = romfs.Rom(_build(), PARTITION, BLOCK)
    assert bytes(dev.rom[:len(rom.image)]) == rom.image
    assert dev.written[-1] == 0 and sorted(dev.written) == list(range(len(dev.written)))  # header last
    assert not [p for p in dev.files if p.endswith(".mpy")]
    assert "/klotski.py" not in dev.files and "/saves/klotski.json" in dev.files
    assert {"klotski.py", "launcher.mpy"} <= set(plan.delete)
    assert any(line.endswith(": write") and "-> /rom" in line for line in lines), lines
    lines.clear()
    mpflash.flash_micropython(dev, "pico-ssd1306", log=lines.append)    # again: nothing to write
    assert any(line.endswith(": unchanged") for line in lines) and dev.soft_resets == 1


def _build():
    """What ``flash --board pico-ssd1306`` builds for the fake device's MicroPython."""
    from host_tools.emulation.vpfirmware import firmware_files
    return firmware_files()


def test_a_cut_while_the_image_is_written_leaves_no_image_and_flash_writes_it_again():
    dev = RomDevice()
    dev.cut_writes = 5
    with pytest.raises(PowerCut):
        mpflash.flash_micropython(dev, "pico-ssd1306", log=quiet)
    assert bytes(dev.rom[:3]) == b"\xff\xff\xff"            # no ROMFS header: nothing mounts
    dev.cut_writes = None
    dev.written.clear()
    mpflash.flash_micropython(dev, "pico-ssd1306", log=quiet)
    rom = romfs.Rom(_build(), PARTITION, BLOCK)
    assert bytes(dev.rom[:len(rom.image)]) == rom.image and rom.image[:3] == b"\xd2\xcd\x31"


def test_an_image_larger_than_the_partition_leaves_the_modules_on_the_filesystem(monkeypatch):
    dev = RomDevice()
    monkeypatch.setattr(RomDevice, "rom_partition", lambda self: (8192, BLOCK))
    lines = []
    mpflash.flash_micropython(dev, "pico-ssd1306", log=lines.append)
    assert any("does not fit the 8 KB partition" in line for line in lines)
    assert "/launcher.mpy" in dev.files and not dev.written


def test_stock_micropython_keeps_the_modules_on_the_filesystem():
    dev = FakeDevice()
    mpflash.flash_micropython(dev, "pico-ssd1306", log=quiet)
    assert "/launcher.mpy" in dev.files and b"\nrom " not in dev.files["/" + MANIFEST]


@pytest.mark.parametrize("argv, message", [
    (["flash", "--romfs", "--micropython-uf2", "x.uf2", "--port", "/dev/null"], "--romfs installs"),
    (["vpico", "--romfs", "--firmware", "x.uf2", "--ticks", "1"], "--romfs boots"),
])
def test_romfs_options_that_contradict_are_one_line(capsys, argv, message):
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and err.count("\n") == 1 and message in err, err


def test_doctor_tells_an_image_that_differs_from_the_one_flashed():
    from host_tools.device import doctor

    dev = RomDevice()
    mpflash.flash_micropython(dev, "pico-ssd1306", log=quiet)
    lines = []
    assert doctor.doctor(dev, log=lines.append) == []
    assert any(line.startswith("romfs:") and line.endswith("as flashed") for line in lines), lines
    dev.rom[0:BLOCK] = b"\xff" * BLOCK                 # a cut before the header's write
    lines.clear()
    problems = doctor.doctor(dev, log=lines.append)
    assert problems == ["the ROMFS image differs from the one flashed (run flash)"], lines
