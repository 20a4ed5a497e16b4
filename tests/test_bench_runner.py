"""The bench runner's own logic: budgets decide OVER, and --compare lists what moved."""

import json

import pytest

from host_tools.bench import runner
from host_tools.core import UserError


def _report(*rows):
    report = runner.Report()
    for section, name, value, unit, budget in rows:
        report.add(section, name, value, unit, budget=budget)
    return report


def test_budget_marks_over_and_ok():
    report = _report(("s", "fast", 1.0, "ms", 2.0), ("s", "slow", 3.0, "ms", 2.0), ("s", "free", 9, "fuel", None))
    assert [r["ok"] for r in report.rows] == [True, False, None]
    assert [r["name"] for r in report.over_budget()] == ["slow"]


def test_thin_marks_device_times_past_70_and_heaps_past_95_percent(capsys):
    report = runner.Report()
    vp = "virtual Pico: MicroPython"
    report.add(vp, "hint, worst", 815, "ms", budget=1000)                 # 82 % of a device time
    report.add(vp, "BFS", 2.9, "ms", budget=5)                            # 58 %
    report.add("klotski", "scene peak heap", 153312, "bytes", budget=153600)  # 99.8 % of a heap
    report.add("grid", "BFS (est. Pico)", 4.68, "ms", budget=5)          # an estimate: no margin
    report.add("runtime", "frame on the wire", 23.3, "ms", budget=23.5, kind="bus")
    report.add(vp, "too slow", 1200, "ms", budget=1000)
    report.add("x", "allocated per call", 0, "bytes", budget=0)
    assert [r["thin"] for r in report.rows] == [True, False, True, False, False, False, False]
    assert [r["name"] for r in report.thin()] == ["hint, worst", "scene peak heap"]
    runner.print_report(report)
    out = capsys.readouterr().out
    assert "82 % of 70  THIN" in out and "100 % of 95  THIN" in out
    assert "58 % of 70  ok" in out and "99 % bus  ok" in out and "120 % of 70  OVER" in out


def test_compare_lists_moved_new_and_gone(tmp_path, capsys):
    old = tmp_path / "old.json"
    old.write_text(json.dumps({"rows": _report(
        ("a", "same", 5, "fuel", None), ("a", "moved", 100, "fuel", None),
        ("a", "dropped", 1, "bytes", None), ("other", "not run", 1, "bytes", None)).rows}))
    new = _report(("a", "same", 5, "fuel", None), ("a", "moved", 110, "fuel", None), ("a", "added", 7, "bytes", None))
    runner.print_comparison(new, runner.load_rows(old))
    out = capsys.readouterr().out
    assert "3 figure(s) moved, added or gone" in out
    assert "moved a: moved: 100 -> 110 fuel (+10.0 %)" in out
    assert "new   a: added: 7 bytes" in out
    assert "gone  a: dropped" in out
    assert "same" not in out and "not run" not in out     # unchanged, and a section --only skipped


def test_compare_with_itself_says_nothing_moved(tmp_path, capsys):
    report = _report(("a", "x", 1, "fuel", None))
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"rows": report.rows}))
    runner.print_comparison(report, runner.load_rows(path))
    assert "no figure moved" in capsys.readouterr().out


@pytest.mark.parametrize("text, message", [
    (None, "does not exist"), ("{", "is not a bench.json file"), ('{"rows": [{"x": 1}]}', "is not a bench.json file")])
def test_compare_file_errors_are_one_line(tmp_path, text, message):
    path = tmp_path / "bench.json"
    if text is not None:
        path.write_text(text)
    with pytest.raises(UserError, match=message):
        runner.load_rows(path)


def test_a_crashing_module_is_an_error_row_and_the_run_goes_on(tmp_path, monkeypatch, capsys):
    """A module that raises leaves an ERROR row (exit 1), the next module still runs,
    and build/bench.json holds every figure after each module."""
    import sys
    import types

    def crash(report):
        report.add("first", "measured before the crash", 1, "fuel")
        raise RuntimeError("the emulator went away")

    def fine(report):
        report.add("second", "fast", 1.0, "ms", budget=2.0)

    for name, collect in (("benchfake_crash", crash), ("benchfake_fine", fine)):
        monkeypatch.setitem(sys.modules, name, types.SimpleNamespace(collect=collect))
    monkeypatch.setattr(runner, "bench_modules", lambda: ["benchfake_crash", "benchfake_fine"])
    monkeypatch.setattr(runner, "BUILD_DIR", tmp_path)
    monkeypatch.setattr(runner, "ERROR_LOG", runner.ROOT / "build" / "bench-errors-test.log")
    try:
        args = types.SimpleNamespace(compare=None, only="benchfake")
        assert runner.run_bench(args) == 1
        out = capsys.readouterr().out
        assert "ERROR: the module stopped" in out and "RuntimeError: the emulator went away" in out
        assert "ERROR: benchfake_crash: ERROR: the module stopped" in out
        data = json.loads((tmp_path / "bench.json").read_text())
        assert data["complete"] is True
        assert [r["name"] for r in data["rows"]] == [
            "measured before the crash", "ERROR: the module stopped", "fast"]
        assert "the emulator went away" in runner.ERROR_LOG.read_text()
    finally:
        if runner.ERROR_LOG.exists():
            runner.ERROR_LOG.unlink()
