"""The battery gauge on the virtual Pico: the flashed firmware for the LiPo
board (VSYS/3 on GP29 = ADC3), the runner's ADC channel set from --battery,
main.py's own loop; the launcher's gauge at 4.1 V, 3.7 V (bars) and 3.4 V (the
low warning) is pixel for pixel the simulator's at the same supply."""

import pytest

pytestmark = pytest.mark.device

BOARD = "pico-ssd1306-lipo"
SCRIPT = [("launcher", "wait:10")]


@pytest.mark.parametrize("volts", [4.1, 3.7, 3.4])
def test_gauge_matches_the_simulator(volts):
    from host_tools.emulation import vpfirmware, vpframes

    want = vpframes.sim_frames(SCRIPT, board=BOARD, battery=volts)
    with vpfirmware.firmware_pico(BOARD, battery=volts) as pico:
        got = vpframes.realtime_frames(pico, SCRIPT)
    (_, sim_rows), (_, pico_rows) = want[0], got[0]
    assert any(any(row) for row in sim_rows)
    assert sim_rows == pico_rows, "%d pixels differ\n%s" % (
        vpframes.differences(sim_rows, pico_rows), vpframes.text(pico_rows))


def test_the_three_supplies_show_three_gauges():
    from host_tools.emulation import vpframes

    frames = [vpframes.sim_frames(SCRIPT, board=BOARD, battery=v)[0][1] for v in (4.1, 3.7, 3.4)]
    assert frames[0] != frames[1] != frames[2] != frames[0]


def test_vpico_and_sim_take_battery_volts(tmp_path, capsys):
    """`vpico --battery 3.4` and `sim --battery 3.4` on the LiPo board draw the
    same launcher: the low warning."""
    from PIL import Image

    from clirun import run_cli

    import shutil

    from host_tools.emulation import vpfirmware

    # the firmware image the other tests here already built (flash's own path onto a
    # virtual Pico is tested in test_vpico.py): no second provisioning of this board
    image = tmp_path / "flash.img"
    shutil.copyfile(vpfirmware.firmware_image(BOARD), image)
    shots = {}
    for tool in ("vpico", "sim"):
        shots[tool] = tmp_path / (tool + ".png")
        extra = (["--saves", str(tmp_path / "s")] if tool == "sim"
                 else ["--flash-image", str(image), "--no-provision"])
        code, out, err = run_cli([tool, "--board", BOARD, "--battery", "3.4", "--frontend", "headless",
                                  "--ticks", "60", "--scale", "1", "--screenshot", str(shots[tool])]
                                 + extra, capsys)
        assert code == 0, err
    pico, sim = (Image.open(shots[t]).convert("L") for t in ("vpico", "sim"))
    assert pico.tobytes() == sim.tobytes()
    from host_tools.emulation import vpframes

    low = vpframes.sim_frames(SCRIPT, board=BOARD, battery=3.4)[0][1]       # the warning
    assert [bytes(row) for row in low] == [bytes(1 if sim.getpixel((x, y)) else 0 for x in range(128))
                                          for y in range(64)]


def test_at_the_cut_off_the_game_is_saved_and_the_screen_says_so_as_in_the_simulator():
    """Trap the Cat at 3.8 V, the cursor moved (not a move: not saved),
    then the supply drops to 3.3 V (the runner's ADC changed while running): the
    game in progress is saved with that cursor and the toast says so, pixel for
    pixel the simulator's; at the launcher "CHARGE NOW".  Stepped on the
    simulator's clock (vpframes), so the board seeded from it is the same."""
    from host_tools.emulation import sim as simmod
    from host_tools.core.keyscript import parse_keys
    from host_tools.emulation import vpfirmware, vpframes

    before = [("Trap the Cat", "wait:2 down wait:2 a wait:3"), ("the cursor moved", "right wait:2")]
    # the gauge's median of 5 readings (one every 15 ticks) reaches the cut-off in ~3
    after = [("battery empty: saved", "wait:90"), ("the launcher at the cut-off", "hold:b:20 up a wait:20")]
    sim = simmod.Simulator(BOARD, battery=3.8)
    want = []
    for segments, volts in ((before, None), (after, 3.3)):
        if volts:
            sim.set_supply(volts)
        for label, keys in segments:
            for tick in parse_keys(keys):
                sim.step(tick)
            want.append((label, sim.oled.pixels()))
    with vpfirmware.firmware_pico(BOARD, battery=3.8) as pico:
        vpfirmware.repl(pico)
        pico.set_buttons(())
        pico.exec(vpframes._STEPPED_BOOT)
        got = []
        for segments, volts in ((before, None), (after, 3.3)):
            if volts:
                pico.set_battery(volts)
            for label, keys in segments:
                for tick, count in vpframes._runs(parse_keys(keys)):
                    pico.set_buttons(tick)
                    pico.exec("steps(%d)" % count, emulated_ms=120000)
                got.append((label, pico.frame_pixels()))
                if label == "the cursor moved":
                    cursor = int(pico.exec("print(rt.game.cursor)"))
                if label == "battery empty: saved":
                    saved = eval(pico.exec("print(repr(rt.saves.load('trapcat/play')[0]['resume']['cursor']))"))
        toast = pico.exec("print(rt._toast)").strip()
    for (label, sim_rows), (_, pico_rows) in zip(want, got):
        assert sim_rows == pico_rows, "%s: %d pixels differ\n%s" % (
            label, vpframes.differences(sim_rows, pico_rows), vpframes.text(pico_rows))
    assert saved == cursor and toast == "BATTERY EMPTY - CHARGE NOW"
