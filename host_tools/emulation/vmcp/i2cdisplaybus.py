"""Stands for CircuitPython's ``i2cdisplaybus.I2CDisplayBus`` (C) inside the MicroPython VMs
(CircuitPython 9; ``displayio.I2CDisplay`` in 8).

Like shared-module/i2cdisplaybus: the constructor probes the address and raises
ValueError "Unable to find I2C Display at 3c" when nothing answers; a command
send becomes one transaction of (0x80, byte) pairs, a data send one
transaction 0x40 + data.  The bus is locked around each transaction."""

COMMAND = 0
DATA = 1


class I2CDisplayBus:
    def __init__(self, i2c_bus, *, device_address, reset=None):
        self.i2c = i2c_bus
        self.address = device_address
        while not i2c_bus.try_lock():
            pass
        try:
            found = i2c_bus.probe(device_address) if hasattr(i2c_bus, "probe") else (
                device_address in i2c_bus.scan())
        finally:
            i2c_bus.unlock()
        if not found:
            raise ValueError("Unable to find I2C Display at %x" % device_address)

    def _send(self, byte_type, data):
        if byte_type == COMMAND:
            out = bytearray(2 * len(data))
            for i in range(len(data)):
                out[2 * i] = 0x80
                out[2 * i + 1] = data[i]
        else:
            out = bytearray(len(data) + 1)
            out[0] = 0x40
            out[1:] = data
        while not self.i2c.try_lock():
            pass
        try:
            self.i2c.writeto(self.address, out)
        finally:
            self.i2c.unlock()

    def send(self, command, data):
        """Python-level send: the command byte, then the data."""
        self._send(COMMAND, bytes((command,)))
        if len(data):
            self._send(DATA, bytes(data))

    def reset(self):
        pass

    def deinit(self):
        pass
