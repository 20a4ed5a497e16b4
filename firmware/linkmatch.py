"""A head-to-head game over the link cable (docs/link.md): what the games'
link modules (junqi_link, trapcat_link) share, below linkplay's screens.

A ``Match`` is one game both handhelds play: the same start from the same
``seed`` (both sides derive it from the two hello numbers), ``me`` the player
this handheld is (0 moves first), and every move of either side, in order, in
``history`` (``plies`` of them).  Both sides play each move through ``play``,
so the two states stay equal; ``state_hash()`` (CRC-16 of the state) is what
they compare after each move.  Undo (both sides agreed) and CONTINUE after a
power cut replay the history from the start (``replay``), checking every
move, so a save that does not fit is refused, never half played.

A game's module subclasses it with: ``GAME`` (its id), ``reset()`` (the start
of ``seed``), ``legal(move)``, ``apply(move)`` (a legal move of the side to
move), ``to_move()``, ``winner()`` (PLAYING, 0, 1 or DRAW), ``state_hash()``,
``act(ctx, may_move)`` (a tick of this handheld's input: the move its player
made, NO_MOVE when none), ``draw(fb)`` and ``moved()`` (after any move); and
``frame_key()`` where its drawing stays the same from tick to tick (the
runtime's frame cache, through linkplay's screens): ``changes`` counts every
move played and every replay, so a key made of it and what else the drawing
shows (a cursor) changes whenever the drawing does.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

HISTORY = const(600)             # plies at most; the game is drawn there
NO_MOVE = const(0xFFFF)
PLAYING = const(-1)
DRAW = const(2)
# Match.changes wraps here: a tick plays at most HISTORY + 3 moves and replays
# (an undo's replay, a move each way), fewer than this, so two frames drawn a
# tick apart never share a count with different positions
CHANGES_MASK = const(0x3FF)


def _schema():
    import saveschema as ss
    return ss.fields(("game", ss.one_of(("junqi", "trapcat"))), ("me", ss.integer(0, 1)),
                     ("seed", ss.integer(0, 0xFFFF)), ("moves", ss.hexbytes(2, 0, HISTORY)))


class Match:
    GAME = ""

    def __init__(self, ctx, seed, me):
        self.ctx = ctx
        self.seed = seed
        self.me = me
        self.history = array("H", bytes(2 * HISTORY))
        self.plies = 0
        self.full = False        # the history is full: a draw
        self.changes = 0         # moves played + replays, & CHANGES_MASK (frame_key)
        self.reset()

    def play(self, move):
        """Play ``move`` for the side to move; False (nothing played) if it is
        not legal now."""
        if self.plies >= HISTORY or self.winner() != PLAYING or not self.legal(move):
            return False
        self.apply(move)
        self.history[self.plies] = move
        self.plies += 1
        self.changes = (self.changes + 1) & CHANGES_MASK
        self.full = self.plies >= HISTORY and self.winner() == PLAYING
        self.moved()
        return True

    def frame_key(self):
        """What the drawing shows as a small int, the same while it stays the
        same; None (the default): it changes every tick (Flip Junqi's field
        blinks), drawn every tick."""
        return None

    def last_move(self):
        return self.history[self.plies - 1] if self.plies else NO_MOVE

    def outcome(self):
        """PLAYING, the winning player (0/1) or DRAW (a full history too)."""
        return DRAW if self.full else self.winner()

    def replay(self, n):
        """The start again, then the first ``n`` moves of the history; False
        when one of them is not legal (the game is then at that move)."""
        self.reset()
        self.plies = 0
        self.full = False
        self.changes = (self.changes + 1) & CHANGES_MASK
        h = self.history
        for i in range(n):
            if not self.play(h[i]):
                return False
        return True

    def undo(self):
        """Take back the last move (both sides agreed); False when none."""
        if not self.plies:
            return False
        return self.replay(self.plies - 1)

    def snapshot(self):
        """The game as a small dict: its id, the seed, who this side is, the moves."""
        import undosave
        buf = bytearray(2 * self.plies)
        for i in range(self.plies):
            buf[2 * i] = self.history[i] >> 8
            buf[2 * i + 1] = self.history[i] & 0xFF
        return {"game": self.GAME, "me": self.me, "seed": self.seed,
                "moves": undosave.to_text(buf)}


def check(snap):
    """True when ``snap`` has the keys and ranges of ``Match.snapshot()``."""
    import saveschema
    import sys
    ok = saveschema.whole(_schema(), snap)
    if sys.implementation.name != "cpython":
        sys.modules.pop("saveschema", None)
    return ok


def restore(match, snap):
    """Put ``snap``'s moves into ``match`` (made with its seed and side) and
    replay them; False when one does not fit or is not legal."""
    import undosave
    buf = undosave.from_text(snap["moves"])
    n = len(buf) // 2
    for i in range(n):
        match.history[i] = buf[2 * i] << 8 | buf[2 * i + 1]
    return match.replay(n)
