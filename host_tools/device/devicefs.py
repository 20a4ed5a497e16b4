"""The one interface the flasher and doctor use to talk to a device.

``DeviceTransport`` is what flashing (mpflash.py, staging.py) and doctor.py need: device facts, a few filesystem
operations (paths are absolute device paths), hashes computed *on the device*,
and reset.  ``MpremoteTransport`` implements it over USB serial with mpremote's
Python transport; tests use ``host_tools.emulation.fakedevice.FakeDevice``.  The method
names also match what ``firmware/boot_switch.py`` expects of a filesystem, so
the host can finish an interrupted switch by running that same code.
"""

import binascii
import contextlib
import errno
import hashlib
import io
import re

# host errno numbers: mpremote turns a device OSError into OSError(host errno)
ENOSPC = errno.ENOSPC
ENOENT = errno.ENOENT
MP_ENOSPC = 28              # MicroPython's own number for ENOSPC (py/mperrno.h)
_OSERROR_LINE = re.compile(r"OSError: (?:\[Errno )?(-?\d+)\b")


def device_errno(exc):
    """The MicroPython errno of an OSError raised on the device, read from the
    last line of mpremote's error text ("OSError: 28", "OSError: [Errno 28]
    ENOSPC"), or None.  Only that line: a "28" elsewhere (a line number, a path,
    a size) says nothing about the error."""
    text = getattr(exc, "error_output", None) or str(exc)
    lines = text.strip().splitlines()
    match = _OSERROR_LINE.match(lines[-1].strip()) if lines else None
    return int(match.group(1)) if match else None

# USB vendor ids of boards that run MicroPython / CircuitPython, and common
# USB-serial bridges on such boards.
KNOWN_VIDS = {
    0x2E8A: "Raspberry Pi",
    0xF055: "MicroPython",
    0x239A: "Adafruit",
    0x303A: "Espressif",
    0x10C4: "Silicon Labs CP210x",
    0x1A86: "WCH CH340",
}

SWITCH_SILENCE_S = 60     # the on-board switch's longest silence (a real Pico: ~1 s)


class DeviceError(Exception):
    """The device could not be reached or did something unexpected (one line)."""


class DeviceTransport:
    """Interface; see MpremoteTransport and fakedevice.FakeDevice."""

    port = "?"

    def info(self):
        """dict: implementation, version, mpy (sys.implementation._mpy or None),
        machine, mem_free, fs_block, fs_total, fs_free (bytes)."""
        raise NotImplementedError

    def exists(self, path):
        raise NotImplementedError

    def isdir(self, path):
        raise NotImplementedError

    def listdir(self, path):
        raise NotImplementedError

    def sha256(self, path):
        """Hex SHA-256 of a device file computed on the device, None if absent."""
        raise NotImplementedError

    def sha256_many(self, paths):
        """``[sha256(p) for p in paths]``; a transport may answer all in one exchange."""
        return [self.sha256(p) for p in paths]

    def switch_on_board(self):
        """Run the committed switch (firmware/boot_switch.py) on the board itself and
        return its result, or None where the board cannot run it (the host then runs
        the same code over this interface, an exchange per step)."""
        return None

    def rom_partition(self):
        """(bytes, erase block) of the board's ROMFS partition (``/rom``: MicroPython
        built with one, third_party/rp2040-romfs), (0, 0) without one; ``flash``
        then puts the modules there (host_tools/device/romfs.py)."""
        return (0, 0)

    def soft_reset(self):
        """Soft-reset into the raw REPL: main.py does not run, so no code of the
        game (no timer callback) runs while /rom is rewritten."""
        raise NotImplementedError

    def read(self, path):
        raise NotImplementedError

    def write(self, path, data):
        raise NotImplementedError

    def mkdir(self, path):
        raise NotImplementedError

    def remove(self, path):
        raise NotImplementedError

    def rmdir(self, path):
        raise NotImplementedError

    def rename(self, old, new):
        raise NotImplementedError

    def reset(self):
        raise NotImplementedError

    def reboot_to_bootsel(self):
        raise NotImplementedError

    def restart(self):
        """Leave the REPL so the board starts its game again (a soft reset), and close."""
        raise NotImplementedError

    def has_reset(self):
        """True once the board has gone through the reset that reset() started."""
        raise NotImplementedError

    def scan_i2c(self, bus, sda, scl, freq, address):
        """Addresses that answer on the device's bus (doctor's display check):
        ``i2c.scan()`` plus the display addresses (0x3C, 0x3D, ``address``)
        probed with a one-byte write, as firmware/hw_machine_fault.py scan_bus."""
        raise NotImplementedError

    def close(self):
        pass


