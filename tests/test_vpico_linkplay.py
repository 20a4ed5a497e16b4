"""Two virtual Picos linked (host_tools/emulation/vplink.TwoPicos): the flashed
firmware on each (main.py from power-on, .mpy as `flash` deploys it, UART0 on
GP0/GP1), the launcher's "2 Players" line, and by key scripts a whole Trap the
Cat game (through a cable pulled for 3 s and a line that flips bits) and a
whole Flip Junqi game (through a power cut on one side: CONTINUE); after each
move both screens are what the rules say, drawn on the host from a mirror of
the game (junqi_link / trapcat_link on CPython) and compared pixel for pixel.
One run of two boards for all of it (two virtual Picos are slow)."""

import pytest
from gamectx import FakeCtx

from host_tools.emulation.pinsim import install_host_modules
from host_tools.emulation.vplinkplay import firmware_pair, meet_trapcat, met
from host_tools.emulation.vplinkplay import tap as _tap

pytestmark = pytest.mark.device

LOST = "LINK LOST - CHECK CABLE"


def _render(match, overlay=None, field_only=False):
    import framebuf
    import gfx
    import junqi_board as jb

    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    if field_only:
        match.view.draw(fb, match, jb.NONE)
    else:
        match.draw(fb)
    if overlay:
        w = gfx.text_width(overlay) + 6
        gfx.box(fb, (128 - w) // 2, 26, w, 11)
        gfx.center(fb, overlay, 29)
    return [bytearray((buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)) for y in range(64)]


def _end_render(match, game, records):
    import framebuf
    import linkplay

    scene = linkplay.Scene(FakeCtx())
    scene.match = match
    scene.game = game
    scene.records = records
    scene.end_screen.open(match.outcome())
    buf = bytearray(1024)
    fb = framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB)
    scene.draw(fb)
    return [bytearray((buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)) for y in range(64)]


def _text(rows):
    return "\n".join("".join("#" if v else "." for v in row) for row in rows)


def _same(got, want, masks=()):
    """Pixel rows equal outside the rectangles ``masks`` (x, y, w, h)."""
    got = [bytearray(r) for r in got]
    want = [bytearray(r) for r in want]
    for x0, y0, w, h in masks:
        for y in range(max(0, y0), min(64, y0 + h)):
            for x in range(max(0, x0), min(128, x0 + w)):
                got[y][x] = want[y][x] = 0
    assert got == want, "screen differs:\n%s\n\nwanted:\n%s" % (_text(got), _text(want))


def _met(two, side, game, nth):
    found = met(two, side, game, nth)
    assert found is not None, two.console(side)[-400:]
    return found


def _keys_to(cursor, target, rows_on_x):
    out = []
    cols = 5 if rows_on_x else 9
    r, c = divmod(cursor, cols)
    tr, tc = divmod(target, cols)
    if rows_on_x:
        out += ["right" if tr > r else "left"] * abs(tr - r)
        out += ["down" if tc > c else "up"] * abs(tc - c)
    else:
        out += ["right" if tc > c else "left"] * abs(tc - c)
        out += ["down" if tr > r else "up"] * abs(tr - r)
    return out


def _play(two, mirrors, sides, move, src=None, rows_on_x=False, wait=10):
    """The mover's keys: the cursor to ``src`` (Junqi's piece) and A, then to
    the move's cell and A; the mirrors play it.  A Junqi move is src * 64 + dst
    (a flip: src == dst), a Trap the Cat move its cell."""
    who = sides[mirrors[0].to_move()]
    m = mirrors[who]
    cell = move & 63 if rows_on_x else move
    for target in ([src] if src is not None else []) + [cell]:
        for k in _keys_to(m.cursor, target, rows_on_x):
            _tap(two, who, k, 1)
        m.cursor = target
        _tap(two, who, "a", 1)
    for mm in mirrors:
        assert mm.play(move)
    two.step(ticks=wait)
    return who


