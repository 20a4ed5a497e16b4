"""The link cable: two handhelds, one game (docs/link.md).

A byte transport (UART0 at 115,200 baud on a Pico: TX GP0, RX GP1, crossed;
anything with ``readinto(buf)`` -> count or None, non-blocking, and
``write(buf)``) carries framed packets:

    START  LEN  SEQ  TYPE  payload (LEN bytes, <= MAX_PAYLOAD)  CRC-16 (2 bytes, big-endian)

The CRC is CRC-16/CCITT-FALSE over LEN, SEQ, TYPE and the payload: it catches
every error of one or two bits and every burst of up to 16, where an XOR sum
misses two flips in the same bit.  A bad CRC, a length over MAX_PAYLOAD or a
frame cut short (no byte for FRAME_GAP_MS) drops that frame and the parser
hunts for the next START; nothing the line brings can raise.

``Link`` is polled once a tick (``poll(now)``) and keeps the session:

- HELLO: each side sends hello (protocol version, firmware version, game,
  difficulty, a random number) until the other's arrives; the lower number
  moves first.  A different protocol version or game ends in MISMATCH.
- data packets (hello, a move, an undo request or answer) are acknowledged and
  resent every RESEND_MS until they are; one is in flight at a time, a
  duplicate is acknowledged again and not delivered twice;
- a heartbeat every BEAT_MS while nothing else is sent; no byte from the
  peer for LOST_MS: LOST (the game shows "LINK LOST" and waits); the first
  packet after that: READY again, and what was in flight is resent, so no
  move is lost and none is played twice;
- a move carries the hash of the sender's game state after it; the receiver
  compares it with its own (``check_hash``): a difference is DESYNC at once.

Nothing is allocated per byte or per packet: the buffers, the CRC table and a
memoryview per frame length are made in the constructor.
"""

from array import array

from clock import ticks_diff

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

PROTOCOL = const(1)
START = const(0xA5)
HEADER = const(4)                # START LEN SEQ TYPE
MAX_PAYLOAD = const(32)
MAX_FRAME = const(38)            # HEADER + MAX_PAYLOAD + 2
FRAME_GAP_MS = const(50)         # a frame's bytes arrive within this of each other
RESEND_MS = const(150)
BEAT_MS = const(400)
LOST_MS = const(2000)

# packet types; the data packets (acknowledged, resent) are HELLO and up
ACK = const(1)
BEAT = const(2)
HELLO = const(16)
MOVE = const(17)
UNDO_ASK = const(18)
UNDO_ANSWER = const(19)
SYNC = const(20)                 # where a game stands, after each (re)connection (linkplay)
FIRST_DATA = const(16)

# session states
OFF = const(0)                   # no link started
SEARCHING = const(1)             # sending hello, no answer yet
READY = const(2)
LOST = const(3)                  # the peer went silent; resumes when it answers
MISMATCH = const(4)              # the peer runs another protocol or game
DESYNC = const(5)                # the two game states differ

STATUS = ("", "WAITING FOR THE OTHER", "", "LINK LOST - CHECK CABLE",
          "OTHER HANDHELD DIFFERS", "GAMES OUT OF STEP")

# hello's payload: protocol, game, difficulty, a random 16-bit number, firmware version text
HELLO_FIXED = const(5)


def _crc_table():
    table = array("H", bytes(512))
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
        table[i] = crc & 0xFFFF
    return table


CRC_TABLE = _crc_table()


def crc16(buf, start, end, crc=0xFFFF):
    """CRC-16/CCITT-FALSE of buf[start:end] (also the games' state hash)."""
    table = CRC_TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ buf[i]) & 0xFF]
    return crc


def encode(out, seq, kind, payload, n):
    """One frame into ``out`` (payload[:n]); its length."""
    out[0] = START
    out[1] = n
    out[2] = seq
    out[3] = kind
    for i in range(n):
        out[HEADER + i] = payload[i]
    end = HEADER + n
    crc = crc16(out, 1, end)
    out[end] = crc >> 8
    out[end + 1] = crc & 0xFF
    return end + 2


