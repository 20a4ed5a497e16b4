"""A fake game context for scripts that drive one scene inside a MicroPython
guest (the WASI VM, the virtual Pico): the runtime contract of
docs/conventions.md without the runtime, as guest source to paste before the
script.  The script defines ``ticks()`` (its clock in ms) and ``CACHE``
(``ctx.cache_dir``) first.  Saves stay in ``ctx.saved``; toasts are dropped
(nothing allocated: the heap figures are the scene's); ``save_game`` does
nothing (the runtime's save is measured through main.py's loop).  The host's
counterpart, for scenes run on CPython, is tests/gamectx.py."""

GUEST_CTX = r'''
class Dl:
    def set(self, ms):
        self.at = ticks() + ms
        return self
    def remaining(self):
        return self.at - ticks()
    def expired(self):
        return self.remaining() <= 0
class Btn:
    down = 0
    up = 0
    def pressed(self, m):
        return bool(self.down & m)
    def held_ms(self, b):
        return 0
    def just_pressed(self, m):
        return bool(self.down & m)
    def just_released(self, m):
        return bool(self.up & m)
    def repeat(self, m):
        return bool(self.down & m)
class Ctx:
    width = 128
    height = 64
    frame = None
    has_sound = False
    game_id = None
    levels_dir = None
    def __init__(self):
        self.buttons = Btn()
        self.settings = {}
        self.cache_dir = CACHE
        self.dl = Dl()
        self.saved = {}
    def ticks_ms(self):
        return ticks()
    def tick_no(self):
        return ticks() // 33
    def deadline(self, ms):
        return self.dl.set(ms)
    def load(self, gid):
        return self.saved.get(gid, {})
    def store(self, gid, d):
        self.saved[gid] = d
    def beep(self, f, ms):
        pass
    def toast(self, t, n=45):
        pass
    def save_game(self):
        pass
    def finish(self, gid, records):
        self.saved[gid + "/play"] = {}
        self.saved[gid] = records
    def out_of_memory(self):
        self.toast("NOT ENOUGH MEMORY")
    def collect(self):
        pass
    def open_link(self):
        return None
'''
