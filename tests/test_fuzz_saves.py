"""The games' saves fuzzed through the runtime (host_tools/commands/fuzz.py,
``saves-<game>``): mutated saves per game (CASES_MAKE_TEST in make test,
CASES_SLOW in make test-long), each booted, CONTINUEd
and played for TEST_TICKS ticks of seeded random keys; no exception may pass
the runtime, no GAME ERROR may show.  A module of its own, so that the
parallel run gives it a worker of its own (tests/test_fuzz.py runs a few dozen
cases of each)."""

import pytest

from host_tools.commands import fuzz

# make test's share (2,000 each take ~330 s of CPU: make test-long)
CASES_MAKE_TEST = 200


def _fuzz(target, cases, monkeypatch):
    monkeypatch.setattr(fuzz, "RUNTIME_TICKS", fuzz.TEST_TICKS)
    res = fuzz.run(target, cases, seed=1)
    assert not res.failures, "%s: %s" % (target, [f for f in res.failures if f][:3])
    assert res.accepted >= cases // 4 and res.rejected >= cases // 10, (res.accepted, res.rejected)


@pytest.mark.slow
@pytest.mark.parametrize("target", fuzz.GAME_TARGETS)
def test_fuzz_a_games_saves_in_make_test(target, monkeypatch):
    _fuzz(target, CASES_MAKE_TEST, monkeypatch)


@pytest.mark.long
@pytest.mark.parametrize("target", fuzz.GAME_TARGETS)
def test_fuzz_a_games_saves_2000_cases(target, monkeypatch):
    _fuzz(target, fuzz.CASES_SLOW, monkeypatch)
