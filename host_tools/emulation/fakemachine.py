"""A fake ``machine`` module: the simulator backend for firmware/hw_machine.py.

Plain MicroPython-compatible Python, so the same file serves CPython (the
simulator puts it in ``sys.modules["machine"]``) and the MicroPython VM tests
(copied in as ``machine.py``).  ``I2C`` hands each transaction to the device
attached at that address (``attach(addr, device)``; a device has
``write(buf)`` and ``write_parts(vector)``); a missing device raises
OSError(19) like a real bus without an ACK.  ``Pin.value()`` reads ``levels``
(pin number -> 0/1), defaulting to the idle level of its pull; ``ADC.read_u16()``
reads ``analog`` (pin number -> volts at the pin, 3.3 V reference).
"""

devices = {}
levels = {}
analog = {}
stats = {"transactions": 0, "bytes": 0}


def attach(addr, device):
    devices[addr] = device


def detach_all():
    """A fresh bus and pin levels; I2C/Pin objects made earlier keep theirs,
    so several simulated handhelds can live in one process."""
    global devices, levels, analog
    devices = {}
    levels = {}
    analog = {}
    for timer in list(Timer.active):
        timer.deinit()
    stats["transactions"] = 0
    stats["bytes"] = 0


class Counter:
    """A device that only counts what it is sent (used in the MicroPython VM)."""

    def __init__(self):
        self.transactions = 0
        self.bytes = 0

    def write(self, buf):
        self.transactions += 1
        self.bytes += len(buf)

    def write_parts(self, vector):
        self.transactions += 1
        for i in range(len(vector)):
            self.bytes += len(vector[i])


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.levels = levels
        if value is not None:
            levels[id] = value

    def init(self, mode=-1, pull=-1, value=None):
        self.mode = mode
        self.pull = pull

    def value(self, v=None):
        if v is None:
            level = self.levels.get(self.id)
            if level is None:
                return 1 if self.pull == Pin.PULL_UP else 0
            return level
        self.levels[self.id] = 1 if v else 0
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.levels[self.id] = 1

    def off(self):
        self.levels[self.id] = 0


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, f=None):
        if f is None:
            return self._freq
        self._freq = f

    def duty_u16(self, d=None):
        if d is None:
            return self._duty
        self._duty = d

    def deinit(self):
        self._duty = 0


class I2C:
    def __init__(self, id=0, scl=None, sda=None, freq=400000):
        self.id = id
        self.scl = scl
        self.sda = sda
        self.freq = freq
        self.devices = devices

    def scan(self):
        return sorted(self.devices)

    def _dev(self, addr):
        dev = self.devices.get(addr)
        if dev is None:
            raise OSError(19)
        return dev

    def writeto(self, addr, buf, stop=True):
        self._dev(addr).write(buf)
        stats["transactions"] += 1
        stats["bytes"] += len(buf) + 1
        return len(buf)

    def writevto(self, addr, vector, stop=True):
        self._dev(addr).write_parts(vector)
        n = 1
        for i in range(len(vector)):
            n += len(vector[i])
        stats["transactions"] += 1
        stats["bytes"] += n
        return n - 1


class SoftI2C(I2C):
    pass


class ADC:
    """The volts ``analog`` holds for its pin as the rp2 port reports them: a
    12-bit conversion against 3.3 V, scaled to 16 bits."""

    def __init__(self, pin):
        self.pin = pin.id if isinstance(pin, Pin) else pin
        self.analog = analog

    def read_u16(self):
        raw = int(self.analog.get(self.pin, 0) * 4095 / 3.3 + 0.5)
        raw = min(max(raw, 0), 4095)
        return raw << 4 | raw >> 8


class Timer:
    """A periodic timer that fires only when a test calls ``fire()`` (the
    simulator has no interrupts); ``active`` lists the running ones."""

    ONE_SHOT = 0
    PERIODIC = 1
    active = []

    def __init__(self, id=-1, mode=PERIODIC, period=-1, callback=None):
        self.init(mode=mode, period=period, callback=callback)

    def init(self, mode=PERIODIC, period=-1, callback=None):
        self.mode = mode
        self.period = period
        self.callback = callback
        if self not in Timer.active:
            Timer.active.append(self)

    def fire(self):
        self.callback(self)
        if self.mode == Timer.ONE_SHOT:
            self.deinit()

    def deinit(self):
        if self in Timer.active:
            Timer.active.remove(self)


class UART:
    """Stands for ``machine.UART`` as the link cable uses it: ``readinto`` reads
    what ``feed`` brought (None when nothing, never waits), ``write`` keeps the
    bytes in ``out`` until ``take`` (the simulator carries them to the other
    handheld: host_tools/emulation/simlink.py)."""

    def __init__(self, id, baudrate=115200, tx=None, rx=None, timeout=0, rxbuf=256, **kw):
        self.id = id
        self.baudrate = baudrate
        self.rx = bytearray()
        self.out = bytearray()

    def feed(self, data):
        self.rx.extend(data)

    def take(self):
        data = bytes(self.out)
        self.out[:] = b""
        return data

    def any(self):
        return len(self.rx)

    def readinto(self, buf, nbytes=-1):
        n = min(len(buf) if nbytes < 0 else nbytes, len(self.rx))
        if not n:
            return None
        buf[:n] = self.rx[:n]
        self.rx[:n] = b""
        return n

    def write(self, buf):
        self.out.extend(buf)
        return len(buf)


def freq(f=None):
    return 125000000


def unique_id():
    return b"SIMULATR"


def reset():
    raise SystemExit("machine.reset()")


def idle():
    pass
