"""Klotski (华容道): layout parsing, moves and an optimal, memory-lean solver.

Board: 4 columns x 5 rows, cells numbered row-major 0..19.  Pieces: one 2x2
block ``B``, vertical 1x2 ``V``, horizontal 2x1 ``H``, 1x1 soldiers ``S``, and
exactly two empty cells ``.``.  Text format: five rows of four characters
joined by ``/`` (``VBBV/VBBV/VHHV/VSSV/S..S``); reading order decides which
cells pair up.  Goal: the block's top-left corner on cell 13 (column 1, row 3).

One step = one piece moved any distance along any path through empty cells
(around a corner too).  With two empty cells a piece goes at most two cells.

Solver (one object per piece set; the table serves every layout of the set):
``Ranker`` (layout <-> rank), ``Table`` (the distances and what they answer)
and ``Search`` (the search's state), driven by ``Solver``.
- perfect rank of layouts: a layout is its *geometry* (where B, the V's and the
  H's lie; the other cells are "monominoes") and the pair of monomino cells
  that are empty.  Geometries are ranked through a row-by-row DAG (node = cells
  of the row already covered from above + pieces left; the row index follows
  from those), 0..G-1; rank = geometry * C(m, 2) + pair, m = soldiers + 2.
- the table: per geometry, its pairs as bits of one 16-bit word (30-bit words,
  several per geometry, for piece sets with more soldiers) in two planes that
  hold 1 + distance % 3 (0: not reached).
- left-right mirror symmetry (the goal set is symmetric): only the copy whose
  geometry rank is not above its mirror's is stored and expanded; a geometry
  that is its own mirror image keeps both layouts.  ``Table.value()`` maps a
  layout to its stored copy.
- reverse BFS from every goal layout, layer by layer: the geometries with a
  frontier are visited in rank order (a bitmap with a summary), each decoded
  once per visit from the rows below the DAG prefix it shares with the last
  one (a direct offset -> slot table for the lower rows).  Soldier moves keep
  the geometry: their targets are collected as one bit mask and marked
  together.  Big-piece moves are found from per-geometry bit masks (cells a V
  or H can slide into, by direction; broadside moves into side-by-side
  empties) and re-rank only the 1-4 rows they touch.
- a first resumable walk over the DAG gives every geometry's mirror rank and
  seeds the goal layouts.
- modules: this one imports ``klotski_setup`` and ``klotski_loop`` (on CPython
  ``klotski_cpython`` instead: its own loop, the same table for a third of the work);
  none imports it back (what they share is ``klotski_common``).
- resumable: ``step(max_states)`` expands about that many layouts (a geometry
  visit is not split; decodes, marked layouts and the walk are charged too),
  so one call is bounded (step(40) stays under 50 ms on a Pico).  The setup
  (DAG build, tables: ~1 s on a Pico) can be sliced too: ``Solver(...,
  sliced=True)`` then ``setup()`` calls of ~1 M fuel (the table's own slice is
  ~2.4 M, flagged by ``heavy_next``).  The
  search's own arrays exist only while it runs; its row offset table (made
  in the constructor from the DAG build's key table) is dropped when it ends
  or when a cached table is loaded (``finish``).
- after the table is built, the best next move from a layout is a neighbour
  whose stored value is one less (mod 3); neighbours differ by at most 1.
"""

from array import array
from asciitext import first_bad
from klotski_common import _DIRS, _POW5, _clear, _zeros, load_kernel

import sys

try:
    from micropython import const
except ImportError:
    def const(value):
        return value


try:
    _kv = load_kernel("klotski_viper")   # the search loop as a viper kernel
except (ImportError, SyntaxError):  # no native emitter here (WebAssembly VMs, CircuitPython)
    _kv = None
# machine code only where the kernel compiles to it: elsewhere it would be the
# plain loop of ``Solver.step`` again (the tests still run it on CPython)
NATIVE_KERNEL = _kv is not None and sys.implementation.name == "micropython"
# the kernel's work units per unit of ``step``'s budget: machine code does a
# unit ~20x faster than the bytecode loop (virtual Pico: step(40) of the
# kernel 1.4 ms, of the loop ~40 ms); 8 keeps a slice at about half the
# loop's time, so a game tick that runs slices up to its deadline overshoots
# it by little
_KERNEL_UNITS = const(8)

_COLS = const(4)
_ROWS = const(5)
CELLS = const(20)
_GOAL_CELL = const(13)
_EMPTY = const(255)
# piece kinds at an anchor (top-left cell)
_K_S = const(1)
K_V = const(2)
K_H = const(3)
K_B = const(4)
# geometry tokens per cell (base 5 row words): 0 covered, 1 monomino, 2 V top,
# 3 H left, 4 B top-left
_KIND_LETTERS = b".SVHB"   # bytes: indexing a str would intern each letter (MicroPython)


