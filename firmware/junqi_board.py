"""The standard two-player Junqi (军棋) board as one data table, and piece
routing with preallocated buffers (runs on the device and on CPython).

Cells are numbered ``row * 5 + col``: rows A..L are 0..11, columns 0..4, so
"A0" is 0 and "L4" is 59.  Rows A-F are one half, G-L the other.

The board is the ASCII table ``BOARD`` below: 12 cell rows interleaved with 11
link rows, 9 characters each.  It is the only description of the board; the
adjacency tables are parsed from it once at import.

  cell characters (even positions of even lines)
      o  post            H  headquarters (大本营)     C  camp (行营)
  links between horizontal neighbours (odd positions of cell lines)
      -  road            =  railway (also a road step)
  links between vertical neighbours (even positions of link lines)
      |  road            #  railway (also a road step)      blank: none
  diagonal links (odd positions of link lines; only camps have them)
      \\  upper-left to lower-right      /  upper-right to lower-left
      blank: none

The blanks between F1-G1 and F3-G3 are the mountains (山界); the ``#`` between
F2 and G2 is the centre railway link.

Movement rules implemented by Router.destinations():
- every movable piece may take one step along any road link (orthogonal or a
  camp diagonal);
- a piece standing on the railway may instead run along it in a straight line
  (one direction, no turn) any number of empty cells;
- an engineer (mode ENGINEER) may run along the whole railway network, turning
  at junctions;
- nothing passes through an occupied cell; a move may end on an enemy piece
  (an attack) unless that piece stands in a camp;
- a piece standing in a headquarters never moves; mines and the flag are
  immobile (mode IMMOBILE).

Occupancy (``Router.occ``, a bytearray the caller owns and updates): 0 empty,
1 or 2 a piece of that side, 3 a neutral blocker (e.g. a face-down piece in
flip Junqi) that blocks and can never be attacked.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

COLS = const(5)
ROWS = const(12)
CELLS = const(60)
NONE = const(255)

_POST = const(0)
HQ = const(1)
CAMP = const(2)

IMMOBILE = const(0)
NORMAL = const(1)
ENGINEER = const(2)

_EMPTY = const(0)
_NEUTRAL = const(3)

# Directions for RAIL: west, east, north (towards row A), south (towards row L).
_W = const(0)
_E = const(1)
_N = const(2)
_S = const(3)

BOARD = (
    "o-H-o-H-o",  # A
    "| | | | |",
    "o=o=o=o=o",  # B
    "#\\|/|\\|/#",
    "o-C-o-C-o",  # C
    "#/|\\|/|\\#",
    "o-o-C-o-o",  # D
    "#\\|/|\\|/#",
    "o-C-o-C-o",  # E
    "#/|\\|/|\\#",
    "o=o=o=o=o",  # F
    "#   #   #",   # mountains F1-G1, F3-G3; centre rail F2-G2
    "o=o=o=o=o",  # G
    "#\\|/|\\|/#",
    "o-C-o-C-o",  # H
    "#/|\\|/|\\#",
    "o-o-C-o-o",  # I
    "#\\|/|\\|/#",
    "o-C-o-C-o",  # J
    "#/|\\|/|\\#",
    "o=o=o=o=o",  # K
    "| | | | |",
    "o-H-o-H-o",  # L
)


# Parsed tables ------------------------------------------------------------
KIND = bytearray(CELLS)            # _POST / HQ / CAMP
ROAD = bytearray(CELLS * 8)        # road neighbours of c at ROAD[8c .. 8c+ROAD_N[c]-1]
ROAD_N = bytearray(CELLS)
RAIL = bytearray(CELLS * 4)        # rail neighbour of c in direction d at RAIL[4c+d], or NONE
ON_RAIL = bytearray(CELLS)


def _parse():
    def _link(a, b):
        # Insertion order is the tie-breaking order of road steps (W, E, N, S, diagonals).
        ROAD[a * 8 + ROAD_N[a]] = b
        ROAD_N[a] += 1
        ROAD[b * 8 + ROAD_N[b]] = a
        ROAD_N[b] += 1

    for i in range(CELLS * 4):
        RAIL[i] = NONE
    kinds = {"o": _POST, "H": HQ, "C": CAMP}
    for r in range(ROWS):
        line = BOARD[2 * r]
        for c in range(COLS):
            KIND[r * COLS + c] = kinds[line[2 * c]]
            if c < COLS - 1:
                ch = line[2 * c + 1]
                a = r * COLS + c
                if ch in "-=":
                    _link(a, a + 1)
                if ch == "=":
                    RAIL[a * 4 + _E] = a + 1
                    RAIL[(a + 1) * 4 + _W] = a
    for r in range(ROWS - 1):
        line = BOARD[2 * r + 1]
        for c in range(COLS):
            a = r * COLS + c
            ch = line[2 * c]
            if ch in "|#":
                _link(a, a + COLS)
            if ch == "#":
                RAIL[a * 4 + _S] = a + COLS
                RAIL[(a + COLS) * 4 + _N] = a
            if c < COLS - 1:
                ch = line[2 * c + 1]
                if ch == "\\":
                    _link(a, a + COLS + 1)
                elif ch == "/":
                    _link(a + 1, a + COLS)
    for c in range(CELLS):
        for d in range(4):
            if RAIL[c * 4 + d] != NONE:
                ON_RAIL[c] = 1


_parse()
del _parse              # run once: its code need not stay on the heap


def cell_name(c):
    return "ABCDEFGHIJKL"[c // COLS] + str(c % COLS)        # the rows' names


def parse_cell(name):
    """"B0" -> 5; raises ValueError for anything else."""
    if not isinstance(name, str) or len(name) != 2:
        raise ValueError("bad cell name %r (expected A0..L4)" % (name,))
    r = "ABCDEFGHIJKL".find(name[0].upper()) if ord(name[0]) < 127 else -1  # 'ı'.upper() is 'I'
    c = ord(name[1]) - 48
    if r < 0 or not 0 <= c < COLS:
        raise ValueError("bad cell name %r (expected A0..L4)" % (name,))
    return r * COLS + c


def road_neighbours(c):
    """List of road neighbours (allocates; for tools and tests)."""
    return [ROAD[c * 8 + i] for i in range(ROAD_N[c])]


class Router:
    """Legal destinations and shortest routes of one piece; all buffers are
    allocated here and reused, a query allocates nothing.

    After ``destinations(src, side, mode)``:
      ``dests[0:ndest]`` the legal destination cells (discovery order),
      ``dist[c]`` the cells entered to reach c (NONE: unreachable),
      ``parent[c]`` the previous cell on the shortest route.
    """

    def __init__(self):
        self.occ = bytearray(CELLS)
        self.dist = bytearray(CELLS)
        self.parent = bytearray(CELLS)
        self.queue = bytearray(CELLS)
        self.dests = bytearray(CELLS)
        self.ndest = 0
        self.path = bytearray(CELLS)
        self.path_len = 0
        self.src = NONE

    def destinations(self, src, side, mode):
        """Number of legal destinations of the piece of ``side`` (1/2) at
        ``src`` moving as ``mode`` (IMMOBILE / NORMAL / ENGINEER)."""
        dist = self.dist
        for i in range(CELLS):
            dist[i] = NONE
        self.src = src
        self.ndest = 0
        if mode == IMMOBILE or KIND[src] == HQ:
            return 0
        occ = self.occ
        parent = self.parent
        dests = self.dests
        rail = RAIL
        n = 0
        dist[src] = 0
        if ON_RAIL[src]:
            if mode == ENGINEER:
                queue = self.queue
                queue[0] = src
                head = 0
                tail = 1
                while head < tail:
                    p = queue[head]
                    head += 1
                    d = dist[p] + 1
                    base = p * 4
                    for k in range(4):
                        q = rail[base + k]
                        if q == NONE or dist[q] != NONE:
                            continue
                        o = occ[q]
                        if o == _EMPTY:
                            queue[tail] = q
                            tail += 1
                        elif o == side or o == _NEUTRAL:
                            continue
                        dist[q] = d
                        parent[q] = p
                        dests[n] = q
                        n += 1
            else:
                for k in range(4):
                    p = src
                    q = rail[src * 4 + k]
                    d = 1
                    while q != NONE:
                        o = occ[q]
                        if o != _EMPTY and (o == side or o == _NEUTRAL):
                            break
                        dist[q] = d
                        parent[q] = p
                        dests[n] = q
                        n += 1
                        if o != _EMPTY:
                            break
                        p = q
                        q = rail[q * 4 + k]
                        d += 1
        base = src * 8
        for i in range(ROAD_N[src]):
            q = ROAD[base + i]
            o = occ[q]
            if o != _EMPTY and (o == side or o == _NEUTRAL or KIND[q] == CAMP):
                continue
            d = dist[q]
            if d == NONE:
                dests[n] = q
                n += 1
            elif d <= 1:
                continue
            dist[q] = 1
            parent[q] = src
        self.ndest = n
        return n

    def can_reach(self, dst):
        """After destinations(): is dst a legal destination?"""
        return dst != self.src and self.dist[dst] != NONE

    def trace(self, dst):
        """After destinations(): write the route src..dst into ``path`` (both
        ends included) and return the cells entered, or None (no route)."""
        d = self.dist[dst]
        if d == NONE or dst == self.src:
            self.path_len = 0
            return None
        path = self.path
        parent = self.parent
        self.path_len = d + 1
        p = dst
        i = d
        while i > 0:
            path[i] = p
            p = parent[p]
            i -= 1
        path[0] = p
        return d

    def route(self, src, dst, side, mode):
        """Shortest legal route src -> dst: cells entered, or None."""
        self.destinations(src, side, mode)
        return self.trace(dst)

    def path_cells(self):
        """The last traced path as a list (allocates; tools and tests)."""
        return [self.path[i] for i in range(self.path_len)]

    def dest_list(self):
        return [self.dests[i] for i in range(self.ndest)]
