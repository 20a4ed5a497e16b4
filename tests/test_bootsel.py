"""A blank Pico in BOOTSEL mode: the drive is recognised, the UF2 is checked before
it is copied, and each failure (wrong image, RP2350 board, read-only or full drive,
no serial port afterwards) is one line.  The whole way from a blank virtual Pico to
its launcher is tests/test_vpico.py's flashed image."""

import shutil
import struct

import pytest

from clirun import run_cli
from host_tools.core import UserError
from host_tools.device import bootsel, usbserial

RP2040_INFO = "UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n"
RP2350_INFO = "UF2 Bootloader v1.0\nModel: Raspberry Pi RP2350\nBoard-ID: RP2350\n"


def fake_drive(tmp_path, info=RP2040_INFO, name="RPI-RP2"):
    drive = tmp_path / name
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text(info)
    (drive / "INDEX.HTM").write_text("<html>raspberrypi.com/device/RP2</html>")
    return drive


def test_drives_are_recognised_by_their_info_file(tmp_path, monkeypatch):
    assert bootsel.is_bootsel_drive(fake_drive(tmp_path)) == "RP2040"
    assert bootsel.is_bootsel_drive(fake_drive(tmp_path, RP2350_INFO, "RP2350")) == "RP2350"
    assert bootsel.is_bootsel_drive(tmp_path) is None
    monkeypatch.setenv("PICO_BOOTSEL_DRIVE", str(tmp_path / "RPI-RP2"))
    assert (str(tmp_path / "RPI-RP2"), "RP2040") in bootsel.find_drives()


def test_the_shipped_uf2_is_checked_before_it_is_copied(tmp_path, monkeypatch):
    data = bootsel.check_uf2(bootsel.SHIPPED_UF2)
    assert len(data) == bootsel.SHIPPED_UF2.stat().st_size
    tampered = tmp_path / "firmware.uf2"
    raw = bytearray(data)
    raw[1000] ^= 1
    tampered.write_bytes(raw)
    monkeypatch.setattr(bootsel, "SHIPPED_UF2", tampered)
    with pytest.raises(UserError, match="does not match its recorded sha256"):
        bootsel.check_uf2(tampered)


@pytest.mark.parametrize("make, message", [
    (lambda d: b"hello" * 200, "is not a UF2 file"),
    (lambda d: d[:1000], "is not a UF2 file"),
    (lambda d: b"".join(d[o:o + 28] + struct.pack("<I", 0xE48BFF59) + d[o + 32:o + 512]
                        for o in range(0, 2048, 512)), "is not an RP2040 UF2"),
])
def test_a_wrong_uf2_is_refused_and_nothing_is_copied(tmp_path, capsys, make, message):
    drive = fake_drive(tmp_path)
    bad = tmp_path / "other.uf2"
    bad.write_bytes(make(bootsel.SHIPPED_UF2.read_bytes()))
    code, _, err = run_cli(["flash", "--uf2-drive", str(drive), "--micropython-uf2", str(bad)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err
    assert not list(drive.glob("*.uf2"))


def test_an_rp2350_board_is_told_to_use_its_own_image(tmp_path, capsys):
    drive = fake_drive(tmp_path, RP2350_INFO, "RP2350")
    code, _, err = run_cli(["flash", "--uf2-drive", str(drive)], capsys)
    assert code == 2 and "RP2350 (a Pico 2)" in err and "RPI_PICO2" in err
    assert not list(drive.glob("*.uf2"))


def test_not_a_bootsel_drive(tmp_path, capsys):
    code, _, err = run_cli(["flash", "--uf2-drive", str(tmp_path)], capsys)
    assert code == 2 and "is not a Pico in BOOTSEL mode" in err


def test_a_full_drive_is_one_line(tmp_path, capsys, monkeypatch):
    drive = fake_drive(tmp_path)
    monkeypatch.setattr(shutil, "disk_usage", lambda path: shutil._ntuple_diskusage(128 * 1024, 127 * 1024, 1024))
    code, _, err = run_cli(["flash", "--uf2-drive", str(drive)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "has 1 KB free" in err
    assert not list(drive.glob("*.uf2"))


def test_a_read_only_drive_is_one_line(tmp_path, capsys, monkeypatch):
    drive = fake_drive(tmp_path)

    def read_only(path, mode="r"):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(bootsel, "_open", read_only)
    code, _, err = run_cli(["flash", "--uf2-drive", str(drive)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "is read-only" in err


def test_no_port_after_the_copy_is_one_line(tmp_path, capsys, monkeypatch):
    drive = fake_drive(tmp_path)
    monkeypatch.setattr(bootsel, "micropython_ports", lambda: [])
    monkeypatch.setattr(bootsel, "PORT_WITHIN_S", 0.3)
    code, out, err = run_cli(["flash", "--uf2-drive", str(drive)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no MicroPython serial port (USB 2E8A:0005) appeared within" in err and "replug" not in out
    copied = drive / "micropython.uf2"
    assert copied.read_bytes() == bootsel.SHIPPED_UF2.read_bytes()
    assert "found a Pico in BOOTSEL mode" in out


def test_without_a_port_or_a_drive_flash_says_how_to_start(capsys, monkeypatch):
    monkeypatch.setattr(usbserial, "list_ports", lambda: [])
    monkeypatch.setattr(bootsel, "find_drives", lambda: [])
    code, _, err = run_cli(["flash"], capsys)
    assert code == 2 and "no device found" in err and "hold BOOTSEL" in err
