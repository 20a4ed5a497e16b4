"""What Cat & Mouse may read from its saves, checked: its records (the
totals over every map, the counts per map) and its game in progress (the
snapshot's keys and ranges; each undo record inside its hex strings is
checked by catmouse_match.Match.restore with ``places``, so that no later
undo can put a piece off the map).

Imported where a save is read (the scene's start, CONTINUE) and dropped
with saveschema right after (``saveschema.done``: MicroPython ports only),
so a game in play carries neither; the other games' checks are their own
modules (junqi_saves, trapcat_saves, klotski_saves), never loaded here.

  records(ctx, data)        the records read (scenekit.records), a value that does not fit dropped
                            (the toast "RECORDS RESET"), the rest kept
  snapshot(snap, n_levels)  True when the snapshot dict fits
  places(rec, at, costs)    an undo record's pieces fit the map
"""

import saveschema as ss

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# levelpack.MAX_LEVELS and MAX_LEVEL_BYTES, not imported for two numbers (the
# pack reader is ~7 KB of heap on a Pico); catmouse_match.UNDO_SIZE,
# UNDO_DEPTH; catmouse_records.MAX_MAPS, MAP_RECORD, MAP_KEY_LEN (a test
# keeps them equal)
_PACK_LEVELS = const(4096)
_LEVEL_BYTES = const(4160)
_UNDO_SIZE = const(12)
_UNDO_DEPTH = const(64)
_MAPS = const(24)
_MAP_RECORD = const(18)
_MAP_KEY_LEN = const(16)


def records(ctx, data):
    """Cat & Mouse's records (``ctx.load("catmouse")``), each value checked:
    the totals over every map (a save from before the records per map holds
    only these: they are kept as they were), then "maps": per map
    _MAP_RECORD counts (catmouse_records); a map entry that does not fit
    goes alone."""
    keys = ("wins_mouse", "wins_cat", "lost_mouse", "lost_cat", "best_catch")
    per_map = ss.dict_of(ss.row(*([ss.COUNT] * _MAP_RECORD)), _MAPS, _MAP_KEY_LEN)
    schema = ss.fields(*([(key, ss.COUNT) for key in keys] + [("maps", per_map)]))
    return ss.read(ctx, data, schema, "catmouse_saves")


def snapshot(snap, n_levels):
    """catmouse_match.Match.snapshot()'s dict: the state one undo record, at
    most _UNDO_DEPTH undo rounds, a level the scene offers (``n_levels``)."""
    import catmouse_maps
    schema = ss.fields(
        ("side", ss.one_of(("mouse", "cat"))),
        ("level", ss.integer(0, len(catmouse_maps.LEVELS) + _PACK_LEVELS - 1)),
        ("map", ss.maybe(ss.text(_LEVEL_BYTES))), ("diff", ss.integer(0, 2)),
        ("seed", ss.integer(0, 0xFFFF)), ("state", ss.hexbytes(_UNDO_SIZE, 1, 1)),
        ("undo", ss.hexbytes(_UNDO_SIZE, 0, _UNDO_DEPTH)))
    ok = ss.whole(schema, snap) and snap["level"] < n_levels
    ss.done("catmouse_saves")
    return ok


def places(rec, at, costs):
    """True when the undo record at ``rec[at:]`` has the cat and the mouse on
    free cells of the map whose ``costs`` are given, not on the same one."""
    cat = rec[at]
    mouse = rec[at + 1]
    n = len(costs)
    return cat < n and mouse < n and cat != mouse and costs[cat] and costs[mouse]
