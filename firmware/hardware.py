# The hardware contract: what the firmware (runtime, launcher, main, the games
# through ctx) uses of a backend and of its display, each with its default
# (docs/runtime.md, "The hardware contract").  Every backend inherits it: hw_machine (its
# display the ssd1306/sh1106 driver), hw_circuitpython, hw_web.  Callers use
# these directly, never through hasattr/getattr; tests/test_contract.py checks
# that every backend has everything the firmware uses.  What has no default is
# listed in a comment, and each backend sets or defines it.
# (comments, not docstrings: resident with the launcher, and a docstring stays
# on the heap of a MicroPython that compiles the source; the hooks that do
# nothing by default share one function per arity, each costs that heap too)


def _nothing(self):
    pass


def _nothing1(self, value):
    pass


class Display:
    # Set by every display:
    #   width, height  the panel in pixels (128 x 64)
    #   buffer      the frame's bytearray, MONO_VLSB (128 bytes per 8-row page)
    #   fb          a framebuf.FrameBuffer over buffer: what screens draw into
    #   controller  "ssd1306" or "sh1106" (the about screen shows it)
    #   show(most=8)  put the frame on the glass: the pages that changed, at
    #               most `most` of them; the ones left over go first next time;
    #               returns how many it sent (fewer than `most`: none is left,
    #               and the runtime calls it again only once it draws a new
    #               frame or wakes the panel; the web page's, which has no
    #               wire, returns 0)
    controller = "ssd1306"
    # about the ms one page takes on the wire (400 kHz I2C: 2.9): the runtime
    # sends no more pages in a tick than fit in what is left of it
    page_ms = 3
    # contrast(level): the panel's brightness, 0..255
    contrast = _nothing1
    # poweroff(): power save, the glass goes dark, the frame is kept (nothing
    # is sent while off); poweron(): back, showing what it showed before
    poweroff = _nothing
    poweron = _nothing
    # invalidate(): the next show() sends the whole frame, not only the changed
    # pages (the runtime, which calls it, then calls show() whether it drew or not)
    invalidate = _nothing


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
    # service(now): called every tick with the clock's now (ends a beep when its time is up)
    service = _nothing1

    # the wait while the panel is off: the core idles where the port can
    def doze(self, ms):
        self.sleep_ms(ms)

    # a tone of freq Hz for ms (nothing without a buzzer)
    def beep(self, freq, ms):
        pass

    # free heap in bytes, -1 where unknown (the about screen)
    def mem_free(self):
        return -1

    # the link cable (docs/link.md): a byte transport, readinto(buf) -> count
    # or None without waiting, and write(buf); the same one on every call;
    # None where the board has no link
    def open_link(self):
        return None
