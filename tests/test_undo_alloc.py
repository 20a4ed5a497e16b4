"""Undo allocates nothing on MicroPython: each game's undo, run inside the
MicroPython VM through the whole runtime (launcher, game, B+A), measured with
the VM's allocation counter (GC off: every byte a call allocates counts)."""

from host_tools.emulation import mpvm, runtime_vm

_START = r"""
import games
rt.settings['difficulty'] = 1
idle(3)
tap(buttons.DOWN, [e[0] for e in games.GAMES].index(GAME))
tap(buttons.A)
idle(2)
g = rt.screen
def chord_step():
    # B held, then A pressed with it: the undo happens on this tick
    step(buttons.B)
    press(buttons.B | buttons.A)
    r = measure(rt.step)
    CLOCK[0] += 33
    step(0); step(0)
    return r[2]
"""

TRAPCAT = r"""
snaps = []
for k in range(6):
    b = g.board
    snaps.append((bytes(b.cells), b.cat, b.moves))
    for c in range(b.n):
        if b.can_block(c) and not b.border[c] and not b.is_adjacent(b.cat, c):
            break
    g.cursor = c
    tap(buttons.A)
    n = 0
    while g.play_screen.cat_turn and n < 200:
        step(0)
        n += 1
    if g.screen is not g.play_screen or g.play_screen.cat_turn:
        break
allocs = []
ok = []
while g.undo_ring.count:
    want = snaps[g.undo_ring.count - 1]
    allocs.append(measure(g.undo)[2])
    b = g.board
    ok.append((bytes(b.cells), b.cat, b.moves) == want)
emit('r', (len(snaps), allocs, ok))
"""

CATMOUSE = r"""
tap(buttons.A)                      # the title: A starts as the mouse
idle(6)
c = g.match.game
rounds = []
for key in (buttons.LEFT, buttons.UP, buttons.LEFT, buttons.A, buttons.LEFT, buttons.A, buttons.A, buttons.UP):
    rounds.append((c.round, c.cat, c.mouse))
    tap(key)
    idle(8)
tick_allocs = []
after = []
for k in range(3):
    tick_allocs.append(chord_step())
    after.append((c.round, c.cat, c.mouse))
direct = []
while g.undo_ring.count:
    direct.append(measure(g.undo)[2])
emit('r', (rounds, after, tick_allocs, direct, g.screen is g.play))
"""

JUNQI = r"""
tap(buttons.A)                      # the menu: VS DEVICE AI
snaps = []
for k in range(4):
    c = g.model
    snaps.append((bytes(c.occ), bytes(c.kind), bytes(c.alive), bytes(c.pool), c.plies))
    n = c.legal_moves()
    g.start_move(c.moves[(k * 7) % n])
    t = 0
    while g.screen is not g.play_screen and g.screen is not g.end_screen and t < 300:
        step(0)
        t += 1
    if g.screen is not g.play_screen:
        break
allocs = []
ok = []
while g.undo_ring.count >= 2:
    want = snaps[g.undo_ring.count // 2 - 1]
    allocs.append(measure(g.undo)[2])
    c = g.model
    ok.append((bytes(c.occ), bytes(c.kind), bytes(c.alive), bytes(c.pool), c.plies) == want)
emit('r', (len(snaps), allocs, ok))
"""


def _run(game, body):
    with runtime_vm.staged_firmware() as fw:
        return mpvm.run(runtime_vm.SETUP + "GAME = %r\n" % game + _START + body,
                        input_dir=fw)["r"]


def test_trapcat_undo_allocates_nothing():
    turns, allocs, ok = _run("trapcat", TRAPCAT)
    assert len(allocs) == turns >= 3 and all(ok), (turns, allocs, ok)   # the cat may escape
    assert allocs == [0] * turns


def test_catmouse_undo_allocates_nothing_even_in_a_whole_tick():
    rounds, after, tick_allocs, direct, playing = _run("catmouse", CATMOUSE)
    assert playing and rounds[-1][0] >= 4
    assert all(a in rounds for a in after) and after[0][0] > after[1][0] > after[2][0], (
        rounds, after)                                     # back 3 of the player's moves
    assert tick_allocs == [0, 0, 0] and direct and set(direct) == {0}


def test_junqi_undo_allocates_nothing():
    turns, allocs, ok = _run("junqi", JUNQI)
    assert turns == 4 and len(allocs) == 4 and all(ok), (turns, allocs, ok)
    assert allocs == [0] * 4
