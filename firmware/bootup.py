"""Everything up to the first tick (main.boot), and a display fault's report:
code run once at power-on, in a module of its own that leaves the heap when
boot is over (main.py stays resident: its bytecode is the launcher's heap)."""

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


# True when B is held at power-on (checked over ~30 ms against bounce).
def safe_mode(hw):
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


# Everything up to the first tick; returns the Runtime (None in safe mode).
def boot(cfg, hw, saves, make_launcher, relaunch):
    if cfg is None:
        import boardcfg

        cfg = boardcfg.load_device()
    if hw is None:
        hw = make_hardware(cfg)
    if sys.implementation.name != "cpython":
        # the validator is only needed at boot: give its heap back (~12 KB on
        # MicroPython, 7.6 KB on CircuitPython, where it stayed resident and
        # left Klotski's solver too little after the other games); the
        # simulator shares it with the host tools
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
    if sys.implementation.name != "cpython":
        # the board file and the saves CONTINUE needs are read: the JSON reader and
        # the settings' checker are imported again where a save is read (a game's
        # start) and leave with the game (MicroPython and CircuitPython alike);
        # the launcher leaves while a game runs (relaunch)
        sys.modules.pop("strictjson", None)
        sys.modules.pop("saveschema", None)
        rt.relaunch = relaunch
    rt.launcher = make_launcher(rt, launcher)
    rt.screen = rt.launcher
    return rt


# Console lines + LED blink code; the REPL stays usable.
def report_display_fault(fault):
    import displaycheck

    for line in displaycheck.console_lines(fault):
        print(line)
    if fault.signal is not None:
        fault.signal(fault.cfg, displaycheck.blink_count(fault.cfg, fault.found))