# the most steps a table's walk to the goal takes: the longest optimal
# solution of any piece set is 138 steps (3V2H4S; every set's table built on
# CPython), so a longer walk is a damaged table's
MAX_STEPS = const(255)


class LayoutError(ValueError):
    pass


# a finished table whose values lead nowhere (Table.walk): its bytes are
# wrong under a valid checksum; the caller builds it again
class TableError(ValueError):
    pass


def parse(text):
    """Layout text -> bytearray(20) of piece letters per cell (ord).  Raises
    LayoutError with one clear line for a malformed layout."""
    if not isinstance(text, str):
        raise LayoutError("layout must be text like VBBV/VBBV/VHHV/VSSV/S..S")
    bad = first_bad(text)
    if bad:     # before strip()/upper(): CPython maps 'ß' to 'SS', MicroPython does not
        raise LayoutError("unknown cell %r (use B V H S .)" % bad[2])
    rows = text.strip().split("/")
    if len(rows) != _ROWS:
        raise LayoutError("layout needs 5 rows joined by '/', got %d" % len(rows))
    for r in range(_ROWS):
        if len(rows[r]) != _COLS:
            raise LayoutError("row %d must have 4 cells, got %d: %r" % (r + 1, len(rows[r]), rows[r]))
    flat = "".join(rows).upper()
    cells = bytearray(flat.encode())
    for b in cells:      # its bytes: MicroPython interns each character a str yields
        if b not in b".SVHB":
            raise LayoutError("unknown cell %r (use B V H S .)" % chr(b))
    if flat.count(".") != 2:
        raise LayoutError("need exactly two empty cells, got %d" % flat.count("."))
    if flat.count("B") != 4:
        raise LayoutError("need exactly one 2x2 block B (4 cells), got %d B cells" % flat.count("B"))
    return cells


def anchors(cells):
    """Pair cells in reading order.  Returns (own, kind): own[c] = anchor cell of
    the piece on c (_EMPTY for empty cells), kind[anchor] = K_*.  Raises
    LayoutError if a piece does not fit."""
    own = bytearray(b"\xff" * CELLS)
    kind = bytearray(CELLS)
    nb = 0
    for c in range(CELLS):
        ch = cells[c]
        if ch == 46 or own[c] != _EMPTY:  # '.'
            continue
        r = c // _COLS
        col = c % _COLS
        if ch == 83:  # S
            part = (c,)
            k = _K_S
        elif ch == 86:  # V
            if r == _ROWS - 1 or cells[c + 4] != 86 or own[c + 4] != _EMPTY:
                raise LayoutError("vertical piece at row %d col %d has no V below it" % (r + 1, col + 1))
            part = (c, c + 4)
            k = K_V
        elif ch == 72:  # H
            if col == _COLS - 1 or cells[c + 1] != 72 or own[c + 1] != _EMPTY:
                raise LayoutError("horizontal piece at row %d col %d has no H to its right" % (r + 1, col + 1))
            part = (c, c + 1)
            k = K_H
        else:  # B
            nb += 1
            if (col == _COLS - 1 or r == _ROWS - 1 or cells[c + 1] != 66 or cells[c + 4] != 66
                    or cells[c + 5] != 66):
                raise LayoutError("block B at row %d col %d is not a 2x2 square" % (r + 1, col + 1))
            part = (c, c + 1, c + 4, c + 5)
            k = K_B
        for x in part:
            own[x] = c
        kind[c] = k
    if nb != 1:
        raise LayoutError("need exactly one 2x2 block, got %d" % nb)
    return own, kind


def piece_set(cells):
    """(verticals, horizontals, soldiers) of a parsed layout."""
    own, kind = anchors(cells)
    nv = nh = ns = 0
    for c in range(CELLS):
        if own[c] == c:
            k = kind[c]
            if k == K_V:
                nv += 1
            elif k == K_H:
                nh += 1
            elif k == _K_S:
                ns += 1
    return nv, nh, ns


def to_text(cells):
    s = bytes(cells).decode()
    return "/".join(s[i:i + 4] for i in range(0, 20, 4))


def is_goal_cells(cells):
    return cells[_GOAL_CELL] == 66 and cells[_GOAL_CELL + 1] == 66 and cells[_GOAL_CELL + 5] == 66 \
        and cells[_GOAL_CELL - 1] != 66 and cells[_GOAL_CELL - 4] != 66


# ---------------------------------------------------------------- the board in play
# piece cells relative to the anchor (top-left cell)
_OFFS_S = (0,)
_OFFS_V = (0, 4)
_OFFS_H = (0, 1)
_OFFS_B = (0, 1, 4, 5)


def piece_offsets(ch):
    """The cells of a piece of letter ``ch`` (ord) relative to its anchor."""
    if ch == 66:    # B
        return _OFFS_B
    if ch == 86:    # V
        return _OFFS_V
    if ch == 72:    # H
        return _OFFS_H
    return _OFFS_S


