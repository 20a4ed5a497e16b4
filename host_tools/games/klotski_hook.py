"""Klotski's `flash` hook (registry HOOKS["klotski"]["flash"]): ``--klotski-tables``
solves the solver tables of the piece sets of the built-in Klotski levels (and
of a ``--levels`` Klotski pack) here and adds them as
``saves/klotski_<V><H><S>.tbl``, the game's own table cache, so the device has
its hints at once.  The flasher itself holds no Klotski code."""

LEVELS_DIR = "levels"          # /levels/<game>.bin on the device (as flash names packs)


def add_flash_options(parser):
    parser.add_argument("--klotski-tables", action="store_true",
                        help="also solve the Klotski tables of the built-in levels (and of a --levels "
                             "Klotski pack) here and put them in /saves: hints at once on the device "
                             "(~195 KB of flash)")


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
    """{device path: bytes} of the tables when ``--klotski-tables`` was given, else {}."""
    if not args.klotski_tables:
        return {}
    from host_tools.commands import klotski_cmd

    log("solving the Klotski tables")
    return klotski_cmd.table_files(klotski_layouts(packs), log)
