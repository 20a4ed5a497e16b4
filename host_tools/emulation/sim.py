"""`python -m host_tools sim` / `make sim`: the unmodified firmware under CPython.

The firmware's own hardware layer (firmware/hw_machine.py) runs against a fake
``machine`` module (host_tools/emulation/fakemachine.py): button pins read the keys you
press, and every I2C transaction goes to a controller model
(host_tools/emulation/oledmodel.py) that decodes the bytes into pixels like the chip.
``framebuf`` is firmware/circuitpython/framebuf.py (a pure-Python copy of MicroPython's).

Front ends: a pygame-ce window (arrows, Z/A = A, X/B = B, Esc quits), a
terminal front end (chosen when there is no display): Unicode half blocks when
the terminal has 128x33 cells, else quadrant blocks (2x2 pixels per cell) or
Braille (2x4, fits 80x24); q or Esc quits and the terminal is restored,
and a headless mode for scripts and golden images:
``--keys "down a right right" --ticks 200 --screenshot out.png --gif out.gif``.
The key script's grammar (``down*3 a wait:30 hold:b:40 b+a``) is
host_tools/core/keyscript.py.
"""

import os
import sys
from pathlib import Path

from host_tools.core.boards import BOARDS_DIR
from host_tools.core.fwpath import ROOT
from host_tools.core.keyscript import key_script
from host_tools.emulation.pinsim import VSYS_ON_USB, PinSim, install_host_modules  # noqa: F401  (sim.install_host_modules)


class Simulator(PinSim):
    """One simulated handheld: ``step(keys)`` runs one tick with those keys down."""

    def __init__(self, board="pico-ssd1306", saves_dir=None, hold_at_boot=(), battery=None, fs=None):
        """``saves_dir``: the saves in that folder; else in ``fs`` (a
        savestore.MemFs) or a new empty one."""
        from host_tools.core import UserError

        fake = install_host_modules()
        import boardcfg

        try:
            self.cfg = boardcfg.load(board, str(BOARDS_DIR))
        except boardcfg.BoardError as exc:
            raise UserError(str(exc)) from None
        from host_tools.emulation.oledmodel import OledModel

        fake.detach_all()
        disp = self.cfg["display"]
        self.oled = OledModel(disp["controller"], disp["width"], disp["height"],
                              self.cfg["i2c"]["address"])
        fake.attach(self.cfg["i2c"]["address"], self.oled)
        self.fake = fake
        self.set_supply(battery)
        self.now = 0
        self._map_buttons()
        self.levels = fake.levels
        self.set_keys(hold_at_boot)
        import hw_machine
        import savestore as saves

        self._boot(hw_machine.Hardware(self.cfg),
                   saves.OsFs(str(saves_dir)) if saves_dir else fs if fs is not None else saves.MemFs())

    def set_supply(self, volts=None):
        """The supply the board's ADC pin reads (through its divider): ``volts``,
        or None for USB power (VSYS_ON_USB).  Nothing on a board that reads none."""
        power = self.cfg["power"]
        if power["adc"] is not None:
            supply = VSYS_ON_USB if volts is None else volts
            self.fake.analog[power["adc"]] = supply / power["divider"]

    def wire_totals(self):
        """(bytes on the wire, address bytes included; transactions) so far."""
        return self.fake.stats["bytes"], self.fake.stats["transactions"]

    def screen_text(self):
        return self.oled.to_text()

    def image(self, scale=4):
        return self.oled.image(scale)


# -- front ends -----------------------------------------------------------------------
def image_format(path):
    """The Pillow format for an output file name, or UserError (checked before a run)."""
    from PIL import Image

    from host_tools.core import UserError
    fmt = Image.registered_extensions().get(os.path.splitext(str(path))[1].lower())
    if fmt is None:
        raise UserError("cannot write %s: unknown image file extension (use .png or .gif)" % path)
    return fmt


def save_image(image, path, **params):
    """Save a Pillow image atomically (whole file or nothing); errors -> UserError."""
    import io

    from host_tools.core import UserError, write_atomic
    buf = io.BytesIO()
    try:
        image.save(buf, format=image_format(path), **params)
    except (OSError, ValueError, KeyError) as exc:
        raise UserError("cannot write %s: %s" % (path, exc)) from None
    write_atomic(path, buf.getvalue())


