"""The battery gauge on the virtual Pico: the flashed firmware for the LiPo
board (VSYS/3 on GP29 = ADC3), the runner's ADC channel set from --battery,
main.py's own loop; the launcher's gauge at 4.1 V, 3.7 V (bars) and 3.4 V (the
low warning) is pixel for pixel the simulator's at the same supply."""

import pytest

pytestmark = pytest.mark.slow

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
