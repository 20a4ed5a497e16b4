"""`python -m host_tools hwtest`: the device-side checks on a connected handheld.

It answers "does my board do what the emulator says?" with one command.  Over
the serial console (mpremote's raw REPL) it runs the very guest code of
`make bench`'s virtual-Pico column (host_tools/bench/bench_vpico.py), timed
with the device's own ``time.ticks_us()``, and:

- compares what the device computed with what CPython computes from the same
  code: BFS/A* paths on the bench board, Trap the Cat's moves over four seeded
  games and on the costliest hint positions, the Junqi engineer's destinations,
  the classic Klotski table byte for byte (sha256);
- prints each time beside the virtual Pico's figure from the last
  ``make bench`` (build/bench.json) and the budget, and the heap;
- first runs ``doctor`` (board file, display on the bus, firmware files) and
  checks that the firmware is this checkout's build.

It writes nothing on the device: every file's sha256 is read before and after,
and a difference is reported as a failure.  At the end the board is
soft-reset, back to its game.
"""

import json
import sys
import time
from pathlib import Path

from host_tools.bench import bench_vpico
from host_tools.core import UserError, write_atomic
from host_tools.core.boards import BOARDS_DIR
from host_tools.core.build import MANIFEST, build_files, parse_manifest
from host_tools.core.fwpath import FIRMWARE_DIR, ROOT
from host_tools.device import doctor, usbserial

AGREE_WITHIN = 0.05          # a device time this close to the virtual Pico's "agrees"
PART_SILENCE_S = 900         # the longest part (4 Trap the Cat games) prints only at its end
DEFAULT_BENCH = ROOT / "build" / "bench.json"

# every file on the device with its sha256, in one exchange (iterative walk).
# Each file's line is printed as soon as it is hashed, and the heap collected
# before the next open: a littlefs file object is ~4.9 KB, and a dict of 80
# digests kept between them left a heap with 180 KB free in pieces too small
# for the next open (MemoryError on the virtual Pico with the Klotski tables).
_FILES = r"""
import os, hashlib, binascii, gc
def _tree():
    todo = ['']
    buf = bytearray(512)
    while todo:
        d = todo.pop()
        for e in os.ilistdir(d or '/'):
            p = d + '/' + e[0]
            if e[1] & 0x4000:
                todo.append(p)
                continue
            gc.collect()
            h = hashlib.sha256()
            with open(p, 'rb') as f:
                while True:
                    n = f.readinto(buf)
                    if not n:
                        break
                    h.update(memoryview(buf)[:n])
            print(repr((p, binascii.hexlify(h.digest()).decode())))
_tree()
del _tree
"""


_HEAP = r"""
import gc
gc.collect()
print(repr((gc.mem_free() + gc.mem_alloc(), gc.mem_free())))
"""

# CPython stand-ins for the guest prelude: same emit format, wall-clock cost
_HOST_PRELUDE = r"""
import time
RESULTS = {}
def emit(tag, value):
    RESULTS[tag] = value
def cost(fn, *args):
    t = time.perf_counter()
    r = fn(*args)
    return r, (time.perf_counter() - t) * 1000.0
def collect():
    pass
"""


def parts(names=None):
    """[(part name, guest code)] of the bench's virtual-Pico parts, in order."""
    chosen = [(name, code) for name, code in bench_vpico.PARTS if not names or name in names]
    unknown = sorted(set(names or ()) - set(name for name, _ in bench_vpico.PARTS))
    if unknown:
        raise UserError("unknown part %s (have: %s)" % (", ".join(unknown),
                                                       ", ".join(n for n, _ in bench_vpico.PARTS)))
    return chosen


def params(names):
    from host_tools.bench import bench_trapcat
    p = bench_vpico.params()
    if "trapcat_look" in names:
        p["look"] = bench_trapcat.costliest_hints()
    return p


def host_checks(code):
    """The ``check_*`` values CPython computes from a part's guest code."""
    import host_tools.core.fwpath  # noqa: F401  (firmware/ importable)
    space = {}
    exec(_HOST_PRELUDE + code, space)
    return {tag: value for tag, value in space["RESULTS"].items() if tag.startswith("check_")}


def _eval(dev, code):
    import ast
    return ast.literal_eval(dev.run(code, 120).strip())


def device_files(dev):
    """{path: sha256 hex} of every file on the device (_FILES: a line per file)."""
    import ast
    return dict(ast.literal_eval(line) for line in dev.run(_FILES, 120).splitlines() if line.strip())


def device_run(dev, code, silence_s):
    from host_tools.emulation.mpvm import _parse_results
    return _parse_results(dev.run(code, silence_s))


def check_firmware(dev, info, board):
    """UserError unless the device runs this checkout's build for ``board``."""
    if not dev.exists("/" + MANIFEST):
        raise UserError("no firmware on %s: run `python -m host_tools flash --port %s` first"
                        % (dev.port, dev.port))
    have, have_board, _ = parse_manifest(dev.read("/" + MANIFEST))
    want, _, _ = parse_manifest(build_files(FIRMWARE_DIR, board, BOARDS_DIR, info["mpy"])[MANIFEST])
    if have != want or have_board != board:
        raise UserError("%s runs firmware %s for %s, this checkout builds %s for %s: run "
                        "`python -m host_tools flash --board %s --port %s` first"
                        % (dev.port, have, have_board, want, board, board, dev.port))
    return have


