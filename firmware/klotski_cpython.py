"""The Klotski search's loop on CPython (the simulator, the host tools, the
tests): a whole-build ``klotski.Solver`` (not ``sliced``) runs this
module's ``walk`` and ``expand`` where ``sys.implementation.name`` is not
"micropython" or "circuitpython" (names those already intern); a sliced one,
the game scene's, runs ``klotski_loop`` as the device does, so the
simulator's frames stay the device's; MicroPython never imports it (a Pico runs
``klotski_viper``, the WebAssembly VMs and CircuitPython ``klotski_loop``),
and ``flash`` leaves it off the device (``host_tools.core.build``).

Why a loop of its own: ``klotski_loop.expand`` is written for MicroPython's
bytecode and heap (no allocation, the fuel the device spends): it works out
a layout's moves when it expands that layout, so a geometry is decoded again
at each of its visits (~5 per geometry in 横刀立马's set) and a big-piece
move is re-ranked once per layout it moves.  On CPython that is ~10 µs per
layout: 0.28 s of 横刀立马's table, over the host's budget.  Here the walk
(nested loops over the DAG's rows) decodes every stored geometry on the way,
and the first visit of a geometry (``Moves.learn``) works out its moves
once, for all its pairs of empty cells: the pairs its soldier moves reach
(bit masks, shared by the geometries whose monominoes touch the same way)
and, per big-piece move (re-ranked once), the table bits it reaches per
partner monomino; later visits only read them.  A layer's frontier is a list
of table words; the table's planes get a layer's marks, and ``reached`` its
count, when it ends.  About a third of the plain loop's instructions for
横刀立马's full solve (counted under valgrind), for memory a device does not
have: Python lists, tuples and dicts, ~5 MB at the peak for the classic set.
``Moves`` is kept per ``klotski.Search`` in a weak dictionary, so it goes with
the search.  The same table and the same final counters (reached, expanded,
depth) as the plain loop, sliced the same way (a call ends between table
words once ``budget`` units are spent, a layout 64 of them):
tests/test_klotski.py compares them."""

import weakref

from klotski_common import _DIRS, _POW5
from klotski_loop import _B_AOF, _B_MT, _B_V1, _B_V2, _S_AOF, _S_MT, _S_NOCOL, _S_VOF

__all__ = ["expand", "walk"]

_FULL20 = 0xFFFFF
_COL01 = 0x33333
_COL23 = 0xCCCCC
_NOT_COL3 = 0x77777       # cells with a right neighbour in their row
_NOT_COL0 = 0xEEEEE       # and with a left one
# Search.counters (klotski's numbers)
_SCAN = 0
_FOUND = 1
_REACHED = 2
_EXPANDED = 3
_DEPTH = 4
_WALK_ROW = 5
# a geometry's first visit (``Moves.learn``) is charged as this many layouts:
# about the instructions of that many expansions here (valgrind)
_LEARN = 16

# a search -> its Moves (dropped with the search)
_MOVES = weakref.WeakKeyDictionary()


