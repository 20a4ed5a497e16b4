"""Built-in Cat & Mouse strategies, all ``strategy(board, position, legal) -> cell``.

Each keeps its GridSearch and buffers between calls, so a move allocates
nothing once the first call has loaded the board.

On the handheld every AI is a task (firmware/work.py, run by a ``work.Job``):
``begin(board, position, legal)``, then ``step()`` until it returns True, then
``answer``.  The evasive mouse is one itself (a flood per slice); a plain
strategy (the cats, the easy cat, the random mouse, a plug-in: any callable)
is wrapped once in ``StrategyTask``, whose one step calls it.  Each also has
``prepare(board)``, which loads the board before play.
"""

from gridpath import FloodSearch, GridSearch, UNREACHED
from rng import Rng
from work import NO_ANSWER


class _Searcher:
    """Shared part: one GridSearch loaded from the board's terrain once."""

    GRID = GridSearch            # the search class a strategy of this kind needs

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
            search = self.search = self.GRID(board.cols, board.rows)
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


class EasyCat:
    """The handheld's EASY cat: the BFS cat, but one move in three is a
    random legal cell."""

    def __init__(self, seed):
        self.smart = BfsCat()
        self.rng = Rng(seed)

    def prepare(self, board):
        """Load the board before play, as the other AIs do: not in the first move."""
        self.smart.prepare(board)

    def __call__(self, board, position, legal):
        if self.rng.below(3) == 0:
            return legal[self.rng.below(len(legal))]
        return self.smart(board, position, legal)


class StrategyTask:
    """A plain strategy (any ``strategy(board, position, legal) -> cell``
    callable) as a task: its one step calls it.  ``prepare``: the
    strategy's board loader, or None when it has none."""

    def __init__(self, strategy, prepare=None):
        self.strategy = strategy
        self.loader = prepare
        self.board = None
        self.position = 0
        self.legal = None
        self.answer = NO_ANSWER

    def prepare(self, board):
        if self.loader is not None:
            self.loader(board)

    def begin(self, board, position, legal):
        self.board = board
        self.position = position
        self.legal = legal
        self.answer = NO_ANSWER

    def step(self):
        self.answer = self.strategy(self.board, self.position, self.legal)
        return True

    def alone_next(self):
        return False


class EvasiveMouse(_Searcher):
    """Runs to the cell the cat needs longest to reach; among equally good cells
    it keeps the one with the most territory (cells it reaches before the cat).

    A lead of two or more means the cat, moving first, never lands on it; on a
    board with loops that lead lasts forever.  The territory tie-break steers
    away from corners and dead ends, where equally distant cells would trap it;
    it costs one flood per tied candidate, so it is computed only on a tie.  In
    terrain mode "distance" is arrival time (entering cost = rounds), counting
    the cat's remaining rest and the rest the mouse itself would owe.

    A task (firmware/work.py): ``begin(board, position, legal)``, then
    ``step()`` until True (the first step floods from the cat and ranks the
    legal cells, each later one floods from one tied cell), then ``answer``.
    Every step is a whole flood (up to ~20 ms on a Pico), so each gets a tick
    of its own (``alone_next``).  Called as a plain strategy it runs them all.
    """

    GRID = FloodSearch

    def __init__(self):
        _Searcher.__init__(self)
        self.cat_time = None
        self.own_time = None
        self.board = None
        self.position = 0
        self.legal = None
        self.answer = NO_ANSWER
        self.far = 0
        self.most = -1
        self.next = -1           # the next tied candidate to weigh; -1: the cat's flood first

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
        self.begin(board, position, legal)
        while not self.step():
            pass
        return self.answer

    def begin(self, board, position, legal):
        """Start a decision; the work is done by step()."""
        self.board = board
        self.position = position
        self.legal = legal
        self.answer = NO_ANSWER
        self.next = -1

    def alone_next(self):
        return True

    def step(self):
        """One flood: the cat's (and the ranking) first, then the next tied
        candidate's territory; True when the answer is made."""
        if self.next < 0:
            return self._rank()
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
                    self.answer = cell
                return self.next >= len(legal)
        return True

    def _rank(self):
        """The cat's flood and each legal cell's lead; True when one cell
        leads alone (or no lead is safe): no tie to weigh."""
        board = self.board
        position = self.position
        legal = self.legal
        search = self._grid(board)
        self._buffers(len(search.cost))
        self._flood(search, board.terrain, board.cat, self.cat_time)
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
        self.answer = best
        self.far = far
        self.most = -1
        self.next = 0
        return ties == 1 or far <= 1

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
