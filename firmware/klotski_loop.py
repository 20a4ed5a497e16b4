"""The Klotski search's plain-Python loop: ``walk`` and ``expand`` over a
``klotski.Search`` (its constructor declares every field), for where there is no
viper kernel (the WebAssembly VMs, CircuitPython, and piece sets of several
table words per geometry; CPython runs ``klotski_cpython``, which imports
this module's move tables).  A module of its own so that a Pico,
which runs ``klotski_viper`` instead, never loads its ~4 KB of bytecode:
``klotski.Solver`` imports it only for a search without a kernel, and the
table build's heap peaks during the search."""

from klotski_common import _DIRS, _POW5

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# search tables: per move direction k of a piece sliding along its long axis
# into an empty cell x: anchor - x, vacated cell - x (half of it: the second
# vacated cell of a two-cell slide), move type (``klotski_setup._build_moves``), and
# the column a two-cell slide may not start from (it would leave the row)
_S_AOF = (1, -2, 4, -8)
_S_VOF = (2, -2, 8, -8)
_S_MT = (8, 10, 4, 6)
_S_NOCOL = (0, 3, 9, 9)
# broadside moves into a pair of side-by-side empties e < o: q 0-3 for o == e+1
# (H above/below, B above/below), 4-7 for o == e+4 (V left/right, B
# left/right): move type, anchor - e, vacated cells - e
_B_MT = (14, 12, 22, 20, 2, 0, 18, 16)
_B_AOF = (-4, 4, -8, 4, -1, 1, -2, 1)
_B_V1 = (-4, 4, -8, 8, -1, 1, -2, 2)
_B_V2 = (-3, 5, -7, 9, 3, 5, 2, 6)
_FULL20 = const(0xFFFFF)
_COL01 = const(0x33333)
_COL23 = const(0xCCCCC)
# Search.counters: what each item holds (the same numbers as klotski's)
_SCAN = const(0)
_FOUND = const(1)
_REACHED = const(2)
_EXPANDED = const(3)
_DEPTH = const(4)
_WALK_ROW = const(5)


def walk(search, budget):
    """Depth-first walk over the geometries in rank order (resumable): their
    mirror images' ranks and the seeds, every stored layout of a goal geometry
    (the block on GOAL_CELL).  The budget left; counters[_WALK_ROW] -1: done."""
    ent = search.entries
    base = search.node_base
    words = search.words
    wstart = search.mask_start
    nodemask = search.node_mask
    lpi = search.slot
    nlo = search.node_first
    nhi = search.node_last
    mwg = search.word_mirror
    mir = search.mirror
    wn = search.walk_node
    ws = search.walk_slot
    wo = search.walk_rank
    wmn = search.walk_mirror_node
    wmo = search.walk_mirror_rank
    T = search.table
    FR = search.frontier
    ACT = search.active
    ASUM = search.summary
    fullw = search.full_words
    W = search.words_per
    P = search.pairs
    reached = search.counters[_REACHED]
    r = search.counters[_WALK_ROW]
    while r >= 0 and budget > 0:
        budget -= 2
        n = wn[r]
        s = ws[r]
        if s > base[n] + nhi[n]:
            r -= 1
            continue
        ws[r] = s + 1
        e = ent[s]
        nxt = e & 1023
        if nxt == 1023:
            continue
        budget -= 10
        gi = wstart[nodemask[n]] + s - base[n]
        w = words[gi]
        me = ent[base[wmn[r]] + lpi[mwg[gi]]]
        o = wo[r] + (e >> 10)
        mo = wmo[r] + (me >> 10)
        if r < 3:
            r += 1
            wn[r] = nxt
            ws[r] = base[nxt] + nlo[nxt]
            wo[r] = o
            wmn[r] = me & 1023
            wmo[r] = mo
            continue
        # row 4: each used slot of the next node ends one geometry
        goal = w // 5 % 5 == 4        # the block's top-left cell is GOAL_CELL
        b4 = base[nxt]
        bm = base[me & 1023]
        w0 = wstart[nodemask[nxt]] - b4
        for s in range(b4 + nlo[nxt], b4 + nhi[nxt] + 1):
            e = ent[s]
            if e & 1023 == 1023:
                continue
            g = o + (e >> 10)
            gm = mo + (ent[bm + lpi[mwg[w0 + s]]] >> 10)
            mir[g] = gm
            budget -= 4
            if goal and g <= gm:
                u = g * W
                for q in range(W):
                    T[u] = fullw[q]
                    FR[u] = fullw[q]
                    ACT[u >> 3] |= 1 << (u & 7)
                    ASUM[u >> 6] |= 1 << ((u >> 3) & 7)
                    u += 1
                reached += P if g == gm else P + P
                budget -= P
    search.counters[_REACHED] = reached
    search.counters[_WALK_ROW] = r
    return budget


