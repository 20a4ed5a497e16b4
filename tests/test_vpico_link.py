"""Two virtual Picos wired by the link cable (host_tools/emulation/vplink.py):
the official MicroPython on each, machine.UART(0) on GP0/GP1, firmware/link.py
as flashed (.mpy).  The protocol meets, delivers moves in order exactly once
through a noisy line and a pulled cable, and costs what docs/link.md says."""

import pytest

from host_tools.core.fwpath import FIRMWARE_DIR
from host_tools.emulation import vpico
from host_tools.emulation.vplink import LinkCable

pytestmark = pytest.mark.device

FILES = [FIRMWARE_DIR / "link.py", FIRMWARE_DIR / "clock.py"]

# each board: a Link over UART0; A sends MOVES moves (waiting for each to be
# acknowledged), B prints each it takes; both print their state when done
PLAYER = """
import time, link
from machine import UART, Pin
u = UART(0, 115200, tx=Pin(0), rx=Pin(1))
l = link.Link(u, 3, 1, "0.3.0", %(nonce)d)
l.start(time.ticks_ms())
sent = 0
got = []
lost = False
payload = bytearray(3)
end = time.ticks_add(time.ticks_ms(), %(ms)d)
worst = 0
while time.ticks_diff(end, time.ticks_ms()) > 0:
    now = time.ticks_ms()
    t0 = time.ticks_us()
    l.poll(now)
    dt = time.ticks_diff(time.ticks_us(), t0)
    if dt > worst:
        worst = dt
    if l.state == link.LOST:
        lost = True
    k = l.take()
    if k:
        got.append(bytes(l.inbox[:l.inbox_len]))
    if %(sender)d and sent < %(moves)d and l.can_send():
        payload[0] = sent
        payload[1] = 255 - sent
        payload[2] = sent * 7 & 255
        l.send(link.MOVE, payload, 3, now)
        sent += 1
    time.sleep_ms(5)
print("RESULT", l.state, l.first, sent, got, lost, l.parser.bad, worst)
"""


def _start(pico, **kw):
    pico.take_serial()
    pico.write_serial((PLAYER % kw).encode() + b"\x04")


def _result(pico):
    out = pico.console.decode(errors="replace")
    at = out.rfind("RESULT ")
    return out[at:].splitlines()[0] if at >= 0 else None


def _expected(moves):
    return [bytes([k, 255 - k, k * 7 & 255]) for k in range(moves)]


@pytest.fixture
def two_picos():
    with vpico.booted(FILES, mpy=True) as a, vpico.booted(FILES, mpy=True) as b:
        yield a, b


def test_two_virtual_picos_meet_and_play_moves_through_noise_and_a_pulled_cable(two_picos):
    a, b = two_picos
    cable = LinkCable(a, b, seed=3)
    moves = 8
    _start(a, nonce=100, sender=1, moves=moves, ms=5000)
    _start(b, nonce=200, sender=0, moves=0, ms=5000)
    cable.step(700)
    cable.noise = 0.01                   # a line that flips a bit in 1 % of the bytes
    cable.step(1000)
    cable.noise = 0.0
    cable.cut = True                     # pulled for 2.4 s (LOST comes after 2 s of silence)
    cable.step(2400)
    cable.cut = False
    assert cable.step_until(lambda: _result(a) and _result(b), 3000)
    ra, rb = _result(a), _result(b)
    state_a, first_a, sent, got_a, lost_a = ra.split(" ", 6)[1:6]
    assert state_a == "2" and first_a == "True" and sent == str(moves) and lost_a == "True", ra
    assert rb.startswith("RESULT 2 False 0 ") and " True " in rb, rb
    assert repr(_expected(moves)) in rb, rb      # every move, in order, exactly once
    assert cable.lost > 0