class Moves:
    """One search's moves by geometry (stored copies only), made at the
    geometry's first visit (``learn``): ``learned[g]`` = (soldiers, slides,
    pairwise): ``soldiers[p]``, the pairs (bits) that pair p's soldier moves
    reach in g itself; ``slides[k]``, per slide of a big piece into monomino
    k's cell, (table word, targets): ``targets[j]``, the bit of the layout
    it makes from the pair of k and monomino j (0: in another word, which
    has a slide entry of its own); ``pairwise[p]``, (table word, bit) per
    layout that a move needing both empty cells of pair p makes (a slide on
    through both, a broadside move).  The search's frontier: the table words
    of this layer (``now``, from ``at`` on) and of the next one (``then``),
    their pair bits (``now_bits``, ``then_bits``), every reached pair
    (``seen``) and ``reached`` when this layer began."""

    def __init__(self, search):
        s = search
        U = s.units
        W = s.words_per
        m = s.monos
        G = U // W
        self.learned = [None] * G
        # monomino cells -> (their indices, soldier moves), adjacent
        # monomino pairs (bits of their pairs) -> soldier moves
        self.by_cells = {}
        self.soldier_sets = {}
        # what the walk finds: mirror ranks, each stored geometry decoded
        # (``walk``), the seeds
        self.mirror = [0] * G
        self.decoded = [None] * G
        self.walk_at = 0
        self.seen = [0] * U
        self.now_bits = [0] * U
        self.now = []
        self.then_bits = [0] * U
        self.then = []
        self.at = 0
        self.reached = 0
        self.pair_of = list(s.pair_of)
        self.pair_low = list(s.pair_low)
        self.pair_high = list(s.pair_high)
        self.pair_word = list(s.pair_word)
        self.pair_bit = list(s.pair_bit)
        self.monos = m
        self.pairs = s.pairs
        self.words_per = W
        # per ordered pair of monomino indices (k, j): (pair {k, o}, bit of
        # pair {j, o}) for every other index o: the soldier j moving into k
        pidx = self.pair_of
        self.soldier_row = [tuple((pidx[k * m + o], 1 << pidx[j * m + o]) for o in range(m) if o != k and o != j)
                            for k in range(m) for j in range(m)]
        # a slide's targets (``slides``) by the monomino it fills (k) and the
        # index of the cell it frees among the new monominoes (v): as they
        # are, and in mirror images (``mirrored``, per numbers of monominoes
        # of its rows, row r's times 5**r: made when needed)
        self.direct = [self.slide_targets(k, v, None) for k in range(m) for v in range(m)]
        self.mirrored = [None] * 3125
        # those numbers for two rows' cells: the first one's + 5 * the other's
        self.row_counts = [(b & 15).bit_count() + 5 * (b >> 4).bit_count() for b in range(256)]
        self.dag_tables(s)

    def dag_tables(self, s):
        """What the walk and ``learn`` read of the search ``s`` (its DAG, row
        words, move deltas), as lists (CPython reads a list item faster than
        an array's) and tuples."""
        W = s.words_per
        self.below = list(s.cells_below)
        self.root = s.path[0]
        ent = self.entries = list(s.entries)
        base = self.node_base = list(s.node_base)
        self.slot = list(s.slot)
        # per move type mt and anchor a (mt * 20 + a): the first row the
        # move changes, how many, and the changes of their row words
        # (``klotski_setup._build_moves``)
        self.rerank = [None] * 480
        for mt in range(24):
            for a in range(20):
                r = (a >> 2) + s.move_row[mt] - 2
                c = (a & 3) + s.move_col[mt] - 2
                nr = s.move_rows[mt]
                if nr and 0 <= r and r + nr <= 5 and 0 <= c <= 3:
                    self.rerank[mt * 20 + a] = (r, nr) + tuple(s.move_delta[4 * mt + i] * _POW5[c] for i in range(4))
        # per node, its used slots as (next node, rank offset, row word's
        # index); per row word's index, its mirror image's slot
        wstart = s.mask_start
        nodemask = s.node_mask
        self.node_slots = [tuple((ent[i] & 1023, ent[i] >> 10, wstart[nodemask[n]] + i - base[n])
                                 for i in range(base[n] + s.node_first[n], base[n] + s.node_last[n] + 1)
                                 if ent[i] & 1023 != 1023)
                           for n in range(len(base) - 1)]
        lpi = s.slot
        self.mirror_slot = [lpi[w] for w in s.word_mirror]
        self.words = list(s.words)
        pk = s.word_pieces
        # per row word's index: its monomino, V-top and H-left cells (a
        # nibble each) and block column + 1 (``klotski_setup``)
        self.pieces = [(v & 15, (v >> 4) & 15, (v >> 8) & 15, v >> 12) for v in pk]
        self.full_words = list(s.full_words)
        # per word of a geometry (q), per byte b of it, per byte value: the
        # layouts of its bits as (pair, lower monomino, higher one)
        B = s.word_bits
        self.byte_pairs = [tuple(self.byte_table(q * B + 8 * b, min(q * B + 8 * b + 8, (q + 1) * B, s.pairs))
                                 for b in range(4))
                           for q in range(W)]

    def byte_table(self, first, end):
        """Per value v of a byte whose bit 0 is pair ``first`` (pairs before
        ``end``): (pair, lower monomino, higher one) of its bits set, lowest
        first (v's without its highest bit, then that one)."""
        out = [()] * 256
        for v in range(1, 256):
            b = v.bit_length() - 1
            p = first + b
            out[v] = out[v ^ (1 << b)] + (((p, self.pair_low[p], self.pair_high[p]),) if p < end else ())
        return tuple(out)

    def slide_targets(self, k, v, perm):
        """The layouts a slide into monomino k's cell makes from the pairs of
        k and each monomino j, where the freed cell is monomino v after the
        move (the others keep their order); ``perm``: monomino -> its index
        in the mirror image, for a stored mirror image.  Per word of the
        geometry that holds any: (word, bit per j, 0 where none)."""
        m = self.monos
        pidx = self.pair_of
        bits = [[0] * m for _ in range(self.words_per)]
        for j in range(m):
            if j != k:
                r = j - (j > k)
                r += r >= v
                d = pidx[perm[v] * m + perm[r]] if perm else pidx[v * m + r]
                bits[self.pair_word[d]][j] = self.pair_bit[d]
        return tuple((q, tuple(bits[q])) for q in range(self.words_per) if any(bits[q]))

    def mirror_of(self, key):
        """For geometries whose rows hold the numbers of monominoes of
        ``key``: (monomino -> its index in the mirror image, where a row's
        monominoes come in reverse order; the slides' targets made so far)."""
        perm = []
        k = 0
        for r in range(5):
            n = key // (5 ** r) % 5
            perm += range(k + n - 1, k - 1, -1)
            k += n
        mk = self.mirrored[key] = (perm, [None] * (self.monos * self.monos))
        return mk

    def learn(self, g):
        """Geometry g's moves (the class notes)."""
        rows, path, prank, MM, VT, HL, ba = self.decoded[g]
        self.decoded[g] = None
        hit = self.by_cells.get(MM)
        if hit is None:
            hit = self.by_cells[MM] = self.monominoes(MM)
        index, sold = hit
        mg = self.learned[g] = (sold,) + self.reach(g, (rows, path, prank), self.big_moves(MM, VT, HL, ba, index))
        return mg

    def monominoes(self, MM):
        """(monomino index per cell, soldier moves) of the monomino cells
        ``MM``; the moves are shared by the cells that touch the same way."""
        m = self.monos
        pidx = self.pair_of
        index = [0] * 20
        k = 0
        z = MM
        while z:
            index[(z & -z).bit_length() - 1] = k
            z &= z - 1
            k += 1
        # monominoes side by side or one above the other, as pair bits
        adj = 0
        for o in (1, 4):
            z = MM & (MM >> o) & (_NOT_COL3 if o == 1 else _FULL20)
            while z:
                c = (z & -z).bit_length() - 1
                z &= z - 1
                adj |= 1 << pidx[index[c] * m + index[c + o]]
        sold = self.soldier_sets.get(adj)
        if sold is None:
            sold = self.soldier_sets[adj] = self.soldier_moves(adj)
        return index, sold

    def soldier_moves(self, adj):
        """Per pair, the pairs (bits) its soldier moves reach, for monominoes
        that touch as the pair bits ``adj`` say: the soldier s moves into its
        neighbour e (e and o empty), and on into o where o touches e."""
        m = self.monos
        pidx = self.pair_of
        near = [[] for _ in range(m)]
        while adj:
            p = (adj & -adj).bit_length() - 1
            adj &= adj - 1
            near[self.pair_low[p]].append(self.pair_high[p])
            near[self.pair_high[p]].append(self.pair_low[p])
        sold = [0] * self.pairs
        for e in range(m):
            for s in near[e]:
                for p, bit in self.soldier_row[e * m + s]:
                    sold[p] |= bit
                on = 1 << pidx[s * m + e]
                for o in near[e]:
                    if o != s:
                        sold[pidx[e * m + o]] |= on
        return sold

    def big_moves(self, MM, VT, HL, ba, index):
        """A geometry's big-piece moves (the _S_* and _B_* tables of
        ``klotski_loop``) as (move type, anchor, monomino cells after it,
        monomino filled, first and second cell freed, pair): slides along a
        piece's length into one empty cell (pair -1: every pair with it), on
        through the other one where it lies beyond, broadside moves into two
        side-by-side empties (those two: ``pair``)."""
        m = self.monos
        pidx = self.pair_of
        moves = []
        slides = ((HL >> 1) & _COL01 & MM, (HL << 2) & _COL23 & MM, (VT >> 4) & MM, (VT << 8) & _FULL20 & MM)
        for k in range(4):
            z = slides[k]
            while z:
                b = z & -z
                z ^= b
                x = b.bit_length() - 1
                a = x + _S_AOF[k]
                v1 = x + _S_VOF[k]
                mm = MM ^ b ^ (1 << v1)
                moves.append((_S_MT[k] * 20 + a, mm, index[x], v1, 0, -1))
                y = x + _DIRS[k]
                if y >= 0 and MM >> y & 1 and (x & 3) != _S_NOCOL[k]:
                    v2 = x + (_S_VOF[k] >> 1)
                    moves.append(((_S_MT[k] + 1) * 20 + a, mm ^ (1 << y) ^ (1 << v2), 0, v1, v2,
                                  pidx[index[x] * m + index[y]]))
        # broadside moves into e and o = e + 1 (q 0-3) or e + 4 (q 4-7), by
        # the cells e they can start from: H above / below, B above / below,
        # V left / right, B left / right
        hp = MM & (MM >> 1) & _NOT_COL3
        vp = MM & (MM >> 4)
        starts = ((HL << 4) & hp, (HL >> 4) & hp, (1 << (ba + 8)) & hp, (1 << (ba - 4)) & hp if ba >= 4 else 0,
                  (VT << 1) & vp & _NOT_COL0, (VT >> 1) & vp & _NOT_COL3, (1 << (ba + 2)) & vp & _COL23,
                  (1 << (ba - 1)) & vp & _COL01 if ba >= 1 else 0)
        for q in range(8):
            z = starts[q]
            while z:
                b = z & -z
                z ^= b
                e = b.bit_length() - 1
                o = e + 1 if q < 4 else e + 4
                v1 = e + _B_V1[q]
                v2 = e + _B_V2[q]
                moves.append((_B_MT[q] * 20 + e + _B_AOF[q], MM ^ (1 << v1) ^ (1 << v2) ^ b ^ (1 << o), 0, v1, v2,
                              pidx[index[e] * m + index[o]]))
        return moves

    def reach(self, g, dec, moves):
        """(slides, pairwise) of g (the class notes) from its ``moves``: each move's
        geometry re-ranked through the DAG (the rows it touches,
        ``klotski_setup._build_moves``), then its stored layouts (the mirror
        image's where that one is stored; both where the geometry is its own
        mirror image)."""
        rows, path, prank = dec
        lpi = self.slot
        rerank = self.rerank
        ent = self.entries
        base = self.node_base
        mir = self.mirror
        W = self.words_per
        W1 = W == 1
        m = self.monos
        pidx = self.pair_of
        pw = self.pair_word
        pb = self.pair_bit
        below = self.below
        direct = self.direct
        k8 = self.row_counts
        slides = [[] for _ in range(m)]
        pairwise = [()] * self.pairs
        for ri, mm, k, v1, v2, p in moves:
            r, nr, d0, d1, d2, d3 = rerank[ri]
            x = ent[base[path[r]] + lpi[rows[r] + d0]]
            g2 = g + prank[r] - prank[r + nr] + (x >> 10)
            if nr > 1:
                x = ent[base[x & 1023] + lpi[rows[r + 1] + d1]]
                g2 += x >> 10
                if nr > 2:
                    x = ent[base[x & 1023] + lpi[rows[r + 2] + d2]]
                    g2 += x >> 10
                    if nr > 3:
                        x = ent[base[x & 1023] + lpi[rows[r + 3] + d3]]
                        g2 += x >> 10
            gm = mir[g2]
            i = (mm & below[v1]).bit_count()
            if p >= 0:
                j = (mm & below[v2]).bit_count()
            if g2 < gm:
                x = g2 * W
                if p < 0:
                    if W1:
                        slides[k].append((x, direct[k * m + i][0][1]))
                    else:
                        for q, b in direct[k * m + i]:
                            slides[k].append((x + q, b))
                else:
                    d = pidx[i * m + j]
                    pairwise[p] += ((x + pw[d], pb[d]),)
                continue
            x = gm * W
            key = k8[mm & 255] + 25 * k8[(mm >> 8) & 255] + 625 * k8[mm >> 16]
            mk = self.mirrored[key] or self.mirror_of(key)
            perm = mk[0]
            if p < 0:
                t = mk[1][k * m + i]
                if t is None:
                    t = mk[1][k * m + i] = self.slide_targets(k, i, perm)
                if g2 == gm:
                    t += direct[k * m + i]
                if W1:
                    slides[k].append((x, t[0][1]))
                    if g2 == gm:
                        slides[k].append((x, t[1][1]))
                else:
                    for q, b in t:
                        slides[k].append((x + q, b))
            else:
                d = pidx[perm[i] * m + perm[j]]
                pairwise[p] += ((x + pw[d], pb[d]),)
                if g2 == gm:
                    d = pidx[i * m + j]
                    pairwise[p] += ((x + pw[d], pb[d]),)
        return slides, pairwise


