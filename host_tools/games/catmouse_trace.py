"""Round-by-round traces of the Cat & Mouse searches (`solve grid --trace`,
`--gif`, `--png`), read from the searches the games run.

- default order: the games' own GridSearch (firmware/gridpath.py), which runs
  backwards from the mouse, unchanged and at its full speed.  Its BFS queue is
  a chain of links in expansion order that outlives the search (``work``; each
  reached cell's side towards its parent is in ``sides``), so the trace is read
  afterwards; its A* closes each cell it takes by writing 2 into ``came``, so
  the tracer lends it a ``came`` list that reports those writes.
- seed order: gridpath_seed.SeedSearch on the same buffers, forwards from the
  cat in the article's order (level by level, last found first; least F, then
  lowest cell number).

Either way the tracer only watches: at each expansion it looks at the four
neighbours of the cell expanded before, and a neighbour that is newly open or
whose G dropped is what that expansion added.
"""

import host_tools.core.fwpath  # noqa: F401
from gridpath import GridSearch
from gridpath_seed import SeedSearch

from host_tools.core import UserError, plural, write_atomic

_OPEN = 1
_CLOSED = 2


class _ClosingList(list):
    """A ``came`` for GridSearch.astar that calls ``on_close(padded cell)``
    just before A* closes a cell (writes 2), i.e. as it takes it off the open
    list and before it looks at its neighbours.  CPython only: the device's
    list stores do not call an overridden __setitem__."""

    def __init__(self, data, on_close):
        super().__init__(data)
        self.on_close = on_close

    def __setitem__(self, key, value):
        if value == _CLOSED and isinstance(key, int):
            self.on_close(key)
        super().__setitem__(key, value)


class _Watcher:
    """Called with each cell as the search takes it (SeedSearch.on_expand, or
    through _ClosingList): collects [padded cell, adds] per expansion."""

    def __init__(self, search, start_p):
        self.s = search
        self.expansions = []
        self.known = {start_p: 0}

    def __call__(self, cell):
        self.flush()
        self.expansions.append([self.s.pad[cell], []])

    def flush(self):
        if not self.expansions:
            return
        s = self.s
        p, adds = self.expansions[-1]
        if adds:
            return
        for q in (p - 1, p + 1, p - s.width, p + s.width):
            if s.came[q] != _OPEN:
                continue
            gq = s.g[q]
            old = self.known.get(q)
            if old is None or gq < old:
                adds.append((q, gq, old is not None))
                self.known[q] = gq


def _default_bfs_expansions(s, src_p, dst_p):
    """The games' BFS, read after the search: the queue chain from the mouse,
    up to the cell that reached the cat (all of it when none did)."""
    if src_p == dst_p:
        return [[dst_p, []]]
    sides = s.sides
    link = s.work
    back = s.back
    side = sides[src_p]
    stop = src_p + back[side] if 1 <= side <= 4 else 0
    dist = {dst_p: 0}
    by_parent = {}
    order = []
    p = dst_p
    while p:
        order.append(p)
        if p != dst_p:
            parent = p + back[sides[p]]
            dist[p] = dist[parent] + 1
            by_parent.setdefault(parent, []).append((p, dist[p], False))
        p = link[p]
    expansions = []
    for p in order:
        expansions.append([p, by_parent.get(p, [])])
        if p == stop:
            break
    return expansions


