"""The measured figures of README.md and docs/*.md, written from a bench snapshot.

Every figure the docs quote from `make bench` sits between cog markers
(``<!-- [[[cog ... ]]] -->`` … ``<!-- [[[end]]] -->``) whose code calls one of the
functions below; `python -m host_tools docs` (`make docs`) runs them with the rows of
docs/figures/bench.json, the committed snapshot of build/bench.json, and
tests/test_docs.py fails when a doc's generated text differs from what they write.
A figure is stated once, in one generated table, and other pages link to it.

Host CPU times (the CPython solvers, the plug-in runner, the web page in Chromium)
move with the machine's load: no function here prints one; `make bench` checks them
against their budgets. Fuel, bytes, seeded-game rates and the virtual Pico's emulated
times are what the docs quote.

A block is one line, ``<!-- [[[cog print(readme_figures()) ]]] -->``: the prologue
that `docs` gives cog imports this module's names, a function returns the text and
``print`` writes it. Budgets come from the rows too; the board table is written from
boards/*.json.
"""

import json
import re
from pathlib import Path

from host_tools.core import UserError
from host_tools.core.fwpath import ROOT

SNAPSHOT = ROOT / "docs" / "figures" / "bench.json"

# section names as the bench modules print them (prefixes: the virtual Pico's carry versions)
GRID16 = "Grid search: 16x8"
GRID64 = "Grid search: 64x64"
CM_DEVICE = "Cat & Mouse on the device"
CM_ROUNDS = "Cat & Mouse: rounds the mouse survives"
TC_VM = "trapcat: hard cat per move"
TC_EXACT = "trapcat: exact guarantees"
TC_HINT = "trapcat: hint blocker vs hard cat"
TC_TABLE = "trapcat: cat escape rate"
JUNQI = "junqi"
KLOTSKI = "klotski"
KLOTSKI_VP = "klotski (virtual Pico)"
RUNTIME = "runtime"
CP_BACKEND = "CircuitPython backend"
VPICO = "virtual Pico: MicroPython"
CPVPICO = "virtual Pico running CircuitPython"
ROMFS_VP = "virtual Pico, ROMFS firmware"

_rows = None


def rows():
    """The snapshot's rows (read once)."""
    global _rows
    if _rows is None:
        _rows = load(SNAPSHOT)
    return _rows


def load(path):
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return data["rows"]
    except FileNotFoundError:
        raise UserError("%s does not exist (a run of `bench` writes build/bench.json)" % path) from None
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError("%s is not a bench.json file (%s)" % (path, exc.__class__.__name__)) from None


def use(path):
    """Generate from the rows of ``path`` instead of the committed snapshot."""
    use_rows(load(path))


def use_rows(new_rows):
    """Generate from ``new_rows`` (a bench run merged into the snapshot, before it is written)."""
    global _rows
    _rows = new_rows


def row(section, name):
    """The row named ``name`` in the section that starts with ``section`` (exactly
    one; an error names the figure the snapshot lacks)."""
    found = [r for r in rows() if r["name"] == name and (r["section"] == section or (
        r["section"].startswith(section) and section not in (JUNQI, KLOTSKI, RUNTIME)))]
    if len(found) != 1:
        raise UserError("bench snapshot: %s figure %r in section %r (run `make bench`, or `bench --only "
                        "TOPIC` for that section, then `make docs`; a figure renamed in the bench is renamed "
                        "in host_tools/commands/docfigs.py)" % (
                            "no" if not found else "more than one", name, section))
    return found[0]


def val(section, name):
    return row(section, name)["value"]


def note(section, name):
    return row(section, name)["note"]


def note_number(section, name, pattern):
    """The first group of ``pattern`` in a row's note, as a float."""
    m = re.search(pattern, note(section, name))
    if m is None:
        raise UserError("bench snapshot: the note of %r has no %r" % (name, pattern))
    return float(m.group(1))


# ---------- formatting

def num(x, digits=0):
    """``x`` with thousands commas and ``digits`` decimals (2,206 / 4.23)."""
    return "{:,.{}f}".format(x, digits)


def sig(x, figures=3):
    """``x`` to ``figures`` significant figures, no exponent (4.23, 122, 0.955)."""
    if x == 0:
        return "0"
    digits = max(0, figures - 1 - int(_floor_log10(abs(x))))
    return num(x, digits)