def walk(search, budget):
    """``klotski_loop.walk``'s work, in nested loops over the DAG's rows:
    every geometry's mirror image's rank, each stored geometry decoded for
    its first visit (``Moves.learn``), the seeds (every stored layout of a
    goal geometry, the block on GOAL_CELL).  Resumable between the slots of
    the first row; the budget left; counters[_WALK_ROW] -1: done."""
    mv = _MOVES.get(search)
    if mv is None:
        mv = _MOVES[search] = Moves(search)
    S = mv.node_slots
    ent = mv.entries
    msl = mv.mirror_slot
    words = mv.words
    pcs = mv.pieces
    mir = mv.mirror
    dec = mv.decoded
    W = mv.words_per
    P = mv.pairs
    T = search.table
    fullw = mv.full_words
    seen = mv.seen
    now_bits = mv.now_bits
    now = mv.now
    reached = search.counters[_REACHED]
    top = S[mv.root]
    at = mv.walk_at
    while at < len(top) and budget > 0:
        budget -= 4 * search.node_count[top[at][0]]
        for n4, c4, d4, bm, rows, path, prank, M3, V3, H3, b3, goal in _row_ends(mv, top[at]):
            for _, o, w4 in S[n4]:
                g = c4 + o
                gm = d4 + (ent[bm + msl[w4]] >> 10)
                mir[g] = gm
                if g > gm:
                    continue
                M, V, H, k = pcs[w4]
                dec[g] = (rows + (words[w4],), path, prank + (g,), M3 | M << 16, V3 | V << 16,
                          H3 | H << 16, k + 15 if k else b3)
                if goal:
                    u = g * W
                    for q in range(W):
                        T[u] = seen[u] = now_bits[u] = fullw[q]
                        now.append(u)
                        u += 1
                    reached += P if g == gm else P + P
                    budget -= P
        at += 1
    mv.walk_at = at
    mv.reached = reached
    search.counters[_REACHED] = reached
    if at == len(top):
        search.counters[_WALK_ROW] = -1
    return budget