def run_headless(sim, script, ticks, screenshot, gif, scale):
    from host_tools.core import plural

    frames = []
    total = max(ticks or 0, len(script) + (0 if ticks else 10))
    for i in range(total):
        sim.step(script[i] if i < len(script) else ())
        if gif and i % 2 == 0:
            frames.append(sim.image(scale))
    if screenshot:
        save_image(sim.image(scale), screenshot)
        print("screenshot: %s" % screenshot)
    if gif:
        frames.append(sim.image(scale))
        save_image(frames[0], gif, save_all=True, append_images=frames[1:], duration=66, loop=0)
        print("gif: %s (%s)" % (gif, plural(len(frames), "frame")))
    if not screenshot and not gif:
        print(halfblocks(sim.oled))
    rt = sim.runtime
    if rt is not None:
        print("ticks %d, I2C bytes %d in %d transactions" % ((rt.ticks,) + sim.wire_totals()))
    return 0


def halfblocks(oled):
    """The glass as text, two pixel rows per character (Unicode half blocks):
    128 columns, 32 lines."""
    rows = oled.pixels()
    chars = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    lines = []
    for y in range(0, len(rows), 2):
        top = rows[y]
        bottom = rows[y + 1] if y + 1 < len(rows) else bytearray(len(top))
        lines.append("".join(chars[(top[x], bottom[x])] for x in range(len(top))))
    return "\n".join(lines)


# 2x2 pixels per character; index = top-left 1, top-right 2, bottom-left 4, bottom-right 8
_QUADRANTS = " \u2598\u259d\u2580\u2596\u258c\u259e\u259b\u2597\u259a\u2590\u259c\u2584\u2599\u259f\u2588"


def quadrants(oled):
    """The glass as text, 2x2 pixels per character (Unicode quadrant blocks):
    64 columns, 32 lines.  Exact, like halfblocks."""
    rows = oled.pixels()
    h = len(rows)
    w = len(rows[0])
    blank = bytearray(w)
    lines = []
    for y in range(0, h, 2):
        top = rows[y]
        bottom = rows[y + 1] if y + 1 < h else blank
        line = []
        for x in range(0, w, 2):
            r = x + 1 < w
            line.append(_QUADRANTS[top[x] | (top[x + 1] << 1 if r else 0)
                                   | (bottom[x] << 2) | (bottom[x + 1] << 3 if r else 0)])
        lines.append("".join(line))
    return "\n".join(lines)


_BRAILLE_BITS = ((0x01, 0x08), (0x02, 0x10), (0x04, 0x20), (0x40, 0x80))


def braille(oled):
    """The glass as text, 2x4 pixels per character (Unicode Braille patterns):
    64 columns, 16 lines, so it fits an 80x24 terminal.  Exact, like halfblocks."""
    rows = oled.pixels()
    h = len(rows)
    w = len(rows[0])
    lines = []
    for y in range(0, h, 4):
        line = []
        for x in range(0, w, 2):
            bits = 0
            for dy in range(4):
                if y + dy < h:
                    row = rows[y + dy]
                    if row[x]:
                        bits |= _BRAILLE_BITS[dy][0]
                    if x + 1 < w and row[x + 1]:
                        bits |= _BRAILLE_BITS[dy][1]
            line.append(chr(0x2800 + bits))
        lines.append("".join(line))
    return "\n".join(lines)


HELP_LINE = " arrows move, z/a = A, x/b = B, q/Esc quits"


def terminal_renderer(columns, lines, width=128, height=64):
    """The text renderer for a terminal of this size (one line kept for help):
    half blocks (1x2 pixels per character) when the glass fits, else quadrant
    blocks (2x2), else Braille (2x4: 64x16 for 128x64, fits 80x24)."""
    lines -= 1
    if columns >= width and lines >= (height + 1) // 2:
        return halfblocks
    if columns >= (width + 1) // 2 and lines >= (height + 1) // 2:
        return quadrants
    return braille


def _terminal_size(out):
    try:
        size = os.get_terminal_size(out.fileno())
        return size.columns, size.lines
    except (OSError, ValueError, AttributeError):
        return 80, 24


