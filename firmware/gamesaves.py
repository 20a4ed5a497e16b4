"""What the games may read from their saves, and the checks of what they
read: each game's records schema and its game in progress's (saveschema),
and the records inside a snapshot's hex strings (the state and the undo
ring's records hold any bytes under a valid checksum: a cell past the map or
the grid, a piece type that does not exist, a layout that is no tiling),
each decoded and checked before use, so that no later undo can index past an
array.

Imported where a save is read (a game's start, CONTINUE) and dropped with
the checker right after (``_done``: MicroPython ports only), so a game in
play carries neither (the pair is ~6 KB of heap on a Pico).

  records(ctx, game_id)      the records, a value that does not fit dropped
                             (the toast "RECORDS RESET"), the rest kept
  trapcat_snapshot(snap)     True when Trap the Cat's snapshot dict fits
  trapcat_turns(undo, b, easy)  every undo turn of Trap the Cat's fits grid ``b``
  klotski_snapshot(snap, n_levels)  True when Klotski's snapshot dict fits
  klotski_layouts(undo, letters, pieces)  every undo layout of Klotski's is one
  catmouse_snapshot(snap, n_levels)  True when Cat & Mouse's snapshot fits
  catmouse_places(rec, at, costs)    an undo record's pieces fit the map
  junqi_snapshot(snap)       True when Junqi's snapshot dict fits
  junqi_plies(undo)          every undo ply of Junqi's fits
  junqi_field(m, tally)      Junqi's field in model ``m`` is one the rules reach
"""

import sys

import saveschema as ss

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# levelpack.MAX_LEVELS and MAX_LEVEL_BYTES, not imported for two numbers (the
# pack reader is ~7 KB of heap on a Pico; a test keeps them equal)
_PACK_LEVELS = const(4096)
_LEVEL_BYTES = const(4160)
_CELLS = const(60)             # junqi_board.CELLS, junqi_flip.TYPES, HIDDEN, NOBODY
_TYPES = const(12)             # (a test keeps them equal)
_HIDDEN = const(3)
_NOBODY = const(255)
_CM_UNDO_SIZE = const(12)       # catmouse_match.UNDO_SIZE, UNDO_DEPTH
_CM_UNDO_DEPTH = const(64)
_CM_MAPS = const(24)            # catmouse_records.MAX_MAPS, MAP_RECORD, MAP_KEY_LEN
_CM_MAP_RECORD = const(18)      # (a test keeps them equal)
_CM_MAP_KEY_LEN = const(16)
_JQ_UNDO_SIZE = const(12)       # junqi_game.UNDO_SIZE, _UNDO_PLIES
_JQ_UNDO_PLIES = const(100)
_TC_SIDE = const(9)             # trapcat_game.MAX_SIDE, UNDO_SIZE, UNDO_DEPTH
_TC_UNDO_SIZE = const(6)
_TC_UNDO_DEPTH = const(64)
_KL_UNDO_SIZE = const(10)       # klotski_game.LayoutUndo's record, the saved game's undo
_KL_SAVED_UNDO = const(12)      # layouts (_SAVED_UNDO), its built-in levels (klotski_levels)
_KL_LEVELS = const(23)
_KL_BESTS = const(8192)         # Klotski's bests kept: one per layout ever solved


def _done():
    if sys.implementation.name != "cpython":
        sys.modules.pop("saveschema", None)
        sys.modules.pop("gamesaves", None)


def _trapcat_records():
    # Trap the Cat's records: per difficulty d (0 EASY, 1 NORMAL, 2 HARD) the games
    # won and lost ("won<d>", "lost<d>") and the fewest blocks of a win on a random
    # grid ("best<d>", absent: none yet); "won" and "lost" count every difficulty
    # together.  A save from before the records per difficulty holds only "won",
    # "lost" and the bests: it is this shape as it is (its games in the totals).
    return ("won", "lost", "won0", "lost0", "best0", "won1", "lost1", "best1",
            "won2", "lost2", "best2")


