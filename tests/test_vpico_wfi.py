"""The virtual Pico's core and its idle instruction: a WFI with an interrupt already
pending goes straight on, as on the RP2040's Cortex-M0+ (host_tools/emulation/vpico_runner.mjs).
CircuitPython idles with "disable interrupts; if no work: WFI; enable interrupts"; a tick
alarm that fired inside that window once halted the virtual CircuitPython Pico for good."""

import pytest

from host_tools.emulation import vpico

pytestmark = pytest.mark.device

# IO_BANK0 (IRQ 13) is enabled by MicroPython and its handler takes a spurious call
WFI_WITH_PENDING = r"""
import micropython, time
@micropython.asm_thumb
def wfi_with_pending(r0, r1):
    cpsid(i)
    str(r1, [r0, 0])
    wfi()
    cpsie(i)
t = time.ticks_us()
wfi_with_pending(0xE000E200, 1 << 13)
print(time.ticks_diff(time.ticks_us(), t))
"""


def test_a_wfi_with_an_interrupt_pending_under_primask_does_not_halt():
    """PRIMASK set, an enabled interrupt made pending (NVIC ISPR), then WFI: the core
    goes on at once and takes the interrupt when PRIMASK clears."""
    waited_us = int(vpico.run_snippet(WFI_WITH_PENDING, emulated_ms=3000))
    assert 0 <= waited_us < 1000