KEYMAP = {"\x1b[A": "up", "\x1b[B": "down", "\x1b[D": "left", "\x1b[C": "right",
          "\x1bOA": "up", "\x1bOB": "down", "\x1bOD": "left", "\x1bOC": "right",
          "z": "a", "a": "a", "x": "b", "b": "b", " ": "a", "\r": "a", "\n": "a", "\x7f": "b"}


def parse_terminal_input(text):
    """Key names in a chunk read from the terminal, and whether to quit
    (q, or Esc on its own; arrow keys are Esc sequences)."""
    names = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "\x1b":
            if i + 1 >= len(text) or text[i + 1] not in "[O":
                return names, True          # a lone Esc
            j = i + 2
            while j < len(text) and not (text[j].isalpha() or text[j] == "~"):
                j += 1
            name = KEYMAP.get(text[i:j + 1])
            i = j + 1
        else:
            if ch in "qQ\x03":
                return names, True
            name = KEYMAP.get(ch) or KEYMAP.get(ch.lower())
            i += 1
        if name:
            names.append(name)
    return names, False


def split_incomplete(text):
    """(complete text, an escape sequence cut off at the end) - a read can end
    inside an arrow key's bytes; the rest arrives with the next read.  A lone
    Esc at the end stays complete: it is the Esc key."""
    i = text.rfind("\x1b")
    if i < 0 or i + 1 >= len(text) or text[i + 1] not in "[O":
        return text, ""
    for ch in text[i + 2:]:
        if ch.isalpha() or ch == "~":
            return text, ""
    return text[:i], text[i:]


class TapQueue:
    """Terminals send key-down only.  Each key press becomes one tap - down for
    TAP_DOWN ticks, then up for TAP_UP ticks (like a ``--keys`` token) - played
    in the order typed, so quick presses are neither merged nor dropped (keys
    that arrive in one read are always separate taps).  At most MAX_PENDING
    taps wait.

    Holding a key: the terminal repeats it 25-40 times a second, so the same
    key comes again in the very next read (one tick later).  That starts a
    hold: the button stays down while the repeats keep coming, until HOLD_TICKS
    pass without one ("HOLD B" works).  Pressing one key twice within a tick
    (33 ms) is beyond a person; 0.1 s apart is three ticks."""

    TAP_DOWN = 2
    TAP_UP = 2
    HOLD_TICKS = 3
    MAX_PENDING = 16

    def __init__(self):
        from collections import deque

        self.pending = deque()
        self.current = None
        self.left = 0
        self.tick = 0
        self.last_name = None
        self.last_tick = -2
        self.held = None
        self.hold_left = 0

    def typed(self, names):
        """The keys of one read from the terminal, in order (before this
        tick's ``keys()``)."""
        for k, name in enumerate(names):
            if name == self.held and self.hold_left:
                self.hold_left = self.HOLD_TICKS
            elif k == 0 and name == self.last_name and self.tick - self.last_tick <= 1:
                self.held, self.hold_left = name, self.HOLD_TICKS
                while self.pending and self.pending[-1] == name:
                    self.pending.pop()          # earlier repeats of this hold
                if self.current == name:
                    self.left = 0               # its tap becomes the hold
            elif len(self.pending) < self.MAX_PENDING:
                self.pending.append(name)
            self.last_name, self.last_tick = name, self.tick

    def keys(self):
        """The buttons down during this tick (call once per tick)."""
        down = []
        if self.hold_left:
            self.hold_left -= 1
            down.append(self.held)
        if not self.left and self.pending:
            self.current = self.pending.popleft()
            self.left = self.TAP_DOWN + self.TAP_UP
        if self.left:
            self.left -= 1
            if self.left >= self.TAP_UP and self.current not in down:
                down.append(self.current)
        self.tick += 1
        return down


