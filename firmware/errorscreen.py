# The screen the runtime shows when a game fails ("GAME ERROR", the
# exception's type and text) or does not fit in memory ("NO MEMORY"): the
# title and the message in lines of at most 31 characters; A or B goes back
# to the launcher.  Loaded only while it shows (runtime._error_screen), so
# the launcher does not carry it.

import buttons
import gfx
import screens


class ErrorScreen(screens.Screen):
    def __init__(self, title, message):
        self.title = title
        self.lines = []
        words = str(message).split(" ")
        line = ""
        for w in words:
            if len(line) + len(w) + 1 > 31 and line:
                self.lines.append(line)
                line = w
            else:
                line = (line + " " + w) if line else w
        if line:
            self.lines.append(line)
        self.lines = self.lines[:6]

    def tick(self, ctx):
        if ctx.buttons.just_pressed(buttons.A | buttons.B):
            return "exit"
        return None

    def draw(self, fb):
        fb.fill(0)
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text(self.title[:16], 1, 1, 0)
        y = 14
        for line in self.lines:
            gfx.text(fb, line, 1, y)
            y += 7
        gfx.text(fb, "A/B: BACK", 1, 58)