def _records_schema(game_id):
    if game_id == "klotski":     # the fewest steps per layout solved (its text)
        return ss.fields(("best", ss.dict_of(ss.COUNT, _KL_BESTS, _LEVEL_BYTES)))
    if game_id == "catmouse":
        # the totals over every map (a save from before the records per map
        # holds only these: they are kept as they were), then "maps": per map
        # _CM_MAP_RECORD counts (catmouse_records)
        keys = ("wins_mouse", "wins_cat", "lost_mouse", "lost_cat", "best_catch")
        per_map = ss.dict_of(ss.row(*([ss.COUNT] * _CM_MAP_RECORD)), _CM_MAPS, _CM_MAP_KEY_LEN)
        return ss.fields(*([(key, ss.COUNT) for key in keys] + [("maps", per_map)]))
    if game_id == "trapcat":
        keys = _trapcat_records()
    else:
        keys = ("won", "lost", "drawn", "easy_won", "easy_lost", "easy_drawn", "pvp")
    specs = [(key, ss.COUNT) for key in keys]
    if game_id == "junqi":
        specs.append(("guard", ss.boolean()))    # the setting "mines guard the flag"
    return ss.fields(*specs)


def records(ctx, game_id):
    """The records of ``game_id`` (``ctx.load``), each value checked: what
    does not fit is dropped and "RECORDS RESET" says so (the reader's
    defaults apply), the rest is kept."""
    got, dropped = ss.check(_records_schema(game_id), ctx.load(game_id))
    _done()
    if dropped:
        ctx.toast("RECORDS RESET", 60)
    return got


# -- Cat & Mouse -----------------------------------------------------------------------
def catmouse_snapshot(snap, n_levels):
    """catmouse_match.Match.snapshot()'s dict: the state one undo record, at
    most _CM_UNDO_DEPTH undo rounds, a level the scene offers (``n_levels``)."""
    import catmouse_maps
    schema = ss.fields(
        ("side", ss.one_of(("mouse", "cat"))),
        ("level", ss.integer(0, len(catmouse_maps.LEVELS) + _PACK_LEVELS - 1)),
        ("map", ss.maybe(ss.text(_LEVEL_BYTES))), ("diff", ss.integer(0, 2)),
        ("seed", ss.integer(0, 0xFFFF)), ("state", ss.hexbytes(_CM_UNDO_SIZE, 1, 1)),
        ("undo", ss.hexbytes(_CM_UNDO_SIZE, 0, _CM_UNDO_DEPTH)))
    ok = ss.whole(schema, snap) and snap["level"] < n_levels
    _done()
    return ok


def catmouse_places(rec, at, costs):
    """True when the undo record at ``rec[at:]`` has the cat and the mouse on
    free cells of the map whose ``costs`` are given, not on the same one."""
    cat = rec[at]
    mouse = rec[at + 1]
    n = len(costs)
    return cat < n and mouse < n and cat != mouse and costs[cat] and costs[mouse]


# -- Flip Junqi ------------------------------------------------------------------------
def junqi_snapshot(snap):
    """junqi_game.Scene.snapshot()'s dict (the field: occ, kind and colour per
    cell, pool and alive per colour and type, the players' colours, the rule
    "guard": True or False, absent in a game saved before the rule was
    offered), and every undo ply in it (``junqi_plies``)."""
    import junqi_board as jb
    import junqi_flip as jf
    n = 3 * jb.CELLS + 4 * jf.TYPES + 2
    byte = ss.integer(0, 255)
    schema = ss.fields(
        ("mode", ss.integer(0, 1)), ("easy", ss.boolean()), ("seed", ss.integer(0, 65536)),
        ("board", ss.hexbytes(1, n, n)),
        ("counts", ss.row(ss.integer(0, 1), byte, ss.COUNT, ss.integer(0, jb.CELLS), byte, byte)),
        ("rng", ss.integer(0, 1073741788)), ("cursor", ss.integer(0, jb.CELLS - 1)),
        ("undo", ss.hexbytes(_JQ_UNDO_SIZE, 0, _JQ_UNDO_PLIES)))
    ok = ss.whole(schema, snap)
    if ok:
        guard = snap.get("guard", False)
        from binascii import unhexlify
        ok = (guard is True or guard is False) and junqi_plies(unhexlify(snap["undo"]))
    _done()
    return ok


