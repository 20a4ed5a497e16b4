"""What Trap the Cat may read from its saves, checked: its records (games
won and lost, the fewest blocks of a win, per difficulty) and its game in
progress (the snapshot's keys and ranges, and each undo turn inside its hex
string taken back on the grid, so that no later undo can index past it).

Imported where a save is read (the scene's start, CONTINUE) and dropped
with saveschema right after (``saveschema.done``: MicroPython ports only),
so a game in play carries neither; the other games' checks are their own
modules (catmouse_saves, junqi_saves, klotski_saves), never loaded here.

  records(ctx, data)        the records read (scenekit.records), a value that does not fit dropped
                            (the toast "RECORDS RESET"), the rest kept
  snapshot(snap)            True when the snapshot dict fits
  turns(undo, b, easy)      every undo turn fits grid ``b``
"""

import saveschema as ss
import undosave   # the game's, resident (an import of binascii costs ~11 ms on a Pico)

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_SIDE = const(9)            # trapcat_game.MAX_SIDE, UNDO_SIZE, UNDO_DEPTH
_UNDO_SIZE = const(6)       # (a test keeps them equal)
_UNDO_DEPTH = const(64)


def records(ctx, data):
    """Trap the Cat's records (``ctx.load("trapcat")``), each value checked:
    per difficulty d (0 EASY, 1 NORMAL, 2 HARD) the games won and lost
    ("won<d>", "lost<d>") and the fewest blocks of a win on a random grid
    ("best<d>", absent: none yet); "won" and "lost" count every difficulty
    together.  A save from before the records per difficulty holds only
    "won", "lost" and the bests: it is this shape as it is (its games in the
    totals)."""
    keys = ("won", "lost", "won0", "lost0", "best0", "won1", "lost1", "best1",
            "won2", "lost2", "best2")
    return ss.read(ctx, data, ss.fields(*[(key, ss.COUNT) for key in keys]), "trapcat_saves")


def _rng_fits(ab):
    # trapcat.Rng's state (a | b << 15) as its generators leave it: a in
    # 1..32362, b in 1..31726 (a zero would stick)
    a = ab & 0x7FFF
    b = ab >> 15
    return 0 < a <= 32362 and 0 < b <= 31726


def _grid_fits(size, cells, cat):
    # size * size cells, the cat on one of them that is free
    return len(cells) == size * size and cat < len(cells) and not cells[cat]


def snapshot(snap):
    """trapcat_game.Scene.snapshot()'s dict: a grid of 3.._SIDE cells a side
    with the cat on a free cell and the cursor on the grid, the pack level's
    start (if any) of the same size, the easy cat's RNG state, no more undo
    turns than moves.  The turns themselves: ``turns``, on the grid."""
    cell = ss.integer(0, _SIDE * _SIDE - 1)
    side = ss.integer(3, _SIDE)
    grid = ss.hexbytes(1, 9, _SIDE * _SIDE)
    schema = ss.fields(
        ("size", side), ("cells", grid), ("cat", cell), ("moves", ss.COUNT),
        ("diff", ss.integer(0, 2)), ("seed", ss.integer(0, 65536)), ("rng", ss.COUNT),
        ("fixed", ss.maybe(ss.row(side, grid, cell))), ("cursor", cell),
        ("cat_turn", ss.boolean()), ("undo", ss.hexbytes(_UNDO_SIZE, 0, _UNDO_DEPTH)))
    ok = ss.whole(schema, snap)
    if ok:
        size = snap["size"]
        fixed = snap["fixed"]
        ok = (_grid_fits(size, undosave.from_text(snap["cells"]), snap["cat"])
              and snap["cursor"] < size * size
              and len(snap["undo"]) // (2 * _UNDO_SIZE) <= snap["moves"]
              and (snap["diff"] != 0 or _rng_fits(snap["rng"]))
              and (fixed is None or (fixed[0] == size
                                     and _grid_fits(size, undosave.from_text(fixed[1]), fixed[2]))))
    ss.done("trapcat_saves")
    return ok


def turns(undo, b, easy):
    """True when every turn of the undo bytes can be taken back
    (trapcat_game.Scene.undo), newest first, from grid ``b``'s position:
    its block a blocked cell of the grid, the cat before it on another cell
    of the grid, free, in a game still on there; with the easy cat
    (``easy``), its RNG state one the generators leave.  Takes the turns
    back on ``b`` (the caller loads its position again)."""
    import trapcat
    n = b.n
    cells = b.cells
    at = len(undo)
    while at:
        at -= _UNDO_SIZE
        block = undo[at]
        cat = undo[at + 1]
        if block >= n or cat >= n or not cells[block] or cat == block:
            return False
        cells[block] = trapcat.FREE
        if cells[cat]:
            return False
        b.cat = cat
        if b.update_status() != trapcat.PLAYING:
            return False
        if easy and not _rng_fits(undo[at + 2] | undo[at + 3] << 8 | undo[at + 4] << 16
                                  | (undo[at + 5] & 0x3F) << 24):
            return False
    return True
