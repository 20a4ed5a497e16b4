"""Issue 13 item 5 on the virtual Pico (official MicroPython v1.28.0 in rp2040js): the
flashed firmware with the OLED absent or at another address says so on the USB
serial console, blinks the LED code from a machine.Timer, leaves the REPL
usable, and `doctor --port PTY` (real mpremote over the pty) reports the same
line.  One boot per case."""

import pytest


pytestmark = pytest.mark.device

BUS = "0x3C on I2C0 (SDA GP4, SCL GP5)"
PROMPT = b">>> "

# samples the LED (GP25) every 50 ms from the guest, in the SIO's GPIO_OUT register:
# rp2040js does not loop an output back into GPIO_IN, so Pin(25).value() reads 0 there
LED_SAMPLES = r"""
import time
from machine import mem32
seen = []
for _ in range(%d):
    seen.append(mem32[0xD0000010] >> 25 & 1)
    time.sleep_ms(50)
print(''.join(str(v) for v in seen))
"""


def groups_of_blinks(samples):
    """Blink counts of the complete groups in a 0/1 string (pauses are >= 1 s)."""
    groups = []
    for part in samples.split("0" * 20):
        n = part.strip("0").count("1" * 2) and len([b for b in part.split("0") if b])
        if n:
            groups.append(n)
    return groups


@pytest.mark.parametrize("oled,blinks,found", [
    (None, 3, "found: nothing - check the display's power (VCC to 3V3, GND) and that SDA "
              "and SCL are not swapped"),
    (0x3D, 2, "found: 0x3D - set the address in the board file"),
])
def test_missing_display_on_the_virtual_pico(oled, blinks, found, capsys):
    from host_tools.emulation import vpfirmware
    from host_tools.cli import main as cli_main

    line = "no display at %s; %s" % (BUS, found)
    with vpfirmware.firmware_pico(oled_address=oled) as pico:
        vpfirmware.wait_usb(pico)
        console = pico.wait_serial(PROMPT, 4000).decode()
        assert "display fault: " + line in console
        assert "Traceback" not in console and "OSError(110,)" in console   # ETIMEDOUT, quoted
        assert "LED: %d blinks, repeated" % blinks in console
        # the REPL answers and the LED code runs (the timer lives on under the REPL)
        vpfirmware.repl(pico)
        assert pico.exec("print(6 * 7)").strip() == "42"
        samples = pico.exec(LED_SAMPLES % 80, emulated_ms=8000).strip()
        assert blinks in groups_of_blinks(samples) and set(groups_of_blinks(samples)) == {blinks}
        pico.write_serial(b"\x02")              # back to the friendly REPL, as a user leaves it
        pico.wait_serial(PROMPT, 2000)
        # doctor through the real mpremote on a pty
        pico.run_free()
        port = pico.open_pty()
        capsys.readouterr()
        code = cli_main(["doctor", "--port", port])
        out = capsys.readouterr().out
    assert code == 1
    assert "display:      " + line in out.splitlines()
    assert out.splitlines()[-1].startswith("status:       ") and line in out.splitlines()[-1]