def _row_ends(mv, slot):
    """The DAG's paths through rows 0-3 from the first row's ``slot``, each
    as what the last row's geometries share: (node, rank offset, the mirror
    image's rank offset and node's entries start, row words, DAG nodes and
    rank offsets so far, monomino, V-top and H-left cells, the block's cell,
    whether the block is on GOAL_CELL)."""
    S = mv.node_slots
    ent = mv.entries
    base = mv.node_base
    msl = mv.mirror_slot
    words = mv.words
    pcs = mv.pieces
    root = mv.root
    ends = []
    # row r's node (n1..), rank offset (c1..), word (w0..); the mirror
    # image's node and offset (m1.., d1..); the cells so far (M, V, H, b)
    n1, c1, w0 = slot
    e = ent[base[root] + msl[w0]]
    m1 = e & 1023
    d1 = e >> 10
    M0, V0, H0, k = pcs[w0]
    b0 = k - 1 if k else -99
    for n2, o, w1 in S[n1]:
        c2 = c1 + o
        e = ent[base[m1] + msl[w1]]
        m2 = e & 1023
        d2 = d1 + (e >> 10)
        M, V, H, k = pcs[w1]
        M1 = M0 | M << 4
        V1 = V0 | V << 4
        H1 = H0 | H << 4
        b1 = k + 3 if k else b0
        for n3, o, w2 in S[n2]:
            c3 = c2 + o
            e = ent[base[m2] + msl[w2]]
            m3 = e & 1023
            d3 = d2 + (e >> 10)
            M, V, H, k = pcs[w2]
            M2 = M1 | M << 8
            V2 = V1 | V << 8
            H2 = H1 | H << 8
            b2 = k + 7 if k else b1
            for n4, o, w3 in S[n3]:
                e = ent[base[m3] + msl[w3]]
                M, V, H, k = pcs[w3]
                ends.append((n4, c3 + o, d3 + (e >> 10), base[e & 1023], (words[w0], words[w1], words[w2], words[w3]),
                             (root, n1, n2, n3, n4), (0, c1, c2, c3, c3 + o), M2 | M << 12, V2 | V << 12,
                             H2 | H << 12, k + 11 if k else b2, k == 2))
    return ends


