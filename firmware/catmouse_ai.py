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

from array import array

from gridpath import FloodSearch, GridSearch, UNREACHED, WHOLE
from rng import Rng
from work import NO_ANSWER

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

# BfsCat.state: the route's target + 1 in the low bits (maps of up to 64 x 64
# cells), the mouse's cell it last saw + 1 above them; 26 bits in all
_SEEN_SHIFT = const(13)
_TARGET_MASK = const(0x1FFF)


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

    def sized(self, board):
        """The search, made anew (not loaded) when the board's size differs:
        the watch mode gives that a tick of its own (~24 ms on a Pico)."""
        search = self.search
        if search is None or search.cols != board.cols or search.rows != board.rows:
            search = self.search = self.GRID(board.cols, board.rows)
            self.loaded = None
        return search

    def _grid(self, board):
        search = self.sized(board)
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
    """Fewest moves to the mouse (BFS), the seed's cat, a hunter: it keeps its
    route while that is still a shortest one, and waits a round when a step
    could never land on the mouse.

    The route: on a tie the cat does not switch to another equally short
    route (a search whose tie-break flips with each step of the mouse would
    send it back and forth between two cells).  The route is the search's
    path to the mouse's cell when it was chosen (its target): each move the
    cat takes the route's next cell if that cell is on a shortest path to the
    mouse now (``GridSearch.on_shortest``), else the first step of the new
    path, whose end becomes the target.  A path to a fixed cell is the same
    from every cell along it (the search links each cell the same way
    whatever its start), so the target alone fixes the route; the route
    itself is a cache, rebuilt with one more search when the cat is not on it
    (after an undo).

    The wait: the cat enters the mouse's cell from one move away, so on a
    grid (each move changes the distance by one) a mouse that moves every
    round keeps the distance's parity, and a cat that moves every round too
    never catches it: at two moves away it would step next to the mouse, the
    mouse step off, for ever (or the mouse ends cornered).  So when the mouse
    is two moves away, has moved since the cat's last choice and owes no
    rest, the cat waits a round instead: the mouse's next move brings it next
    to the cat (caught) or three away, where the chase has the catching
    parity.  A mouse that stays put is chased (the article's demo: a BFS cat
    against a mouse that never moves, caught in 12 rounds, as before).

    ``state`` is what undo and the saved game keep (30 bits): the target + 1
    (0: none) in the low ``_SEEN_SHIFT`` bits, above them the mouse's cell
    at the cat's last choice + 1 (0: none).

    ``shown``: the search's path is drawn (the watch mode), so it is rewritten
    to go through the route's step when the cat takes one
    (``GridSearch.path_through``, ~1 ms on a Pico); in play it is not read."""

    def __init__(self, shown=False):
        _Searcher.__init__(self)
        self.shown = shown
        self.state = 0          # target + 1, and (the mouse's cell seen + 1) << _SEEN_SHIFT
        self.route = None       # the route's cells (a cache of the target's path)
        self.route_len = 0
        self.at = 0             # the cat's index on the route
        self.route_end = -1     # the target the cached route leads to

    def prepare(self, board):
        """Load the board and size the route's buffer (before play, so no
        move allocates); the search."""
        search = self._grid(board)
        size = len(search.path)
        if self.route is None or len(self.route) != size:
            self.route = array("H", bytes(2 * size))    # as the path: one copy (_keep_path)
            self.route_end = -1
        return search

    def __call__(self, board, position, legal):
        costs = board.costs
        search = self.search
        if self.loaded is not costs:            # else no call (0.16 ms in the VM)
            search = self.prepare(board)
        mouse = board.mouse
        seen = (mouse + 1) << _SEEN_SHIFT
        state = self.state
        moved = state & ~_TARGET_MASK != seen
        # The route's next cell from position (step; -1: none), written out
        # here, and on_shortest not called when step is the new path's: the
        # bench's worst move (VM est.) 4.31 ms with them as calls, 4.26 so;
        # its BFS alone is 4.05.
        step = -1
        target = (state & _TARGET_MASK) - 1     # a saved game's is checked here
        if target < 0 or target >= len(costs) or not costs[target]:
            state = 0
        else:
            route = self.route
            at = self.at
            n = self.route_len
            kept = self.route_end == target
            if kept and at < n and route[at] != position:
                at += 1                         # the cat took the route's step
            if kept and at < n and route[at] == position:
                self.at = at
            elif search.bfs(position, target) is None:
                state = n = 0
            else:
                self._keep_path(search, target)     # at 0 of it
                n = self.route_len
                at = 0
            if at + 1 < n:
                step = route[at + 1]
        self.state = (state & _TARGET_MASK) | seen
        moves = search.bfs(position, mouse)
        if moved and moves == 2 and not board.mouse_rest and position in legal:
            return position             # two moves away: wait a round (see above)
        if step >= 0 and step in legal and (moves and search.path[1] == step
                                            or search.on_shortest(step)):
            if self.shown:
                search.path_through(step)
            return step
        self.state = mouse + 1 | seen
        self._keep_path(search, mouse)
        return self._first_step(search, position, legal)

    def _keep_path(self, search, target):
        """The search's path as the route (one copy of the whole buffer, no
        allocation: 0.38 ms in the VM a cell at a time)."""
        self.route[WHOLE] = search.path
        self.route_len = search.path_len
        self.route_end = target
        self.at = 0


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


