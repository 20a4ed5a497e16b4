"""Cat & Mouse's model on the handheld: one match (the game in play, whose
turn, the rounds, the undo ring and the AI's moves), with no drawing.  The
play screen and the watch mode (catmouse_game.py, catmouse_watch.py) both
drive it through its methods; neither imports the other.

A round is the cat's move, then the mouse's (as catmouse.CatMouseGame.
play_round, but a move at a time: the player's between ticks, the AI's as a
task run by a ``work.Job``, a slice or more a tick).  Every AI is a task
(catmouse_ai: the evasive mouse is one, a plain strategy is wrapped in a
``StrategyTask``); one that runs out of memory ends in the job's "NOT ENOUGH
MEMORY" toast and a legal move instead (stay if it may, else the first).

Undo: one record per move the player chose (forced rests are replayed): cat,
mouse and round (a byte each: maps here are at most 16 x 8 cells, 96
rounds), cat and mouse stamina (16 bits each), both rests and "round
started" in one byte, the AI's state (30 bits: its RNG's, or the BFS cat's
route, Match.start), so the same moves replay the same AI.  Nothing is allocated by a move or an undo.

The game in progress (``snapshot``/``restore``): the scene checks the dict
first (catmouse_saves.snapshot), ``restore`` then every record inside its
hex strings (the state and each undo round: both pieces on free cells of the
map, apart: catmouse_saves.places), so no later undo can put a piece off
the map.
"""

import catmouse
import catmouse_ai
import catmouse_maps
import undoring
import undosave   # at load: an import in a move's save costs ~30 ms on a Pico
import work

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

UNDO_DEPTH = const(64)
UNDO_SIZE = const(12)

