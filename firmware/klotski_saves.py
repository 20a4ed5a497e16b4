"""What Klotski may read from its saves, checked: its records (the fewest
steps per layout solved) and its game in progress (the snapshot's keys and
ranges, and each undo layout inside its hex string a tiling of the level's
pieces, so that no later undo puts back a layout the board cannot take).

Imported where a save is read (the scene's start, CONTINUE) and dropped
with saveschema right after (``saveschema.done``: MicroPython ports only),
so a game in play carries neither; the other games' checks are their own
modules (catmouse_saves, junqi_saves, trapcat_saves), never loaded here.

  records(ctx, data)            the records read (scenekit.records), a value that does not fit dropped
                                (the toast "RECORDS RESET"), the rest kept
  snapshot(snap, n_levels)      True when the snapshot dict fits
  layouts(undo, letters, pieces)  every undo layout is a tiling of ``pieces``
"""

import saveschema as ss

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# levelpack.MAX_LEVELS and MAX_LEVEL_BYTES, not imported for two numbers (the
# pack reader is ~7 KB of heap on a Pico); klotski_game.LayoutUndo's record,
# the saved game's undo layouts (_SAVED_UNDO), the built-in levels
# (klotski_levels): a test keeps them equal
_PACK_LEVELS = const(4096)
_LEVEL_BYTES = const(4160)
_UNDO_SIZE = const(10)
_SAVED_UNDO = const(12)
_LEVELS = const(23)
_BESTS = const(8192)        # the bests kept: one per layout ever solved


def records(ctx, data):
    """Klotski's records (``ctx.load("klotski")``), each best checked."""
    return ss.read(ctx, data, ss.fields(("best", ss.dict_of(ss.COUNT, _BESTS, _LEVEL_BYTES))),
                   "klotski_saves")


def snapshot(snap, n_levels):
    """klotski_game.Scene.snapshot()'s dict: a level the scene offers
    (``n_levels``) or the shown one (-1, its layout text then given), the
    start and the layout as text of their length, no more undo layouts than
    steps, the last step's piece an anchor cell or none (255).  The layouts
    themselves are the scene's to check (``check_level``, the piece set:
    ``layouts``)."""
    schema = ss.fields(
        ("level", ss.integer(-1, _LEVELS + _PACK_LEVELS - 1)),
        ("shown", ss.maybe(ss.text(_LEVEL_BYTES))), ("start", ss.text(20)),
        ("cells", ss.text(24)), ("steps", ss.COUNT), ("last", ss.integer(0, 255)),
        ("helped", ss.boolean()), ("cursor", ss.integer(0, 19)),
        ("undo", ss.hexbytes(_UNDO_SIZE, 0, _SAVED_UNDO)))
    ok = ss.whole(schema, snap)
    if ok:
        level = snap["level"]
        last = snap["last"]
        ok = ((level < n_levels if level >= 0 else snap["shown"] is not None)
              and len(snap["undo"]) // (2 * _UNDO_SIZE) <= snap["steps"]
              and (last < 20 or last == 255))
    ss.done("klotski_saves")
    return ok


def layouts(undo, letters, pieces):
    """True when every 10-byte layout of the undo bytes (two cells a byte,
    a cell's letter ``letters[code]`` by its 4-bit code:
    klotski_game._LETTERS, where only "."'s own code gives ".") is a tiling
    of the piece set ``pieces`` (klotski.piece_set), so that an undo puts
    back a layout the board and the solver can take."""
    import klotski
    cells = bytearray(20)
    for at in range(0, len(undo), _UNDO_SIZE):
        for i in range(2 * _UNDO_SIZE):
            code = (undo[at + (i >> 1)] >> (4 * (i & 1))) & 15
            ch = letters[code]
            if ch == 46 and code != 14:      # no letter has this code ('.' & 15 is 14)
                return False
            cells[i] = ch
        try:
            if klotski.piece_set(cells) != pieces:
                return False
        except ValueError:                   # klotski.LayoutError: no tiling
            return False
    return True
