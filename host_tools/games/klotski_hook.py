"""Klotski's `flash` hook (registry HOOKS["klotski"]["flash"]): the solver
tables of the piece sets of the built-in Klotski levels (and of a ``--levels``
Klotski pack) are solved here and added as ``saves/klotski_<V><H><S>.tbl``, the
game's own table cache, so the device has its hints at once and reads them from
the file (no table build, whose arrays a MicroPython heap cannot always hold
beside the runtime, a CircuitPython heap never: docs/klotski.md).  On by
default for every board; ``--no-klotski-tables`` leaves them out.  The flasher
itself holds no Klotski code."""

LEVELS_DIR = "levels"          # /levels/<game>.bin on the device (as flash names packs)


def add_flash_options(parser):
    import argparse

    parser.add_argument("--klotski-tables", action=argparse.BooleanOptionalAction, default=True,
                        help="solve the Klotski tables of the built-in levels (and of a --levels "
                             "Klotski pack) here and put them in /saves: hints at once on the device, "
                             "read from the file (~195 KB of flash; default: on; "
                             "--no-klotski-tables leaves them out, and a MicroPython board builds "
                             "a level's table when it opens, if its heap can hold the build)")


def wants_tables(args):
    """``--klotski-tables`` (the default) / ``--no-klotski-tables``."""
    return args.klotski_tables


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
