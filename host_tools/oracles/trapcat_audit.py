"""Checks the hard cat's and the hint's exact guarantees against
the independent solver in host_tools/oracles/trapcat_exact.py, on every position of
seeded games (the hint blocker against the hard cat, and against the normal
cat on odd games for variety), 9x9 with 12 start blocks.

- cat to move, forced escape within k <= 5 moves: the hard cat's step must
  keep one within k - 1 (a miss otherwise), counted by k;
- cat to move, no forced escape within 5, some step not captured by force
  within 4 blocks: the hard cat's step must be one of those;
- player to move, capture within h <= 4 blocks forced (counted by the
  smallest h): the hint's block must keep a forced capture within the
  4-block horizon (3 more blocks);
- player to move, no forced capture within 4, some block leaves no forced
  escape within 5 moves: the hint's block must be one of those.
"""

import host_tools.core.fwpath  # noqa: F401  (firmware/ on sys.path)
import trapcat
import trapcat_ai
from host_tools.oracles.trapcat_exact import Exact, mask

ESCAPE_DEPTH = 5
CAPTURE_DEPTH = 4


def game_positions(games, first=0, size=9, blocks=12):
    """(kind, cells bytes, cat) for every turn of seeded games: kind "cat"
    (cat to move, after a block) or "blocker" (player to move).  Game g
    pits the hint blocker (even g) or the greedy blocker (odd g, so the cat
    often has forced escapes) against the hard cat (normal cat when g % 3
    == 2)."""
    b = trapcat.Board(size)
    hint = trapcat_ai.StrongBlocker(b)
    greedy = trapcat_ai.GreedyBlocker(b)
    hard = trapcat_ai.HardCat(b)
    normal = trapcat_ai.NormalCat(b)
    out = []
    for g in range(first, first + games):
        b.reset(trapcat.Rng(7000 + g), blocks)
        cat = normal if g % 3 == 2 else hard
        blocker = greedy if g % 2 else hint
        while b.status == trapcat.PLAYING:
            out.append(("blocker", bytes(b.cells), b.cat))
            b.block(blocker.choose(b))
            if b.status != trapcat.PLAYING:
                break
            out.append(("cat", bytes(b.cells), b.cat))
            b.move_cat(cat.choose(b))
    return out


class Tally:
    def __init__(self):
        self.cat_escape = {k: [0, 0] for k in range(1, ESCAPE_DEPTH + 1)}   # [positions, misses]
        self.cat_avoid = [0, 0]
        self.hint_capture = {h: [0, 0] for h in range(1, CAPTURE_DEPTH + 1)}
        self.hint_avoid = [0, 0]
        self.failures = []

    def misses(self):
        return (sum(v[1] for v in self.cat_escape.values()) + self.cat_avoid[1]
                + sum(v[1] for v in self.hint_capture.values()) + self.hint_avoid[1])


def audit(positions, size=9, tally=None):
    """Check the device strategies on ``positions``; returns a Tally."""
    tally = tally or Tally()
    ex = Exact(size)
    b = trapcat.Board(size)
    hard = trapcat_ai.HardCat(b)
    hint = trapcat_ai.StrongBlocker(b)
    for kind, cells, cat in positions:
        b.load(cells, cat)
        blocked = mask(cells)
        if kind == "cat":
            _check_cat(ex, b, blocked, cat, hard.choose(b), tally)
        else:
            _check_hint(ex, b, blocked, cat, hint.choose(b), tally)
        if len(ex.memo_e) + len(ex.memo_c) > 400000:
            ex.clear()
    return tally


def _check_cat(ex, b, blocked, cat, move, tally):
    k = ex.min_escape(blocked, cat, ESCAPE_DEPTH)
    if k is not None:
        ok = ex.border[move] or (k > 1 and ex.escape_blk(blocked, move, k - 1))
        tally.cat_escape[k][0] += 1
        if not ok:
            tally.cat_escape[k][1] += 1
            tally.failures.append(("cat escape", k, bytes(b.cells), cat, move))
        return
    moves = ex.free_nb(blocked, cat)
    caught = {y: ex.capture_blk(blocked, y, CAPTURE_DEPTH) for y in moves}
    if caught and not all(caught.values()):
        tally.cat_avoid[0] += 1
        if caught[move]:
            tally.cat_avoid[1] += 1
            tally.failures.append(("cat capture", CAPTURE_DEPTH, bytes(b.cells), cat, move))


def _check_hint(ex, b, blocked, cat, block, tally):
    if not b.can_block(block):
        tally.failures.append(("hint illegal", 0, bytes(b.cells), cat, block))
        tally.hint_avoid[1] += 1
        return
    after = blocked | 1 << block
    for h in range(1, CAPTURE_DEPTH + 1):
        if ex.capture_blk(blocked, cat, h):
            tally.hint_capture[h][0] += 1
            if not ex.captured_after(after, cat, CAPTURE_DEPTH - 1):
                tally.hint_capture[h][1] += 1
                tally.failures.append(("hint capture", h, bytes(b.cells), cat, block))
            return
    if not ex.escape_blk(blocked, cat, ESCAPE_DEPTH):
        tally.hint_avoid[0] += 1
        if ex.escape_cat(after, cat, ESCAPE_DEPTH):
            tally.hint_avoid[1] += 1
            tally.failures.append(("hint escape", ESCAPE_DEPTH, bytes(b.cells), cat, block))


class ExactBlocker:
    """A reference blocker for the bench (host only, slow): the hint's
    forced captures, else the best-scored block after which the cat has no
    forced escape within ``horizon`` moves (exact, Deep with enough plies);
    the hint's choice when every block leaves one."""

    def __init__(self, board, horizon=7):
        self.horizon = horizon
        self.hint = trapcat_ai.StrongBlocker(board)
        self.deep = trapcat_ai.Deep(board, 2 * horizon + 2)

    def choose(self, board):
        h = self.hint
        h.begin(board)
        while h.phase not in (0, 8):         # _DONE, or _VERIFY: scored candidates
            h._unit()
        if h.phase == 0:
            return h.answer
        d = self.deep
        d.load(board)
        for i in range(h.nc):
            c = h.cl[i]
            d.block(c)
            escapes = d.solve(trapcat_ai.ESCAPE, 0, board.cat, self.horizon)
            d.unblock(c)
            if not escapes:
                return c
        return h.cl[0]


def exact_blocker_escapes(games, seed, first=0, horizon=7, blocks=12):
    """How many of the seeded games (as `trapcat tournament`) the hard cat
    escapes against ExactBlocker."""
    from host_tools.commands.trapcat_cmd import game_seed, play_game
    b = trapcat.Board(9)
    blocker = ExactBlocker(b, horizon)
    cat = trapcat_ai.HardCat(b)
    escapes = 0
    for g in range(first, first + games):
        winner, _, foul = play_game(b, cat, blocker, game_seed(seed, g), blocks)
        if foul:
            raise RuntimeError(foul)
        escapes += winner == "cat"
    return escapes