class Match:
    """The game in play: ``game`` (catmouse.CatMouseGame), ``side`` ("mouse"
    or "cat": the player's piece; "watch": AI against AI), the level or map
    text it was started from, the difficulty and seed its AI was made with,
    ``ai`` (a task) and its ``job``, the ``undo_ring``."""

    def __init__(self, seed):
        self.game = None
        self.cmap = None
        self.side = "mouse"
        self.level = 0
        self.map_text = None        # a pack's (or shown) map; None: built-in ``level``
        self.diff = 1
        self.seed = seed
        self.ai = None
        self.ai_state = None        # what undo keeps of the AI: its Rng, the BFS cat's route; or None
        self.prepared = True        # the AI has its board (``ready``)
        self.job = work.Job()
        self.undo_ring = undoring.UndoRing(UNDO_SIZE, UNDO_DEPTH)
        self.round_started = False

    # -- a new game -------------------------------------------------------------
    def new_game(self, level, text, side):
        """Set up the map (``text``, or built-in ``level`` when None); no AI yet."""
        self.level = level
        self.map_text = text
        self.side = side
        self.cmap = catmouse.parse_map(text or catmouse_maps.LEVELS[level][1])
        self.game = catmouse.CatMouseGame(self.cmap)
        self.job.cancel()
        self.round_started = False

    def reseed(self, now):
        """Mix the clock into the seed the next AI is made with."""
        self.seed = (self.seed * 31 + now) & 0xFFFF

    def use_ai(self, task, state):
        """``task`` plays the AI's piece (``state``: an object whose 30-bit
        ``state`` undo keeps: an Rng, the BFS cat; or None)."""
        self.ai = task
        self.ai_state = state
        self.job.cancel()

    def start(self, level, text, side, diff, now):
        """A new game against the AI of difficulty ``diff`` (its board loaded by ``ready``)."""
        self.new_game(level, text, side)
        self.diff = diff
        self.reseed(now)
        seed = self.seed
        state = None                    # what undo keeps of the AI (use_ai)
        if side == "mouse":             # the cat: wanders one move in three, BFS, A*
            if diff == 0:
                cat = catmouse_ai.EasyCat(seed)
                state = cat.rng
            elif diff == 1:
                cat = state = catmouse_ai.BfsCat()      # its route
            else:
                cat = catmouse_ai.AstarCat()
            task = catmouse_ai.StrategyTask(cat, cat.prepare)
        else:                           # the mouse: catmouse_ai.MOUSE_SLIPS
            slip = catmouse_ai.MOUSE_SLIPS[diff]
            if slip == 1:
                mouse = catmouse_ai.RandomMover(seed)
                state = mouse.rng
                task = catmouse_ai.StrategyTask(mouse)
            else:
                task = catmouse_ai.EvasiveMouse(slip, seed)
                if slip:
                    state = task.rng
        self.use_ai(task, state)
        self.prepared = False           # the AI's board: ``ready()``, on the next tick
        self.undo_ring.clear()

    def ready(self):
        """Load the AI's board if ``start`` left it to this tick (the first of
        play): the board load is 15-30 ms on the virtual Pico, and the tick of
        the A that starts play (the map, the AI, the map view, a whole frame
        sent) took up to 112 ms with it, 72-78 ms without (16 x 8 maps)."""
        if not self.prepared:
            self.prepared = True
            self.ai.prepare(self.game.board)

    # -- moves ------------------------------------------------------------------
    def begin_round(self):
        g = self.game
        g.round += 1
        g.board.round = g.round
        g.last_error = None
        self.round_started = True

    def end_round(self):
        g = self.game
        self.round_started = False
        if not g.winner and g.round >= g.round_limit:
            g.winner = "mouse"

    def move(self, piece, cell):
        """Move ``piece`` to ``cell`` (a legal one) for the player or the watch."""
        self.game.move(piece, cell)

    def thinking(self):
        """True while the AI's task is under way."""
        return self.job.running()

    def ai_move(self, ctx, piece):
        """Let the AI move ``piece``; False while it is still thinking (its
        task runs a slice or more per call, each under the tick's deadline)."""
        g = self.game
        job = self.job
        here = g.cat if piece == "cat" else g.mouse
        self.ready()
        if not job.running():
            legal = g.legal_moves(piece)
            if len(legal) == 1:
                g.move(piece, legal[0])
                return True
            self.ai.begin(g.board, here, legal)
            job.start(self.ai)
        state = job.run(ctx)
        if state == work.RUNNING:
            return False
        if state == work.DONE:
            cell = self.ai.answer
        else:                       # out of memory (the job showed it): a legal move
            legal = g.legal_moves(piece)
            cell = here if here in legal else legal[0]
        job.cancel()
        g.move(piece, cell)
        return True

    # -- undo -------------------------------------------------------------------
    def push_round(self):
        """Record the state before the player's move (a chosen one, not a rest)."""
        self.put_round(self.undo_ring)

    def put_round(self, u):
        """The state now as ring ``u``'s newest record."""
        g = self.game
        at = u.push()
        buf = u.buf
        buf[at] = g.cat
        buf[at + 1] = g.mouse
        buf[at + 2] = g.round
        buf[at + 3] = g.cat_stamina & 0xFF
        buf[at + 4] = g.cat_stamina >> 8
        buf[at + 5] = g.mouse_stamina & 0xFF
        buf[at + 6] = g.mouse_stamina >> 8
        buf[at + 7] = g.cat_rest | g.mouse_rest << 3 | (64 if self.round_started else 0)
        state = self.ai_state
        u.put30(at + 8, state.state if state is not None else 0)

    def undo(self):
        """Back to the player's last chosen move; False when there is none."""
        u = self.undo_ring
        at = u.pop()
        if at < 0:
            return False
        g = self.game
        buf = u.buf
        g.cat = buf[at]
        g.mouse = buf[at + 1]
        g.round = buf[at + 2]
        g.cat_stamina = buf[at + 3] | buf[at + 4] << 8
        g.mouse_stamina = buf[at + 5] | buf[at + 6] << 8
        flags = buf[at + 7]
        g.cat_rest = flags & 7
        g.mouse_rest = (flags >> 3) & 7
        self.round_started = flags >= 64
        g.winner = None
        g.last_error = None
        board = g.board
        board._place(g.cat, g.mouse)
        board.cat_rest = g.cat_rest
        board.mouse_rest = g.mouse_rest
        board.round = g.round
        if self.ai_state is not None:
            self.ai_state.state = u.get30(at + 8)
        self.job.cancel()
        return True

    # -- the game in progress (runtime.save_game, CONTINUE) ------------------------
    def snapshot(self):
        """The game in play as a small dict (side, map, the state as an undo
        record, the undo rounds); None when there is none, it has ended, or
        the AIs play each other."""
        g = self.game
        if g is None or g.winner or self.side == "watch":
            return None
        now = undoring.UndoRing(UNDO_SIZE, 1)
        self.put_round(now)
        return {
            "side": self.side, "level": self.level, "map": self.map_text,
            "diff": self.diff, "seed": self.seed, "state": undosave.to_text(now.buf),
            "undo": undosave.to_text(undosave.dump(self.undo_ring)),
        }

    def restore(self, snap, now, fits):
        """Play on from ``snapshot()``'s dict (its keys and ranges checked);
        False if a record in it does not fit the map: ``fits(rec, at, costs)``
        (catmouse_saves.places, passed in: that module is not kept)."""
        state = undosave.from_text(snap["state"])
        undo = undosave.from_text(snap["undo"])
        level = snap["level"]
        text = snap["map"]
        if text is None and level >= len(catmouse_maps.LEVELS):
            return False
        self.start(level, text, snap["side"], snap["diff"], now)
        costs = self.game.costs
        if not fits(state, 0, costs):
            return False
        for at in range(0, len(undo), UNDO_SIZE):
            if not fits(undo, at, costs):
                return False
        self.seed = snap["seed"]
        u = self.undo_ring
        at = u.push()
        u.buf[at:at + UNDO_SIZE] = state
        self.undo()                     # the saved state, put back as an undo would
        undosave.load(u, undo)
        return True
