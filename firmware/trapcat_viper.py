"""``trapcat_ai.Deep.run`` for ESCAPE searches as a ``@micropython.viper``
kernel: the hint's look past ESCAPE_DEPTH (7 cat moves) needs tens of
thousands of expansions, which the bytecode search does at ~85,000 VM fuel
each (~0.56 ms on the virtual Pico); as machine code (~24 us each) they fit
the hint's second.  Every ESCAPE search of the hard cat and the hint runs
here where the kernel exists; CAPTURE searches stay in ``Deep.run``.

Why a module of its own (as ``klotski_viper``): ports without the native
emitters (the WebAssembly VMs, CircuitPython) refuse ``@micropython.viper`` at
compile time, so ``trapcat_ai`` imports this inside ``try`` and its hint then
looks no deeper than ESCAPE_DEPTH.  On CPython the decorator and the pointer
casts are identity functions and the same source runs as Python, so the
simulator and the host tournament play the device's moves; the tests compare
it with ``Deep.run`` value for value and expansion for expansion.

``escape_run(deep, limit)`` continues the search ``deep.begin(ESCAPE, ...)``
opened, on Deep's own buffers: the state it resumes from and leaves is
``deep.kst`` = [sp, expansions, mark generation, 1 when a child decided the
root]; it returns 0/1 when the root is decided, -1 after ``limit``
expansions.  Each child is opened as
``Deep._open_escape_cat`` / ``Deep._open_escape_blk`` open it (closed
forms, witnesses, useful cells), inlined: a call per node would cost more
than the node.

Viper dialect kept by the source: locals typed by their first assignment, no
chained comparisons, no bool arithmetic, pointer reads unsigned (the axial
coordinates are biased by the board side), every value small.
"""

import sys

if sys.implementation.name == "micropython":
    import micropython
    from micropython import const
else:   # CPython runs the kernel as plain Python
    from viper_on_cpython import const, micropython, ptr8, ptr16, ptr32  # noqa: F401

_NONE = const(255)
_CATN = const(0)
_BLKN = const(1)