def _trapcat(two, mirrors, sides):
    """The blocker blocks the cat's first free neighbour, the cat steps to the
    free neighbour nearest the border."""
    m = mirrors[0]
    b = m.board
    out = bytearray(6)
    k = b.free_neighbours(b.cat, out)
    if m.to_move() == 0:
        return out[0]
    return min(out[:k], key=lambda c: min(c // 9, c % 9, 8 - c // 9, 8 - c % 9))


def _junqi_next(model):
    """A short game with what the host knows of the deal: take a flag when a
    move can; else flip a hidden flag, or a hidden piece next to a flag of
    the other colour (so a capture comes soon); else the first legal move.
    Returns (move, src or None)."""
    import junqi_board as jb
    import junqi_flip as jf

    n = model.legal_moves()
    moves = [model.moves[i] for i in range(n)]
    for mv in moves:
        dst = mv & 63
        if mv >> 6 != dst and model.occ[dst] not in (0, jf.HIDDEN) and model.kind[dst] == jf.FLAG:
            return mv, mv >> 6
    flips = [mv >> 6 for mv in moves if mv >> 6 == mv & 63]
    flags = [c for c in flips if model.kind[c] == jf.FLAG]
    near = [c for c in flips for f in range(jb.CELLS)
            if model.occ[f] != 0 and model.kind[f] == jf.FLAG and c in jb.road_neighbours(f)
            and model.colour[c] != model.colour[f] and jb.KIND[c] == jb._POST
            and model.kind[c] not in (jf.FLAG, jf.MINE)]
    for pick in (near, flags, flips):
        if pick:
            return pick[0] * 65, None
    return moves[0], moves[0] >> 6


def _junqi_length(seed):
    """Plies of the game ``_junqi_next`` plays on the deal of ``seed``."""
    import junqi_flip as jf

    g = jf.FlipGame(seed=seed)
    n = 0
    while g.winner == jf.NOBODY and n < 100:
        g.apply(_junqi_next(g)[0])
        n += 1
    return n


def _fits(plies):
    """A deal for the Junqi part: a short game (the run stays short) that lasts
    beyond the 3 plies played before the power cut, each checked on the field
    (about one deal in eight ends with a flag taken by the 3rd ply: the seed
    comes from the boards' clocks, so any firmware change can deal one)."""
    return 3 < plies <= 24


def test_two_virtual_picos_play_trap_the_cat_and_flip_junqi_over_the_link():
    install_host_modules()
    import junqi_link
    import trapcat_link

    with firmware_pair(seed=7) as (two, picos):
        # -- Trap the Cat ------------------------------------------------------
        meet_trapcat(two)
        mirrors, sides = [], [0, 0]
        for side in (0, 1):
            seed, me = _met(two, side, "trapcat", 1)
            mirrors.append(trapcat_link.Match(FakeCtx(), seed, me))
            sides[me] = side
        assert mirrors[0].seed == mirrors[1].seed and mirrors[0].me != mirrors[1].me
        for side in (0, 1):
            _same(picos[side].frame_pixels(), _render(mirrors[side]))
        ply = 0
        while mirrors[0].outcome() == -1:
            move = _trapcat(two, mirrors, sides)
            if ply == 2:                                # the cable pulled for 3 s
                two.cable.cut = True
                mover = _play(two, mirrors, sides, move, wait=0)
                other = 1 - mover
                mirrors[other].undo()                   # not there yet
                two.step(ticks=63)
                for side in (0, 1):
                    _same(picos[side].frame_pixels(), _render(mirrors[side], LOST))
                two.step(ticks=27)
                two.cable.cut = False
                assert mirrors[other].play(move)
                two.step(ticks=20)
            elif ply in (3, 4):                         # a line flipping bits in 2 % of its bytes
                two.cable.noise = 0.02
                _play(two, mirrors, sides, move, wait=20)
                two.cable.noise = 0.0
                two.step(ticks=15)
            else:
                _play(two, mirrors, sides, move)
            ply += 1
            if mirrors[0].outcome() == -1:
                for side in (0, 1):
                    _same(picos[side].frame_pixels(), _render(mirrors[side]))
        assert two.cable.lost > 0
        w = mirrors[0].outcome()
        trap_winner = sides[w]
        for side in (0, 1):
            m = mirrors[side]
            rec = {"trapcat_won": 1} if w == m.me else {"trapcat_lost": 1}
            _same(picos[side].frame_pixels(), _end_render(m, 1, rec))
        # -- Flip Junqi, through a power cut ---------------------------------
        for side in (0, 1):
            _tap(two, side, "a", 4)                     # the choice again
            _tap(two, side, "up")                       # FLIP JUNQI
        for met in range(1, 8):
            _tap(two, 1, "a", 5 + met)
            _tap(two, 0, "a", 60)
            mirrors, sides = [], [0, 0]
            for side in (0, 1):
                seed, me = _met(two, side, "junqi", met)
                mirrors.append(junqi_link.Match(FakeCtx(), seed, me))
                sides[me] = side
            if _fits(_junqi_length(seed)):
                break
            # a game too long (or too short) for this deal: both leave (it is saved)
            # and start a new one (RIGHT on the 2 Players line)
            for side in (0, 1):
                two.step(("b",) if side == 0 else (), ("b",) if side == 1 else (), ticks=32)
                two.step(ticks=4)
                _tap(two, side, "right", 8)
        assert _fits(_junqi_length(seed))

        def check():
            for side in (0, 1):
                m = mirrors[side]
                cx, cy = m.view.cx[m.cursor], m.view.cy[m.cursor]
                _same(picos[side].frame_pixels(), _render(m, field_only=True),
                      [(cx - 1, cy - 1, 11, 13), (60, 0, 8, 64)])

        def junqi_ply():
            move, src = _junqi_next(mirrors[0].model)
            _play(two, mirrors, sides, move, src=None if src is None or move >> 6 == move & 63 else src,
                  rows_on_x=True, wait=15)

        check()
        for _ in range(3):
            junqi_ply()
            check()
        # player 1's handheld loses power, and CONTINUEs the linked game
        p1 = sides[1]
        two.power_off(p1)
        two.step(ticks=70)
        m0 = mirrors[sides[0]]
        cx, cy = m0.view.cx[m0.cursor], m0.view.cy[m0.cursor]
        _same(picos[sides[0]].frame_pixels(), _render(m0, LOST), [(cx - 1, cy - 1, 11, 13)])
        two.power_on(p1)
        two.step(ticks=45)
        _tap(two, p1, "up")
        _tap(two, p1, "a", 60)
        mirrors[p1].cursor = 27
        check()
        plies = 3
        while mirrors[0].outcome() == -1:
            junqi_ply()
            plies += 1
            assert plies < 200
            if mirrors[0].outcome() == -1:
                check()
        jw = mirrors[0].outcome()
        assert mirrors[1].outcome() == jw
        for side in (0, 1):
            m = mirrors[side]
            rec = {"junqi_won" if jw == m.me else "junqi_lost" if jw != 2 else "junqi_drawn": 1}
            rec["trapcat_won" if side == trap_winner else "trapcat_lost"] = 1
            got = picos[side].frame_pixels()
            cx, cy = m.view.cx[m.cursor], m.view.cy[m.cursor]
            _same(got, _end_render(m, 0, rec), [(cx - 1, cy - 1, 11, 13)])
        for side in (0, 1):
            assert "Traceback" not in two.console(side), two.console(side)[-600:]
