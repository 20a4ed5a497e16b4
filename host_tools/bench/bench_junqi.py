"""Junqi budgets: engineer routing on a busy board in the MicroPython VM (fuel,
estimated Pico ms, bytes per call), one AI turn's slices, and the AI's win rate
against a random player (and of the easy AI, EASY difficulty)."""

import host_tools.core.fwpath  # noqa: F401
from host_tools.emulation import mpvm

import junqi_board as jb

# 27 pieces with the railway mostly open, so the engineer's flood is large.
BUSY = ("A0 A1 A2 A3 A4 B3 C1 C2 C3 D1 D2 D3 E1 E2",
        "G3 H2 H3 I1 I3 J1 J2 K2 L0 L1 L2 L3 L4")
ROUTE_BUDGET_FUEL = 2_200_000      # 20 ms on a Pico
SLICE_BUDGET_FUEL = 5_500_000      # 50 ms: the UI polls input between AI slices
TOURNAMENT_GAMES = 400


def _busy_occ():
    occ = bytearray(jb.CELLS)
    for side, names in enumerate(BUSY):
        for name in names.split():
            occ[jb.parse_cell(name)] = side + 1
    return bytes(occ)


_GUEST = '''
import junqi_board as jb
import junqi_flip as jf
import junqi_ai as ja
r = jb.Router()
occ = %r
for i in range(60):
    r.occ[i] = occ[i]
worst = (0, 0, 0)
for src in (25, 5, 30, 9):
    r.destinations(src, 1, jb.ENGINEER)
    n, fuel, alloc = measure(r.destinations, src, 1, jb.ENGINEER)
    if fuel > worst[1]:
        worst = (n, fuel, alloc)
r.destinations(5, 1, jb.ENGINEER)
_, tfuel, talloc = measure(r.trace, 59)
emit('route', worst + (tfuel, talloc))
g = jf.FlipGame(seed=11)
ai = ja.AI(seed=3)
rp = ja.RandomPlayer(seed=4)
for k in range(40):
    g.apply(ai.choose(g) if g.to_move == 0 else rp.choose(g))
ai.choose(g)
ai.begin(g)
slices = 0
maxfuel = 0
total = 0
alloc = 0
done = False
while not done:
    done, f, a = measure(ai.step)
    slices += 1
    total += f
    alloc += a
    if f > maxfuel:
        maxfuel = f
emit('ai', (slices, maxfuel, total, alloc))
'''


def collect(report):
    from host_tools.commands.junqi_cmd import tournament

    res = mpvm.run(_GUEST % (_busy_occ(),))
    n, fuel, alloc, tfuel, talloc = res["route"]
    sec = "junqi"
    report.add(sec, "engineer all destinations, busy board", fuel, "fuel",
               budget=ROUTE_BUDGET_FUEL, note="%d destinations" % n)
    report.add(sec, "engineer all destinations, est. Pico", round(mpvm.pico_ms(fuel), 2), "ms",
               budget=20)
    report.add(sec, "engineer all destinations, allocated", alloc, "bytes", budget=0)
    report.add(sec, "route trace to L4, allocated", talloc, "bytes", budget=0,
               note="%d fuel" % tfuel)
    slices, maxfuel, total, ai_alloc = res["ai"]
    report.add(sec, "AI turn, largest slice", maxfuel, "fuel", budget=SLICE_BUDGET_FUEL,
               note="%d slices, whole turn %.0f ms Pico" % (slices, mpvm.pico_ms(total)))
    report.add(sec, "AI turn, allocated", ai_alloc, "bytes", budget=0)
    t = tournament(TOURNAMENT_GAMES, 1)
    report.add(sec, "full AI win rate vs random player", round(t["win_rate"], 3), "ratio",
               budget=0.95, higher_is_better=True,
               note="%d games: %d lost, %d drawn" % (t["games"], t["losses"], t["draws"]))
    for ai, opponent in (("easy", "random"), ("full", "easy")):
        t = tournament(TOURNAMENT_GAMES, 1, ai=ai, opponent=opponent)
        report.add(sec, "%s AI win rate vs %s" % (ai, "random player" if opponent == "random"
                                                  else "easy AI"),
                   round(t["win_rate"], 3), "ratio",
                   note="%d games: %d lost, %d drawn (EASY difficulty)" % (
                       t["games"], t["losses"], t["draws"]))
