"""`python -m host_tools sim` / `make sim`: the unmodified firmware under CPython.

The firmware's own hardware layer (firmware/hw_machine.py) runs against a fake
``machine`` module (host_tools/fakemachine.py): button pins read the keys you
press, and every I2C transaction goes to a controller model
(host_tools/oledmodel.py) that decodes the bytes into pixels like the chip.
``framebuf`` comes from host_tools/hostfb (a pure-Python copy of MicroPython's).

Front ends: a pygame-ce window (arrows, Z/A = A, X/B = B, Esc quits), a
terminal front end with Unicode half blocks (chosen when there is no display),
and a headless mode for scripts and golden images:
``--keys "down a right right" --ticks 200 --screenshot out.png --gif out.gif``.
Key script tokens: a button name (up down left right a b) taps it (pressed 2
ticks, released 2 ticks); ``NAME*N`` taps N times; ``wait`` idles 15 ticks,
``wait:N`` N ticks; ``hold:NAME:N`` holds a button for N ticks.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARDS_DIR = ROOT / "boards"
HOSTFB_DIR = Path(__file__).resolve().parent / "hostfb"
KEY_NAMES = ("up", "down", "left", "right", "a", "b")
ALIASES = {"z": "a", "x": "b"}


def install_host_modules():
    """framebuf + fake machine on the import path, firmware/ importable."""
    import host_tools.fwpath  # noqa: F401

    if str(HOSTFB_DIR) not in sys.path:
        sys.path.insert(0, str(HOSTFB_DIR))
    from host_tools import fakemachine

    sys.modules["machine"] = fakemachine
    return fakemachine


def parse_keys(text):
    """Key script -> list of per-tick sets of pressed button names."""
    from host_tools.cli import UserError

    ticks = []
    for token in text.replace(",", " ").split():
        tok = token.lower()
        if tok == "wait" or tok.startswith("wait:"):
            n = 15 if tok == "wait" else _count(tok[5:], token)
            ticks.extend([frozenset()] * n)
            continue
        if tok.startswith("hold:"):
            parts = tok.split(":")
            if len(parts) != 3:
                raise UserError("bad key token %r (use hold:NAME:TICKS)" % token)
            name = _key(parts[1], token)
            ticks.extend([frozenset([name])] * _count(parts[2], token))
            ticks.extend([frozenset()] * 2)
            continue
        name, _, times = tok.partition("*")
        name = _key(name, token)
        for _ in range(_count(times, token) if times else 1):
            ticks.extend([frozenset([name])] * 2 + [frozenset()] * 2)
    return ticks


def _key(name, token):
    from host_tools.cli import UserError

    name = ALIASES.get(name, name)
    if name not in KEY_NAMES:
        raise UserError("unknown key %r in %r (use %s, wait, wait:N, hold:NAME:N, NAME*N)"
                        % (name, token, ", ".join(KEY_NAMES)))
    return name


def _count(text, token):
    from host_tools.cli import UserError

    try:
        n = int(text)
    except ValueError:
        raise UserError("bad count in key token %r" % token) from None
    if n < 0:
        raise UserError("bad count in key token %r" % token)
    return n


class Simulator:
    """One simulated handheld: ``step(keys)`` runs one tick with those keys down."""

    def __init__(self, board="pico-ssd1306", saves_dir=None, hold_at_boot=()):
        from host_tools.cli import UserError

        fake = install_host_modules()
        import boardcfg

        try:
            self.cfg = boardcfg.load(board, str(BOARDS_DIR))
        except boardcfg.BoardError as exc:
            raise UserError(str(exc)) from None
        from host_tools.oledmodel import OledModel

        fake.detach_all()
        disp = self.cfg["display"]
        self.oled = OledModel(disp["controller"], disp["width"], disp["height"],
                              self.cfg["i2c"]["address"])
        fake.attach(self.cfg["i2c"]["address"], self.oled)
        self.fake = fake
        self.now = 0
        # button name -> [(pin, level when pressed)]
        self.key_pins = {}
        for name, spec in self.cfg["buttons"].items():
            level = 1 if spec["pull"] == "down" else 0
            self.key_pins.setdefault(spec["as"], []).append((spec["pin"], level))
        for name, parts in self.cfg["combos"].items():
            self.key_pins[name] = [self.key_pins[p][0] for p in parts]
        self.levels = fake.levels
        self.set_keys(hold_at_boot)
        import hw_machine
        import main
        import saves

        self.hw = hw_machine.Hardware(self.cfg)
        self.hw.ticks_ms = self._ticks_ms
        self.hw.sleep_ms = self._sleep_ms
        fs = saves.OsFs(str(saves_dir)) if saves_dir else saves.MemFs()
        self.runtime = main.boot(self.cfg, self.hw, saves.Saves(fs))
        self.tick_index = 0

    def _ticks_ms(self):
        return self.now & 0x3FFFFFFF

    def _sleep_ms(self, ms):
        self.now += ms

    def set_keys(self, names):
        levels = self.levels
        for name, pins in self.key_pins.items():
            for pin, level in pins:
                levels[pin] = 1 - level
        for name in names:
            for pin, level in self.key_pins[name]:
                levels[pin] = level

    def step(self, keys=()):
        self.set_keys(keys)
        if self.runtime is not None:
            self.runtime.step()
        self.tick_index += 1
        self.now = self.tick_index * 1000 // 30

    def screen_text(self):
        return self.oled.to_text()

    def image(self, scale=4):
        return self.oled.image(scale)


# -- front ends -----------------------------------------------------------------------
def run_headless(sim, script, ticks, screenshot, gif, scale):
    frames = []
    total = max(ticks or 0, len(script) + (0 if ticks else 10))
    for i in range(total):
        sim.step(script[i] if i < len(script) else ())
        if gif and i % 2 == 0:
            frames.append(sim.image(scale))
    if screenshot:
        sim.image(scale).save(screenshot)
        print("screenshot: %s" % screenshot)
    if gif:
        frames.append(sim.image(scale))
        frames[0].save(gif, save_all=True, append_images=frames[1:], duration=66, loop=0)
        print("gif: %s (%d frames)" % (gif, len(frames)))
    if not screenshot and not gif:
        print(halfblocks(sim.oled))
    rt = sim.runtime
    if rt is not None:
        print("ticks %d, I2C bytes %d in %d transactions" % (
            rt.ticks, sim.fake.stats["bytes"], sim.fake.stats["transactions"]))
    return 0


def halfblocks(oled):
    """The glass as text, two pixel rows per character (Unicode half blocks)."""
    rows = oled.pixels()
    chars = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}
    lines = []
    for y in range(0, len(rows), 2):
        top = rows[y]
        bottom = rows[y + 1] if y + 1 < len(rows) else bytearray(len(top))
        lines.append("".join(chars[(top[x], bottom[x])] for x in range(len(top))))
    return "\n".join(lines)


def run_terminal(sim, max_ticks=None):
    import select
    import time

    if not sys.stdin.isatty():
        n = max_ticks or 30
        for _ in range(n):
            sim.step()
        print(halfblocks(sim.oled))
        print("(stdin is not a terminal: no keys; showed %d ticks and stopped)" % n)
        return 0
    import termios
    import tty

    keymap = {"\x1b[A": "up", "\x1b[B": "down", "\x1b[D": "left", "\x1b[C": "right",
              "z": "a", "a": "a", "x": "b", "b": "b", " ": "a", "\r": "a", "\x7f": "b"}
    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    held = {}
    last = None
    out = sys.stdout
    try:
        tty.setcbreak(fd)
        out.write("\x1b[2J\x1b[?25l")
        start = time.monotonic()
        tick = 0
        while max_ticks is None or tick < max_ticks:
            while select.select([sys.stdin], [], [], 0)[0]:
                ch = os.read(fd, 16).decode("latin-1")
                if ch in ("q", "Q", "\x1b"):
                    return 0
                i = 0
                while i < len(ch):
                    seq = ch[i:i + 3] if ch[i] == "\x1b" else ch[i]
                    name = keymap.get(seq) or keymap.get(seq.lower())
                    if name:
                        held[name] = tick + 5   # terminals send no key-up: hold ~150 ms
                    i += len(seq)
            keys = [k for k, until in held.items() if until > tick]
            sim.step(keys)
            frame = halfblocks(sim.oled)
            if frame != last:
                out.write("\x1b[H" + frame + "\n arrows move, z/a = A, x/b = B, q quits  \n")
                out.flush()
                last = frame
            tick += 1
            delay = start + tick / 30.0 - time.monotonic()
            if delay > 0:
                time.sleep(delay)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)
        out.write("\x1b[?25h\n")
    return 0


def run_pygame(sim, scale):
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.init()
    w, h = sim.oled.width, sim.oled.height
    screen = pygame.display.set_mode((w * scale, h * scale))
    pygame.display.set_caption("Pocket Puzzles - %s" % sim.cfg["name"])
    keys = {pygame.K_UP: "up", pygame.K_DOWN: "down", pygame.K_LEFT: "left",
            pygame.K_RIGHT: "right", pygame.K_z: "a", pygame.K_a: "a",
            pygame.K_x: "b", pygame.K_b: "b"}
    clock = pygame.time.Clock()
    while True:
        for event in pygame.event.get():
            if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN
                                             and event.key == pygame.K_ESCAPE):
                pygame.quit()
                return 0
        pressed = pygame.key.get_pressed()
        sim.step([name for key, name in keys.items() if pressed[key]])
        img = sim.image(scale)
        surface = pygame.image.fromstring(img.tobytes(), img.size, "RGB")
        screen.blit(surface, (0, 0))
        pygame.display.flip()
        clock.tick(30)


def has_display():
    if sys.platform in ("darwin", "win32"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run_sim(args):
    from host_tools.cli import UserError

    script = []
    if args.keys_file:
        try:
            script += parse_keys(Path(args.keys_file).read_text())
        except OSError as exc:
            raise UserError("cannot read --keys-file: %s" % exc) from None
    if args.keys:
        script += parse_keys(args.keys)
    headless = bool(script or args.ticks or args.screenshot or args.gif)
    frontend = args.frontend
    if frontend == "auto":
        frontend = "headless" if headless else ("pygame" if has_display() else "terminal")
    saves_dir = Path(args.saves) if args.saves else ROOT / "build" / "sim-saves"
    saves_dir.mkdir(parents=True, exist_ok=True)
    hold = ("b",) if args.safe_mode else ()
    sim = Simulator(args.board, saves_dir, hold_at_boot=hold)
    if sim.runtime is None:
        print(halfblocks(sim.oled))
        print("safe mode: B held at power-on, launcher skipped")
        return 0
    if frontend == "headless":
        return run_headless(sim, script, args.ticks, args.screenshot, args.gif, args.scale)
    if frontend == "pygame":
        try:
            return run_pygame(sim, args.scale)
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
    p.set_defaults(func=run_sim)
