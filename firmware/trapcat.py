"""Trap the Cat (围住神经猫) rules on a square hex board in offset rows.

Cells are numbered row-major ``r * size + c``.  Odd rows are shifted half a
cell to the right, so
- a cell in an even row touches (r, c-1), (r, c+1), (r-1, c-1), (r-1, c),
  (r+1, c-1), (r+1, c);
- a cell in an odd row touches (r, c-1), (r, c+1), (r-1, c), (r-1, c+1),
  (r+1, c), (r+1, c+1).
Neighbours are always listed in that order (W, E, NW, NE, SW, SE) and only
the ones on the board are kept (``adj`` packs them, ``deg`` counts them).

A turn: the player blocks one free cell (never the cat's), then the cat moves
to a free neighbour.  The cat wins when it stands on a border cell; the player
wins when, at the cat's turn, the cat has no free neighbour.

All buffers are allocated once per Board and reused; nothing here allocates
after construction except ``reset``'s bookkeeping-free loop.
"""

from asciitext import describe, first_bad
from rng import BoardRng as Rng  # noqa: F401 - the boards of a seed stay the same (rng.py)

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

FREE = const(0)
BLOCKED = const(1)
NONE = const(255)        # "no cell" (boards have at most 15 x 15 = 225 cells)
MAX_SIZE = const(15)
DEFAULT_BLOCKS = const(12)

PLAYING = const(0)       # game status values
CAT_WON = const(1)
PLAYER_WON = const(2)