def expand(search, budget):
    """``klotski_loop.expand`` on CPython (the module notes): expand frontier
    words until ``budget`` units are spent (False) or the table is complete
    (True: a layer found nothing).  One function: the loop over a word's
    layouts and their moves is the hot part, on CPython's fast locals."""
    mv = _MOVES[search]                 # made by the walk
    W = search.words_per
    W1 = W == 1
    B = search.word_bits
    B16 = B == 16
    full = (1 << B) - 1
    learned, learn, bytes_of = mv.learned, mv.learn, mv.byte_pairs
    lo8, hi8 = bytes_of[0][0], bytes_of[0][1]
    seen, now, now_bits, then, tb = mv.seen, mv.now, mv.now_bits, mv.then, mv.then_bits
    at = mv.at
    expanded = search.counters[_EXPANDED]
    stop = expanded + (budget >> 6)     # 64 units a layout
    while True:
        n = len(now)
        while at < n:
            if expanded >= stop:
                mv.at = at
                _counts(search, mv, expanded)
                return False
            u = now[at]
            at += 1
            Ld = now_bits[u]
            now_bits[u] = 0
            g = u if W1 else u // W
            mg = learned[g]
            if mg is None:
                mg = learn(g)
                stop -= _LEARN
            SO, SL, PW = mg
            expanded += Ld.bit_count()
            # the word's layouts: (pair, its two monominoes i < j)
            if B16:
                pairs = lo8[Ld & 255] + hi8[Ld >> 8]
            else:
                bt = bytes_of[u - g * W]
                pairs = bt[0][Ld & 255] + bt[1][(Ld >> 8) & 255] + bt[2][(Ld >> 16) & 255] + bt[3][Ld >> 24]
            NB = 0
            for p, i, j in pairs:
                NB |= SO[p]
                # slides into either empty cell, moves that need both
                for x, t in SL[i]:
                    c = t[j] & ~seen[x]
                    if c:
                        seen[x] |= c
                        tb[x] |= c
                        then.append(x)
                for x, t in SL[j]:
                    c = t[i] & ~seen[x]
                    if c:
                        seen[x] |= c
                        tb[x] |= c
                        then.append(x)
                for x, c in PW[p]:
                    c &= ~seen[x]
                    if c:
                        seen[x] |= c
                        tb[x] |= c
                        then.append(x)
            # the soldier moves' targets in this geometry, all at once
            x = g * W
            while NB:
                c = NB & full & ~seen[x]
                if c:
                    seen[x] |= c
                    tb[x] |= c
                    then.append(x)
                NB >>= B
                x += 1
        # layer finished: its marks into the table's planes, the next one
        if not _close_layer(search, mv):
            _counts(search, mv, expanded)
            return True
        now, then, now_bits, tb = mv.now, mv.then, mv.now_bits, mv.then_bits
        at = 0


