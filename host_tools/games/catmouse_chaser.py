"""A shortest-path chaser for Cat & Mouse, written as a user's plug-in would be
(docs/plugins.md): ``python -m host_tools play catmouse maps/garden.txt --cat
host_tools.games.catmouse_chaser:chase --mouse normal``.  `make bench` runs it
through the plug-in runner against the handheld's mice of each difficulty
(host_tools/bench/bench_grid.py: the catch rates per map and difficulty).

Each move it counts the moves from the mouse to every cell (BFS) and steps to
a neighbour one move closer; among such neighbours it keeps the direction of
its last step, so a mouse stepping to and fro does not turn it around.  It
ignores terrain (fewest moves, not least stamina) and knows nothing of the
mouse's strategy.  Plain Python, no firmware module.
"""

from collections import deque

_last = {"round": 0, "step": 0}


def _distances(board, start):
    """Moves from ``start`` to every cell (None: unreachable)."""
    cols = board.cols
    dist = [None] * len(board.costs)
    dist[start] = 0
    queue = deque([start])
    while queue:
        p = queue.popleft()
        r, c = divmod(p, cols)
        for q, ok in ((p - 1, c > 0), (p + 1, c < cols - 1), (p - cols, r > 0),
                      (p + cols, r < board.rows - 1)):
            if ok and board.costs[q] and dist[q] is None:
                dist[q] = dist[p] + 1
                queue.append(q)
    return dist


def chase(board, position, legal):
    """One step along a shortest path to the mouse, keeping its direction on ties."""
    if board.round <= _last["round"]:
        _last["step"] = 0                   # a new game
    _last["round"] = board.round
    dist = _distances(board, board.mouse)
    closer = [q for q in legal if q != position and dist[q] is not None
              and (dist[position] is None or dist[q] < dist[position])]
    if not closer:
        return legal[0]
    same = position + _last["step"]
    choice = same if same in closer else closer[0]
    _last["step"] = choice - position
    return choice
