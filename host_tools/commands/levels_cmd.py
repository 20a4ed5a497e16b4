"""`levels`: pack, check, generate and preview level packs.

    python -m host_tools levels pack DIR -o levels.bin [--game G]
    python -m host_tools levels check FILE
    python -m host_tools levels catmouse --count N ... -o DIR
    python -m host_tools levels klotski --piece-set 4V1H4S --min-steps N --count K
    python -m host_tools levels preview FILE [--index I] -o out.png

This module owns the ``levels`` command.  A game adds its generator through the
"levels" hook of its registry entry (host_tools/core/registry.py): ``"module:function"``, a
function that receives the ``levels`` sub-subparsers and adds its own parser
(with ``set_defaults(func=...)``).  A pack level is checked by the
``check_level(text)`` of the game's scene module, the device's own check
(host_tools/core/levelcheck.py).

Pack format and the device-side reader: firmware/levelpack.py.
"""

import json
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401
import levelpack
from host_tools.core import UserError, plural, registry, write_atomic
from host_tools.core.levelcheck import check_pack, level_checker

LEVEL_SUFFIX = ".txt"
PACK_INFO = "pack.json"


def read_level_dir(directory, game=None):
    """(game, [(name, bytes)]) from DIR: every *.txt level file, by name."""
    directory = Path(directory)
    if not directory.is_dir():
        raise UserError("%s is not a directory" % directory)
    info_path = directory / PACK_INFO
    if game is None and info_path.is_file():
        try:
            game = json.loads(info_path.read_text()).get("game")
        except (ValueError, AttributeError):
            raise UserError("%s is not a JSON object" % info_path) from None
    if game is None:
        raise UserError("which game? give --game (%s) or put %s with {\"game\": ...} in %s"
                        % (", ".join(sorted(registry.pack_games())), PACK_INFO, directory))
    if game not in registry.pack_games():
        raise UserError("unknown game %r (known: %s)" % (game, ", ".join(sorted(registry.pack_games()))))
    paths = sorted(p for p in directory.iterdir() if p.suffix == LEVEL_SUFFIX and p.is_file())
    if not paths:
        raise UserError("no level files (*%s) in %s" % (LEVEL_SUFFIX, directory))
    levels = [(p.name, p.read_bytes().replace(b"\r\n", b"\n")) for p in paths]
    return game, levels


def cmd_pack(args):
    game, levels = read_level_dir(args.dir, args.game)
    check = level_checker(game)
    for name, data in levels:
        if check is not None:
            try:
                check(data)
            except Exception as exc:
                raise UserError("%s: %s" % (Path(args.dir) / name, exc)) from None
    try:
        blob = levelpack.build_pack(game, [d for _, d in levels])
    except levelpack.LevelPackError as exc:
        raise UserError(str(exc)) from None
    out = Path(args.output)
    write_atomic(out, blob)
    unchecked = "" if check else " (levels not parsed: %s has no check_level)" % game
    print("packed %s into %s (%s)%s" % (
        plural(len(levels), game + " level"), out, plural(len(blob), "byte"), unchecked))
    return 0


def cmd_check(args):
    game, count, parsed = check_pack(args.file)
    print("%s: OK, %s%s" % (args.file, plural(count, game + " level"),
                                         "" if parsed else " (levels not parsed: %s has no check_level)" % game))
    return 0


def cmd_preview(args):
    try:
        from host_tools.levels import levels_preview
    except ImportError as exc:
        raise UserError("preview needs the simulator renderer (host_tools/emulation/sim.py): %s" % exc) from None
    return levels_preview.preview(args)


def register(subparsers):
    p = subparsers.add_parser("levels", help="generate, pack, check and preview level packs")
    sub = p.add_subparsers(dest="levels_command", metavar="ACTION")
    sub.required = True
    pk = sub.add_parser("pack", help="pack DIR/*.txt into one level pack")
    pk.add_argument("dir")
    pk.add_argument("-o", "--output", default="levels.bin")
    pk.add_argument("--game", choices=sorted(registry.pack_games()),
                    help="default: from DIR/pack.json")
    pk.set_defaults(func=cmd_pack)
    ck = sub.add_parser("check", help="validate a level pack as the device and flash do "
                                      "(screen limits included); report the first problem")
    ck.add_argument("file")
    ck.set_defaults(func=cmd_check)
    pv = sub.add_parser("preview", help="render a level as the OLED shows it (PNG)")
    pv.add_argument("file")
    pv.add_argument("--index", type=int, default=None,
                    help="one level (default: all, on one contact sheet)")
    pv.add_argument("--scale", type=int, default=4)
    pv.add_argument("-o", "--output", default="preview.png")
    pv.set_defaults(func=cmd_preview)
    for add_parser in registry.level_generators():
        add_parser(sub)
