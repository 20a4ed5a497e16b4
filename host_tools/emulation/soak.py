"""The soak: many games in a row on one boot, to find memory a game leaves
behind or a heap cut into pieces (``python -m host_tools soak``, ``make soak``,
a `make bench` section, tests/test_soak.py).

The player is the host: seeded random keys, pressed only through the buttons
(never through a game's attributes), in turn on every game: the launcher starts
it (A; CONTINUE or RIGHT for a new game when one is saved), keys are played
(arrows, A, B taps, B+A undo, B held for the menus, waits for the AI), then the
game is left (B held for the pause menu's QUIT, B taps); now and then the settings
screen and a game's "how to play" pages.  Level lists, hints and Cat & Mouse's
watch mode are reached the way a player reaches them: through those keys.

What the guest adds is a probe (``PROBE``), installed on the booted runtime
``rt`` and resident from the start (so part of the baseline): ``rt.step`` and
``rt.out_of_memory`` wrapped as instance attributes (the runtime's code is run
unchanged) to print one line when the screen changes (``@@game``, ``@@error``,
``@@launcher``) and to count the ticks over 33 ms and the "NOT ENOUGH MEMORY"
toasts (each with ``@@oom``: the heap free, then ``mem_info()`` for its
largest block, and the game's screen, level and Klotski solver's state).
Back at the launcher, ``soak_report()`` prints the heap after
gc.collect() and ``micropython.mem_info()``, whose "max free sz" (in 16-byte
blocks) is the largest free block.  The runtime prints every traceback
(``sys.print_exception``) on the console, where the host counts them.

Targets:

- ``vpico``: the flashed firmware on the virtual Pico (compiled .mpy with what a
  plain ``flash`` adds: Klotski's tables in saves/, ``vpfirmware.flashed_image``;
  littlefs saves, real heap and GC, the emulated clock).  Booted in safe mode (B held),
  then ``main.boot()`` and ``rt.run()`` from the raw REPL: main.py's own
  30 ticks/s loop, the buttons set on the GPIO pins tick by tick.
- ``vm``: the official MicroPython WebAssembly port under Node
  (host_tools/emulation/soak_runner.mjs), its heap the Pico's 245,888 B, the
  firmware stepped on a virtual clock as host_tools/emulation/runtime_vm.py
  does (saves in memory).  This port collects garbage only between top-level
  parts, so each tick is a part of its own; a tick whose garbage does not fit
  grows the heap by another area (``total`` of mem_info), which the table
  shows as "heap grown" (the device would have collected there).  Its clock is
  virtual: no tick times.
"""

import json
import random
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

from host_tools.core import UserError

TICK_MS = 1000.0 / 30
PICO_HEAP = 245888                # the RP2040 MicroPython heap (gc.mem_alloc() + gc.mem_free())
HEAP_SLACK = 1024                 # the heap back at the launcher: within this of the baseline
BLOCK = 16                        # bytes of a GC block (mem_info's "max free sz" counts blocks)
UP, DOWN, LEFT, RIGHT, A, B = 1, 2, 4, 8, 16, 32
NAMES = ((UP, "up"), (DOWN, "down"), (LEFT, "left"), (RIGHT, "right"), (A, "a"), (B, "b"))
GAME_IDS = ("catmouse", "trapcat", "junqi", "klotski")     # games.GAMES order (the launcher's)
SETTINGS_ROW = len(GAME_IDS)
MENU_ROWS = len(GAME_IDS) + 3                              # + Settings, About, 2 Players