def run_terminal(sim, max_ticks=None, stdin=None, out=None):
    import select
    import time

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    if not stdin.isatty():
        n = max_ticks or 30
        for _ in range(n):
            sim.step()
        print(halfblocks(sim.oled), file=out)
        print("(stdin is not a terminal: no keys; showed %d ticks and stopped)" % n, file=out)
        return 0
    import termios
    import tty

    fd = stdin.fileno()
    old = termios.tcgetattr(fd)
    taps = TapQueue()
    cut = ""
    last = None
    size = None
    try:
        tty.setcbreak(fd, termios.TCSADRAIN)      # not TCSAFLUSH: keys typed ahead count
        out.write("\x1b[?1049h\x1b[2J\x1b[?25l")     # alternate screen, hide the cursor
        start = time.monotonic()
        tick = 0
        while max_ticks is None or tick < max_ticks:
            data = cut
            while select.select([fd], [], [], 0)[0]:
                chunk = os.read(fd, 4096).decode("latin-1")
                if not chunk:
                    return 0                           # end of input
                data += chunk
            if data:
                text, cut = split_incomplete(data)
                names, quit_ = parse_terminal_input(text)
                taps.typed(names)
                if quit_:
                    return 0
            sim.step(taps.keys())
            now_size = _terminal_size(out)
            if now_size != size:                       # resized: redraw from scratch
                size = now_size
                render = terminal_renderer(size[0], size[1], sim.oled.width, sim.oled.height)
                out.write("\x1b[2J")
                last = None
            frame = render(sim.oled) + "\n" + HELP_LINE[:size[0] - 1]
            status = sim.status()
            if status:
                frame += "\n" + status[:size[0] - 1]
            if frame != last:
                out.write("\x1b[H" + frame.replace("\n", "\x1b[K\r\n") + "\x1b[K")
                out.flush()
                last = frame
            tick += 1
            delay = start + tick / 30.0 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\x1b[?1049l")                 # cursor back, main screen back
        out.flush()
    return 0


def run_pygame(sim, scale, max_ticks=None, on_frame=None):
    """A window scaled up ``scale`` times.  A key counts as down while
    pygame reports it held, and for at least 2 ticks after its key-down event,
    so a tap shorter than one frame is not lost.  ``on_frame(pygame, tick)`` is
    a hook for tests (screenshots, scripted events)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()          # no audio: pygame.init() would open ALSA for nothing
    try:
        w, h = sim.oled.width, sim.oled.height
        screen = pygame.display.set_mode((w * scale, h * scale))
        caption = "Pocket Puzzles - %s (arrows, Z/X = A/B, Esc quits)" % sim.cfg["name"]
        pygame.display.set_caption(caption)
        shown = ""
        keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left",
                pygame.K_RIGHT: "right", pygame.K_z: "a", pygame.K_a: "a",
                pygame.K_x: "b", pygame.K_b: "b", pygame.K_RETURN: "a", pygame.K_SPACE: "a",
                pygame.K_BACKSPACE: "b"}
        clock = pygame.time.Clock()
        tapped = {}
        tick = 0
        while max_ticks is None or tick < max_ticks:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    return 0
                if event.type == pygame.KEYDOWN:
                    if event.key in (pygame.K_ESCAPE, pygame.K_q):
                        return 0
                    if event.key in keys:
                        tapped[keys[event.key]] = tick + 2
            pressed = pygame.key.get_pressed()
            down = set(name for key, name in keys.items() if pressed[key])
            down.update(name for name, until in tapped.items() if until > tick)
            sim.step(sorted(down))
            img = sim.image(scale)
            surface = pygame.image.fromstring(img.tobytes(), img.size, "RGB")
            screen.blit(surface, (0, 0))
            pygame.display.flip()
            status = sim.status()
            if status != shown:
                pygame.display.set_caption(caption + ("  |  " + status if status else ""))
                shown = status
            if on_frame is not None:
                on_frame(pygame, tick)
            tick += 1
            clock.tick(30)
        return 0
    finally:
        pygame.display.quit()


def has_display():
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def make_simulator(board, saves_dir, hold=(), battery=None):
    """The MicroPython path (hw_machine), or for a CircuitPython / Blinka board the
    real displayio stack through host_tools.emulation.cpsim."""
    from host_tools.core import UserError

    install_host_modules()
    import boardcfg

    try:
        cfg = boardcfg.load(board, str(BOARDS_DIR))
    except boardcfg.BoardError as exc:
        raise UserError(str(exc)) from None
    runtime = cfg["runtime"]
    if battery is not None and (runtime != "micropython" or cfg["power"]["adc"] is None):
        raise UserError("--battery: board %s does not read its supply (a board file with a "
                        "\"power\" section and an \"adc\" pin does, e.g. pico-ssd1306-lipo)" % board)
    if runtime == "micropython":
        return Simulator(board, saves_dir, hold_at_boot=hold, battery=battery)
    import savestore

    from host_tools.emulation.cpsim import CpSimulator

    return CpSimulator(board, savestore.OsFs(str(saves_dir)), hold_at_boot=hold)


def run_options(args):
    """Check the run options sim and vpico share (before any work); returns the key
    script and the front end ("auto" resolved: headless when scripted, else a
    window when there is a display, else the terminal)."""
    from host_tools.core import UserError

    if args.ticks is not None and args.ticks < 0:
        raise UserError("--ticks must be 0 or more")
    if not 1 <= args.scale <= 32:
        raise UserError("--scale must be 1..32, got %d" % args.scale)
    for path in (args.screenshot, args.gif):
        if path:
            image_format(path)
    battery = getattr(args, "battery", None)
    if battery is not None and not 0 <= battery <= 20:
        raise UserError("--battery must be 0..20 volts, got %g" % battery)
    script = key_script(args.keys, args.keys_file)
    headless = bool(script or args.ticks or args.screenshot or args.gif)
    frontend = args.frontend
    if frontend == "auto":
        frontend = "headless" if headless else ("pygame" if has_display() else "terminal")
    return script, frontend


def run_sim(args):
    from host_tools.core import UserError, make_output_dir

    script, frontend = run_options(args)
    cable = None
    default_saves = "sim-saves"
    if args.link is not None:
        from host_tools.emulation.simlink import SocketLink

        cable = SocketLink(args.link)            # listening: handheld a, connected: b
        default_saves = "sim-saves-link-" + ("a" if cable.server is not None else "b")
    saves_dir = Path(args.saves) if args.saves else ROOT / "build" / default_saves
    make_output_dir(saves_dir)
    hold = ("b",) if args.safe_mode else ()
    sim = make_simulator(args.board, saves_dir, hold, args.battery)
    if sim.runtime is None:
        if args.screenshot or args.gif:       # the safe-mode screen, as asked
            run_headless(sim, [], 1, args.screenshot, args.gif, args.scale)
        else:
            print(halfblocks(sim.oled))
        print("safe mode: B held at power-on, launcher skipped")
        return 0
    if cable is not None:
        if not isinstance(sim, Simulator):
            cable.close()
            raise UserError("--link: the simulator links MicroPython boards only (not %s)" % args.board)
        cable.attach(sim)
        print("link cable: %s 127.0.0.1:%d" % (cable.role, args.link))
    if frontend == "headless":
        return run_headless(sim, script, args.ticks, args.screenshot, args.gif, args.scale)
    if frontend == "pygame":
        try:
            return run_pygame(sim, args.scale, args.ticks or None)
        except Exception as exc:  # no video device after all
            if args.frontend == "pygame":
                raise UserError("pygame window failed: %s" % exc) from None
    return run_terminal(sim, args.ticks or None)


def register(subparsers):
    p = subparsers.add_parser("sim", help="run the firmware in the simulator (make sim)")
    p.add_argument("--board", default="pico-ssd1306", help="board name from boards/ (default pico-ssd1306)")
    p.add_argument("--frontend", choices=("auto", "pygame", "terminal", "headless"), default="auto")
    p.add_argument("--keys", help='key script, e.g. "down a right right wait:30"')
    p.add_argument("--keys-file", help="key script from a file")
    p.add_argument("--ticks", type=int, help="run this many ticks (headless)")
    p.add_argument("--screenshot", help="write the final screen as PNG")
    p.add_argument("--gif", help="write an animated GIF of the run")
    p.add_argument("--scale", type=int, default=4, help="pixel scale for window/images")
    p.add_argument("--saves", help="save directory (default build/sim-saves)")
    p.add_argument("--safe-mode", action="store_true", help="hold B at power-on")
    p.add_argument("--battery", type=float, metavar="VOLTS",
                   help="the supply a battery board reads, e.g. 3.7 (default: USB power)")
    p.add_argument("--link", type=int, metavar="PORT",
                   help="the link cable to another sim on this machine over 127.0.0.1:PORT "
                        "(the first one started listens, the second connects)")
    p.set_defaults(func=run_sim)