def _cell_fits(occ, colour, kind):
    # A cell as the rules leave it: empty and nobody's, face-up of the colour
    # its occupant says, or face-down of a colour; a piece type that exists.
    if kind >= _TYPES or occ > _HIDDEN:
        return False
    if occ == 0:
        return colour == _NOBODY
    return colour == occ - 1 if occ < _HIDDEN else colour < 2


def _last_fits(src, dst):
    # The last move's cells: both on the field, or both none.
    return (src < _CELLS and dst < _CELLS) or (src == _NOBODY and dst == _NOBODY)


def junqi_plies(undo):
    """True when every ply of the undo bytes can be taken back
    (junqi_game._pop_ply): cells on the field, both cells' codes fit (colour
    code 3: nobody), a flip of a face-down piece or a move of a face-up one
    (not onto a face-down one), players' colour codes 0, 1 or 3."""
    for at in range(0, len(undo), _JQ_UNDO_SIZE):
        src = undo[at]
        dst = undo[at + 1]
        if src >= _CELLS or dst >= _CELLS:
            return False
        for k in range(2):
            v = undo[at + 2 + k]
            c = (v >> 2) & 3
            if not _cell_fits(v & 3, _NOBODY if c == 3 else c, v >> 4):
                return False
        s = undo[at + 2] & 3
        if (src == dst) != (s == _HIDDEN) or (src != dst and (s == 0 or undo[at + 3] & 3 == _HIDDEN)):
            return False
        v = undo[at + 4]
        if (v & 3) == 2 or (v >> 2) == 2 or v >= 16 or not _last_fits(undo[at + 6], undo[at + 7]):
            return False
    return True


def junqi_field(m, tally):
    """True when model ``m``'s field is one the rules can reach: every cell
    fits, ``pool`` counts the face-down pieces and ``alive`` the pieces on the
    field (at most COUNTS of each), ``hidden`` the face-down cells, the
    players' colours are both unknown or 0 and 1, the last move's cells fit.
    ``tally``: scratch, 4 * TYPES bytes.  (Called once per undo ply at
    CONTINUE: the caller drops this module after.)"""
    import junqi_flip as jf
    t = 2 * _TYPES
    for i in range(2 * t):
        tally[i] = 0
    hidden = 0
    occ = m.occ
    colour = m.colour
    kind = m.kind
    for c in range(_CELLS):
        o = occ[c]
        if not _cell_fits(o, colour[c], kind[c]):
            return False
        if o:
            i = colour[c] * _TYPES + kind[c]
            tally[t + i] += 1
            if o == _HIDDEN:
                tally[i] += 1
                hidden += 1
    for i in range(t):
        if m.pool[i] != tally[i] or m.alive[i] != tally[t + i] or tally[t + i] > jf.COUNTS[i % _TYPES]:
            return False
    a = m.player_colour[0]
    b = m.player_colour[1]
    if not ((a == _NOBODY and b == _NOBODY) or (a < 2 and b == 1 - a)):
        return False
    return m.hidden == hidden and _last_fits(m.last_src, m.last_dst)


# -- Trap the Cat ------------------------------------------------------------------------
def _rng_fits(ab):
    # trapcat.Rng's state (a | b << 15) as its generators leave it: a in
    # 1..32362, b in 1..31726 (a zero would stick)
    a = ab & 0x7FFF
    b = ab >> 15
    return 0 < a <= 32362 and 0 < b <= 31726


