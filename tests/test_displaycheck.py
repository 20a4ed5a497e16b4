"""The OLED missing, miswired or at another address (issue 13, item 5): the
firmware says so on the serial console and with an LED blink code and returns
to the REPL; `doctor` says the same in one line.  Here with the fakes
(host_tools/emulation/fakemachine.py as ``machine``, FakeDevice as the serial device)
and in the MicroPython VM; tests/test_vpico_diag.py does it on the virtual Pico."""

import pytest

from host_tools.emulation import sim as simmod

fake = simmod.install_host_modules()

import displaycheck  # noqa: E402
import hw_machine  # noqa: E402
import hw_machine_fault  # noqa: E402
import main  # noqa: E402
from host_tools.emulation.oledmodel import OledModel  # noqa: E402


class Broken:
    """A display that acknowledges the scan but fails every write (loose wire)."""

    def write(self, buf):
        raise OSError(5)

    def write_parts(self, vector):
        raise OSError(5)


@pytest.fixture
def bus(tmp_path, monkeypatch):
    """A fresh fake bus; the device root (no board.json: the default board) is tmp_path."""
    monkeypatch.chdir(tmp_path)
    fake.detach_all()
    yield fake
    hw_machine_fault.stop_blink()
    fake.detach_all()


def led_pattern(slots):
    """The LED level in each 100 ms slot of the running blink timer."""
    (timer,) = fake.Timer.active
    assert timer.period == 100 and timer.mode == fake.Timer.PERIODIC
    seen = [fake.levels["LED"]]            # start_blink sets the first slot at once
    for _ in range(slots - 1):
        timer.fire()
        seen.append(fake.levels["LED"])
    return seen


def blinks_per_group(pattern):
    """Count rising edges in the first group (before the first long pause)."""
    text = "".join(map(str, pattern))
    group = text.split("0" * 10)[0]
    return group.count("01") + (1 if group.startswith("1") else 0)


@pytest.mark.parametrize("attached,blinks,words", [
    ({}, 3, "found: nothing - check the display's power (VCC to 3V3, GND) and that SDA and "
            "SCL are not swapped"),
    ({0x3D: "oled"}, 2, "found: 0x3D - set the address in the board file"),
    ({0x3C: "broken", 0x68: "oled"}, 4, "answers but did not start"),
])
def test_main_reports_a_missing_display_and_returns(bus, capsys, attached, blinks, words):
    for addr, kind in attached.items():
        bus.attach(addr, OledModel() if kind == "oled" else Broken())
    main.main()                           # returns: MicroPython goes on to the REPL
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("display fault: ")
    assert "0x3C on I2C0 (SDA GP4, SCL GP5)" in out[0] and words in out[0]
    scan = "  i2c.scan() on I2C0 (SDA GP4, SCL GP5) found: "
    assert (scan + (", ".join("0x%02X" % a for a in sorted(attached)) or "nothing")) in out
    assert "  LED: %d blinks, repeated (docs/runtime.md); the REPL is free" % blinks in out
    pattern = led_pattern(80)
    period = blinks * 5 + 15
    assert pattern[:period] == pattern[period:2 * period]      # it repeats
    assert blinks_per_group(pattern) == blinks
    assert pattern[:5] == [1, 1, 0, 0, 0]
    hw_machine_fault.stop_blink()
    assert not fake.Timer.active and fake.levels["LED"] == 0


def test_a_board_file_with_the_other_address_boots(bus):
    import boardcfg

    cfg = boardcfg.validate(dict(boardcfg.DEFAULT, i2c=dict(boardcfg.DEFAULT["i2c"], address=0x3D)))
    bus.attach(0x3D, OledModel())
    hw = hw_machine.Hardware(cfg)
    assert hw.display is not None and not fake.Timer.active


def test_other_errors_still_raise(bus, monkeypatch):
    """Only the display's OSError becomes the fault report; other errors are not hidden."""
    bus.attach(0x3C, OledModel())

    def broken_boot():
        raise OSError(28)
    monkeypatch.setattr(main, "boot", broken_boot)
    with pytest.raises(OSError) as info:
        main.main()
    assert not isinstance(info.value, displaycheck.DisplayFault)


def test_no_led_outside_the_picos(bus):
    hw_machine_fault.start_blink({"mcu": "esp32"}, 3)
    assert not fake.Timer.active


def test_firmware_fault_path_runs_in_micropython(vm):
    """The same path under MicroPython itself (OSError subclass, formatting)."""
    from host_tools.emulation import runtime_vm

    with runtime_vm.staged_firmware() as fw:
        from host_tools.emulation import mpvm

        r = mpvm.run(r"""
import machine, main, hw_machine_fault
machine.attach(0x3D, machine.Counter())
main.main()
emit('timer', (len(machine.Timer.active), machine.levels.get('LED')))
hw_machine_fault.stop_blink()
emit('stopped', (len(machine.Timer.active), machine.levels.get('LED')))
""", input_dir=fw)
    assert ("display fault: no display at 0x3C on I2C0 (SDA GP4, SCL GP5); found: 0x3D - set the "
            "address in the board file") in r.stdout
    assert r["timer"] == (1, 1) and r["stopped"] == (0, 0)


# -- doctor --------------------------------------------------------------------------

@pytest.mark.parametrize("found,line", [
    ([0x3C], None),
    ([], "no display at 0x3C on I2C0 (SDA GP4, SCL GP5); found: nothing - check the display's "
         "power (VCC to 3V3, GND) and that SDA and SCL are not swapped"),
    ([0x3D], "no display at 0x3C on I2C0 (SDA GP4, SCL GP5); found: 0x3D - set the address in "
             "the board file"),
])
def test_doctor_reports_the_display_in_one_line(found, line):
    from host_tools.device import doctor
    from host_tools.emulation.fakedevice import FakeDevice

    dev = FakeDevice(i2c_found=found)
    lines = []
    problems = doctor.doctor(dev, log=lines.append)
    assert dev.scans == [(0, 4, 5, 400000, 0x3C)]       # the default board: no board.json yet
    if line is None:
        assert "display:      SSD1306 at 0x3C on I2C0 (SDA GP4, SCL GP5) answers" in lines
        assert line not in problems
    else:
        assert "display:      " + line in lines
        assert line in problems and lines[-1].startswith("status:       ")
        assert line in lines[-1]


def test_doctor_scans_the_bus_of_the_board_file():
    import json

    from host_tools.device import doctor
    from host_tools.emulation.fakedevice import FakeDevice

    board = json.loads((simmod.BOARDS_DIR / "pico-ssd1306-5btn.json").read_text())
    board["i2c"]["address"] = "0x3D"
    dev = FakeDevice(files={"/board.json": json.dumps(board).encode()}, i2c_found=[0x3C])
    lines = []
    problems = doctor.doctor(dev, log=lines.append)
    assert dev.scans == [(1, 26, 27, 400000, 0x3D)]
    assert ("no display at 0x3D on I2C1 (SDA GP26, SCL GP27); found: 0x3C - set the address "
            "in the board file") in problems
