"""Idle and sleep on the virtual Pico (host_tools/emulation/vpsleep.py): the
flashed firmware, "screen off after" 30 s set through the save store, main.py's
own loop on the emulated clock.  The panel dims at two thirds of the time and
goes off at all of it; while off no I2C byte is sent and the core executes
<= 5 % of the emulated time (the rest halted in WFI/WFE, counted by the
runner); a press of A just after a poll brings the whole frame back within two
ticks and does nothing else."""

import pytest

pytestmark = pytest.mark.device


@pytest.fixture(scope="module")
def figures():
    from host_tools.emulation import vpsleep

    return vpsleep.measure()


def test_dims_at_two_thirds_and_goes_off_at_the_idle_time(figures):
    from host_tools.emulation import vpsleep

    # the idle time starts when the runtime starts, within the boot
    assert 20000 <= figures["dim_at"] <= 20000 + vpsleep.BOOT_MS + vpsleep.STEP_MS
    assert figures["dim_frame_same"]
    assert 30000 <= figures["off_at"] <= 30000 + vpsleep.BOOT_MS + vpsleep.STEP_MS


def test_screen_off_sends_nothing_and_the_core_mostly_waits(figures):
    assert figures["off_window_ms"] >= 4999
    assert figures["off_i2c_bytes"] == 0
    assert figures["off_busy"] <= 0.05
    assert figures["awake_busy"] > figures["off_busy"]     # the counter tells the two apart


def test_a_press_wakes_to_a_full_frame_within_two_ticks_and_does_nothing_else(figures):
    # pressed just after a poll: the longest wait for the next one (one tick apart)
    assert 30 <= figures["poll_gap_ms"] <= 40
    assert figures["wake_ms"] is not None
    assert figures["wake_ticks"] <= 2
    assert figures["wake_bytes"] >= 1024
    assert figures["press_did_nothing"]
    assert figures["next_press_acts"]
