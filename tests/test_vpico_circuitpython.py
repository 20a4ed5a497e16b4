"""The virtual CircuitPython Pico: CircuitPython 10.2.1 (third_party/circuitpython) on
the emulated RP2040, the game deployed onto its CIRCUITPY by `flash` as onto a
mounted drive (host_tools/emulation/vpcircuitpy.py).  The CircuitPython half of
the firmware meets real CircuitPython here: displayio, bitmaptools.readinto,
keypad, storage in boot.py, its heap and its .mpy format."""

import pytest

from host_tools.emulation import vpcircuitpy

pytestmark = pytest.mark.slow

BOARD = "pico-cp-ssd1306"


def sim_frame(keys=""):
    from host_tools.emulation.sim import Simulator, parse_keys
    sim = Simulator(BOARD)
    sim.step()
    for tick in parse_keys(keys):
        sim.step(tick)
    return sim.oled.pixels()


def test_the_launcher_on_circuitpython_is_the_simulators():
    with vpcircuitpy.cp_pico(BOARD) as pico:
        out = pico.wait_booted(12000)
        assert "Traceback" not in out, out
        assert pico.oled.display_on
        assert pico.frame_pixels() == sim_frame()


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
