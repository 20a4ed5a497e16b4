"""Trap the Cat's distance-map overlay (B+DOWN): the numbers are the article's
(border 0, walls 100, the least neighbour + 1), computed by the cats' own
border search (trapcat_ai.Analyzer.distances, the only one), and the key
toggles the map without a hint or a move."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "firmware" / "circuitpython"))

import framebuf  # noqa: E402  (host copy of MicroPython's framebuf)
import gamectx  # noqa: E402
import trapcat  # noqa: E402
import trapcat_ai  # noqa: E402
import trapcat_game  # noqa: E402
from buttons import A, B, DOWN  # noqa: E402


def _article_map(board):
    """The article's way: border 0, walls 100, the rest relaxed to the least
    neighbour + 1 until nothing changes (unreached cells stay high)."""
    n = board.n
    big = 1000
    out = [100 if board.cells[x] else (0 if board.border[x] else big) for x in range(n)]
    changed = True
    while changed:
        changed = False
        for x in range(n):
            if board.cells[x] or board.border[x]:
                continue
            best = min(out[board.adj[6 * x + k]] for k in range(board.deg[x])) + 1
            if best < out[x]:
                out[x] = best
                changed = True
    return out


def _boards(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        b = trapcat.Board(rng.choice((5, 7, 9)))
        b.reset(trapcat.Rng(rng.randrange(1, 60000)), rng.randrange(0, b.n // 2))
        yield b


def test_the_map_is_the_articles_relaxation():
    """The cats' BFS is the article's map: equal on every free cell the border
    reaches, INF on the walls (the article's 100) and on the cells it cannot."""
    far = 0
    for b in _boards(5, 300):
        article = _article_map(b)
        an = trapcat_ai.Analyzer(b)
        an.distances()
        for x in range(b.n):
            if b.cells[x]:
                assert article[x] == 100 and an.dist[x] == trapcat_ai.INF
            elif an.dist[x] == trapcat_ai.INF:
                far += 1
                assert article[x] > 100
            else:
                assert an.dist[x] == article[x]
    assert far > 0                      # boards with cells cut off were seen


class Ctx(gamectx.FakeCtx):
    def __init__(self):
        gamectx.FakeCtx.__init__(self, 1)
        self.frame = bytearray(1024)

    def tick_no(self):
        return 0


def _chord(g, ctx):
    """Hold B, press DOWN, release both."""
    ctx.buttons.held = B
    gamectx.press(g, ctx, DOWN)
    ctx.buttons.held = 0
    gamectx.release(g, ctx, B)


def test_b_down_toggles_the_map_and_nothing_else():
    ctx = Ctx()
    fb = framebuf.FrameBuffer(ctx.frame, 128, 64, framebuf.MONO_VLSB)
    g = trapcat_game.Scene(ctx)
    cursor = g.cursor
    g.draw(fb)
    plain = bytes(ctx.frame)
    _chord(g, ctx)
    assert g.overlay and not g.job.running() and g.cursor == cursor   # no hint, no move
    g.draw(fb)
    shown = bytes(ctx.frame)
    assert shown != plain
    # a digit in a free cell instead of its dot: the border's 0 in the top-left
    b = g.board
    if not b.cells[0] and b.cat != 0:
        zero = trapcat_game.gfx.glyph("0")
        for dx in range(3):
            for dy in range(5):
                assert fb.pixel(2 + dx, 1 + dy) == zero.pixel(dx, dy)
    # the map follows the board: block a cell, and its number becomes a wall
    gamectx.press(g, ctx, A)
    assert g.board.moves == 1
    g.draw(fb)
    assert g.an.dist[g.cursor] == trapcat_ai.INF or g.board.status != trapcat.PLAYING
    _chord(g, ctx)
    assert not g.overlay


VM_OVERLAY = r"""
import games
rt.settings['difficulty'] = 1
idle(3)
tap(buttons.DOWN, [e[0] for e in games.GAMES].index('trapcat'))
tap(buttons.A)
idle(2)
g = rt.screen
if OVERLAY:
    step(buttons.B)
    press(buttons.B | buttons.DOWN)     # B+DOWN: the map on
    step(buttons.B | buttons.DOWN)
step(0)
step(0)
on = g.overlay
allocs = []
for k in range(3):
    b = g.board
    for c in range(b.n):
        if b.can_block(c) and not b.border[c] and not b.is_adjacent(b.cat, c):
            break
    g.cursor = c
    for mask in (buttons.A, buttons.A, 0, 0):
        press(mask)
        allocs.append(measure(rt.step)[2])
        CLOCK[0] += 33
    n = 0
    while g.play_screen.cat_turn and n < 200:
        press(0)
        allocs.append(measure(rt.step)[2])
        CLOCK[0] += 33
        n += 1
emit('overlay', (on, g.overlay, g.board.moves, allocs))
"""


def test_the_map_allocates_nothing_per_tick_in_the_micropython_vm():
    """The same ticks (blocks and the cat's replies) with the map shown and
    without allocate the same bytes: the map adds none (a block's panel text
    is the game's own allocation)."""
    from host_tools.emulation import mpvm, runtime_vm

    got = {}
    for overlay in (True, False):
        with runtime_vm.staged_firmware() as fw:
            r = mpvm.run(runtime_vm.SETUP + "OVERLAY = %r\n" % overlay + VM_OVERLAY, input_dir=fw)
        on, still, moves, allocs = r["overlay"]
        assert on == still == overlay and moves >= 2 and len(allocs) >= 12
        got[overlay] = allocs
    assert got[True] == got[False]
