"""What Flip Junqi may read from its saves, checked: its records (games won,
lost and drawn, the setting "mines guard the flag") and its game in
progress (the snapshot's keys and ranges, each undo ply inside its hex
string, and the field as the plies are taken back: ``field``), so that no
later undo can index past the counts or overflow them.

Imported where a save is read (the scene's start, CONTINUE) and dropped
with saveschema right after (``saveschema.done``: MicroPython ports only),
so a game in play carries neither; the other games' checks are their own
modules (catmouse_saves, trapcat_saves, klotski_saves), never loaded here.

  records(ctx, data)        the records read (scenekit.records), a value that does not fit dropped
                            (the toast "RECORDS RESET"), the rest kept
  snapshot(snap)            True when the snapshot dict fits
  plies(undo)               every undo ply fits
  field(m, tally)           the field in model ``m`` is one the rules reach
"""

import saveschema as ss
import undosave   # the game's, resident (an import of binascii costs ~11 ms on a Pico)

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_CELLS = const(60)          # junqi_board.CELLS, junqi_flip.TYPES, HIDDEN, NOBODY;
_TYPES = const(12)          # junqi_game.UNDO_SIZE, _UNDO_PLIES (a test keeps them equal)
_HIDDEN = const(3)
_NOBODY = const(255)
_UNDO_SIZE = const(12)
_UNDO_PLIES = const(100)


def records(ctx, data):
    """Flip Junqi's records (``ctx.load("junqi")``), each value checked."""
    keys = ("won", "lost", "drawn", "easy_won", "easy_lost", "easy_drawn", "pvp")
    specs = [(key, ss.COUNT) for key in keys]
    specs.append(("guard", ss.boolean()))    # the setting "mines guard the flag"
    return ss.read(ctx, data, ss.fields(*specs), "junqi_saves")


def snapshot(snap):
    """junqi_game.Scene.snapshot()'s dict (the field: occ, kind and colour per
    cell, pool and alive per colour and type, the players' colours, the rule
    "guard": True or False, absent in a game saved before the rule was
    offered), and every undo ply in it (``plies``)."""
    import junqi_board as jb
    import junqi_flip as jf
    n = 3 * jb.CELLS + 4 * jf.TYPES + 2
    byte = ss.integer(0, 255)
    schema = ss.fields(
        ("mode", ss.integer(0, 1)), ("easy", ss.boolean()), ("seed", ss.integer(0, 65536)),
        ("board", ss.hexbytes(1, n, n)),
        ("counts", ss.row(ss.integer(0, 1), byte, ss.COUNT, ss.integer(0, jb.CELLS), byte, byte)),
        ("rng", ss.integer(0, 1073741788)), ("cursor", ss.integer(0, jb.CELLS - 1)),
        ("undo", ss.hexbytes(_UNDO_SIZE, 0, _UNDO_PLIES)))
    ok = ss.whole(schema, snap)
    if ok:
        guard = snap.get("guard", False)
        ok = (guard is True or guard is False) and plies(undosave.from_text(snap["undo"]))
    ss.done("junqi_saves")
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


def plies(undo):
    """True when every ply of the undo bytes can be taken back
    (junqi_game._pop_ply): cells on the field, both cells' codes fit (colour
    code 3: nobody), a flip of a face-down piece or a move of a face-up one
    (not onto a face-down one), players' colour codes 0, 1 or 3."""
    for at in range(0, len(undo), _UNDO_SIZE):
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


def field(m, tally):
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
