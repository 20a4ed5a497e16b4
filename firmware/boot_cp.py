"""boot.py for CircuitPython (the flasher deploys this file as boot.py).

CircuitPython's filesystem has one writer at a time: the computer over USB
(the CIRCUITPY drive) or the code on the board.  This picks, at power-on:

- B held while plugging in / resetting: "USB mode": the drive stays writable
  from the computer (``flash`` can copy firmware); the board cannot write, so
  saves fail with "SAVE FAILED", and main.py sees B held too and stops in
  safe mode, leaving the REPL free;
- otherwise: "play mode": ``storage.remount("/", readonly=False)`` makes the
  filesystem writable by the handheld (saves/, settings) and read-only to the
  computer; an interrupted flash is finished (boot_switch).

On a board without a B pin (B as a chord) all the chord's pins must be held.
Anything going wrong here leaves USB mode, so a mistake never locks you out.
"""

import time

import board
import digitalio
import storage


def b_pins():
    """[(pin number, pull)] that make B, from board.json (default: GP9, pull-up)."""
    try:
        import json

        with open("/board.json") as f:
            cfg = json.load(f)
        buttons = cfg["buttons"]
        for name in buttons:
            if buttons[name].get("as", name) == "b":
                return [(buttons[name]["pin"], buttons[name].get("pull", "up"))]
        return [(buttons[p]["pin"], buttons[p].get("pull", "up")) for p in cfg["combos"]["b"]]
    except (OSError, ValueError, KeyError):
        return [(9, "up")]


def b_held():
    ios = []
    try:
        for number, pull in b_pins():
            io = digitalio.DigitalInOut(getattr(board, "GP%d" % number))
            io.switch_to_input(pull=digitalio.Pull.DOWN if pull == "down" else digitalio.Pull.UP)
            ios.append((io, pull == "down"))
        time.sleep(0.02)
        return all(io.value == level for io, level in ios)
    finally:
        for io, _ in ios:
            io.deinit()


def main():
    if b_held():
        print("boot: B held - USB mode, CIRCUITPY writable from the computer, saves off")
        return "usb"
    storage.remount("/", readonly=False)
    try:
        import boot_switch

        boot_switch.run()
    except Exception as exc:   # never stop the boot over a half-copied update
        print("boot: switch step failed:", exc)
    print("boot: play mode - saves on, CIRCUITPY read-only to the computer")
    return "play"


try:
    MODE = main()
except Exception as exc:
    print("boot: error, staying in USB mode:", exc)
    MODE = "usb"
