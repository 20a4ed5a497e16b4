"""Cat & Mouse rules (logic only, no display), after the seed article's engine.

A board of cols x rows cells: road, grass, stream (entering costs 1, 2, 3
stamina) or obstacle.  The cat starts top-left, the mouse bottom-right.  Each
round the cat moves to a neighbouring cell or waits where it is, then the
mouse moves to one or stays.  The cat wins by entering the mouse's cell; the
mouse wins when the round limit passes.  (The seed article's cat always
moves; a mouse that moves every round then keeps the parity of its distance
to the cat on a grid, and a cat that must move too could never step onto
it: waiting a round is how a cat changes that parity.)

Terrain mode makes stamina matter: entering a cell that costs c stamina also
costs the piece c - 1 rounds of rest, so the least-stamina route (A*) is also
the quickest one.  Each side's spent stamina is counted.

Strategies (built-in AIs and user plug-ins alike) are callables
``strategy(board, position, legal_moves) -> cell`` as in the seed's handlers;
``board`` is the game's BoardView.  An answer not in ``legal_moves`` is
recorded in ``game.last_error`` and the piece does not move.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

from gridpath import WHOLE  # the prebuilt slice [:] (no slice object per use)
from asciitext import first_bad

FREE = const(0)
CAT = const(1)
MOUSE = const(2)
_OBSTACLE = const(3)
MAX_SIDE = const(64)
_DEFAULT_COLS = const(16)
_DEFAULT_ROWS = const(8)

_TERRAIN = {".": 1, "g": 2, "w": 3, "#": 0, "C": 1, "M": 1}



class MapError(ValueError):
    """A malformed map; ``line`` and ``column`` are 1-based (0 when not tied to one)."""

    def __init__(self, message, line=0, column=0):
        if line:
            message = "line %d, column %d: %s" % (line, column, message)
        super().__init__(message)
        self.line = line
        self.column = column


class CatMouseMap:
    """A parsed map: terrain costs (0 = obstacle) and the two start cells."""

    def __init__(self, cols, rows, costs, cat, mouse):
        self.cols = cols
        self.rows = rows
        self.costs = costs
        self.cat = cat
        self.mouse = mouse

    @property
    def terrain(self):
        """True when any cell costs more than a road."""
        for c in self.costs:
            if c > 1:
                return True
        return False

    def to_text(self):
        lines = []
        for r in range(self.rows):
            row = []
            for c in range(self.cols):
                cell = r * self.cols + c
                if cell == self.cat:
                    row.append("C")
                elif cell == self.mouse:
                    row.append("M")
                else:
                    row.append("#.gw"[self.costs[cell]])
            lines.append("".join(row))
        return "\n".join(lines) + "\n"


def parse_map(text):
    """Parse the plain-text map format; raise MapError naming line and column.

    One line per row: ``.`` road, ``g`` grass, ``w`` stream, ``#`` obstacle,
    ``C`` cat, ``M`` mouse (both stand on road).  Blank lines at the ends and
    lines starting with ``;`` (comments) are ignored.
    """
    bad = first_bad(text)
    if bad:
        raise MapError("unexpected character U+%04X (maps are plain ASCII)" % ord(bad[2]),
                       bad[0], bad[1])
    rows = []
    numbers = []
    for number, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\r")
        if line.startswith(";"):
            continue
        if line.strip() == "":
            if rows:
                rows.append(None)
                numbers.append(number)
            continue
        rows.append(line)
        numbers.append(number)
    while rows and rows[-1] is None:
        rows.pop()
        numbers.pop()
    if not rows:
        raise MapError("the map is empty")
    cols = len(rows[0])
    if cols > MAX_SIDE:
        raise MapError("the map is %d cells wide; at most %d is allowed" % (cols, MAX_SIDE),
                       numbers[0], MAX_SIDE + 1)
    if len(rows) > MAX_SIDE:
        raise MapError("the map has %d rows; at most %d are allowed" % (len(rows), MAX_SIDE),
                       numbers[MAX_SIDE], 1)
    costs = bytearray(cols * len(rows))
    cat = mouse = -1
    for r, line in enumerate(rows):
        number = numbers[r]
        if line is None:
            raise MapError("blank line inside the map", number, 1)
        if len(line) != cols:
            raise MapError("row has %d cells but the first row has %d" % (len(line), cols),
                           number, min(len(line), cols) + 1)
        for c, ch in enumerate(line):
            cost = _TERRAIN.get(ch)
            if cost is None:
                raise MapError("unknown character %r (use . g w # C M)" % ch, number, c + 1)
            cell = r * cols + c
            costs[cell] = cost
            if ch == "C":
                if cat >= 0:
                    raise MapError("a second cat 'C' (the first is at line %d, column %d)"
                                   % (numbers[cat // cols], cat % cols + 1), number, c + 1)
                cat = cell
            elif ch == "M":
                if mouse >= 0:
                    raise MapError("a second mouse 'M' (the first is at line %d, column %d)"
                                   % (numbers[mouse // cols], mouse % cols + 1), number, c + 1)
                mouse = cell
    if cat < 0:
        raise MapError("no cat 'C' on the map")
    if mouse < 0:
        raise MapError("no mouse 'M' on the map")
    return CatMouseMap(cols, len(rows), costs, cat, mouse)


def open_map(cols=_DEFAULT_COLS, rows=_DEFAULT_ROWS):
    """An open board: cat top-left, mouse bottom-right, no obstacles."""
    costs = bytearray(b"\x01" * (cols * rows))
    return CatMouseMap(cols, rows, costs, 0, cols * rows - 1)


class BoardView:
    """What a strategy sees, like the seed's ``chessboard``: ``flags[i]`` is 0
    free, 1 cat, 2 mouse, 3 obstacle; ``costs[i]`` the stamina to enter
    (0 for obstacles).  Read-only by convention; the game reuses it."""

    def __init__(self, cols, rows, costs):
        self.cols = cols
        self.rows = rows
        self.costs = costs
        self.flags = bytearray(len(costs))
        self.cat = -1
        self.mouse = -1
        self.terrain = False
        self.round = 0
        self.cat_rest = 0
        self.mouse_rest = 0
        for i in range(len(costs)):
            self.flags[i] = FREE if costs[i] else _OBSTACLE

    def __len__(self):
        return len(self.flags)

    def __getitem__(self, cell):
        """``(flag, cost)`` of a cell, the seed's ``{flag, depletePower}``."""
        return self.flags[cell], self.costs[cell]

    def _place(self, cat, mouse):
        flags = self.flags
        if self.cat >= 0:
            flags[self.cat] = FREE
            flags[self.mouse] = FREE
        self.cat = cat
        self.mouse = mouse
        flags[mouse] = MOUSE
        flags[cat] = CAT