# guest code, after ``rt`` exists; REPORT_INLINE: soak_report() right at the
# launcher (a VM whose gc.collect() only marks a collection calls it later)
PROBE = r"""
import gc, micropython, sys
SOAK = [0, 0, 0, None, 0, 0, 0]
def soak_report():
    gc.collect()
    print('@@home\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%d' % (gc.mem_alloc(), gc.mem_free(), SOAK[0],
          SOAK[1], SOAK[2], rt.launcher.sel, ','.join(rt.resumable), SOAK[5]))
    micropython.qstr_info()
    micropython.mem_info()
    SOAK[0] = SOAK[1] = SOAK[2] = SOAK[5] = 0
_soak_oom0 = rt.out_of_memory
def _soak_oom():
    SOAK[2] += 1
    g = rt.game
    task = getattr(g, 'task', None)
    print('@@oom\t%d\t%s level %s, piece set %s, solver phase %s' % (gc.mem_free(),
          type(getattr(g, 'screen', g)).__name__, getattr(g, 'level', '-'),
          getattr(task, 'piece_set', '-'), getattr(task, 'phase', '-')))
    micropython.mem_info()
    _soak_oom0()
rt.out_of_memory = _soak_oom
_soak_step0 = rt.step
_soak_store0 = rt.saves.store
def _soak_store(game_id, data):
    SOAK[6] += 1
    return _soak_store0(game_id, data)
rt.saves.store = _soak_store
_soak_often0 = rt.saves.store_often
def _soak_often(game_id, data):
    SOAK[6] += 1
    return _soak_often0(game_id, data)
rt.saves.store_often = _soak_often
def _soak_what(s, n0):
    inner = getattr(s, 'screen', s)
    mods = [m for m in sys.modules if m not in _soak_mods]
    if len(sys.modules) != n0 or mods:
        _soak_mods.clear()
        for m in sys.modules:
            _soak_mods[m] = 1
    menu = getattr(getattr(s, 'pause', None), 'shown', 0)
    return '%s%s saves=%d +%s' % (type(inner).__name__, ' menu' if menu else '', SOAK[6], ','.join(mods))
_soak_mods = {}
for _m in sys.modules:
    _soak_mods[_m] = 1
def _soak_step():
    n0 = len(sys.modules)
    SOAK[6] = 0
    _soak_step0()
    t = rt.tick_ms
    s = rt.screen
    if t > 45:
        print('@@tick\t%d\t%s' % (t, _soak_what(s, n0)))
    elif len(sys.modules) != n0:
        _soak_what(s, n0)
    if s is not SOAK[3]:
        SOAK[3] = s
        if t > SOAK[5]:
            SOAK[5] = t
        if s is rt.launcher:
            print('@@launcher')
            if REPORT_INLINE:
                soak_report()
        elif rt.game is None:
            print('@@error\t' + s.title)
        else:
            print('@@game\t%s\t%s' % (rt.ctx.game_id, rt._module))
    else:
        if t > 33:
            SOAK[0] += 1
        if t > SOAK[1]:
            SOAK[1] = t
            if t > 33:
                print('@@slow\t%d' % t)
    if s is rt.launcher and rt.launcher.sel != SOAK[4]:
        SOAK[4] = rt.launcher.sel
        print('@@sel\t%d' % SOAK[4])
rt.step = _soak_step
"""

_MAX_FREE = re.compile(r"max free sz: *(\d+)")
_TOTAL = re.compile(r"GC: total: *(\d+)")
# the interned names' pools in micropython.qstr_info()'s line (bench_vpico reads it too)
QSTR_POOL = re.compile(r"qstr pool:.*n_total_bytes=(\d+)")


class Visit:
    """One game from its start to the launcher: what the probe reported."""

    def __init__(self, game, module):
        self.game = game
        self.module = module
        self.keys = []            # the key actions played (for a report)
        self.tracebacks = []
        self.errors = []          # error screens' titles
        self.heap = None          # gc.mem_alloc() back at the launcher
        self.largest_free = None
        self.heap_total = None
        self.qstr = None          # bytes of the interned-string pools (qstr_info)
        self.over_33 = 0
        self.worst_tick = 0       # ms, the ticks of play (not the start's nor the leaving's)
        self.switch_tick = 0      # ms, the longest tick that changed the screen (start, leave)
        self.slow = []            # (ms, the keys before it) each time the worst tick of play grew
        self.oom = 0
        self.oom_at = []          # per "NOT ENOUGH MEMORY": the heap free, its largest block, where
        self.ticks = 0

    @property
    def row(self):
        return "howto" if self.module == "howto" else self.game


