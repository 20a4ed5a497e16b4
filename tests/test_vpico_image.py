"""Firmware images for the virtual Pico: the official UF2 unpacks to the same bytes
as the .bin, and wrong files get one-line errors (no emulation here)."""

import struct

import pytest

from clirun import run_cli
from host_tools.emulation import vpico

FW = vpico.firmware_dir()
needs_bundle = pytest.mark.skipif(FW is None, reason="needs ../shared/rp2-firmware (MicroPython RPI_PICO image)")


@needs_bundle
def test_uf2_unpacks_to_the_bin():
    image = (FW / "firmware.bin").read_bytes()
    unpacked = vpico.read_firmware(FW / "firmware.uf2")
    assert unpacked[:len(image)] == image          # the UF2's last 256-byte block is padded
    assert len(unpacked) - len(image) < 256


@needs_bundle
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
