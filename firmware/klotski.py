"""Klotski (华容道): layout parsing, moves and an optimal, memory-lean solver.

Board: 4 columns x 5 rows, cells numbered row-major 0..19.  Pieces: one 2x2
block ``B``, vertical 1x2 ``V``, horizontal 2x1 ``H``, 1x1 soldiers ``S``, and
exactly two empty cells ``.``.  Text format: five rows of four characters
joined by ``/`` (``VBBV/VBBV/VHHV/VSSV/S..S``); reading order decides which
cells pair up.  Goal: the block's top-left corner on cell 13 (column 1, row 3).

One step = one piece moved any distance along any path through empty cells
(around a corner too).  With two empty cells a piece goes at most two cells.

Solver (one object per piece set; the table serves every layout of the set):
- perfect rank of layouts: a layout is its *geometry* (where B, the V's and the
  H's lie; the other cells are "monominoes") and the pair of monomino cells
  that are empty.  Geometries are ranked through a row-by-row DAG (node = cells
  of the row already covered from above + pieces left; the row index follows
  from those), 0..G-1; rank = geometry * C(m, 2) + pair, m = soldiers + 2.
- 2 bits per layout in a bytearray: distance to the goal mod 3, 3 = unseen.
- reverse BFS from every goal layout, layer by layer; the frontier is one
  bitmap (visited and not yet expanded) scanned in rank order, so the
  geometry decode is shared by the layouts of one geometry.
- resumable: ``step(max_states)`` expands at most that many layouts.
- after the table is built, the best next move from a layout is a neighbour
  whose stored value is one less (mod 3); neighbours differ by at most 1.
"""

from array import array

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

COLS = const(4)
ROWS = const(5)
CELLS = const(20)
GOAL_CELL = const(13)
EMPTY = const(255)
# piece kinds at an anchor (top-left cell)
K_S = const(1)
K_V = const(2)
K_H = const(3)
K_B = const(4)
# geometry tokens per cell (base 5 row words): 0 covered, 1 monomino, 2 V top,
# 3 H left, 4 B top-left
KIND_CHARS = ".SVHB"


class LayoutError(ValueError):
    pass


def parse(text):
    """Layout text -> bytearray(20) of piece letters per cell (ord).  Raises
    LayoutError with one clear line for a malformed layout."""
    if not isinstance(text, str):
        raise LayoutError("layout must be text like VBBV/VBBV/VHHV/VSSV/S..S")
    rows = text.strip().split("/")
    if len(rows) != ROWS:
        raise LayoutError("layout needs 5 rows joined by '/', got %d" % len(rows))
    for r in range(ROWS):
        if len(rows[r]) != COLS:
            raise LayoutError("row %d must have 4 cells, got %d: %r" % (r + 1, len(rows[r]), rows[r]))
    flat = "".join(rows).upper()
    for ch in flat:
        if ch not in ".SVHB":
            raise LayoutError("unknown cell %r (use B V H S .)" % ch)
    if flat.count(".") != 2:
        raise LayoutError("need exactly two empty cells, got %d" % flat.count("."))
    if flat.count("B") != 4:
        raise LayoutError("need exactly one 2x2 block B (4 cells), got %d B cells" % flat.count("B"))
    cells = bytearray(flat.encode())
    return cells


