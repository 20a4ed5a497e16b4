"""The link cable's protocol (firmware/link.py) between two Link objects wired
through an in-memory cable that can be cut, or corrupt bytes, and in the
MicroPython VM (no allocation per packet, the heap it keeps)."""

import random

import pytest

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import link


class Cable:
    """Two byte queues crossed (TX of one end is RX of the other); ``cut`` drops
    every byte written, ``noise`` flips one bit in that share of the bytes."""

    def __init__(self, seed=1):
        self.lines = (bytearray(), bytearray())
        self.cut = False
        self.noise = 0.0
        self.rng = random.Random(seed)

    def end(self, side):
        return End(self, self.lines[side], self.lines[1 - side])


class End:
    def __init__(self, cable, tx, rx):
        self.cable = cable
        self.tx = tx
        self.rx = rx

    def write(self, data):
        cable = self.cable
        if cable.cut:
            return
        for b in bytes(data):
            if cable.noise and cable.rng.random() < cable.noise:
                b ^= 1 << cable.rng.randrange(8)
            self.tx.append(b)

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        del self.rx[:n]
        return n


def pair(cable=None, game=(3, 3), nonces=(100, 200)):
    cable = cable or Cable()
    a = link.Link(cable.end(0), game[0], 1, "0.3.0", nonces[0])
    b = link.Link(cable.end(1), game[1], 1, "0.3.0", nonces[1])
    return cable, a, b


def run(a, b, ms, now, step=33, inbox=None):
    """Poll both ends every ``step`` ms for ``ms``; packets taken go to ``inbox``."""
    for t in range(now, now + ms, step):
        a.poll(t)
        b.poll(t)
        if inbox is not None:
            for name, end in (("a", a), ("b", b)):
                kind = end.take()
                if kind:
                    inbox.append((name, kind, bytes(end.inbox[:end.inbox_len])))
    return now + ms


def ready_pair(**kw):
    cable, a, b = pair(**kw)
    a.start(0)
    b.start(0)
    now = run(a, b, 500, 0)
    assert a.state == b.state == link.READY
    return cable, a, b, now


def test_hello_meets_and_exactly_one_side_moves_first():
    cable, a, b, now = ready_pair()
    assert a.first != b.first and a.first       # the lower number moves first
    assert bytes(b.peer_version[:b.peer_version_len]) == b"0.3.0"
    assert a.status() == b.status() == ""


def test_a_side_that_starts_later_is_met():
    cable, a, b = pair()
    a.start(0)
    now = run(a, b, 3000, 0)
    assert a.state == link.SEARCHING and a.status() == "WAITING FOR THE OTHER"
    b.start(now)
    run(a, b, 500, now)
    assert a.state == b.state == link.READY


def test_a_move_is_delivered_once_and_acknowledged():
    cable, a, b, now = ready_pair()
    got = []
    assert a.can_send() and a.send(link.MOVE, b"\x05\x07", 2, now)
    assert not a.send(link.MOVE, b"\x01", 1, now)       # one in flight at a time
    now = run(a, b, 1000, now, inbox=got)
    assert got == [("b", link.MOVE, b"\x05\x07")]
    assert a.can_send()


def test_a_different_game_or_protocol_is_a_mismatch():
    cable, a, b = pair(game=(3, 4))
    a.start(0)
    b.start(0)
    run(a, b, 500, 0)
    assert a.state == b.state == link.MISMATCH
    assert a.status() == "OTHER HANDHELD DIFFERS"


def test_a_pulled_cable_is_lost_within_two_seconds_and_resumes_without_loss():
    cable, a, b, now = ready_pair()
    got = []
    cable.cut = True
    a.send(link.MOVE, b"\x01", 1, now)
    lost_at = None
    for t in range(now, now + 3000, 33):
        run(a, b, 33, t, inbox=got)
        if lost_at is None and a.state == link.LOST and b.state == link.LOST:
            lost_at = t
    assert lost_at is not None and lost_at - now <= 2100
    assert a.status() == b.status() == "LINK LOST - CHECK CABLE"
    cable.cut = False
    now = run(a, b, 1000, now + 3000, inbox=got)
    assert a.state == b.state == link.READY
    assert got == [("b", link.MOVE, b"\x01")]


