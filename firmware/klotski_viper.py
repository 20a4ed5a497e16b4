"""The Klotski solver's layered search and its walk as ``@micropython.viper``
kernels.

Why a module of its own: a MicroPython port without the native emitters (the
WebAssembly VMs, CircuitPython) refuses ``@micropython.viper`` at compile time,
so ``klotski`` imports this module inside ``try`` and keeps its plain-Python
loop (``Solver.step``) as the twin when the import fails.  On CPython the
decorator and the pointer casts are identity functions, so the same source
runs as Python there (the tests compare its tables with the twin's); on a
Pico ``mpy-cross -march=armv6m`` (or the device's own compiler) makes it
machine code.

Viper dialect kept by the source: locals typed by their first assignment, no
chained comparisons, no bool arithmetic, pointer reads of arrays whose items
are non-negative or sign-fixed (``ptr8``/``ptr16`` reads are unsigned,
``ptr32`` reads zero-extend on 64-bit hosts: the fixes keep the source
testable on the unix port),
every value below 2**31 (machine words wrap, Python ints do not).

``search(solver, budget)`` is ``Solver.step``'s search loop for tables of one
word per geometry (``wper == 1``; 16-bit words ``search16``, 30-bit words
``search32``, 6 soldiers): the state it resumes from and leaves is ``solver._kst`` =
[scan or walk depth, found, reached, expanded, depth, spare]; it returns 1 when the
search has finished (a layer found nothing), else 0 (budget spent).
``walk(solver, budget)`` is ``Solver._walk`` for the same tables.
"""

import sys

if sys.implementation.name == "micropython":
    import micropython
    from micropython import const
else:   # CPython runs the kernel as plain Python
    from viper_on_cpython import const, micropython, ptr8, ptr16, ptr32  # noqa: F401

_COL01 = const(0x33333)
_COL23 = const(0xCCCCC)
_FULL20 = const(0xFFFFF)
# the module's small tables in one bytearray, each item + 16 (pointer reads
# are unsigned; see klotski: _S_*, _DIRS, _B_*): offsets of each below
_K = bytearray(x + 16 for x in (
    1, -2, 4, -8,                  # 0: slide, anchor - x
    2, -2, 8, -8,                  # 4: slide, vacated cell - x
    8, 10, 4, 6,                   # 8: slide, move type
    -1, 1, -4, 4,                  # 12: cell step of direction k
    0, 3, 9, 9,                    # 16: column a two-cell slide may not start from
    14, 12, 22, 20, 2, 0, 18, 16,  # 20: broadside, move type
    -4, 4, -8, 4, -1, 1, -2, 1,    # 28: broadside, anchor - e
    -4, 4, -8, 8, -1, 1, -2, 2,    # 36: broadside, vacated cell 1 - e
    -3, 5, -7, 9, 3, 5, 2, 6))     # 44: broadside, vacated cell 2 - e
_P5 = bytearray((1, 5, 25, 125))
_K_SAOF = const(0)
_K_SVOF = const(4)
_K_SMT = const(8)
_K_DIR = const(12)
_K_NOCOL = const(16)
_K_BMT = const(20)
_K_BAOF = const(28)
_K_BV1 = const(36)
_K_BV2 = const(44)


