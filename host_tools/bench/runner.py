"""`python -m host_tools bench` / `make bench`: every budget, measured, printed
beside its limit, and written to build/bench.json.

Each bench module defines ``collect(report)`` and calls ``report.add(...)`` per
figure: first every game's (its "bench" hook in host_tools/core/registry.py,
in games.GAMES order), then PLATFORM_BENCHES.  Budgets are checked
here and nowhere else (no timed unit tests): a figure over budget is marked OVER and the command exits 1.
Each module's figures are printed and written to build/bench.json as soon as it ends (a run of
half an hour that stops keeps what it measured); a module that crashes becomes an ERROR row
(exit 1, traceback in build/bench-errors.log) and the modules after it still run.

Each figure with a budget also gets its share of that budget.  A real Pico runs up to
~40 % slower than the virtual one, so an on-device time measured on the virtual Pico
must stay within MARGINS["device"] (70 %) of its budget, and a heap figure within
MARGINS["heap"] (95 %); a figure past its margin but within budget is marked THIN.
Figures set by the bus rather than the CPU (kind="bus"), estimates (VM fuel, which
over-estimates a Pico 1.45-1.64 times; CPython host times) and stand-ins for a figure
the virtual Pico measures in a row of its own (kind="proxy": the margin is that row's)
have no margin.
"""

import importlib
import json
import time
import traceback
from pathlib import Path

from host_tools.core import registry
from host_tools.core import UserError
from host_tools.core.fwpath import ROOT

PLATFORM_BENCHES = (
    "host_tools.bench.bench_runtime",
    "host_tools.bench.bench_circuitpython",
    "host_tools.bench.bench_plugins",
    "host_tools.bench.bench_vpico",
    "host_tools.bench.bench_romfs",
    "host_tools.bench.bench_link",
    "host_tools.bench.bench_cpvpico",
    "host_tools.bench.bench_soak",
    "host_tools.bench.bench_web",
)


def bench_modules():
    """Every bench module, the games' first."""
    return registry.bench_modules() + list(PLATFORM_BENCHES)


BUILD_DIR = ROOT / "build"
ERROR_LOG = BUILD_DIR / "bench-errors.log"

# the share of its budget a figure may use before it is THIN, by kind
MARGINS = {"device": 0.70, "heap": 0.95}
VIRTUAL_PICO = "virtual Pico"


def figure_kind(section, name, unit, budget):
    """"device" for a time measured on the virtual Pico, "heap" for bytes against a
    non-zero budget, None for the rest (estimates, host times, counts)."""
    if unit == "bytes":
        return "heap" if budget else None
    if unit in ("ms", "s") and (VIRTUAL_PICO in section or VIRTUAL_PICO in name):
        return "device"
    return None


class Report:
    def __init__(self):
        self.rows = []

    def add(self, section, name, value, unit, budget=None, higher_is_better=False, note="",
            kind=None):
        """One figure.  ``budget`` is the limit (max, or min if higher_is_better).
        ``kind``: "device", "heap", "bus" (no margin: the wire sets it) or "proxy"
        (no margin: the virtual Pico's own row has it); by default inferred by
        figure_kind()."""
        ok = share = None
        thin = False
        if budget is not None and value is not None:
            ok = value >= budget if higher_is_better else value <= budget
            if not higher_is_better and budget > 0:
                share = value / budget
        if kind is None:
            kind = figure_kind(section, name, unit, budget)
        if ok and share is not None and kind in MARGINS:
            thin = share > MARGINS[kind]
        self.rows.append({
            "section": section, "name": name, "value": value, "unit": unit,
            "budget": budget, "higher_is_better": higher_is_better, "ok": ok, "note": note,
            "share": share, "kind": kind, "thin": thin,
        })

    def over_budget(self):
        return [row for row in self.rows if row["ok"] is False]

    def thin(self):
        return [row for row in self.rows if row["thin"]]


def _fmt(value):
    if value is None:
        return "-"
    if isinstance(value, float):
        return "%.3g" % value if abs(value) < 100 else "%.0f" % value
    if isinstance(value, int):
        return "{:,}".format(value)
    return str(value)


def _verdict(row):
    if row["ok"] is None:
        return ""
    if not row["ok"]:
        return "ERROR" if row["value"] is None else "OVER"
    return "THIN" if row["thin"] else "ok"


def _share(row):
    if row["share"] is None:
        return ""
    margin = row["kind"] if row["kind"] in ("bus", "proxy") else ""
    if row["kind"] in MARGINS:
        margin = "of %d" % round(100 * MARGINS[row["kind"]])
    return ("%.0f %% %s" % (100 * row["share"], margin)).strip()


def print_report(report):
    section = None
    for row in report.rows:
        if row["section"] != section:
            section = row["section"]
            print("\n== %s" % section)
            print("  %-46s %14s %-10s %14s %10s  %s" % ("figure", "measured", "unit", "budget", "share", ""))
        budget = ""
        if row["budget"] is not None:
            budget = ("≥ " if row["higher_is_better"] else "≤ ") + _fmt(row["budget"])
        print("  %-46s %14s %-10s %14s %10s  %s %s" % (
            row["name"], _fmt(row["value"]), row["unit"], budget, _share(row), _verdict(row),
            row["note"]))