def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


_INFO_CODE = """
import sys, os, gc
gc.collect()
try:
    _m = sys.implementation._mpy
except AttributeError:
    _m = None
try:
    _s = os.statvfs('/')
    _fs = (_s[0], _s[0] * _s[2], _s[0] * _s[3])
except Exception:
    _fs = (0, 0, 0)
try:
    _mach = sys.implementation._machine
except AttributeError:
    _mach = sys.platform
_v = '.'.join(str(v) for v in sys.implementation.version[:3])
print(repr((sys.implementation.name, _v, _m, _mach, gc.mem_free()) + _fs))
"""

_STAT_CODE = """
import os
try:
    print(os.stat(%r)[0])
except OSError:
    print(None)
"""

_HASH_CODE = """
import hashlib
def _h(p):
    try:
        f = open(p, 'rb')
    except OSError:
        return None
    h = hashlib.sha256(); b = bytearray(256)
    while True:
        n = f.readinto(b)
        if not n: break
        h.update(memoryview(b)[:n])
    f.close()
    return h.digest()
print(repr([_h(p) for p in %r]))
del _h
"""

_SWITCH_CODE = """
import os
_p = '/.stage/boot_switch.py'
try:
    os.stat(_p)
except OSError:
    _p = '/boot_switch.py'
_g = {'__name__': 'boot_switch'}
with open(_p) as _f:
    exec(_f.read(), _g)
print(repr(_g['run']()))
del _g, _f, _p
"""

# the ROMFS partition's size and erase block; (0, 0) on a MicroPython without one
# (the stock RPI_PICO build has no vfs.rom_ioctl) or with a partition that is not a
# block device (other ports: flash leaves the modules on the filesystem there)
_ROM_QUERY_CODE = """
_r = (0, 0)
try:
    import vfs
    if vfs.rom_ioctl(1) > 0:
        _d = vfs.rom_ioctl(2, 0)
        if hasattr(_d, 'ioctl'):
            _r = (_d.ioctl(4, 0) * _d.ioctl(5, 0), _d.ioctl(5, 0))
        del _d
except (ImportError, AttributeError, OSError):
    pass
print(repr(_r))
del _r
"""

# as firmware/hw_machine_fault.py scan_bus: scan() plus a one-byte probe of the display addresses
_SCAN_CODE = """
from machine import I2C, Pin
i2c = I2C(%d, sda=Pin(%d), scl=Pin(%d), freq=%d)
found = i2c.scan()
for a in (0x3C, 0x3D, %d):
    for _ in range(2 if a not in found else 0):
        try:
            i2c.writeto(a, b'\\x00')
            found.append(a)
            break
        except OSError:
            pass
print(repr(sorted(found)))
"""


RESET_MARK = "_pocket_puzzles_before_reset"   # in sys.modules until the board resets
WRITE_CHUNK = 1024           # bytes per raw-REPL exchange (1,368 base64 characters)
_B64_PROBE = """
try:
    from binascii import a2b_base64
    print('ok')
except ImportError:
    print('no')
"""


def write_exchanges(path, data):
    """The raw-REPL programs that write ``data`` to ``path`` on a board with
    binascii: open, one base64 piece of WRITE_CHUNK bytes each, close (flash's
    writes and the virtual Pico's own provisioning send the same)."""
    yield "from binascii import a2b_base64\nf=open(%r,'wb')\nw=f.write" % path
    for start in range(0, len(data), WRITE_CHUNK):
        yield "w(a2b_base64(%r))" % binascii.b2a_base64(bytes(data[start:start + WRITE_CHUNK]),
                                                        newline=False)
    yield "f.close()\ndel f,w,a2b_base64"


ANSWER_WITHIN_S = 30        # a board that has not entered the raw REPL by then is not answering
READ_POLL_S = 10            # serial read timeout (mpremote's 10 s without a byte): its deadlines then hold on a pty too
RAW_REPL_TRY_S = 10         # one Ctrl-C/Ctrl-A try (mpremote's own deadline); a board busy booting gets more
QUIET_S = 0.5               # no byte for this long: a late answer to an earlier try is over