def trace(cmap, algo, order="default"):
    """The search as a dict (see `solve grid --help`): rounds, cost, path."""
    s = GridSearch(cmap.cols, cmap.rows)
    s.load(cmap.costs)
    seed = order == "seed"
    start, goal = (cmap.cat, cmap.mouse) if seed else (cmap.mouse, cmap.cat)
    start_p = s.pad[start]
    watcher = _Watcher(s, start_p)
    if seed:
        runner = SeedSearch(s)
        runner.on_expand = watcher
        found = runner.bfs(cmap.cat, cmap.mouse) if algo == "bfs" else runner.astar(cmap.cat, cmap.mouse)
        watcher.flush()
        expansions = watcher.expansions
    elif algo == "astar":
        s.came = _ClosingList(s.came, lambda p: watcher(s.public[p]))
        found = s.astar(cmap.cat, cmap.mouse)
        watcher.flush()
        expansions = watcher.expansions
    else:
        found = s.bfs(cmap.cat, cmap.mouse)
        if cmap.costs[cmap.cat] and cmap.costs[cmap.mouse]:
            expansions = _default_bfs_expansions(s, s.pad[cmap.cat], start_p)
        else:
            expansions = []
    path = s.path_cells() if found is not None else []
    cols = cmap.cols

    def entry(p, g):
        cell = s.public[p]
        item = {"cell": cell, "g": g}
        if algo == "astar":
            h = abs(cell % cols - goal % cols) + abs(cell // cols - goal // cols)
            item["h"] = h
            item["f"] = g + h
        return item

    # Entries are shared between rounds (a closed cell's G no longer changes),
    # so a round's lists cost a pointer per cell, not a new dict.
    rounds = []
    open_cells = {start_p: entry(start_p, 0)}  # padded -> entry, in the order found
    closed = []
    goal_p = s.pad[goal]

    def close_round(rnd):
        rnd["open"] = list(open_cells.values())
        if algo == "astar":
            rnd["open"].sort(key=lambda item: (item["f"], item["cell"]))
        rnd["closed"] = closed[:]

    for p, adds in expansions:
        here = open_cells[p]
        if algo == "bfs" and rounds and rounds[-1]["level"] == here["g"]:
            current = rounds[-1]
        else:
            if rounds:
                close_round(rounds[-1])
            current = {"round": len(rounds) + 1, "steps": []}
            if algo == "bfs":
                current["level"] = here["g"]
            rounds.append(current)
        del open_cells[p]
        closed.append(here)
        step = {"expand": here, "adds": []}
        if p == goal_p and algo == "astar":
            step["goal"] = True
        for q, gq, improved in adds:
            item = entry(q, gq)
            open_cells.pop(q, None)
            open_cells[q] = item
            step["adds"].append(dict(item, improved=True) if improved else item)
        current["steps"].append(step)
    if rounds:
        close_round(rounds[-1])
    result = {"algo": algo, "order": order,
              "direction": "forward" if seed else "backward",
              "start": start, "goal": goal, "cat": cmap.cat, "mouse": cmap.mouse,
              "rounds": rounds, "cost": found}
    if found is not None:
        result["moves"] = len(path) - 1
        result["path"] = path
    return result


def _cell_text(item):
    if "f" in item:
        return "%d:%d(%d+%d)" % (item["cell"], item["f"], item["g"], item["h"])
    return str(item["cell"])


def _who(result, cell):
    return "the cat" if cell == result["cat"] else "the mouse"


def format_trace(result):
    """The trace as text, one line per expanded cell."""
    algo = result["algo"]
    start = result["start"]
    goal = result["goal"]
    lines = []
    if result["order"] == "seed":
        rule = ("level by level, each level's cells last found first; neighbours left, right, up, down"
                if algo == "bfs" else
                "least F, then the lowest cell number; G = stamina from the cat, H = Manhattan distance to the mouse")
        lines.append("%s from the cat (%d) to the mouse (%d), seed order (the article's): %s"
                     % (algo.upper() if algo == "bfs" else "A*", start, goal, rule))
    else:
        rule = ("first in, first out; neighbours left, right, up, down"
                if algo == "bfs" else
                "least F, then the cell queued last; G = stamina still to pay to the mouse, "
                "H = Manhattan distance to the cat")
        lines.append("%s from the mouse (%d) back to the cat (%d), default order (the games'): %s"
                     % (algo.upper() if algo == "bfs" else "A*", start, goal, rule))
    if algo == "astar":
        lines.append("cells as cell:F(G+H)")
    for rnd in result["rounds"]:
        if algo == "bfs":
            lines.append("round %d (%s from %s)" % (rnd["round"], plural(rnd["level"], "move"),
                                                   _who(result, start)))
        for step in rnd["steps"]:
            cell = step["expand"]
            if step.get("goal"):
                lines.append("round %d: take %s, %s: done" % (rnd["round"], _cell_text(cell),
                                                              _who(result, goal)))
                continue
            adds = " ".join(_cell_text(a) + (" (cheaper)" if a.get("improved") else "")
                            for a in step["adds"]) or "nothing"
            if algo == "bfs":
                lines.append("  expand %d: adds %s" % (cell["cell"], adds))
            else:
                lines.append("round %d: expand %s, adds %s" % (rnd["round"], _cell_text(cell), adds))
        if algo == "bfs":
            lines.append("  frontier: " + (" ".join(_cell_text(c) for c in rnd["open"]) or "empty"))
        elif not rnd["steps"][-1].get("goal"):
            lines.append("  open:  " + (" ".join(_cell_text(c) for c in rnd["open"]) or "empty"))
            lines.append("  close: " + " ".join(_cell_text(c) for c in rnd["closed"]))
    if algo == "bfs" and result["direction"] == "forward" and result.get("path"):
        # the article prints its BFS path this way round: the links from the mouse
        lines.append("links back from the mouse: " + " ".join(str(c) for c in result["path"][::-1]))
    return "\n".join(lines)


# Pictures ------------------------------------------------------------------

_TERRAIN = {0: (60, 60, 60), 1: (245, 245, 240), 2: (205, 235, 190), 3: (190, 215, 245)}
_EARLY = (255, 214, 102)
_LATE = (214, 96, 77)
_FRONTIER = (130, 30, 170)
_PATH = (30, 30, 30)
_STRIP = {2: (60, 160, 60), 3: (50, 110, 220)}
MAX_FRAMES = 150  # frames of the search in a GIF, before the path's


def _mix(a, b, t):
    return tuple(int(round(x + (y - x) * t)) for x, y in zip(a, b))


def picture_frames(cmap, result, cell_px=None):
    """Frames (PIL images): one per round (on big maps several rounds per
    frame, at most MAX_FRAMES), then the path.  Expanded cells are
    shaded early (yellow) to late (red), the frontier outlined in purple, the
    path drawn as a line from the cat to the mouse."""
    from PIL import Image, ImageDraw

    cols, rows = cmap.cols, cmap.rows
    if cell_px is None:
        cell_px = max(8, min(32, 640 // max(cols, rows)))
    width, height = cols * cell_px + 1, rows * cell_px + 1
    steps = [step for rnd in result["rounds"] for step in rnd["steps"]]
    total = max(1, len(steps) - 1)
    rank = {}

    def base(open_cells, path=()):
        image = Image.new("RGB", (width, height), (255, 255, 255))
        draw = ImageDraw.Draw(image)
        strip = max(2, cell_px // 5)
        for cell in range(cols * rows):
            x, y = (cell % cols) * cell_px, (cell // cols) * cell_px
            cost = cmap.costs[cell]
            fill = _TERRAIN[cost]
            if cell in rank:
                fill = _mix(_EARLY, _LATE, rank[cell] / total)
            draw.rectangle([x, y, x + cell_px, y + cell_px], fill=fill, outline=(150, 150, 150))
            if cost in (2, 3):  # grass / stream stays visible under the shading
                draw.rectangle([x + 1, y + cell_px - strip, x + cell_px - 1, y + cell_px - 1],
                               fill=_STRIP[cost])
            if cost and cell_px >= 24 and cell not in (cmap.cat, cmap.mouse):
                draw.text((x + 3, y + 2), str(cell), fill=(90, 90, 90))
        for cell in open_cells:
            x, y = (cell % cols) * cell_px, (cell // cols) * cell_px
            inset = max(1, cell_px // 8)
            draw.rectangle([x + inset, y + inset, x + cell_px - inset, y + cell_px - inset],
                           outline=_FRONTIER, width=max(1, cell_px // 10))
        if len(path) > 1:
            centres = [((c % cols) * cell_px + cell_px // 2, (c // cols) * cell_px + cell_px // 2)
                       for c in path]
            draw.line(centres, fill=_PATH, width=max(2, cell_px // 6))
        for cell, letter in ((cmap.cat, "C"), (cmap.mouse, "M")):
            x, y = (cell % cols) * cell_px, (cell // cols) * cell_px
            if cell_px >= 12:
                cx, cy = x + cell_px // 2, y + cell_px // 2
                draw.rectangle([cx - 6, cy - 7, cx + 6, cy + 7], fill=(255, 255, 255), outline=(0, 0, 0))
                draw.text((cx - 3, cy - 6), letter, fill=(0, 0, 0))
        return image

    frames = []
    open_now = []
    index = 0
    rounds = result["rounds"]
    every = -(-len(rounds) // MAX_FRAMES)  # big maps: several rounds per frame
    for n, rnd in enumerate(rounds):
        for step in rnd["steps"]:
            rank[step["expand"]["cell"]] = index
            index += 1
        open_now = [c["cell"] for c in rnd["open"]]
        if (n + 1) % every == 0 or n + 1 == len(rounds):
            frames.append(base(open_now))
    frames.append(base(open_now, result.get("path") or []))
    return frames


def write_gif(path, cmap, result):
    import io

    frames = picture_frames(cmap, result)
    buf = io.BytesIO()
    durations = [400] * (len(frames) - 1) + [3000]
    frames[0].save(buf, format="GIF", save_all=True, append_images=frames[1:],
                   duration=durations, loop=0)
    write_atomic(path, buf.getvalue())


def write_png(path, cmap, result):
    import io

    buf = io.BytesIO()
    picture_frames(cmap, result)[-1].save(buf, format="PNG")
    write_atomic(path, buf.getvalue())


def check_picture_name(path, ext):
    if not str(path).lower().endswith("." + ext):
        raise UserError("--%s needs a file name ending in .%s, got %s" % (ext, ext, path))
