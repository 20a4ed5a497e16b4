"""The Klotski solver's setup in bounded slices: the row DAG that ranks
geometries, then the tables (``klotski.Solver``'s docstring and module notes).

``Setup(ranker, distances, nv, nh, load_kernel, search)`` is explicit state:
``phase`` (which piece of work comes next), ``at`` (where that phase's loop
resumes) and the temporaries that live from one slice to the next; ``step()``
runs one slice (~1 M fuel, ~10 ms on a Pico) and returns True once it is
done: the solver then takes what it made (``klotski.Solver._init_search``;
``fill`` fills its ``klotski.Search``).  ``heavy_next`` is True
before the one slice that makes the table (~2.4 M fuel for the classic set,
~4.1 M for 30-bit words) and before the one that loads search32's module
(30-bit words).  The slices end where the setup's generator used to
yield, so each costs what it did.  Without ``search`` (a solver whose table is
read from its cache file, ``klotski_cache.attach``) it makes neither the table's
array nor what only the search reads (the offset -> slot table, the search's
tables, search32's module): the ranker's tables alone.

It imports only ``klotski_common`` (never ``klotski``: no import circle).
A module of its own so that its code is not resident while the search runs,
where the table build's heap peaks: ``klotski`` imports it for a setup and
drops it from ``sys.modules`` when the setup ends (another solver imports it
again).
"""

from array import array
from klotski_common import _POW5, _clear, _unzeroed, _zeros, load_kernel

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

CELLS = const(20)
# piece kinds (klotski's K_V, K_H, K_B: the geometry tokens of their anchors)
K_V = const(2)
K_H = const(3)
K_B = const(4)

# phases, in order
_START = const(0)
_WORDS = const(1)         # word table: valid row words, their slots per mask
_PLACES = const(2)        # what each word places (fit test, key change)
_KEYS = const(3)          # the key -> node table is made
_CLEAR_KEYS = const(4)
_FIND = const(5)          # states found top-down
_COUNT = const(6)         # live states counted bottom-up (node ids)
_ENTRIES = const(7)       # the entry array is made
_NODES = const(8)         # node arrays, then the entries written bottom-up
_WRITE = const(9)
_OFFSETS = const(10)      # offset -> slot for rows 2-4 (the search's decode)
_TABLE = const(11)        # the table (the heavy slice)
_CLEAR_TABLE = const(12)
_BITS = const(13)         # pair bits, popcounts
_POPCOUNT = const(14)
_MIRROR = const(15)       # mirror order of cells, per-word pieces and mirrors
_PIECES = const(16)
_DECODE = const(17)       # the per-layout decode buffers
_KERNEL = const(18)       # 30-bit words: search32's module is loaded (a tick of its own)
_SEARCH = const(19)       # the search's state object
_DONE = const(20)

_GUARD = const(0x820820)  # the guard bits of the pieces' 6-bit fields
_POP4 = (0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4)


