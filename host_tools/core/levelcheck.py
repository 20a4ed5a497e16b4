"""The device's own check of a level, on the laptop: a game's ``check_level(text)``
(in its scene module, the parser plus what the 128x64 screen can show) run
by `levels pack/check/preview`, the generators and `flash --levels`, so the
laptop refuses exactly what the handheld refuses.  Also the pack reader
helpers they share and the level-folder writer of the generators.
"""

import importlib
import json
from pathlib import Path

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import levelpack
from host_tools.core import UserError, registry, write_atomic
from host_tools.core.fwpath import use_pure_framebuf


def level_text(data):
    """A level's bytes as text; a ValueError naming the first bad byte otherwise."""
    if not isinstance(data, (bytes, bytearray)):
        return data
    try:
        return bytes(data).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError("not UTF-8 text (byte %d)" % exc.start) from None


def game_module(game):
    """The game's scene module (its descriptor's SCENE: Game, check_level, screen
    limits), imported with the pure-Python framebuf; None for an unknown game.
    A scene that fails to import is a UserError naming it: its levels are
    never passed unchecked."""
    name = registry.scene_module(game)
    if name is None:
        return None
    use_pure_framebuf()
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise UserError("the %s game's scene firmware/%s.py cannot be imported (%s): its "
                        "levels cannot be checked" % (game, name, exc)) from None


def level_checker(game):
    """The device's own check of a pack level: ``check_level`` in the game's
    scene module (the parser plus the largest board the 128x64 screen draws),
    or None when it has none (levels are then stored unchecked).  `levels
    check`, `levels preview` and `flash` all take it from here, so they refuse
    exactly what the device refuses."""
    check = getattr(game_module(game), "check_level", None)
    if check is None:
        return None
    return lambda data: check(level_text(data))


def read_pack(path, use):
    """Open a pack file like the device does and return ``use(pack)``; a file that
    cannot be opened, or a LevelPackError from the header or from ``use``, becomes
    a UserError naming the file."""
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise UserError("cannot open %s: %s" % (path, exc.strerror or exc)) from None
    with f:
        try:
            return use(levelpack.LevelPack(f))
        except levelpack.LevelPackError as exc:
            raise UserError("%s: %s" % (path, exc)) from None


def check_pack(path):
    """Validate a pack file like the device does, then each level with the game's
    level_checker (parser and screen limits).  Returns (game, count, parsed);
    raises UserError with the first problem."""
    return read_pack(path, _check_levels)


def _check_levels(pack):
    check = level_checker(pack.game)
    if check is not None:
        pack.check_levels(check)
    return pack.game, pack.count, check is not None


def write_level_dir(out, game, levels, **info):
    """Write generated levels as ``out/<game>_NNN.txt`` plus ``pack.json`` (the
    game, ``info`` and each level's grade with its file name): the folder
    `levels pack` reads.  ``levels`` holds (file text, grade dict) pairs.
    Every level first goes through the device's own check (screen limits
    included), so nothing is written that the handheld would refuse."""
    check = level_checker(game)
    if check is not None:
        for i, (text, _) in enumerate(levels, 1):
            try:
                check(text)
            except ValueError as exc:
                raise UserError("generated level %d does not fit the handheld: %s" % (i, exc)) from None
    out = Path(out)
    grades = []
    for i, (text, grade) in enumerate(levels, 1):
        name = "%s_%03d.txt" % (game, i)
        write_atomic(out / name, text)
        grades.append(dict(grade, file=name))
    pack = {"game": game}
    pack.update(info)
    pack["levels"] = grades
    write_atomic(out / "pack.json", json.dumps(pack, indent=1) + "\n")