class EasyCat(_Searcher):
    """The handheld's EASY cat: the first step of each new shortest path (the
    seed's cat: no route kept, undo keeps only its Rng), but one move in
    three is a random step (a neighbour: it never waits, the last legal
    cell, its own, is left out when there is another)."""

    def __init__(self, seed):
        _Searcher.__init__(self)
        self.rng = Rng(seed)

    def __call__(self, board, position, legal):
        if self.rng.below(3) == 0:
            n = len(legal)
            return legal[self.rng.below(n - 1 if n > 1 else 1)]
        search = self._grid(board)
        search.bfs(position, board.mouse)
        return self._first_step(search, position, legal)


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
    it costs a search per tied candidate (``FloodSearch.territory``, only
    over the cells the candidate wins: ~8.5 ms in the VM on the default map,
    a whole flood and count were ~19.7), so it is computed only on a tie.  In
    terrain mode "distance" is arrival time (entering cost = rounds), counting
    the cat's remaining rest and the rest the mouse itself would owe.

    A task (firmware/work.py): ``begin(board, position, legal)``, then
    ``step()`` until True (the first step floods from the cat and ranks the
    legal cells, each later one weighs one tied cell's territory), then
    ``answer``.  A step is a flood or a search (up to ~17 ms on a Pico), so
    each gets a tick of its own (``alone_next``).  Called as a plain strategy
    it runs them all.
    """

    GRID = FloodSearch

    def __init__(self, slip=0, seed=1):
        _Searcher.__init__(self)
        self.slip = slip        # one move in ``slip`` is a random legal cell (0: none)
        self.rng = Rng(seed)
        self.cat_time = None
        self.board = None
        self.position = 0
        self.legal = None
        self.answer = NO_ANSWER
        self.far = 0
        self.most = -1
        self.next = -1           # the next tied candidate to weigh; -1: the cat's flood first

    def prepare(self, board):
        """Load the board and make the cat's flood buffer before play."""
        search = self._grid(board)
        self._buffers(len(search.cost))

    def _buffers(self, size):
        if self.cat_time is None or len(self.cat_time) != size:
            self.cat_time = array("H", bytes(2 * size))

    def _lead(self, search, board, position, cell):
        """Rounds the cat needs to reach ``cell`` once the mouse is there."""
        reach = self.cat_time[search.pad[cell]]
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
        if self.slip and self.rng.below(self.slip) == 0:
            self.answer = legal[self.rng.below(len(legal))]   # a slip: no flood

    def alone_next(self):
        return True

    def step(self):
        """One flood: the cat's (and the ranking) first, then the next tied
        candidate's territory; True when the answer is made."""
        if self.next < 0:
            if self.answer != NO_ANSWER:
                return True                 # a slip, drawn by begin()
            return self._rank()
        search = self.search
        board = self.board
        legal = self.legal
        while self.next < len(legal):
            cell = legal[self.next]
            self.next += 1
            if self._lead(search, board, self.position, cell) == self.far:
                territory = search.territory(cell, self.cat_time, not board.terrain)
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
        if board.terrain:
            search.arrival_times(board.cat, self.cat_time)
        else:
            search.distances(board.cat, self.cat_time)
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


# The mice of the difficulties EASY, NORMAL, HARD (``ctx.settings["difficulty"]``
# 0/1/2, catmouse_match.Match.start): one move in MOUSE_SLIPS[diff] is a random
# legal cell (1: every one, the random mouse; 0: none), the others the evasive
# mouse's.  A shortest-path
# chaser catches them in most games at EASY and NORMAL, in few at HARD
# (`make bench`, "Cat & Mouse: a shortest-path chaser against the mice").
MOUSE_SLIPS = (1, 4, 10)


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