class MpremoteTransport(DeviceTransport):
    """A MicroPython device on a serial port, through mpremote's SerialTransport.

    Every exchange has a deadline.  mpremote reads a pseudo-terminal (the virtual
    Pico's port) with blocking one-byte reads, so without a read timeout a board
    that never answers would hang the command; with READ_POLL_S its timeouts
    (10 s between characters, ``timeout_overall``) apply there as on a USB port."""

    def __init__(self, port, answer_within=None):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self._TransportError = TransportError
        self._base64 = None          # whether the board can take base64 writes; asked once
        self.port = port
        answer_within = answer_within or ANSWER_WITHIN_S
        try:
            self._t = SerialTransport(port, baudrate=115200)
            self._t.serial.timeout = READ_POLL_S
        except Exception as exc:  # serial.SerialException, OSError, TransportError
            raise DeviceError("cannot open %s: %s" % (port, exc)) from None
        if not self._enter_raw_repl(answer_within):
            self._t.close()
            raise DeviceError(
                "%s did not answer within %d s: press the handheld's reset button (or unplug "
                "and replug its USB cable) and try again; if it still does not, it runs "
                "something that ignores Ctrl-C, or not MicroPython" % (port, answer_within))

    def _enter_raw_repl(self, answer_within):
        """Interrupt whatever runs and enter the raw REPL, trying again until
        ``answer_within`` s have passed (a board that was resetting or booting
        may miss the first Ctrl-C)."""
        import time
        deadline = time.monotonic() + answer_within
        tries = 0
        while True:
            left = deadline - time.monotonic()
            try:
                if tries:
                    self._drain()
                with contextlib.redirect_stdout(io.StringIO()):   # mpremote prints a failed try's bytes
                    self._t.enter_raw_repl(soft_reset=False, timeout_overall=max(1, min(RAW_REPL_TRY_S, left)))
                if tries:
                    self._resync()
                return True
            except Exception:  # TransportError (no prompt), serial errors
                tries += 1
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.1)

    def _drain(self):
        """Read and drop input until the board has been quiet for QUIET_S."""
        import time
        serial = self._t.serial
        quiet_until = time.monotonic() + QUIET_S
        while time.monotonic() < quiet_until:
            waiting = serial.in_waiting
            if waiting:
                serial.read(waiting)
                quiet_until = time.monotonic() + QUIET_S
            else:
                time.sleep(0.05)

    def _resync(self):
        """After several tries, answers to earlier ones may still arrive: wait for
        quiet, then reset the raw REPL once more (Ctrl-A), so exactly its prompt
        is left to read, as mpremote expects."""
        self._drain()
        self._t.serial.write(b"\r\x01")
        ending = b"raw REPL; CTRL-B to exit\r\n"
        if not self._t.read_until(1, ending, timeout_overall=RAW_REPL_TRY_S).endswith(ending):
            raise self._TransportError("could not enter raw repl")

    def restart(self):
        """Leave the raw REPL, soft-reset (boot.py and main.py run again: the
        handheld goes back to its game instead of waiting at the REPL) and close."""
        try:
            self._t.exit_raw_repl()
            self._t.serial.write(b"\x04")
        except Exception:
            pass
        self._t.close()

    def _exec(self, code):
        try:
            return self._t.exec(code).decode()
        except self._TransportError as exc:
            raise DeviceError("device error: %s" % str(exc).strip().splitlines()[-1]) from None

    def run(self, code, silence_s):
        """Run ``code`` and return what it printed; it may stay silent for up to
        ``silence_s`` s (a long computation), where ``_exec`` allows mpremote's 10 s."""
        try:
            out, err = self._t.exec_raw(code, timeout=silence_s)
        except self._TransportError as exc:
            raise DeviceError("device error: %s" % str(exc).strip().splitlines()[-1]) from None
        if err:
            raise DeviceError("device error: %s" % err.decode(errors="replace").strip().splitlines()[-1])
        return out.decode()

    def _eval(self, code):
        import ast
        return ast.literal_eval(self._exec(code).strip())

    def info(self):
        name, version, mpy, machine, mem, block, total, free = self._eval(_INFO_CODE)
        return {"implementation": name, "version": version, "mpy": mpy, "machine": machine,
                "mem_free": mem, "fs_block": block, "fs_total": total, "fs_free": free}

    def _mode(self, path):
        """os.stat()'s mode, None when there is no such path.  Not mpremote's
        fs_exists: it tells "no such file" by MicroPython's wording ("ENOENT"), and
        CircuitPython words it "No such file/directory"."""
        return self._eval(_STAT_CODE % path)

    def exists(self, path):
        return self._mode(path) is not None

    def isdir(self, path):
        mode = self._mode(path)
        return mode is not None and bool(mode & 0x4000)

    def listdir(self, path):
        """Names in ``path`` (os.listdir: CircuitPython has no os.ilistdir, which
        mpremote's fs_listdir uses)."""
        return self._eval("import os\nprint(repr(os.listdir(%r)))" % path)

    def sha256(self, path):
        return self.sha256_many([path])[0]

    def sha256_many(self, paths):
        """One exchange, which may stay silent for SWITCH_SILENCE_S: with the
        Klotski tables (~195 KB) the hashes of a whole deploy took longer than
        mpremote's 10 s on a busy machine's virtual Pico."""
        import ast
        digests = ast.literal_eval(self.run(_HASH_CODE % (paths,), SWITCH_SILENCE_S).strip())
        return [None if d is None else d.hex() for d in digests]

    def switch_on_board(self):
        """One exchange instead of ~3 per file (54 files: 13 s on the virtual Pico).
        The new boot_switch.py runs: the staged one if it was sent, else the live one
        (then it is unchanged).  It may stay silent for SWITCH_SILENCE_S: the
        virtual Pico, a few times slower than real time on a busy machine, took
        longer than mpremote's 10 s to rename ~60 files."""
        import ast
        return ast.literal_eval(self.run(_SWITCH_CODE, SWITCH_SILENCE_S).strip())

    def rom_partition(self):
        return tuple(self._eval(_ROM_QUERY_CODE))

    def soft_reset(self):
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                self._t.enter_raw_repl(soft_reset=True)
        except self._TransportError as exc:
            raise DeviceError("device error: %s" % str(exc).strip().splitlines()[-1]) from None

    def read(self, path):
        return self._t.fs_readfile(path)

    def write(self, path, data):
        """Write ``data`` to ``path``.  As base64 in WRITE_CHUNK-byte pieces where the
        board has binascii (MicroPython and CircuitPython both do): a piece is one
        raw-REPL exchange, and mpremote's own fs_writefile sends 256 bytes as a
        bytes literal per exchange, ~4x the exchanges and up to 4 characters a byte
        (measured on the virtual Pico: 24 KB in 0.52 s emulated instead of 1.96 s)."""
        from mpremote.transport import _convert_filesystem_error

        try:
            if self._base64 is None:
                self._base64 = "ok" in self._exec(_B64_PROBE)
            if not self._base64:
                self._t.fs_writefile(path, data)
                return
            for code in write_exchanges(path, data):
                self._t.exec(code)
        except OSError:
            raise               # mpremote converted it: exc.errno is the host's number
        except self._TransportError as exc:
            if device_errno(exc) == MP_ENOSPC:
                raise OSError(ENOSPC, "no space left on device") from None
            converted = _convert_filesystem_error(exc, path) if hasattr(exc, "error_output") else exc
            if isinstance(converted, OSError):
                raise converted from None
            raise DeviceError("writing %s failed: %s" % (path, exc)) from None

    def mkdir(self, path):
        self._t.fs_mkdir(path)

    def remove(self, path):
        self._t.fs_rmfile(path)

    def rmdir(self, path):
        self._t.fs_rmdir(path)

    def rename(self, old, new):
        self._exec("import os\nos.rename(%r, %r)" % (old, new))

    def scan_i2c(self, bus, sda, scl, freq, address):
        return self._eval(_SCAN_CODE % (bus, sda, scl, freq, address))

    def reset(self):
        """machine.reset(), after leaving a mark in RAM that the reset wipes, so
        has_reset() can tell the board before its reset from the board after it."""
        try:
            self._t.exec_raw_no_follow("import sys, machine\nsys.modules[%r] = sys\nmachine.reset()"
                                       % RESET_MARK)
        except Exception:
            pass  # the USB link drops as the board resets

    def reboot_to_bootsel(self):
        """machine.bootloader(): the board leaves MicroPython for its ROM's USB
        drive (RPI-RP2), as if plugged in holding BOOTSEL; the port goes away."""
        try:
            self._t.exec_raw_no_follow("import machine\nmachine.bootloader()")
        except Exception:
            pass  # the USB link drops as the board reboots
        try:
            self._t.close()
        except Exception:
            pass

    def has_reset(self):
        try:
            return self._exec("import sys\nprint(%r in sys.modules)" % RESET_MARK).strip() == "False"
        except DeviceError:
            return False

    def close(self):
        if not self._t.serial.is_open:
            return
        try:
            self._t.exit_raw_repl()
        except Exception:
            pass
        self._t.close()


def list_device_ports():
    """[(port, description)] of USB serial ports that look like a board."""
    try:
        from serial.tools import list_ports
    except ImportError:  # pragma: no cover - pyserial comes with mpremote
        return []
    found = []
    for p in sorted(list_ports.comports(), key=lambda p: p.device):
        if p.vid in KNOWN_VIDS:
            found.append((p.device, "%s %04x:%04x %s" % (
                KNOWN_VIDS[p.vid], p.vid, p.pid or 0, p.description or "")))
    return found
