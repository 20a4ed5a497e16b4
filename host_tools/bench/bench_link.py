"""`make bench` rows for the link cable (docs/link.md) on two virtual Picos wired
together (host_tools/emulation/vplink.py), MicroPython v1.28.0, the modules
compiled to .mpy as `flash` deploys them:

- the link layer alone (firmware/link.py over machine.UART(0) on each board,
  through link.UartPort as hw_machine opens it):
  its heap (a ``link.Link``, gc.mem_alloc() after gc.collect()), its cost per
  tick while idle (READY, heartbeats only: ``poll`` timed with ticks_us, mean
  and worst), and the bytes allocated per packet (20 moves sent, received and
  acknowledged with the GC disabled, gc.mem_alloc() before and after);
- the whole firmware on both boards (main.py from power-on): the launcher's
  2 Players line, Trap the Cat met, and the emulated ms from the blocker's A
  press to the other handheld's screen showing the block (the boards driven
  as tests/test_vpico_linkplay.py drives them: host_tools/emulation/vplinkplay.py).
"""

import re

SECTION = "link cable: two virtual Picos (MicroPython v1.28.0, emulated ms)"

# each board: a Link over UART0; the sender (A) sends MOVES moves once READY,
# counting what each packet allocates; both time poll() while idle
_PLAYER = r"""
import time, gc, link
from machine import UART, Pin
u = link.UartPort(UART(0, 115200, tx=Pin(0), rx=Pin(1), timeout=0))     # as hw_machine opens it
gc.collect()
h0 = gc.mem_alloc()
l = link.Link(u, 2, 1, "0.3.0", %(nonce)d)
gc.collect()
heap = gc.mem_alloc() - h0
l.start(time.ticks_ms())
payload = bytearray(6)
sent = 0
got = 0
idle_sum = 0
idle_n = 0
idle_worst = 0
alloc = -1
phase = 0
end = time.ticks_add(time.ticks_ms(), %(ms)d)
while time.ticks_diff(end, time.ticks_ms()) > 0:
    now = time.ticks_ms()
    t0 = time.ticks_us()
    l.poll(now)
    dt = time.ticks_diff(time.ticks_us(), t0)
    if l.take():
        got += 1
    left = time.ticks_diff(end, now)
    if l.state == link.READY and %(idle_from)d > left > %(send_from)d:
        idle_sum += dt
        idle_n += 1
        if dt > idle_worst:
            idle_worst = dt
    if %(sender)d and l.state == link.READY and left <= %(send_from)d:
        if phase == 0:
            phase = 1
            gc.collect()
            gc.disable()
            a0 = gc.mem_alloc()
        if sent < %(moves)d and l.can_send():
            payload[0] = sent
            l.send(link.MOVE, payload, 6, now)
            sent += 1
        elif sent == %(moves)d and l.can_send() and phase == 1:
            alloc = gc.mem_alloc() - a0
            gc.enable()
            phase = 2
    time.sleep_ms(33)
print("LINKBENCH", heap, idle_sum, idle_n, idle_worst, sent, got, alloc)
"""


def _layer():
    """(heap, idle mean ms, idle worst ms, bytes per packet, moves) from two boards."""
    from host_tools.core.fwpath import FIRMWARE_DIR
    from host_tools.emulation import vpico
    from host_tools.emulation.vplink import LinkCable

    files = [FIRMWARE_DIR / "link.py", FIRMWARE_DIR / "clock.py"]
    moves = 20
    with vpico.booted(files, mpy=True) as a, vpico.booted(files, mpy=True) as b:
        cable = LinkCable(a, b, seed=1)
        for pico, nonce, sender in ((a, 100, 1), (b, 200, 0)):
            pico.take_serial()
            code = _PLAYER % {"nonce": nonce, "sender": sender, "moves": moves, "ms": 9000,
                              "idle_from": 8500, "send_from": 5000}
            pico.write_serial(code.encode() + b"\x04")

        def result(pico):
            out = pico.console.decode(errors="replace")
            m = re.search(r"LINKBENCH (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+) (-?\d+)", out)
            return m and [int(x) for x in m.groups()]

        if not cable.step_until(lambda: result(a) and result(b), 14000):
            raise RuntimeError("the link bench did not finish: %r" % a.console[-300:])
        ra, rb = result(a), result(b)
    heap, idle_sum, idle_n, idle_worst, sent, _, alloc = ra
    if sent != moves or rb[5] != moves:
        raise RuntimeError("the link bench lost moves: %r %r" % (ra, rb))
    idle_sum += rb[1]
    idle_n += rb[2]
    worst = max(idle_worst, rb[3])
    return heap, idle_sum / max(idle_n, 1) / 1000.0, worst / 1000.0, alloc / moves, moves


