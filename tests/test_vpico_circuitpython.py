"""The virtual CircuitPython Pico: CircuitPython 10.2.1 (third_party/circuitpython) on
the emulated RP2040, the game deployed onto its CIRCUITPY by `flash` as onto a
mounted drive (host_tools/emulation/vpcircuitpy.py).  The CircuitPython half of
the firmware meets real CircuitPython here: displayio, bitmaptools.readinto,
keypad, storage in boot.py, its heap and its .mpy format."""

import pytest

from host_tools.emulation import vpcircuitpy

pytestmark = pytest.mark.device

BOARD = "pico-cp-ssd1306"


# from the launcher into each game and back out, on one boot, keys held a few ticks
# (CircuitPython's loop runs on its own clock, not the simulator's ticks):
# (game, keys to its first screen, keys back to the launcher)
TOUR = (("catmouse", "hold:a:3 wait:30", "hold:b:3 wait:20"),
        ("trapcat", "hold:down:3 wait:15 hold:a:3 wait:45",
         "hold:b:40 wait:10 hold:up:3 wait:10 hold:a:3 wait:20"),     # the pause menu's QUIT
        ("junqi", "hold:down:3 wait:15 hold:a:3 wait:45", "hold:b:40 wait:20"),
        ("klotski", "hold:down:3 wait:15 hold:a:3 wait:45", ""))
PANEL_X = 70        # Trap the Cat: the board is seeded from the clock, the panel is not
# Klotski's level list: "NO HINT" under the thumbnail (x 100-127, y 56-60) where the
# runtime has no table that fits (CircuitPython), never in the simulator (CPython builds)
MARK = (100, 56, 128, 61)
READY_WAITS = 60    # 0.5 s each: a set's table read from flash (its setup: ~4 s on this Pico)
# short taps (two ticks, ~67 ms) five ticks apart on the launcher, then back to the top
TAPS = ("down", "down", "up", "down", "up", "up")


def test_the_launcher_presses_and_each_games_first_screen_are_the_simulators():
    """One boot: the launcher as drawn; DOWN, DOWN, UP, DOWN, UP, UP as short taps,
    each one moving the cursor as in the simulator (a halted core once took the
    first press and no other: tests/test_vpico_wfi.py); "screen off after" set to
    30 s on the settings screen and the launcher left idle past it: dimmed, then
    the panel asleep, and A wakes it doing nothing else; then into each game and
    back out; last, every shipped Klotski level in the list (``_klotski_levels``)."""
    from host_tools.commands.vpico_cmd import VpicoSim
    from host_tools.core.keyscript import parse_keys
    from host_tools.emulation.sim import Simulator

    sim = Simulator(BOARD)
    sim.step()
    differ, cursor = [], []
    with vpcircuitpy.cp_pico(BOARD) as pico:
        player = VpicoSim(pico, pico.cfg)
        out = player.boot()
        assert "Traceback" not in out, out
        assert pico.oled.display_on
        if pico.frame_pixels() != sim.oled.pixels():
            differ.append("launcher")

        def play(keys):
            for tick in parse_keys(keys):
                sim.step(tick)
                player.step(tick)

        for key in TAPS:
            play("hold:%s:2 wait:5" % key)
            cursor.append(sim.runtime.launcher.sel)
            if pico.frame_pixels() != sim.oled.pixels():
                differ.append("tap %s" % key)
        _idle_and_wake(sim, player, pico, play)
        for game, enter, leave in TOUR:
            play(enter)
            got, want = pico.frame_pixels(), sim.oled.pixels()
            if game == "trapcat":
                got, want = [row[PANEL_X:] for row in got], [row[PANEL_X:] for row in want]
            if game == "klotski":
                got, want = _unmarked(got), _unmarked(want)
            if got != want:
                differ.append(game)
            play(leave)
        differ += _klotski_levels(sim, pico, play)
        console = bytes(pico.console).decode(errors="replace")
    assert cursor == [1, 2, 1, 2, 1, 0]
    assert not differ and "Traceback" not in console, (differ, console[-800:])


def _unmarked(pixels):
    x0, y0, x1, y1 = MARK
    return [[0 if y0 <= y < y1 and x0 <= x < x1 else p for x, p in enumerate(row)]
            for y, row in enumerate(pixels)]


def _marked(pixels):
    x0, y0, x1, y1 = MARK
    return any(pixels[y][x] for y in range(y0, y1) for x in range(x0, x1))


def _text_pixels(text, x, y, width):
    """The pixels of ``text`` drawn by gfx at (x, y) on a blank screen, rows y..y+5
    from column x on (what a panel line of that text shows)."""
    import sys

    from host_tools.core.fwpath import FIRMWARE_DIR
    sys.path.insert(0, str(FIRMWARE_DIR.parent / "host_tools" / "emulation" / "hostfb"))
    import framebuf
    import gfx

    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    gfx.text(fb, text, x, y)
    return [[fb.pixel(c, r) for c in range(x, x + width)] for r in range(y, y + 6)]


