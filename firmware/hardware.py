"""The hardware contract: what the firmware (runtime, launcher, main, the games
through ctx) uses of a backend and of its display, each with its default
(docs/runtime.md, "Hardware").  Every backend inherits it: hw_machine (its
display the ssd1306/sh1106 driver), hw_circuitpython, hw_web.  Callers use
these directly, never through hasattr/getattr; tests/test_contract.py checks
that each backend has everything the firmware uses.  Resident with the
launcher, so comments rather than docstrings on the methods; what has no
default is listed as a comment, and each backend sets or defines it.
"""


class Display:
    # Set by every display:
    #   width, height  the panel in pixels (128 x 64)
    #   buffer      the frame's bytearray, MONO_VLSB (128 bytes per 8-row page)
    #   fb          a framebuf.FrameBuffer over buffer: what screens draw into
    #   controller  "ssd1306" or "sh1106" (the about screen shows it)
    #   show()      put the frame on the glass (the pages that changed)
    controller = "ssd1306"

    # the panel's brightness, 0..255
    def contrast(self, level):
        pass

    # power save: the glass goes dark, the frame is kept (while off nothing is sent)
    def poweroff(self):
        pass

    # out of power save, showing what it showed before
    def poweron(self):
        pass

    # the next show() sends the whole frame, not only the changed pages
    def invalidate(self):
        pass


class Hardware:
    # Set by every backend:
    #   display         its Display
    #   read_buttons()  the buttons held now: a mask of buttons.UP, DOWN, ... B
    #   ticks_ms()      a ms clock wrapping at 2**30 (clock.ticks_diff)
    #   sleep_ms(ms)    wait ms (the simulators advance their virtual clock)
    # the buzzer when the board has one (ctx.has_sound, the sound setting), else None
    buzzer = None
    # the supply reading (battery.Supply: its .gauge the battery.Gauge) on a board
    # that reads its supply, else None
    supply = None

    # the wait while the panel is off: the core idles where the port can
    def doze(self, ms):
        self.sleep_ms(ms)

    # a tone of freq Hz for ms (nothing without a buzzer)
    def beep(self, freq, ms):
        pass

    # called every tick with the clock's now (ends a beep when its time is up)
    def service(self, now):
        pass

    # free heap in bytes, -1 where unknown (the about screen)
    def mem_free(self):
        return -1