# before each measured press, this many emulated ms more: the press lands at
# another point of both boards' 33 ms ticks each time (the latency depends on it)
PRESS_PHASES_MS = (0, 10, 18, 26, 4, 14)


def moves_shown_ms():
    """Emulated ms from a player's A press (Trap the Cat, 2 Players: the blocker's
    block, then the cat's step, in turn) to the other handheld's glass showing
    the move, one per press phase of PRESS_PHASES_MS."""
    from host_tools.emulation.vplinkplay import firmware_pair, meet_trapcat, met

    with firmware_pair(seed=3) as (two, picos):
        meet_trapcat(two)
        found = met(two, 0, "trapcat")
        if found is None:
            raise RuntimeError("the boards did not meet: %r" % two.console(0)[-300:])
        mover = 0 if found[1] == 0 else 1          # player 0 blocks first
        shown = []
        for phase in PRESS_PHASES_MS:
            shown.append(_one_move_shown(two, picos, mover, phase))
            two.step(ticks=6)
            mover = 1 - mover
        return shown


# where the mover's A is tried in turn, from the cursor's start beside the cat
# (the cell left of it): every cell a hex neighbour of the cat can be in, for
# either row parity; a refused A (a taken cell, the cat's own, not beside it)
# shows nothing on the other handheld
CURSOR_TOUR = ((), ("right",), ("right",), ("up",), ("left",), ("down", "down"), ("right",),
               ("left", "left"), ("up", "up"))


def _one_move_shown(two, picos, mover, phase):
    """The mover's A held for 66 ms at each cell of CURSOR_TOUR until a move
    lands; ms from that press to the other's glass changing, looked at every 2 ms."""
    from host_tools.emulation.vplinkplay import tap

    other = picos[1 - mover]
    for keys in CURSOR_TOUR:
        for key in keys:
            tap(two, mover, key)
        two.step(ticks=2)
        two.cable.step(phase)
        before = other.frame_pixels()
        picos[mover].set_buttons(("a",))
        waited = 0
        while waited < 1000:
            if waited == 66:
                picos[mover].set_buttons(())
            two.cable.step(2)
            waited += 2
            if other.frame_pixels() != before:
                picos[mover].set_buttons(())
                return waited
        picos[mover].set_buttons(())
    raise RuntimeError("no move showed on the other handheld")


def collect(report):
    heap, idle_mean, idle_worst, per_packet, moves = _layer()
    report.add(SECTION, "link layer heap (a link.Link)", heap, "bytes", 4096,
               note="gc.mem_alloc() after gc.collect(), around its constructor")
    report.add(SECTION, "link cost per tick while idle (poll, READY), mean", round(idle_mean, 3), "ms",
               1.0, note="worst %.3f ms; heartbeats every 400 ms" % idle_worst)
    report.add(SECTION, "bytes allocated per packet", per_packet, "bytes", 0,
               note="%d moves sent, received, acknowledged; GC off" % moves)
    shown = moves_shown_ms()
    report.add(SECTION, "a move on one handheld shown on the other, worst", max(shown), "ms", 100.0,
               note="Trap the Cat over 2 Players, blocks and cat steps in turn: A pressed to the "
               "other's glass changed, looked at every 2 ms; %d presses at different points of "
               "the tick: %s ms (mean %.0f)" % (len(shown), ", ".join(str(v) for v in shown),
                                              sum(shown) / len(shown)))
