"""Klotski's `flash` hook (registry HOOKS["klotski"]["flash"]): ``--klotski-tables``
solves the solver tables of the piece sets of the built-in Klotski levels (and
of a ``--levels`` Klotski pack) here and adds them as
``saves/klotski_<V><H><S>.tbl``, the game's own table cache, so the device has
its hints at once.  A CircuitPython board gets them by default (its heap cannot
hold a table build beside the runtime: docs/klotski.md); ``--no-klotski-tables``
leaves them out, ``--klotski-tables`` adds them on MicroPython too.  The
flasher itself holds no Klotski code."""

LEVELS_DIR = "levels"          # /levels/<game>.bin on the device (as flash names packs)


def add_flash_options(parser):
    import argparse

    parser.add_argument("--klotski-tables", action=argparse.BooleanOptionalAction, default=None,
                        help="also solve the Klotski tables of the built-in levels (and of a --levels "
                             "Klotski pack) here and put them in /saves: hints at once on the device "
                             "(~195 KB of flash; default: on for a CircuitPython board, which cannot "
                             "build them beside the runtime, off for MicroPython)")


def wants_tables(args):
    """``--klotski-tables`` / ``--no-klotski-tables`` as given, else True for a
    board that runs CircuitPython."""
    if args.klotski_tables is not None:
        return args.klotski_tables
    from host_tools.core.boards import load_board

    return load_board(args.board)[0]["runtime"] == "circuitpython"


def klotski_layouts(packs):
    """The built-in Klotski layouts and those of a Klotski pack among ``packs``."""
    import io

    import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
    import klotski_levels
    import levelpack

    out = [klotski_levels.level(i)[1] for i in range(klotski_levels.count())]
    data = packs.get(LEVELS_DIR + "/klotski.bin")
    if data:
        pack = levelpack.LevelPack(io.BytesIO(data), "klotski")
        out += [pack.level(i).decode() for i in range(pack.count)]
    return out


def flash_files(args, packs, log=print):
    """{device path: bytes} of the tables when ``wants_tables(args)``, else {}."""
    if not wants_tables(args):
        return {}
    from host_tools.commands import klotski_cmd

    log("solving the Klotski tables")
    return klotski_cmd.table_files(klotski_layouts(packs), log)
