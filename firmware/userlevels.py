"""Level packs on the device: where they live and how a game reads them.

Convention: the pack of a game is ``/levels/<game_id>.bin`` (``catmouse.bin``,
``klotski.bin``, ``trapcat.bin``), written there by ``python -m host_tools flash
--levels FILE``.  ``ctx.levels_dir`` overrides ``/levels`` (the simulator, the
test VM).  No file: the game offers its built-in levels only, silently.

``open_for(ctx, game, check)`` returns ``(pack, error)``:

- ``(None, None)``   no pack for this game;
- ``(Pack, None)``   a valid pack: ``pack.count`` levels, ``pack.text(i)`` reads
  level ``i`` alone (a seek and one read);
- ``(None, reason)`` a bad pack: ``reason`` is one short line for the game's
  "LEVEL PACK BAD" screen; the game goes on with its built-in levels.

Validation on open is what ``levels check`` does: firmware/levelpack.py checks
the header, the exact size, the CRC-32 and the offset table (streamed through
one 128-byte buffer, nothing sized by a length field), then every level is read
one at a time and given to ``check(text)``, the game's own parser plus its
screen limits.  A level is at most levelpack.MAX_LEVEL_BYTES, checked before it
is read.

The file is open only while it is read (open, seek, read, close): a game has no
"closing" hook (the launcher drops the module), so a handle kept open would
linger until the GC finalises it, holding littlefs' per-file cache; the reopen
costs little next to a level start, and the pack object (offset table position,
its 128-byte buffer) survives between reads, so a reopened file is not
validated again.  Each read still checks the offset entries and the read length,
so a file replaced underneath gives a LevelPackError, never a crash.

The pack reader (levelpack, ~7 KB of heap on a Pico) is imported only when a
pack file exists: a game played without a pack does not carry it.
"""

def short_reason(exc):
    """One line for the screen: the message of a LevelPackError (or of anything
    else that went wrong) without the type name, at most 120 characters."""
    msg = str(exc) or type(exc).__name__
    if isinstance(exc, MemoryError):
        msg = "not enough memory to read it"
    if len(msg) > 120:
        msg = msg[:117] + "..."
    return msg


class Pack:
    """A validated pack file of one game; ``text(i)`` reads one level."""

    def __init__(self, path, game, check=None):
        self.path = path
        self.game = game
        import levelpack

        lp = levelpack.open_pack(path, game)     # header, size, CRC, offset table
        try:
            if check is not None:
                lp.check_levels(_text_check(check))
        finally:
            lp.f.close()
            lp.f = None
        self._lp = lp
        self.count = lp.count

    def text(self, index):
        """Level ``index`` as text; LevelPackError if it cannot be read."""
        import levelpack

        try:
            f = open(self.path, "rb")
        except OSError as exc:
            raise levelpack.LevelPackError("cannot open %s: %s" % (self.path, exc))
        lp = self._lp
        lp.f = f
        try:
            data = lp.level(index)
        except OSError as exc:
            raise levelpack.LevelPackError("cannot read level %d: %s" % (index, exc))
        finally:
            lp.f = None
            f.close()
        try:
            return data.decode()
        except UnicodeError:
            raise levelpack.LevelPackError("level %d is not UTF-8 text" % index)


def _text_check(check):
    def run(data):
        return check(data.decode())     # UnicodeError is a ValueError: named by level
    return run


def open_for(path, game, check=None):
    """(Pack, None) for the pack file at ``path`` (gamelevels.pack_path, which
    exists), or (None, reason) for a bad one."""
    import levelpack     # ~7 KB of heap on a Pico: only when there is a pack to read
    try:
        return Pack(path, game, check), None
    except levelpack.LevelPackError as exc:
        return None, short_reason(exc)
    except MemoryError as exc:
        return None, short_reason(exc)


def wrap(text, width=31, lines=5):
    """Word-wrap ``text`` for the 3x5 font (``width`` characters a line)."""
    out = []
    line = ""
    for w in str(text).split(" "):
        while len(w) > width:                   # a long token (a path): cut it
            if line:
                out.append(line)
                line = ""
            out.append(w[:width])
            w = w[width:]
        if line and len(line) + 1 + len(w) > width:
            out.append(line)
            line = w
        else:
            line = (line + " " + w) if line else w
    if line:
        out.append(line)
    if len(out) > lines:
        out = out[:lines]
        last = out[-1]
        out[-1] = (last[:width - 3] if len(last) > width - 3 else last) + "..."
    return out


def draw_error(fb, lines, hint="A: BUILT-IN LEVELS"):
    """The "LEVEL PACK BAD" screen: a title bar, the reason, what A does."""
    import gfx

    fb.fill(0)
    fb.fill_rect(0, 0, 128, 10, 1)
    fb.text("LEVEL PACK BAD", 8, 1, 0)
    y = 14
    for line in lines:
        gfx.text(fb, line, 1, y)
        y += 7
    gfx.text(fb, hint, 1, 57)