@micropython.viper
def escape_run(d, limit: int) -> int:
    """``Deep.run(limit)`` in ESCAPE mode (see the module notes).

    One function of ~300 lines on purpose, exempt from the 80-line limit as
    a machine-code kernel: a viper function's locals are machine registers
    and typed pointers set up once per call (the 23 buffer pointers above),
    and a call out of viper code goes through the runtime's generic call
    with its arguments boxed, so a helper per node (opening a child, the
    witness check, the useful-cell search) would cost more than the node's
    own work; the expansion loop, both node openings and their cuts stay
    inline here."""
    b = d.board
    adj = ptr8(b.adj)
    deg = ptr8(b.deg)
    border = ptr8(b.border)
    cells = ptr8(d.cells)
    fc = ptr8(d.fc)
    bc = ptr8(d.bc)
    td = ptr8(d.td)
    dd = ptr8(d.dd)
    q = ptr8(d.q)
    mark = ptr16(d.mark)
    tmark = ptr16(d.tmark)
    cand = ptr8(d.cand)
    idx = ptr16(d.idx)
    hi = ptr16(d.hi)
    at = ptr8(d.at)
    dep = ptr8(d.dep)
    kind = ptr8(d.kind)
    short = ptr8(d.short)
    nreply = ptr8(d.nreply)
    collect = ptr8(d.collect)
    hq = ptr8(d.hq)
    hr = ptr8(d.hr)
    ks = ptr32(d.kst)
    n = int(d.n)
    sp = int(ks[0])
    nodes = int(ks[1])
    gen = int(ks[2])
    v = -1
    while limit > 0:
        i = int(idx[sp])
        if i < int(hi[sp]):
            idx[sp] = i + 1
            c = int(cand[i])
            limit -= 1
            nodes += 1
            depth = int(dep[sp])
            lo = int(hi[sp])
            p = sp + 1
            nreply[p] = 0
            if int(kind[sp]) == _BLKN:
                if c != _NONE:
                    cells[c] = 1
                    cb = 6 * c
                    for k in range(cb, cb + int(deg[c])):
                        a = int(adj[k])
                        fc[a] = int(fc[a]) - 1
                        if border[c]:
                            bc[a] = int(bc[a]) - 1
                    collect[p] = 0
                else:
                    collect[p] = 1
                # cat node p: the cat on x to move, ``depth`` moves left
                x = int(at[sp])
                nk = _CATN
            else:
                collect[p] = 0
                x = c
                depth -= 1
                nk = _BLKN
            base = 6 * x
            end = base + int(deg[x])
            hi_ = lo
            sh = 0
            v = -1
            if nk == _CATN:
                free = 0
                two = _NONE
                for k in range(base, end):
                    y = int(adj[k])
                    if cells[y] == 0:
                        if border[y]:
                            v = 1
                            break
                        free = 1
                        if two == _NONE:
                            if int(bc[y]) >= 2:
                                two = y
                if v < 0:
                    if free == 0:
                        v = 0
                    elif depth < 2:
                        v = 0
                    elif two != _NONE:
                        v = 1
                    elif depth == 2:
                        v = 0
                if v < 0:
                    for k in range(base, end):
                        y = int(adj[k])
                        t = int(td[y])
                        if cells[y] == 0:
                            if t < depth:
                                j = hi_
                                while j > lo:
                                    if int(td[cand[j - 1]]) <= t:
                                        break
                                    cand[j] = cand[j - 1]
                                    j -= 1
                                cand[j] = y
                                hi_ += 1
                    sh = 1
            else:
                e = int(bc[x])
                if e >= 2:
                    v = 1
                elif depth < 2:
                    v = 0
                elif int(td[x]) > depth:
                    v = 0
                elif e == 1:
                    u = _NONE
                    for k in range(base, end):
                        y = int(adj[k])
                        if cells[y] == 0:
                            if border[y]:
                                u = y
                    if depth == 2:
                        # the forced block on u, then the cat needs a
                        # neighbour with two free border cells left
                        v = 0
                        for k in range(base, end):
                            y = int(adj[k])
                            if cells[y] == 0:
                                if y != u:
                                    f = int(bc[y])
                                    if f == 2:
                                        dq = int(hq[y]) - int(hq[u])
                                        dr = int(hr[y]) - int(hr[u])
                                        ds = dq + dr
                                        if dq * dq + dr * dr + ds * ds == 2:
                                            f = 1
                                    if f >= 2:
                                        v = 1
                                        break
                    else:
                        cand[lo] = u
                        hi_ = lo + 1
                else:
                    # witnesses: free neighbours with two free border cells;
                    # a block must kill them all (Deep._witness_killers; with
                    # 2 moves left the first killer decides the node)
                    y0 = _NONE
                    for k in range(base, end):
                        y = int(adj[k])
                        if cells[y] == 0:
                            if int(bc[y]) >= 2:
                                y0 = y
                                break
                    if y0 == _NONE:
                        if depth == 2:
                            v = 0
                    else:
                        yb = 6 * y0
                        t = -1
                        while t < int(deg[y0]):
                            if t < 0:
                                c = y0
                            else:
                                c = int(adj[yb + t])
                            t += 1
                            if c != y0:
                                if int(bc[y0]) != 2:
                                    continue
                                if cells[c]:
                                    continue
                                if border[c] == 0:
                                    continue
                            kills = 1
                            cbd = int(border[c])
                            for k in range(base, end):
                                y = int(adj[k])
                                if y == y0:
                                    continue
                                if y == c:
                                    continue
                                if cells[y]:
                                    continue
                                f = int(bc[y])
                                if f < 2:
                                    continue
                                if f > 2:
                                    kills = 0
                                    break
                                if cbd == 0:
                                    kills = 0
                                    break
                                dq = int(hq[y]) - int(hq[c])
                                dr = int(hr[y]) - int(hr[c])
                                ds = dq + dr
                                if dq * dq + dr * dr + ds * ds != 2:
                                    kills = 0
                                    break
                            if kills:
                                if depth == 2:
                                    v = 0
                                    break
                                cand[hi_] = c
                                hi_ += 1
                        if depth == 2:
                            if v < 0:
                                v = 1
                        elif hi_ == lo:
                            v = 1           # no block stops an escape in 2
                    if v < 0:
                        if hi_ == lo:
                            # Deep._near(x, depth, lo, True): blocks on the
                            # cells the cat can use within the horizon
                            gen += 1
                            if gen > 0xFFFF:
                                for k in range(n):
                                    mark[k] = 0
                                    tmark[k] = 0
                                gen = 1
                            mark[x] = gen
                            dd[x] = 0
                            q[0] = x
                            head = 0
                            tail = 1
                            while head < tail:
                                w = int(q[head])
                                head += 1
                                dw = int(dd[w]) + 1
                                if dw > depth:
                                    break
                                wb = 6 * w
                                for k in range(wb, wb + int(deg[w])):
                                    y = int(adj[k])
                                    if int(mark[y]) != gen:
                                        if cells[y] == 0:
                                            mark[y] = gen
                                            if dw + int(td[y]) > depth:
                                                continue
                                            dd[y] = dw
                                            q[tail] = y
                                            tail += 1
                                            cand[hi_] = y
                                            hi_ += 1
                            if hi_ == lo:
                                cand[lo] = _NONE    # no block can matter: a pass
                                hi_ = lo + 1
            if v < 0:
                if hi_ == lo:
                    v = 1 - sh
                else:
                    kind[p] = nk
                    at[p] = x
                    dep[p] = depth
                    idx[p] = lo
                    hi[p] = hi_
                    short[p] = sh
                    sp = p
                    continue
        else:
            v = 1 - int(short[sp])       # every child failed to decide it
            if nreply[sp]:
                v = int(short[sp])       # a pass child: some step decided it
            if sp == 0:
                ks[0] = 0
                ks[1] = nodes
                ks[2] = gen
                ks[3] = 0
                return v
            sp -= 1
        # v is the value of the child just finished of node sp
        while True:
            if int(kind[sp]) == _BLKN:
                c = int(cand[int(idx[sp]) - 1])
                if c != _NONE:
                    cells[c] = 0
                    cb = 6 * c
                    for k in range(cb, cb + int(deg[c])):
                        a = int(adj[k])
                        fc[a] = int(fc[a]) + 1
                        if border[c]:
                            bc[a] = int(bc[a]) + 1
            elif v == int(short[sp]):
                if collect[sp]:
                    nreply[sp] = int(nreply[sp]) + 1     # after a pass: count deciding steps
                    break
            if v != int(short[sp]):
                break
            if sp == 0:
                ks[0] = 0
                ks[1] = nodes
                ks[2] = gen
                ks[3] = 1                # decided by the child just finished
                return v
            sp -= 1
    ks[0] = sp
    ks[1] = nodes
    ks[2] = gen
    return -1


