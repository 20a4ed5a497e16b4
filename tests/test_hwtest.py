"""`hwtest` on the virtual Pico's serial port: the command a maker runs on a
real board, proven without one.  The virtual Pico is flashed from blank as in
tests/test_vpico.py; hwtest runs the bench's workloads there over mpremote,
compares the results with CPython's and reads every file before and after."""

import json

import pytest

from host_tools.bench import bench_vpico
from host_tools.core import UserError
from host_tools.device import hwtest
from tests.test_vpico import BOARD, cli, device, flashed, serve  # noqa: F401  (fixtures)


def test_unknown_part_is_one_line():
    with pytest.raises(UserError, match="unknown part nope"):
        hwtest.parts(["grid", "nope"])


def test_bad_arguments_are_refused_before_any_device_work(capsys, monkeypatch, tmp_path):
    from clirun import run_cli

    def no_device(port):
        raise AssertionError("hwtest connected before checking its arguments")

    monkeypatch.setattr(hwtest.usbserial, "connect", no_device)
    code, out, err = run_cli(["hwtest", "--port", "/dev/none", "--bench", str(tmp_path / "missing.json")],
                             capsys)
    assert code == 2 and "missing.json: no such file" in err and len(err.strip().splitlines()) == 1
    code, out, err = run_cli(["hwtest", "--port", "/dev/none", "--parts", "chess"], capsys)
    assert code == 2 and "unknown part chess" in err and len(err.strip().splitlines()) == 1


def test_rows_agree_within_five_percent():
    got = {"bfs": 10.4, "astar": 12.0, "klotski": (1500.0, 30.0)}
    bench = {"BFS 16x8 default board": 10.0, "A* 16x8 default board": 10.0}
    rows = {name: (value, ref, agrees) for name, value, ref, _, agrees in hwtest.compare_rows(got, bench)}
    assert rows["BFS 16x8 default board"] == (10.4, 10.0, True)
    assert rows["A* 16x8 default board"] == (12.0, 10.0, False)
    assert rows["Klotski full table (横刀立马)"] == (1500.0, None, None)   # no bench figure yet
    assert "9x9 hard cat move, max" not in rows                          # part not run


def test_a_missing_bench_file_leaves_the_device_column_alone(tmp_path):
    assert bench_vpico.recorded_figures(tmp_path / "none.json") == {}


def test_every_row_comes_from_a_part():
    tags = set()
    for _, code in bench_vpico.PARTS:
        tags.update(line.split("'")[1] for line in code.splitlines() if line.startswith("emit('"))
    assert {tag for _, tag, _, _ in bench_vpico.ROWS} <= tags


@pytest.mark.device
def test_hwtest_on_the_virtual_picos_port(device, tmp_path):  # noqa: F811  (the fixture)
    pico, port = serve(device)
    out = tmp_path / "hw.json"
    bench = tmp_path / "bench.json"
    bench.write_text(json.dumps({"rows": [
        {"section": bench_vpico.SECTION, "name": "Junqi engineer all destinations, busy board",
         "value": 1000.0}]}))
    try:
        result = cli("hwtest", "--board", BOARD, "--port", port, "--parts", "grid,junqi,klotski",
                     "--bench", str(bench), "--json", str(out), timeout=900)
    finally:
        pico.close()
    text = result.stdout + result.stderr
    assert out.exists(), text
    report = json.loads(out.read_text())
    rows = {row["name"]: row for row in report["rows"]}
    # the device computed what CPython computes: paths, destinations, the Klotski table
    assert report["checks"] == ["check_grid", "check_junqi", "check_klotski"], text
    assert "results DIFFER" not in text and "files on the device changed" not in text
    assert 5 < rows["Klotski full table (横刀立马)"]["device_ms"] < 8000
    assert rows["BFS 16x8 default board"]["virtual_pico_ms"] is None
    # a figure 5 % away from the bench's is named, and the command fails on it
    assert rows["Junqi engineer all destinations, busy board"]["agrees"] is False
    assert result.returncode == 1 and "more than 5% from the virtual Pico" in text, text
    assert report["firmware"].startswith("fw-") and report["heap_total"] > 200_000
