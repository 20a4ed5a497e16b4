"""The screen contract: what the runtime, the launcher and the web page call
on a screen, each with its default (docs/conventions.md, "Screens").

``Screen``: anything that ticks and draws (a game's list, play or end screen,
the launcher, the error screen).  ``Scene``: the one screen the runtime runs
for a game, ``Scene(ctx)`` in the module that games.SCENE names; it holds the
game's other screens and adds the game-in-progress and level hooks.  Callers
call these directly, never through hasattr/getattr: a screen that has no use
for a hook inherits the default.  Resident with the launcher, so comments
rather than docstrings on the methods.
"""


class Screen:
    # one tick: read ctx.buttons, do this tick's share of work; "exit" leaves
    def tick(self, ctx):
        return None

    # draw the whole screen into fb (128 x 64, MONO_VLSB)
    def draw(self, fb):
        pass

    # the runtime's frame cache: while this value stays the same (and not
    # None) the screen is not redrawn; None: redraw every tick
    def frame_key(self):
        return None

    # True while work is under way that should finish before the panel
    # sleeps (the panel dims but stays on)
    def busy(self):
        return False

    # called while the runtime waits for the next tick (every 8 ms): True
    # starts that tick at once.  For input that is not a button, such as the
    # other handheld's move arriving over the link cable, so it is answered
    # without waiting out the tick.  Cheap, and True only for something new
    # (a True for the same thing each time would run ticks back to back)
    def wake(self):
        return False


class Scene(Screen):
    # the game in progress as a small dict for the play save, None when no
    # game is in play (or it has ended)
    def snapshot(self):
        return None

    # put a snapshot back; False (or ValueError, TypeError, KeyError,
    # IndexError) when it does not fit: the runtime then clears the save
    def restore(self, snap):
        return False

    # how many levels the game offers (built-in, then a pack's); 0: none
    def n_levels(self):
        return 0

    # go to level i (0-based) as the player would choose it; False when the
    # game has no numbered levels
    def open_level(self, i):
        return False