def _word_info(w):
    """Geometry row word -> packed mask_in | mask_out<<4 | b<<8 | v<<9 | h<<12 | m<<15,
    or -1 if the word is not a valid row.  Two packed accumulators, not six
    counters: a frame of more than 11 words is allocated on the heap at each
    call on a Pico, and the 625 calls of a setup took 52-159 ms on the virtual
    Pico (by the heap's state) instead of 35."""
    masks = 0                    # mask_in | mask_out << 4
    pieces = 0                   # b << 8 | v << 9 | h << 12 | m << 15
    c = 0
    while c < 4:
        t = w % 5
        if t == 0:
            masks |= 1 << c
            c += 1
            w //= 5
            continue
        if t == 1:
            pieces += 0x8000
        elif t == 2:
            pieces += 0x200
            masks |= 16 << c
        else:  # H or B: two cells
            if c == 3 or (w // 5) % 5 != 0:
                return -1
            if t == 3:
                pieces += 0x1000
            else:
                pieces += 0x100
                masks |= 48 << c
            c += 2
            w //= 25
            continue
        c += 1
        w //= 5
    return masks | pieces


class _RowDag:
    """The first phases of ``Setup``: the row DAG.  The geometry ranking is a
    DAG whose node is (cells of the row already covered from above, pieces
    left); a row word leads to the next row's node.  States are found
    top-down, then counted bottom-up (deepest first) while their entries are
    written: (offset << 10) | next node (1022: the geometry ends here, 1023:
    none through this slot).  A node keeps only its span of used slots:
    entries[node_base[n] + slot[word]]."""

    def _words(self, ph):
        """Word tables: per valid row word its slot among the words of its
        covered mask (64 words a slice), then the words grouped by mask."""
        rk = self.ranker
        if ph == _START:
            V1, H1, M1 = self.nv + 1, self.nh + 1, rk.monos + 1
            self.radix = (V1, H1, M1)
            rk.slot = bytearray(b"\xff" * 625)
            rk.word_mask = bytearray(b"\xff" * 625)
            self.mask_words = bytearray(16)
            self.phase = _WORDS
            return
        lpi = rk.slot
        pmask = rk.word_mask
        w = self.at
        end = w + 64 if w + 64 < 625 else 625
        kcount = self.mask_words
        while w < end:
            inf = _word_info(w)
            w += 1
            if inf < 0:
                continue
            mi = inf & 15
            pmask[w - 1] = mi
            lpi[w - 1] = kcount[mi]
            kcount[mi] += 1
        self.at = w
        if w < 625:
            return
        # valid words grouped per mask in slot order (global word index gi)
        wstart = _zeros("H", 17)
        acc = 0
        for mi in range(16):
            wstart[mi] = acc
            acc += kcount[mi]
        wstart[16] = acc
        rk.mask_start = wstart
        rk.words = _zeros("H", acc)
        # per word: the pieces it places as 6-bit fields (block, V, H,
        # monominoes: a fit test without borrows) and the change of state key
        self.places = _zeros("i", acc)
        self.change = _zeros("i", acc)
        self.mask_words = None
        self.phase = _PLACES
        self.at = 0

    def _places(self, ph):
        """What each valid word places and its change of state key, 64
        words a slice; the key table made and cleared (1024 keys a slice)."""
        rk = self.ranker
        V1, H1, M1 = self.radix
        R = 2 * V1 * H1 * M1
        if ph == _PLACES:
            lpi = rk.slot
            pmask = rk.word_mask
            w = self.at
            end = w + 64 if w + 64 < 625 else 625
            X2 = H1 * M1
            X1 = V1 * X2
            wstart = rk.mask_start
            words = rk.words
            wu = self.places
            ko = self.change
            while w < end:
                mi = pmask[w]
                if mi != 255:
                    gi = wstart[mi] + lpi[w]
                    words[gi] = w
                    inf = _word_info(w)
                    ub = (inf >> 8) & 1
                    uv = (inf >> 9) & 7
                    uh = (inf >> 12) & 7
                    um = inf >> 15
                    wu[gi] = (ub << 18) | (uv << 12) | (uh << 6) | um
                    ko[gi] = ((inf >> 4) & 15) * 2 * X1 - (ub * X1 + uv * X2 + uh * M1 + um)
                w += 1
            self.at = w
            if w == 625:
                self.phase = _KEYS
        elif ph == _KEYS:
            # state key ((mask*2 + b)*V1 + v)*H1 + h)*M1 + monominoes left: its
            # row follows from the cells left.  Key 0: everything placed.
            self.key_node = _unzeroed("H", 16 * R)  # key -> discovery index + 1, later node id + 1
            self.phase = _CLEAR_KEYS
            self.at = 0
        else:
            i = self.at
            _clear(self.key_node, i, i + 1024 if i + 1024 < 16 * R else 16 * R)
            self.at = i + 1024
            if self.at >= 16 * R:
                self._start_find()

    def _start_find(self):
        """The search for states starts at the root (found row by row: the
        largest piece set finds 640)."""
        rk = self.ranker
        V1, H1, M1 = self.radix
        order = self.order = _zeros("H", 656)   # discovery index -> key
        order[0] = ((1 * V1 + self.nv) * H1 + self.nh) * M1 + rk.monos
        self.key_node[order[0]] = 1
        self.states = 1
        self.phase = _FIND
        self.at = 0

    def _find(self):
        """States found top-down, 16 per slice."""
        wstart = self.ranker.mask_start
        wu = self.places
        ko = self.change
        nid = self.key_node
        order = self.order
        V1, H1, M1 = self.radix
        X1 = V1 * H1 * M1
        G = _GUARD
        nn = self.states
        qi = self.at
        stop = qi + 16
        while qi < nn and qi < stop:
            kk = order[qi]
            qi += 1
            # the state key -> its row's covered mask, the cells of its rows
            # left (4 per row), the pieces left as guarded 6-bit fields (a fit
            # test is one subtraction) and the key without the mask (inline:
            # a call per state allocates its frame on the heap)
            mm = kk % M1
            rest = kk // M1
            h = rest % H1
            rest //= H1
            v = rest % V1
            rest //= V1
            b = rest & 1
            mask = rest >> 1
            left = 4 * b + 2 * (v + h) + mm + _POP4[mask]
            av = (b << 18) | (v << 12) | (h << 6) | mm | G
            kb = kk - mask * 2 * X1
            if left <= 4:
                continue                  # the last row: its slots end geometries
            for s in range(wstart[mask], wstart[mask + 1]):
                if (av - wu[s]) & G != G:
                    continue
                k2 = kb + ko[s]
                if not nid[k2]:
                    if nn >= 656:
                        raise MemoryError("too many DAG nodes")
                    order[nn] = k2
                    nn += 1
                    nid[k2] = nn
        self.states = nn
        self.at = qi
        if qi < nn:
            return
        # count bottom-up (children first): live states (geometries below)
        # get node ids in that order, the root last; key_node[key] = id + 1 or 0
        rk = self.ranker
        rk.node_count = _zeros("H", nn)
        rk.node_first = bytearray(nn)
        rk.node_last = bytearray(nn)
        self.live = 0
        self.size = 0
        self.phase = _COUNT
        self._count(nn - 1, False)

    def _count(self, at, resumed):
        """Live states counted bottom-up from ``at`` down, 8 per slice."""
        rk = self.ranker
        wstart = rk.mask_start
        ncnt = rk.node_count
        nlo = rk.node_first
        nhi = rk.node_last
        wu = self.places
        ko = self.change
        nid = self.key_node
        order = self.order
        V1, H1, M1 = self.radix
        X1 = V1 * H1 * M1
        G = _GUARD
        live = self.live
        size = self.size
        # a slice ends before the next multiple of 8 below the one it resumed at
        stop = at - 8 if resumed else at & ~7
        if stop < -1:
            stop = -1
        qi = at
        while qi > stop:
            kk = order[qi]
            qi -= 1
            # the state key -> its row's covered mask, the cells of its rows
            # left (4 per row), the pieces left as guarded 6-bit fields (a fit
            # test is one subtraction) and the key without the mask (inline:
            # a call per state allocates its frame on the heap)
            mm = kk % M1
            rest = kk // M1
            h = rest % H1
            rest //= H1
            v = rest % V1
            rest //= V1
            b = rest & 1
            mask = rest >> 1
            left = 4 * b + 2 * (v + h) + mm + _POP4[mask]
            av = (b << 18) | (v << 12) | (h << 6) | mm | G
            kb = kk - mask * 2 * X1
            last = left <= 4
            w0 = wstart[mask]
            tot = 0
            lo = 255
            hi = 0
            for s_ in range(w0, wstart[mask + 1]):
                if (av - wu[s_]) & G != G:
                    continue
                k2 = kb + ko[s_]
                if last:
                    width = 1 if k2 == 0 else 0
                else:
                    width = nid[k2]
                    if width:
                        width = ncnt[width - 1]
                if width:
                    if lo == 255:
                        lo = s_ - w0
                    hi = s_ - w0
                    tot += width
            if tot > 65535:
                raise MemoryError("piece set too large")
            nid[kk] = 0
            if tot:
                if live >= 1022:
                    raise MemoryError("too many DAG nodes")
                ncnt[live] = tot
                nlo[live] = lo
                nhi[live] = hi
                size += hi - lo + 1
                live += 1
                nid[kk] = live
        self.live = live
        self.size = size
        self.at = qi
        if qi >= 0:
            return
        root = nid[order[0]] - 1
        rk.geos = ncnt[root] if live else 0
        rk.root = root if live else 0
        self.phase = _ENTRIES

    def _write(self, at, resumed):
        """Each node's entries over its used slot span, written bottom-up
        from state ``at`` (16 states per slice)."""
        rk = self.ranker
        wstart = rk.mask_start
        ncnt = rk.node_count
        nlo = rk.node_first
        nhi = rk.node_last
        ent = rk.entries
        base = rk.node_base
        nodemask = rk.node_mask
        obase = self.offset_base
        wu = self.places
        ko = self.change
        nid = self.key_node
        order = self.order
        V1, H1, M1 = self.radix
        X1 = V1 * H1 * M1
        G = _GUARD
        osize = self.offset_size
        pos = self.written
        stop = at - 16 if resumed else at & ~15
        if stop < -1:
            stop = -1
        qi = at
        while qi > stop:
            kk = order[qi]
            qi -= 1
            n = nid[kk] - 1
            if n < 0:
                continue
            # the state key -> its row's covered mask, the cells of its rows
            # left (4 per row), the pieces left as guarded 6-bit fields (a fit
            # test is one subtraction) and the key without the mask (inline:
            # a call per state allocates its frame on the heap)
            mm = kk % M1
            rest = kk // M1
            h = rest % H1
            rest //= H1
            v = rest % V1
            rest //= V1
            b = rest & 1
            mask = rest >> 1
            left = 4 * b + 2 * (v + h) + mm + _POP4[mask]
            av = (b << 18) | (v << 12) | (h << 6) | mm | G
            kb = kk - mask * 2 * X1
            nodemask[n] = mask
            last = left <= 4
            if left <= 12:                # rows 2-4
                obase[n] = osize
                osize += ncnt[n]
            else:
                obase[n] = 65535
            base[n] = pos - nlo[n]
            off = 0
            for s_ in range(wstart[mask] + nlo[n], wstart[mask] + nhi[n] + 1):
                nxt = 1023
                width = 0
                if (av - wu[s_]) & G == G:
                    k2 = kb + ko[s_]
                    if last:
                        if k2 == 0:
                            nxt = 1022
                            width = 1
                    else:
                        c2 = nid[k2]
                        if c2:
                            nxt = c2 - 1
                            width = ncnt[nxt]
                ent[pos] = (off << 10) | nxt
                off += width
                pos += 1
        self.offset_size = osize
        self.written = pos
        self.at = qi
        if qi < 0:
            self._written(pos)

    def _nodes(self, ph):
        """The entry array (a slice of its own), then the node arrays and the
        first slice of entries."""
        rk = self.ranker
        if ph == _ENTRIES:
            rk.entries = _zeros("i", self.size)
            self.phase = _NODES
            return
        live = self.live
        rk.node_base = _zeros("i", live + 1)
        rk.node_mask = bytearray(live)
        self.offset_base = _zeros("H", live)  # the node's start in offset_slot (rows 2-4), else 65535
        self.offset_size = 0
        self.written = 0
        self.phase = _WRITE
        self._write(self.states - 1, False)

    def _written(self, at):
        """Every entry is written (``at`` of them)."""
        self.ranker.node_base[self.live] = at
        # offset in a node of rows 2-4 -> its slot (the decode's lookup instead
        # of a binary search); the key table is free now and usually large enough
        nid = self.key_node
        osize = self.offset_size
        self.key_node = self.order = self.places = self.change = None
        if not self.search:               # only the search's decode reads it
            self._pairs()
            return
        self.offset_slot = nid if osize <= len(nid) else _zeros("H", osize)
        self.phase = _OFFSETS
        self.at = 0

    def _offsets(self):
        """Offset in a node of rows 2-4 -> its slot, 16 nodes per slice."""
        rk = self.ranker
        ent = rk.entries
        base = rk.node_base
        ncnt = rk.node_count
        nlo = rk.node_first
        nhi = rk.node_last
        obase = self.offset_base
        o2s = self.offset_slot
        n = self.at
        live = self.live
        stop = n + 16 if n + 16 < live else live
        while n < stop:
            ob = obase[n]
            if ob != 65535:
                b0 = base[n]
                end = b0 + nhi[n]
                for s_ in range(b0 + nlo[n], end + 1):
                    off = ent[s_] >> 10
                    top = (ent[s_ + 1] >> 10) if s_ < end else ncnt[n]
                    while off < top:
                        o2s[ob + off] = s_ - b0
                        off += 1
            n += 1
        self.at = n
        if n < live:
            return
        self._pairs()


class Setup(_RowDag):
    """The setup's state between slices (see the module notes): the row DAG
    (``_RowDag``), then the tables."""

    def __init__(self, ranker, distances, nv, nh, load_kernel, search=True):
        """``ranker``, ``distances``: the ``klotski.Ranker`` and ``Table`` of
        a solver of ``nv`` verticals and ``nh`` horizontals, whose tables the
        setup fills; ``load_kernel``: 30-bit table words whose kernel module
        the setup loads (``kernel``, else the plain loop's module ``loop``);
        ``search``: False for a table that is read, not built (see above)."""
        self.ranker = ranker
        self.distances = distances
        self.nv = nv
        self.nh = nh
        self.load_kernel = load_kernel
        self.search = search
        self.phase = _START
        self.at = 0
        self.heavy_next = False
        # what the solver takes when the setup is done
        self.table_nbytes = 0   # the table's bytes (both planes)
        self.kernel = None      # search32 (load_kernel)
        self.loop = None        # or the plain loop's module, when it did not fit
        # the search's own tables (``klotski.Search``), made by the last phases
        self.full_words = self.low_bit = self.word_pieces = None
        self.offset_slot = self.offset_base = None
        self.cells_below = self.neighbours = None
        self.move_row = self.move_col = self.move_rows = self.move_delta = None

    def step(self):
        """One slice of the setup; True once the solver is ready."""
        ph = self.phase
        if ph <= _WORDS:
            self._words(ph)
        elif ph <= _CLEAR_KEYS:
            self._places(ph)
        elif ph == _FIND:
            self._find()
        elif ph == _COUNT:
            self._count(self.at, True)
        elif ph <= _NODES:
            self._nodes(ph)
        elif ph == _WRITE:
            self._write(self.at, True)
        elif ph == _OFFSETS:
            self._offsets()
        elif ph <= _POPCOUNT:
            self._tables(ph)
        elif ph <= _PIECES:
            self._pieces(ph)
        elif ph <= _KERNEL:
            self._decode()
        else:
            self._search()
        self.heavy_next = self.phase == _TABLE or self.phase == _KERNEL
        return self.phase == _DONE

    def fill(self, se):
        """The new ``klotski.Search`` ``se`` of the solver whose setup this is,
        with its fields, returned (here, not in a constructor there, so that
        this code leaves with the setup: it is not resident while the search
        runs): the ranker's and the table's arrays it shares, the tables the
        setup made for it alone, and its own arrays."""
        rk = self.ranker
        tab = self.distances
        # shared with the table: two planes of ``units`` words, 1 + distance
        # % 3 per pair bit (0 = not reached), ``words_per`` words of
        # ``word_bits`` bits per geometry
        se.table = tab.planes
        se.units = tab.units
        se.words_per = tab.words_per
        se.word_bits = tab.word_bits
        se.full_words = self.full_words      # every pair's bit set, per word
        se.pairs = rk.pairs                  # monomino pairs (empty cells) per geometry
        se.monos = rk.monos                  # monomino cells: soldiers + 2
        se.pair_low = rk.pair_low            # pair -> its lower monomino index
        se.pair_high = rk.pair_high          # pair -> its higher one
        se.pair_of = rk.pair_of              # pair_of[i * monos + j]: the pair (either order)
        se.pair_word = tab.pair_word         # pair -> its word of the geometry
        se.pair_bit = tab.pair_bit           # pair -> its bit in that word
        se.popcount = rk.popcount            # bits set in 10 bits
        se.low_bit = self.low_bit            # lowest bit set in a byte
        se.mirror_below = rk.mirror_below    # cells counted before c in the mirror image's order
        # the row DAG (``_RowDag``): ranks of geometries
        se.entries = rk.entries              # (offset << 10) | next node, per used slot
        se.node_base = rk.node_base          # a node's entries start (less its first slot)
        se.node_first = rk.node_first        # a node's first used slot
        se.node_last = rk.node_last          # and its last
        se.node_count = rk.node_count        # geometries below a node
        se.node_mask = rk.node_mask          # a node's covered cells (its row words' mask)
        se.slot = rk.slot                    # row word -> its slot among its mask's words
        se.words = rk.words                  # the row words, grouped by mask
        se.mask_start = rk.mask_start        # a mask's first index in words
        se.word_mirror = rk.word_mirror      # a row word's mirror image
        se.offset_slot = self.offset_slot    # rows 2-4: offset in a node -> slot
        se.offset_base = self.offset_base    # a node's start in offset_slot (65535: none)
        se.word_pieces = self.word_pieces    # per row word: monomino, V-top, H-left nibbles, block column + 1
        se.cells_below = self.cells_below    # bits of the cells before c
        se.neighbours = self.neighbours      # bits of c's neighbours
        se.move_row = self.move_row          # the big-piece moves' row-word deltas
        se.move_col = self.move_col          # (``_build_moves``)
        se.move_rows = self.move_rows
        se.move_delta = self.move_delta
        # the geometry decoded last
        se.rows = _zeros("H", 5)             # its row words
        se.path = _zeros("H", 6)             # DAG node entering row r
        se.path[0] = rk.root
        se.path_rank = _zeros("H", 6)        # rank offset of rows < r
        se.path_end = _zeros("H", 6)         # end of the rank range entered at row r
        se.mono_cell = bytearray(CELLS)      # cell of each monomino
        se.soldier_targets = _zeros("H" if tab.word_bits == 16 else "I", tab.words_per)  # one visit's soldier moves
        # made by ``allocate``
        se.frontier = None                   # reached, not yet expanded (a table's words)
        se.active = None                     # 1 bit per table word with a frontier
        se.summary = None                    # 1 bit per non-zero active byte
        se.mirror = None                     # geometry -> its mirror image's rank
        se.cleared = 0                       # frontier words cleared so far
        # the walk's stack (``klotski_loop.walk``): node, slot and rank per
        # row, and the mirror image's node and rank
        root = rk.root
        se.walk_node = _zeros("H", 5)
        se.walk_slot = _zeros("H", 5)
        se.walk_rank = _zeros("H", 5)
        se.walk_mirror_node = _zeros("H", 5)
        se.walk_mirror_rank = _zeros("H", 5)
        se.walk_node[0] = root
        se.walk_mirror_node[0] = root
        se.walk_slot[0] = rk.node_base[root] + rk.node_first[root]
        # _SCAN (next active byte), _FOUND (layouts marked in this layer),
        # _REACHED, _EXPANDED, _DEPTH (the layer), _WALK_ROW (the walk's
        # depth, -1 when it is over)
        se.counters = array("i", (0, 0, 0, 0, 0, 0 if rk.geos else -1))
        return se

    # ------------------------------------------------------------ the tables
    def _pairs(self):
        """Pair rank: i < j -> j*(j-1)/2 + i; its unrank tables and
        pair_of[i*m+j] in either order."""
        rk = self.ranker
        m = rk.monos
        P = rk.pairs
        rk.pair_low = bytearray(P)
        rk.pair_high = bytearray(P)
        rk.pair_of = bytearray(m * m)
        k = 0
        for j in range(m):
            for i in range(j):
                rk.pair_low[k] = i
                rk.pair_high[k] = j
                rk.pair_of[i * m + j] = k
                rk.pair_of[j * m + i] = k
                k += 1
        self.phase = _TABLE

    def _tables(self, ph):
        """The table: per geometry, its pairs in W words of B bits; two planes
        (planes[u], planes[U + u]) hold 1 + distance % 3 (0: not reached).
        Then the pair bits and the popcount table."""
        rk = self.ranker
        tab = self.distances
        P = rk.pairs
        B = 16 if P <= 16 else 30
        W = (P + B - 1) // B
        U = rk.geos * W
        tc = "H" if B == 16 else "I"
        if ph == _TABLE:
            tab.words_per = W
            tab.word_bits = B
            tab.units = U
            if not self.search:           # the table stays in its file
                tab.planes = None
                self.table_nbytes = 2 * U * (2 if B == 16 else 4)
                self.phase = _BITS
                return
            self.planes = _unzeroed(tc, 2 * U)
            self.phase = _CLEAR_TABLE
            self.at = 0
        elif ph == _CLEAR_TABLE:
            i = self.at
            _clear(self.planes, i, i + 1024 if i + 1024 < 2 * U else 2 * U)
            self.at = i + 1024
            if self.at >= 2 * U:
                tab.planes = self.planes
                self.table_nbytes = 2 * U * (2 if B == 16 else 4)
                self.planes = None
                self.phase = _BITS
        elif ph == _BITS:
            tab.pair_word = bytearray(P)
            tab.pair_bit = _zeros(tc, P)
            fw = self.full_words = _zeros(tc, W)
            for k in range(P):
                tab.pair_word[k] = k // B
                tab.pair_bit[k] = 1 << (k % B)
                fw[k // B] |= 1 << (k % B)
            rk.popcount = bytearray(1024)
            self.phase = _POPCOUNT
            self.at = 1
            self._popcount(256)
        else:
            self._popcount(self.at + 256)

    def _popcount(self, stop):
        """popcount[x] for x up to ``stop`` (256 per slice), then low_bit."""
        pop = self.ranker.popcount
        x = self.at
        while x < stop:
            pop[x] = pop[x >> 1] + (x & 1)
            x += 1
        self.at = x
        if x < 1024:
            return
        lsb = self.low_bit = bytearray(256)
        for x in range(1, 256):
            lsb[x] = lsb[x >> 1] + 1 if not x & 1 else 0
        self.phase = _MIRROR

    def _pieces(self, ph):
        """Cells counted before cell c in the mirror image's order (rows
        above, then the columns to the right); per valid word (global index
        gi, words[gi]): its monomino, V-top and H-left nibbles and the block
        column + 1 (the search's word_pieces); its mirror image (word_mirror).
        32 words per slice."""
        rk = self.ranker
        words = rk.words
        nwords = len(words)
        if ph == _MIRROR:
            rk.mirror_below = _zeros("i", CELLS)
            for c in range(CELLS):
                r = c >> 2
                v = (1 << (4 * r)) - 1
                for cc in range((c & 3) + 1, 4):
                    v |= 1 << (4 * r + cc)
                rk.mirror_below[c] = v
            self.word_pieces = _zeros("H", nwords)
            self.mirrors = _zeros("H", nwords)
            self.phase = _PIECES
            self.at = 0
            return
        pk = self.word_pieces
        mwg = self.mirrors
        gi = self.at
        stop = gi + 32 if gi + 32 < nwords else nwords
        while gi < stop:
            w = words[gi]
            x = w
            v = 0
            for col in range(4):
                t = x % 5
                x //= 5
                if t == 1:
                    v |= 1 << col
                elif t == 2:
                    v |= 16 << col
                elif t == 3:
                    v |= 256 << col
                elif t == 4:
                    v |= (col + 1) << 12
            pk[gi] = v
            x = w
            v = 0
            for c in range(4):
                t = x % 5
                x //= 5
                if t == 1 or t == 2:
                    v += t * _POW5[3 - c]
                elif t:
                    v += t * _POW5[2 - c]
            mwg[gi] = v
            gi += 1
        self.at = gi
        if gi == nwords:
            rk.word_mirror = mwg
            self.mirrors = None
            self.phase = _DECODE

    def _decode(self):
        """Per-layout decode (neighbors, cells_of, hints): rows decoded
        incrementally from the DAG path.  Then, for 30-bit table words, a
        slice that loads their kernel's module (~25 ms on the virtual Pico:
        ``heavy_next`` gives it a tick of its own).  Here, not in ``step``:
        those lines there made every slice 1-1.7 ms longer on the virtual
        Pico (a larger frame: MicroPython puts one of more than 11 words on
        the heap, at every call)."""
        if self.phase == _KERNEL:
            # search32 is a module of its own (klotski_viper32: the classic
            # set's build never holds its ~9.4 KB of machine code)
            kernel = load_kernel("klotski_viper32")
            if kernel is None:
                self.loop = __import__("klotski_loop")
            else:
                self.kernel = kernel.search32
            self.phase = _SEARCH
            return
        rk = self.ranker
        rk.rows = _zeros("H", 5)
        rk.path = _zeros("H", 6)           # DAG node entering row r
        rk.path_rank = _zeros("H", 6)      # rank offset of rows < r
        rk.path_monos = bytearray(6)       # monominoes in rows < r
        rk.path_end = _zeros("H", 6)       # end of the rank range entered at row r (0: none yet)
        rk.own = bytearray(CELLS)
        rk.kind = bytearray(CELLS)
        rk.mono_index = bytearray(CELLS + 1)  # monominoes in cells < c (index of a monomino)
        rk.mono_index[CELLS] = rk.monos
        rk.mono_cell = bytearray(CELLS)
        rk.decoded = -1
        rk.new_rows = _zeros("H", 5)
        # neighbour output: ``Ranker.make_output``
        rk.out_rank = rk.out_from = rk.out_to = None
        rk.step_cell = None
        rk.path[0] = rk.root
        self.phase = _DONE if not self.search else _KERNEL if self.load_kernel else _SEARCH

    def _search(self):
        """The tables only the search reads (``klotski.Search``, which the
        solver makes from them): cells below and neighbours of each cell as
        bits, the big-piece moves' row-word deltas."""
        below = self.cells_below = _zeros("i", CELLS)
        nbrs = self.neighbours = _zeros("i", CELLS)
        for c in range(CELLS):
            col = c & 3
            below[c] = (1 << c) - 1
            v = 0
            if col > 0:
                v |= 1 << (c - 1)
            if col < 3:
                v |= 1 << (c + 1)
            if c >= 4:
                v |= 1 << (c - 4)
            if c < 16:
                v |= 1 << (c + 4)
            nbrs[c] = v
        self.move_row, self.move_col, self.move_rows, self.move_delta = _build_moves()
        self.phase = _DONE


def _build_moves():
    """Row-word deltas of the big-piece moves, per move type
    mt = ((t-2)*4 + k)*2 + dist-1 (kind t, direction k, distance): the rows
    touched start at anchor row + move_row[mt] - 2 (move_rows[mt] rows)
    and row q's base-5 word changes by move_delta[4*mt + q] *
    5**(anchor col + move_col[mt] - 2)."""
    move_row = bytearray(24)
    move_col = bytearray(24)
    move_rows = bytearray(24)
    move_delta = _zeros("h", 96)
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
                move_row[mt] = r1 + 2
                move_col[mt] = c1 + 2
                move_rows[mt] = r2 - r1 + 1
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
                    move_delta[4 * mt + rr - r1] = delta
    return move_row, move_col, move_rows, move_delta
