"""Hardware backend for the web page (host_tools/web): the browser is the handheld.

The page's JavaScript owns the clock loop and the input events; this module is
what it calls, once per tick: ``App.tick(mask, now)`` sets the buttons held
(bits in ``KEY_ORDER``), runs one ``Runtime.step()`` and returns the frame as
hex when its pixels changed ("" otherwise).  The firmware above
(main.boot, runtime, launcher, games) is the device's, unchanged.

The display is a plain 128x64 MONO_VLSB framebuffer (what the SSD1306 driver
keeps and sends); ``show()`` only counts.  When the runtime switches the panel
off (the "sleep" setting), the page's canvas goes dark (``frame()`` reads
blank) until a key wakes it.  Display and Hardware meet the hardware contract
(firmware/hardware.py) like the device's backends.  The clock is MicroPython's
own (the browser's monotonic clock), so a search sliced by ``ctx.deadline``
yields like on the device; a key script (``?keys=``) runs on the simulator's
virtual clock instead (``now`` = tick * 1000 // 30), which makes its frames
identical to ``sim --keys``.  Saves go to ``OsFs(SAVES_DIR)`` in the port's
in-memory file system; ``on_save`` tells the page to copy the folder's save
files to browser storage (and the page puts them back before boot).
"""

import gc
import time

import framebuf

import buttons
import hardware

_MASK = 0x3FFFFFFF

try:
    _ticks = time.ticks_ms
except AttributeError:             # CPython (the tests): a monotonic ms clock
    def _ticks():
        return int(time.monotonic() * 1000) & _MASK

SAVES_DIR = "/saves"
LEVELS_DIR = "/levels"
KEY_ORDER = (buttons.UP, buttons.DOWN, buttons.LEFT, buttons.RIGHT, buttons.A, buttons.B)
# the board the page stands in for: the default build (its buzzer included)
BOARD = {
    "name": "pico-ssd1306",
    "runtime": "micropython",
    "display": {"controller": "ssd1306", "width": 128, "height": 64, "rotation": 0},
}