def load_rows(path):
    """The rows of a bench.json written earlier, keyed by (section, figure)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return {(row["section"], row["name"]): row for row in data["rows"]}
    except FileNotFoundError:
        raise UserError("%s does not exist (a run of `bench` writes build/bench.json)" % path) from None
    except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError) as exc:
        raise UserError("%s is not a bench.json file (%s)" % (path, exc.__class__.__name__)) from None


def print_comparison(report, old_rows):
    """Every figure that moved since ``old_rows``, with the change in percent, and
    the figures added or gone. Fuel, bytes and seeded-game rates are deterministic:
    a move there means the measured code changed; host timings move with load."""
    lines, seen = [], set()
    for row in report.rows:
        key = (row["section"], row["name"])
        seen.add(key)
        old = old_rows.get(key)
        if old is None:
            lines.append("  new   %s: %s: %s %s" % (key + (_fmt(row["value"]), row["unit"])))
        elif old["value"] != row["value"]:
            a, b = old["value"], row["value"]
            change = ""
            if isinstance(a, (int, float)) and isinstance(b, (int, float)) and a:
                change = " (%+.1f %%)" % (100.0 * (b - a) / abs(a))
            lines.append("  moved %s: %s: %s -> %s %s%s" % (key[0], key[1], _fmt(a), _fmt(b),
                                                          row["unit"], change))
    sections = set(row["section"] for row in report.rows)   # --only: the others were not run
    lines += ["  gone  %s: %s" % key for key in old_rows if key not in seen and key[0] in sections]
    print("\n== compared with the earlier run: %s" % (
        "%d figure(s) moved, added or gone" % len(lines) if lines else "no figure moved"))
    for line in lines:
        print(line)


def _write(report, started, done, out):
    """build/bench.json as it stands: rewritten after each module (atomically), so a
    long run that is stopped or crashes keeps the figures measured so far;
    ``complete`` says whether every module ran."""
    BUILD_DIR.mkdir(exist_ok=True)
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps({"generated": time.strftime("%Y-%m-%d %H:%M:%S"),
                               "seconds": round(time.time() - started, 1),
                               "complete": done, "rows": report.rows}, indent=1))
    tmp.replace(out)


def _collect(report, name):
    """One module's figures; a module that crashes leaves an ERROR row (counted as
    over budget) and its traceback in build/bench-errors.log, and the run goes on."""
    try:
        importlib.import_module(name).collect(report)
    except Exception as exc:   # a crash is a bench result: reported, not fatal
        BUILD_DIR.mkdir(exist_ok=True)
        with open(ERROR_LOG, "a", encoding="utf-8") as log:
            log.write("== %s %s\n%s\n" % (time.strftime("%H:%M:%S"), name, traceback.format_exc()))
        report.add(name.rsplit(".", 1)[-1], "ERROR: the module stopped", None, "", note=(
            "%s: %s (traceback in %s)" % (exc.__class__.__name__, exc, ERROR_LOG.relative_to(ROOT)))[:300])
        report.rows[-1]["ok"] = False


def run_bench(args):
    old_rows = load_rows(args.compare) if args.compare else None
    modules = bench_modules()
    names = modules if not args.only else [m for m in modules if args.only in m]
    if not names:
        raise UserError("--only %s matches no bench module (have: %s)" % (
            args.only, ", ".join(m.rsplit(".", 1)[-1].replace("bench_", "") for m in modules)))
    report = Report()
    started = time.time()
    out = BUILD_DIR / "bench.json"
    if ERROR_LOG.exists():
        ERROR_LOG.unlink()
    for number, name in enumerate(names, 1):
        print("\n-- [%d/%d] %s (%.0f s so far)" % (number, len(names), name.rsplit(".", 1)[-1],
                                              time.time() - started), flush=True)
        first = len(report.rows)
        _collect(report, name)
        shown = Report()
        shown.rows = report.rows[first:]
        print_report(shown)
        _write(report, started, number == len(names), out)
    if old_rows is not None:
        print_comparison(report, old_rows)
    over = report.over_budget()
    thin = report.thin()
    print("\n%d figures, %d over budget, %d thin (within budget, past the margin a real Pico "
          "needs: %d %% of a time budget on the virtual Pico, %d %% of a heap budget); "
          "written to %s" % (len(report.rows), len(over), len(thin),
                             round(100 * MARGINS["device"]), round(100 * MARGINS["heap"]), out))
    for row in over:
        print("  %s: %s: %s" % (_verdict(row), row["section"], row["name"]))
    return 1 if over else 0


def register(subparsers):
    parser = subparsers.add_parser("bench", help="measure every budget (make bench)")
    parser.add_argument("--only", help="run only bench modules whose name contains this")
    parser.add_argument("--compare", metavar="OLD_JSON",
                        help="also list what moved since an earlier run's bench.json "
                             "(e.g. build/bench.json before it is rewritten)")
    parser.set_defaults(func=run_bench)
