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
  bitmap (visited and not yet expanded) plus a summary bitmap (1 bit per
  non-zero frontier byte) and a second one (1 bit per non-zero summary byte),
  scanned in rank order, so the geometry decode is
  shared by the layouts of one geometry and only re-decodes the rows whose
  DAG prefix changed.
- neighbours without re-ranking from scratch: a soldier move keeps the
  geometry (only the pair changes); a big-piece move changes 1-4 rows, so
  only those rows are walked in the DAG from the decoded path (the node
  below the last changed row is unchanged).
- left-right mirror symmetry (the goal set is symmetric): a new layout is
  marked together with its mirror image (the mirrored move re-ranked on the
  mirror geometry's path), and only the copy whose geometry rank is not above
  its mirror's is expanded: about half the layouts are expanded.
- resumable: ``step(max_states)`` expands at most that many layouts, and
  also charges decodes, marked layouts, skipped bits and the bitmap scan, so
  one call is bounded (step(40) stays under 50 ms on a Pico).
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


def _zeros(tc, n):
    """array of n zeros without a bytes temporary (GC-off allocation counts it)."""
    a = array(tc, range(n)) if n <= 32768 else array(tc, bytes(n * (1 if tc in "bB" else 2 if tc in "hH" else 4)))
    for i in range(n):
        a[i] = 0
    return a


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
        self.fsum = bytearray((len(self.front) + 7) >> 3)  # 1 bit per non-zero front byte
        self.fs2 = bytearray((len(self.fsum) + 7) >> 3)    # 1 bit per non-zero fsum byte
        # pair rank: i < j  ->  j*(j-1)/2 + i ;  unrank tables; pidx[i*m+j] either order
        self.pi = bytearray(P)
        self.pj = bytearray(P)
        self.pidx = bytearray(m * m)
        k = 0
        for j in range(m):
            for i in range(j):
                self.pi[k] = i
                self.pj[k] = j
                self.pidx[i * m + j] = k
                self.pidx[j * m + i] = k
                k += 1
        self.pop = bytearray(1024)
        for x in range(1, 1024):
            self.pop[x] = self.pop[x >> 1] + (x & 1)
        # decoded geometry scratch (rows decoded incrementally from the DAG path)
        self.rw = _zeros("H", 5)
        self.pn = _zeros("H", 6)          # DAG node entering row r
        self.cum = _zeros("H", 6)         # rank offset of rows < r
        self.mcnt = bytearray(6)          # monominoes in rows < r
        self._mr = 0                      # mirror path (rwm/pnm/cumm) valid for rows < _mr
        self.chi = _zeros("H", 6)         # end of the rank range entered at row r (0: none yet)
        self.own = bytearray(CELLS)
        self.kind = bytearray(CELLS)
        self.midx = bytearray(CELLS + 1)  # monominoes in cells < c (index of a monomino)
        self.midx[CELLS] = m
        self.mcell = bytearray(CELLS)
        self.cur_geo = -1
        self.nw = _zeros("H", 5)
        # neighbour output
        self.out_rank = _zeros("i", 48)
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
        self._build_moves()
        # left-right mirror: mirrored row words, the mirror geometry's DAG path
        mword = _zeros("H", 625)
        for w in range(625):
            if self.pmask[w] == 255:
                continue
            x = w
            v = 0
            for c in range(4):
                t = x % 5
                x //= 5
                if t == 1 or t == 2:
                    v += t * _POW5[3 - c]
                elif t:
                    v += t * _POW5[2 - c]
            mword[w] = v
        self.mword = mword
        self.rwm = _zeros("H", 5)
        self.pnm = _zeros("H", 5)
        self.cumm = _zeros("H", 6)
        self.mg = 0
        self.depth = 0
        self.done = False
        self.expanded = 0                 # layouts expanded (mirror images are not)
        self.reached = 0                  # layouts marked so far (progress: reached / size)
        self._rbase = 0
        self._scan = 0
        self._found = 0
        self._seeded = False
        # resumable goal-seeding walk: row, node / slot / rank offset per row
        self._sr = 0
        self._sn = _zeros("H", 6)
        self._ss = _zeros("H", 6)
        self._ss[0] = self.base[0]
        self._so = _zeros("H", 6)

    def _build_moves(self):
        """Row-word deltas of the big-piece moves, per move type
        mt = ((t-2)*4 + k)*2 + dist-1 (kind t, direction k, distance): the rows
        touched start at anchor row + mro[mt] - 2 (mvn[mt] rows) and row q's
        base-5 word changes by mpat[4*mt + q] * 5**(anchor col + mco[mt] - 2)."""
        mro = bytearray(24)
        mco = bytearray(24)
        mvn = bytearray(24)
        mpat = _zeros("h", 96)
        for t in (K_V, K_H, K_B):
            w = 2 if t != K_V else 1
            hgt = 2 if t != K_H else 1
            for k in range(4):
                dc = (-1, 1, 0, 0)[k]
                dr = (0, 0, -1, 1)[k]
                for dist in (1, 2):
                    if dist == 2 and not ((t == K_V and k >= 2) or (t == K_H and k < 2)):
                        continue
                    mt = ((t - 2) * 4 + k) * 2 + dist - 1
                    nr = dr * dist
                    nc = dc * dist
                    r1 = min(0, nr)
                    r2 = max(0, nr) + hgt - 1
                    c1 = min(0, nc)
                    c2 = max(0, nc) + w - 1
                    mro[mt] = r1 + 2
                    mco[mt] = c1 + 2
                    mvn[mt] = r2 - r1 + 1
                    for rr in range(r1, r2 + 1):
                        delta = 0
                        for cc in range(c1, c2 + 1):
                            old = -1
                            new = -1
                            if 0 <= rr < hgt and 0 <= cc < w:
                                old = t if (rr == 0 and cc == 0) else 0
                            if nr <= rr < nr + hgt and nc <= cc < nc + w:
                                new = t if (rr == nr and cc == nc) else 0
                            if old < 0 and new < 0:
                                continue
                            if old < 0:
                                old = 1
                            if new < 0:
                                new = 1
                            delta += (new - old) * _POW5[cc - c1]
                        mpat[4 * mt + rr - r1] = delta
        self.mro = mro
        self.mco = mco
        self.mvn = mvn
        self.mpat = mpat

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
        winfo = _zeros("i", 625)
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
        words = _zeros("H", 625)
        wstart = _zeros("H", 17)
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
        cnt = _zeros("H", 16 * R)

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
        nid = _zeros("H", 16 * R)  # 0 = none, else id+1
        order = _zeros("H", 1024)
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
        base = _zeros("H", nn + 1)
        ent = _zeros("i", total_slots)
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
        # slots with a non-zero width lie in nlo[i]..nhi[i]: the decode's binary search
        # only needs that range (zero-width slots never hold a geometry)
        # (as offsets from base[i]; a node has < 256 slots)
        nlo = bytearray(nn)
        nhi = bytearray(nn)
        for i in range(nn):
            lo = base[i + 1]
            hi = base[i]
            for s in range(base[i], base[i + 1]):
                if (ent[s] & 1023) != 1023:
                    if s < lo:
                        lo = s
                    hi = s
            nlo[i] = lo - base[i]
            nhi[i] = hi - base[i]
        self.nlo = nlo
        self.nhi = nhi
        self.ncnt = _zeros("H", nn)
        for i in range(nn):
            self.ncnt[i] = cnt[order[i]]

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
        """Geometry g -> rw, DAG path (pn, cum), own/kind (monominoes as soldiers),
        midx (monominoes before each cell), mcell.  Rows whose DAG prefix still
        contains g (cum[r] <= g < chi[r]) are kept; only the rows below are
        re-decoded."""
        ent = self.ent
        base = self.base
        words = self.words
        wstart = self.wstart
        nodemask = self.nodemask
        ncnt = self.ncnt
        nlo = self.nlo
        nhi = self.nhi
        rw = self.rw
        pn = self.pn
        cum = self.cum
        chi = self.chi
        mcnt = self.mcnt
        own = self.own
        kind = self.kind
        midx = self.midx
        mcell = self.mcell
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
            for col in range(4):
                t = w % 5
                w //= 5
                midx[c] = mi
                if t:
                    own[c] = c
                    kind[c] = t          # token == K_S/K_V/K_H/K_B
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
        if r0 < self._mr:
            self._mr = r0
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
        mm = 0
        for q in range(self.m):
            mm |= 1 << self.mcell[q]
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

    def _seed_goals(self, budget):
        """Mark every layout with the block on GOAL_CELL at distance 0: a
        depth-first walk of the DAG, resumable (at most ``budget`` slots per
        call).  Returns True when every goal geometry is marked."""
        ent = self.ent
        base = self.base
        words = self.words
        wstart = self.wstart
        nodemask = self.nodemask
        table = self.table
        front = self.front
        fsum = self.fsum
        fs2 = self.fs2
        P = self.pairs
        node = self._sn
        slot = self._ss
        off = self._so
        lpi = self.lpi
        r = self._sr
        while r >= 0:
            if budget <= 0:
                self._sr = r
                return False
            budget -= 1
            n = node[r]
            s = slot[r]
            if s >= base[n + 1]:
                r -= 1
                if r >= 0:
                    slot[r] += 1
                continue
            e = ent[s]
            nxt = e & 1023
            ok = nxt != 1023
            if ok and r < 3:
                w = words[wstart[nodemask[n]] + s - base[n]]
                ok = (w % 5 != 4 and w // 5 % 5 != 4 and w // 25 % 5 != 4 and w // 125 != 4)
                if ok and r == 2:
                    ok = not (nodemask[nxt] & 6)     # the block needs row 3 columns 1-2
            if not ok:
                slot[r] = s + 1
                continue
            o = off[r] + (e >> 10)
            if r < 2:
                r += 1
                node[r] = nxt
                slot[r] = base[nxt]
                off[r] = o
                continue
            slot[2] = s + 1
            # row 3 holds the block on columns 1-2: probe the <= 4 words (columns
            # 0 and 3 covered from above, or a soldier / V top); row 4: every
            # valid slot is one goal geometry
            mk = nodemask[nxt]
            b3 = base[nxt]
            for q in range(4):
                if (mk & 1 and q & 1) or (mk & 8 and q & 2):
                    continue
                w = 20
                if not mk & 1:
                    w += 1 + (q & 1)
                if not mk & 8:
                    w += 125 * (1 + (q >> 1))
                e = ent[b3 + lpi[w]]
                n4 = e & 1023
                if n4 == 1023:
                    continue
                o3 = o + (e >> 10)
                for s4 in range(base[n4], base[n4 + 1]):
                    e = ent[s4]
                    if (e & 1023) == 1023:
                        continue
                    g0 = (o3 + (e >> 10)) * P
                    self.reached += P
                    budget -= P
                    x = g0
                    end = g0 + P
                    while x < end:
                        if not x & 7 and x + 8 <= end:
                            # 8 layouts at once: two table bytes, one frontier byte
                            xb = x >> 2
                            table[xb] = 0x55
                            table[xb + 1] = 0x55
                            front[x >> 3] = 0xFF
                            fsum[x >> 6] |= 1 << ((x >> 3) & 7)
                            fs2[x >> 9] |= 1 << ((x >> 6) & 7)
                            x += 8
                            continue
                        table[x >> 2] |= 1 << ((x & 3) << 1)
                        front[x >> 3] |= 1 << (x & 7)
                        fsum[x >> 6] |= 1 << ((x >> 3) & 7)
                        fs2[x >> 9] |= 1 << ((x >> 6) & 7)
                        x += 1
        self._sr = r
        return True

    def _mark(self, y, gq, mv, a, c1, c2, u1, u2, code):
        """Mark the new layout y (geometry gq; empties c1, c2) and its mirror
        image with ``code``; only the copy whose geometry is not above its
        mirror's enters the frontier.  The move that led to y from the current
        geometry: big-piece move type mv (-1 for a soldier) of the piece at a,
        cells u1/u2 filled (255 = none); c1 (and c2 if u2 is a cell) freed.
        Returns the number of layouts marked (1 or 2)."""
        midx = self.midx
        mcnt = self.mcnt
        mq = self.mg
        if mv >= 0:
            # the mirrored move on the mirror geometry: only its rows are re-ranked
            am = (a ^ 3) - 1 if mv >= 8 else a ^ 3
            mt = mv ^ 2 if (mv & 6) < 4 else mv
            r1 = (am >> 2) + self.mro[mt] - 2
            nr = self.mvn[mt]
            mul = _POW5[(am & 3) + self.mco[mt] - 2]
            q = mt << 2
            ent = self.ent
            base = self.base
            lpi = self.lpi
            rwm = self.rwm
            mpat = self.mpat
            cumm = self.cumm
            n = self.pnm[r1]
            mq += cumm[r1] - cumm[r1 + nr]
            for rr in range(nr):
                ge = ent[base[n] + lpi[rwm[r1 + rr] + mpat[q + rr] * mul]]
                mq += ge >> 10
                n = ge & 1023
        # monomino index of the mirrored empties in the mirrored geometry
        z1 = c1 ^ 3
        z2 = c2 ^ 3
        r = c1 >> 2
        i = mcnt[r] + mcnt[r + 1] - midx[c1 + 1]
        r = c2 >> 2
        j = mcnt[r] + mcnt[r + 1] - midx[c2 + 1]
        if u1 != 255:
            w = u1 ^ 3
            i -= w < z1
            j -= w < z2
            if u2 != 255:
                w = u2 ^ 3
                i -= w < z1
                j -= w < z2
                i += z2 < z1
            j += z1 < z2
        ym = mq * self.pairs + self.pidx[i * self.m + j]
        table = self.table
        front = self.front
        fsum = self.fsum
        table[y >> 2] |= code << ((y & 3) << 1)
        if gq <= mq:
            yw = y >> 3
            front[yw] |= 1 << (y & 7)
            fsum[yw >> 3] |= 1 << (yw & 7)
            self.fs2[yw >> 6] |= 1 << ((yw >> 3) & 7)
        if ym == y:
            return 1
        sh = (ym & 3) << 1
        if (table[ym >> 2] >> sh) & 3:
            return 1
        table[ym >> 2] |= code << sh
        if mq <= gq:
            yw = ym >> 3
            front[yw] |= 1 << (ym & 7)
            fsum[yw >> 3] |= 1 << (yw & 7)
            self.fs2[yw >> 6] |= 1 << ((yw >> 3) & 7)
        return 2

    def step(self, max_states=2000):
        """Expand up to max_states layouts of the reverse BFS.  Returns True
        when the table is complete.

        The frontier is scanned through a summary bitmap (1 bit per non-zero
        frontier byte); layouts of one geometry share the decode; a big-piece
        move re-ranks only the 1-4 rows it touches (DAG walk from the path
        node of its first row) and soldier moves only change the pair."""
        if self.done:
            return True
        if not self._seeded:
            # goal seeding, sliced like the search (8 DAG slots or marked goal layouts per layout)
            self._seeded = self._seed_goals(max_states << 3 if max_states < 1 << 26 else 1 << 29)
            self._rbase = self.reached
            self._scan = 0
            return False
        table = self.table
        front = self.front
        fsum = self.fsum
        lsb = self.lsb
        own = self.own
        kind = self.kind
        midx = self.midx
        mcell = self.mcell
        pi = self.pi
        pj = self.pj
        pidx = self.pidx
        m = self.m
        nbr = self.nbr
        ent = self.ent
        base = self.base
        lpi = self.lpi
        cum = self.cum
        pn = self.pn
        rw = self.rw
        mro = self.mro
        mco = self.mco
        mvn = self.mvn
        mpat = self.mpat
        dirs = self.dirs
        p5 = _POW5
        mword = self.mword
        rwm = self.rwm
        pnm = self.pnm
        cumm = self.cumm
        P = self.pairs
        d3 = 1 + self.depth % 3          # raw table code of the layer being expanded
        n3 = 1 + (self.depth + 1) % 3    # raw code of the next layer
        # work units: an expansion or a decode 64, a marked layout 32, a skipped bit 1
        budget = max_states << 6 if max_states < 1 << 24 else 1 << 30
        nsum = len(fsum)
        fs2 = self.fs2
        si = self._scan
        found = self._found
        expanded = self.expanded
        cg = -1                          # decode (and mirror) afresh: others may decode too
        gP = 0
        mg = 0
        while True:
            while si < nsum:
                if budget <= 0:
                    self._scan = si
                    self._found = found
                    self.expanded = expanded
                    self.reached = self._rbase + found
                    return False
                budget -= 2                 # one summary byte scanned
                s2 = si >> 3
                sv = fs2[s2] >> (si & 7)    # non-zero summary bytes from si on
                if not sv:
                    si = (s2 + 1) << 3
                    continue
                si += lsb[sv]
                sv = fsum[si]
                while sv:
                    b = lsb[sv]
                    sv ^= 1 << b
                    wi = (si << 3) | b
                    wv = front[wi]
                    while wv:
                        b2 = lsb[wv]
                        bit = 1 << b2
                        wv ^= bit
                        x = (wi << 3) | b2
                        if ((table[x >> 2] >> ((x & 3) << 1)) & 3) != d3:
                            budget -= 1             # next-layer layout: skipped
                            continue
                        if budget <= 0:
                            self._scan = si
                            self._found = found
                            self.expanded = expanded
                            self.reached = self._rbase + found
                            return False
                        budget -= 64
                        front[wi] ^= bit
                        g = x // P
                        if g != cg:
                            self._decode(g)
                            budget -= 64        # a decode costs about one expansion
                            cg = g
                            gP = g * P
                            # the mirror geometry's path (its rank mg and rows)
                            r = self._mr
                            n = pnm[r] if r < 5 else 0
                            mg = cumm[r]
                            for r in range(r, 5):
                                wm = mword[rw[r]]
                                rwm[r] = wm
                                pnm[r] = n
                                cumm[r] = mg
                                ge = ent[base[n] + lpi[wm]]
                                mg += ge >> 10
                                n = ge & 1023
                            cumm[5] = mg
                            self.mg = mg
                            self._mr = 5
                        if mg < cg:
                            # mirror image of a canonical layout (only goal seeds get here):
                            # its mirror is expanded instead
                            continue
                        expanded += 1
                        f0 = found
                        p = x - gP
                        e = mcell[pi[p]]
                        o = mcell[pj[p]]
                        # empties side by side: a soldier can pass through one into the other
                        eo = o - e == 4 or (o - e == 1 and (e & 3) != 3)
                        for which in range(2):
                            if which:
                                e, o = o, e
                            e4 = e << 2
                            for k in range(4):
                                xx = nbr[e4 + (k ^ 1)]
                                if xx == 255 or xx == o:
                                    continue
                                a = own[xx]
                                t = kind[a]
                                if t == 1:
                                    # soldier xx -> e: empties {xx, o}
                                    y = gP + pidx[midx[xx] * m + midx[o]]
                                    sh = (y & 3) << 1
                                    if not (table[y >> 2] >> sh) & 3:
                                        found += self._mark(y, cg, -1, 0, xx, o, 255, 255, n3)
                                    if eo:
                                        # soldier xx -> e -> o: empties {xx, e}
                                        y = gP + pidx[midx[xx] * m + midx[e]]
                                        sh = (y & 3) << 1
                                        if not (table[y >> 2] >> sh) & 3:
                                            found += self._mark(y, cg, -1, 0, xx, e, 255, 255, n3)
                                    continue
                                if (t == 2 and k >= 2) or (t == 3 and k < 2):
                                    d = dirs[k]
                                    mv = ((t - 2) * 4 + k) * 2
                                    # along the long axis by one: e filled, vac freed
                                    vac = e - 2 * d
                                    r1 = (a >> 2) + mro[mv] - 2
                                    nr = mvn[mv]
                                    mul = p5[(a & 3) + mco[mv] - 2]
                                    q = mv << 2
                                    n = pn[r1]
                                    ge = ent[base[n] + lpi[rw[r1] + mpat[q] * mul]]
                                    gr = cum[r1] - cum[r1 + nr] + (ge >> 10)
                                    if nr > 1:
                                        n = ge & 1023
                                        ge = ent[base[n] + lpi[rw[r1 + 1] + mpat[q + 1] * mul]]
                                        gr += ge >> 10
                                        if nr > 2:
                                            n = ge & 1023
                                            ge = ent[base[n] + lpi[rw[r1 + 2] + mpat[q + 2] * mul]]
                                            gr += ge >> 10
                                    y = (cg + gr) * P + pidx[(midx[vac] - (e < vac)) * m
                                                             + midx[o] - (e < o) + (vac < o)]
                                    sh = (y & 3) << 1
                                    if not (table[y >> 2] >> sh) & 3:
                                        found += self._mark(y, cg + gr, mv, a, vac, o, e, 255, n3)
                                    if nbr[e4 + k] == o:
                                        # by two: both piece cells freed
                                        v1 = e - d
                                        mv += 1
                                        r1 = (a >> 2) + mro[mv] - 2
                                        nr = mvn[mv]
                                        mul = p5[(a & 3) + mco[mv] - 2]
                                        q = mv << 2
                                        n = pn[r1]
                                        ge = ent[base[n] + lpi[rw[r1] + mpat[q] * mul]]
                                        gr = cum[r1] - cum[r1 + nr] + (ge >> 10)
                                        for rr in range(1, nr):
                                            n = ge & 1023
                                            ge = ent[base[n] + lpi[rw[r1 + rr] + mpat[q + rr] * mul]]
                                            gr += ge >> 10
                                        y = (cg + gr) * P + pidx[(midx[v1] - (e < v1) - (o < v1) + (vac < v1)) * m
                                                                 + midx[vac] - (e < vac) - (o < vac) + (v1 < vac)]
                                        sh = (y & 3) << 1
                                        if not (table[y >> 2] >> sh) & 3:
                                            found += self._mark(y, cg + gr, mv, a, v1, vac, e, o, n3)
                                    continue
                                # broadside: leading cells e < o side by side, generated from e
                                if which or not eo:
                                    continue
                                if k < 2:
                                    if o != e + 4:
                                        continue
                                elif o != e + 1:        # eo: same row
                                    continue
                                d = dirs[k]
                                if own[o - d] != a:
                                    continue
                                mv = ((t - 2) * 4 + k) * 2
                                if t == 4:
                                    v1 = e - 2 * d
                                    v2 = o - 2 * d
                                else:
                                    v1 = e - d
                                    v2 = o - d
                                r1 = (a >> 2) + mro[mv] - 2
                                nr = mvn[mv]
                                mul = p5[(a & 3) + mco[mv] - 2]
                                q = mv << 2
                                n = pn[r1]
                                ge = ent[base[n] + lpi[rw[r1] + mpat[q] * mul]]
                                gr = cum[r1] - cum[r1 + nr] + (ge >> 10)
                                for rr in range(1, nr):
                                    n = ge & 1023
                                    ge = ent[base[n] + lpi[rw[r1 + rr] + mpat[q + rr] * mul]]
                                    gr += ge >> 10
                                y = (cg + gr) * P + pidx[(midx[v1] - (e < v1) - (o < v1)) * m
                                                         + midx[v2] - (e < v2) - (o < v2) + 1]
                                sh = (y & 3) << 1
                                if not (table[y >> 2] >> sh) & 3:
                                    found += self._mark(y, cg + gr, mv, a, v1, v2, e, o, n3)
                        budget -= (found - f0) << 5     # marking costs too
                    if not front[wi]:
                        fsum[si] &= ~(1 << b)
                if not fsum[si]:
                    fs2[s2] &= ~(1 << (si & 7))
                si += 1
            # layer finished
            self._rbase += found
            self.reached = self._rbase
            if not found:
                self.done = True
                self._scan = 0
                self.expanded = expanded
                return True
            self.depth += 1
            d3 = n3
            n3 = 1 + (self.depth + 1) % 3
            si = 0
            found = 0

    def build(self):
        while not self.step(1 << 26):
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