def expand(search, budget):
    """The layered search in plain Python (CPython, the VMs, CircuitPython;
    MicroPython on the Pico runs the viper kernel): expand frontier words
    until ``budget`` units are spent (False) or the table is complete
    (True: a layer found nothing).

    One long function on purpose: the geometry decode, the soldier moves,
    the big-piece moves with their re-rank and the table update read ~80
    locals, which MicroPython keeps in fast slots only inside one
    function.  Moving the geometry decode alone into a method (its four
    scalars handed back through search) cost +8.2 % fuel on 横刀立马's full
    table in the VM (3.222e9 -> 3.486e9, measured 2026-11-25); the move
    kinds would be calls per expanded layout, far more often."""
    T = search.table
    FR = search.frontier
    ACT = search.active
    ASUM = search.summary
    U = search.units
    W = search.words_per
    W1 = W == 1
    fw0 = search.full_words[0]
    B = search.word_bits
    fullword = (1 << B) - 1
    nbw = search.soldier_targets
    pw = search.pair_word
    pb = search.pair_bit
    mir = search.mirror
    lsb = search.low_bit
    pop = search.popcount
    low = search.cells_below
    mlow = search.mirror_below
    nbm = search.neighbours
    pi = search.pair_low
    pj = search.pair_high
    pidx = search.pair_of
    m = search.monos
    ent = search.entries
    base = search.node_base
    lpi = search.slot
    words = search.words
    wstart = search.mask_start
    nodemask = search.node_mask
    ncnt = search.node_count
    nlo = search.node_first
    nhi = search.node_last
    o2s = search.offset_slot
    obase = search.offset_base
    pk = search.word_pieces
    mro = search.move_row
    mco = search.move_col
    mvn = search.move_rows
    mpat = search.move_delta
    p5 = _POW5
    brw = search.rows
    bpn = search.path
    bcum = search.path_rank
    bchi = search.path_end
    bmc = search.mono_cell
    s_aof = _S_AOF
    s_vof = _S_VOF
    s_mt = _S_MT
    s_dk = _DIRS
    s_nocol = _S_NOCOL
    b_mt = _B_MT
    b_aof = _B_AOF
    b_v1 = _B_V1
    b_v2 = _B_V2
    depth = search.counters[_DEPTH]
    d3 = 1 + depth % 3
    n3 = 1 + (depth + 1) % 3
    k0 = fullword if d3 & 1 else 0
    k1 = fullword if d3 & 2 else 0
    lo3 = n3 & 1
    hi3 = n3 & 2
    nact = len(ACT)
    si = search.counters[_SCAN]
    found = search.counters[_FOUND]
    reached = search.counters[_REACHED]
    expanded = search.counters[_EXPANDED]
    # decoded geometry (rebuilt from row 0 on the first visit of this call)
    for r in range(1, 6):
        bchi[r] = 0
    cg = -1
    MM = VT = HL = 0
    ba = 99
    S0 = S1 = S2 = S3 = SL = 0
    gsym = False
    while True:
        while si < nact:
            if budget <= 0:
                return _pause(search, si, found, reached, expanded)
            budget -= 2
            s2 = si >> 3
            sv = ASUM[s2] >> (si & 7)
            if not sv:
                si = (s2 + 1) << 3
                continue
            si += lsb[sv]
            av = ACT[si]
            while av:
                if budget <= 0:
                    return _pause(search, si, found, reached, expanded)
                b = lsb[av]
                av &= av - 1
                u = (si << 3) | b
                F = FR[u]
                Ld = F & ~((T[u] ^ k0) | (T[U + u] ^ k1))
                if not Ld:
                    budget -= 1               # only next-layer layouts here
                    continue
                FR[u] = F ^ Ld
                if W1:
                    g = u
                    pr = 0
                else:
                    g = u // W
                    pr = (u - g * W) * B
                if g != cg:
                    # ---- decode g: rows below the DAG prefix shared with cg
                    budget -= 64
                    r = 1
                    while r < 5 and bcum[r] <= g < bchi[r]:
                        r += 1
                    r -= 1
                    z = (1 << (r << 2)) - 1
                    MM &= z
                    VT &= z
                    HL &= z
                    if ba >= r << 2:
                        ba = 99
                    z = MM
                    k = pop[z & 1023] + pop[z >> 10]
                    n = bpn[r]
                    x = g - bcum[r]
                    while r < 5:
                        b0 = base[n]
                        lo = obase[n]
                        if lo != 65535:
                            lo = b0 + o2s[lo + x]
                        else:
                            lo = b0 + nlo[n]
                            hi = b0 + nhi[n]
                            while lo < hi:
                                mid = (lo + hi + 1) >> 1
                                if (ent[mid] >> 10) <= x:
                                    lo = mid
                                else:
                                    hi = mid - 1
                        z = ent[lo]
                        o = z >> 10
                        x -= o
                        w = wstart[nodemask[n]] + lo - b0
                        brw[r] = words[w]
                        v = pk[w]
                        sh = r << 2
                        nb = v & 15
                        MM |= nb << sh
                        VT |= ((v >> 4) & 15) << sh
                        HL |= ((v >> 8) & 15) << sh
                        if v >> 12:
                            ba = sh + (v >> 12) - 1
                        while nb:
                            bmc[k] = sh + lsb[nb]
                            k += 1
                            nb &= nb - 1
                        n = z & 1023
                        o += bcum[r]
                        r += 1
                        bcum[r] = o
                        bpn[r] = n
                        if r < 5:
                            bchi[r] = o + ncnt[n]
                    cg = g
                    gsym = mir[g] == g
                    # cells a V or H can slide into along its length, by direction
                    S0 = (HL >> 1) & _COL01
                    S1 = (HL << 2) & _COL23
                    S2 = VT >> 4
                    S3 = (VT << 8) & _FULL20
                    SL = S0 | S1 | S2 | S3
                NB = 0
                L = Ld
                while L:
                    if not L & 255:
                        L >>= 8
                        pr += 8
                        continue
                    t = lsb[L & 255]
                    L >>= t + 1
                    pr += t
                    budget -= 64
                    expanded += 1
                    i = pi[pr]
                    j = pj[pr]
                    e = bmc[i]
                    o = bmc[j]
                    eo = o - e == 4 or (o - e == 1 and e & 3 != 3)
                    # soldier moves: a monomino next to one empty cell moves
                    # into it (and on into the other one when they touch);
                    # k: the soldier's index (monominoes before its cell);
                    # ya / yb: the other / this empty cell's index
                    xs = nbm[e] & MM & ~(1 << o)
                    ya = j
                    yb = i
                    while True:
                        while xs:
                            z = xs & -xs
                            xs ^= z
                            z = MM & (z - 1)
                            k = (pop[z & 1023] + pop[z >> 10]) * m
                            if W1:
                                NB |= 1 << pidx[k + ya]
                                if eo:
                                    NB |= 1 << pidx[k + yb]
                            else:
                                q = pidx[k + ya]
                                nbw[pw[q]] |= pb[q]
                                if eo:
                                    q = pidx[k + yb]
                                    nbw[pw[q]] |= pb[q]
                        if ya == i:
                            break
                        xs = nbm[o] & MM & ~(1 << e)
                        ya = i
                        yb = j
                    # big-piece moves: slides into e (bits 0-3) or o (4-7) by
                    # direction, broadside moves into both (8-15), slides on
                    # through the other empty cell (16-23, added as found)
                    srcs = 0
                    if SL >> e & 1:
                        srcs = (S0 >> e & 1) | (S1 >> e & 1) << 1 | (S2 >> e & 1) << 2 | (S3 >> e & 1) << 3
                    if SL >> o & 1:
                        srcs |= (S0 >> o & 1) << 4 | (S1 >> o & 1) << 5 | (S2 >> o & 1) << 6 | (S3 >> o & 1) << 7
                    if eo:
                        c = e & 3
                        if o == e + 1:
                            if e >= 4:
                                srcs |= (HL >> (e - 4) & 1) << 8
                            srcs |= (HL >> (e + 4) & 1) << 9 | (ba == e - 8) << 10 | (ba == e + 4) << 11
                        else:
                            if c:
                                srcs |= (VT >> (e - 1) & 1) << 12
                            if c < 3:
                                srcs |= (VT >> (e + 1) & 1) << 13
                            srcs |= (c >= 2 and ba == e - 2) << 14 | (c <= 1 and ba == e + 1) << 15
                    while srcs:
                        if srcs & 255:
                            q = lsb[srcs & 255]
                        elif srcs & 0xFF00:
                            q = 8 + lsb[(srcs >> 8) & 255]
                        else:
                            q = 16 + lsb[srcs >> 16]
                        srcs &= srcs - 1
                        if q < 8 or q >= 16:
                            k = q & 3
                            if q & 4:
                                x = o
                                y = e
                            else:
                                x = e
                                y = o
                            a = x + s_aof[k]
                            v1 = x + s_vof[k]
                            mt = s_mt[k]
                            if q >= 16:
                                # on through the other empty cell: both piece cells freed
                                mt += 1
                                v2 = x + (s_vof[k] >> 1)
                                z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << x) ^ (1 << y)
                            else:
                                v2 = y
                                z = MM ^ (1 << v1) ^ (1 << x)
                                if y == x + s_dk[k] and (x & 3) != s_nocol[k]:
                                    srcs |= 1 << (q + 16)
                        else:
                            q -= 8
                            mt = b_mt[q]
                            a = e + b_aof[q]
                            v1 = e + b_v1[q]
                            v2 = e + b_v2[q]
                            z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << e) ^ (1 << o)
                        # re-rank the rows the move touches
                        r = (a >> 2) + mro[mt] - 2
                        nr = mvn[mt]
                        c = p5[(a & 3) + mco[mt] - 2]
                        q = mt << 2
                        n = bpn[r]
                        x = ent[base[n] + lpi[brw[r] + mpat[q] * c]]
                        g2 = cg + bcum[r] - bcum[r + nr] + (x >> 10)
                        if nr > 1:
                            x = ent[base[x & 1023] + lpi[brw[r + 1] + mpat[q + 1] * c]]
                            g2 += x >> 10
                            if nr > 2:
                                x = ent[base[x & 1023] + lpi[brw[r + 2] + mpat[q + 2] * c]]
                                g2 += x >> 10
                                if nr > 3:
                                    x = ent[base[x & 1023] + lpi[brw[r + 3] + mpat[q + 3] * c]]
                                    g2 += x >> 10
                        # the stored copy: this geometry or its mirror image; a
                        # geometry that is its own mirror image gets both layouts
                        # (the mirror one's own predecessor is never expanded)
                        gm = mir[g2]
                        if g2 <= gm:
                            gt = g2
                            y = low
                        else:
                            gt = gm
                            y = mlow
                        if W1 and (T[gt] | T[U + gt]) == fw0:
                            continue                  # all its layouts are reached
                        while True:
                            x = z & y[v1]
                            c = z & y[v2]
                            q = pidx[(pop[x & 1023] + pop[x >> 10]) * m + pop[c & 1023] + pop[c >> 10]]
                            x = gt * W + pw[q]
                            c = pb[q]
                            if not (T[x] | T[U + x]) & c:
                                if lo3:
                                    T[x] |= c
                                if hi3:
                                    T[U + x] |= c
                                FR[x] |= c
                                ACT[x >> 3] |= 1 << (x & 7)
                                ASUM[x >> 6] |= 1 << ((x >> 3) & 7)
                                found += 1
                                reached += 1 if g2 == gm else 2
                                budget -= 16
                            if g2 != gm or y is mlow:
                                break
                            y = mlow
                    pr += 1
                # the soldier moves' targets in this geometry, all at once
                if W1:
                    nbw[0] = NB
                x = cg * W
                for q in range(W):
                    NB = nbw[q] & ~(T[x] | T[U + x])
                    nbw[q] = 0
                    if NB:
                        if lo3:
                            T[x] |= NB
                        if hi3:
                            T[U + x] |= NB
                        FR[x] |= NB
                        ACT[x >> 3] |= 1 << (x & 7)
                        ASUM[x >> 6] |= 1 << ((x >> 3) & 7)
                        c = pop[NB & 1023] + pop[(NB >> 10) & 1023] + pop[NB >> 20]
                        found += c
                        reached += c if gsym else c + c
                        budget -= c << 4
                    x += 1
                if not FR[u]:
                    ACT[si] &= ~(1 << b)
            if not ACT[si]:
                ASUM[s2] &= ~(1 << (si & 7))
            si += 1
        # layer finished
        if not found:
            _pause(search, 0, 0, reached, expanded)
            return True
        depth += 1
        search.counters[_DEPTH] = depth
        d3 = n3
        n3 = 1 + (depth + 1) % 3
        k0 = fullword if d3 & 1 else 0
        k1 = fullword if d3 & 2 else 0
        lo3 = n3 & 1
        hi3 = n3 & 2
        si = 0
        found = 0


def _pause(search, si, found, reached, expanded):
    """Keep a call's progress for the next one (a byte of the scan is
    re-read: its visited geometries have no layer-d layouts left)."""
    cn = search.counters
    cn[_SCAN] = si
    cn[_FOUND] = found
    cn[_REACHED] = reached
    cn[_EXPANDED] = expanded
    return False
