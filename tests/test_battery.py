"""The battery gauge: the board file says how the supply is read and what cell
feeds it; readings are filtered (median of the last few), judged against the
cell's discharge curve (USB, "?" outside what the cell can give, 0..4 bars, a
warning below 10 %) and the bars do not flicker at an edge.  On the simulator
(`sim --battery VOLTS`) the launcher shows it on the LiPo board."""

import json

import pytest

import host_tools.core.fwpath  # noqa: F401
from host_tools.core.keyscript import parse_keys
from host_tools.emulation import sim as simmod

import battery  # noqa: E402  (firmware/, on sys.path through fwpath)
import boardcfg  # noqa: E402


def _gauge(cell, *readings):
    g = battery.Gauge(cell)
    for mv in readings:
        g.add(mv)
    return g


def test_the_lipo_curve_at_the_three_test_voltages():
    curve = battery._CURVES["lipo"]
    assert battery.percent(curve, 4100) == 90
    assert battery.percent(curve, 3700) == 25
    assert battery.percent(curve, 3400) == 2
    assert battery.percent(curve, 4300) == 100 and battery.percent(curve, 3000) == 0
    previous = 101
    for mv in range(4300, 2999, -10):           # never rises as the cell discharges
        pc = battery.percent(curve, mv)
        assert pc <= previous
        previous = pc


def test_states_usb_unknown_and_charge():
    assert _gauge("lipo", 4750).state == battery.USB          # VSYS on USB
    assert _gauge("lipo", 9000).state == battery.UNKNOWN      # no cell gives that
    assert _gauge("lipo", 1000).state == battery.UNKNOWN
    g = _gauge("lipo", 4100)
    assert g.state == battery.CHARGE and g.level == 4 and not g.warning()
    g = _gauge("lipo", 3400)
    assert g.level == 0 and g.warning()
    # three AAA cells overlap USB's band: only a VBUS-sense pin tells
    assert _gauge("3aaa", 4700).state == battery.CHARGE
    g = battery.Gauge("3aaa")
    g.add(4700, usb=True)
    assert g.state == battery.USB
    g = _gauge("lipo")
    assert g.state == battery.NONE
    g.add(-1)
    assert g.state == battery.NONE


def test_one_stray_reading_does_not_move_the_gauge():
    g = _gauge("lipo", 3900, 3900, 3900, 3900, 3900)
    level, pc = g.level, g.percent
    g.add(3300)                                     # one bad sample (a load spike)
    assert (g.level, g.percent) == (level, pc)
    g.add(9000)
    assert g.state == battery.CHARGE and g.level == level


def test_a_supply_at_a_bar_edge_does_not_flicker():
    curve = battery._CURVES["lipo"]
    edge = next(mv for mv in range(4200, 3000, -1) if battery.percent(curve, mv) < 60)
    g = _gauge("lipo", *[edge + 30] * 5)            # just above the 3-bar edge
    assert g.level == 3
    shown = set()
    for k in range(60):                             # wandering +-20 mV around the edge
        g.add(edge + (20 if k % 3 else -20))
        shown.add(g.level)
    assert len(shown) == 1
    for _ in range(5):
        g.add(edge - 60)                            # really lower: one bar goes
    assert g.level == 2


def test_the_low_warning_has_hysteresis_too():
    g = _gauge("lipo", *[3590] * 5)                 # 9 %
    assert g.warning()
    for _ in range(5):
        g.add(3605)                                 # 10 %: not yet out of the warning
    assert g.warning()
    for _ in range(5):
        g.add(3700)
    assert not g.warning()


# -- the board file ----------------------------------------------------------------------------
def _board(**power):
    cfg = json.loads((simmod.BOARDS_DIR / "pico-ssd1306.json").read_text())
    cfg["power"] = power
    return cfg