def _grid_fits(size, cells, cat):
    # size * size cells, the cat on one of them that is free
    return len(cells) == size * size and cat < len(cells) and not cells[cat]


def trapcat_snapshot(snap):
    """trapcat_game.Scene.snapshot()'s dict: a grid of 3..TC_SIDE cells a side
    with the cat on a free cell and the cursor on the grid, the pack level's
    start (if any) of the same size, the easy cat's RNG state, no more undo
    turns than moves.  The turns themselves: ``trapcat_turns``, on the grid."""
    from binascii import unhexlify
    cell = ss.integer(0, _TC_SIDE * _TC_SIDE - 1)
    side = ss.integer(3, _TC_SIDE)
    grid = ss.hexbytes(1, 9, _TC_SIDE * _TC_SIDE)
    schema = ss.fields(
        ("size", side), ("cells", grid), ("cat", cell), ("moves", ss.COUNT),
        ("diff", ss.integer(0, 2)), ("seed", ss.integer(0, 65536)), ("rng", ss.COUNT),
        ("fixed", ss.maybe(ss.row(side, grid, cell))), ("cursor", cell),
        ("cat_turn", ss.boolean()), ("undo", ss.hexbytes(_TC_UNDO_SIZE, 0, _TC_UNDO_DEPTH)))
    ok = ss.whole(schema, snap)
    if ok:
        size = snap["size"]
        fixed = snap["fixed"]
        ok = (_grid_fits(size, unhexlify(snap["cells"]), snap["cat"])
              and snap["cursor"] < size * size
              and len(snap["undo"]) // (2 * _TC_UNDO_SIZE) <= snap["moves"]
              and (snap["diff"] != 0 or _rng_fits(snap["rng"]))
              and (fixed is None or (fixed[0] == size
                                     and _grid_fits(size, unhexlify(fixed[1]), fixed[2]))))
    _done()
    return ok


def trapcat_turns(undo, b, easy):
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
        at -= _TC_UNDO_SIZE
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


# -- Klotski ---------------------------------------------------------------------------
def klotski_snapshot(snap, n_levels):
    """klotski_game.Scene.snapshot()'s dict: a level the scene offers
    (``n_levels``) or the shown one (-1, its layout text then given), the
    start and the layout as text of their length, no more undo layouts than
    steps, the last step's piece an anchor cell or none (255).  The layouts
    themselves are the scene's to check (``check_level``, the piece set:
    ``klotski_layouts``)."""
    schema = ss.fields(
        ("level", ss.integer(-1, _KL_LEVELS + _PACK_LEVELS - 1)),
        ("shown", ss.maybe(ss.text(_LEVEL_BYTES))), ("start", ss.text(20)),
        ("cells", ss.text(24)), ("steps", ss.COUNT), ("last", ss.integer(0, 255)),
        ("helped", ss.boolean()), ("cursor", ss.integer(0, 19)),
        ("undo", ss.hexbytes(_KL_UNDO_SIZE, 0, _KL_SAVED_UNDO)))
    ok = ss.whole(schema, snap)
    if ok:
        level = snap["level"]
        last = snap["last"]
        ok = ((level < n_levels if level >= 0 else snap["shown"] is not None)
              and len(snap["undo"]) // (2 * _KL_UNDO_SIZE) <= snap["steps"]
              and (last < 20 or last == 255))
    _done()
    return ok


def klotski_layouts(undo, letters, pieces):
    """True when every 10-byte layout of the undo bytes (two cells a byte,
    a cell's letter ``letters[code]`` by its 4-bit code:
    klotski_game._LETTERS, where only "."'s own code gives ".") is a tiling
    of the piece set ``pieces`` (klotski.piece_set), so that an undo puts
    back a layout the board and the solver can take."""
    import klotski
    cells = bytearray(20)
    for at in range(0, len(undo), _KL_UNDO_SIZE):
        for i in range(2 * _KL_UNDO_SIZE):
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
