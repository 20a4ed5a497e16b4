# The launcher: the game list (from games.py), settings and about screens.
#
# It is a screen like a game (``tick(ctx)`` / ``draw(fb)``) that stays resident;
# picking a game asks the runtime to hand over (``Runtime.start_game``).
# A game with a saved game in progress (``runtime.resumable``) is marked "*":
# A continues it, RIGHT starts a new one.
# B on a game's line shows its "how to play" pages (howto.py with the game's
# ``<id>_rules.py``, started like a game so neither stays resident).
# The last line, "2 Players" (games.LINK, below About: UP from the first line),
# starts a game against another handheld over the link cable (linkplay.py,
# loaded like a game); "*" and CONTINUE as on a game's line.
# Settings: contrast (4 levels), sound (only when the board has a buzzer),
# difficulty and "screen off after" (runtime.SLEEP_CHOICES); they are stored with
# the saves under "_settings".
# (comments, not a docstring: this module stays resident, and a docstring stays
# on the heap of a MicroPython that compiles the source)

import games
import gfx
import runtime
import screens
from buttons import A, B, DOWN, LEFT, RIGHT, UP

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MENU = const(0)
_SETTINGS = const(1)
_ABOUT = const(2)
_VISIBLE = const(5)


def _sleep_index(settings):
    """Where the "sleep" setting is among runtime.SLEEP_CHOICES (an unknown value: 1 min)."""
    value = settings.get("sleep", 60)
    choices = runtime.SLEEP_CHOICES
    for k in range(len(choices)):
        if choices[k] == value:
            return k
    return 1


