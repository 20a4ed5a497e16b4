# What every game's scene shares, written once: B in play and the pause
# menu, the refusal of an illegal move (a low beep and a flash on screen) and
# the end screens' guard.  The levels and the "LEVEL PACK BAD" screen are
# gamelevels.py's, imported only by the games that offer level packs.
#
# Imported by the games' scene modules only (it leaves with the game).

# The controls of B, the same in every game (docs/runtime.md, "Controls"): a
# B tap puts down what is picked up and never discards anything; B+A (hold B,
# press A) undoes; holding B half a second opens the pause menu over the play
# screen; an end screen waits for every button to be up (``settled``).
# Comments rather than docstrings here: a MicroPython that compiles the source
# keeps docstrings on the heap, and every game carries this module.

import framebuf

from buttons import A, ALL, B
import gfx

# What B did in a tick (Pause.poll; strings, like the runtime's "exit": no
# module globals for the games to share): None, nothing of B's (the screen
# reads the other buttons); "busy", B is down after a chord or the menu, or
# that press ends, or B reached half a second (the menu loads) (nothing else
# this tick); "tap", B released within half a second with nothing else (put
# down, cancel); "menu", the tick after B reached half a second (the pause
# menu opens, where the screen allows it); "undo", B+A.
# The pause menu's lines are their labels: "RESUME", "HINT", "AUTO SOLVE",
# "UNDO", "RESTART", "RULES" (shown by the menu itself), "LEVELS", "QUIT"
# (leave the game, kept for CONTINUE: the scene returns "exit").


# ``text`` in the 3x5 font, drawn once into a framebuffer of its own width:
# blitted with key 0 it sets the pixels gfx.text sets, ~0.15 ms on the virtual
# Pico where the text is ~2 ms in every frame.
def text_strip(text):
    w = gfx.text_width(text)
    strip = framebuf.FrameBuffer(bytearray(w), w, 5, framebuf.MONO_VLSB)
    gfx.text(strip, text, 0, 0)
    return strip


# A game's records (its save ``game_id``), checked by its own saves module
# (``<game_id>_saves`` with saveschema, loaded for the check and dropped
# after it); none saved yet (a first start): {}, and neither is loaded (~60
# interned names that stay, and ~6 KB of a Pico's heap while loaded).
def records(ctx, game_id):
    data = ctx.load(game_id)
    if isinstance(data, dict) and not data:
        return {}
    return __import__(game_id + "_saves").records(ctx, data)


# B+A (hold B, press A): undo, in every game (Pause.poll's "undo").
def undo_chord(btn):
    return btn.pressed(B) and btn.just_pressed(A)


# An illegal move or an undo that cannot be done, in every game: a low
# beep and ``message`` flashed on screen (a short toast), so it shows with
# the sound off too.  ``message`` is a constant: nothing is allocated.
def refuse(ctx, message):
    ctx.beep(220, 30)               # the low beep
    ctx.toast(message, 20)          # 2/3 s


# An end screen's guard (``screen.armed`` set False when it opens): False
# while a press carried over from play is still down (pressed, not just
# pressed) and in the tick of its release; then True (a new press arms it at
# once), so the press that ended the game is never the end screen's.
def settled(screen, btn):
    if screen.armed:
        return True
    if btn.just_pressed(ALL):
        screen.armed = True
        return True
    if not btn.pressed(ALL):
        screen.armed = True
        return not btn.just_released(ALL)
    return False