@micropython.viper
def sweep_td(b, cells_buf, td_buf, cnt_buf, q_buf, nbf_buf, stop: int) -> int:
    """``trapcat_ai._sweep_td`` after its templates are copied (td all INF
    but the border, cnt all 0): the same queue, the same early end, so the
    same values (the hint scores every candidate block with it)."""
    adj = ptr8(b.adj)
    deg = ptr8(b.deg)
    blist_buf = b.sweep_templates[2]
    blist = ptr8(blist_buf)
    nb = int(len(blist_buf))
    cells = ptr8(cells_buf)
    td = ptr8(td_buf)
    cnt = ptr8(cnt_buf)
    q = ptr8(q_buf)
    nbf = ptr8(nbf_buf)
    best = 255
    tail = 0
    i = 0
    while i < nb:
        x = int(blist[i])
        i += 1
        if cells[x]:
            td[x] = 255
        else:
            q[tail] = x
            tail += 1
    head = 0
    while head < tail:
        u = int(q[head])
        head += 1
        d = int(td[u]) + 1
        if d > best:
            return 0
        k = 6 * u
        end = k + int(deg[u])
        while k < end:
            v = int(adj[k])
            k += 1
            if int(td[v]) == 255 and int(cells[v]) == 0:
                c = int(cnt[v]) + 1
                cnt[v] = c
                if c == 2:
                    td[v] = d
                    if stop != 0 and int(nbf[v]) != 0 and d < best:
                        best = d
                    q[tail] = v
                    tail += 1
    return 0


@micropython.viper
def sweep_dist(b, dist_buf, nbf_buf, q_buf, stop: int) -> int:
    """``trapcat_ai.Analyzer.distances`` after dist is copied from its
    template: the BFS from the free border cells, ending at the first cell
    flagged in nbf with ``stop``."""
    adj = ptr8(b.adj)
    deg = ptr8(b.deg)
    cells = ptr8(b.cells)
    blist_buf = b.sweep_templates[2]
    blist = ptr8(blist_buf)
    nb = int(len(blist_buf))
    dist = ptr8(dist_buf)
    nbf = ptr8(nbf_buf)
    q = ptr8(q_buf)
    tail = 0
    i = 0
    while i < nb:
        x = int(blist[i])
        i += 1
        if cells[x]:
            dist[x] = 255
        else:
            q[tail] = x
            tail += 1
    head = 0
    while head < tail:
        u = int(q[head])
        head += 1
        d = int(dist[u]) + 1
        k = 6 * u
        end = k + int(deg[u])
        while k < end:
            v = int(adj[k])
            k += 1
            if int(dist[v]) == 255 and int(cells[v]) == 0:
                dist[v] = d
                if stop != 0 and int(nbf[v]) != 0:
                    return 0
                q[tail] = v
                tail += 1
    return 0
