"""2 PLAYERS (firmware/linkplay.py with junqi_link / trapcat_link): two scenes,
each with its own FakeCtx, wired through test_link's in-memory cable and ticked
together (33 ms a tick).  Every move goes through the keys of the side to
move; both handhelds must hold the same game at every step."""

import pytest
from gamectx import FakeCtx, tick
from test_link import Cable

import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
import junqi_board as jb
import junqi_flip as jf
import link
import linkmatch
import linkplay
from buttons import A, B, DOWN, LEFT, RIGHT, UP


class Handheld:
    def __init__(self, cable, side, saved=None):
        self.ctx = FakeCtx()
        self.ctx.now = 1000
        self.ctx.link = cable.end(side)
        self.ctx.game_id = "link"
        if saved is not None:
            self.ctx.saved = saved
        self.scene = linkplay.Scene(self.ctx)
        self.ctx.game = self.scene


class Pair:
    def __init__(self, seed=1):
        self.cable = Cable(seed)
        self.hands = [Handheld(self.cable, 0), Handheld(self.cable, 1)]

    def step(self, keys=(0, 0), ticks=1):
        for _ in range(ticks):
            for h, k in zip(self.hands, keys):
                h.ctx.now += 33
                if h.scene is not None:
                    assert tick(h.scene, h.ctx, down=k) is None
            keys = (0, 0)

    def meet(self, game=0):
        for h in self.hands:
            if game:
                tick(h.scene, h.ctx, down=DOWN)
            self.step((A, 0) if h is self.hands[0] else (0, A), 3)
        self.step(ticks=20)
        for h in self.hands:
            assert h.scene.screen is h.scene.play_screen, h.scene.link.status()
        return [h.scene.match for h in self.hands]

    def same(self):
        a, b = (h.scene.match for h in self.hands)
        assert (a.plies, a.state_hash()) == (b.plies, b.state_hash())
        assert a.history[:a.plies] == b.history[:b.plies]


def keys_to(match, target, size_rows, size_cols, rows_on_x):
    """The arrow presses that take ``match.cursor`` to ``target``."""
    out = []
    r, c = divmod(match.cursor, size_cols)
    tr, tc = divmod(target, size_cols)
    if rows_on_x:                       # Junqi: rows along x (LEFT/RIGHT), columns UP/DOWN
        out += [RIGHT if tr > r else LEFT] * abs(tr - r)
        out += [DOWN if tc > c else UP] * abs(tc - c)
    else:                               # Trap the Cat: columns LEFT/RIGHT, rows UP/DOWN
        out += [RIGHT if tc > c else LEFT] * abs(tc - c)
        out += [DOWN if tr > r else UP] * abs(tr - r)
    return out


def press_on(pair, who, keys):
    for k in keys:
        pair.step((k, 0) if who == 0 else (0, k))


def junqi_move(pair, rng_pick):
    """The side to move plays a move picked from its legal moves (captures
    first) through its keys; returns it."""
    hands = pair.hands
    mover = hands[0].scene.match.to_move()
    who = 0 if hands[0].scene.match.me == mover else 1
    m = hands[who].scene.match
    g = m.model
    n = g.legal_moves()
    moves = [g.moves[i] for i in range(n)]
    captures = [mv for mv in moves if mv >> 6 != mv & 63 and g.occ[mv & 63]]
    move = rng_pick(captures or moves)
    src, dst = move >> 6, move & 63
    press_on(pair, who, keys_to(m, src, jb.ROWS, jb.COLS, True) + [A])
    if src != dst:
        press_on(pair, who, keys_to(m, dst, jb.ROWS, jb.COLS, True) + [A])
    return move



def _undo_asked_and_granted(p):
    """Hand 0's B+A asks to undo, hand 1's A grants it; returns the asker."""
    asker = p.hands[0]
    asker.ctx.buttons.held = B
    p.step((B, 0))
    p.step((A, 0))
    asker.ctx.buttons.held = 0
    p.step((0, 0), 1)
    asker.ctx.buttons.up = B
    p.step(ticks=6)
    assert p.hands[1].scene.asked
    p.step((0, A), 1)
    p.step(ticks=10)
    return asker

def test_no_link_cable_says_so():
    ctx = FakeCtx()
    s = linkplay.Scene(ctx)
    assert s.io is None
    assert tick(s, ctx, down=A) == "exit"


def test_different_games_on_the_two_sides_say_so():
    p = Pair()
    tick(p.hands[1].scene, p.hands[1].ctx, down=DOWN)
    p.step((A, 0))
    p.step((0, A))
    p.step(ticks=20)
    for h in p.hands:
        assert h.scene.link.status() == "OTHER HANDHELD DIFFERS"
        assert h.scene.screen is h.scene.wait_screen


