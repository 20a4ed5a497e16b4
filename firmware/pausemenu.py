"""The pause menu (scenekit.Pause: what B did, the game's lines, the line
on show): loaded while the menu shows and dropped when it closes, so a game in
play does not carry it.  UP/DOWN pick a line (wrapping), A runs it, a B tap
resumes; RULES shows the game's how-to-play pages (howto.Scene) until B.

RULES loads over three ticks, the menu kept on screen meanwhile (``p.loading``:
the scene's ``draw`` returns at once, fb holds the frame on show):
the tick of A imports howto, the next makes the pages (importing the game's
rules text), the third shows them and is their first tick (a key pressed in
the second is lost); each import takes ~16 ms on the virtual Pico and the
pages' first frame ~36 ms: 74-90 ms in one tick."""

from buttons import A, B, DOWN, UP
import gfx

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_MX = const(52)           # the box: the right part of the screen


def tick(p, ctx):
    """A tick of the menu over the game: the label of the line chosen (the
    menu closes), else None."""
    btn = ctx.buttons
    if p.loading == 1:
        import howto
        p.rules = howto.Scene(ctx)       # the game's rules text imported here
        p.loading = 2
        return None
    p.loading = 0                        # the pages show from this tick's frame
    if p.rules is not None:
        if p.rules.tick(ctx) == "exit":
            p.rules = None
            _drop("howto")
            _drop(ctx.game_id + "_rules")
            p.used = btn.pressed(B)      # its release is not a tap here
        return None
    ev = p.poll(btn, False)
    if ev:
        if ev == "tap":
            close(p)
        return None
    n = len(p.items)
    if btn.repeat(UP):
        p.item = (p.item + n - 1) % n
    elif btn.repeat(DOWN):
        p.item = (p.item + 1) % n
    elif btn.just_pressed(A):
        act = p.items[p.item]
        if act == "RULES":
            import howto                 # noqa: F401  (the pages next tick)
            p.loading = 1
            return None
        close(p)
        return act
    return None


def close(p):
    p.shown = False
    _drop("pausemenu")


def _drop(name):
    """A module the menu loaded goes when it closes: its heap is the game's
    again (the runtime drops every module a game loaded when the game ends)."""
    import sys
    if name in sys.modules:
        del sys.modules[name]


def draw(p, fb):
    """The menu in a box over the right part of the play screen, or the rules."""
    if p.rules is not None and not p.loading:
        p.rules.draw(fb)
        return
    gfx.box(fb, _MX, 0, 128 - _MX, 64)
    y = 3
    for k in range(len(p.items)):
        label = p.items[k]
        if k == p.item:
            fb.fill_rect(_MX + 2, y - 1, 124 - _MX, 7, 1)
            gfx.text(fb, label, _MX + 4, y, 0)
        else:
            gfx.text(fb, label, _MX + 4, y)
        y += 7
    gfx.text(fb, "A:OK B:BACK", _MX + 4, 58)
