"""The games' saves fuzzed through the runtime (host_tools/commands/fuzz.py,
``saves-<game>``): CASES_SLOW mutated saves per game, each booted, CONTINUEd
and played for TEST_TICKS ticks of seeded random keys; no exception may pass
the runtime, no GAME ERROR may show.  A module of its own, so that the
parallel run gives it a worker of its own (tests/test_fuzz.py runs a few dozen
cases of each)."""

import pytest

from host_tools.commands import fuzz


@pytest.mark.slow
@pytest.mark.parametrize("target", fuzz.GAME_TARGETS)
def test_fuzz_a_games_saves_2000_cases(target, monkeypatch):
    monkeypatch.setattr(fuzz, "RUNTIME_TICKS", fuzz.TEST_TICKS)
    res = fuzz.run(target, fuzz.CASES_SLOW, seed=1)
    assert not res.failures, "%s: %s" % (target, [f for f in res.failures if f][:3])
    assert res.accepted >= fuzz.CASES_SLOW // 4 and res.rejected >= fuzz.CASES_SLOW // 10, (
        res.accepted, res.rejected)
