"""2 PLAYERS: two handhelds, one game over the link cable (docs/link.md).

The launcher's "2 Players" line starts this scene (games.LINK; it leaves with
it, like a game).  Each player picks the same game (``CHOICES``); the link's
hello carries it (a different one on the other side: OTHER HANDHELD DIFFERS)
and decides who moves first; the seed of the deal comes from both hellos'
numbers, so both handhelds start the same game.  The game's own rules and
screens come from its link module (junqi_link, trapcat_link: a
``linkmatch.Match``), imported only when it is picked.

Each tick the link is polled and the packet it brought is played:
  MOVE         plies after it, the move, the sender's state hash after it
  SYNC         plies, the last move, the state hash; sent each time the link
               becomes READY (the meeting, a cable plugged back, a restarted
               peer): a side one move behind plays the other's last move, so
               after a power cut both go on from the last move both agreed on
  UNDO_ASK     plies (undo asks the other side; B+A)
  UNDO_ANSWER  yes/no, the plies asked at: on yes both take back the last move
A hash that differs, or a move that does not fit, is GAMES OUT OF STEP.  While
the link is not READY (LINK LOST after 2 s without a byte) the screen says so
and the game waits.  Head-to-head records are kept apart, in the save
"link" (``<game>_won``, ``_lost``, ``_drawn``); the game in progress is the
save "link/play" (CONTINUE on the launcher's "2 Players" line).
Hold B to leave (the game is saved).
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

import gfx
import link
import linkmatch
import runtime
import scenekit
import screens
from buttons import A, B, DOWN, UP

GAME_ID = "link"
EXIT_HOLD_MS = 900
# (id, title, module); a game's number on the link is its place here + 1
CHOICES = (("junqi", "FLIP JUNQI", "junqi_link"), ("trapcat", "TRAP THE CAT", "trapcat_link"))
RECORDS = ("won", "lost", "drawn")
# the low two bits of a screen's frame_key: which screen it is
_PLAY = const(0)
_CHOICE = const(1)
_WAIT = const(2)
_END = const(3)


def put16(buf, at, value):
    buf[at] = (value >> 8) & 0xFF
    buf[at + 1] = value & 0xFF


def get16(buf, at):
    return buf[at] << 8 | buf[at + 1]


def _records(ctx):
    import saveschema as ss
    keys = []
    for g in CHOICES:
        for r in RECORDS:
            keys.append((g[0] + "_" + r, ss.COUNT))
    got, dropped = ss.check(ss.fields(*keys), ctx.load(GAME_ID))
    if dropped:
        ctx.toast("RECORDS RESET", 60)
    return got


class Scene(screens.Scene):
    # ``screen``: the choice, the wait for the other side, the match, its end

    def __init__(self, ctx):
        self.ctx = ctx
        self.io = ctx.open_link()
        self.records = _records(ctx)
        self.link = None
        self.match = None
        self.game = 0                       # index in CHOICES
        self.out = bytearray(6)             # a packet's payload, reused
        self.was_ready = False
        self.sync_due = False
        self.asking = False                 # this side asked to undo
        self.asked = False                  # the other side asks: the question shown
        self.answer_due = -1                # 1 yes / 0 no, to be sent
        self.asked_plies = 0                # the plies the other side's undo asked at
        self.chord = False
        self.choice_screen = ChoiceScreen(self)
        self.wait_screen = WaitScreen(self)
        self.play_screen = PlayScreen(self)
        self.end_screen = EndScreen(self)
        self.screen = self.choice_screen

    def tick(self, ctx):
        btn = ctx.buttons
        if btn.pressed(B) and btn.held_ms(B) >= EXIT_HOLD_MS and not self.chord:
            return "exit"
        if self.link is not None:
            self.poll(ctx)
        return self.screen.tick(ctx)

    def draw(self, fb):
        self.screen.draw(fb)

    def frame_key(self):
        """The runtime's frame cache: the key of the screen on show, which
        screen it is in its low two bits (_PLAY, _CHOICE, _WAIT, _END), so no
        two screens share one; None while the match's drawing moves every
        tick (Flip Junqi's blinking field)."""
        return self.screen.frame_key()

    # between ticks (every 8 ms): the tick starts at once for the other side's
    # move (a new data frame: its sequence number), so that it shows without
    # waiting out the rest of this side's 33 ms tick, and for this player's A
    # in play (down since the last tick: in ``stable``, not yet in ``state``),
    # so that the move goes out without waiting either.  With the first only,
    # and every tick drawn whole (15 ms of each 33), a move reached the other
    # handheld's glass 62-78 ms after its A on the virtual Pico.
    def wake(self):
        lk = self.link
        if lk is None:
            return False
        if self.screen is self.play_screen:
            btn = self.ctx.buttons
            if btn.stable & ~btn.state & A:
                return True
        seq = lk.recv_seq
        lk.poll(self.ctx.ticks_ms())
        return lk.recv_seq != seq

    # -- the meeting ------------------------------------------------------------
    def open_link(self, game):
        """A new session offering CHOICES[game]: hello until the other answers."""
        self.game = game
        ctx = self.ctx
        now = ctx.ticks_ms()
        self.link = link.Link(self.io, game + 1, ctx.settings.get("difficulty", 1),
                              runtime.VERSION, (now * 131 + ctx.tick_no() * 7 + 1) & 0xFFFF)
        self.link.start(now)
        self.was_ready = False
        self.screen = self.wait_screen

    def begin(self, seed, me):
        """The match of CHOICES[self.game] (its module imported now)."""
        mod = __import__(CHOICES[self.game][2])
        self.match = None
        self.match = mod.Match(self.ctx, seed, me)
        self.asking = self.asked = False
        self.answer_due = -1
        self.screen = self.play_screen

    def met(self):
        """Both READY for the first time: the same seed on both, player 0 the
        side whose hello number is lower (link.first)."""
        lk = self.link
        lo = min(lk.nonce, lk.peer_nonce)
        hi = max(lk.nonce, lk.peer_nonce)
        seed = (lo * 251 + hi) % 65521
        me = 0 if lk.first else 1
        print("link: %s seed %d player %d" % (CHOICES[self.game][0], seed, me))  # the console
        self.begin(seed, me)
        self.ctx.save_game()

    # -- the link, each tick ----------------------------------------------------------
    def poll(self, ctx):
        lk = self.link
        lk.poll(ctx.ticks_ms())
        ready = lk.state == link.READY
        if ready and not self.was_ready:
            self.sync_due = True
        self.was_ready = ready
        if self.match is None:
            if ready:
                self.met()
            return
        kind = lk.take()
        if kind:
            self.receive(ctx, kind, lk.inbox)
        if not lk.can_send():
            return
        m = self.match
        if self.sync_due:
            self.sync_due = False
            out = self.out
            put16(out, 0, m.plies)
            put16(out, 2, m.last_move())
            put16(out, 4, m.state_hash())
            lk.send(link.SYNC, out, 6, ctx.ticks_ms())
        elif self.answer_due >= 0:
            self.out[0] = self.answer_due
            put16(self.out, 1, self.asked_plies)
            self.answer_due = -1
            lk.send(link.UNDO_ANSWER, self.out, 3, ctx.ticks_ms())

    def out_of_step(self):
        self.link.state = link.DESYNC

    def receive(self, ctx, kind, inbox):
        m = self.match
        if kind == link.MOVE or kind == link.SYNC:
            plies = get16(inbox, 0)
            move = get16(inbox, 2)
            if plies == m.plies + 1 and move != linkmatch.NO_MOVE:
                if not m.play(move):
                    self.out_of_step()
                    return
                self.after_move(ctx)
            elif plies != m.plies and not (kind == link.SYNC and plies == m.plies - 1):
                self.out_of_step()
                return
            if plies == m.plies:
                self.link.check_hash(m.state_hash(), get16(inbox, 4))
        elif kind == link.UNDO_ASK:
            self.asked_plies = get16(inbox, 0)
            if self.asked_plies == m.plies and m.plies and m.outcome() == linkmatch.PLAYING:
                self.asked = True
            else:
                self.answer_due = 0
        elif kind == link.UNDO_ANSWER:
            if self.asking and inbox[0] and get16(inbox, 1) == m.plies:
                m.undo()
                ctx.save_game()
            elif self.asking:
                ctx.toast("UNDO REFUSED", 45)
            self.asking = False

    def send_move(self, ctx, move):
        m = self.match
        if not m.play(move):
            return
        out = self.out
        put16(out, 0, m.plies)
        put16(out, 2, move)
        put16(out, 4, m.state_hash())
        self.link.send(link.MOVE, out, 6, ctx.ticks_ms())
        self.after_move(ctx)

    def after_move(self, ctx):
        """Saved, or the end: the records (kept apart from the solo games')."""
        m = self.match
        w = m.outcome()
        if w == linkmatch.PLAYING:
            ctx.save_game()
            return
        key = "drawn" if w == linkmatch.DRAW else ("won" if w == m.me else "lost")
        key = CHOICES[self.game][0] + "_" + key
        self.records[key] = self.records.get(key, 0) + 1
        ctx.finish(GAME_ID, self.records)
        ctx.beep(1500 if key.endswith("won") else 250, 150)
        self.end_screen.open(w)

    # -- the game in progress (CONTINUE) --------------------------------------------
    def snapshot(self):
        if self.screen is not self.play_screen:
            return None
        return self.match.snapshot()

    def restore(self, snap):
        if not linkmatch.check(snap):
            return False
        for i in range(len(CHOICES)):
            if CHOICES[i][0] == snap["game"]:
                self.game = i
        self.open_link(self.game)
        self.begin(snap["seed"], snap["me"])
        return linkmatch.restore(self.match, snap)


class ChoiceScreen(screens.Screen):
    # The game both players pick; A offers it on the link, B leaves.

    def __init__(self, scene):
        self.scene = scene
        self.sel = 0

    def tick(self, ctx):
        btn = ctx.buttons
        if self.scene.io is None:
            return "exit" if btn.just_released(B) or btn.just_pressed(A) else None
        if btn.repeat(UP) or btn.repeat(DOWN):
            self.sel = 1 - self.sel
        elif btn.just_pressed(A):
            self.scene.open_link(self.sel)
        elif btn.just_released(B):
            return "exit"
        return None

    def frame_key(self):
        return _CHOICE | self.sel << 2

    def draw(self, fb):
        fb.fill(0)
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text("2 PLAYERS", 28, 1, 0)
        if self.scene.io is None:
            gfx.center(fb, "NO LINK CABLE ON THIS BOARD", 28)
            gfx.text(fb, "A/B:BACK", 2, 58)
            return
        for i in range(len(CHOICES)):
            y = 16 + 12 * i
            title = CHOICES[i][1]
            if i == self.sel:
                fb.fill_rect(0, y - 2, 128, 11, 1)
                fb.text(title, 14, y, 0)
            else:
                fb.text(title, 14, y, 1)
        gfx.center(fb, "BOTH PICK THE SAME GAME", 44)
        gfx.text(fb, "A:LINK UP  B:EXIT", 2, 58)


class WaitScreen(screens.Screen):
    # Hello under way: the link's line; B goes back to the choice.

    def __init__(self, scene):
        self.scene = scene

    def tick(self, ctx):
        if ctx.buttons.just_released(B):
            self.scene.link = None
            self.scene.screen = self.scene.choice_screen
        return None

    def frame_key(self):
        lk = self.scene.link
        return _WAIT | self.scene.game << 2 | (lk.state if lk is not None else 7) << 3

    def draw(self, fb):
        s = self.scene
        fb.fill(0)
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text(CHOICES[s.game][1], 64 - 4 * len(CHOICES[s.game][1]), 1, 0)
        gfx.center(fb, s.link.status() if s.link is not None else "", 28)
        gfx.text(fb, "B:BACK", 2, 58)


class PlayScreen(screens.Screen):
    # The match: this side's input while the link is READY and nothing is
    # asked; B+A asks to undo; the link's line over the field otherwise.

    def __init__(self, scene):
        self.scene = scene

    def tick(self, ctx):
        s = self.scene
        m = s.match
        btn = ctx.buttons
        lk = s.link
        ready = lk.state == link.READY
        if s.asked:
            if btn.just_pressed(A) or btn.just_released(B):
                s.asked = False
                s.answer_due = 0
                if btn.just_pressed(A) and m.undo():
                    s.answer_due = 1
                    ctx.save_game()
                s.chord = btn.pressed(B)
            return None
        if scenekit.undo_chord(btn):
            s.chord = True
            if ready and not s.asking and m.plies and lk.can_send():
                put16(s.out, 0, m.plies)
                lk.send(link.UNDO_ASK, s.out, 2, ctx.ticks_ms())
                s.asking = True
            else:
                ctx.beep(220, 30)
            return None
        if s.chord:
            if not btn.pressed(B):
                s.chord = False
            return None
        move = m.act(ctx, ready and not s.asking and lk.can_send())
        if move != linkmatch.NO_MOVE:
            s.send_move(ctx, move)
        return None

    def frame_key(self):
        s = self.scene
        key = s.match.frame_key()
        if key is None:
            return None
        return key << 7 | s.asking << 6 | s.asked << 5 | s.link.state << 2 | _PLAY

    def draw(self, fb):
        s = self.scene
        s.match.draw(fb)
        line = s.link.status()
        if s.asked:
            line = "UNDO? A:YES  B:NO"
        elif s.asking and not line:
            line = "ASKING TO UNDO..."
        elif not line and s.link.state == link.READY and s.match.to_move() != s.match.me:
            return
        if line:
            w = gfx.text_width(line) + 6
            gfx.box(fb, (128 - w) // 2, 26, w, 11)
            gfx.center(fb, line, 29)


class EndScreen(screens.Screen):
    # The final position and the result; A: the choice again, B: leave.

    def __init__(self, scene):
        self.scene = scene
        self.banner = ""

    def open(self, w):
        s = self.scene
        self.banner = "DRAW" if w == linkmatch.DRAW else ("YOU WIN!" if w == s.match.me
                                                          else "YOU LOSE")
        s.screen = self

    def tick(self, ctx):
        s = self.scene
        if ctx.buttons.just_pressed(A):
            if s.link.pending_kind and s.link.state == link.READY:
                ctx.beep(220, 30)               # the last move is still on its way
                return None
            s.link = None
            s.match = None
            s.screen = s.choice_screen
        elif ctx.buttons.just_released(B) and not s.chord:
            return "exit"
        return None

    def frame_key(self):
        key = self.scene.match.frame_key()
        return None if key is None else key << 2 | _END

    def draw(self, fb):
        s = self.scene
        s.match.draw(fb)
        g = CHOICES[s.game][0]
        rec = s.records
        gfx.box(fb, 14, 16, 100, 32)
        fb.text(self.banner, 64 - 4 * len(self.banner), 19, 1)
        gfx.center(fb, "W%d L%d D%d" % (rec.get(g + "_won", 0), rec.get(g + "_lost", 0),
                                        rec.get(g + "_drawn", 0)), 29)
        gfx.center(fb, "A:AGAIN  B:EXIT", 39)