class Parser:
    """Bytes in, whole frames out: ``feed(byte, now)`` returns True when
    ``frame`` holds a frame that passed its CRC (``length`` bytes)."""

    def __init__(self):
        self.frame = bytearray(MAX_FRAME)
        self.length = 0
        self.at = 0              # bytes of the frame under way (0: hunting for START)
        self.need = 0
        self.last_ms = 0
        self.bad = 0             # frames dropped (CRC, length, cut short)

    def feed(self, byte, now):
        at = self.at
        if at and ticks_diff(now, self.last_ms) > FRAME_GAP_MS:
            self.bad += 1        # the rest of that frame never came
            at = 0
        self.last_ms = now
        if at == 0:
            if byte == START:
                self.frame[0] = byte
                self.at = 1
            return False
        frame = self.frame
        frame[at] = byte
        at += 1
        if at == 2:
            if byte > MAX_PAYLOAD:
                self.bad += 1
                self.at = 0
                return False
            self.need = HEADER + byte + 2
        if at < 2 or at < self.need:
            self.at = at
            return False
        self.at = 0
        end = self.need - 2
        if crc16(frame, 1, end) != (frame[end] << 8 | frame[end + 1]):
            self.bad += 1
            return False
        self.length = self.need
        return True


class UartPort:
    """``machine.UART`` as the link's transport: its ``readinto`` waits
    ``timeout_char`` (1 ms at least, whatever the timeout) when fewer bytes
    than the buffer holds are there, so ``any()`` (~12 us on a Pico) says how
    many are waiting and only those are read (a poll then costs ~0.03 ms, not
    ~1 ms)."""

    def __init__(self, uart):
        self.uart = uart
        self.any = uart.any
        self.read = uart.readinto
        self.write = uart.write

    def readinto(self, buf):
        n = self.any()
        if not n:
            return None
        return self.read(buf, n if n < len(buf) else len(buf))


