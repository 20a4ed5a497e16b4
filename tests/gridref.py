"""An independent reference for the grid solvers: plain Dijkstra with heapq
over a dict-free list graph, written without looking at firmware/gridpath.py."""

import heapq


def neighbours(cols, rows, cell):
    r, c = divmod(cell, cols)
    if c > 0:
        yield cell - 1
    if c < cols - 1:
        yield cell + 1
    if r > 0:
        yield cell - cols
    if r < rows - 1:
        yield cell + cols


def dijkstra(cols, rows, costs, src, dst, unit=False):
    """Least cost (sum of entered cells' costs, or moves if unit) or None."""
    if not costs[src] or not costs[dst]:
        return None
    best = [None] * (cols * rows)
    best[src] = 0
    heap = [(0, src)]
    while heap:
        d, cell = heapq.heappop(heap)
        if d != best[cell]:
            continue
        if cell == dst:
            return d
        for n in neighbours(cols, rows, cell):
            if costs[n]:
                nd = d + (1 if unit else costs[n])
                if best[n] is None or nd < best[n]:
                    best[n] = nd
                    heapq.heappush(heap, (nd, n))
    return None


def check_path(cols, rows, costs, path, src, dst):
    """Assert path runs src..dst through free 4-neighbours; return its cost."""
    assert path[0] == src and path[-1] == dst
    total = 0
    for a, b in zip(path, path[1:]):
        assert b in set(neighbours(cols, rows, a)), (a, b)
        assert costs[b], "path enters a blocked cell %d" % b
        total += costs[b]
    return total