def test_a_whole_junqi_game_head_to_head_with_undo_records_apart():
    import random
    rng = random.Random(4)
    p = Pair()
    a, b = p.meet(0)
    assert {a.me, b.me} == {0, 1} and a.seed == b.seed
    assert bytes(a.model.kind) == bytes(b.model.kind)      # the same face-down deal
    # undo asks the other side: the asker's B+A, the other's A
    junqi_move(p, rng.choice)
    p.step(ticks=10)
    p.same()
    asker = _undo_asked_and_granted(p)
    assert a.plies == b.plies == 0 and not asker.scene.asking
    p.same()
    plies = 0
    while a.outcome() == linkmatch.PLAYING:
        junqi_move(p, rng.choice)
        p.step(ticks=8)
        p.same()
        plies += 1
        assert plies < 700
    assert b.outcome() == a.outcome()
    for h in p.hands:
        assert h.scene.screen is h.scene.end_screen
        assert h.ctx.saved["link/play"] == {}
        assert h.ctx.finishes == 1
        assert "junqi" not in h.ctx.saved               # the solo game's records untouched
    recs = [h.ctx.saved["link"] for h in p.hands]
    if a.outcome() == jf.DRAW:
        assert recs[0] == recs[1] == {"junqi_drawn": 1}
    else:
        assert sorted(map(sorted, recs)) == [["junqi_lost"], ["junqi_won"]]


def cat_move(pair):
    """Trap the Cat: the blocker blocks a free neighbour of the cat, the cat
    steps to the free neighbour nearest the border, through their keys."""
    hands = pair.hands
    m0 = hands[0].scene.match
    who = 0 if m0.me == m0.to_move() else 1
    m = hands[who].scene.match
    b = m.board
    out = bytearray(6)
    k = b.free_neighbours(b.cat, out)
    if m.to_move() == 0:
        cell = out[0]
    else:
        cell = min(out[:k], key=lambda c: min(c // 9, c % 9, 8 - c // 9, 8 - c % 9))
    press_on(pair, who, keys_to(m, cell, 9, 9, False) + [A])
    return cell


def test_a_trap_the_cat_game_through_a_pulled_cable_noise_and_a_power_cut():
    p = Pair(seed=5)
    a, b = p.meet(1)
    blocker = a if a.me == 0 else b
    assert bytes(a.board.cells) == bytes(b.board.cells) and a.board.cat == b.board.cat
    for _ in range(2):
        cat_move(p)
        p.step(ticks=8)
        p.same()
    # the cable pulled for 3 s right after a move: LINK LOST on both within 2 s
    p.cable.cut = True
    cat_move(p)
    p.step(ticks=62)                     # 2.05 s
    for h in p.hands:
        assert h.scene.link.status() == "LINK LOST - CHECK CABLE"
    p.step(ticks=30)
    p.cable.cut = False
    p.step(ticks=40)
    p.same()
    assert a.plies == 3
    # a line that flips bits in 3 % of its bytes
    p.cable.noise = 0.03
    for _ in range(3):
        cat_move(p)
        p.step(ticks=20)
    p.cable.noise = 0.0
    p.step(ticks=20)
    p.same()
    # a power cut on side 1 after a move it never saved: CONTINUE from its
    # last save, the other side's last move comes back through SYNC
    old = dict(p.hands[1].ctx.saved)
    cat_move(p)
    p.step(ticks=8)
    p.same()
    plies = a.plies
    p.hands[1].scene = None
    p.step(ticks=70)
    assert p.hands[0].scene.link.status() == "LINK LOST - CHECK CABLE"
    back = Handheld(p.cable, 1, old)
    assert back.scene.restore(old["link/play"]["resume"])
    p.hands[1] = back
    assert back.scene.match.plies == plies - 1
    p.step(ticks=40)
    p.same()
    assert back.scene.match.plies == plies
    while p.hands[0].scene.match.outcome() == linkmatch.PLAYING:
        cat_move(p)
        p.step(ticks=8)
        p.same()
    assert blocker.board.status != 0
    recs = sorted(sorted(h.ctx.saved["link"]) for h in p.hands)
    assert recs == [["trapcat_lost"], ["trapcat_won"]]


def test_a_snapshot_that_does_not_fit_is_refused():
    ctx = FakeCtx()
    ctx.link = Cable().end(0)
    s = linkplay.Scene(ctx)
    assert not s.restore({"game": "junqi", "me": 0, "seed": 3, "moves": "zz"})
    assert not s.restore({"game": "chess", "me": 0, "seed": 3, "moves": ""})
    s = linkplay.Scene(ctx)
    assert not s.restore({"game": "trapcat", "me": 1, "seed": 3, "moves": "00ff"})  # off the grid


@pytest.mark.parametrize("bad", [b"\xa5\x06\x05\x11" + bytes(8), bytes(range(256))])
def test_garbage_on_the_line_never_breaks_a_game(bad):
    p = Pair()
    a, b = p.meet(0)
    p.hands[0].ctx.link.rx.extend(bad)
    p.step(ticks=20)
    p.same()
    assert a.outcome() == linkmatch.PLAYING
    assert p.hands[0].scene.link.state == link.READY


class WatchedPair(Pair):
    """A Pair that draws both scenes after every tick and checks the runtime's
    frame cache against them: while a scene's ``frame_key()`` stays the same
    (not None), its drawing must stay the same too."""

    def __init__(self, seed=1):
        Pair.__init__(self, seed)
        self.last = [None, None]         # (key, frame) drawn last, per side
        self.kept = 0                    # ticks whose frame the cache would have kept

    def step(self, keys=(0, 0), ticks=1):
        for _ in range(ticks):
            Pair.step(self, keys)
            keys = (0, 0)
            for side, h in enumerate(self.hands):
                if h.scene is not None:
                    self.check(side, h.scene)

    def check(self, side, scene):
        import framebuf
        buf = bytearray(1024)
        scene.draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB))
        key = scene.frame_key()
        last = self.last[side]
        if key is not None and last is not None and last[0] == key:
            assert last[1] == bytes(buf), "frame_key %r kept, drawing changed" % key
            self.kept += 1
        self.last[side] = (key, bytes(buf))


