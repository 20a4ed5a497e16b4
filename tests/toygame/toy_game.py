"""A fifth game that exists only in tests (tests/test_game_registry.py): "Count
Down", a level is one number N (1..99) and the player wins after N presses of A.
It is written like a firmware scene module: ``Scene(ctx)``, ``check_level`` and
``show_level``, drawing on the 128x64 frame buffer."""

import buttons
import gfx
import screens


def check_level(text):
    """A level is one number 1..99 (the pack check the device would run)."""
    word = text.strip()
    if not (word.isdigit() and 1 <= int(word) <= 99):
        raise ValueError("a Count Down level is a number 1..99, not %r" % word[:8])
    return int(word)


class Scene(screens.Scene):
    def __init__(self, ctx):
        self.left = 3

    def show_level(self, text):
        self.left = check_level(text)

    def tick(self, ctx):
        if ctx.buttons.just_pressed(buttons.B):
            return "exit"
        if ctx.buttons.just_pressed(buttons.A) and self.left:
            self.left -= 1
        return None

    def draw(self, fb):
        fb.fill(0)
        gfx.text(fb, "COUNT DOWN %d" % self.left, 1, 1)
