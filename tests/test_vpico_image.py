"""Firmware images for the virtual Pico: the bundle in third_party/rp2040 is the
one its README describes, the official UF2 unpacks to the same bytes as the .bin,
and wrong files get one-line errors (no emulation here)."""

import hashlib
import struct

import pytest

from clirun import run_cli
from host_tools.emulation import vpico

FW = vpico.BUNDLE_DIR


def test_bundle_files_match_their_sha256():
    """SHA256SUMS lists every file of the bundle but the notes, and its sums are the
    ones the README gives."""
    sums = {}
    for line in (FW / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split()
        sums[name] = digest
    shipped = {p.name for p in FW.iterdir()
               if p.name not in ("SHA256SUMS", "README.md") and not p.name.startswith("LICENSE")}
    assert set(sums) == shipped
    readme = (FW / "README.md").read_text()
    for name, digest in sums.items():
        assert hashlib.sha256((FW / name).read_bytes()).hexdigest() == digest, name
        assert "`%s`" % digest in readme, name


def test_the_virtual_pico_uses_the_bundle_in_the_repo(monkeypatch):
    monkeypatch.delenv("VPICO_FIRMWARE_DIR", raising=False)
    assert vpico.require_firmware_dir() == FW
    assert FW.parent.parent == vpico.ROOT


def test_a_missing_bundle_file_is_one_line(monkeypatch, tmp_path, capsys):
    (tmp_path / "bootrom.bin").write_bytes(b"\0" * 16)
    monkeypatch.setenv("VPICO_FIRMWARE_DIR", str(tmp_path))
    with pytest.raises(vpico.VPicoError, match="firmware.bin not found"):
        vpico.require_firmware_dir()
    code, _, err = run_cli(["vpico", "--ticks", "1", "--frontend", "headless"], capsys)
    assert code == 2 and err.count("\n") == 1 and "RP2040 bundle incomplete" in err


def test_uf2_unpacks_to_the_bin():
    image = (FW / "firmware.bin").read_bytes()
    unpacked = vpico.read_firmware(FW / "firmware.uf2")
    assert unpacked[:len(image)] == image          # the UF2's last 256-byte block is padded
    assert len(unpacked) - len(image) < 256


def test_rp2350_uf2_is_refused(tmp_path):
    data = bytearray((FW / "firmware.uf2").read_bytes()[:1024])
    for off in (0, 512):
        struct.pack_into("<I", data, off + 28, 0xE48BFF59)
    path = tmp_path / "pico2.uf2"
    path.write_bytes(data)
    with pytest.raises(vpico.VPicoError, match="RP2350 .* not the RP2040"):
        vpico.read_firmware(path)


def test_bad_firmware_files_get_one_line_errors(tmp_path, capsys):
    text = tmp_path / "notes.uf2"
    text.write_text("hello")
    code, _, err = run_cli(["vpico", "--firmware", str(text), "--ticks", "1"], capsys)
    assert code == 2 and err.count("\n") == 1 and "not an RP2040 flash image" in err
    code, _, err = run_cli(["vpico", "--firmware", str(tmp_path / "missing.uf2")], capsys)
    assert code == 2 and "cannot read firmware" in err and "missing.uf2" in err


def test_bad_board_is_one_line(capsys):
    code, _, err = run_cli(["vpico", "--board", "nosuch", "--ticks", "1"], capsys)
    assert code == 2 and err.count("\n") == 1 and "no board file" in err


def test_circuitpython_bundle_files_match_their_sha256():
    """third_party/circuitpython: the image, its mpy-cross and the rebuild script are
    the files its README describes."""
    from host_tools.core import uf2
    folder = uf2.CIRCUITPYTHON_BUNDLE
    sums = dict(reversed(line.split()) for line in (folder / "SHA256SUMS").read_text().splitlines())
    shipped = {p.name for p in folder.iterdir()
               if p.name not in ("SHA256SUMS", "README.md") and not p.name.startswith("LICENSE")}
    assert set(sums) == shipped == {"firmware.uf2", "mpy-cross", "rebuild.sh"}
    readme = (folder / "README.md").read_text()
    for name, digest in sums.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name
        assert "`%s`" % digest in readme, name
    assert vpico.read_firmware(folder / "firmware.uf2")[:4] != b"\xff\xff\xff\xff"


def test_a_failed_provision_leaves_the_cached_image_and_its_stamp(tmp_path, monkeypatch):
    """`vpico --firmware OTHER` that fails to come up must not poison the cache:
    the flashing works on a copy, so the old image (and its saves) and its stamp
    stay, and the next plain run finds them as they were."""
    from host_tools.core import UserError
    from host_tools.commands import vpico_cmd

    image = tmp_path / "pico-ssd1306.img"
    image.write_bytes(b"the image with the player's saves")
    stamp = tmp_path / "pico-ssd1306.img.stamp"
    stamp.write_text("the stamp that describes it")

    def fails(work, board, firmware, boards_dir):
        work.write_bytes(b"half-flashed other firmware")
        raise UserError("USB did not come up")

    monkeypatch.setattr(vpico_cmd, "_flash_onto", fails)
    with pytest.raises(UserError, match="USB did not come up"):
        vpico_cmd.provision(image, "pico-ssd1306", log=lambda line: None)
    assert image.read_bytes() == b"the image with the player's saves"
    assert stamp.read_text() == "the stamp that describes it"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pico-ssd1306.img", "pico-ssd1306.img.stamp"]

    def works(work, board, firmware, boards_dir):
        assert work.read_bytes() == b"the image with the player's saves"   # flashed over a copy
        work.write_bytes(b"the image, flashed")

    monkeypatch.setattr(vpico_cmd, "_flash_onto", works)
    vpico_cmd.provision(image, "pico-ssd1306", log=lambda line: None)
    assert image.read_bytes() == b"the image, flashed"
    assert stamp.read_text() == vpico_cmd.firmware_stamp(
        "pico-ssd1306", None, vpico.read_firmware(vpico.require_firmware_dir() / "firmware.bin"))