@micropython.viper
def search16(s, budget: int) -> int:
    """The layered search over 16-bit table words (see the module notes and
    ``klotski.Solver.step``, whose loop this is line for line)."""
    KS = ptr32(s._kst)
    T = ptr16(s.table)
    FR = ptr16(s.fr)
    ACT = ptr8(s.act)
    ASUM = ptr8(s.asum)
    U = int(s.units)
    nact = int(len(s.act))
    fw0 = int(s.fullw[0])
    fullword = 0xFFFF
    mir = ptr16(s.mir)
    lsb = ptr8(s.lsb)
    pop = ptr8(s.pop)
    low = ptr32(s.low)
    mlow = ptr32(s.mlow)
    nbm = ptr32(s.nbm)
    pi = ptr8(s.pi)
    pj = ptr8(s.pj)
    pidx = ptr8(s.pidx)
    m = int(s.m)
    ent = ptr32(s.ent)
    base = ptr32(s.base)
    lpi = ptr8(s.lpi)
    words = ptr16(s.words)
    wstart = ptr16(s.wstart)
    nodemask = ptr8(s.nodemask)
    ncnt = ptr16(s.ncnt)
    nlo = ptr8(s.nlo)
    nhi = ptr8(s.nhi)
    o2s = ptr16(s.o2s)
    obase = ptr16(s.obase)
    pk = ptr16(s.pk)
    mro = ptr8(s.mro)
    mco = ptr8(s.mco)
    mvn = ptr8(s.mvn)
    mpat = ptr16(s.mpat)
    brw = ptr16(s.brw)
    bpn = ptr16(s.bpn)
    bcum = ptr16(s.bcum)
    bchi = ptr16(s.bchi)
    bmc = ptr8(s.bmc)
    K = ptr8(_K)
    P5 = ptr8(_P5)
    si = KS[0]
    found = KS[1]
    reached = KS[2]
    expanded = KS[3]
    depth = KS[4]
    d3 = 1 + depth % 3
    n3 = 1 + (depth + 1) % 3
    k0 = 0
    if d3 & 1:
        k0 = fullword
    k1 = 0
    if d3 & 2:
        k1 = fullword
    lo3 = n3 & 1
    hi3 = n3 & 2
    # decoded geometry (rebuilt from row 0 on the first visit of this call)
    for r in range(1, 6):
        bchi[r] = 0
    cg = -1
    MM = 0
    VT = 0
    HL = 0
    ba = 99
    S0 = 0
    S1 = 0
    S2 = 0
    S3 = 0
    SL = 0
    gsym = 0
    s2 = 0
    sv = 0
    av = 0
    b = 0
    u = 0
    F = 0
    Ld = 0
    g = 0
    r = 0
    z = 0
    k = 0
    n = 0
    x = 0
    b0 = 0
    lo = 0
    hi = 0
    mid = 0
    o = 0
    w = 0
    v = 0
    sh = 0
    nb = 0
    NB = 0
    L = 0
    pr = 0
    t = 0
    i = 0
    j = 0
    e = 0
    eo = 0
    xs = 0
    ya = 0
    yb = 0
    srcs = 0
    c = 0
    q = 0
    y = 0
    a = 0
    v1 = 0
    v2 = 0
    mt = 0
    nr = 0
    g2 = 0
    gm = 0
    gt = 0
    ml = 0
    ym = low
    while True:
        while si < nact:
            if budget <= 0:
                KS[0] = si
                KS[1] = found
                KS[2] = reached
                KS[3] = expanded
                return 0
            budget -= 2
            s2 = si >> 3
            sv = ASUM[s2] >> (si & 7)
            if sv == 0:
                si = (s2 + 1) << 3
                continue
            si += lsb[sv]
            av = ACT[si]
            while av:
                if budget <= 0:
                    KS[0] = si
                    KS[1] = found
                    KS[2] = reached
                    KS[3] = expanded
                    return 0
                b = lsb[av]
                av &= av - 1
                u = (si << 3) | b
                F = FR[u]
                Ld = F & ~((T[u] ^ k0) | (T[U + u] ^ k1))
                if Ld == 0:
                    budget -= 1
                    continue
                FR[u] = F ^ Ld
                g = u
                pr = 0
                if g != cg:
                    # ---- decode g: rows below the DAG prefix shared with cg
                    budget -= 64
                    r = 1
                    while r < 5 and bcum[r] <= g and g < bchi[r]:
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
                        b0 = (((base[n] + 0x100000) & 0x3FFFFF) - 0x100000)
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
                    gsym = 0
                    if mir[g] == g:
                        gsym = 1
                    # cells a V or H can slide into along its length, by direction
                    S0 = (HL >> 1) & _COL01
                    S1 = (HL << 2) & _COL23
                    S2 = VT >> 4
                    S3 = (VT << 8) & _FULL20
                    SL = S0 | S1 | S2 | S3
                NB = 0
                L = Ld
                while L:
                    if (L & 255) == 0:
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
                    eo = 0
                    if o - e == 4 or (o - e == 1 and (e & 3) != 3):
                        eo = 1
                    # soldier moves (see klotski.Solver.step)
                    xs = nbm[e] & MM & ~(1 << o)
                    ya = j
                    yb = i
                    while True:
                        while xs:
                            z = xs & -xs
                            xs ^= z
                            z = MM & (z - 1)
                            k = (pop[z & 1023] + pop[z >> 10]) * m
                            NB |= 1 << pidx[k + ya]
                            if eo:
                                NB |= 1 << pidx[k + yb]
                        if ya == i:
                            break
                        xs = nbm[o] & MM & ~(1 << e)
                        ya = i
                        yb = j
                    # big-piece moves: slides into e (bits 0-3) or o (4-7) by
                    # direction, broadside moves into both (8-15), slides on
                    # through the other empty cell (16-23, added as found)
                    srcs = 0
                    if (SL >> e) & 1:
                        srcs = ((S0 >> e) & 1) | (((S1 >> e) & 1) << 1) | (((S2 >> e) & 1) << 2) | (((S3 >> e) & 1) << 3)
                    if (SL >> o) & 1:
                        srcs |= (((S0 >> o) & 1) << 4) | (((S1 >> o) & 1) << 5) | (((S2 >> o) & 1) << 6) | (((S3 >> o) & 1) << 7)
                    if eo:
                        c = e & 3
                        if o == e + 1:
                            if e >= 4:
                                srcs |= ((HL >> (e - 4)) & 1) << 8
                            srcs |= ((HL >> (e + 4)) & 1) << 9
                            if ba == e - 8:
                                srcs |= 1024
                            if ba == e + 4:
                                srcs |= 2048
                        else:
                            if c:
                                srcs |= ((VT >> (e - 1)) & 1) << 12
                            if c < 3:
                                srcs |= ((VT >> (e + 1)) & 1) << 13
                            if c >= 2 and ba == e - 2:
                                srcs |= 16384
                            if c <= 1 and ba == e + 1:
                                srcs |= 32768
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
                            a = x + (K[_K_SAOF + k] - 16)
                            v1 = x + (K[_K_SVOF + k] - 16)
                            mt = (K[_K_SMT + k] - 16)
                            if q >= 16:
                                # on through the other empty cell: both piece cells freed
                                mt += 1
                                v2 = x + ((K[_K_SVOF + k] - 16) >> 1)
                                z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << x) ^ (1 << y)
                            else:
                                v2 = y
                                z = MM ^ (1 << v1) ^ (1 << x)
                                if y == x + (K[_K_DIR + k] - 16) and (x & 3) != (K[_K_NOCOL + k] - 16):
                                    srcs |= 1 << (q + 16)
                        else:
                            q -= 8
                            mt = (K[_K_BMT + q] - 16)
                            a = e + (K[_K_BAOF + q] - 16)
                            v1 = e + (K[_K_BV1 + q] - 16)
                            v2 = e + (K[_K_BV2 + q] - 16)
                            z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << e) ^ (1 << o)
                        # re-rank the rows the move touches
                        r = (a >> 2) + mro[mt] - 2
                        nr = mvn[mt]
                        c = P5[(a & 3) + mco[mt] - 2]
                        q = mt << 2
                        n = bpn[r]
                        x = ent[(((base[n] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r] + (((mpat[q] + 1024) & 0xFFFF) - 1024) * c]]
                        g2 = cg + bcum[r] - bcum[r + nr] + (x >> 10)
                        if nr > 1:
                            x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 1] + (((mpat[q + 1] + 1024) & 0xFFFF) - 1024) * c]]
                            g2 += x >> 10
                            if nr > 2:
                                x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 2] + (((mpat[q + 2] + 1024) & 0xFFFF) - 1024) * c]]
                                g2 += x >> 10
                                if nr > 3:
                                    x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 3] + (((mpat[q + 3] + 1024) & 0xFFFF) - 1024) * c]]
                                    g2 += x >> 10
                        # the stored copy: this geometry or its mirror image
                        gm = mir[g2]
                        if g2 <= gm:
                            gt = g2
                            ym = low
                            ml = 0
                        else:
                            gt = gm
                            ym = mlow
                            ml = 1
                        if (T[gt] | T[U + gt]) == fw0:
                            continue                  # all its layouts are reached
                        while True:
                            x = z & ym[v1]
                            c = z & ym[v2]
                            q = pidx[(pop[x & 1023] + pop[x >> 10]) * m + pop[c & 1023] + pop[c >> 10]]
                            c = 1 << q
                            if ((T[gt] | T[U + gt]) & c) == 0:
                                if lo3:
                                    T[gt] |= c
                                if hi3:
                                    T[U + gt] |= c
                                FR[gt] |= c
                                ACT[gt >> 3] |= 1 << (gt & 7)
                                ASUM[gt >> 6] |= 1 << ((gt >> 3) & 7)
                                found += 1
                                if g2 == gm:
                                    reached += 1
                                else:
                                    reached += 2
                                budget -= 16
                            if g2 != gm or ml:
                                break
                            ym = mlow
                            ml = 1
                    pr += 1
                # the soldier moves' targets in this geometry, all at once
                NB &= ~(T[cg] | T[U + cg])
                if NB:
                    if lo3:
                        T[cg] |= NB
                    if hi3:
                        T[U + cg] |= NB
                    FR[cg] |= NB
                    ACT[cg >> 3] |= 1 << (cg & 7)
                    ASUM[cg >> 6] |= 1 << ((cg >> 3) & 7)
                    c = pop[NB & 1023] + pop[(NB >> 10) & 1023]
                    found += c
                    if gsym:
                        reached += c
                    else:
                        reached += c + c
                    budget -= c << 4
                if FR[u] == 0:
                    ACT[si] &= ~(1 << b)
            if ACT[si] == 0:
                ASUM[s2] &= ~(1 << (si & 7))
            si += 1
        # layer finished
        if found == 0:
            KS[0] = 0
            KS[1] = 0
            KS[2] = reached
            KS[3] = expanded
            return 1
        depth += 1
        KS[4] = depth
        d3 = n3
        n3 = 1 + (depth + 1) % 3
        k0 = 0
        if d3 & 1:
            k0 = fullword
        k1 = 0
        if d3 & 2:
            k1 = fullword
        lo3 = n3 & 1
        hi3 = n3 & 2
        si = 0
        found = 0


