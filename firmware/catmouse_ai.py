"""Built-in Cat & Mouse strategies, all ``strategy(board, position, legal) -> cell``.

Each keeps its GridSearch and buffers between calls, so a move allocates
nothing once the first call has loaded the board.
"""

from gridpath import GridSearch, UNREACHED
from rng import Rng


class _Searcher:
    """Shared part: one GridSearch loaded from the board's terrain once."""

    def __init__(self):
        self.search = None
        self.loaded = None

    def prepare(self, board):
        """Load the board now (a few tens of ms on the device), so the first
        move does not pay for it."""
        self._grid(board)

    def _grid(self, board):
        search = self.search
        if search is None or search.cols != board.cols or search.rows != board.rows:
            search = self.search = GridSearch(board.cols, board.rows)
            self.loaded = None
        if self.loaded is not board.costs:
            search.load(board.costs)
            self.loaded = board.costs
        return search

    def _first_step(self, search, position, legal):
        if search.path_len >= 2:
            step = search.path[1]
            if step in legal:
                return step
        return legal[0]


class BfsCat(_Searcher):
    """Fewest moves to the mouse (BFS), the seed's cat."""

    def __call__(self, board, position, legal):
        search = self._grid(board)
        search.bfs(position, board.mouse)
        return self._first_step(search, position, legal)


class AstarCat(_Searcher):
    """Least stamina to the mouse (A*), the seed's "complex road" cat."""

    def __call__(self, board, position, legal):
        search = self._grid(board)
        search.astar(position, board.mouse)
        return self._first_step(search, position, legal)


class RandomMover:
    """Any legal cell, uniformly (the seed's random handler)."""

    def __init__(self, seed=1):
        self.rng = Rng(seed)

    def __call__(self, board, position, legal):
        return legal[self.rng.below(len(legal))]


class EvasiveMouse(_Searcher):
    """Runs to the cell the cat needs longest to reach; among equally good cells
    it keeps the one with the most territory (cells it reaches before the cat).

    A lead of two or more means the cat, moving first, never lands on it; on a
    board with loops that lead lasts forever.  The territory tie-break steers
    away from corners and dead ends, where equally distant cells would trap it;
    it costs one flood per tied candidate, so it is computed only on a tie.  In
    terrain mode "distance" is arrival time (entering cost = rounds), counting
    the cat's remaining rest and the rest the mouse itself would owe.
    """

    def __init__(self):
        _Searcher.__init__(self)
        self.cat_time = None
        self.own_time = None
        self.board = None
        self.position = 0
        self.legal = None
        self.best = 0
        self.far = 0
        self.most = -1
        self.next = 0

    def prepare(self, board):
        """Load the board and make the two flood buffers before play."""
        search = self._grid(board)
        self._buffers(len(search.cost))

    def _buffers(self, size):
        if self.cat_time is None or len(self.cat_time) != size:
            from array import array
            self.cat_time = array("H", bytes(2 * size))
            self.own_time = array("H", bytes(2 * size))

    def _flood(self, search, terrain, src, out):
        if terrain:
            search.arrival_times(src, out)
        else:
            search.distances(src, out)

    def _lead(self, search, board, position, cell):
        """Rounds the cat needs to reach ``cell`` once the mouse is there."""
        reach = self.cat_time[search.padded(cell)]
        if board.terrain and reach != UNREACHED:
            # The cat catches on entering, before it would rest there.
            owed = board.costs[cell] - 1
            reach += board.cat_rest - owed
            if cell != position:
                reach -= owed
        return reach

    def __call__(self, board, position, legal):
        if not self.begin(board, position, legal):
            while not self.step():
                pass
        return self.best

    def begin(self, board, position, legal):
        """Start a decision (one flood from the cat).  True when it is already
        made (no tie), else call step() until it returns True; the answer is
        ``best``.  The handheld spreads the steps over ticks."""
        search = self._grid(board)
        self._buffers(len(search.cost))
        self._flood(search, board.terrain, board.cat, self.cat_time)
        self.board = board
        self.position = position
        self.legal = legal
        far = -1
        ties = 0
        best = legal[0]
        for i in range(len(legal)):
            lead = self._lead(search, board, position, legal[i])
            if lead > far:
                far = lead
                best = legal[i]
                ties = 1
            elif lead == far:
                ties += 1
        self.best = best
        self.far = far
        self.most = -1
        self.next = 0
        return ties == 1 or far <= 1

    def step(self):
        """Weigh the next tied candidate's territory (one flood); True when done."""
        search = self.search
        board = self.board
        legal = self.legal
        while self.next < len(legal):
            cell = legal[self.next]
            self.next += 1
            if self._lead(search, board, self.position, cell) == self.far:
                territory = self._territory(search, board.terrain, cell, len(search.cost))
                if territory > self.most:
                    self.most = territory
                    self.best = cell
                return self.next >= len(legal)
        return True

    def _territory(self, search, terrain, cell, size):
        """Cells the mouse, starting at ``cell``, reaches before the cat."""
        own = self.own_time
        cat_time = self.cat_time
        self._flood(search, terrain, cell, own)
        territory = 0
        for q in range(size):
            mine = own[q]
            if mine != UNREACHED and mine + 1 < cat_time[q]:
                territory += 1
        return territory


def make(kind, seed=1):
    """A built-in strategy by name: bfs, astar, evasive, random."""
    if kind == "bfs":
        return BfsCat()
    if kind == "astar":
        return AstarCat()
    if kind == "evasive":
        return EvasiveMouse()
    if kind == "random":
        return RandomMover(seed)
    raise ValueError("unknown strategy %r (bfs, astar, evasive, random)" % kind)