class Target:
    """Common part: lines from the guest turned into events and visits."""

    def __init__(self):
        self.ticks = 0
        self.at_launcher = False
        self.sel = 0
        self.resumable = ()
        self.visit = None
        self.visits = []
        self.homes = []           # every launcher report: (alloc, free, largest, total)
        self._pending = ""
        self._tb = None
        self._oom = None          # [free, largest block, where] of an @@oom until mem_info's end
        self._qstr = None
        self.console = []         # lines that are not the probe's
        self.long_ticks = []      # (ms, game, what the tick did, keys): every tick over 45 ms
        self.live = None          # print(line) for each as it comes (the command's stderr)

    def feed(self, text):
        self._pending += text.replace("\r", "")
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self._line(line)

    def _line(self, line):
        visit = self.visit
        if self._tb is not None:
            self._tb.append(line)
            if not line.startswith(" ") and not line.startswith("Traceback"):
                (visit.tracebacks if visit else self.console).append("\n".join(self._tb))
                self._tb = None
            return
        if self._oom is not None:          # mem_info() after an @@oom line
            largest = _MAX_FREE.search(line)
            if largest:
                self._oom[1] = int(largest.group(1)) * BLOCK
                note = "free %d B, largest free block %d B, in %s" % tuple(self._oom)
                if visit is not None:
                    visit.oom_at.append(note)
                if self.live is not None:
                    self.live("out of memory: " + note)
                self._oom = None
            return
        if line.startswith("Traceback"):
            self._tb = [line]
        elif line.startswith("@@game\t"):
            _, game, module = line.split("\t")
            self.at_launcher = False
            self.visit = Visit(game, module)
            self.visits.append(self.visit)
            self._start_tick = self.ticks
        elif line.startswith("@@error\t"):
            self.at_launcher = False
            if visit is not None:
                visit.errors.append(line.split("\t", 1)[1])
        elif line == "@@launcher":
            self.at_launcher = True
            self.back_home()
        elif line.startswith("@@home\t"):
            f = line.split("\t")
            self._home = [int(f[1]), int(f[2]), None, None]
            self.sel = int(f[6])
            self.resumable = tuple(x for x in f[7].split(",") if x)
            if visit is not None:
                visit.heap = int(f[1])
                visit.over_33, visit.worst_tick, visit.oom = int(f[3]), int(f[4]), int(f[5])
                visit.switch_tick = int(f[8])
                visit.ticks = self.ticks - self._start_tick
        elif QSTR_POOL.search(line):
            self._qstr = int(QSTR_POOL.search(line).group(1))
        elif _TOTAL.search(line):
            self._home[3] = int(_TOTAL.search(line).group(1))
        elif _MAX_FREE.search(line):
            self._home[2] = int(_MAX_FREE.search(line).group(1)) * BLOCK
            self.homes.append(tuple(self._home))
            if visit is not None:
                visit.largest_free, visit.heap_total = self._home[2], self._home[3]
                visit.qstr = self._qstr
                self.visit = None
        elif line.startswith("@@tick\t"):
            _, ms, what = line.split("\t", 2)
            where = visit.game if visit is not None else "launcher"
            self.long_ticks.append((int(ms), where, what, " ".join(visit.keys[-6:]) if visit else ""))
            if self.live is not None:
                self.live("tick over 45 ms: %s ms in %s (%s)" % (ms, where, what))
        elif line.startswith("@@slow\t"):
            if visit is not None:
                visit.slow.append((int(line.split("\t")[1]), " ".join(visit.keys[-8:])))
        elif line.startswith("@@oom\t"):
            _, free, where = line.split("\t", 2)
            self._oom = [int(free), None, where]
        elif line.startswith("@@sel\t"):
            self.sel = int(line.split("\t")[1])
        elif line.startswith("@@fail "):
            raise UserError("the soak's guest failed: " + line[7:])
        elif line.strip() and not line.startswith("stack:"):
            self.console.append(line)

    def back_home(self):
        """The launcher is on screen again (the VM reports the heap here)."""

    def press(self, mask, ticks):
        raise NotImplementedError

    def emulated_ms(self):
        return self.ticks * TICK_MS

    def close(self):
        pass