@micropython.viper
def search32(s, budget: int) -> int:
    """``search16`` for 30-bit table words (5 or more soldiers): the same
    loop with 32-bit pointers to the table and the frontier."""
    KS = ptr32(s._kst)
    T = ptr32(s.table)
    FR = ptr32(s.fr)
    ACT = ptr8(s.act)
    ASUM = ptr8(s.asum)
    U = int(s.units)
    nact = int(len(s.act))
    fw0 = int(s.fullw[0])
    fullword = 0x3FFFFFFF
    mir = ptr16(s.mir)
    lsb = ptr8(s.lsb)
    pop = ptr8(s.pop)
    low = ptr32(s.low)
    mlow = ptr32(s.mlow)
    nbm = ptr32(s.nbm)
    pi = ptr8(s.pi)
    pj = ptr8(s.pj)
    pidx = ptr8(s.pidx)
    m = int(s.m)
    ent = ptr32(s.ent)
    base = ptr32(s.base)
    lpi = ptr8(s.lpi)
    words = ptr16(s.words)
    wstart = ptr16(s.wstart)
    nodemask = ptr8(s.nodemask)
    ncnt = ptr16(s.ncnt)
    nlo = ptr8(s.nlo)
    nhi = ptr8(s.nhi)
    o2s = ptr16(s.o2s)
    obase = ptr16(s.obase)
    pk = ptr16(s.pk)
    mro = ptr8(s.mro)
    mco = ptr8(s.mco)
    mvn = ptr8(s.mvn)
    mpat = ptr16(s.mpat)
    brw = ptr16(s.brw)
    bpn = ptr16(s.bpn)
    bcum = ptr16(s.bcum)
    bchi = ptr16(s.bchi)
    bmc = ptr8(s.bmc)
    K = ptr8(_K)
    P5 = ptr8(_P5)
    si = KS[0]
    found = KS[1]
    reached = KS[2]
    expanded = KS[3]
    depth = KS[4]
    d3 = 1 + depth % 3
    n3 = 1 + (depth + 1) % 3
    k0 = 0
    if d3 & 1:
        k0 = fullword
    k1 = 0
    if d3 & 2:
        k1 = fullword
    lo3 = n3 & 1
    hi3 = n3 & 2
    # decoded geometry (rebuilt from row 0 on the first visit of this call)
    for r in range(1, 6):
        bchi[r] = 0
    cg = -1
    MM = 0
    VT = 0
    HL = 0
    ba = 99
    S0 = 0
    S1 = 0
    S2 = 0
    S3 = 0
    SL = 0
    gsym = 0
    s2 = 0
    sv = 0
    av = 0
    b = 0
    u = 0
    F = 0
    Ld = 0
    g = 0
    r = 0
    z = 0
    k = 0
    n = 0
    x = 0
    b0 = 0
    lo = 0
    hi = 0
    mid = 0
    o = 0
    w = 0
    v = 0
    sh = 0
    nb = 0
    NB = 0
    L = 0
    pr = 0
    t = 0
    i = 0
    j = 0
    e = 0
    eo = 0
    xs = 0
    ya = 0
    yb = 0
    srcs = 0
    c = 0
    q = 0
    y = 0
    a = 0
    v1 = 0
    v2 = 0
    mt = 0
    nr = 0
    g2 = 0
    gm = 0
    gt = 0
    ml = 0
    ym = low
    while True:
        while si < nact:
            if budget <= 0:
                KS[0] = si
                KS[1] = found
                KS[2] = reached
                KS[3] = expanded
                return 0
            budget -= 2
            s2 = si >> 3
            sv = ASUM[s2] >> (si & 7)
            if sv == 0:
                si = (s2 + 1) << 3
                continue
            si += lsb[sv]
            av = ACT[si]
            while av:
                if budget <= 0:
                    KS[0] = si
                    KS[1] = found
                    KS[2] = reached
                    KS[3] = expanded
                    return 0
                b = lsb[av]
                av &= av - 1
                u = (si << 3) | b
                F = FR[u]
                Ld = F & ~((T[u] ^ k0) | (T[U + u] ^ k1))
                if Ld == 0:
                    budget -= 1
                    continue
                FR[u] = F ^ Ld
                g = u
                pr = 0
                if g != cg:
                    # ---- decode g: rows below the DAG prefix shared with cg
                    budget -= 64
                    r = 1
                    while r < 5 and bcum[r] <= g and g < bchi[r]:
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
                        b0 = (((base[n] + 0x100000) & 0x3FFFFF) - 0x100000)
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
                    gsym = 0
                    if mir[g] == g:
                        gsym = 1
                    # cells a V or H can slide into along its length, by direction
                    S0 = (HL >> 1) & _COL01
                    S1 = (HL << 2) & _COL23
                    S2 = VT >> 4
                    S3 = (VT << 8) & _FULL20
                    SL = S0 | S1 | S2 | S3
                NB = 0
                L = Ld
                while L:
                    if (L & 255) == 0:
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
                    eo = 0
                    if o - e == 4 or (o - e == 1 and (e & 3) != 3):
                        eo = 1
                    # soldier moves (see klotski.Solver.step)
                    xs = nbm[e] & MM & ~(1 << o)
                    ya = j
                    yb = i
                    while True:
                        while xs:
                            z = xs & -xs
                            xs ^= z
                            z = MM & (z - 1)
                            k = (pop[z & 1023] + pop[z >> 10]) * m
                            NB |= 1 << pidx[k + ya]
                            if eo:
                                NB |= 1 << pidx[k + yb]
                        if ya == i:
                            break
                        xs = nbm[o] & MM & ~(1 << e)
                        ya = i
                        yb = j
                    # big-piece moves: slides into e (bits 0-3) or o (4-7) by
                    # direction, broadside moves into both (8-15), slides on
                    # through the other empty cell (16-23, added as found)
                    srcs = 0
                    if (SL >> e) & 1:
                        srcs = ((S0 >> e) & 1) | (((S1 >> e) & 1) << 1) | (((S2 >> e) & 1) << 2) | (((S3 >> e) & 1) << 3)
                    if (SL >> o) & 1:
                        srcs |= (((S0 >> o) & 1) << 4) | (((S1 >> o) & 1) << 5) | (((S2 >> o) & 1) << 6) | (((S3 >> o) & 1) << 7)
                    if eo:
                        c = e & 3
                        if o == e + 1:
                            if e >= 4:
                                srcs |= ((HL >> (e - 4)) & 1) << 8
                            srcs |= ((HL >> (e + 4)) & 1) << 9
                            if ba == e - 8:
                                srcs |= 1024
                            if ba == e + 4:
                                srcs |= 2048
                        else:
                            if c:
                                srcs |= ((VT >> (e - 1)) & 1) << 12
                            if c < 3:
                                srcs |= ((VT >> (e + 1)) & 1) << 13
                            if c >= 2 and ba == e - 2:
                                srcs |= 16384
                            if c <= 1 and ba == e + 1:
                                srcs |= 32768
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
                            a = x + (K[_K_SAOF + k] - 16)
                            v1 = x + (K[_K_SVOF + k] - 16)
                            mt = (K[_K_SMT + k] - 16)
                            if q >= 16:
                                # on through the other empty cell: both piece cells freed
                                mt += 1
                                v2 = x + ((K[_K_SVOF + k] - 16) >> 1)
                                z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << x) ^ (1 << y)
                            else:
                                v2 = y
                                z = MM ^ (1 << v1) ^ (1 << x)
                                if y == x + (K[_K_DIR + k] - 16) and (x & 3) != (K[_K_NOCOL + k] - 16):
                                    srcs |= 1 << (q + 16)
                        else:
                            q -= 8
                            mt = (K[_K_BMT + q] - 16)
                            a = e + (K[_K_BAOF + q] - 16)
                            v1 = e + (K[_K_BV1 + q] - 16)
                            v2 = e + (K[_K_BV2 + q] - 16)
                            z = MM ^ (1 << v1) ^ (1 << v2) ^ (1 << e) ^ (1 << o)
                        # re-rank the rows the move touches
                        r = (a >> 2) + mro[mt] - 2
                        nr = mvn[mt]
                        c = P5[(a & 3) + mco[mt] - 2]
                        q = mt << 2
                        n = bpn[r]
                        x = ent[(((base[n] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r] + (((mpat[q] + 1024) & 0xFFFF) - 1024) * c]]
                        g2 = cg + bcum[r] - bcum[r + nr] + (x >> 10)
                        if nr > 1:
                            x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 1] + (((mpat[q + 1] + 1024) & 0xFFFF) - 1024) * c]]
                            g2 += x >> 10
                            if nr > 2:
                                x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 2] + (((mpat[q + 2] + 1024) & 0xFFFF) - 1024) * c]]
                                g2 += x >> 10
                                if nr > 3:
                                    x = ent[(((base[x & 1023] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[brw[r + 3] + (((mpat[q + 3] + 1024) & 0xFFFF) - 1024) * c]]
                                    g2 += x >> 10
                        # the stored copy: this geometry or its mirror image
                        gm = mir[g2]
                        if g2 <= gm:
                            gt = g2
                            ym = low
                            ml = 0
                        else:
                            gt = gm
                            ym = mlow
                            ml = 1
                        if (T[gt] | T[U + gt]) == fw0:
                            continue                  # all its layouts are reached
                        while True:
                            x = z & ym[v1]
                            c = z & ym[v2]
                            q = pidx[(pop[x & 1023] + pop[x >> 10]) * m + pop[c & 1023] + pop[c >> 10]]
                            c = 1 << q
                            if ((T[gt] | T[U + gt]) & c) == 0:
                                if lo3:
                                    T[gt] |= c
                                if hi3:
                                    T[U + gt] |= c
                                FR[gt] |= c
                                ACT[gt >> 3] |= 1 << (gt & 7)
                                ASUM[gt >> 6] |= 1 << ((gt >> 3) & 7)
                                found += 1
                                if g2 == gm:
                                    reached += 1
                                else:
                                    reached += 2
                                budget -= 16
                            if g2 != gm or ml:
                                break
                            ym = mlow
                            ml = 1
                    pr += 1
                # the soldier moves' targets in this geometry, all at once
                NB &= ~(T[cg] | T[U + cg])
                if NB:
                    if lo3:
                        T[cg] |= NB
                    if hi3:
                        T[U + cg] |= NB
                    FR[cg] |= NB
                    ACT[cg >> 3] |= 1 << (cg & 7)
                    ASUM[cg >> 6] |= 1 << ((cg >> 3) & 7)
                    c = pop[NB & 1023] + pop[(NB >> 10) & 1023] + pop[NB >> 20]
                    found += c
                    if gsym:
                        reached += c
                    else:
                        reached += c + c
                    budget -= c << 4
                if FR[u] == 0:
                    ACT[si] &= ~(1 << b)
            if ACT[si] == 0:
                ASUM[s2] &= ~(1 << (si & 7))
            si += 1
        # layer finished
        if found == 0:
            KS[0] = 0
            KS[1] = 0
            KS[2] = reached
            KS[3] = expanded
            return 1
        depth += 1
        KS[4] = depth
        d3 = n3
        n3 = 1 + (depth + 1) % 3
        k0 = 0
        if d3 & 1:
            k0 = fullword
        k1 = 0
        if d3 & 2:
            k1 = fullword
        lo3 = n3 & 1
        hi3 = n3 & 2
        si = 0
        found = 0


@micropython.viper
def walk(s, budget: int) -> int:
    """``Solver._walk`` (mirror ranks, goal geometries) for one-word tables:
    resumes from the depth ``solver._kst[0]`` (-1 there when finished), adds
    the goal layouts to ``_kst[2]`` and marks their geometries in the
    frontier bitmaps; the caller fills their table words.  Returns the budget
    left."""
    KS = ptr32(s._kst)
    ent = ptr32(s.ent)
    base = ptr32(s.base)
    words = ptr16(s.words)
    wstart = ptr16(s.wstart)
    nodemask = ptr8(s.nodemask)
    lpi = ptr8(s.lpi)
    nlo = ptr8(s.nlo)
    nhi = ptr8(s.nhi)
    mwg = ptr16(s.mwg)
    mir = ptr16(s.mir)
    wn = ptr16(s._wn)
    ws = ptr16(s._ws)
    wo = ptr16(s._wo)
    wmn = ptr16(s._wmn)
    wmo = ptr16(s._wmo)
    ACT = ptr8(s.act)
    ASUM = ptr8(s.asum)
    P = int(s.pairs)
    r = KS[0]
    reached = KS[2]
    n = 0
    t = 0
    b = 0
    e = 0
    nxt = 0
    gi = 0
    w = 0
    me = 0
    o = 0
    mo = 0
    goal = 0
    b4 = 0
    bm = 0
    w0 = 0
    g = 0
    gm = 0
    while r >= 0:
        if budget <= 0:
            break
        budget -= 2
        n = wn[r]
        t = ws[r]
        b = ((base[n] + 0x100000) & 0x3FFFFF) - 0x100000
        if t > b + nhi[n]:
            r -= 1
            continue
        ws[r] = t + 1
        e = ent[t]
        nxt = e & 1023
        if nxt == 1023:
            continue
        budget -= 10
        gi = wstart[nodemask[n]] + t - b
        w = words[gi]
        me = ent[(((base[wmn[r]] + 0x100000) & 0x3FFFFF) - 0x100000) + lpi[mwg[gi]]]
        o = wo[r] + (e >> 10)
        mo = wmo[r] + (me >> 10)
        if r < 3:
            r += 1
            wn[r] = nxt
            ws[r] = (((base[nxt] + 0x100000) & 0x3FFFFF) - 0x100000) + nlo[nxt]
            wo[r] = o
            wmn[r] = me & 1023
            wmo[r] = mo
            continue
        # row 4: each used slot of the next node ends one geometry
        goal = 0
        if (w // 5) % 5 == 4:            # the block's top-left cell is GOAL_CELL
            goal = 1
        b4 = ((base[nxt] + 0x100000) & 0x3FFFFF) - 0x100000
        bm = ((base[me & 1023] + 0x100000) & 0x3FFFFF) - 0x100000
        w0 = wstart[nodemask[nxt]] - b4
        for t in range(b4 + nlo[nxt], b4 + nhi[nxt] + 1):
            e = ent[t]
            if (e & 1023) == 1023:
                continue
            g = o + (e >> 10)
            gm = mo + (ent[bm + lpi[mwg[w0 + t]]] >> 10)
            mir[g] = gm
            budget -= 4
            if goal and g <= gm:
                ACT[g >> 3] |= 1 << (g & 7)
                ASUM[g >> 6] |= 1 << ((g >> 3) & 7)
                if g == gm:
                    reached += P
                else:
                    reached += P + P
                budget -= P
    KS[0] = r
    KS[2] = reached
    return budget
