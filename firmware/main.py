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


# Everything up to the first tick; returns the Runtime (None in safe mode).
# The code is bootup's, which leaves the heap again (main.py is resident).
def boot(cfg=None, hw=None, saves=None):
    import bootup

    rt = bootup.boot(cfg, hw, saves, make_launcher, relaunch)
    sys.modules.pop("bootup", None)
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
        import bootup

        bootup.report_display_fault(exc)
        return
    if rt is not None:
        rt.run()


if __name__ == "__main__":
    main()