class VMTarget(Target):
    """The firmware in the MicroPython WebAssembly port, one tick a part."""

    name = "vm"

    def __init__(self, heap=PICO_HEAP):
        super().__init__()
        from host_tools.core.fwpath import ROOT
        from host_tools.emulation import runtime_vm

        if shutil.which("node") is None:
            raise UserError("the vm target needs Node.js (node) on the PATH")
        self._staged = runtime_vm.staged_firmware()
        folder = self._staged.__enter__()
        runner = Path(__file__).resolve().parent / "soak_runner.mjs"
        self.proc = subprocess.Popen(["node", str(runner), str(folder), str(heap)], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        # the saves as files (the port's file system lives outside the Python
        # heap, as the Pico's flash does), not in a MemFs on the heap
        setup = runtime_vm.SETUP.replace("saves.Saves(saves.MemFs())", "saves.Saves()")
        assert setup != runtime_vm.SETUP
        self._run(["P", "GC_SAFE = True\n" + setup])
        self._home_due = False
        self._run(["P", "REPORT_INLINE = False\n" + PROBE])

    def _run(self, cmd):
        try:
            self.proc.stdin.write(json.dumps(cmd) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise UserError("the soak's VM (node) stopped") from None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise UserError("the soak's VM (node) stopped")
            line = line.rstrip("\n")
            if line == "@@done":
                return
            if line.startswith("@@error "):
                raise UserError("the soak's VM failed: " + line[8:][-300:])
            if line.startswith("@@ran "):
                self._ran = int(line[6:])
                continue
            self.feed(line + "\n")

    def press(self, mask, ticks):
        while ticks > 0:
            self._home_due = False
            self._ran = ticks
            self._run(["T", mask, ticks])
            self.ticks += self._ran
            ticks -= self._ran
            if self._home_due:
                # the runtime's gc.collect() only marked a collection: it ran
                # after that tick's part, so the heap is read in a part of its own
                self._home_due = False
                self._run(["P", "soak_report()"])

    def back_home(self):
        self._home_due = True

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait(timeout=30)
            self.proc = None
            self._staged.__exit__(None, None, None)


_VPICO_BOOT = r"""
import main
rt = main.boot()
REPORT_INLINE = True
""" + PROBE + r"""
print('@@ready')
rt.run()
"""


class VPicoTarget(Target):
    """The flashed firmware on the virtual Pico, in main.py's own loop."""

    name = "vpico"

    def __init__(self, board="pico-ssd1306", tables=True):
        super().__init__()
        from host_tools.emulation import vpfirmware, vpico

        self._vpico = vpico
        self._tmp = tempfile.TemporaryDirectory(prefix="soak-")
        path = Path(self._tmp.name) / "flash.img"
        try:
            image = vpfirmware.flashed_image(board) if tables else vpfirmware.firmware_image(board)
            shutil.copyfile(image, path)
            self.pico = vpico.VirtualPico(path, board=board)
            self.pico.start_at_repl()
            self.pico.take_serial()
            self.pico.write_serial(_VPICO_BOOT.encode() + b"\x04")
            self.pico.wait_serial(b"OK", 2000)
            self.feed(self.pico.wait_serial(b"@@ready\r\n", 10000).decode(errors="replace"))
        except vpico.VPicoError as exc:
            self.close()
            raise UserError("virtual Pico: %s" % str(exc).splitlines()[0]) from None
        self.start_ns = self.pico.now_ns

    def press(self, mask, ticks):
        pico = self.pico
        pico.set_buttons([name for bit, name in NAMES if mask & bit])
        self.ticks += ticks
        try:
            pico.run_until(self.start_ns + int(self.ticks * TICK_MS * self._vpico.MS))
        except self._vpico.VPicoError as exc:
            raise UserError("virtual Pico: %s" % str(exc).splitlines()[0]) from None
        self.feed(pico.take_serial().decode(errors="replace"))

    def close(self):
        pico = getattr(self, "pico", None)
        if pico is not None:
            pico.close()
            self.pico = None
        self._tmp.cleanup()


TARGETS = {"vm": VMTarget, "vpico": VPicoTarget}


class Player:
    """Seeded random keys through the buttons, game after game."""

    def __init__(self, target, seed=1, play_s=(8, 45)):
        self.t = target
        self.rng = random.Random(seed)
        self.play_s = play_s      # emulated seconds of keys in a game (before leaving)
        self.log = None

    # -- key primitives -----------------------------------------------------------------
    def hold(self, mask, ticks, label=None):
        if self.log is not None and label:
            self.log.append(label)
        self.t.press(mask, ticks)

    def tap(self, mask, label=None):
        self.hold(mask, 2, label or _label(mask))
        self.t.press(0, 2)

    def undo(self):
        self.hold(B, 3, "B+A")
        self.t.press(B | A, 2)
        self.t.press(B, 1)
        self.t.press(0, 3)

    def hold_b(self):
        self.hold(B, 30, "holdB")
        self.t.press(0, 3)

    # -- the launcher ---------------------------------------------------------------------
    def settle(self, ticks=12):
        """No keys until the probe's line about the last key has come (the
        virtual Pico's USB console sends it a few ms later); at most ``ticks``."""
        t = self.t
        seen = (len(t.visits), t.at_launcher, t.sel)
        for _ in range(ticks):
            if (len(t.visits), t.at_launcher, t.sel) != seen:
                return
            t.press(0, 1)

    def goto(self, row):
        """DOWN until the launcher's selection (the probe reports it) is ``row``."""
        for _ in range(3 * MENU_ROWS):
            if self.t.sel == row or not self.t.at_launcher:
                return
            self.tap(DOWN)
            self.settle()

    def settings(self):
        self.goto(SETTINGS_ROW)
        self.tap(A)
        for _ in range(self.rng.randint(2, 8)):
            self.tap(self.rng.choice((UP, DOWN, LEFT, RIGHT, RIGHT)))
        for _ in range(3):                     # B leaves the settings
            if not self.t.at_launcher:
                break
            self.tap(B)
            self.t.press(0, 2)
            break

    def start(self, index, howto=False):
        """Start game ``index`` (its rules pages with ``howto``); the Visit or None."""
        self.goto(index)
        before = len(self.t.visits)
        game = GAME_IDS[index]
        if howto:
            self.tap(B)
        elif game in self.t.resumable and self.rng.random() < 0.4:
            self.tap(RIGHT, "new")            # a new game instead of CONTINUE
        else:
            self.tap(A, "CONTINUE" if game in self.t.resumable else "A")
        self.t.press(0, 2)
        self.settle(60)                       # a start takes up to ~1.1 s on a Pico
        if len(self.t.visits) == before:
            return None
        visit = self.t.visits[-1]
        self.log = visit.keys
        return visit

    # -- a game -------------------------------------------------------------------------------
    def play(self, ms):
        end = self.t.emulated_ms() + ms
        rng = self.rng
        while self.t.emulated_ms() < end and not self.t.at_launcher:
            r = rng.random()
            if r < 0.42:
                self.tap(rng.choice((UP, DOWN, LEFT, RIGHT)))
            elif r < 0.66:
                self.tap(A)
            elif r < 0.74:
                self.undo()
            elif r < 0.80:
                self.tap(B)
            elif r < 0.84:
                self.hold_b()                  # a menu (Klotski's HINT...) or leaving
            else:
                n = rng.randint(10, 90)        # the AI thinks, a hint runs, an animation
                self.hold(0, n, "wait%d" % n)

    def leave(self):
        """B held (in play: every game's pause menu, whose last line, UP from
        the first, is QUIT: A there leaves), B taps (the menu, lists, titles,
        rules pages, end screens), A now and then (an end or error screen's
        A/B: BACK).  False when still not at the launcher."""
        t = self.t
        for round_no in range(16):
            self.settle(3)
            if t.at_launcher:
                return True
            self.hold_b()
            self.settle(6)
            if t.at_launcher:
                return True
            if round_no % 2:
                self.tap(UP)
                self.settle(3)
                if not t.at_launcher:
                    self.tap(A)
                    self.settle(6)
            if not t.at_launcher:
                self.tap(B)
                self.settle(6)
            if round_no % 4 == 3 and not t.at_launcher:
                self.tap(A)
        return t.at_launcher

    def soak(self, minutes, progress=None):
        """Play for ``minutes`` emulated minutes; ``progress(ms)`` after each game."""
        t = self.t
        rng = self.rng
        t.press(0, 10)
        stuck = []
        k = 0
        while t.emulated_ms() < minutes * 60000:
            index = k % len(GAME_IDS)
            k += 1
            first_round = k <= len(GAME_IDS)     # every game played once first
            if t.at_launcher and not first_round and rng.random() < 0.2:
                self.log = None
                self.settings()
            visit = self.start(index, howto=not first_round and rng.random() < 0.12)
            if visit is not None:
                self.play(1000 * rng.uniform(*self.play_s))
            if not self.leave():
                stuck.append((GAME_IDS[index], list(self.log or ())[-40:]))
                self.log = None
                if not self.leave():
                    raise UserError("stuck in %s: B held and B taps do not reach the launcher "
                                    "(keys: %s)" % (GAME_IDS[index], " ".join(stuck[-1][1])))
            t.press(0, 3)
            self.log = None
            if progress is not None:
                progress(t.emulated_ms())
        return stuck


def _label(mask):
    return "+".join(name.upper() for bit, name in NAMES if mask & bit) or "-"


# -- the summary -----------------------------------------------------------------------------
class Result:
    def __init__(self, target, minutes, seed, stuck):
        self.target = target.name
        self.minutes = minutes
        self.seed = seed
        self.emulated_ms = target.emulated_ms()
        self.visits = [v for v in target.visits if v.heap is not None]
        self.unfinished = [v for v in target.visits if v.heap is None]
        self.homes = list(target.homes)
        self.console_tracebacks = [c for c in target.console if c.startswith("Traceback")]
        self.long_ticks = list(target.long_ticks)
        self.stuck = stuck
        self.baseline = self.visits[0].heap if self.visits else None
        self.interrupted = False

    def deviation(self, visit):
        return visit.heap - self.baseline

    def deviation_objects(self, visit):
        """The heap's deviation less what the interned-string pools grew by:
        MicroPython never frees a qstr, so each module's first import leaves
        its new names behind (the same names at its next import are found)."""
        return self.deviation(visit) - ((visit.qstr or 0) - (self.visits[0].qstr or 0))

    def rows(self):
        """[(row name, figures dict)] per game (and the rules pages)."""
        order = list(GAME_IDS) + ["howto"]
        out = []
        for name in order:
            vs = [v for v in self.visits + self.unfinished if v.row == name]
            if not vs:
                continue
            done = [v for v in vs if v.heap is not None]
            devs = [self.deviation(v) for v in done]
            objs = [self.deviation_objects(v) for v in done]
            out.append((name, {
                "objects_dev_max": max(objs, key=abs) if objs else 0,
                "visits": len(vs),
                "ticks": sum(v.ticks for v in done),
                "heap_dev_max": max(devs, key=abs) if devs else 0,
                "heap_last": done[-1].heap if done else None,
                "largest_free_min": min(v.largest_free for v in done) if done else None,
                "heap_total_max": max(v.heap_total or 0 for v in done) if done else None,
                "over_33": sum(v.over_33 for v in done),
                "worst_tick": max(v.worst_tick for v in done) if done else 0,
                "switch_tick": max(v.switch_tick for v in done) if done else 0,
                "qstr_max": max(v.qstr or 0 for v in done) if done else 0,
                "oom": sum(v.oom for v in vs),
                "memory_errors": sum(v.oom for v in vs) + sum(
                    1 for v in vs for e in v.errors if "MEMORY" in e.upper()) + sum(
                    1 for v in vs for tb in v.tracebacks if "MemoryError" in tb),
                "tracebacks": sum(len(v.tracebacks) for v in vs),
                "errors": sum(len(v.errors) for v in vs),
            }))
        return out

    def totals(self):
        rows = [f for _, f in self.rows()]
        devs = [self.deviation(v) for v in self.visits]
        objs = [self.deviation_objects(v) for v in self.visits]
        return {
            "objects_dev_max": max(objs, key=abs) if objs else 0,
            "games": len(self.visits),
            "baseline": self.baseline,
            "heap_dev_max": max(devs, key=abs) if devs else 0,
            "largest_free_min": min((v.largest_free for v in self.visits), default=None),
            "largest_free_first": self.visits[0].largest_free if self.visits else None,
            "heap_total_max": max((v.heap_total or 0 for v in self.visits), default=None),
            "over_33": sum(f["over_33"] for f in rows),
            "worst_tick": max((f["worst_tick"] for f in rows), default=0),
            "switch_tick": max((f["switch_tick"] for f in rows), default=0),
            "qstr_first": self.visits[0].qstr if self.visits else None,
            "qstr_last": self.visits[-1].qstr if self.visits else None,
            "memory_errors": sum(f["memory_errors"] for f in rows)
            + sum("MemoryError" in tb for tb in self.console_tracebacks),
            "tracebacks": sum(f["tracebacks"] for f in rows) + len(self.console_tracebacks),
            "errors": sum(f["errors"] for f in rows),
            "stuck": len(self.stuck),
        }

    def ok(self):
        """The heap judged less the qstr pool's growth (the names each module brings
        at its first import stay for the boot: a one-time cost, shown apart, not a
        leak), as the bench and the tests judge it."""
        s = self.totals()
        return (s["games"] > 0 and not self.interrupted and s["tracebacks"] == 0 and s["memory_errors"] == 0
                and abs(s["objects_dev_max"]) <= HEAP_SLACK)

    def table(self):
        timed = self.target != "vm"
        head = ("game", "visits", "ticks", "heap vs base", "less qstr", "largest free min", "qstr pool",
                ">33ms", "worst tick", "start/leave", "mem errors", "tracebacks", "error scr")
        fmt = "%-9s %6s %7s %12s %10s %16s %9s %6s %10s %11s %10s %10s %9s"
        lines = [fmt % head]
        for name, f in self.rows():
            lines.append(fmt % (
                name, f["visits"], f["ticks"], "%+d B" % f["heap_dev_max"],
                "%+d B" % f["objects_dev_max"],
                "-" if f["largest_free_min"] is None else "%d B" % f["largest_free_min"],
                "%d B" % f["qstr_max"], f["over_33"] if timed else "-",
                "%d ms" % f["worst_tick"] if timed else "-",
                "%d ms" % f["switch_tick"] if timed else "-",
                f["memory_errors"], f["tracebacks"], f["errors"]))
        return "\n".join(lines)

    def summary(self):
        s = self.totals()
        line = ("soak %s: %.1f emulated min, seed %d, %d games; heap at the launcher %s B, "
                "max deviation %+d B; largest free block min %s B (first %s B); "
                "memory errors %d, tracebacks %d, error screens %d"
                % (self.target, self.emulated_ms / 60000, self.seed, s["games"], s["baseline"],
                   s["heap_dev_max"], s["largest_free_min"], s["largest_free_first"],
                   s["memory_errors"], s["tracebacks"], s["errors"]))
        line += ("; qstr pool %s -> %s B (the heap less its growth: max deviation %+d B, budget +-%d B)"
                 % (s["qstr_first"], s["qstr_last"], s["objects_dev_max"], HEAP_SLACK))
        if self.target != "vm":
            line += ("; ticks of play over 33 ms %d, worst %d ms (a start or a leaving: %d ms)"
                     % (s["over_33"], s["worst_tick"], s["switch_tick"]))
        elif s["heap_total_max"] and s["heap_total_max"] > PICO_HEAP:
            line += "; heap grown to %d B (a tick's garbage past the Pico's heap)" % s["heap_total_max"]
        if self.stuck:
            line += "; stuck %d times" % len(self.stuck)
        if self.interrupted:
            line += "; INTERRUPTED"
        return line + ("; OK" if self.ok() else "; FAIL")

    def findings(self):
        """Lines for each traceback / error / memory error, with the keys that led there."""
        out = []
        for v in self.visits + self.unfinished:
            if v.tracebacks or v.errors or v.oom:
                out.append("%s (%s): errors %s, out-of-memory toasts %d; keys: %s"
                           % (v.game, v.module, v.errors, v.oom, " ".join(v.keys[-60:])))
                out.extend("  out of memory: " + note for note in v.oom_at)
                out.extend(v.tracebacks)
        out.extend(self.console_tracebacks)
        worst = sorted(((ms, v.game, keys) for v in self.visits for ms, keys in v.slow), reverse=True)
        for ms, game, keys in worst[:5]:
            out.append("slow tick: %d ms in %s after the keys %s" % (ms, game, keys))
        for ms, game, what, keys in sorted(self.long_ticks, reverse=True)[:30]:
            out.append("tick over 45 ms: %d ms in %s (%s) after the keys %s" % (ms, game, what, keys))
        for game, keys in self.stuck:
            out.append("stuck in %s; keys: %s" % (game, " ".join(keys)))
        return out


def run(target="vm", minutes=1.0, seed=1, progress=None, play_s=(8, 45), live=None, tables=True):
    """One soak; returns a Result (``interrupted`` True when Ctrl-C cut it short:
    the games played so far).  ``tables``: the virtual Pico's flash has Klotski's
    tables, as a plain ``flash`` puts them (False: built in the heap)."""
    try:
        cls = TARGETS[target]
    except KeyError:
        raise UserError("unknown target %r (vm or vpico)" % target) from None
    t = cls(tables=tables) if target == "vpico" else cls()
    t.live = live
    interrupted = False
    stuck = []
    try:
        try:
            stuck = Player(t, seed, play_s).soak(minutes, progress)
            if not t.at_launcher:
                Player(t, seed).leave()
        except KeyboardInterrupt:
            interrupted = True
    finally:
        try:
            t.close()
        except Exception:         # a target cut short by Ctrl-C: its results stand
            if not interrupted:
                raise
    result = Result(t, minutes, seed, stuck)
    result.interrupted = interrupted
    return result