class Link:
    """The session over one transport (module notes).  ``game`` and
    ``difficulty`` are what this side offers; ``version`` the firmware's."""

    def __init__(self, transport, game, difficulty, version, nonce):
        self.io = transport
        self.game = game
        self.difficulty = difficulty
        self.version = version
        self.nonce = nonce & 0xFFFF
        self.parser = Parser()
        self.rx = bytearray(64)
        self.out = bytearray(MAX_FRAME)
        self.views = [memoryview(self.out)[:n] for n in range(MAX_FRAME + 1)]
        self.ack = bytearray(1)
        # the data packet in flight (one at a time), resent until acknowledged
        self.pending = bytearray(MAX_PAYLOAD)
        self.pending_kind = 0
        self.pending_len = 0
        self.send_seq = 0
        self.sent_ms = 0
        # the data packet received and not yet taken by the game
        self.inbox = bytearray(MAX_PAYLOAD)
        self.inbox_kind = 0
        self.inbox_len = 0
        self.recv_seq = -1       # the last data packet delivered
        self.state = OFF
        self.heard_ms = 0
        self.said_ms = 0
        self.first = False       # this side moves first (known once READY)
        self.peer_difficulty = 0
        self.peer_version = bytearray(8)
        self.peer_version_len = 0
        self.peer_nonce = -1     # the peer's hello number (-1: none heard yet)
        self.resends = 0

    # -- what the game calls -------------------------------------------------------
    def start(self, now):
        """A new session: say hello until the other side answers."""
        self.heard_ms = now
        self.recv_seq = -1
        self.peer_nonce = -1
        self.inbox_kind = 0
        self._say_hello(now)

    def _say_hello(self, now):
        self.state = SEARCHING
        p = self.pending
        p[0] = PROTOCOL
        p[1] = self.game
        p[2] = self.difficulty
        p[3] = self.nonce >> 8
        p[4] = self.nonce & 0xFF
        v = self.version
        n = min(len(v), 8)
        for i in range(n):
            p[HELLO_FIXED + i] = ord(v[i])
        self._queue(HELLO, HELLO_FIXED + n, now)

    def can_send(self):
        """True when a data packet may be queued (READY, nothing in flight)."""
        return self.state == READY and not self.pending_kind

    def send(self, kind, payload, n, now):
        """Queue a data packet (payload[:n]); False if one is still in flight."""
        if self.pending_kind or n > MAX_PAYLOAD:
            return False
        p = self.pending
        for i in range(n):
            p[i] = payload[i]
        self._queue(kind, n, now)
        return True

    def take(self):
        """The type of the data packet received (its payload in ``inbox``,
        ``inbox_len`` bytes), 0 when none; it is the game's until the next take."""
        kind = self.inbox_kind
        self.inbox_kind = 0
        return kind

    def check_hash(self, mine, theirs):
        """After a move both sides played: DESYNC when the states differ."""
        if mine != theirs:
            self.state = DESYNC
        return mine == theirs

    def status(self):
        """The line both screens show about the link ("" while it is fine)."""
        return STATUS[self.state]

    # -- the tick ------------------------------------------------------------------
    def poll(self, now):
        """Read what arrived, resend, beat, notice silence.  Once a tick, and
        every 8 ms while the runtime waits for the next one (linkplay's
        ``wake``), so its call frame stays within the 11 words MicroPython
        keeps on the C stack (a larger one is allocated on the heap at every
        call: 78 us a poll instead of 68 on the virtual Pico, nothing received;
        docs/conventions.md): no locals for ``self.io``, ``self.parser`` and
        ``self.rx`` (read once a poll, and once a byte while bytes arrive)."""
        if self.state == OFF:
            return
        while True:
            n = self.io.readinto(self.rx)
            if not n:
                break
            for i in range(n):
                if self.parser.feed(self.rx[i], now):
                    self._got(now)
        if self.state >= MISMATCH:
            return
        if ticks_diff(now, self.heard_ms) > LOST_MS:
            if self.state == READY:
                self.state = LOST
        if self.pending_kind and ticks_diff(now, self.sent_ms) >= RESEND_MS:
            self.resends += 1
            self._send_pending(now)
        elif ticks_diff(now, self.said_ms) >= BEAT_MS:
            self._write(BEAT, 0, self.ack, 0, now)

    # -- inside --------------------------------------------------------------------
    def _queue(self, kind, n, now):
        self.send_seq = (self.send_seq + 1) & 0xFF
        self.pending_kind = kind
        self.pending_len = n
        self._send_pending(now)

    def _send_pending(self, now):
        self.sent_ms = now
        self._write(self.pending_kind, self.send_seq, self.pending, self.pending_len, now)

    def _write(self, kind, seq, payload, n, now):
        length = encode(self.out, seq, kind, payload, n)
        self.io.write(self.views[length])
        self.said_ms = now

    def _got(self, now):
        """A frame that passed its CRC."""
        f = self.parser.frame
        n = f[1]
        seq = f[2]
        kind = f[3]
        self.heard_ms = now
        if self.state == LOST:
            self.state = READY
        if kind == ACK:
            if n == 1 and self.pending_kind and f[HEADER] == self.send_seq:
                if self.pending_kind == HELLO and self.state == SEARCHING and self.peer_nonce >= 0:
                    self.state = READY
                self.pending_kind = 0
            return
        if kind < FIRST_DATA:
            return                           # a heartbeat: heard is all it says
        if kind == HELLO:
            self._hello(f, n, seq, now)
            return
        if seq == self.recv_seq:             # resent: our ack was lost
            self._ack(seq, now)
            return
        if self.state != READY or self.inbox_kind:
            return                           # not yet / the game has not taken the last one
        for i in range(n):
            self.inbox[i] = f[HEADER + i]
        self.inbox_len = n
        self.inbox_kind = kind
        self.recv_seq = seq
        self._ack(seq, now)

    def _hello(self, f, n, seq, now):
        """The peer's hello: a resent one (same number) is acknowledged again;
        a new number after an earlier one means the peer restarted, so this
        side says hello again for it."""
        if n < HELLO_FIXED or f[HEADER] != PROTOCOL or f[HEADER + 1] != self.game:
            self.state = MISMATCH
            return
        self._ack(seq, now)
        peer = f[HEADER + 3] << 8 | f[HEADER + 4]
        if peer == self.peer_nonce:
            return
        restarted = self.peer_nonce >= 0
        self.peer_nonce = peer
        self.peer_difficulty = f[HEADER + 2]
        k = min(n - HELLO_FIXED, 8)
        for i in range(k):
            self.peer_version[i] = f[HEADER + HELLO_FIXED + i]
        self.peer_version_len = k
        self.recv_seq = seq
        self.inbox_kind = 0
        if peer == self.nonce:               # a tie (1 in 65,536): this side draws again
            self.nonce = (now * 31 + peer + 1) & 0xFFFF
            self._say_hello(now)
            return
        self.first = self.nonce < peer
        if restarted and self.pending_kind != HELLO:
            self._say_hello(now)
        elif self.pending_kind != HELLO:
            self.state = READY               # ours was acknowledged already

    def _ack(self, seq, now):
        self.ack[0] = seq
        self._write(ACK, 0, self.ack, 1, now)