def test_moves_through_a_noisy_line_arrive_in_order_exactly_once():
    cable, a, b, now = ready_pair(cable=Cable(seed=7))
    cable.noise = 0.02
    sent = []
    got = []
    for k in range(40):
        while not a.can_send():
            now = run(a, b, 33, now, inbox=got)
        payload = bytes([k, 255 - k, k * 3 & 0xFF])
        a.send(link.MOVE, payload, 3, now)
        sent.append(("b", link.MOVE, payload))
    now = run(a, b, 3000, now, inbox=got)
    assert got == sent
    assert b.parser.bad + a.parser.bad > 0 and a.resends > 0   # the noise was there


def test_a_restarted_peer_is_met_again():
    cable, a, b, now = ready_pair()
    b2 = link.Link(cable.end(1), 3, 1, "0.3.0", 999)     # B lost power and booted again
    b2.start(now)
    run(a, b2, 1000, now)
    assert a.state == b2.state == link.READY
    assert a.first and not b2.first


def test_a_state_hash_that_differs_is_a_desync():
    cable, a, b, now = ready_pair()
    assert a.check_hash(0x1234, 0x1234) and a.state == link.READY
    assert not a.check_hash(0x1234, 0x1235)
    assert a.state == link.DESYNC and a.status() == "GAMES OUT OF STEP"


@pytest.mark.parametrize("junk", [b"", b"\xa5", b"\xa5\xff", b"\xa5\x02\x01\x11\x00", bytes(range(256))])
def test_half_packets_and_junk_never_raise(junk):
    p = link.Parser()
    for i, byte in enumerate(junk * 3):
        p.feed(byte, i)


def test_a_frame_cut_short_is_dropped_and_the_next_one_read():
    out = bytearray(link.MAX_FRAME)
    n = link.encode(out, 1, link.MOVE, b"\x01\x02\x03", 3)
    p = link.Parser()
    for byte in out[:5]:
        assert not p.feed(byte, 0)
    got = [p.feed(byte, 200) for byte in out[:n]]        # 200 ms later: a new frame
    assert got[-1] and p.bad == 1 and bytes(p.frame[:p.length]) == bytes(out[:n])


def test_crc16_is_ccitt_false():
    data = b"123456789"
    assert link.crc16(data, 0, len(data)) == 0x29B1


def test_link_in_the_micropython_vm_allocates_nothing_per_packet(vm):
    """Two links in the VM: a packet sent and received and acknowledged (each
    side's poll) allocates 0 bytes; a Link keeps under 4 KB of heap."""
    r = vm('''
import gc, link

class Line:
    # one direction of the cable: a preallocated ring, so the fake allocates nothing
    def __init__(self):
        self.buf = bytearray(256)
        self.head = 0
        self.tail = 0

class End:
    def __init__(self, tx, rx):
        self.tx = tx
        self.rx = rx
    def write(self, data):
        tx = self.tx
        for b in data:
            tx.buf[tx.head] = b
            tx.head = (tx.head + 1) & 255
    def readinto(self, buf):
        rx = self.rx
        n = 0
        while rx.tail != rx.head and n < len(buf):
            buf[n] = rx.buf[rx.tail]
            rx.tail = (rx.tail + 1) & 255
            n += 1
        return n or None

ab = Line()
ba = Line()
before = gc.mem_alloc()
a = link.Link(End(ab, ba), 3, 1, "0.3.0", 100)
size = gc.mem_alloc() - before
b = link.Link(End(ba, ab), 3, 1, "0.3.0", 200)
a.start(0)
b.start(0)
for t in range(0, 500, 33):
    a.poll(t)
    b.poll(t)
payload = bytearray(2)
def one_move(t):
    a.send(17, payload, 2, t)
    b.poll(t)
    b.take()
    a.poll(t + 1)
one_move(600)
res, fuel, alloc = measure(one_move, 700)
emit('link', (a.state, b.state, a.can_send(), size, alloc, fuel))
''')
    state_a, state_b, acked, size, alloc, fuel = r['link']
    assert state_a == state_b == link.READY and acked      # sent, received, acknowledged
    assert size < 4096, size
    assert alloc == 0, alloc