def owners(cells, own):
    """own[c] = anchor (top-left cell) of the piece on c, _EMPTY if empty; pieces
    pair up in reading order (a layout of letters has one tiling).  Unlike
    ``anchors`` it fills a caller's buffer and checks nothing: for a layout
    that ``anchors`` accepted (the game's board after each move)."""
    for c in range(CELLS):
        own[c] = _EMPTY
    for c in range(CELLS):
        ch = cells[c]
        if ch == 46 or own[c] != _EMPTY:
            continue
        for o in piece_offsets(ch):
            if c + o < CELLS:
                own[c + o] = c


def can_shift(cells, own, a, d):
    """Can the piece anchored at a move one cell by d (-1, 1, -4, 4)?"""
    for o in piece_offsets(cells[a]):
        p = a + o
        q = p + d
        if q < 0 or q >= CELLS:
            return False
        if (d == 1 or d == -1) and q // 4 != p // 4:
            return False
        if cells[q] != 46 and own[q] != a:
            return False
    return True


def shift(cells, a, d):
    """Move the piece anchored at a one cell by d (``can_shift`` said yes)."""
    ch = cells[a]
    offs = piece_offsets(ch)
    for o in offs:
        cells[a + o] = 46
    for o in offs:
        cells[a + o + d] = ch


# ---------------------------------------------------------------- row patterns
def _set_tok(nw, c, delta):
    """Row words ``nw``: the token of cell c changes by delta.  A function,
    not a method: a method call first misses in the ranker's instance map,
    whose probe length depends on its layout (the virtual Pico's hint was
    4 % slower with 53 attributes in 59 slots than with 86 in 97)."""
    nw[c >> 2] += delta * _POW5[c & 3]


def _idx(pop, mm, c):
    """Index of monomino cell c among the monomino cells of mask mm (``pop``:
    the ranker's popcount table; a function for the reason of ``_set_tok``)."""
    if c < 10:
        return pop[mm & ((1 << c) - 1)]
    return pop[mm & 1023] + pop[(mm >> 10) & ((1 << (c - 10)) - 1)]


# Search.counters: what each item holds (klotski_viper uses the same numbers)
_SCAN = const(0)
_FOUND = const(1)
_REACHED = const(2)
_EXPANDED = const(3)
_DEPTH = const(4)
_WALK_ROW = const(5)


