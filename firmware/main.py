"""Device entry point (MicroPython runs main.py at power-on).

Reads board.json (or the default Pico + SSD1306 build), brings up the
hardware backend, and starts the launcher.  Safe mode: B held at power-on
shows "SAFE MODE" and returns at once, leaving the REPL free for flashing.
"""

import sys

import buttons


def make_hardware(cfg):
    runtime = cfg["runtime"]
    if sys.implementation.name == "circuitpython":
        runtime = "circuitpython"
    if runtime in ("circuitpython", "blinka"):
        # displayio + keypad: CircuitPython on the Pico, Blinka on a Raspberry Pi
        import hw_circuitpython as backend
    else:
        import hw_machine as backend
    return backend.Hardware(cfg)


def safe_mode(hw):
    """True when B is held at power-on (checked over ~30 ms against bounce)."""
    for _ in range(3):
        if not hw.read_buttons() & buttons.B:
            return False
        hw.sleep_ms(10)
    fb = hw.display.fb
    fb.fill(0)
    fb.text("SAFE MODE", 28, 20, 1)
    fb.text("REPL is free", 16, 36, 1)
    hw.display.show()
    return True


def boot(cfg=None, hw=None, saves=None):
    """Everything up to the first tick; returns the Runtime (None in safe mode)."""
    if cfg is None:
        import boardcfg

        cfg = boardcfg.load_device()
    if hw is None:
        hw = make_hardware(cfg)
    if sys.implementation.name == "micropython":
        # the validator is only needed at boot: give its ~12 KB back
        sys.modules.pop("boardcfg", None)
    if safe_mode(hw):
        print("safe mode: launcher skipped")
        return None
    import launcher
    import runtime
    import savestore as saves_mod

    if saves is None:
        saves = saves_mod.Saves()
    rt = runtime.Runtime(hw, saves, board_name=cfg["name"])
    rt.launcher = launcher.Launcher(rt)
    rt.screen = rt.launcher
    return rt


def main():
    rt = boot()
    if rt is not None:
        rt.run()


if __name__ == "__main__":
    main()
