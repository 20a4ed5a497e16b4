"""What the two CPython simulators share (host_tools/emulation/sim.py for
MicroPython boards, host_tools/emulation/cpsim.py for CircuitPython/Blinka
ones): the host modules the firmware needs and ``PinSim``, buttons as pin
levels with a virtual clock."""

import sys

from host_tools.core.fwpath import use_pure_framebuf

# volts: a Pico's VSYS on USB power (5 V less its Schottky diode); what a board that
# reads its supply sees in the simulators and the virtual Pico without --battery
VSYS_ON_USB = 4.75


def install_host_modules():
    """framebuf + fake machine on the import path, firmware/ importable."""
    use_pure_framebuf()
    from host_tools.emulation import fakemachine

    sys.modules["machine"] = fakemachine
    return fakemachine


class PinSim:
    """What the simulators share (sim.Simulator, cpsim.CpSimulator): buttons as pin
    levels (``self.levels``: pin -> level, ``self.key_pins``: button name ->
    [(pin, level when pressed)]), a virtual clock at 30 ticks/s and the boot."""

    def status(self):
        """A line for the front ends under the screen (the virtual Pico shows its
        LED and serial console there); the simulator has none."""
        return ""

    def _map_buttons(self):
        self.key_pins = {}
        for spec in self.cfg["buttons"].values():
            level = 1 if spec["pull"] == "down" else 0
            self.key_pins.setdefault(spec["as"], []).append((spec["pin"], level))
        for name, parts in self.cfg["combos"].items():
            self.key_pins[name] = [self.key_pins[p][0] for p in parts]

    def _boot(self, hw, fs):
        """Run the firmware's boot on ``hw`` (its clock replaced by the virtual one)
        with saves in ``fs``."""
        import main
        import savestore as saves

        self.hw = hw
        hw.ticks_ms = self._ticks_ms
        hw.sleep_ms = self._sleep_ms
        self.runtime = main.boot(self.cfg, hw, saves.Saves(fs))
        self.tick_index = 0

    def _ticks_ms(self):
        return self.now & 0x3FFFFFFF

    def _sleep_ms(self, ms):
        self.now += ms

    def set_keys(self, names):
        levels = self.levels
        for pins in self.key_pins.values():
            for pin, level in pins:
                levels[pin] = 1 - level
        for name in names:
            for pin, level in self.key_pins[name]:
                levels[pin] = level

    def step(self, keys=()):
        self.set_keys(keys)
        if self.runtime is not None:
            self.runtime.step()
            self.runtime.save_pending()     # as run() does after a tick
        self.tick_index += 1
        self.now = self.tick_index * 1000 // 30
