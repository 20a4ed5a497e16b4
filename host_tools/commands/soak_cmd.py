"""`python -m host_tools soak`: many games in a row on one boot (seeded random
keys through the buttons), the heap back at the launcher after each, against
the first return's (host_tools/emulation/soak.py has the player, the probe and
the two targets).  Exit 1 on any traceback or memory error, or a heap not back
within 1 KB of the baseline."""

import argparse
import sys

HELP = "play every game in turn for N emulated minutes and check the heap comes back (make soak)"


def register(subparsers):
    p = subparsers.add_parser(
        "soak", help=HELP, description=HELP + ".  Seeded random keys through the buttons: "
        "each game started from the launcher (CONTINUE or a new game), played (arrows, A, B, "
        "B+A undo, B held for menus and hints, waits for the AI), left; the settings and "
        "the rules pages now and then.  After each game: the heap after gc.collect() against "
        "the first return to the launcher, the largest free block, ticks over 33 ms (vpico), "
        "memory errors and tracebacks.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--minutes", type=_minutes, default=10.0, help="emulated minutes of play")
    p.add_argument("--target", choices=("vpico", "vm"), default="vm",
                   help="vpico: the flashed firmware on the virtual Pico in main.py's loop (~6x "
                        "slower than real time under load); vm: MicroPython's WebAssembly port "
                        "under Node, the Pico's heap size, a virtual clock (minutes in seconds)")
    p.add_argument("--seed", type=int, default=1, help="seed of the random keys")
    p.add_argument("--klotski-tables", action=argparse.BooleanOptionalAction, default=True,
                   help="vpico: Klotski's solver tables in saves/, as a plain `flash` puts them "
                        "(--no-klotski-tables: none, as `flash --no-klotski-tables`: a level's "
                        "table is built in the heap when it opens)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def _minutes(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("not a number: %r" % text) from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError("minutes must be above 0 and at most 1440")
    return value


def run(args):
    from host_tools.emulation import soak

    bar = None
    progress = None
    if not args.no_progress:
        from tqdm import tqdm

        bar = tqdm(total=int(args.minutes * 60), unit="s", desc="soak %s" % args.target,
                   bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} emulated s "
                              "[{elapsed}<{remaining}]")

        def progress(ms):
            bar.update(min(int(ms / 1000), bar.total) - bar.n)
    try:
        result = soak.run(args.target, args.minutes, args.seed, progress,
                          live=lambda line: print(line, file=sys.stderr, flush=True),
                          tables=args.klotski_tables)
    finally:
        if bar is not None:
            bar.close()
    print(result.table())
    for line in result.findings():
        print(line)
    print(result.summary())
    return 0 if result.ok() else 1