def test_the_power_field_is_validated():
    assert boardcfg.CELLS == battery.CELLS
    got = boardcfg.validate(_board(cell="lipo", adc=29, divider=3))["power"]
    assert got == {"cell": "lipo", "adc": 29, "divider": 3, "vbus": None}
    assert boardcfg.validate(_board(cell="3aaa", adc=28, divider=2, vbus=24))["power"]["vbus"] == 24
    assert boardcfg.load("pico-ssd1306", str(simmod.BOARDS_DIR))["power"]["adc"] is None
    assert boardcfg.load("pico-ssd1306-lipo", str(simmod.BOARDS_DIR))["power"]["cell"] == "lipo"
    for power, words in (
        ({"cell": "nicd", "adc": 29}, "power.cell"),
        ({"cell": "lipo", "adc": 12}, "GP12 has no ADC"),
        ({"cell": "lipo", "adc": 4}, "already used by i2c.sda"),
        ({"cell": "lipo", "adc": 29, "divider": 0}, "power.divider"),
        ({"cell": "lipo", "adc": "x"}, "power.adc must be"),
        ({"cell": "lipo", "volts": 3}, "unknown field 'volts'"),
    ):
        with pytest.raises(boardcfg.BoardError, match=words):
            boardcfg.validate(_board(**power))


def test_the_pico_w_says_its_battery_reading_is_not_available():
    cfg = json.loads((simmod.BOARDS_DIR / "pico-w-ssd1306.json").read_text())
    cfg["power"] = {"cell": "lipo", "adc": 29, "divider": 3}
    with pytest.raises(boardcfg.BoardError, match="radio: battery reading not available"):
        boardcfg.validate(cfg)


# -- on the simulator ------------------------------------------------------------------------------
def _launcher(volts):
    s = simmod.Simulator("pico-ssd1306-lipo", battery=volts)
    rt = s.runtime
    rt.registry = (("catmouse", "Cat & Mouse", "catmouse_game"),)
    rt.launcher.items = ["Cat & Mouse", "Settings", "About"]
    for keys in parse_keys("wait:3"):
        s.step(keys)
    return s


@pytest.mark.parametrize("volts,name", [(4.1, "4v1"), (3.7, "3v7"), (3.4, "3v4"), (None, "usb"),
                                        (9.0, "unknown")])
def test_golden_launcher_gauge(golden, volts, name):
    s = _launcher(volts)
    golden("launcher_battery_" + name, s.screen_text())


def test_the_gauge_follows_the_supply_and_warns_below_ten_percent():
    s = _launcher(4.1)
    g = s.runtime.battery
    assert (g.state, g.level, g.warning()) == (battery.CHARGE, 4, False)
    high = s.screen_text()
    s.set_supply(3.4)
    for keys in parse_keys("wait:90"):       # 3 s: the median has moved
        s.step(keys)
    assert g.level == 0 and g.warning()
    assert s.screen_text() != high
    s.set_supply(None)
    for keys in parse_keys("wait:90"):
        s.step(keys)
    assert g.state == battery.USB and not g.warning()


def test_boards_without_a_reading_show_no_gauge():
    s = simmod.Simulator("pico-ssd1306", battery=3.4)
    assert s.runtime.battery is None


def test_sim_battery_option(capsys, tmp_path):
    from clirun import run_cli

    code, out, err = run_cli(["sim", "--frontend", "headless", "--ticks", "2", "--battery", "30"], capsys)
    assert code == 2 and "--battery" in err
    # a board that does not read its supply: an error naming it, not a silent run
    code, out, err = run_cli(["sim", "--frontend", "headless", "--ticks", "2", "--battery", "3.4",
                              "--saves", str(tmp_path / "s0")], capsys)
    assert code == 2 and "board pico-ssd1306 does not read its supply" in err
    assert len(err.strip().splitlines()) == 1
    shot = tmp_path / "b.png"
    code, out, err = run_cli(["sim", "--board", "pico-ssd1306-lipo", "--battery", "3.7", "--ticks", "3",
                              "--screenshot", str(shot), "--saves", str(tmp_path / "s")], capsys)
    assert code == 0 and shot.exists(), err