def compare_rows(got, bench):
    """Rows: (name, device ms, virtual Pico ms or None, budget, agrees or None)."""
    rows = []
    for name, tag, index, budget in bench_vpico.ROWS:
        if tag not in got:
            continue
        value = got[tag] if index is None else got[tag][index]
        ref = bench.get(name)
        agrees = None if not ref else abs(value - ref) <= AGREE_WITHIN * ref
        rows.append((name, value, ref, budget, agrees))
    return rows


def print_table(rows, heap, log=print):
    log("\n%-62s %10s %12s %8s %10s" % ("figure (ms)", "device", "virtual Pico", "diff", "budget"))
    for name, value, ref, budget, agrees in rows:
        diff = "" if ref is None else "%+.1f%%" % (100.0 * (value - ref) / ref)
        mark = "" if agrees is None else ("" if agrees else "  DIFFERS")
        log("%-62s %10.2f %12s %8s %10s%s" % (name[:62], value, "-" if ref is None else "%.2f" % ref,
                                               diff, "-" if budget is None else "%g" % budget, mark))
    total, free = heap
    log("%-62s %10s" % ("heap: total / free after gc.collect() (bytes)", "%d / %d" % (total, free)))


def run_hwtest(dev, board, names=None, bench_path=DEFAULT_BENCH, log=print):
    """The whole check on an open transport; returns (report dict, problems)."""
    info = dev.info()
    problems = list(doctor.doctor(dev, log=log))
    if problems:
        return {"problems": problems}, problems
    version = check_firmware(dev, info, board)
    before = device_files(dev)
    chosen = parts(names)
    p = params([name for name, _ in chosen])
    got = {}
    device_run(dev, bench_vpico.PRELUDE + bench_vpico.MODULES_AT_START, 60)
    for name, code in chosen:
        started = time.monotonic()
        log("part %-14s on the device ..." % name, end="", flush=True)
        results = device_run(dev, code % p, PART_SILENCE_S)
        device_run(dev, bench_vpico.FORGET_PART, 60)
        differ = [tag for tag, value in host_checks(code % p).items() if results.get(tag) != value]
        problems += ["%s: the device's %s differs from CPython's" % (name, tag[6:]) for tag in differ]
        log(" %.0f s, results %s" % (time.monotonic() - started,
                                     "DIFFER" if differ else "agree with CPython"))
        got.update(results)
    heap = _eval(dev, _HEAP)
    after = device_files(dev)
    if after != before:
        changed = sorted(set(before) ^ set(after) | {n for n in before if after.get(n) != before[n]})
        problems.append("files on the device changed: %s" % ", ".join(changed))
    rows = compare_rows(got, bench_vpico.recorded_figures(bench_path))
    print_table(rows, heap, log)
    differ = [row[0] for row in rows if row[4] is False]
    if differ:
        problems.append("%d figure(s) more than %d%% from the virtual Pico: %s"
                        % (len(differ), AGREE_WITHIN * 100, "; ".join(differ)))
    report = {"port": dev.port, "board": board, "firmware": version, "micropython": info["version"],
              "machine": info["machine"], "heap_total": heap[0], "heap_free": heap[1],
              "rows": [{"name": n, "device_ms": v, "virtual_pico_ms": r, "budget_ms": b, "agrees": a}
                       for n, v, r, b, a in rows],
              "checks": sorted(t for t in got if t.startswith("check_")), "problems": problems}
    return report, problems


def cmd_hwtest(args):
    names = [n.strip() for n in args.parts.split(",") if n.strip()] if args.parts else None
    parts(names)                                    # unknown parts: refused before connecting
    bench = args.bench
    if bench is None:
        bench = DEFAULT_BENCH
        if not bench.exists():
            print("hwtest: no %s yet (`make bench` writes it): the virtual-Pico column stays empty"
                  % bench)
    elif not bench.is_file():
        raise UserError("--bench %s: no such file (a bench.json written by `make bench`)" % bench)
    dev = usbserial.connect(args.port)
    try:
        with usbserial.stops_answering(dev.port):
            report, problems = run_hwtest(dev, args.board, names, bench)
    finally:
        dev.restart()
    if args.json:
        write_atomic(args.json, json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    print("hwtest: %s" % ("OK" if not problems else "; ".join(problems)))
    return 1 if problems else 0


def register(subparsers):
    p = subparsers.add_parser(
        "hwtest", help="run the device-side checks and timings on a connected handheld",
        description="Runs the bench's virtual-Pico workloads on the handheld over USB serial, "
                    "compares its results with CPython's and its times with the virtual Pico's "
                    "(build/bench.json from `make bench`). Writes nothing on the device.")
    p.add_argument("--port", help="serial port (default: the one connected board)")
    p.add_argument("--board", default="pico-ssd1306", help="the board file it was flashed with")
    p.add_argument("--parts", help="comma-separated subset of: %s"
                   % ", ".join(n for n, _ in bench_vpico.PARTS))
    p.add_argument("--bench", type=Path,
                   help="bench.json whose virtual-Pico figures to compare with (default: this "
                        "checkout's build/bench.json, written by `make bench`)")
    p.add_argument("--json", metavar="FILE", help="also write the table as JSON")
    p.set_defaults(func=cmd_hwtest)


if __name__ == "__main__":
    sys.exit("run it as: python -m host_tools hwtest --help")
