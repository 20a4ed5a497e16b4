"""Stands for CircuitPython's ``busio.I2C`` (C) inside the MicroPython VMs: lock, scan, writeto.

Devices are attached per address (``attach(addr, device)``; a device has
``write(bytes)``).  ``writeto`` to an address nobody acknowledges raises
OSError(19) like the real port; every transaction is recorded in ``log``."""

devices = {}
log = []
stats = {"transactions": 0, "bytes": 0}


def attach(addr, device):
    devices[addr] = device


def reset():
    global devices, log
    devices = {}
    log = []
    stats["transactions"] = 0
    stats["bytes"] = 0


class I2C:
    def __init__(self, scl, sda, frequency=100000, timeout=255):
        if scl is sda:
            raise ValueError("SCL and SDA are the same pin")
        self.scl = scl
        self.sda = sda
        self.frequency = frequency
        self.locked = False
        self.devices = devices
        self.deinited = False

    def try_lock(self):
        if self.locked:
            return False
        self.locked = True
        return True

    def unlock(self):
        self.locked = False

    def _check(self):
        if self.deinited:
            raise ValueError("Object has been deinitialized and can no longer be used.")
        if not self.locked:
            raise RuntimeError("Function requires lock")

    def scan(self):
        self._check()
        return sorted(self.devices)

    def probe(self, addr):
        return addr in self.devices

    def writeto(self, address, buffer, start=0, end=None):
        self._check()
        if end is None:
            end = len(buffer)
        dev = self.devices.get(address)
        if dev is None:
            raise OSError(19)
        data = bytes(buffer[start:end])
        dev.write(data)
        log.append((address, data))
        stats["transactions"] += 1
        stats["bytes"] += len(data) + 1

    def deinit(self):
        self.deinited = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.deinit()
