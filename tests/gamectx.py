"""A fake game context and scripted buttons for driving a ``Scene`` scene on the
host (``from gamectx import FakeCtx, press, tap, ...``): the runtime contract of
docs/conventions.md without the runtime.  Subclass ``FakeCtx`` for a different
clock or deadline (``now``, ``deadline()``)."""

import json


class FakeButtons:
    """Set ``down`` (just pressed) / ``up`` (just released) for one tick, ``held``
    (pressed) and ``ms`` (how long) for a long press; ``repeat`` is ``down``."""

    def __init__(self):
        self.down = 0
        self.up = 0
        self.held = 0
        self.ms = 0

    def pressed(self, m):
        return bool((self.held | self.down) & m)

    def held_ms(self, b):
        return self.ms if self.held & b else 0

    def just_pressed(self, m):
        return bool(self.down & m)

    def just_released(self, m):
        return bool(self.up & m)

    def repeat(self, m):
        return bool(self.down & m)


class NeverExpires:
    """A deadline that always leaves time (AI work runs one slice per tick)."""

    def remaining(self):
        return 45

    def expired(self):
        return False


class CountingDeadline:
    """Expires after ``budget`` checks; ``max_checks`` is the most checks seen
    since the last reset of ``checks`` (the AI slices run in one tick)."""

    def __init__(self, budget=2):
        self.checks = 0
        self.budget = budget
        self.max_checks = 0

    def remaining(self):
        return 0 if self.checks >= self.budget else 45

    def expired(self):
        self.checks += 1
        self.max_checks = max(self.max_checks, self.checks)
        return self.checks >= self.budget


class FakeCtx:
    """Saves in ``saved`` (through JSON, as on the device; ``stores`` counts them;
    ``save_game`` as the runtime's when ``game`` is set, with ``game_id``),
    toasts in ``toasts``, a clock stopped at ``now``
    (``tick_no()`` the tick it would be at 30 ticks/s)."""

    now = 1000
    width = 128
    height = 64
    frame = None            # no frame bytes: scenes draw through fb only
    has_sound = False
    game_id = None
    levels_dir = None       # the device's /levels
    link = None             # open_link()'s transport (None: no link cable)

    def __init__(self, difficulty=1, cache_dir=None):
        self.buttons = FakeButtons()
        self.settings = {"difficulty": difficulty}
        self.saved = {}
        self.stores = 0
        self.toasts = []
        self.cache_dir = cache_dir
        self.game = None        # the scene whose save_game() calls store (None: counted only)
        self.game_saves = 0
        self.finishes = 0       # ctx.finish calls (a game's end)
        self.collects = 0       # ctx.collect calls

    def ticks_ms(self):
        return self.now

    def tick_no(self):
        return self.now * 30 // 1000

    def deadline(self, ms):
        return NeverExpires()

    def load(self, gid):
        return dict(self.saved.get(gid, {}))

    def store(self, gid, data):
        self.saved[gid] = json.loads(json.dumps(data))
        self.stores += 1

    def beep(self, f, ms):
        pass

    def toast(self, text, ticks=45):
        self.toasts.append(text)

    def save_game(self):
        """As runtime.save_game for ``game`` (set it to follow a scene's saves):
        its snapshot under "resume" in its play save (``ID/play``), or nothing
        there when it is over."""
        self.game_saves += 1
        game = self.game
        if game is None:
            return
        snap = game.snapshot()
        self.store(self.game_id + "/play", {} if snap is None else {"resume": snap})

    def finish(self, gid, records):
        """As the runtime's: the play save cleared, then the records stored."""
        self.finishes += 1
        self.store(gid + "/play", {})
        self.store(gid, records)

    def out_of_memory(self):
        """As the runtime's: the one toast of long work that ran out of memory."""
        self.toasts.append("NOT ENOUGH MEMORY")

    def collect(self):
        """The runtime's collects the heap; counted here."""
        self.collects += 1

    def open_link(self):
        """The link cable's transport: ``link`` (None: the board has none)."""
        return self.link


def tick(game, ctx, down=0, up=0):
    """One tick with ``down`` just pressed and ``up`` just released."""
    ctx.buttons.down = down
    ctx.buttons.up = up
    r = game.tick(ctx)
    ctx.buttons.down = ctx.buttons.up = 0
    return r


def press(game, ctx, mask):
    return tick(game, ctx, down=mask)


def release(game, ctx, mask):
    return tick(game, ctx, up=mask)


def tap(game, ctx, mask):
    """Press then release (two ticks); returns the second tick's result."""
    press(game, ctx, mask)
    return release(game, ctx, mask)


def hold(game, ctx, mask, ms=600):
    """Press, keep held for ``ms`` (one tick), release: three ticks."""
    ctx.buttons.held = mask
    ctx.buttons.ms = 0
    press(game, ctx, mask)
    ctx.buttons.ms = ms
    tick(game, ctx)
    ctx.buttons.held = 0
    release(game, ctx, mask)


def chord(game, ctx, first, then):
    """Hold ``first``, press ``then`` with it, release both (three ticks): the
    games' B+A undo.  Returns the middle tick's result."""
    ctx.buttons.held = first
    ctx.buttons.ms = 100
    press(game, ctx, first)
    r = press(game, ctx, then)
    ctx.buttons.held = 0
    ctx.buttons.ms = 0
    release(game, ctx, first)
    return r