class Display(hardware.Display):
    """The page's glass (hardware.Display): ``show()`` only counts (the page
    reads the frame itself: nothing is left to send, it returns 0), ``contrast``
    keeps the level (the page dims the canvas a little), ``poweroff``/``poweron``
    set ``powered`` (off: the page shows a dark canvas, App.frame() reads blank)."""

    def __init__(self, width=128, height=64):
        self.width = width
        self.height = height
        self.buffer = bytearray(width * height // 8)
        self.fb = framebuf.FrameBuffer(self.buffer, width, height, framebuf.MONO_VLSB)
        self.shown = 0
        self.level = 255
        self.powered = True

    def show(self, most=8):
        self.shown += 1
        return 0

    def contrast(self, level):
        self.level = level

    def poweroff(self):
        self.powered = False

    def poweron(self):
        self.powered = True


class Buzzer:
    """Stands for the board's buzzer: ``beep`` hands the tone to the page."""

    def __init__(self, play):
        self.play = play


class LinkPipe:
    """The page's link cable (docs/link.md): what the page brings from the
    other tab (``feed``) is what ``readinto`` reads; what the link writes waits
    in ``out`` until the page takes it (``App.link_out``)."""

    def __init__(self):
        self.rx = bytearray()
        self.out = bytearray()

    def feed(self, data):
        self.rx.extend(data)

    def readinto(self, buf):
        n = min(len(buf), len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        self.rx[:n] = b""
        return n

    def write(self, buf):
        self.out.extend(buf)
        return len(buf)


class Hardware(hardware.Hardware):
    """The page as a backend (hardware.Hardware): its buttons, its clock, its
    buzzer; ``service`` and ``doze`` are the contract's defaults (the page's
    audio ends each beep, and the page's timer paces the ticks)."""

    def __init__(self, play=None, virtual_clock=False):
        self.display = Display()
        self.buzzer = Buzzer(play) if play is not None else None
        self.keys = 0
        self.now = 0
        self.virtual = virtual_clock
        self.offset = 0
        self.link = LinkPipe()

    def ticks_ms(self):
        """The virtual clock while a key script plays, else the real one
        (shifted so it goes on from where the virtual one stopped)."""
        if self.virtual:
            return self.now & _MASK
        return (_ticks() - self.offset) & _MASK

    def sleep_ms(self, ms):
        """Only the virtual clock sleeps: the page's timer paces the ticks, and
        a real sleep would freeze the page."""
        if self.virtual:
            self.now += ms

    def go_live(self):
        self.offset = _ticks() - self.now
        self.virtual = False

    def read_buttons(self):
        return self.keys

    def beep(self, freq, ms):
        if self.buzzer is not None:
            self.buzzer.play(freq, ms)

    def mem_free(self):
        return gc.mem_free() if hasattr(gc, "mem_free") else -1

    def open_link(self):
        """The page's own link: another tab of the same browser (BroadcastChannel)."""
        return self.link


def _make_fs(on_save, root):
    import savestore

    class WebFs(savestore.OsFs):
        """OsFs that tells the page after each change (it copies the saves out)."""

        def write(self, name, *parts):
            savestore.OsFs.write(self, name, *parts)
            on_save(name)

        def rename(self, old, new):
            savestore.OsFs.rename(self, old, new)
            on_save(old)
            on_save(new)

        def remove(self, name):
            savestore.OsFs.remove(self, name)
            on_save(name)

    if on_save is None:
        return savestore.OsFs(root)
    return WebFs(root)


class App:
    """The firmware booted on the web hardware; the page calls ``tick``."""

    def __init__(self, play=None, on_save=None, virtual_clock=False, saves_dir=SAVES_DIR,
                 levels_dir=LEVELS_DIR):
        import main
        import savestore

        self.hw = Hardware(play, virtual_clock)
        _mkdir(levels_dir)
        self.runtime = main.boot(BOARD, self.hw, savestore.Saves(_make_fs(on_save, saves_dir)))
        self.runtime.ctx.levels_dir = levels_dir
        self.sent = bytearray(len(self.hw.display.buffer))    # the frame the page shows
        self.sent_once = False
        self.dark = bytes(len(self.sent))   # the glass while the panel is off

    def tick(self, mask, now=0):
        """One tick with the buttons of ``mask`` held (``now``: the virtual
        clock's ms, while a key script plays); the frame as hex when its
        pixels changed, else ""."""
        hw = self.hw
        raw = 0
        for i in range(6):
            if mask & (1 << i):
                raw |= KEY_ORDER[i]
        hw.keys = raw
        hw.now = now
        self.runtime.step()
        self.runtime.save_pending()         # as run() does after a tick
        glass = self._glass()
        if self.sent_once and glass == self.sent:
            return ""
        self.sent[:] = glass
        self.sent_once = True
        return self.frame()

    def _glass(self):
        """What the glass shows: the frame, or nothing while the panel is off."""
        display = self.hw.display
        return display.buffer if display.powered else self.dark

    def frame(self):
        """The glass as hex (all zeros while the panel is off)."""
        return self._glass().hex()

    def contrast(self):
        return self.hw.display.level

    def setting(self, name):
        """A setting's value (the page's proxies do not index dicts)."""
        return self.runtime.settings.get(name)

    def go_live(self):
        """The key script is over: from now on the real clock runs."""
        self.hw.go_live()

    def game_id(self):
        return self.runtime.ctx.game_id or ""

    def link_out(self):
        """What the link wrote since the last call, as hex ("" when nothing):
        the page posts it to the other tab."""
        out = self.hw.link.out
        if not out:
            return ""
        text = bytes(out).hex()
        out[:] = b""
        return text

    def link_in(self, text):
        """Bytes from the other tab (hex), for the link to read."""
        self.hw.link.feed(bytes.fromhex(text))

    def open_game(self, game_id, level=0):
        """Start ``game_id`` as the launcher would (``?game=``).  ``level``
        (1-based; 0 keeps the game's own start): Klotski opens it to play
        (``open_level``), Cat & Mouse preselects it on its title screen; a
        game without numbered levels (Trap the Cat, Junqi) ignores it."""
        import games

        rt = self.runtime
        for entry in rt.registry:
            if entry[games.ID] != game_id:
                continue
            rt.start_game(entry)
            game = rt.game
            if level > 0 and game is not None and game.n_levels():
                game.open_level(min(level, game.n_levels()) - 1)
            return True
        return False


def _mkdir(path):
    import os

    try:
        os.mkdir(path)
    except OSError:
        pass


def install_pack(path, levels_dir=LEVELS_DIR):
    """Check a level pack like the device does and put it where the game reads
    it.  Returns [game, count, reason, first line of level 1]: reason "" for a
    good pack; a bad pack of a known game is installed all the same (the game
    shows the device's LEVEL PACK BAD screen with the same line), game "" when
    even the game is unknown."""
    import games
    import levelpack
    import userlevels

    with open(path, "rb") as f:
        head = f.read(6)
    game = None
    if len(head) == 6 and head[:4] == levelpack.MAGIC:
        game = levelpack.game_name(head[5])
    if game is None:                 # the header's own line (bad magic, unknown game, ...)
        try:
            with open(path, "rb") as f:
                levelpack.LevelPack(f)
        except Exception as exc:
            return ["", 0, userlevels.short_reason(exc), ""]
        return ["", 0, "unknown game in the pack header", ""]
    target = levels_dir + "/" + game + ".bin"
    _copy(path, target)
    check = None
    for entry in games.GAMES:
        if entry[games.ID] == game:     # a game with packs: check_level by contract
            check = __import__(entry[games.SCENE]).check_level
    try:
        pack = userlevels.Pack(target, game, check)
        first = pack.text(0).split("\n")[0][:120]
    except Exception as exc:
        return [game, 0, userlevels.short_reason(exc), ""]
    return [game, pack.count, "", first]


def _copy(src, dst):
    """Copy a file through one small buffer (a pack may be larger than the heap)."""
    buf = bytearray(512)
    view = memoryview(buf)
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while True:
            n = fin.readinto(buf)
            if not n:
                break
            fout.write(view[:n])