class CatMouseGame:
    """One game.  ``play_round(cat_strategy, mouse_strategy)`` runs a round;
    ``winner`` becomes "cat" or "mouse"."""

    def __init__(self, cmap, round_limit=0, terrain=None):
        self.map = cmap
        self.cols = cmap.cols
        self.rows = cmap.rows
        self.costs = cmap.costs
        self.terrain = cmap.terrain if terrain is None else terrain
        self.round_limit = round_limit or 4 * (cmap.cols + cmap.rows)
        self.board = BoardView(cmap.cols, cmap.rows, cmap.costs)
        self.board.terrain = self.terrain
        self.legal = [0] * 5   # slots for the most legal cells (4 neighbours + stay)
        del self.legal[WHOLE]
        self.reset()

    def reset(self):
        self.cat = self.map.cat
        self.mouse = self.map.mouse
        self.round = 0
        self.cat_stamina = 0
        self.mouse_stamina = 0
        self.cat_rest = 0
        self.mouse_rest = 0
        self.winner = None
        self.last_error = None
        self.board._place(self.cat, self.mouse)
        self.board.cat_rest = 0
        self.board.mouse_rest = 0

    # Moves ----------------------------------------------------------------
    def legal_moves(self, piece, out=None):
        """Cells ``piece`` ("cat" or "mouse") may choose now, into ``out`` (a list
        reused when given): the free neighbours (the mouse may not enter the
        cat's cell), then the piece's own cell, last (either piece may stay:
        the cat waits a round); a resting piece may only stay."""
        out = self.legal if out is None else out
        # emptied in place, slots kept: MicroPython's list.clear() gives back
        # all but 4, so a mouse with 5 choices would regrow it every turn
        del out[WHOLE]
        cols = self.cols
        here = self.cat if piece == "cat" else self.mouse
        resting = self.cat_rest if piece == "cat" else self.mouse_rest
        if resting:
            out.append(here)
            return out
        col = here % cols
        costs = self.costs
        for k in range(4):
            if k == 0:
                q = here - 1 if col > 0 else -1
            elif k == 1:
                q = here + 1 if col < cols - 1 else -1
            elif k == 2:
                q = here - cols
            else:
                q = here + cols
            if 0 <= q < len(costs) and costs[q] and (piece == "cat" or q != self.cat):
                out.append(q)
        out.append(here)
        return out

    def move(self, piece, cell):
        """Apply a chosen cell if legal; return True.  Otherwise record the
        reason in ``last_error`` and leave the piece where it is."""
        legal = self.legal_moves(piece)
        if cell not in legal:
            self.last_error = "%s chose %r, not one of %s" % (piece, cell, sorted(legal))
            return False
        here = self.cat if piece == "cat" else self.mouse
        if piece == "cat":
            if self.cat_rest:
                self.cat_rest -= 1
            elif cell != here:
                cost = self.costs[cell]
                self.cat_stamina += cost
                if self.terrain:
                    self.cat_rest = cost - 1
            self.cat = cell
            if cell == self.mouse:
                self.winner = "cat"
        else:
            if self.mouse_rest:
                self.mouse_rest -= 1
            elif cell != here:
                cost = self.costs[cell]
                self.mouse_stamina += cost
                if self.terrain:
                    self.mouse_rest = cost - 1
            self.mouse = cell
        self.board._place(self.cat, self.mouse)
        self.board.cat_rest = self.cat_rest
        self.board.mouse_rest = self.mouse_rest
        return True

    def _ask(self, piece, strategy):
        legal = self.legal_moves(piece)
        position = self.cat if piece == "cat" else self.mouse
        return strategy(self.board, position, legal)

    def play_round(self, cat_strategy, mouse_strategy):
        """One round: the cat, then (if not caught) the mouse.  Returns winner."""
        if self.winner:
            return self.winner
        self.round += 1
        self.board.round = self.round
        self.last_error = None
        self.move("cat", self._ask("cat", cat_strategy))
        if self.winner:
            return self.winner
        self.move("mouse", self._ask("mouse", mouse_strategy))
        if self.round >= self.round_limit:
            self.winner = "mouse"
        return self.winner

    def play(self, cat_strategy, mouse_strategy, on_error=None):
        """Play to the end; ``on_error(round, message)`` hears illegal answers."""
        while not self.winner:
            self.play_round(cat_strategy, mouse_strategy)
            if self.last_error and on_error:
                on_error(self.round, self.last_error)
        return self.winner