def anchors(cells):
    """Pair cells in reading order.  Returns (own, kind): own[c] = anchor cell of
    the piece on c (EMPTY for empty cells), kind[anchor] = K_*.  Raises
    LayoutError if a piece does not fit."""
    own = bytearray(b"\xff" * CELLS)
    kind = bytearray(CELLS)
    nb = 0
    for c in range(CELLS):
        ch = cells[c]
        if ch == 46 or own[c] != EMPTY:  # '.'
            continue
        r = c // COLS
        col = c % COLS
        if ch == 83:  # S
            part = (c,)
            k = K_S
        elif ch == 86:  # V
            if r == ROWS - 1 or cells[c + 4] != 86 or own[c + 4] != EMPTY:
                raise LayoutError("vertical piece at row %d col %d has no V below it" % (r + 1, col + 1))
            part = (c, c + 4)
            k = K_V
        elif ch == 72:  # H
            if col == COLS - 1 or cells[c + 1] != 72 or own[c + 1] != EMPTY:
                raise LayoutError("horizontal piece at row %d col %d has no H to its right" % (r + 1, col + 1))
            part = (c, c + 1)
            k = K_H
        else:  # B
            nb += 1
            if (col == COLS - 1 or r == ROWS - 1 or cells[c + 1] != 66 or cells[c + 4] != 66
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
            elif k == K_S:
                ns += 1
    return nv, nh, ns


def to_text(cells):
    s = bytes(cells).decode()
    return "/".join(s[i:i + 4] for i in range(0, 20, 4))


def is_goal_cells(cells):
    return cells[GOAL_CELL] == 66 and cells[GOAL_CELL + 1] == 66 and cells[GOAL_CELL + 5] == 66 \
        and cells[GOAL_CELL - 1] != 66 and cells[GOAL_CELL - 4] != 66


# ---------------------------------------------------------------- row patterns
_POW5 = (1, 5, 25, 125)


def _word_info(w):
    """Geometry row word -> packed mask_in | mask_out<<4 | b<<8 | v<<9 | h<<12 | m<<15,
    or -1 if the word is not a valid row."""
    mask_in = 0
    mask_out = 0
    b = v = h = m = 0
    c = 0
    x = w
    while c < 4:
        t = x % 5
        if t == 0:
            mask_in |= 1 << c
            c += 1
            x //= 5
            continue
        if t == 1:
            m += 1
        elif t == 2:
            v += 1
            mask_out |= 1 << c
        else:  # H or B: two cells
            if c == 3 or (x // 5) % 5 != 0:
                return -1
            if t == 3:
                h += 1
            else:
                b += 1
                mask_out |= 3 << c
            c += 2
            x //= 25
            continue
        c += 1
        x //= 5
    return mask_in | (mask_out << 4) | (b << 8) | (v << 9) | (h << 12) | (m << 15)


class Solver:
    """Distance table for one piece set (nv verticals, nh horizontals, ns
    soldiers; nv + nh + ns/2 == 7)."""

    def __init__(self, nv, nh, ns):
        if nv < 0 or nh < 0 or ns < 0 or 2 * (nv + nh) + ns != 14:
            raise LayoutError("piece set must fill 18 cells: 2*(V+H)+S == 14")
        self.nv = nv
        self.nh = nh
        self.ns = ns
        m = ns + 2
        self.m = m
        self.pairs = m * (m - 1) // 2
        self._build_dag()
        P = self.pairs
        n = self.geos * P
        self.size = n
        self.table = bytearray((n + 3) >> 2)   # 2 bits: 0 unseen, 1 + distance % 3
        self.front = bytearray((n + 7) >> 3)   # 1 bit: reached, not yet expanded
        # pair rank: i < j  ->  j*(j-1)/2 + i ;  unrank tables
        self.pi = bytearray(P)
        self.pj = bytearray(P)
        k = 0
        for j in range(m):
            for i in range(j):
                self.pi[k] = i
                self.pj[k] = j
                k += 1
        self.pop = bytearray(1024)
        for x in range(1, 1024):
            self.pop[x] = self.pop[x >> 1] + (x & 1)
        # decoded geometry scratch
        self.rw = array("H", bytes(10))
        self.own = bytearray(CELLS)
        self.kind = bytearray(CELLS)
        self.midx = bytearray(CELLS)
        self.mcell = bytearray(CELLS)
        self.mm = 0
        self.cur_geo = -1
        self.nw = array("H", bytes(10))
        # neighbour output
        self.out_rank = array("i", bytes(4 * 48))
        self.out_from = bytearray(48)
        self.out_to = bytearray(48)
        # neighbour cell of e in direction k (0 left, 1 right, 2 up, 3 down), EMPTY if off-board
        self.nbr = bytearray(b"\xff" * 80)
        for c in range(CELLS):
            col = c % COLS
            if col > 0:
                self.nbr[c * 4] = c - 1
            if col < COLS - 1:
                self.nbr[c * 4 + 1] = c + 1
            if c >= COLS:
                self.nbr[c * 4 + 2] = c - 4
            if c < CELLS - COLS:
                self.nbr[c * 4 + 3] = c + 4
        self.dirs = array("b", (-1, 1, -4, 4))
        self.lsb = bytearray(256)
        for x in range(1, 256):
            b = 0
            while not (x >> b) & 1:
                b += 1
            self.lsb[x] = b
        self.depth = 0
        self.done = False
        self.expanded = 0
        self._scan = 0
        self._layer_work = 0
        self._seeded = False

    # ------------------------------------------------------------ DAG build
    def _build_dag(self):
        nv, nh, m = self.nv, self.nh, self.m
        V1, H1, M1 = nv + 1, nh + 1, m + 1
        R = 2 * V1 * H1 * M1
        self._R = (V1, H1, M1)
        # word tables
        lpi = bytearray(b"\xff" * 625)
        pmask = bytearray(b"\xff" * 625)
        kcount = bytearray(16)
        winfo = array("i", bytes(4 * 625))
        for w in range(625):
            inf = _word_info(w)
            winfo[w] = inf
            if inf < 0:
                continue
            mi = inf & 15
            pmask[w] = mi
            lpi[w] = kcount[mi]
            kcount[mi] += 1
        self.lpi = lpi
        self.pmask = pmask
        # words grouped per mask in slot order
        words = array("H", bytes(2 * 625))
        wstart = array("H", bytes(2 * 17))
        acc = 0
        for mi in range(16):
            wstart[mi] = acc
            acc += kcount[mi]
        wstart[16] = acc
        fill = bytearray(16)
        for w in range(625):
            mi = pmask[w]
            if mi != 255:
                words[wstart[mi] + fill[mi]] = w
                fill[mi] += 1
        self.words = words
        self.wstart = wstart
        # key(mask, b, v, h, m) ; rows follow from the cell count
        cnt = array("H", bytes(2 * 16 * R))

        def key(mask, b, v, h, mm):
            return (((mask * 2 + b) * V1 + v) * H1 + h) * M1 + mm

        # process keys by remaining cell count ascending
        cnt[key(0, 0, 0, 0, 0)] = 1
        for cells_left in range(21):
            for mask in range(16):
                pc = (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)
                # rows left: cells of the pieces still to place plus the covered ones
                if (cells_left + pc) % 4 != 0:
                    continue
                rows_left = (cells_left + pc) // 4
                if rows_left < 1 or rows_left > 5:
                    continue
                for b in range(2):
                    for v in range(V1):
                        for h in range(H1):
                            mm = cells_left - 4 * b - 2 * v - 2 * h
                            if mm < 0 or mm > m:
                                continue
                            tot = 0
                            for s in range(wstart[mask], wstart[mask + 1]):
                                inf = winfo[words[s]]
                                ub = (inf >> 8) & 1
                                uv = (inf >> 9) & 7
                                uh = (inf >> 12) & 7
                                um = inf >> 15
                                if ub > b or uv > v or uh > h or um > mm:
                                    continue
                                om = (inf >> 4) & 15
                                if rows_left == 1 and om:
                                    continue
                                tot += cnt[key(om, b - ub, v - uv, h - uh, mm - um)]
                            if tot > 65535:
                                raise MemoryError("piece set too large")
                            cnt[key(mask, b, v, h, mm)] = tot
        root = key(0, 1, nv, nh, m)
        self.geos = cnt[root]
        # node ids by forward walk from the root
        nid = array("H", bytes(2 * 16 * R))  # 0 = none, else id+1
        order = array("H", bytes(2 * 1024))
        nid[root] = 1
        order[0] = root
        nn = 1
        qi = 0
        total_slots = 0
        while qi < nn:
            kk = order[qi]
            qi += 1
            rest = kk
            mm = rest % M1
            rest //= M1
            h = rest % H1
            rest //= H1
            v = rest % V1
            rest //= V1
            b = rest % 2
            mask = rest // 2
            total_slots += wstart[mask + 1] - wstart[mask]
            for s in range(wstart[mask], wstart[mask + 1]):
                inf = winfo[words[s]]
                ub = (inf >> 8) & 1
                uv = (inf >> 9) & 7
                uh = (inf >> 12) & 7
                um = inf >> 15
                if ub > b or uv > v or uh > h or um > mm:
                    continue
                k2 = key((inf >> 4) & 15, b - ub, v - uv, h - uh, mm - um)
                if cnt[k2] and not nid[k2] and k2 != 0:
                    if nn >= 1022:
                        raise MemoryError("too many DAG nodes")
                    nn += 1
                    nid[k2] = nn
                    order[nn - 1] = k2
        if nn > 1022:
            raise MemoryError("too many DAG nodes")
        # entries: (offset << 10) | next node (1023 = terminal / invalid)
        base = array("H", bytes(2 * (nn + 1)))
        ent = array("i", bytes(4 * total_slots))
        pos = 0
        for i in range(nn):
            kk = order[i]
            rest = kk
            mm = rest % M1
            rest //= M1
            h = rest % H1
            rest //= H1
            v = rest % V1
            rest //= V1
            b = rest % 2
            mask = rest // 2
            base[i] = pos
            off = 0
            for s in range(wstart[mask], wstart[mask + 1]):
                inf = winfo[words[s]]
                ub = (inf >> 8) & 1
                uv = (inf >> 9) & 7
                uh = (inf >> 12) & 7
                um = inf >> 15
                nxt = 1023
                width = 0
                if not (ub > b or uv > v or uh > h or um > mm):
                    k2 = key((inf >> 4) & 15, b - ub, v - uv, h - uh, mm - um)
                    width = cnt[k2]
                    if width:
                        nxt = 1022 if k2 == 0 else nid[k2] - 1
                ent[pos] = (off << 10) | nxt
                off += width
                pos += 1
        base[nn] = pos
        self.base = base
        self.ent = ent
        self.nodes = nn
        self.nodemask = bytearray(nn)
        for i in range(nn):
            self.nodemask[i] = order[i] // (M1 * H1 * V1 * 2)

    # ------------------------------------------------------------ geometry
    def _geo_rank(self, nw):
        lpi = self.lpi
        ent = self.ent
        base = self.base
        e = ent[base[0] + lpi[nw[0]]]
        rk = e >> 10
        e = ent[base[e & 1023] + lpi[nw[1]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[2]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[3]]]
        rk += e >> 10
        e = ent[base[e & 1023] + lpi[nw[4]]]
        return rk + (e >> 10)

    def _decode(self, g):
        """Geometry g -> self.rw, own/kind (monominoes as soldiers), midx, mcell, mm."""
        ent = self.ent
        base = self.base
        words = self.words
        wstart = self.wstart
        nodemask = self.nodemask
        rw = self.rw
        own = self.own
        kind = self.kind
        n = 0
        x = g
        for r in range(5):
            lo = base[n]
            hi = base[n + 1] - 1
            # largest slot with offset <= x
            while lo < hi:
                mid = (lo + hi + 1) >> 1
                if (ent[mid] >> 10) <= x:
                    lo = mid
                else:
                    hi = mid - 1
            e = ent[lo]
            x -= e >> 10
            rw[r] = words[wstart[nodemask[n]] + lo - base[n]]
            n = e & 1023
        mi = 0
        mm = 0
        for r in range(5):
            w = rw[r]
            c = r * 4
            for col in range(4):
                t = w % 5
                w //= 5
                if t == 1:
                    own[c] = c
                    kind[c] = K_S
                    self.midx[c] = mi
                    self.mcell[mi] = c
                    mi += 1
                    mm |= 1 << c
                elif t == 2:
                    own[c] = c
                    own[c + 4] = c
                    kind[c] = K_V
                elif t == 3:
                    own[c] = c
                    own[c + 1] = c
                    kind[c] = K_H
                elif t == 4:
                    own[c] = c
                    own[c + 1] = c
                    own[c + 4] = c
                    own[c + 5] = c
                    kind[c] = K_B
                c += 1
        self.mm = mm
        self.cur_geo = g

    def _idx(self, mm, c):
        """Index of monomino cell c among the monomino cells of mask mm."""
        pop = self.pop
        if c < 10:
            return pop[mm & ((1 << c) - 1)]
        return pop[mm & 1023] + pop[(mm >> 10) & ((1 << (c - 10)) - 1)]

    def _set_tok(self, nw, c, delta):
        nw[c >> 2] += delta * _POW5[c & 3]

    # ------------------------------------------------------------ neighbours
    def neighbors(self, rank):
        """Fill out_rank/out_from/out_to with the layouts one step away; return count.
        from/to are the moved piece's anchor (top-left) cells."""
        P = self.pairs
        g = rank // P
        p = rank - g * P
        if g != self.cur_geo:
            self._decode(g)
        e1 = self.mcell[self.pi[p]]
        e2 = self.mcell[self.pj[p]]
        own = self.own
        kind = self.kind
        midx = self.midx
        nbr = self.nbr
        rw = self.rw
        nw = self.nw
        out_rank = self.out_rank
        out_from = self.out_from
        out_to = self.out_to
        gP = g * P
        mm = self.mm
        dirs = self.dirs
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
                if x == EMPTY or x == other:
                    continue
                a = own[x]
                t = kind[a]
                if t == K_S:
                    i = midx[a]
                    j = midx[other]
                    if i < j:
                        out_rank[cnt] = gP + (j * (j - 1) >> 1) + i
                    else:
                        out_rank[cnt] = gP + (i * (i - 1) >> 1) + j
                    out_from[cnt] = a
                    out_to[cnt] = e
                    cnt += 1
                    # second cell: any direction from e into the other empty
                    for k2 in range(4):
                        if nbr[e * 4 + k2] == other:
                            i = midx[a]
                            j = midx[e]
                            if i < j:
                                out_rank[cnt] = gP + (j * (j - 1) >> 1) + i
                            else:
                                out_rank[cnt] = gP + (i * (i - 1) >> 1) + j
                            out_from[cnt] = a
                            out_to[cnt] = other
                            cnt += 1
                    continue
                d = dirs[k]
                vertical = k >= 2
                if (t == K_V and vertical) or (t == K_H and not vertical):
                    # straight along the long axis: one or two cells
                    if t == K_V:
                        tok = 2
                        far = a + 4  # second cell
                    else:
                        tok = 3
                        far = a + 1
                    # vacated cell for one step: the trailing cell
                    if d > 0:
                        vac = a
                    else:
                        vac = far
                    nw[0] = rw[0]
                    nw[1] = rw[1]
                    nw[2] = rw[2]
                    nw[3] = rw[3]
                    nw[4] = rw[4]
                    # remove piece tokens: anchor tok -> covered stays; vacated -> monomino
                    self._set_tok(nw, a, -tok)
                    self._set_tok(nw, a + d, tok)
                    self._set_tok(nw, vac, 1)
                    self._set_tok(nw, e, -1)
                    mm2 = (mm ^ (1 << vac)) ^ (1 << e)
                    gr = self._geo_rank(nw)
                    i = self._idx(mm2, vac)
                    j = self._idx(mm2, other)
                    if i > j:
                        i, j = j, i
                    out_rank[cnt] = gr * P + (j * (j - 1) >> 1) + i
                    out_from[cnt] = a
                    out_to[cnt] = a + d
                    cnt += 1
                    if nbr[e * 4 + k] == other:
                        # two cells: both piece cells vacated
                        nw[0] = rw[0]
                        nw[1] = rw[1]
                        nw[2] = rw[2]
                        nw[3] = rw[3]
                        nw[4] = rw[4]
                        self._set_tok(nw, a, 1 - tok)
                        self._set_tok(nw, far, 1)
                        self._set_tok(nw, a + 2 * d, tok)
                        self._set_tok(nw, e, -1)
                        self._set_tok(nw, other, -1)
                        mm2 = mm ^ (1 << a) ^ (1 << far) ^ (1 << e) ^ (1 << other)
                        gr = self._geo_rank(nw)
                        i = self._idx(mm2, a)
                        j = self._idx(mm2, far)
                        if i > j:
                            i, j = j, i
                        out_rank[cnt] = gr * P + (j * (j - 1) >> 1) + i
                        out_from[cnt] = a
                        out_to[cnt] = a + 2 * d
                        cnt += 1
                    continue
                # broadside move: two leading cells must be e and other; generate once (from e < other)
                if e > other:
                    continue
                if t == K_V:
                    # horizontal move of a vertical piece: leading cells a+d, a+4+d
                    if not ((a + d == e and a + 4 + d == other)):
                        continue
                    v1 = a
                    v2 = a + 4
                    tok = 2
                elif t == K_H:
                    if not (a + d == e and a + 1 + d == other):
                        continue
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
                        continue
                nw[0] = rw[0]
                nw[1] = rw[1]
                nw[2] = rw[2]
                nw[3] = rw[3]
                nw[4] = rw[4]
                self._set_tok(nw, a, -tok)
                self._set_tok(nw, a + d, tok)
                self._set_tok(nw, v1, 1)
                self._set_tok(nw, v2, 1)
                self._set_tok(nw, e, -1)
                self._set_tok(nw, other, -1)
                mm2 = mm ^ (1 << v1) ^ (1 << v2) ^ (1 << e) ^ (1 << other)
                gr = self._geo_rank(nw)
                i = self._idx(mm2, v1)
                j = self._idx(mm2, v2)
                if i > j:
                    i, j = j, i
                out_rank[cnt] = gr * P + (j * (j - 1) >> 1) + i
                out_from[cnt] = a
                out_to[cnt] = a + d
                cnt += 1
        return cnt

    # ------------------------------------------------------------ table access
    def value(self, rank):
        """Stored distance mod 3 (3 = not reached)."""
        raw = (self.table[rank >> 2] >> ((rank & 3) << 1)) & 3
        return 3 if raw == 0 else raw - 1

    def _seed_goals(self):
        """Mark every layout with the block on GOAL_CELL at distance 0."""
        ent = self.ent
        base = self.base
        words = self.words
        wstart = self.wstart
        nodemask = self.nodemask
        table = self.table
        front = self.front
        P = self.pairs
        node = array("H", bytes(12))
        slot = array("H", bytes(12))
        off = array("i", bytes(24))
        r = 0
        node[0] = 0
        slot[0] = base[0]
        off[0] = 0
        lo = 0x7FFF
        hi = 0
        while r >= 0:
            n = node[r]
            s = slot[r]
            if s >= base[n + 1]:
                r -= 1
                if r >= 0:
                    slot[r] += 1
                continue
            e = ent[s]
            nxt = e & 1023
            w = words[wstart[nodemask[n]] + s - base[n]]
            ok = nxt != 1023
            if ok:
                if r < 3:
                    ok = (w % 5 != 4 and w // 5 % 5 != 4 and w // 25 % 5 != 4 and w // 125 != 4)
                elif r == 3:
                    ok = w // 5 % 5 == 4
            if not ok:
                slot[r] = s + 1
                continue
            o = off[r] + (e >> 10)
            if r == 4:
                g0 = o * P
                for q in range(P):
                    x = g0 + q
                    table[x >> 2] |= 1 << ((x & 3) << 1)
                    front[x >> 3] |= 1 << (x & 7)
                if (g0 >> 3) < lo:
                    lo = g0 >> 3
                if ((g0 + P) >> 3) > hi:
                    hi = (g0 + P) >> 3
                slot[r] = s + 1
                continue
            r += 1
            node[r] = nxt
            slot[r] = base[nxt]
            off[r] = o
        self._lo = lo
        self._hi = hi
        self._nlo = 0x7FFF
        self._nhi = 0
        self._scan = lo
        self._found = 0

    def step(self, max_states=2000):
        """Expand up to max_states layouts of the reverse BFS.  Returns True
        when the table is complete."""
        if self.done:
            return True
        if not self._seeded:
            self._seeded = True
            self._seed_goals()
            return False
        table = self.table
        front = self.front
        lsb = self.lsb
        out_rank = self.out_rank
        d3 = 1 + self.depth % 3          # raw table code of the layer being expanded
        n3 = 1 + (self.depth + 1) % 3    # raw code of the next layer
        budget = max_states
        wi = self._scan
        hi = self._hi
        nlo = self._nlo
        nhi = self._nhi
        found = self._found
        while True:
            while wi <= hi:
                wv = front[wi]
                while wv:
                    b = lsb[wv]
                    bit = 1 << b
                    wv ^= bit
                    x = (wi << 3) | b
                    if ((table[x >> 2] >> ((x & 3) << 1)) & 3) != d3:
                        continue
                    if budget <= 0:
                        self._scan = wi
                        self._nlo = nlo
                        self._nhi = nhi
                        self._found = found
                        return False
                    budget -= 1
                    front[wi] &= ~bit
                    self.expanded += 1
                    cnt = self.neighbors(x)
                    for q in range(cnt):
                        y = out_rank[q]
                        sh = (y & 3) << 1
                        if not (table[y >> 2] >> sh) & 3:
                            table[y >> 2] |= n3 << sh
                            yw = y >> 3
                            front[yw] |= 1 << (y & 7)
                            found += 1
                            if yw < nlo:
                                nlo = yw
                            if yw > nhi:
                                nhi = yw
                wi += 1
            # layer finished
            if not found:
                self.done = True
                self._scan = 0
                return True
            self.depth += 1
            d3 = n3
            n3 = 1 + self.depth % 3 + 1 if self.depth % 3 < 2 else 1
            n3 = 1 + (self.depth + 1) % 3
            wi = nlo
            hi = nhi
            self._lo = nlo
            self._hi = nhi
            nlo = 0x7FFF
            nhi = 0
            found = 0

    def build(self):
        while not self.step(1 << 29):
            pass

    # ------------------------------------------------------------ layouts
    def rank_of(self, cells):
        """Rank of a parsed layout of this piece set."""
        own, kind = anchors(cells)
        nw = self.nw
        for r in range(5):
            nw[r] = 0
        mm = 0
        for c in range(CELLS):
            a = own[c]
            if a == EMPTY:
                t = 1
            elif a == c:
                k = kind[c]
                t = 1 if k == K_S else k
            else:
                t = 0
            if t == 1:
                mm |= 1 << c
            nw[c >> 2] += t * _POW5[c & 3]
        g = self._geo_rank(nw)
        e1 = -1
        e2 = -1
        for c in range(CELLS):
            if own[c] == EMPTY:
                if e1 < 0:
                    e1 = c
                else:
                    e2 = c
        i = self._idx(mm, e1)
        j = self._idx(mm, e2)
        return g * self.pairs + (j * (j - 1) >> 1) + i

    def cells_of(self, rank):
        """Layout letters (bytearray(20)) of a rank."""
        P = self.pairs
        g = rank // P
        p = rank - g * P
        if g != self.cur_geo:
            self._decode(g)
        out = bytearray(CELLS)
        own = self.own
        kind = self.kind
        for c in range(CELLS):
            out[c] = ord(KIND_CHARS[kind[own[c]]])
        out[self.mcell[self.pi[p]]] = 46
        out[self.mcell[self.pj[p]]] = 46
        return out

    def best_move(self, rank):
        """(from_anchor, to_anchor, next_rank) of an optimal step, or None at
        the goal / when unsolvable.  Needs the finished table."""
        v = self.value(rank)
        if v == 3:
            return None
        want = (v + 2) % 3
        cnt = self.neighbors(rank)
        # at a goal layout nothing is closer
        for q in range(cnt):
            y = self.out_rank[q]
            if self.value(y) == want:
                return self.out_from[q], self.out_to[q], y
        return None

    def distance(self, rank):
        """Exact optimal step count from rank, None if unsolvable."""
        if self.value(rank) == 3:
            return None
        n = 0
        while not self.is_goal(rank):
            mv = self.best_move(rank)
            rank = mv[2]
            n += 1
        return n

    def is_goal(self, rank):
        g = rank // self.pairs
        if g != self.cur_geo:
            self._decode(g)
        return self.own[GOAL_CELL] == GOAL_CELL and self.kind[GOAL_CELL] == K_B

    def solution(self, rank):
        """List of (from_anchor, to_anchor) of an optimal solution, None if unsolvable."""
        if self.value(rank) == 3:
            return None
        moves = []
        while not self.is_goal(rank):
            mv = self.best_move(rank)
            moves.append((mv[0], mv[1]))
            rank = mv[2]
        return moves


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