def test_the_frame_cache_keeps_a_linked_frame_only_while_its_drawing_stays():
    p = WatchedPair(seed=5)
    keys = [h.scene.frame_key() for h in p.hands]
    assert [k & 3 for k in keys] == [1, 1]                  # the choice screen
    a, b = p.meet(1)
    assert all(h.scene.frame_key() & 3 == 0 for h in p.hands)  # in play
    before = [h.scene.frame_key() for h in p.hands]
    p.step(ticks=5)
    assert [h.scene.frame_key() for h in p.hands] == before  # idle: nothing drawn again
    for _ in range(2):                       # moves, cursor moves (keys_to's arrows)
        cat_move(p)
        p.step(ticks=8)
    # undo: the asker's B+A shows ASKING TO UNDO..., the other's question
    _undo_asked_and_granted(p)
    p.same()
    p.cable.cut = True                       # LINK LOST over the grid, then back
    p.step(ticks=70)
    p.cable.cut = False
    p.step(ticks=20)
    while a.outcome() == linkmatch.PLAYING:  # to the end screens
        cat_move(p)
        p.step(ticks=8)
    assert all(h.scene.screen is h.scene.end_screen for h in p.hands)
    assert all(h.scene.frame_key() & 3 == 3 for h in p.hands)
    assert p.kept > 200


def test_a_linked_junqi_field_is_drawn_every_tick():
    p = Pair()
    p.meet(0)
    assert all(h.scene.frame_key() is None for h in p.hands)   # its field blinks


def test_the_linked_trap_the_cat_panel_is_the_text_it_stands_for():
    """The panel's lines drawn once (labels) set the pixels gfx.text sets."""
    import framebuf
    import gfx
    import trapcat_link as tl

    for me in (0, 1):
        m = tl.Match(FakeCtx(), 1234, me)
        for _ in range(2):
            drawn = bytearray(1024)
            m.draw(framebuf.FrameBuffer(drawn, 128, 64, framebuf.MONO_VLSB))
            want = bytearray(1024)
            fb = framebuf.FrameBuffer(want, 128, 64, framebuf.MONO_VLSB)
            m.draw_grid(fb, m.cursor)
            gfx.text(fb, "TRAP THE CAT", tl.PX, 0)
            gfx.text(fb, "YOU: " + ("BLOCKER", "CAT")[me], tl.PX, 10)
            gfx.text(fb, "MOVES %d" % m.board.moves, tl.PX, 18)
            gfx.text(fb, "YOUR TURN" if m.to_move() == me else "THEIR TURN", tl.PX, 26)
            gfx.text(fb, ("A:BLOCK", "A:STEP")[me], tl.PX, 52)
            assert drawn == want
            cell = next(c for c in range(m.board.n) if m.legal(c))
            assert m.play(cell)


def test_wake_starts_a_tick_for_a_move_arriving_and_for_a_in_play():
    import buttons
    p = Pair(seed=5)
    p.meet(1)
    h0, h1 = p.hands
    mover, other = (h0, h1) if h0.scene.match.me == 0 else (h1, h0)
    # wake() runs between ticks, under the runtime's buttons (sampled there)
    fakes = [h.ctx.buttons for h in p.hands]
    for h in p.hands:
        h.ctx.buttons = buttons.Buttons()
    btn = mover.ctx.buttons
    # this player's A: down since the last tick, on the play screen only
    now = mover.ctx.now
    assert not mover.scene.wake()
    btn.sample(A, now)
    assert mover.scene.wake()
    btn.update(now)                          # the tick that took it
    assert not mover.scene.wake()
    btn.sample(0, now + 40)
    btn.update(now + 40)
    mover.scene.screen = mover.scene.choice_screen
    btn.sample(A, now + 80)
    assert not mover.scene.wake()
    mover.scene.screen = mover.scene.play_screen
    # the other side's move: True once, when its packet has come
    m = mover.scene.match
    cell = next(c for c in range(m.board.n) if m.legal(c))
    mover.scene.send_move(mover.ctx, cell)
    assert other.scene.wake()
    assert not other.scene.wake()
    for h, fake in zip(p.hands, fakes):
        h.ctx.buttons = fake
    p.step(ticks=3)
    p.same()