class Search:
    """The layered search's state: the one object that the plain loop
    (``klotski_loop.expand``, ``walk``) and the viper kernels
    (``klotski_viper.search16``, ``walk``, ``klotski_viper32.search32``) read
    and write.  ``Solver`` makes it when its setup is done and drops it in
    ``finish`` when the table is complete.  Its fields are declared where
    the setup fills it (``klotski_setup.Setup.fill``: there, not in a
    constructor here, so that code leaves with the setup and is not
    resident while the search runs): what it shares with the table and the
    ranker (read only), the tables the setup made for it alone, and its own
    arrays.  ``counters``: the scalars the loop and the kernels resume from
    and leave, in place (an array: attribute stores from viper would add
    ~600 B of machine code, resident on the device)."""

    def allocate(self):
        """Allocate the search's arrays when it starts, in calls of ~2 M fuel
        at most (the frontier is cleared 2048 items per call); they are
        dropped with the search (a table loaded from the cache never needs
        them).  Done when ``active`` is set."""
        U = self.units
        if self.mirror is None:
            self.mirror = array("H", range(U // self.words_per))  # every entry is set by the walk
        elif self.frontier is None:
            self.frontier = array("H" if self.word_bits == 16 else "I", range(U))
            self.cleared = 0
        else:
            n = self.cleared + 2048
            if n > U:
                n = U
            _clear(self.frontier, self.cleared, n)
            self.cleared = n
            if n == U:
                self.active = bytearray((U + 7) >> 3)
                self.summary = bytearray((len(self.active) + 7) >> 3)

    def walk_kernel(self, budget):
        """``walk`` run by the viper kernel (it fills the goal geometries'
        table and frontier words itself: a loop over ``active`` here, when
        the walk ended, made that slice ~6 ms longer than the ones before it
        on the virtual Pico, which a game tick's slice estimate missed)."""
        if NATIVE_KERNEL:
            budget = budget * _KERNEL_UNITS if budget < 1 << 26 else 1 << 30
        budget = _kv.walk(self, budget)
        if NATIVE_KERNEL:
            budget //= _KERNEL_UNITS
        return budget


class Ranker:
    """Layout <-> rank for one piece set (the module notes' perfect rank):
    geometry rank through the row DAG, pair rank, the decode of a rank and
    the layouts one step away.  ``klotski_setup`` fills its tables: the DAG
    (``entries``, ``node_base``, ``node_first``/``node_last``,
    ``node_count``, ``node_mask``, ``root``, ``geos``), the row words
    (``slot``, ``word_mask``, ``words``, ``mask_start``, ``word_mirror``),
    the pair rank (``pair_low``/``pair_high``, ``pair_of``), ``popcount``,
    ``mirror_below`` and the decode buffers: the decoded geometry
    (``decoded``) as its ``rows``, DAG ``path`` (``path_rank``,
    ``path_end``, ``path_monos``), ``own``/``kind`` per cell (monominoes as
    soldiers), ``mono_index``, ``mono_cell``; ``new_rows`` (a layout being
    ranked).  ``neighbors`` fills ``out_rank``/``out_from``/``out_to``
    (made by ``make_output``)."""

    def __init__(self, monos):
        self.monos = monos
        self.pairs = monos * (monos - 1) // 2

    def geometry_rank(self, nw):
        """Rank of the geometry whose row words are ``nw``."""
        lpi = self.slot
        ent = self.entries
        base = self.node_base
        e = ent[base[self.root] + lpi[nw[0]]]
        rk = e >> 10
        e = ent[base[e & 1023] + lpi[nw[1]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[2]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[3]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[4]]]
        return rk + (e >> 10)

    def decode(self, g):
        """Geometry g -> rows, DAG path (path, path_rank), own/kind (monominoes
        as soldiers), mono_index (monominoes before each cell), mono_cell.
        Rows whose DAG prefix still contains g (path_rank[r] <= g <
        path_end[r]) are kept; only the rows below are re-decoded."""
        ent = self.entries
        base = self.node_base
        words = self.words
        wstart = self.mask_start
        nodemask = self.node_mask
        ncnt = self.node_count
        nlo = self.node_first
        nhi = self.node_last
        rw = self.rows
        pn = self.path
        cum = self.path_rank
        chi = self.path_end
        mcnt = self.path_monos
        own = self.own
        kind = self.kind
        midx = self.mono_index
        mcell = self.mono_cell
        r = 1
        while r < 5 and cum[r] <= g < chi[r]:
            r += 1
        r -= 1
        r0 = r
        n = pn[r]
        x = g - cum[r]
        while r < 5:
            b0 = base[n]
            lo = b0 + nlo[n]
            hi = b0 + nhi[n]
            # largest slot with offset <= x
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if (ent[mid] >> 10) <= x:
                    lo = mid
                else:
                    hi = mid - 1
            e = ent[lo]
            o = e >> 10
            x -= o
            rw[r] = words[wstart[nodemask[n]] + lo - b0]
            n = e & 1023
            o += cum[r]
            r += 1
            cum[r] = o
            pn[r] = n
            if r < 5:
                chi[r] = o + ncnt[n]
        mi = mcnt[r0]
        c = r0 << 2
        for r in range(r0, 5):
            w = rw[r]
            for _ in range(4):
                t = w % 5
                w //= 5
                midx[c] = mi
                if t:
                    own[c] = c
                    kind[c] = t          # token == _K_S/K_V/K_H/K_B
                    if t == 1:
                        mcell[mi] = c
                        mi += 1
                    elif t == 2:
                        own[c + 4] = c
                    elif t == 3:
                        own[c + 1] = c
                    else:
                        own[c + 1] = c
                        own[c + 4] = c
                        own[c + 5] = c
                c += 1
            mcnt[r + 1] = mi
        self.decoded = g

    # ------------------------------------------------------------ layouts
    def rank_of(self, cells):
        """Rank of a parsed layout of this piece set."""
        own, kind = anchors(cells)
        nw = self.new_rows
        for r in range(5):
            nw[r] = 0
        mm = 0
        for c in range(CELLS):
            a = own[c]
            if a == _EMPTY:
                t = 1
            elif a == c:
                k = kind[c]
                t = 1 if k == _K_S else k
            else:
                t = 0
            if t == 1:
                mm |= 1 << c
            nw[c >> 2] += t * _POW5[c & 3]
        g = self.geometry_rank(nw)
        e1 = -1
        e2 = -1
        for c in range(CELLS):
            if own[c] == _EMPTY:
                if e1 < 0:
                    e1 = c
                else:
                    e2 = c
        i = _idx(self.popcount, mm, e1)
        j = _idx(self.popcount, mm, e2)
        return g * self.pairs + (j * (j - 1) >> 1) + i

    def cells_of(self, rank):
        """Layout letters (bytearray(20)) of a rank."""
        P = self.pairs
        g = rank // P
        p = rank - g * P
        if g != self.decoded:
            self.decode(g)
        out = bytearray(CELLS)
        own = self.own
        kind = self.kind
        for c in range(CELLS):
            out[c] = _KIND_LETTERS[kind[own[c]]]
        out[self.mono_cell[self.pair_low[p]]] = 46
        out[self.mono_cell[self.pair_high[p]]] = 46
        return out

    def is_goal(self, rank):
        g = rank // self.pairs
        if g != self.decoded:
            self.decode(g)
        return self.own[_GOAL_CELL] == _GOAL_CELL and self.kind[_GOAL_CELL] == K_B

    # ------------------------------------------------------------ neighbours
    def neighbors(self, rank):
        """Fill out_rank/out_from/out_to with the layouts one step away; return count.
        from/to are the moved piece's anchor (top-left) cells.  Every move
        fills one of the two empty cells: for each, the piece beside it in
        each direction moves in (a soldier, a slide along a long piece's
        length, or a broadside move of two cells at once).  Split by move kind
        for reading; that cost the worst hint along 横刀立马's solution 3.9 %
        on the virtual Pico (8.32 -> 8.64 ms of a 50 ms budget, measured
        2026-11-25): neighbors serves hints and paths, not the table build."""
        P = self.pairs
        g = rank // P
        p = rank - g * P
        if g != self.decoded:
            self.decode(g)
        if self.out_rank is None:
            self.make_output()
        e1 = self.mono_cell[self.pair_low[p]]
        e2 = self.mono_cell[self.pair_high[p]]
        own = self.own
        kind = self.kind
        nbr = self.step_cell
        gP = g * P
        mm = 0
        for q in range(self.monos):
            mm |= 1 << self.mono_cell[q]
        cnt = 0
        for which in range(2):
            if which == 0:
                e = e1
                other = e2
            else:
                e = e2
                other = e1
            for k in range(4):
                # piece on the opposite side of direction k moves into e
                x = nbr[e * 4 + (k ^ 1)]
                if x == _EMPTY or x == other:
                    continue
                a = own[x]
                t = kind[a]
                if t == _K_S:
                    cnt = self._soldier_moves(cnt, gP, a, e, other)
                elif (t == K_V) == (k >= 2) and t != K_B:
                    cnt = self._slide_moves(cnt, mm, a, t, k, e, other)
                elif e < other:           # broadside: generated once, from the lower empty cell
                    cnt = self._broadside_move(cnt, mm, a, t, _DIRS[k], e, other)
        return cnt

    def make_output(self):
        """The neighbour output (``out_rank``, ``out_from``, ``out_to``) and
        ``step_cell``, made when the table is complete or by the first
        ``neighbors`` call: the table build never needs them (~450 B less at
        its peak heap)."""
        self.out_rank = _zeros("i", 48)
        self.out_from = bytearray(48)
        self.out_to = bytearray(48)
        # the neighbour cell of e in direction k (0 left, 1 right, 2 up, 3 down), _EMPTY if off-board
        self.step_cell = bytearray(b"\xff" * 80)
        for c in range(CELLS):
            col = c % _COLS
            if col > 0:
                self.step_cell[c * 4] = c - 1
            if col < _COLS - 1:
                self.step_cell[c * 4 + 1] = c + 1
            if c >= _COLS:
                self.step_cell[c * 4 + 2] = c - 4
            if c < CELLS - _COLS:
                self.step_cell[c * 4 + 3] = c + 4

    def _record(self, cnt, nw, mm2, c1, c2, a, to):
        """Record the move of the piece at anchor ``a`` to ``to`` whose result
        has row words ``nw`` and empty cells c1, c2 (monomino mask mm2)."""
        self.out_rank[cnt] = (self.geometry_rank(nw) * self.pairs
                              + self.pair_of[_idx(self.popcount, mm2, c1) * self.monos + _idx(self.popcount, mm2, c2)])
        self.out_from[cnt] = a
        self.out_to[cnt] = to
        return cnt + 1

    def _soldier_moves(self, cnt, gP, a, e, other):
        """A soldier at ``a`` steps into e, and on into ``other`` when it
        touches e: the geometry stays, only the empty pair changes."""
        midx = self.mono_index
        nbr = self.step_cell
        pidx = self.pair_of
        i = midx[a] * self.monos
        self.out_rank[cnt] = gP + pidx[i + midx[other]]
        self.out_from[cnt] = a
        self.out_to[cnt] = e
        cnt += 1
        for k2 in range(4):
            if nbr[e * 4 + k2] == other:
                self.out_rank[cnt] = gP + pidx[i + midx[e]]
                self.out_from[cnt] = a
                self.out_to[cnt] = other
                cnt += 1
        return cnt

    def _slide_moves(self, cnt, mm, a, t, k, e, other):
        """A vertical (horizontal) piece at ``a`` slides along its length in
        direction k into e: one cell, and two when ``other`` is next in line."""
        nw = self.new_rows
        rw = self.rows
        d = _DIRS[k]
        if t == K_V:
            tok = 2
            far = a + 4  # second cell
        else:
            tok = 3
            far = a + 1
        # vacated cell for one step: the trailing cell
        vac = a if d > 0 else far
        for r in range(5):
            nw[r] = rw[r]
        # remove piece tokens: anchor tok -> covered stays; vacated -> monomino
        _set_tok(nw, a, -tok)
        _set_tok(nw, a + d, tok)
        _set_tok(nw, vac, 1)
        _set_tok(nw, e, -1)
        cnt = self._record(cnt, nw, (mm ^ (1 << vac)) ^ (1 << e), vac, other, a, a + d)
        if self.step_cell[e * 4 + k] == other:
            # two cells: both piece cells vacated
            for r in range(5):
                nw[r] = rw[r]
            _set_tok(nw, a, 1 - tok)
            _set_tok(nw, far, 1)
            _set_tok(nw, a + 2 * d, tok)
            _set_tok(nw, e, -1)
            _set_tok(nw, other, -1)
            cnt = self._record(cnt, nw, mm ^ (1 << a) ^ (1 << far) ^ (1 << e) ^ (1 << other),
                               a, far, a, a + 2 * d)
        return cnt

    def _broadside_move(self, cnt, mm, a, t, d, e, other):
        """The piece at ``a`` moves by d into both empty cells at once (its two
        leading cells are e and ``other``, e < other)."""
        if t == K_V:
            # horizontal move of a vertical piece: leading cells a+d, a+4+d
            if not (a + d == e and a + 4 + d == other):
                return cnt
            v1 = a
            v2 = a + 4
            tok = 2
        elif t == K_H:
            if not (a + d == e and a + 1 + d == other):
                return cnt
            v1 = a
            v2 = a + 1
            tok = 3
        else:
            tok = 4
            if d == 4:
                ok = e == a + 8 and other == a + 9
                v1 = a
                v2 = a + 1
            elif d == -4:
                ok = e == a - 4 and other == a - 3
                v1 = a + 4
                v2 = a + 5
            elif d == -1:
                ok = e == a - 1 and other == a + 3
                v1 = a + 1
                v2 = a + 5
            else:
                ok = e == a + 2 and other == a + 6
                v1 = a
                v2 = a + 4
            if not ok:
                return cnt
        nw = self.new_rows
        rw = self.rows
        for r in range(5):
            nw[r] = rw[r]
        _set_tok(nw, a, -tok)
        _set_tok(nw, a + d, tok)
        _set_tok(nw, v1, 1)
        _set_tok(nw, v2, 1)
        _set_tok(nw, e, -1)
        _set_tok(nw, other, -1)
        return self._record(cnt, nw, mm ^ (1 << v1) ^ (1 << v2) ^ (1 << e) ^ (1 << other),
                            v1, v2, a, a + d)


class Table:
    """The distance table of one piece set and what it answers (value, best
    move, distance, solution), through its ``ranker``.  ``klotski_setup``
    fills it: ``planes`` (two planes of ``units`` words: 1 + distance % 3
    per pair bit, 0 = not reached; ``words_per`` words of ``word_bits`` bits
    per geometry), ``pair_word``/``pair_bit`` (pair -> its word and bit).
    The search (``Search``) writes the planes; ``klotski_cache`` saves and
    loads them (as ``Solver.table``)."""

    def __init__(self, ranker):
        self.ranker = ranker

    def value(self, rank):
        """Stored distance mod 3 (3 = not reached).  Only one of a layout and
        its mirror image is stored: the one whose geometry rank is not above
        its mirror's.  The mirror's rank is found here, from the ranker's
        tables: a call more per value would cost every hint."""
        rk = self.ranker
        P = rk.pairs
        g = rank // P
        p = rank - g * P
        if g != rk.decoded:
            rk.decode(g)
        nw = rk.new_rows
        mwg = rk.word_mirror
        rw = rk.rows
        for r in range(5):
            w = rw[r]
            nw[r] = mwg[rk.mask_start[rk.word_mask[w]] + rk.slot[w]]
        gm = rk.geometry_rank(nw)
        if gm < g:
            mcell = rk.mono_cell
            pop = rk.popcount
            mm = 0
            for q in range(rk.monos):
                mm |= 1 << mcell[q]
            z = mm & rk.mirror_below[mcell[rk.pair_low[p]]]
            i = pop[z & 1023] + pop[z >> 10]
            z = mm & rk.mirror_below[mcell[rk.pair_high[p]]]
            j = pop[z & 1023] + pop[z >> 10]
            p = rk.pair_of[i * rk.monos + j]
            g = gm
        u = g * self.words_per + self.pair_word[p]
        bit = self.pair_bit[p]
        t = self.planes
        code = (1 if t[u] & bit else 0) | (2 if t[self.units + u] & bit else 0)
        return 3 if code == 0 else code - 1

    def best_move(self, rank):
        """(from_anchor, to_anchor, next_rank) of an optimal step, or None at
        the goal / when unsolvable.  Needs the finished table."""
        v = self.value(rank)
        if v == 3:
            return None
        want = (v + 2) % 3
        rk = self.ranker
        cnt = rk.neighbors(rank)
        # at a goal layout nothing is closer
        for q in range(cnt):
            y = rk.out_rank[q]
            if self.value(y) == want:
                return rk.out_from[q], rk.out_to[q], y
        return None

    def distance(self, rank):
        """Exact optimal step count from rank, None if unsolvable (``walk``)."""
        return self.walk(rank, None)

    def solution(self, rank):
        """[(from_anchor, to_anchor)] of an optimal solution, None if unsolvable."""
        moves = []
        return None if self.walk(rank, moves) is None else moves

    def walk(self, rank, moves):
        """Steps to the goal along ``best_move`` (appended to ``moves`` unless
        None), None if unsolvable; TableError past MAX_STEPS or at a dead end."""
        if self.value(rank) == 3:
            return None
        n = 0
        while not self.ranker.is_goal(rank):
            mv = self.best_move(rank) if n < MAX_STEPS else None
            if mv is None:
                raise TableError("damaged table")
            if moves is not None:
                moves.append((mv[0], mv[1]))
            rank = mv[2]
            n += 1
        return n


class Solver:
    """Distance table for one piece set (nv verticals, nh horizontals, ns
    soldiers; nv + nh + ns/2 == 7): a ``Ranker`` (``ranker``: layout <->
    rank), a ``Table`` (``distances``: the table and its answers) and, while
    the table is built, a ``Search`` (``search``), which this class drives:
    ``setup``, ``step``, ``finish``, ``build``.  The layout calls are the
    ranker's (``rank_of``, ``cells_of``, ``is_goal``) and the table's
    (``value``, ``best_move``, ``distance``, ``solution``); ``table`` is the
    table's array (``table_nbytes`` bytes: what ``klotski_cache`` saves and
    loads)."""

    def __init__(self, nv, nh, ns, sliced=False, kernel=None, search=True):
        """``sliced``: leave the setup (DAG build and tables, ~1 s on a Pico) to
        ``setup()`` calls, so a caller can keep its UI alive; else it runs here.
        ``kernel``: run the search in ``klotski_viper`` (``klotski_viper32``
        for 30-bit words; None: where it is machine code, ``NATIVE_KERNEL``);
        tables of several words per geometry (8 soldiers or more) keep the
        loop of ``step``.  ``search=False``: a solver that never searches,
        whose table ``klotski_cache.attach`` reads from its file (where the
        heap cannot hold a build): no table array, no search code or tables."""
        if nv < 0 or nh < 0 or ns < 0 or 2 * (nv + nh) + ns != 14:
            raise LayoutError("piece set must fill 18 cells: 2*(V+H)+S == 14")
        self.nv = nv                      # the piece set
        self.nh = nh
        self.ns = ns
        rk = self.ranker = Ranker(ns + 2)          # layout <-> rank
        tab = self.distances = Table(rk)           # the table and what it answers
        self.pairs = rk.pairs             # empty-cell pairs per geometry
        # the layout calls callers make on a solver, bound to the part that
        # answers them (a method of its own each would be ~70 B more of
        # resident code on the device, where the table build's heap is tight)
        self.rank_of = rk.rank_of
        self.cells_of = rk.cells_of
        self.is_goal = rk.is_goal
        self.value = tab.value
        self.best_move = tab.best_move
        self.distance = tab.distance
        self.solution = tab.solution
        self.size = 0                     # layouts of the piece set (once set up)
        self.table = None                 # the table's array once the setup made it
        self.table_nbytes = 0             # its bytes (what klotski_cache saves)
        self.done = False                 # the table is complete
        self.expanded = 0                 # layouts expanded (mirror images are not)
        self.reached = 0                  # layouts with a distance so far (progress: reached / size)
        self.heavy_next = False           # the setup's next slice is a long one
        if kernel is None:
            kernel = NATIVE_KERNEL and search
        if kernel and _kv is None:
            raise RuntimeError("klotski_viper is not importable here")
        # the search's code: a viper kernel, else the plain loop's module
        # (klotski_loop; CPython's own, klotski_cpython, for a whole build
        # where it is not a MicroPython: names already interned, no new qstr
        # on a device; a sliced solver, the scene's, runs klotski_loop on
        # CPython too, so the simulator's frames, its progress bar and the
        # tick its hints are ready, are the device's and the web page's);
        # neither yet for one 30-bit word per geometry (the setup loads
        # search32's module in a slice of its own, or the loop)
        self._kernel = None
        self._loop = None
        if kernel and self.pairs <= 16:   # one 16-bit table word per geometry
            self._kernel = _kv.search16
        elif search and (not kernel or self.pairs > 30):
            self._loop = __import__("klotski_loop" if sliced or sys.implementation.name in (
                "micropython", "circuitpython") else "klotski_cpython")
        self.search = None                # the search's state while it runs (``Search``)
        self.depth = 0                    # the search's layer
        mod = sys.modules.get("klotski_setup")
        if mod is None:                   # dropped after an earlier setup
            mod = __import__("klotski_setup")
        self._setup = mod.Setup(rk, tab, nv, nh, search and self._kernel is None and self._loop is None,
                                search)
        if not sliced:
            while not self.setup():
                pass

    def setup(self):
        """One slice of the setup (~1 M fuel, ~10 ms on a Pico); True once the
        solver is ready (``step`` and the layout methods need that).  The one
        slice that makes the table is larger (~2.4 M fuel for the classic
        set, ~4.1 M for 30-bit words): ``heavy_next`` is True before it, so a
        caller can give it a tick of its own."""
        job = self._setup
        if job is None:
            return True
        if job is False:
            raise RuntimeError("this solver's setup failed (MemoryError?): make a new one")
        self._setup = False               # stays so if the slice raises
        done = job.step()
        self.heavy_next = job.heavy_next
        if not done:
            self._setup = job
            return False
        self._init_search(job)
        if NATIVE_KERNEL or not job.search:
            # on a device (firmware as .mpy) the setup's code need not stay
            # resident during the search; the WebAssembly VMs would compile
            # its source again for the next solver, so it stays there
            sys.modules.pop("klotski_setup", None)
        return True

    def _init_search(self, job):
        """The setup ``job`` is done: the table's array, the search's code
        (for 30-bit words, what its last slices loaded) and its state."""
        self.size = self.ranker.geos * self.pairs
        self.table = self.distances.planes
        self.table_nbytes = job.table_nbytes
        if job.load_kernel:
            self._kernel = job.kernel
            self._loop = job.loop
        if job.search:
            self.search = job.fill(Search())
        self._setup = None

    def step(self, max_states=2000):
        """Expand up to about max_states layouts of the reverse BFS.  Returns
        True when the table is complete.

        The first calls finish a sliced solver's setup, then allocate the
        search's arrays and run the walk (mirror ranks, goal seeds).  Then
        layer by layer (see the module notes) a geometry visit expands the
        frontier pairs of one table word.  Work is charged in units (a layout
        64, a decode 64, a marked layout 16, a walk slot 2-12) so one call
        stays bounded.  The search (``Search``) runs in the viper kernel
        where there is one (``_kernel``), else in plain Python."""
        if self.done:
            return True
        if self._setup is not None:
            self.setup()                  # a sliced solver is set up first
            return False
        search = self.search
        budget = max_states << 6 if max_states < 1 << 24 else 1 << 30
        if search.active is None:
            search.allocate()             # calls of their own
            return False
        counters = search.counters
        if counters[_WALK_ROW] >= 0:
            if self._kernel is None:
                budget = self._loop.walk(search, budget)
            else:
                budget = search.walk_kernel(budget)
            self.reached = counters[_REACHED]
            if counters[_WALK_ROW] >= 0:
                return False
        if self._kernel is None:
            done = self._loop.expand(search, budget)
        else:
            if NATIVE_KERNEL:
                budget = budget * _KERNEL_UNITS if budget < 1 << 26 else 1 << 30
            done = self._kernel(search, budget)
        self.reached = counters[_REACHED]
        self.expanded = counters[_EXPANDED]
        self.depth = counters[_DEPTH]
        if done:
            self.finish()
            return True
        return False

    def finish(self):
        """The table is complete (the search ended, or klotski_cache filled
        it): drop what only the search uses (~18 KB, and the 4.5 KB row
        offset table of the classic set)."""
        self.done = True
        self.search = None
        if self.ranker.out_rank is None:
            self.ranker.make_output()

    def build(self):
        while not self.step(1 << 26):
            pass


def solver_for(text):
    """(Solver, rank) for a layout text; raises LayoutError."""
    cells = parse(text)
    nv, nh, ns = piece_set(cells)
    s = Solver(nv, nh, ns)
    return s, s.rank_of(cells)


def solve(text):
    """Optimal (steps, moves) for a layout text, (None, None) if unsolvable."""
    s, r = solver_for(text)
    s.build()
    moves = s.solution(r)
    if moves is None:
        return None, None
    return len(moves), moves


# The setup's module and the plain loop's, loaded with this one (neither
# imports it: what they share is klotski_common); Solver.__init__ imports the
# setup again where a finished setup dropped it, and the loop where a search
# needs it.
__import__("klotski_setup")
# the search runs in the plain loop: loaded with this module, but on CircuitPython,
# which builds no table (its solvers read theirs from flash: klotski_game.BUILDS);
# CPython's own loop (klotski_cpython) is imported by the first whole build
if not NATIVE_KERNEL and sys.implementation.name != "circuitpython":
    __import__("klotski_loop")