# B in play and the pause menu, one per scene.  ``poll(btn, may_menu)``,
# called by the screens each tick, says what B did (above), keeping the one
# piece of bookkeeping every game needs: a press of B that went to a chord
# (B+A, a game's own B+DOWN: sets ``used``) or to the menu ends without a
# tap.  Held, it shows the menu (``shown``, from the tick after the one that
# loads it: ``opening``) where ``may_menu`` (play screens; not an end screen,
# not an animation): the scene then sends its ticks to
# ``pausemenu.tick(pause, ctx)``, which returns the label of the line chosen
# ("RULES" is handled there: the game's pages show until B), else None; the
# scene's ``draw`` is ``pause.draw_over(screen, fb)``: its screen, then the
# menu over it (pausemenu.py is loaded while the menu shows, dropped when it
# closes).
# ``items``: the labels of the game's lines, in order.  A game whose field
# fills the screen (no panel to say "HOLD B: MENU") sets ``reminder`` to the
# frames it shows for (60: two seconds) when a game starts and calls
# ``draw_reminder(fb)`` after its field: the words show in the middle for
# those frames, until a button is pressed.
class Pause:
    def __init__(self, items):
        self.items = items
        self.item = 0
        self.shown = False
        self.used = False         # B's press went to a chord or the menu
        self.rules = None         # howto.Scene while the rules are shown
        self.reminder = 0         # frames "HOLD B: MENU" still shows (draw_reminder)
        self.words = None         # "HOLD B: MENU" prerendered (draw_reminder)
        self.opening = False      # the menu's module loaded this tick: it shows next tick
        self.loading = 0          # RULES chosen: 1 howto loaded, 2 the pages made (pausemenu.tick);
        #                           meanwhile the scene's draw leaves the frame on show in fb

    # The scene's frame, in every game: its screen (not while the rules pages
    # cover it), then the menu over it while shown.
    def draw_over(self, screen, fb):
        if self.rules is None or self.loading:
            screen.draw(fb)
        if self.shown:
            import pausemenu
            pausemenu.draw(self, fb)

    # The words are drawn once into a strip of their own (made at the first
    # frame they show, text_strip) and blitted after: 0.56 ms a frame in the
    # VM, 1.24 ms with gfx.text each frame (Cat & Mouse's first AI move is
    # among them).  The strip goes once they are gone (~140 B of the game's heap).
    def draw_reminder(self, fb):
        if self.reminder:
            self.reminder -= 1
            words = self.words
            if words is None:
                words = self.words = text_strip("HOLD B: MENU")
            gfx.box(fb, 36, 27, 56, 9)
            fb.blit(words, 40, 29, 0)
        elif self.words is not None:
            self.words = None

    # True in a tick where the menu or the rules may load, show or close: the
    # hold reaching 500 ms, the menu's first frame, A or B in the menu or the
    # rules, the rules loading.  A game whose long work runs before its
    # screen's tick (Klotski's table) lets that tick go without it: the work's
    # ~22 ms and an import's ~16 ms (or a whole new frame's ~30 ms) passed 50 ms
    # together.
    def heavy(self, btn):
        if self.opening or self.loading:
            return True
        if self.shown:
            return btn.just_pressed(A | B) or btn.just_released(B)
        return btn.pressed(B) and not self.used and btn.held_ms(B) >= 500

    # The menu opens over two ticks: the one where the hold reaches 500 ms
    # imports pausemenu (16 ms on the virtual Pico), the next draws it; in one
    # tick the pair came to 57 ms, over the 50 ms a tick may take.
    def poll(self, btn, may_menu):
        if self.opening:
            self.opening = False
            self.shown = True
            if not btn.pressed(B):
                self.used = False     # the hold's release: no tap for the menu
            return "menu"
        if btn.just_pressed(ALL):
            self.reminder = 0
        if undo_chord(btn):
            self.used = True
            return "undo"
        if btn.just_released(B):
            used = self.used
            self.used = False
            return "busy" if used else "tap"
        if not btn.pressed(B):
            return None
        if self.used:
            return "busy"
        if btn.held_ms(B) >= 500:          # ms: hold B for the menu
            self.used = True
            if may_menu:
                self.item = 0
                self.opening = True
                import pausemenu    # noqa: F401  (loaded now, drawn next tick)
            return "busy"
        return None


# A screen's title bar, drawn once: rows 0-9 set and ``title`` in 8x8 text
# cleared out of it at (x, 1), as ``fb.fill_rect(0, 0, 128, 10, 1)`` and
# ``fb.text(title, x, 1, 0)`` draw it.  ``draw(fb, frame, width)``, right
# after the frame is cleared (it writes rows 10-15 clear too), copies its two
# page rows (made on first use, 256 bytes) into ``frame``, the bytes behind
# ``fb`` (``ctx.frame`` for the screen's), with one slice copy: the
# pure-Python framebuf (CircuitPython) took about 2.3 ms for the bar and its
# text every frame.  Without those bytes, or ``width`` not 128, it draws them.
# A game drops them (``rows = None``) while its title is not on show (Cat &
# Mouse's and Flip Junqi's play): 272 B of its heap; they are made again.
class TitleBar:
    def __init__(self, title, x):
        self.title = title
        self.x = x
        self.rows = None

    def draw(self, fb, frame, width):
        if frame is None or width != 128:
            fb.fill_rect(0, 0, 128, 10, 1)
            fb.text(self.title, self.x, 1, 0)
            return
        if self.rows is None:
            import framebuf
            self.rows = bytearray(256)
            bar = framebuf.FrameBuffer(self.rows, 128, 16, framebuf.MONO_VLSB)
            bar.fill_rect(0, 0, 128, 10, 1)
            bar.text(self.title, self.x, 1, 0)
        frame[0:256] = self.rows
