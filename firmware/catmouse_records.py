"""Cat & Mouse's records per map and difficulty (``saved["maps"]`` of
catmouse_game.Scene; the totals over all maps stay in the scene): each map's
MAP_RECORD counts, _MAP_DIFF for each difficulty in turn (EASY, NORMAL, HARD):
as the mouse won, lost, best (the most rounds lasted), as the cat won, lost,
best (the fewest rounds to a catch; 0: none yet).  A built-in map is keyed by
its name, any other (a pack's) by "P" and the CRC-32 of its text, so a record
follows its map wherever it sits in a pack.  At most MAX_MAPS maps are kept;
a game on another still counts in the totals.

Imported where the records are read or written (the title's refresh, a
game's end) and dropped again on MicroPython (``done``), so a game in play
does not carry it.  catmouse_saves.py checks the save against the same numbers
(a test keeps them equal).
"""

import sys

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MAP_DIFF = const(6)
MAP_RECORD = const(18)
MAX_MAPS = const(24)
MAP_KEY_LEN = const(16)
_DIFFS = ("EASY", "NORMAL", "HARD")


def done():
    if sys.implementation.name != "cpython":
        sys.modules.pop("catmouse_records", None)


def map_key(level, text):
    """The key of built-in map ``level`` (``text`` None), else of the map ``text``."""
    if text is None:
        import catmouse_maps
        return catmouse_maps.LEVELS[level][0]
    import savestore
    return "P" + savestore.crc(text.encode())


def record(saved, key, make=False):
    """Map ``key``'s MAP_RECORD counts in ``saved`` (a list, changed in
    place), or None: none yet (``make``: a new one, unless MAX_MAPS maps
    have one)."""
    maps = saved.get("maps")
    if maps is None:
        if not make:
            return None
        maps = saved["maps"] = {}
    rec = maps.get(key)
    if rec is None and make and len(maps) < MAX_MAPS:
        rec = maps[key] = [0] * MAP_RECORD
    return rec


def add(saved, key, diff, side, won, rounds):
    """A game's result on map ``key`` at difficulty ``diff``: ``side``
    ("mouse" or "cat") won or lost, in round ``rounds``."""
    rec = record(saved, key, True)
    if rec is None:
        return
    at = _MAP_DIFF * diff + (0 if side == "mouse" else 3)
    rec[at + (0 if won else 1)] += 1
    best = rec[at + 2]
    if side == "mouse" and rounds > best:
        rec[at + 2] = rounds                # rounds lasted (the limit: escaped)
    elif side == "cat" and won and (not best or rounds < best):
        rec[at + 2] = rounds


def title_line(scene):
    """The title's line (catmouse_game.TitleScreen): the chosen map's record
    for the chosen side at the difficulty setting, "NORMAL: WON 3 LOST 1
    BEST 14" (a pack's map once it has been started)."""
    diff = scene.ctx.settings.get("difficulty", 1)
    side = scene.side
    name = _DIFFS[diff]
    if side == "watch":
        return "%s: AI AGAINST AI, NO RECORD" % name
    level = scene.level
    m = scene.match
    rec = None
    if not scene.levels.in_pack(level):
        rec = record(scene.saved, map_key(level, None))
    elif m.game is not None and m.level == level and m.map_text is not None:
        rec = record(scene.saved, map_key(level, m.map_text))
    at = _MAP_DIFF * diff + (0 if side == "mouse" else 3)
    if rec is None or not (rec[at] or rec[at + 1]):
        return "%s: NO RECORD YET" % name
    line = "%s: WON %d LOST %d" % (name, rec[at], rec[at + 1])
    return line + " BEST %d" % rec[at + 2] if rec[at + 2] else line