def _floor_log10(x):
    n = 0
    while x >= 10:
        x /= 10.0
        n += 1
    while x < 1:
        x *= 10.0
        n -= 1
    return n


def ms(section, name, digits=1):
    return num(val(section, name), digits)


def nbytes(section, name):
    return num(val(section, name))


def pct(section, name, digits=1):
    return num(val(section, name), digits)


def fuel(section, name):
    return num(val(section, name))


def mfuel(section, name):
    """Fuel in millions, one decimal (27.0 M)."""
    return num(val(section, name) / 1e6, 1)


def budget(section, name, unit="ms"):
    """A row's budget as the docs write it: "≤ 50 ms", "≤ 96 KB", "≥ 95 %" (unit "ratio":
    a fraction shown in percent)."""
    r = row(section, name)
    b = r["budget"]
    if b is None:
        raise UserError("bench snapshot: %r has no budget" % name)
    sign = "≥ " if r["higher_is_better"] else "≤ "
    if b == 0:
        return "0 %s" % unit
    if unit == "B":
        text = ("%s KB" % num(b // 1024)) if b % 1024 == 0 and b else "%s B" % num(b)
    elif unit == "ratio":
        text = "%s %%" % sig(100 * b, 3).rstrip("0").rstrip(".")
    else:
        text = "%s %s" % (num(b, 0 if float(b).is_integer() else 1), unit)
    return sign + text


def budgets(unit, *pairs):
    """Several budgets of one unit: "≤ 5 / 8 / 50 / 20 ms" (one when they are equal)."""
    parts = [budget(s, n, unit) for s, n in pairs]
    if len(set(parts)) == 1:
        return parts[0]
    sign = parts[0][:2]
    return sign + " / ".join(p[2:].rsplit(" ", 1)[0] for p in parts) + " " + unit


def table(header, body):
    """A markdown table from a header tuple and rows of tuples."""
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in body]
    return "\n".join(lines)


# ---------- the tables and lines the docs quote

def bench_summary():
    """How many figures the snapshot has, how many over budget and thin."""
    rs = rows()
    over = [r["name"] for r in rs if r["ok"] is False]
    thin = [r["name"] for r in rs if r["thin"]]

    def which(names):
        return " (%s)" % "; ".join(names) if names else ""
    return ("The snapshot the docs quote (`docs/figures/bench.json`) has %d figures, %d over budget%s, "
            "%d thin%s." % (len(rs), len(over), which(over), len(thin), which(thin)))


def _ratio_range(pairs):
    """'1.49–1.54×' from est./measured notes of the virtual Pico's rows."""
    ratios = [note_number(VPICO, name, r"= ([0-9.]+)x") for name in pairs]
    return "%s–%s×" % (num(min(ratios), 2), num(max(ratios), 2))


def readme_figures():
    """README's table of measured figures."""
    boards = ("Garden", "Seed BFS", "Courtyard", "Streams")
    rnd = [val(CM_ROUNDS, b + ": random mouse") for b in boards]
    eva = [val(CM_ROUNDS, b + ": evasive mouse") for b in boards]
    times = [e / r for e, r in zip(eva, rnd)]
    allocs = [val(s, n) for s in (GRID16, GRID64) for n in ("BFS bytes allocated per call",
                                                           "A* bytes allocated per call")]
    heaps = ", ".join(nbytes(VPICO, g + " peak live heap")
                      for g in ("Cat & Mouse", "Trap the Cat", "Flip Junqi", "Klotski"))
    body = [
        ("BFS, 16×8 default board, cat to mouse (far corners, the worst case), VM estimate",
         ms(GRID16, "BFS est. Pico time", 2) + " ms", budget(GRID16, "BFS est. Pico time")),
        ("BFS cat move during a game on that board, mean / worst",
         "%s / %s ms" % (ms(CM_DEVICE, "BFS cat move, mean of the next 59"),
                         ms(CM_DEVICE, "BFS cat move, worst of the next 59")), "—"),
        ("A*, 16×8 default board, VM estimate", ms(GRID16, "A* est. Pico time") + " ms",
         budget(GRID16, "A* est. Pico time")),
        ("bytes allocated per BFS / A* call after the first (16×8 and 64×64)",
         num(max(allocs)), "0"),
        ("BFS / A* on 64×64 random terrain, VM estimate",
         "%s / %s ms" % (ms(GRID64, "BFS est. Pico time", 0), ms(GRID64, "A* est. Pico time", 0)), "—"),
        ("evasive mouse decision, largest slice (one per tick), VM estimate",
         ms(CM_DEVICE, "evasive mouse, largest slice (one per tick on the handheld)") + " ms",
         budget(CM_DEVICE, "evasive mouse, largest slice (one per tick on the handheld)")),
        ("evasive mouse vs random mouse, rounds survived against the cat (4 maps)",
         "%s vs %s–%s (%s–%s×)" % (num(min(eva)), num(min(rnd), 1), num(max(rnd), 1),
                                   num(min(times), 1), num(max(times), 1)), "longer"),
        ("resident heap at the launcher: Node port of MicroPython / virtual Pico",
         "%s / %s B" % (nbytes(RUNTIME, "resident heap at the launcher (GC on)"),
                        nbytes(VPICO, "resident heap at the launcher (GC on, after gc.collect())")),
         budget(RUNTIME, "resident heap at the launcher (GC on)", "B")),
        ("Cat & Mouse bytes allocated per tick, idle and in play",
         num(max(val(RUNTIME, "Cat & Mouse bytes allocated per idle tick"),
                 val(RUNTIME, "Cat & Mouse bytes allocated per tick in play"))), "0"),
        ("full SSD1306 frame on the wire at 400 kHz",
         "%s B, %s ms" % (nbytes(RUNTIME, "I2C bytes per full frame (SSD1306)"),
                          ms(RUNTIME, "wire time of a full frame at 400 kHz")),
         budget(RUNTIME, "wire time of a full frame at 400 kHz")),
        ("Trap the Cat hard cat per move (9×9, exact 5-move escapes / 4-block captures), worst on the "
         "virtual Pico (%s); bytes allocated (VM)" % note(VPICO, "9x9 hard cat move, max").split("; ")[-1],
         "%s ms, %s B" % (ms(VPICO, "9x9 hard cat move, max", 0), nbytes(TC_VM, "9x9 hard move allocation, max")),
         "%s, %s" % (budget(VPICO, "9x9 hard cat move, max"), budget(TC_VM, "9x9 hard move allocation, max", "B"))),
        ("Trap the Cat hint (strong blocker, 7-move look in a viper kernel), worst on the virtual Pico: "
         "the tournament's 6 costliest hints / 4 games",
         "%s / %s ms, every tick ≤ 50 ms (largest slice %s ms)" % (
             ms(VPICO, "9x9 hint, the tournament's costliest (7-move look), max", 0),
             ms(VPICO, "9x9 hint (strong blocker), max", 0),
             ms(VPICO, "9x9 hint, the tournament's costliest, largest slice")),
         budget(VPICO, "9x9 hint (strong blocker), max")),
        ("Trap the Cat: hard cat escapes against the hint (200 games, 12 random blocks)",
         "%s %% (without the look, where no viper runs: %s %%)" % (
             pct(TC_HINT, "hint (strong) blocker: hard cat escapes"),
             pct(TC_HINT, "hint without the look (no viper: VMs, CircuitPython): hard cat escapes")),
         budget(TC_HINT, "hint (strong) blocker: hard cat escapes", "%")),
        ("virtual Pico: BFS / A* 16×8, evasive mouse slice, Junqi routing",
         "%s / %s / %s / %s ms (VM estimate %s higher)" % (
             ms(VPICO, "BFS 16x8 default board", 2), ms(VPICO, "A* 16x8 default board", 2),
             ms(VPICO, "evasive mouse, largest slice"), ms(VPICO, "Junqi engineer all destinations, busy board", 2),
             _ratio_range(("BFS 16x8 default board", "A* 16x8 default board", "evasive mouse, largest slice",
                           "Junqi engineer all destinations, busy board"))),
         budgets("ms", *((VPICO, n) for n in ("BFS 16x8 default board", "A* 16x8 default board",
                                              "evasive mouse, largest slice",
                                              "Junqi engineer all destinations, busy board")))),
        ("virtual Pico: launcher redrawn + full frame over I2C at 400 kHz",
         ms(VPICO, "full frame: launcher redrawn + all pages over I2C at 400 kHz") + " ms",
         budget(VPICO, "full frame: launcher redrawn + all pages over I2C at 400 kHz")),
        ("virtual Pico: CPU busy with the launcher idle, screen on / screen off "
         "(main.py's loop; the rest halted in WFI)",
         "%s / %s %%" % (pct(VPICO, "idle launcher, screen on: CPU busy", 2),
                         pct(VPICO, "sleep: CPU busy while the screen is off", 2)),
         budgets("%", (VPICO, "idle launcher, screen on: CPU busy"),
                 (VPICO, "sleep: CPU busy while the screen is off"))),
        ("virtual Pico: resident heap at the launcher, GC on / peak live heap Cat & Mouse, Trap the Cat, "
         "Junqi, Klotski (played in that order; a game's modules leave with it)",
         "%s / %s B" % (nbytes(VPICO, "resident heap at the launcher (GC on, after gc.collect())"), heaps),
         "%s / %s (Pico W)" % (budget(VPICO, "resident heap at the launcher (GC on, after gc.collect())", "B"),
                               budget(VPICO, "Klotski peak live heap", "B"))),
        ("Junqi: all engineer destinations on a busy board, VM estimate",
         "%s ms, %s B" % (ms(JUNQI, "engineer all destinations, est. Pico", 2),
                          nbytes(JUNQI, "engineer all destinations, allocated")),
         "%s, %s" % (budget(JUNQI, "engineer all destinations, est. Pico"),
                     budget(JUNQI, "engineer all destinations, allocated", "B"))),
        ("Junqi AI win rate vs a random player (400 games)",
         num(100 * val(JUNQI, "full AI win rate vs random player"), 1) + " %",
         budget(JUNQI, "full AI win rate vs random player", "ratio")),
        ("Junqi easy AI (difficulty EASY): vs random / the full AI's win rate against it",
         "%s %% / %s %%" % (num(100 * val(JUNQI, "easy AI win rate vs random player"), 1),
                            num(100 * val(JUNQI, "full AI win rate vs easy AI"), 1)), "—"),
        ("Klotski 横刀立马 full solve on the device (whole distance table, virtual Pico, viper kernel)",
         "%s s (plain loop: %s s; VM fuel estimate of the loop %s s)" % (
             ms(KLOTSKI_VP, "4V1H4S full table 横刀立马", 2),
             num(note_number(KLOTSKI_VP, "4V1H4S full table 横刀立马", r"plain loop ([0-9.]+) s"), 1),
             ms(KLOTSKI, "est. Pico time, full table")),
         budget(KLOTSKI_VP, "4V1H4S full table 横刀立马", "s") + " (stretch ≤ 4 s)"),
        ("Klotski allocation for that solve (virtual Pico / VM)",
         "%s / %s B" % (nbytes(KLOTSKI_VP, "total allocation, constructor + table"),
                        nbytes(KLOTSKI, "total allocation, constructor + table")),
         budget(KLOTSKI_VP, "total allocation, constructor + table", "B")),
        ("Klotski scene building that table: worst tick, peak heap with GC on (virtual Pico)",
         "%s ms, %s B" % (ms(KLOTSKI_VP, "scene build: worst tick (tick + draw)"),
                          nbytes(KLOTSKI_VP, "scene build: peak heap (GC on)")),
         "%s, %s" % (budget(KLOTSKI_VP, "scene build: worst tick (tick + draw)"),
                     budget(KLOTSKI_VP, "scene build: peak heap (GC on)", "B"))),
        ("Klotski solver setup, worst slice (the UI stays live): virtual Pico / VM estimate",
         "%s / %s ms" % (ms(KLOTSKI_VP, "solver setup, worst slice"),
                         ms(KLOTSKI, "solver setup, worst slice (est. Pico)")),
         budget(KLOTSKI_VP, "solver setup, worst slice")),
        ("Klotski hint after the solve, worst along 横刀立马's solution: virtual Pico / VM estimate",
         "%s / %s ms" % (ms(VPICO, "Klotski worst hint along the solution"),
                         ms(KLOTSKI, "worst hint along the solution (est. Pico)")),
         budget(VPICO, "Klotski worst hint along the solution")),
    ]
    return table(("figure", "measured", "budget"), body)


def sleep_figures():
    """docs/runtime.md: the screen off and the wake on the virtual Pico."""
    wake = "wake to a full frame"
    return ("%s I2C bytes and %s %% of emulated time executing (the rest halted in WFI/WFE) while the "
            "screen is off, against %s %% for the awake launcher; a press just after a poll to the whole "
            "frame lit again in %s ticks (%s)." % (
                nbytes(VPICO, "sleep: I2C bytes while the screen is off"),
                pct(VPICO, "sleep: CPU busy while the screen is off"),
                pct(VPICO, "idle launcher, screen on: CPU busy"), num(val(VPICO, wake), 2), note(VPICO, wake)))


def junqi_turn():
    """docs/junqi.md: the AI's turn, sliced (VM)."""
    name = "AI turn, largest slice"
    return "Largest slice %s M fuel at the bench position (budget 5.5 M; %s), %s bytes allocated." % (
        mfuel(JUNQI, name), note(JUNQI, name), nbytes(JUNQI, "AI turn, allocated"))


def save_figures():
    """docs/runtime.md: the per-move saves on the virtual Pico."""
    rows_ = ("per-move save of the game in progress (Trap the Cat), max",
             "per-move save (Klotski, undo ring full), max",
             "worst tick + the save after it (Trap the Cat)",
             "per-move save with the flash chip's own time, est. (Trap the Cat), mean",
             "per-move save with the flash chip's own time, est. (Klotski, undo ring full), mean")
    body = [(n, ms(VPICO, n) + " ms", "%s ms" % num(row(VPICO, n)["budget"]), note(VPICO, n)) for n in rows_]
    return table(("virtual Pico", "measured", "budget", "how"), body)


def romfs_heap():
    """docs/romfs.md: every row of the ROMFS section (the image, the heap with the
    modules in /rom), each with the stock firmware's figure its note gives."""
    found = [r for r in rows() if r["section"].startswith(ROMFS_VP)]
    if not found:
        row(ROMFS_VP, "ROMFS image: the modules flash put in /rom")     # the one-line error
    body = [(r["name"], "%s B" % num(r["value"]), "%s B" % num(r["budget"]), r["note"]) for r in found]
    return table(("virtual Pico, ROMFS firmware", "measured", "budget", "beside it"), body)


def trapcat_strength():
    """docs/trapcat.md: the cat's escape rate per cat and blocker."""
    cats = ("easy", "normal", "hard")
    blockers = ("random", "greedy", "strong")
    body = [(c + " cat",) + tuple(pct(TC_TABLE, "%s cat vs %s blocker" % (c, b)) + " %" for b in blockers)
            for c in cats]
    return table(("cat \\ blocker",) + blockers, body)


def _slice(name):
    return "%s M (%s)" % (mfuel(TC_VM, name), note(TC_VM, name))


def trapcat_cost():
    """docs/trapcat.md: the hard cat's and the hint's cost per move, 9×9 and 11×11 (VM)."""
    def size(s):
        return (
            "%s M fuel, %s ms" % (mfuel(TC_VM, s + " hard move fuel, max"),
                                  ms(TC_VM, s + " hard move est. Pico, max", 0)),
            ms(TC_VM, s + " hard move est. Pico, mean", 0) + " ms",
            nbytes(TC_VM, s + " hard move allocation, max"),
            "%s M fuel, %s ms" % (mfuel(TC_VM, s + " hint (strong blocker) fuel, max"),
                                  ms(TC_VM, s + " hint (strong blocker) est. Pico, max", 0)),
            ms(TC_VM, s + " hint (strong blocker) est. Pico, mean", 0) + " ms",
            _slice(s + " hard move fuel per slice, max"),
            _slice(s + " hint fuel per slice, max"),
        )
    labels = ("hard cat, worst", "hard cat, mean", "hard cat, bytes per move", "hint without the look, worst (whole)",
              "hint without the look, mean", "hard cat, largest slice", "hint, largest slice")
    budgets = (budget(TC_VM, "9x9 hard move est. Pico, max"), "",
               budget(TC_VM, "9x9 hard move allocation, max", "B"),
               budget(TC_VM, "9x9 hint (strong blocker) est. Pico, max"), "",
               "≤ %s M" % num(row(TC_VM, "9x9 hard move fuel per slice, max")["budget"] / 1e6, 1),
               "≤ %s M" % num(row(TC_VM, "9x9 hint fuel per slice, max")["budget"] / 1e6, 1))
    nine, eleven = size("9x9"), size("11x11")
    body = [(labels[i], nine[i], budgets[i], eleven[i]) for i in range(len(labels))]
    return table(("VM (est. Pico)", "9×9 (%s)" % note(TC_VM, "9x9 hard move fuel, max"), "budget",
                  "11×11 (%s)" % note(TC_VM, "11x11 hard move fuel, max")), body)


def trapcat_vpico():
    """docs/trapcat.md: the means on the virtual Pico (the look on), beside README's worst
    cases, largest slice and escape rate."""
    body = [
        ("hard cat, mean (%s)" % note(VPICO, "9x9 hard cat move, max").split("; ")[-1],
         "%s ms (VM estimate %s ms)" % (ms(VPICO, "9x9 hard cat move, mean", 0),
                                        ms(TC_VM, "9x9 hard move est. Pico, mean", 0))),
        ("hint (strong blocker), mean, same games", ms(VPICO, "9x9 hint (strong blocker), mean", 0) + " ms"),
        ("the tournament's 6 hints with the most search work, mean",
         ms(VPICO, "9x9 hint, the tournament's costliest (7-move look), mean", 0) + " ms"),
        ("those 6 sliced: slices of `step()` (`SLICE_UNITS` = 50 work units)",
         num(note_number(VPICO, "9x9 hint, the tournament's costliest, largest slice", r"^([0-9]+) slices"))),
        ("the host-only blocker exact over 7 cat moves (`trapcat_audit.ExactBlocker`): hard cat escapes",
         "%s %% (%s)" % (pct(TC_HINT, "exact 7-move blocker: hard cat escapes"),
                         note(TC_HINT, "exact 7-move blocker: hard cat escapes"))),
    ]
    return table(("virtual Pico, 9×9", "measured"), body)


def klotski_device():
    """docs/klotski.md: the solver on the device (virtual Pico, viper kernel), beside README's
    headline rows (横刀立马's solve, its allocation, the scene's worst tick and peak heap, the
    setup slice and the hint)."""
    sets = ("2V3H4S", "3V2H4S", "1V4H4S", "2V2H6S", "1V3H6S", "0V4H6S")
    body = [
        ("%s full table" % " / ".join(sets[:3]),
         " / ".join(ms(KLOTSKI_VP, s + " full table", 2) for s in sets[:3]) + " s", "not slower"),
        ("%s full table (30-bit words)" % " / ".join(sets[3:]),
         " / ".join(ms(KLOTSKI_VP, s + " full table", 2) for s in sets[3:]) + " s", "not slower"),
        ("worst `step(40)` slice over the full table (walk and search)",
         ms(KLOTSKI_VP, "worst step(40) slice, full table") + " ms",
         budget(KLOTSKI_VP, "worst step(40) slice, full table")),
        ("the scene building 横刀立马's table", note(KLOTSKI_VP, "scene build: worst tick (tick + draw)"), ""),
        ("heap in use before the scene", note(KLOTSKI_VP, "scene build: peak heap (GC on)").split("; ")[-1],
         ""),
    ]
    return table(("virtual Pico", "measured", "budget"), body)


def klotski_vm():
    """docs/klotski.md: the solver in the MicroPython VM (fuel; the plain loop)."""
    fuel_total = val(KLOTSKI, "VM fuel, full table (MicroPython)")
    body = [
        ("VM fuel, constructor + full table (the plain loop)",
         "%se9 (≈ %s s on a Pico)" % (num(fuel_total / 1e9, 2), ms(KLOTSKI, "est. Pico time, full table")), "—"),
        ("allocation, constructor + table", nbytes(KLOTSKI, "total allocation, constructor + table") + " B",
         budget(KLOTSKI, "total allocation, constructor + table", "B")),
        ("worst hint along the solution", ms(KLOTSKI, "worst hint along the solution (est. Pico)") + " ms",
         budget(KLOTSKI, "worst hint along the solution (est. Pico)")),
        ("worst `step(40)` slice over the full table",
         ms(KLOTSKI, "worst step(40) slice, full table (est. Pico)") + " ms",
         budget(KLOTSKI, "worst step(40) slice, full table (est. Pico)")),
        ("worst `setup()` slice (sliced solver)",
         "%s ms (%s)" % (ms(KLOTSKI, "solver setup, worst slice (est. Pico)"),
                         note(KLOTSKI, "solver setup, worst slice (est. Pico)")),
         budget(KLOTSKI, "solver setup, worst slice (est. Pico)")),
    ]
    return table(("MicroPython VM (est. Pico)", "measured", "budget"), body)


def catmouse_watch():
    """docs/catmouse.md: watch mode's ticks on the virtual Pico."""
    worst = "Cat & Mouse watch mode: worst tick"
    enter = "Cat & Mouse watch mode: the tick that enters it"
    return ("Worst tick of watch mode: %s ms (%s). The tick that enters the mode and imports "
            "`catmouse_watch`: %s ms." % (ms(VPICO, worst), note(VPICO, worst), ms(VPICO, enter)))


def catmouse_fuel():
    """docs/catmouse.md: the searches' fuel per call."""
    return ("Fuel per call: BFS 16x8 %s, A* 16x8 %s, BFS 64x64 %s, A* 64x64 %s; "
            "bytes allocated per call %s." % (
                fuel(GRID16, "BFS fuel per call"), fuel(GRID16, "A* fuel per call"),
                fuel(GRID64, "BFS fuel per call"), fuel(GRID64, "A* fuel per call"),
                num(max(val(s, n) for s in (GRID16, GRID64)
                        for n in ("BFS bytes allocated per call", "A* bytes allocated per call")))))


def cp_wire():
    """docs/circuitpython.md: I2C bytes and wire time, displayio vs the MicroPython driver."""
    def col(p):
        return (
            "%s bytes in %s, %s ms at 400 kHz" % (
                nbytes(CP_BACKEND, "I2C bytes per full frame, displayio (%s)" % p),
                note(CP_BACKEND, "I2C bytes per full frame, displayio (%s)" % p),
                ms(CP_BACKEND, "wire time of a full frame, displayio (%s)" % p, 0)),
            "%s bytes" % nbytes(CP_BACKEND, "I2C bytes per full frame, MicroPython driver (%s)" % p),
            "%s bytes" % nbytes(CP_BACKEND, "I2C bytes for a one-page change, displayio (%s)" % p),
        )
    a, b = col("ssd1306"), col("sh1106")
    labels = ("full frame through displayio", "full frame through the MicroPython driver",
              "one changed page through displayio")
    return table(("", "SSD1306", "SH1106"), [(labels[i], a[i], b[i]) for i in range(3)])


def _builtin(name):
    return num(note_number(CP_BACKEND, name, r"built-in framebuf: ([0-9.]+) ms"), 1)


def cp_draw():
    """docs/circuitpython.md: drawing with the pure-Python framebuf (VM fuel, CircuitPython proxy)."""
    games = ("catmouse", "trapcat", "junqi", "klotski")
    draw = ["draw %s, pure-Python framebuf (CircuitPython proxy)" % g for g in games]
    launcher = "draw launcher, pure-Python framebuf (CircuitPython proxy)"
    idle = "idle launcher tick through Runtime.step, frame cache (CircuitPython proxy)"
    glue = ("displayio show() Python glue, no page changed", "displayio show() Python glue, one page changed",
            "displayio show() Python glue, all 8 pages")
    allocs = [re.match(r"([0-9]+) B", note(CP_BACKEND, g)).group(1) for g in glue]
    body = [
        ("draw the launcher, pure-Python framebuf",
         "%s ms (built-in framebuf: %s ms)" % (ms(CP_BACKEND, launcher), _builtin(launcher)),
         budget(CP_BACKEND, launcher)),
        ("draw Cat & Mouse / Trap the Cat / Flip Junqi / Klotski first screen",
         "%s ms (built-in: %s ms)" % (" / ".join(ms(CP_BACKEND, d) for d in draw),
                                      " / ".join(_builtin(d) for d in draw)),
         budgets("ms", *((CP_BACKEND, d) for d in draw))),
        ("idle launcher tick through `Runtime.step` (frame cache: `draw()` skipped)",
         "%s ms (%s)" % (ms(CP_BACKEND, idle, 2), note(CP_BACKEND, idle)), budget(CP_BACKEND, idle)),
        ("`show()` Python glue: no change / one page / all 8 pages",
         "%s ms, %s B allocated" % (" / ".join(ms(CP_BACKEND, g, 2) for g in glue), " / ".join(allocs)), ""),
        ("resident heap at the launcher, CircuitPython backend",
         nbytes(CP_BACKEND, "resident heap at the launcher, CircuitPython backend") + " B",
         budget(CP_BACKEND, "resident heap at the launcher, CircuitPython backend", "B")),
    ]
    return table(("VM (est. Pico)", "measured", "budget"), body)


def cp_vpico():
    """docs/circuitpython.md and docs/vpico.md: the firmware on the virtual CircuitPython Pico."""
    games = ("launcher", "Cat & Mouse", "Trap the Cat", "Flip Junqi", "Klotski")
    body = []
    for g in games:
        heap = ("resident heap at the launcher (after gc.collect())" if g == "launcher" else g + " peak live heap")
        body.append((g, ms(CPVPICO, g + ": whole-screen frame (tick + draw + displayio refresh)", 0) + " ms",
                     ms(CPVPICO, g + ": a one-page change shown (as a move draws)") + " ms",
                     ms(CPVPICO, g + ": idle tick", 1) + " ms", nbytes(CPVPICO, heap) + " B"))
    budget = num(row(CPVPICO, "Klotski peak live heap")["budget"])
    return table(("screen", "whole-screen frame", "a one-page change", "idle tick",
                  "heap (launcher: resident; a game: peak)"), body) + (
        "\n\nBudgets: 33 ms a tick, %s B of heap (free at CircuitPython's REPL)." % budget)


# ---------- not from the bench: the board files

_RUNTIMES = {"micropython": "MicroPython", "circuitpython": "CircuitPython", "blinka": "Blinka"}
_BOARD_ORDER = ("pico-ssd1306", "pico-ssd1306-lipo", "pico-w-ssd1306", "pico2-ssd1306", "pico-sh1106",
                "pico-ssd1306-5btn", "pico-cp-ssd1306", "pico-cp-sh1106", "oled-bonnet")


def board_table():
    """docs/runtime.md: every board file in boards/, one row each (written from the files)."""
    boards = {}
    for path in sorted((ROOT / "boards").glob("*.json")):
        b = json.loads(path.read_text(encoding="utf-8"))
        boards[b["name"]] = b
    names = [n for n in _BOARD_ORDER if n in boards] + sorted(n for n in boards if n not in _BOARD_ORDER)
    default = boards.get("pico-ssd1306")
    body = []
    for name in names:
        b = boards[name]
        pi = b["mcu"].startswith("bcm")
        pin = ("BCM%d" if pi else "GP%d")
        mcu = "%s, %s" % (b["board"], _RUNTIMES.get(b["runtime"], b["runtime"]))
        power = b.get("power")
        if power:
            mcu += "; supply read as VSYS/%d on GP%d (%s)" % (power["divider"], power["adc"], power["cell"])
        d = b["display"]
        display = "%s %d×%d" % (d["controller"].upper(), d["width"], d["height"])
        if d.get("rotation"):
            display += ", mounted upside down (rotation %d)" % d["rotation"]
        i2c = b["i2c"]
        bus = ("bus %d" if pi else "I2C%d") % i2c["bus"]
        wires = "%s, %s, %s, %s" % (bus, pin % i2c["sda"], pin % i2c["scl"], i2c["address"])
        btns = b["buttons"]
        keys = [pin % btns[k]["pin"] for k in ("up", "down", "left", "right", "a", "b") if k in btns]
        if default is not None and name != "pico-ssd1306" and not pi and btns == default["buttons"]:
            buttons = "same as `pico-ssd1306`"
        else:
            buttons = " ".join(keys) + " (pull-%s)" % btns["up"]["pull"]
        for key, chord in sorted((b.get("combos") or {}).items()):
            buttons += ", %s = %s together" % (key.upper(), "+".join(c.upper() for c in chord))
        for key, spec in sorted(btns.items()):
            if spec.get("as"):
                buttons += ", %s %s = %s too" % (key, pin % spec["pin"], spec["as"].upper())
        buzzer = pin % b["buzzer"]["pin"] if b.get("buzzer") else "–"
        label = "`%s`%s" % (name, " (default)" if name == "pico-ssd1306" else "")
        body.append((label, mcu, display, wires, buttons, buzzer))
    return table(("board", "MCU / runtime", "display", "I2C (bus, SDA, SCL, addr)",
                  "UP DOWN LEFT RIGHT A B", "buzzer"), body)
