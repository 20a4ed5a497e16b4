"""`make bench` rows for MicroPython with a ROMFS partition (third_party/rp2040-romfs,
docs/romfs.md) on the virtual Pico: the heap the firmware leaves when ``flash``
has put its modules into ``/rom``.

The image is made the maker's way: the ROMFS firmware booted in rp2040js and
``flash`` run over its serial port (``vpico --romfs`` keeps the same image,
build/vpico/pico-ssd1306-romfs.img).  The workload is bench_vpico's heap rows
(``bench_vpico.heap_figures``: the launcher, then each game started by its
buttons, played and left; the live heap after ``gc.collect()`` each tick, less
the bare REPL's), so each row stands beside the stock firmware's row of the same
name: from build/bench.json when the vpico section ran first in the same run,
else measured here on the stock image.  Budgets are the stock rows'."""

import shutil
import tempfile
from pathlib import Path

from host_tools.bench import bench_vpico
from host_tools.core import plural

SECTION = "virtual Pico, ROMFS firmware: MicroPython v1.28.0 with the modules in /rom (rp2040js)"
BOARD = "pico-ssd1306"
ROMFS_BYTES = 256 * 1024          # the partition (third_party/rp2040-romfs/README.md)
LAUNCHER_BUDGET = 60 * 1024       # as the stock row


def romfs_image():
    """The cached flash image: ROMFS firmware + the game flashed by ``flash``."""
    from host_tools.commands.vpico_cmd import provision
    from host_tools.emulation import vpico

    image = vpico.CACHE_DIR / ("%s-romfs.img" % BOARD)
    return provision(image, BOARD, str(vpico.ROMFS_FIRMWARE), log=lambda line: None)


def romfs_figures():
    """bench_vpico.heap_figures on a private copy of the ROMFS image, plus the
    image's size and module count as ``flash`` built it."""
    from host_tools.emulation import vpico

    with tempfile.TemporaryDirectory(prefix="vpromfs-") as tmp:
        path = Path(tmp) / "flash.img"
        shutil.copyfile(romfs_image(), path)
        with vpico.VirtualPico(path, board=BOARD) as pico:
            pico.start()
            out = bench_vpico.heap_figures(pico)
            out["rom"] = tuple(int(v) for v in pico.exec(
                "import os\nprint(os.statvfs('/rom')[2], len(os.listdir('/rom')))").split())
    return out


def stock_figures():
    """The stock firmware's rows: this run's vpico section, else measured now."""
    from host_tools.bench.runner import BUILD_DIR
    from host_tools.emulation import vpfirmware

    recorded = bench_vpico.recorded_figures(BUILD_DIR / "bench.json")
    names = [_stock_name("heap_launcher")] + [_stock_name("peak " + t) for t, _, _ in bench_vpico.GAME_SCRIPTS]
    if all(recorded.get(n) is not None for n in names):
        return {n: recorded[n] for n in names}, "this run's vpico section"
    with vpfirmware.firmware_pico() as pico:
        got = bench_vpico.heap_figures(pico)
    return {_stock_name(tag): got[tag] for tag in ["heap_launcher"] + [
        "peak " + t for t, _, _ in bench_vpico.GAME_SCRIPTS]}, "measured beside it"


def _stock_name(tag):
    """The stock row's name in bench_vpico's section for a heap_figures tag."""
    if tag == "heap_launcher":
        return "resident heap at the launcher (GC on, after gc.collect())"
    return "%s peak live heap" % tag[len("peak "):]


def _beside(stock, source):
    return "stock firmware: {:,} B ({}), {:+,} B here".format(stock[0], source, stock[1] - stock[0])


def collect(report):
    got = romfs_figures()
    stock, source = stock_figures()
    used, modules = got["rom"]
    report.add(SECTION, "ROMFS image: the modules flash put in /rom", used, "bytes", ROMFS_BYTES,
               note="%s; budget: the partition" % plural(modules, "module"))
    name = _stock_name("heap_launcher")
    report.add(SECTION, "resident heap at the launcher, modules in /rom", got["heap_launcher"], "bytes",
               LAUNCHER_BUDGET, note=_beside((stock[name], got["heap_launcher"]), source))
    for title, _, _ in bench_vpico.GAME_SCRIPTS:
        tag = "peak " + title
        report.add(SECTION, "%s peak live heap, modules in /rom" % title, got[tag], "bytes",
                   bench_vpico.PICO_W_HEAP,
                   note=_beside((stock[_stock_name(tag)], got[tag]), source))
