"""The virtual CircuitPython Pico: CircuitPython 10.2.1 (third_party/circuitpython) on
the emulated RP2040, the game deployed onto its CIRCUITPY by `flash` as onto a
mounted drive (host_tools/emulation/vpcircuitpy.py).  The CircuitPython half of
the firmware meets real CircuitPython here: displayio, bitmaptools.readinto,
keypad, storage in boot.py, its heap and its .mpy format."""

import pytest

from host_tools.emulation import vpcircuitpy

pytestmark = pytest.mark.slow

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
# short taps (two ticks, ~67 ms) five ticks apart on the launcher, then back to the top
TAPS = ("down", "down", "up", "down", "up", "up")


def test_the_launcher_presses_and_each_games_first_screen_are_the_simulators():
    """One boot: the launcher as drawn; DOWN, DOWN, UP, DOWN, UP, UP as short taps,
    each one moving the cursor as in the simulator (a halted core once took the
    first press and no other: tests/test_vpico_wfi.py); "screen off after" set to
    30 s on the settings screen and the launcher left idle past it: dimmed, then
    the panel asleep, and A wakes it doing nothing else; then into each game and
    back out."""
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
            if got != want:
                differ.append(game)
            play(leave)
        console = bytes(pico.console).decode(errors="replace")
    assert cursor == [1, 2, 1, 2, 1, 0]
    assert not differ and "Traceback" not in console, (differ, console[-800:])


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
    """The Klotski table (plain Python loop: no viper on CircuitPython) and a Trap the
    Cat hint, on CircuitPython's own heap, give CPython's answers."""
    import hashlib

    import klotski
    import trapcat
    import trapcat_ai

    solver = klotski.Solver(4, 2, 2, kernel=False)
    solver.build()
    board = trapcat.Board(9)
    board.reset(trapcat.Rng(7), 12)
    hint = trapcat_ai.StrongBlocker(board, look=False).choose(board)
    with vpcircuitpy.cp_pico(BOARD) as pico:
        pico.wait_booted(12000)
        pico.boot_to_repl(12000)
        out = pico.exec(
            "import gc, klotski, trapcat, trapcat_ai, hashlib, binascii\n"
            "s = klotski.Solver(4, 2, 2, kernel=False)\ns.build()\n"
            "print(binascii.hexlify(hashlib.new('sha256', s.table).digest()).decode())\n"
            "del s\ngc.collect()\n"
            "b = trapcat.Board(9)\nb.reset(trapcat.Rng(7), 12)\n"
            "print(trapcat_ai.StrongBlocker(b, look=False).choose(b))\n", emulated_ms=300000)
    digest, move = out.split()
    assert digest == hashlib.sha256(solver.table).hexdigest()
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
