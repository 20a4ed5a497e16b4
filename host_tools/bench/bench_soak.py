"""`make bench` rows of a short soak (host_tools/emulation/soak.py): every game
in turn with seeded random keys on one boot, the heap read back at the
launcher after each.

Two runs, chosen for the bench's time: 5 emulated minutes in the VM (the
WebAssembly port under Node, the Pico's heap size: ~20 s of wall time idle,
~70 s under load) for the heap, the largest free block and the errors, and
30 emulated seconds on the virtual Pico (main.py's own loop, the flashed
.mpy; rp2040js runs ~3-12x slower than real time here, so ~2-6 min) for the
device heap and the worst tick of play.  `python -m host_tools soak` runs the
long ones.

The heap is judged less what the interned-string (qstr) pool grew by: each
game's first import interns its new names for good (MicroPython never frees a
qstr), a fixed cost per game that the raw row shows beside it.
"""

from host_tools.emulation import soak

SECTION = "soak: every game in turn, seeded random keys, one boot"
VM_MINUTES = 5.0
VPICO_MINUTES = 0.5
SEED = 1


def _rows(report, result, where):
    s = result.totals()
    report.add(SECTION, "%s: games played (%.1f emulated min)" % (where, result.emulated_ms / 60000),
               s["games"], "games")
    report.add(SECTION, "%s: heap at the launcher less the qstr pool's growth, max deviation" % where,
               abs(s["objects_dev_max"]), "bytes", soak.HEAP_SLACK)
    report.add(SECTION, "%s: heap at the launcher, max deviation (qstr pool included)" % where,
               abs(s["heap_dev_max"]), "bytes",
               note="qstr pool %s -> %s B" % (s["qstr_first"], s["qstr_last"]))
    report.add(SECTION, "%s: largest free block at the launcher, minimum" % where,
               s["largest_free_min"], "bytes", higher_is_better=True,
               note="first return: %s B; no game start failed: see memory errors" % s["largest_free_first"])
    report.add(SECTION, "%s: memory errors" % where, s["memory_errors"], "errors", 0)
    report.add(SECTION, "%s: tracebacks" % where, s["tracebacks"], "tracebacks", 0)


def collect(report):
    vm = soak.run("vm", VM_MINUTES, SEED)
    _rows(report, vm, "VM")
    pico = soak.run("vpico", VPICO_MINUTES, SEED)
    _rows(report, pico, "virtual Pico")
    s = pico.totals()
    # the runtime's limit for a tick of play: input polled at least every 50 ms
    # (docs/conventions.md, "Long work"); the ticks over the 33 ms period are counted
    longest = max(pico.long_ticks, default=None)     # (ms, game, what it did, keys): start/leave too
    report.add(SECTION, "virtual Pico: worst tick of play", s["worst_tick"], "ms", 50,
               note="%d ticks over 33 ms; a game's start or leaving: %d ms%s"
               % (s["over_33"], s["switch_tick"],
                  "; longest tick: %d ms in %s (%s)" % longest[:3] if longest else ""))