def _pending(search, mv):
    """(found, reached) of the next layer's layouts marked so far."""
    W = search.words_per
    mir = mv.mirror
    tb = mv.then_bits
    found = reached = 0
    for x in set(mv.then):
        k = tb[x].bit_count()
        g = x // W
        found += k
        reached += k if mir[g] == g else k + k
    return found, reached


def _close_layer(search, mv):
    """The next layer's layouts into the table's planes (1 + distance % 3),
    ``reached`` and the counters; it becomes the layer the search expands
    (its words once each, in rank order).  False: it has none, the table is
    complete."""
    if not mv.then:
        return False
    T = search.table
    U = search.units
    cn = search.counters
    depth = cn[_DEPTH]
    n3 = 1 + (depth + 1) % 3
    tb = mv.then_bits
    then = sorted(set(mv.then))
    for x in then:
        c = tb[x]
        if n3 & 1:
            T[x] |= c
        if n3 & 2:
            T[U + x] |= c
    mv.then = then
    mv.reached += _pending(search, mv)[1]
    cn[_DEPTH] = depth + 1
    mv.now, mv.then = then, mv.now
    mv.now_bits, mv.then_bits = tb, mv.now_bits
    mv.then.clear()
    mv.at = 0
    return True


def _counts(search, mv, expanded):
    """The counters a call leaves (``klotski_loop._pause``): the layouts
    marked in this layer so far count as reached."""
    found, more = _pending(search, mv)
    cn = search.counters
    cn[_SCAN] = 0
    cn[_FOUND] = found
    cn[_REACHED] = mv.reached + more
    cn[_EXPANDED] = expanded
