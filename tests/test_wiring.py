"""`wiring`: the board files as pictures.  The pictures in docs/wiring/ are the ones
the board files make today; every wire the board file names is drawn; a board
without Pico pins or a wrong file name is one line."""

import xml.etree.ElementTree as ET

import pytest

from clirun import run_cli
from host_tools.commands import wiring_cmd as wiring


def test_docs_pictures_are_current():
    folder = wiring.docs_dir()
    names = wiring.pico_board_names()
    assert "pico-ssd1306" in names and "oled-bonnet" not in names
    assert sorted(p.stem for p in folder.glob("*.svg")) == sorted(names)
    for name in names:
        svg = wiring.draw_board(wiring.pico_board(name)).svg()
        assert (folder / (name + ".svg")).read_text() == svg, (
            "docs/wiring/%s.svg is stale: run `python -m host_tools wiring --docs`" % name)
        ET.fromstring(svg)                                 # well-formed


def test_every_wire_of_the_board_file_is_drawn():
    cfg = wiring.pico_board("pico-ssd1306")
    rows = wiring.connections(cfg)
    signal = {(part, term): pin for part, term, pin, _ in rows}
    oled = next(part for part, _, _, _ in rows if "OLED" in part)
    assert signal[(oled, "SDA")] == 6 and signal[(oled, "SCL")] == 7     # GP4, GP5
    assert signal[(oled, "VCC")] == 36                                   # 3V3(OUT)
    for name, spec in cfg["buttons"].items():
        assert signal[("button %s" % name.upper(), "GP%d" % spec["pin"])] == wiring.GP_PIN[spec["pin"]]
        assert ("button %s" % name.upper(), "GND") in signal
    assert signal[("piezo buzzer", "+")] == 20                          # GP15
    jack = "link cable (UART0, crossed)"
    assert signal[(jack, "TX")] == 1 and signal[(jack, "RX")] == 2      # GP0, GP1
    assert (jack, "GND") in signal
    text = wiring.draw_board(cfg).svg()
    for label in ("GP15 (20)", "3V3(OUT) (36)", "GND (38)", "button UP", "SSD1306 OLED (I2C0, 0x3C)"):
        assert label in text


def test_a_pull_down_button_goes_to_3v3():
    cfg = wiring.pico_board("pico-ssd1306")
    cfg["buttons"]["a"]["pull"] = "down"
    rows = wiring.connections(cfg)
    assert ("button A", "3V3", 36) in [(p, t, pin) for p, t, pin, _ in rows]


def test_png_and_svg_outputs(tmp_path, capsys):
    from PIL import Image
    for suffix in ("svg", "png"):
        out = tmp_path / ("w." + suffix)
        code, stdout, err = run_cli(["wiring", "--board", "pico-ssd1306-5btn", "-o", str(out)], capsys)
        assert code == 0, err
    assert ET.parse(tmp_path / "w.svg").getroot().tag.endswith("svg")
    image = Image.open(tmp_path / "w.png")
    assert image.size[0] == 2 * wiring.WIDTH and image.getextrema() != ((255, 255), (255, 255), (255, 255))


@pytest.mark.parametrize("argv, message", [
    (["--board", "oled-bonnet", "-o", "x.svg"], "is not a Pico"),
    (["--board", "nosuch", "-o", "x.svg"], "unknown board; known boards: oled-bonnet"),
    (["--board", "pico-ssd1306", "-o", "x.jpg"], "written as .svg or .png"),
    (["--board", "pico-ssd1306"], "give --board NAME and -o"),
])
def test_mistakes_are_one_line(tmp_path, capsys, argv, message):
    argv = [a if a not in ("x.svg", "x.jpg") else str(tmp_path / a) for a in argv]
    code, _, err = run_cli(["wiring"] + argv, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err
    assert not list(tmp_path.iterdir())
