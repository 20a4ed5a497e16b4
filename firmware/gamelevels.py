"""The levels of a game that offers level packs, written once: ``Levels`` (the
built-in ones, then a pack's) and ``PackErrorScreen`` ("LEVEL PACK BAD").

Imported by the scene modules of Cat & Mouse, Klotski and Trap the Cat (it
leaves with the game); Flip Junqi has no level packs and does not carry it.
The level-pack reader (userlevels, levelpack: ~11 KB of heap on a Pico) is
imported where a pack is opened or its error shown; a game that finds no
pack file does not import it at all, so a game played without one does not
carry it (nor its names: every name a module brings stays interned).
"""

import os

import screens
from buttons import A, B


def pack_path(ctx, game_id):
    """The pack file of ``game_id`` in ``ctx.levels_dir`` (the device's /levels)."""
    root = ctx.levels_dir
    if root is None:
        root = "/levels"
    return root + "/" + game_id + ".bin"


class Levels:
    """The levels a game offers: its ``n_builtin`` built-in ones (the game
    names and reads those), then the pack's, ``/levels/<game_id>.bin``
    (firmware/userlevels.py), each checked with ``check(text)`` when the pack
    opens and again when it is read.  ``error``: the wrapped reason a pack was
    dropped (for ``PackErrorScreen``), else None."""
    def __init__(self, ctx, game_id, check, n_builtin):
        self.n_builtin = n_builtin
        self.check = check
        self.error = None
        self.pack = None
        path = pack_path(ctx, game_id)
        try:
            os.stat(path)
        except OSError:      # no pack: its reader (userlevels, ~2 KB and ~20 names) not loaded
            return
        import userlevels
        self.pack, err = userlevels.open_for(path, game_id, check)
        if err:
            self.drop_pack(err)

    def count(self):
        return self.n_builtin + (self.pack.count if self.pack is not None else 0)

    def in_pack(self, i):
        return i >= self.n_builtin

    def pack_label(self, i):
        """"PACK k/N" for level ``i`` of the pack."""
        return "PACK %d/%d" % (i - self.n_builtin + 1, self.pack.count)

    def read(self, i):
        """Level ``i`` of the pack, parsed by ``check``; None when the pack
        cannot give it (the pack is then dropped, ``error`` says why)."""
        import userlevels
        try:
            return self.check(self.pack.text(i - self.n_builtin))
        except Exception as exc:          # LevelPackError, the parser's ValueError
            self.drop_pack(userlevels.short_reason(exc))
            return None

    def drop_pack(self, reason):
        import userlevels
        self.pack = None
        self.error = userlevels.wrap(reason)


class PackErrorScreen(screens.Screen):
    """Why the level pack was dropped; A or B calls ``on_close()`` (the game
    shows its built-in levels)."""
    def __init__(self, levels, on_close):
        self.levels = levels
        self.on_close = on_close

    def tick(self, ctx):
        btn = ctx.buttons
        if btn.just_pressed(A) or btn.just_released(B):
            self.on_close()
        return None

    def frame_key(self):
        return 0

    def draw(self, fb):
        import userlevels
        userlevels.draw_error(fb, self.levels.error)