class Board:
    """A size x size hex board: ``cells`` (0 free, 1 blocked), ``cat`` cell,
    neighbour tables and the border flags."""

    def __init__(self, size=9):
        if not (3 <= size <= MAX_SIZE):
            raise ValueError("board size must be 3..15, got %d" % size)
        self.size = size
        n = size * size
        self.n = n
        self.cells = bytearray(n)
        self.border = bytearray(n)
        self.adj = bytearray(6 * n)
        self.deg = bytearray(n)
        self.center = (size // 2) * size + size // 2
        self.cat = self.center
        self.moves = 0           # blocks placed by the player this game
        self.status = PLAYING
        for r in range(size):
            for c in range(size):
                cell = r * size + c
                if r == 0 or c == 0 or r == size - 1 or c == size - 1:
                    self.border[cell] = 1
                shift = r & 1    # odd rows: upper/lower neighbours at c, c+1
                k = 0
                for dr, dc in ((0, -1), (0, 1), (-1, shift - 1), (-1, shift),
                               (1, shift - 1), (1, shift)):
                    rr = r + dr
                    cc = c + dc
                    if 0 <= rr < size and 0 <= cc < size:
                        self.adj[6 * cell + k] = rr * size + cc
                        k += 1
                for j in range(k, 6):
                    self.adj[6 * cell + j] = NONE
                self.deg[cell] = k

    # Setup -----------------------------------------------------------------
    def clear(self):
        cells = self.cells
        for i in range(self.n):
            cells[i] = FREE
        self.cat = self.center
        self.moves = 0
        self.status = PLAYING

    def reset(self, rng, blocks=DEFAULT_BLOCKS):
        """New game: cat in the centre, ``blocks`` random blocked cells (never
        the cat's cell)."""
        self.clear()
        if blocks < 0 or blocks > self.n - 1:
            raise ValueError("blocks must be 0..%d" % (self.n - 1))
        cells = self.cells
        placed = 0
        while placed < blocks:
            cell = rng.below(self.n)
            if cell != self.cat and not cells[cell]:
                cells[cell] = BLOCKED
                placed += 1
        self.update_status()

    def load(self, cells, cat):
        """Set the position from a sequence of n cells (non-zero = blocked)."""
        if len(cells) != self.n:
            raise ValueError("expected %d cells, got %d" % (self.n, len(cells)))
        if not (0 <= cat < self.n) or cells[cat]:
            raise ValueError("cat must stand on a free cell")
        for i in range(self.n):
            self.cells[i] = BLOCKED if cells[i] else FREE
        self.cat = cat
        self.moves = 0
        self.update_status()

    # Queries ---------------------------------------------------------------
    def is_adjacent(self, a, b):
        adj = self.adj
        base = 6 * a
        for k in range(base, base + self.deg[a]):
            if adj[k] == b:
                return True
        return False

    def free_neighbours(self, cell, out):
        """Write the free neighbours of ``cell`` into ``out``; return how many."""
        adj = self.adj
        cells = self.cells
        base = 6 * cell
        m = 0
        for k in range(base, base + self.deg[cell]):
            x = adj[k]
            if not cells[x]:
                out[m] = x
                m += 1
        return m

    def free_count(self, cell):
        adj = self.adj
        cells = self.cells
        base = 6 * cell
        m = 0
        for k in range(base, base + self.deg[cell]):
            if not cells[adj[k]]:
                m += 1
        return m

    def can_block(self, cell):
        return (self.status == PLAYING and 0 <= cell < self.n
                and cell != self.cat and not self.cells[cell])

    def can_move(self, cell):
        return (0 <= cell < self.n and not self.cells[cell]
                and self.is_adjacent(self.cat, cell))

    def update_status(self):
        """PLAYING, CAT_WON (cat on the border) or PLAYER_WON (cat has no free
        neighbour).  Call at the cat's turn or after its move."""
        if self.border[self.cat]:
            self.status = CAT_WON
        elif self.free_count(self.cat) == 0:
            self.status = PLAYER_WON
        else:
            self.status = PLAYING
        return self.status

    # Moves -----------------------------------------------------------------
    def block(self, cell):
        """Player's move.  Returns the status seen by the cat afterwards."""
        if not self.can_block(cell):
            raise ValueError("cannot block cell %d" % cell)
        self.cells[cell] = BLOCKED
        self.moves += 1
        if self.free_count(self.cat) == 0:
            self.status = PLAYER_WON
        return self.status

    def move_cat(self, cell):
        """Cat's move.  Returns the new status."""
        if self.status != PLAYING or not self.can_move(cell):
            raise ValueError("cat cannot move to cell %d" % cell)
        self.cat = cell
        if self.border[cell]:
            self.status = CAT_WON
        return self.status

    def row_col(self, cell):
        return cell // self.size, cell % self.size

    def render(self):
        """Text picture (host/debug): '.' free, '#' blocked, 'C' cat."""
        lines = []
        for r in range(self.size):
            row = []
            for c in range(self.size):
                cell = r * self.size + c
                row.append("C" if cell == self.cat else ("#" if self.cells[cell] else "."))
            lines.append((" " if r & 1 else "") + " ".join(row))
        return "\n".join(lines)


# Level files -----------------------------------------------------------------
# One line per row: "." free, "#" blocked, "C" the cat (on a free, non-border
# cell with a free neighbour); spaces are ignored (so render()'s picture, with
# odd rows indented, parses back), lines starting with ";" are comments.  The
# grid is square, 3..15 cells a side.  Stored as is in level packs
# (levelpack.py) and read by parse_level.

class LevelError(ValueError):
    pass


def parse_level(text):
    """(size, cells bytearray, cat) from a level's text; LevelError naming the
    line otherwise."""
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode()
    bad = first_bad(text)
    if bad:
        raise LevelError(describe(bad))
    rows = []
    number = 0
    for line in text.split("\n"):
        number += 1
        line = line.strip()
        if not line or line[0] == ";":
            continue
        row = line.replace(" ", "")
        if len(rows) >= MAX_SIZE:
            raise LevelError("line %d: more than %d rows" % (number, MAX_SIZE))
        for ch in row:
            if ch not in ".#C":
                raise LevelError("line %d: unexpected %r (use . # C)" % (number, ch))
        rows.append((number, row))
    if not rows:
        raise LevelError("the level is empty")
    size = len(rows)
    if size < 3:
        raise LevelError("the grid has %d rows; at least 3 are needed" % size)
    cells = bytearray(size * size)
    cat = -1
    for r in range(size):
        number, row = rows[r]
        if len(row) != size:
            raise LevelError("line %d: %d cells, expected %d (the grid is square)"
                             % (number, len(row), size))
        for c in range(size):
            ch = row[c]
            if ch == "#":
                cells[r * size + c] = BLOCKED
            elif ch == "C":
                if cat >= 0:
                    raise LevelError("line %d: a second cat" % number)
                cat = r * size + c
    if cat < 0:
        raise LevelError("no cat (C) on the grid")
    b = Board(size)
    b.load(cells, cat)
    if b.status == CAT_WON:
        raise LevelError("the cat starts on the border")
    if b.status == PLAYER_WON:
        raise LevelError("the cat starts trapped")
    return size, cells, cat


def level_text(board):
    """A level file body for the board's position (see parse_level)."""
    return board.render() + "\n"
