# Device entry point (MicroPython runs main.py at power-on).
#
# Reads board.json (or the default Pico + SSD1306 build), brings up the
# hardware backend, and starts the launcher.  Safe mode: B held at power-on
# shows "SAFE MODE" and returns at once, leaving the REPL free for flashing.
# A display that does not answer (firmware/displaycheck.py) is reported on the
# serial console and by an LED blink code, and main.py returns to the REPL.
# (comments, not a docstring: this module stays resident, and a docstring stays
# on the heap of a MicroPython that compiles the source, as main.py always is)

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
def boot(cfg=None, hw=None, saves=None):
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


# The launcher; if it cannot show these settings, the defaults.  A function of
# its own: the same try inside boot() left the launcher's idle loop busy 13.3 %
# of the time instead of 8.8 % on the virtual Pico (cause not found).
def make_launcher(rt, launcher):
    try:
        return launcher.Launcher(rt)
    except Exception as exc:
        rt.defaults(exc)
        return launcher.Launcher(rt)


# The launcher while a game runs (rt.relaunch on the device, set by boot;
# Runtime.start_game: ``back`` False, back_to_launcher: True): what becomes
# rt.launcher.  It leaves when a game starts, its object and its module (~4.5
# KB of the game's heap), and is made again when the game ends, the cursor on
# the line it was on.  The simulator (CPython) keeps it.
_CURSOR = bytearray(2)          # the launcher's sel and top while it is away


def relaunch(rt, back):
    lau = rt.launcher
    if not back:
        if lau is not None:
            _CURSOR[0] = lau.sel
            _CURSOR[1] = lau.top
            sys.modules.pop("launcher", None)
        return None
    if lau is None:
        import launcher
        lau = make_launcher(rt, launcher)
        lau.sel = _CURSOR[0]
        lau.top = _CURSOR[1]
    return lau


def main():
    try:
        rt = boot()
    except OSError as exc:
        import displaycheck

        if not isinstance(exc, displaycheck.DisplayFault):
            raise
        displaycheck.report(exc)    # console lines + LED blink code; the REPL stays usable
        return
    if rt is not None:
        rt.run()


if __name__ == "__main__":
    main()
