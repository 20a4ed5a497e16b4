"""The launcher's "how to play" pages (B on a game's line): a scene run like a
game (runtime.start_game(entry, "howto")), so it and the game's rules text are
loaded only while shown and leave with it; the launcher's resident heap does not
carry them.

The text is the game's, in ``<game id>_rules.py``: ``PAGES``, a tuple of pages,
each a heading (8x8 font, <= 15 characters) and up to LINES lines of the 3x5 font
(<= 31 characters); CONTROLS, the controls every game shares (scenekit.Pause,
the table in docs/runtime.md), is written once here and shown as every game's
second page.  RIGHT / DOWN / A: next page (A on the last one goes back),
LEFT / UP: previous, B: back (to the launcher, or to a game's pause menu).
"""

import screens
from buttons import A, B, DOWN, LEFT, RIGHT, UP
import gfx

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

LINES = const(7)
NO_RULES = (("HOW TO PLAY", "NO RULES FOR THIS GAME YET."),)
CONTROLS = ("CONTROLS",
            "B TAP: PUT DOWN / CANCEL",
            "B+A (HOLD B, PRESS A): UNDO",
            "HOLD B: MENU - RESUME, HINT",
            "(IF ANY), UNDO, RESTART, RULES,",
            "QUIT (KEPT FOR CONTINUE)",
            "END: A AGAIN/NEXT, B BACK")


class Scene(screens.Scene):
    def __init__(self, ctx):
        try:
            pages = __import__(ctx.game_id + "_rules").PAGES
            self.pages = pages[:1] + (CONTROLS,) + pages[1:]
        except ImportError:
            self.pages = NO_RULES
        self.page = 0
        self.footer = ""
        self._footer()

    def _footer(self):
        n = len(self.pages)
        self.footer = "%d/%d  LEFT/RIGHT:PAGE  B:BACK" % (self.page + 1, n)

    def frame_key(self):
        return self.page

    def tick(self, ctx):
        btn = ctx.buttons
        n = len(self.pages)
        if btn.just_pressed(B):
            return "exit"
        if btn.repeat(RIGHT | DOWN) or btn.just_pressed(A):
            if self.page + 1 < n:
                self.page += 1
            elif btn.just_pressed(A):
                return "exit"
        elif btn.repeat(LEFT | UP) and self.page > 0:
            self.page -= 1
        else:
            return None
        self._footer()
        return None

    def draw(self, fb):
        fb.fill(0)
        page = self.pages[self.page]
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text(page[0], 2, 1, 0)
        y = 12
        for i in range(1, min(len(page), LINES + 1)):
            gfx.text(fb, page[i], 2, y)
            y += 6
        gfx.text(fb, self.footer, 2, 58)
