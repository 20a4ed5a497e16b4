"""A fake MicroPython device for tests: a littlefs-like filesystem in memory.

Models what the flasher depends on: block-granular capacity (a file takes
ceil(size / block) blocks, at least one; a directory one block), ENOSPC on a
full filesystem, writes that go out in 256-byte chunks (a cut leaves a
truncated file), atomic rename that replaces an existing file (littlefs), and
a power cut after any number of mutating steps: ``cut_after = n`` lets n
mutating steps through, then the step raises PowerCut and the device stays dead
until ``power_on()``.  The I2C bus: ``i2c_found`` is what a scan answers
(default: an OLED at 0x3C); ``scans`` records the (bus, sda, scl, freq, address) asked.
"""

from host_tools.device.devicefs import ENOENT, ENOSPC, DeviceTransport, sha256_hex

CHUNK = 256


class PowerCut(Exception):
    """The cable was pulled."""


class FakeDevice(DeviceTransport):
    def __init__(self, files=None, capacity=848 * 1024, block=4096,
                 implementation="micropython", version="1.27.0", mpy=6 | (3 << 8) | (4 << 10),
                 machine="Raspberry Pi Pico with RP2040", mem_free=180_000, port="/dev/fake0",
                 i2c_found=(0x3C,)):
        self.i2c_found = list(i2c_found)
        self.scans = []
        self.files = {}
        self.dirs = {"/"}
        self.block = block
        self.capacity = capacity
        self.implementation = implementation
        self.version = version
        self.mpy = mpy
        self.machine = machine
        self.mem_free = mem_free
        self.port = port
        self.cut_after = None
        self.steps = 0
        self.dead = False
        self.resets = 0
        self.restarts = 0
        for path, data in (files or {}).items():
            self._ensure_parent(path)
            self.files[path] = bytes(data)

    # Model ------------------------------------------------------------------
    def _ensure_parent(self, path):
        parent = path.rsplit("/", 1)[0] or "/"
        if parent not in self.dirs:
            self._ensure_parent(parent)
            self.dirs.add(parent)

    def used(self):
        blocks = len(self.dirs) - 1
        for data in self.files.values():
            blocks += max(1, -(-len(data) // self.block))
        return blocks * self.block

    def free(self):
        return max(0, self.capacity - self.used())

    def _alive(self):
        if self.dead:
            raise PowerCut("device is off")

    def _step(self):
        self._alive()
        if self.cut_after is not None and self.steps >= self.cut_after:
            self.dead = True
            raise PowerCut("cut after %d steps" % self.steps)
        self.steps += 1

    def power_on(self):
        self.dead = False
        self.cut_after = None

    def _parent_ok(self, path):
        parent = path.rsplit("/", 1)[0] or "/"
        if parent not in self.dirs:
            raise OSError(ENOENT, "no such directory: %s" % parent)

    # DeviceTransport ------------------------------------------------------------
    def info(self):
        self._alive()
        return {"implementation": self.implementation, "version": self.version,
                "mpy": self.mpy, "machine": self.machine, "mem_free": self.mem_free,
                "fs_block": self.block, "fs_total": self.capacity, "fs_free": self.free()}

    def exists(self, path):
        self._alive()
        return path in self.files or path in self.dirs

    def isdir(self, path):
        self._alive()
        return path in self.dirs

    def listdir(self, path):
        self._alive()
        if path not in self.dirs:
            raise OSError(ENOENT, path)
        prefix = path.rstrip("/") + "/"
        names = set()
        for p in list(self.files) + list(self.dirs):
            if p != path and p.startswith(prefix) and "/" not in p[len(prefix):]:
                names.add(p[len(prefix):])
        return sorted(names)

    def sha256(self, path):
        self._alive()
        data = self.files.get(path)
        return None if data is None else sha256_hex(data)

    def read(self, path):
        self._alive()
        if path not in self.files:
            raise OSError(ENOENT, path)
        return self.files[path]

    def write(self, path, data):
        self._parent_ok(path)
        self._step()  # open for writing truncates
        old = self.files.get(path)
        if old is not None and self.used() - max(1, -(-len(old) // self.block)) * self.block \
                + self.block > self.capacity:
            raise OSError(ENOSPC, "no space")
        if old is None and self.free() < self.block:
            raise OSError(ENOSPC, "no space")
        self.files[path] = b""
        for start in range(0, len(data), CHUNK):
            self._step()
            new = self.files[path] + bytes(data[start:start + CHUNK])
            before = self.files[path]
            self.files[path] = new
            if self.used() > self.capacity:
                self.files[path] = before
                raise OSError(ENOSPC, "no space")

    def mkdir(self, path):
        self._parent_ok(path)
        if path in self.dirs or path in self.files:
            raise OSError(17, "exists")
        if self.free() < self.block:
            raise OSError(ENOSPC, "no space")
        self._step()
        self.dirs.add(path)

    def remove(self, path):
        if path not in self.files:
            raise OSError(ENOENT, path)
        self._step()
        del self.files[path]

    def rmdir(self, path):
        if path not in self.dirs or self.listdir(path):
            raise OSError(39 if path in self.dirs else ENOENT, path)
        self._step()
        self.dirs.discard(path)

    def rename(self, old, new):
        if old not in self.files:
            raise OSError(ENOENT, old)
        self._parent_ok(new)
        if new in self.dirs:
            raise OSError(21, new)
        self._step()  # atomic, replaces an existing file (littlefs semantics)
        self.files[new] = self.files.pop(old)

    def restart(self):
        self.restarts += 1

    def has_reset(self):
        return True

    def reset(self):
        self._step()
        self.resets += 1

    def scan_i2c(self, bus, sda, scl, freq, address):
        self._alive()
        self.scans.append((bus, sda, scl, freq, address))
        return sorted(self.i2c_found)

    def snapshot(self):
        return dict(self.files), set(self.dirs)