def _klotski_levels(sim, pico, play):
    """Klotski's list after the tour of the other three games on the same boot
    (the first level selected): every shipped level, one DOWN each, is the
    simulator's list, or the same marked NO HINT (said before play); 横刀立马
    is not marked: what the other games left of the heap still takes a
    solver's setup (klotski_filetable.SETUP_SPARE).  Then every level is
    opened, a piece set's levels one after the other (the first sets its
    solver up, the others keep it): each reaches HINTS READY on its board, or
    says NO HINTS when it was marked; a CircuitPython Pico reads the tables
    `flash` put on it from their files (docs/klotski.md).  Last, 横刀立马 is
    played to the end with its hints (AUTO SOLVE), to the simulator's win
    screen."""
    import klotski
    import klotski_game as kg

    differ = []
    scene = sim.runtime.screen
    n = scene.n_levels()
    marked = []
    for i in range(n):
        got, want = pico.frame_pixels(), sim.oled.pixels()
        marked.append(_marked(got))
        if _unmarked(got) != _unmarked(want):
            differ.append("klotski list at level %d" % i)
        play("hold:down:2 wait:6")
    classic = scene.names.index("HENG DAO LI MA")
    if marked[classic]:
        differ.append("横刀立马 marked NO HINT after the other games")
    panel = [_text_pixels(text, kg.PX, 32, 128 - kg.PX) for text in ("HINTS READY", "NO HINTS")]
    menu = scene.pause.items

    def status():
        return [list(row[kg.PX:]) for row in pico.frame_pixels()[32:38]]

    def pick(line):                 # the pause menu's line (it opens on its first)
        play("hold:b:20 wait:5" + " hold:down:2 wait:5" * menu.index(line) + " hold:a:2 wait:8")

    def open_and_wait(level):
        steps = (level - scene.level) % n
        play((" hold:down:2 wait:6" * steps if steps <= n // 2 else " hold:up:2 wait:6" * (n - steps))
             + " hold:a:3 wait:10")
        if scene.level != level or scene.screen is not scene.play_screen:
            return False
        want = panel[1] if marked[level] else panel[0]
        for _ in range(READY_WAITS):
            if status() == want:
                return True
            play("wait:15")
        return False

    sets = {}
    for level in range(n):
        sets.setdefault(klotski.piece_set(klotski.parse(scene.layout(level))), []).append(level)
    last = sets.pop(klotski.piece_set(klotski.parse(scene.layout(classic))))    # 横刀立马's: played last
    for levels in list(sets.values()) + [last]:
        for level in levels:
            if not open_and_wait(level):     # (the panel would dim past 25 s: stop here)
                return differ + ["klotski level %d (%s): not %s" % (
                    level, scene.names[level], "NO HINTS" if marked[level] else "HINTS READY")]
            pick("LEVELS")
    if marked[classic] or not open_and_wait(classic):
        return differ + ["横刀立马: no HINTS READY"]
    pick("AUTO SOLVE")
    play("wait:%d" % (81 * kg.AUTO_TICKS))
    for _ in range(READY_WAITS):     # the simulator's own table may have come later
        if scene.screen is scene.win_screen and pico.frame_pixels() == sim.oled.pixels():
            return differ
        play("wait:15")
    return differ + ["横刀立马 not solved to the simulator's win screen"]


def _idle_and_wake(sim, player, pico, play):
    """From the launcher's first line: the sleep setting to 30 s (Settings, its
    row, LEFT from 1 min, B stores it), back to the first line, then untouched."""
    tap = "hold:%s:2 wait:5 "
    n = len(sim.runtime.registry)
    rows = sim.runtime.launcher._settings_rows
    play(tap % "down" * n + tap % "a" + tap % "down" * rows.index("sleep") + tap % "left"
         + tap % "b" + tap % "up" * n)
    assert sim.runtime.settings["sleep"] == 30 and sim.runtime.launcher.sel == 0
    frame = sim.oled.pixels()
    assert pico.frame_pixels() == frame

    def idle_until(seconds):
        while sim.now < seconds * 1000:
            sim.step(())
            player.step(())

    start = sim.now / 1000
    idle_until(start + 25)
    assert sim.runtime.power == 1
    # dimmed: contrast 8 is brightness 8/255 to displayio, which CircuitPython's
    # own conversion back to the contrast byte rounds down to 7
    assert pico.oled.lit() and pico.oled.contrast in (7, 8) and pico.frame_pixels() == frame
    idle_until(start + 31)
    assert sim.runtime.power == 2 and not pico.oled.display_on and not pico.oled.lit()
    play("hold:a:3 wait:10")
    assert sim.runtime.power == 0 and sim.runtime.screen is sim.runtime.launcher
    assert pico.oled.lit() and pico.oled.contrast == 255 and pico.frame_pixels() == frame


def test_a_missing_display_says_why_on_the_console():
    with vpcircuitpy.cp_pico(BOARD, oled_address=None) as pico:
        out = pico.wait_booted(12000)
        pico.run_for(500)
        out += bytes(pico.take_serial()).decode(errors="replace")
    assert "no display at 0x3C" in out, out
    assert "Traceback" not in out, out


def test_circuitpython_computes_what_cpython_computes():
    """The Klotski table `flash` put on CIRCUITPY passes klotski_cache's checks on
    CircuitPython (from the REPL's fresh heap) and answers as CPython's own table
    does, and a Trap the Cat hint on CircuitPython's own heap is CPython's."""
    import klotski
    import trapcat
    import trapcat_ai

    solver = klotski.Solver(4, 1, 4)
    solver.build()
    rank = solver.rank_of(klotski.parse("VBBV/VBBV/VHHV/VSSV/S..S"))
    board = trapcat.Board(9)
    board.reset(trapcat.Rng(7), 12)
    hint = trapcat_ai.StrongBlocker(board, look=False).choose(board)
    with vpcircuitpy.cp_pico(BOARD) as pico:
        pico.wait_booted(12000)
        pico.boot_to_repl(12000)
        out = pico.exec(
            "import gc, klotski, klotski_cache, trapcat, trapcat_ai\n"
            "s = klotski.Solver(4, 1, 4, kernel=False)\n"
            "print(klotski_cache.load(klotski_cache.Dir('saves'), s))\n"
            "r = s.rank_of(klotski.parse('VBBV/VBBV/VHHV/VSSV/S..S'))\n"
            "print(s.distance(r), s.best_move(r)[2])\n"
            "del s\ngc.collect()\n"
            "b = trapcat.Board(9)\nb.reset(trapcat.Rng(7), 12)\n"
            "print(trapcat_ai.StrongBlocker(b, look=False).choose(b))\n", emulated_ms=300000)
    status, distance, after, move = out.split()
    assert status == "ok"
    assert (int(distance), int(after)) == (81, solver.best_move(rank)[2])
    assert int(move) == hint


SAVE = """
import savestore
s = savestore.Saves()
s.store('probe', {'v': %d, 'pad': 'x' * 300})
"""
LOAD = "import savestore\nprint(repr(savestore.Saves().load('probe')))"
READONLY = "import storage\nprint(storage.getmount('/').readonly)"


def _image(tmp_path, name):
    import shutil
    path = tmp_path / name
    shutil.copyfile(vpcircuitpy.circuitpython_image(BOARD), path)
    return path


def test_b_at_power_on_is_usb_mode_and_otherwise_a_finished_save_survives_a_power_cut(tmp_path):
    """boot.py remounts CIRCUITPY writable for the games unless B is held at power-on
    (USB mode: the computer may write, the games may not).  A store that returned is
    on the flash: the power going 1 ms later keeps it.  (A cut *during* a store can
    do worse on CircuitPython's FAT: docs/circuitpython.md.)"""
    from host_tools.emulation import vpico

    image = _image(tmp_path, "flash.img")
    with vpico.VirtualPico(image, board=BOARD) as pico:
        pico.start(hold=("b",))
        pico.boot_to_repl(12000)
        assert pico.exec(READONLY).strip() == "True"
    with vpico.VirtualPico(image, board=BOARD) as pico:
        pico.start()
        pico.boot_to_repl(12000)
        assert pico.exec(READONLY).strip() == "False"
        pico.exec(SAVE % 3)
        pico.cut_at(pico.query()[0] + 1_000_000)          # 1 ms later: no flush of its own
        assert pico.run_until_off(5000)
    with vpico.VirtualPico(image, board=BOARD) as pico:
        pico.start()
        pico.boot_to_repl(12000)
        assert eval(pico.exec(LOAD)) == ({"v": 3, "pad": "x" * 300}, "ok")


def test_doctor_on_the_virtual_circuitpython_picos_port(tmp_path):
    """doctor over the console as on a real CircuitPython board (mpremote's own file
    calls expect MicroPython's os.ilistdir and its error wording; ours do not)."""
    import subprocess
    import sys

    from host_tools.emulation import vpico

    image = _image(tmp_path, "flash.img")
    pico = vpico.VirtualPico(image, board=BOARD)
    try:
        pico.start()
        pico.wait_booted(12000)
        pico.run_free()
        port = pico.open_pty()
        result = subprocess.run([sys.executable, "-m", "host_tools", "doctor", "--port", port],
                                capture_output=True, text=True, timeout=300, cwd=vpico.ROOT)
    finally:
        pico.close()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "runs:         CircuitPython 10.2.1 on Raspberry Pi Pico with rp2040" in result.stdout
    assert "board file:   board.json (pico-cp-ssd1306)" in result.stdout
    assert "status:       OK" in result.stdout and "Traceback" not in result.stdout