class Launcher(screens.Screen):
    def __init__(self, runtime):
        self.rt = runtime
        self.mode = _MENU
        self.items = [entry[games.TITLE] for entry in runtime.registry] + [
            "Settings", "About", games.LINK[games.TITLE]]
        self.sel = 0
        self.top = 0
        self.set_sel = 0
        self.about_lines = ()
        self._labels = ["", "", "", "", ""]
        self._gen = 0               # bumped when the settings labels / about text / gauge change
        self._gauge = -1            # the battery gauge's code() last drawn
        self._settings_rows = ["contrast", "difficulty", "sleep", "back"]
        if runtime.hw.buzzer is not None:
            self._settings_rows.insert(1, "sound")
        # made once here, so settings it cannot show fail now (main.make_launcher
        # starts on the defaults then), and dropped: Settings makes them again
        # when it opens, and the menu does not keep ~150 B of labels
        self._refresh_labels()
        self._labels = ["", "", "", "", ""]

    # -- menu ----------------------------------------------------------------------
    def frame_key(self):
        """Changes whenever draw() would draw something else (runtime frame cache):
        mode 2 bits, selection, scroll, settings row, label generation; < 2**30."""
        gauge = self.rt.battery
        if gauge is not None and gauge.code() != self._gauge:
            self._gauge = gauge.code()
            self._gen += 1
        return (self.mode | (self.sel & 0xFF) << 2 | (self.top & 0xFF) << 10
                | (self.set_sel & 0xF) << 18 | (self._gen & 0xFF) << 22)

    def tick(self, ctx):
        btn = ctx.buttons
        if self.mode == _SETTINGS:
            return self._tick_settings(ctx)
        if self.mode == _ABOUT:
            if btn.just_pressed(A | B):
                self.mode = _MENU
            return None
        n = len(self.items)
        if btn.repeat(DOWN):
            self.sel = (self.sel + 1) % n
        elif btn.repeat(UP):
            self.sel = (self.sel - 1) % n
        if self.sel < self.top:
            self.top = self.sel
        elif self.sel >= self.top + _VISIBLE:
            self.top = self.sel - _VISIBLE + 1
        if btn.just_pressed(RIGHT) and self._saved_game(self.sel):
            ctx.beep(1200, 30)
            self.rt.start_game(self._entry(self.sel))
        elif btn.just_pressed(B) and self.sel < len(self.rt.registry):
            ctx.beep(1200, 30)
            self.rt.start_game(self.rt.registry[self.sel], "howto")
        elif btn.just_pressed(A):
            ctx.beep(1200, 30)
            ngames = len(self.rt.registry)
            entry = self._entry(self.sel)
            if entry is not None:
                self.rt.start_game(entry, resume=entry[games.ID] in self.rt.resumable)
            elif self.sel == ngames:
                self.mode = _SETTINGS
                self.set_sel = 0
                self._refresh_labels()
            else:
                self._enter_about()
        return None

    # the game (or games.LINK) of menu line i; None: Settings, About
    def _entry(self, i):
        registry = self.rt.registry
        if i < len(registry):
            return registry[i]
        return games.LINK if i == len(registry) + 2 else None

    def _saved_game(self, i):
        """True when menu line ``i`` is a game with a saved game in progress."""
        entry = self._entry(i)
        return entry is not None and entry[games.ID] in self.rt.resumable

    def draw(self, fb):
        fb.fill(0)
        if self.mode == _SETTINGS:
            self._draw_settings(fb)
            return
        if self.mode == _ABOUT:
            self._draw_about(fb)
            return
        fb.fill_rect(0, 0, 128, 10, 1)
        gauge = self.rt.battery
        fb.text("POCKET PUZZLES", 8 if gauge is None else 2, 1, 0)
        if gauge is not None:
            gauge.draw(fb, 115, 1)
        y = 12
        for i in range(self.top, min(self.top + _VISIBLE, len(self.items))):
            if i == self.sel:
                fb.fill_rect(0, y - 1, 128, 10, 1)
                fb.text(self.items[i], 10, y, 0)
                fb.text(">", 1, y, 0)
            else:
                fb.text(self.items[i], 10, y, 1)
            if self._saved_game(i):
                fb.text("*", 120, y, 0 if i == self.sel else 1)
            y += 9
        if gauge is not None and gauge.warning():
            gfx.text(fb, "BATTERY LOW - CHARGE SOON", 2, 58)
        elif self._saved_game(self.sel):
            gfx.text(fb, "A:CONTINUE  RIGHT:NEW  B:HOW TO", 2, 58)
        elif self.sel < len(self.rt.registry):
            gfx.text(fb, "A:PLAY  B:HOW TO PLAY  UP/DOWN", 2, 58)
        else:
            gfx.text(fb, "A:OPEN  UP/DOWN:CHOOSE", 2, 58)

    # -- settings ------------------------------------------------------------------
    def _refresh_labels(self):
        self._gen += 1
        s = self.rt.settings
        rows = self._settings_rows
        for i in range(len(rows)):
            row = rows[i]
            if row == "contrast":
                level = 0
                for k in range(4):
                    if (24, 96, 176, 255)[k] <= s.get("contrast", 255):   # the 4 levels
                        level = k
                self._labels[i] = "Contrast  " + "#" * (level + 1) + "." * (3 - level)
            elif row == "sound":
                self._labels[i] = "Sound     " + ("ON" if s.get("sound") else "OFF")
            elif row == "difficulty":
                self._labels[i] = "Level  " + ("EASY", "NORMAL", "HARD")[s.get("difficulty", 1) % 3]
            elif row == "sleep":
                self._labels[i] = "Off after " + ("30 S", "1 MIN", "5 MIN", "NEVER")[_sleep_index(s)]   # SLEEP_CHOICES
            else:
                self._labels[i] = "Back"

    def _tick_settings(self, ctx):
        btn = ctx.buttons
        rows = self._settings_rows
        if btn.repeat(DOWN):
            self.set_sel = (self.set_sel + 1) % len(rows)
        elif btn.repeat(UP):
            self.set_sel = (self.set_sel - 1) % len(rows)
        row = rows[self.set_sel]
        step = 0
        if btn.repeat(RIGHT) or (btn.just_pressed(A) and row != "back"):
            step = 1
        elif btn.repeat(LEFT):
            step = -1
        s = self.rt.settings
        if step:
            if row == "contrast":
                contrasts = (24, 96, 176, 255)          # the 4 levels
                level = 0
                for k in range(4):
                    if contrasts[k] <= s.get("contrast", 255):
                        level = k
                s["contrast"] = contrasts[(level + step) % 4]
                self.rt.apply_settings()
            elif row == "sound":
                s["sound"] = not s.get("sound")
            elif row == "difficulty":
                s["difficulty"] = (s.get("difficulty", 1) + step) % 3
            elif row == "sleep":
                choices = runtime.SLEEP_CHOICES
                s["sleep"] = choices[(_sleep_index(s) + step) % len(choices)]
            self._refresh_labels()
        if btn.just_pressed(B) or (btn.just_pressed(A) and row == "back"):
            self.rt.save_settings()
            self.mode = _MENU
        return None

    def _draw_settings(self, fb):
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text("SETTINGS", 32, 1, 0)
        y = 13
        for i in range(len(self._settings_rows)):
            if i == self.set_sel:
                fb.fill_rect(0, y - 1, 128, 10, 1)
                fb.text(self._labels[i], 2, y, 0)
            else:
                fb.text(self._labels[i], 2, y, 1)
            y += 9
        gfx.text(fb, "LEFT/RIGHT:CHANGE  B:BACK", 2, 59)

    # -- about ---------------------------------------------------------------------
    def _enter_about(self):
        rt = self.rt
        rt.collect()
        free = rt.hw.mem_free()
        self.about_lines = (
            "VERSION " + runtime.VERSION,
            ("FREE MEMORY %d B" % free) if free >= 0 else "FREE MEMORY N/A (SIMULATOR)",
            "BOARD " + (rt.board_name or "?"),
            "DISPLAY " + rt.display.controller.upper(),
            "TICKS %d  OVERRUNS %d" % (rt.ticks, rt.overruns),
            "%d GAMES INSTALLED" % len(rt.registry),
        )
        self._gen += 1
        self.mode = _ABOUT

    def _draw_about(self, fb):
        fb.fill_rect(0, 0, 128, 10, 1)
        fb.text("ABOUT", 44, 1, 0)
        y = 14
        for line in self.about_lines:
            gfx.text(fb, line, 2, y)
            y += 7
        gfx.text(fb, "POCKET PUZZLES - A/B:BACK", 2, 59)
