"""Shared fixtures.  Firmware modules import on CPython unchanged (firmware/ on
sys.path); ``vm`` runs code in the MicroPython WASI VM (GC off, fuel counted) and
``node_vm`` in the official WebAssembly port under Node (GC on)."""

import json
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))
sys.path.insert(0, str(ROOT / "firmware" / "circuitpython"))  # CPython has no framebuf

from host_tools.emulation import mpnode, mpvm  # noqa: E402


# A test measured at SLOW_S or more on an idle 2-core machine is slow (left out of
# make test-fast): the figures live in DURATIONS, written by `make durations`, so a
# test that grows slow is found by measuring, not by remembering to mark it.
DURATIONS = ROOT / "tests" / "durations.json"
SLOW_S = 0.5


def pytest_addoption(parser):
    parser.addoption("--update-goldens", action="store_true",
                     help="rewrite tests/golden/*.txt from the current screens (review the diff)")
    parser.addoption("--record-durations", metavar="PATH",
                     help="write each test's seconds (setup + call + teardown) to PATH as JSON "
                          "(make durations; run it on an idle machine)")


@pytest.fixture
def golden(request):
    """``golden(name, text)``: assert ``text`` equals tests/golden/<name>.txt.  A
    missing golden fails; only ``pytest --update-goldens`` writes goldens."""
    return GoldenChecker(ROOT / "tests" / "golden", request.config.getoption("--update-goldens"))


class GoldenChecker:
    def __init__(self, folder, update):
        self.folder = Path(folder)
        self.update = update

    def __call__(self, name, text):
        path = self.folder / (name + ".txt")
        if self.update:
            self.folder.mkdir(exist_ok=True)
            path.write_text(text)
        assert path.exists(), ("golden %s is missing: run `python -m pytest tests/test_sim.py "
                               "--update-goldens` and review it" % path)
        assert text == path.read_text(), "screen %s differs from %s" % (name, path)


@pytest.fixture
def fake_circup(monkeypatch):
    """``flash``'s circup call recorded instead of run (circup downloads Adafruit's
    bundle); every other subprocess (mpy-cross) runs.  Returns the recorded commands."""
    from host_tools.device import cpflash

    calls = []
    real_run = cpflash.subprocess.run

    class Done:
        returncode = 0
        stdout = stderr = ""

    def run(cmd, **kw):
        if cmd[0] != "/usr/bin/circup":
            return real_run(cmd, **kw)
        calls.append(cmd)
        return Done()
    monkeypatch.setattr(cpflash.shutil, "which", lambda name: "/usr/bin/circup")
    monkeypatch.setattr(cpflash.subprocess, "run", run)
    return calls


@pytest.fixture(scope="session")
def vm():
    """``vm(code) -> VMResult``; ``emit(tag, value)`` and ``measure(fn, *args)``
    are available inside the guest."""
    return mpvm.run


@pytest.fixture(scope="session")
def node_vm():
    return mpnode.run


def _measured():
    try:
        return json.loads(DURATIONS.read_text())
    except (OSError, ValueError):
        return {}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Marks before ``-m`` selects: a ``device`` test (it boots the virtual Pico,
    minutes) or a ``long`` one is slow too, and so is one measured at SLOW_S or more.  Then the slow
    tests first (a stable sort: file order otherwise), so that on two xdist workers
    the last minutes hold many short tests, not one long one."""
    measured = _measured()
    for item in items:
        if item.get_closest_marker("slow") is not None:
            continue
        long_tier = item.get_closest_marker("device") or item.get_closest_marker("long")
        if long_tier is not None or measured.get(item.nodeid, 0) >= SLOW_S:
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


_seconds = {}


def pytest_runtest_logreport(report):
    _seconds[report.nodeid] = _seconds.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    path = session.config.getoption("--record-durations")
    if not path or os.environ.get("PYTEST_XDIST_WORKER"):
        return                              # the controller writes, from every worker's reports
    kept = _measured() if Path(path).resolve() == DURATIONS else {}
    kept.update({nodeid: round(s, 2) for nodeid, s in _seconds.items()})
    text = json.dumps(dict(sorted(kept.items())), indent=0, ensure_ascii=False) + "\n"
    tmp = Path(path).with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
