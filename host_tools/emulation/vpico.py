"""The virtual Pico: the official MicroPython RPI_PICO firmware on an emulated
RP2040 (npm ``rp2040js``, driven by host_tools/emulation/vpico_runner.mjs).

``VirtualPico`` owns one Node process and a flash image file (firmware +
littlefs, 2 MB like a Pico's flash).  Powering off writes the flash back to the
file, so the next ``start()`` boots the same device.  The OLED is the
simulator's controller model (host_tools/emulation/oledmodel.py) fed every I2C write the
firmware makes; buttons are GPIO levels over the pads' pull-ups; the USB serial
console is reachable directly (``exec``/``raw_repl``) or through a pty that
real tools (mpremote, ``flash --port``, ``doctor --port``) open unchanged.

Fast helper for measurements (emulated 125 MHz clock: time.ticks_us() in the
guest reads as on hardware)::

    from host_tools.emulation.vpico import run_snippet
    out = run_snippet("import klotski; ...; print(t)", files={"klotski.py": path})
"""

import hashlib
import os
import select
import shutil
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from host_tools.core import uf2
from host_tools.core.fwpath import ROOT
from host_tools.emulation.pinsim import VSYS_ON_USB

RUNNER = Path(__file__).resolve().parent / "vpico_runner.mjs"
CACHE_DIR = ROOT / "build" / "vpico"
FLASH_SIZE = 2 * 1024 * 1024
FLASH_BASE = 0x10000000
MS = 1_000_000  # nanoseconds


class VPicoError(Exception):
    """The virtual Pico could not do what was asked (one line, for users)."""


BUNDLE_DIR = uf2.RP2040_BUNDLE
CIRCUITPYTHON_UF2 = uf2.CIRCUITPYTHON_BUNDLE / "firmware.uf2"
ROMFS_FIRMWARE = uf2.ROMFS_BUNDLE / "firmware.bin"     # `vpico --romfs` (docs/romfs.md)


def firmware_dir():
    """Where the RP2040 bundle is: $VPICO_FIRMWARE_DIR when set, else the one in the
    repository (third_party/rp2040: official MicroPython v1.28.0 RPI_PICO + the RP2040
    B1 bootrom; provenance, licences and sha256 in its README)."""
    return Path(os.environ.get("VPICO_FIRMWARE_DIR") or BUNDLE_DIR)


def require_firmware_dir():
    """The bundle folder, or one line saying which of its two files is missing."""
    found = firmware_dir()
    for name in ("bootrom.bin", "firmware.bin"):
        if not (found / name).is_file():
            raise VPicoError("RP2040 bundle incomplete: %s not found (restore it with "
                             "`git checkout -- third_party/rp2040`, or set VPICO_FIRMWARE_DIR)"
                             % (found / name))
    return found


def read_firmware(path):
    """A firmware file (.uf2 for RP2040, or a raw .bin at 0x10000000) -> flash bytes."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise VPicoError("cannot read firmware %s: %s" % (path, exc.strerror or exc)) from None
    if data[:4] == b"UF2\n":
        return _unpack_uf2(path, data)
    if len(data) > FLASH_SIZE:
        raise VPicoError("firmware %s is %d B, more than the Pico's 2 MB flash" % (path, len(data)))
    if len(data) < 0x108:
        raise VPicoError("firmware %s is not an RP2040 flash image (too small)" % path)
    sp, reset = struct.unpack_from("<II", data, 0x100)
    if not (0x20000000 <= sp <= 0x20042000 and FLASH_BASE <= reset < FLASH_BASE + FLASH_SIZE):
        raise VPicoError("firmware %s is not an RP2040 flash image (no vector table at 0x100); "
                         "use the RPI_PICO .uf2 from micropython.org" % path)
    return data


def _unpack_uf2(path, data):
    image = bytearray(b"\xff" * FLASH_SIZE)
    top = 0
    try:
        for _, flags, addr, size, family, payload in uf2.blocks(data):
            if flags & uf2.FLAG_NOT_MAIN_FLASH:
                continue
            if flags & uf2.FLAG_FAMILY_ID and family != uf2.FAMILY_RP2040:
                name = uf2.OTHER_FAMILIES.get(family, "family 0x%08x" % family)
                raise VPicoError("firmware %s is for %s, not the RP2040 of a Pico: use the "
                                 "RPI_PICO .uf2" % (path, name))
            if size > 476 or not FLASH_BASE <= addr <= FLASH_BASE + FLASH_SIZE - size:
                raise VPicoError("firmware %s: UF2 block at 0x%08x is outside the Pico's flash" % (path, addr))
            image[addr - FLASH_BASE:addr - FLASH_BASE + size] = payload
            top = max(top, addr - FLASH_BASE + size)
    except uf2.UF2Error as exc:
        if exc.offset is None:
            raise VPicoError("firmware %s: truncated UF2 (%d B is not a multiple of 512)"
                             % (path, len(data))) from None
        raise VPicoError("firmware %s: bad UF2 block at byte %d" % (path, exc.offset)) from None
    if top == 0:
        raise VPicoError("firmware %s: UF2 has no flash blocks" % path)
    return bytes(image[:top])


def node_binary():
    node = shutil.which("node")
    if node is None:
        raise VPicoError("node not found: the virtual Pico runs in Node.js (install node, then make setup)")
    if not (ROOT / "node_modules" / "rp2040js").is_dir():
        raise VPicoError("npm package rp2040js missing: run make setup")
    return node


def write_flash_image(path, firmware, base_image=None):
    """Flash file = ``base_image`` (or erased flash) with ``firmware`` written at 0,
    as dragging a UF2 onto a Pico keeps its filesystem."""
    image = bytearray(b"\xff" * FLASH_SIZE)
    if base_image is not None:
        image[:len(base_image)] = base_image[:FLASH_SIZE]
    image[:len(firmware)] = firmware
    tmp = str(path) + ".tmp"
    with open(tmp, "wb") as handle:
        handle.write(image)
    os.replace(tmp, path)


def supply_args(power, volts):
    """Runner arguments that set the ADC channel of the board's supply pin to what
    ``volts`` (None: USB power) reads as through its divider (12 bits, 3.3 V)."""
    if power["adc"] is None:
        return []
    supply = VSYS_ON_USB if volts is None else volts
    value = min(max(int(supply / power["divider"] * 4095 / 3.3 + 0.5), 0), 4095)
    return ["--adc-channel", str(power["adc"] - 26), "--adc-value", str(value)]


class VirtualPico:
    """One virtual handheld.  ``start()`` powers it on (paused: call ``run_for`` or
    ``run_free``); ``power_off()`` saves the flash to ``flash_path``.

    ``oled_address``: "board" (the board file's), an int, or None (no display).
    ``battery``: the supply in volts a board that reads one sees on its ADC pin
    (through the board's divider); None: USB power (VSYS_ON_USB)."""

    def __init__(self, flash_path, board="pico-ssd1306", oled_address="board",
                 firmware=None, boards_dir=None, battery=None):
        import host_tools.core.fwpath  # noqa: F401
        import boardcfg

        self.flash_path = Path(flash_path)
        self.fw_dir = require_firmware_dir()
        try:
            self.cfg = boardcfg.load(board, str(boards_dir or ROOT / "boards"))
        except boardcfg.BoardError as exc:
            raise VPicoError(str(exc)) from None
        self.runtime = self.cfg.get("runtime", "micropython")
        if self.cfg.get("mcu", "rp2040") != "rp2040" or self.runtime not in ("micropython", "circuitpython"):
            raise VPicoError("board %s is not an RP2040 running MicroPython or CircuitPython: the "
                             "virtual Pico emulates an RP2040 only" % self.cfg["name"])
        disp = self.cfg["display"]
        if oled_address == "board":
            oled_address = self.cfg["i2c"]["address"]
        self.oled_address = oled_address
        from host_tools.emulation.oledmodel import OledModel
        self.oled = OledModel(disp["controller"], disp["width"], disp["height"],
                              oled_address if oled_address is not None else 0)
        self.adc_args = supply_args(self.cfg["power"], battery)
        self.button_pins = {}
        for spec in self.cfg["buttons"].values():
            self.button_pins.setdefault(spec["as"], []).append(
                (spec["pin"], 1 if spec["pull"] == "down" else 0))
        if firmware is None and self.runtime == "circuitpython":
            firmware = CIRCUITPYTHON_UF2
        if not self.flash_path.exists() or firmware is not None:
            fw = read_firmware(firmware or self.fw_dir / "firmware.bin")
            base = self.flash_path.read_bytes() if self.flash_path.exists() else None
            write_flash_image(self.flash_path, fw, base)
        self.proc = None
        self._lock = threading.Condition()
        self._off_lock = threading.RLock()     # one thread at a time powers off / closes
        self._serial = bytearray()
        self._pty_master = None
        self._pty_slave = None
        self._relay = None
        self.pty_path = None
        self.now_ns = 0
        self.flash_ops = 0
        self.wait_ns = 0
        self.flash_erased = 0
        self.flash_programmed = 0
        self.resets = 0
        self.usb_up = False
        self.exited = False
        self.i2c_transactions = 0
        self.i2c_bytes = 0
        self.console = bytearray()      # everything the device wrote on its serial console
        self.led = 0                    # the on-board LED (GP25): 1 on
        self.led_blinks = 0             # times it turned on
        self.led_changed_ns = 0
        self._reached = None
        self._query = None
        self.uart_out = bytearray()     # what the device wrote to UART0 (the link cable), not yet taken

    # -- process ------------------------------------------------------------------------
    def start(self, hold=()):
        """Power on (with the named buttons held at power-on, e.g. ("b",) for safe
        mode).  The chip stays paused until run_for/run_until/run_free."""
        node = node_binary()
        i2c = self.cfg["i2c"]
        cmd = [node, str(RUNNER), "--bootrom", str(self.fw_dir / "bootrom.bin"),
               "--flash-file", str(self.flash_path), "--i2c-bus", str(i2c["bus"]),
               "--sda", str(i2c["sda"]), "--scl", str(i2c["scl"]),
               "--oled-address", "none" if self.oled_address is None else str(self.oled_address)
               ] + self.adc_args
        if self.runtime == "circuitpython":
            cmd += ["--qspi-ss-pullup", "1"]
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, cwd=str(ROOT))
        self.exited = False
        self.usb_up = False
        self.led = 0
        self.oled.reset()
        self.oled.ram[:] = bytes(len(self.oled.ram))
        self._reader = threading.Thread(target=self._read_frames, daemon=True)
        self._reader.start()
        self.set_buttons(hold)
        return self

    def _send(self, kind, payload=b""):
        if self.proc is None:
            return
        try:
            self.proc.stdin.write(kind.encode() + struct.pack("<I", len(payload)) + bytes(payload))
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError):
            pass

    def _read_frames(self):
        out = self.proc.stdout
        while True:
            head = out.read(5)
            if len(head) < 5:
                break
            body = out.read(struct.unpack_from("<I", head, 1)[0])
            kind = chr(head[0])
            if kind == "S":
                if self._pty_master is not None:
                    try:
                        os.write(self._pty_master, body)
                    except OSError:
                        pass
                with self._lock:
                    self._serial += body
                    self.console += body
                    self._lock.notify_all()
            elif kind == "I":
                self.i2c_transactions += 1
                self.i2c_bytes += len(body) - 1
                self.oled.write(body[1:])
            elif kind == "Q":
                with self._lock:
                    self._query = struct.unpack("<QIQII", body)
                    self._lock.notify_all()
            elif kind in "TX":
                t, ops = struct.unpack("<QI", body)
                with self._lock:
                    self.now_ns, self.flash_ops = t, ops
                    self._reached = t
                    if kind == "X":
                        self.exited = True
                    self._lock.notify_all()
            elif kind == "E":
                t, level = struct.unpack("<QB", body)
                with self._lock:
                    if level and not self.led:
                        self.led_blinks += 1
                    self.led = level
                    self.led_changed_ns = t
            elif kind == "R":
                with self._lock:
                    self.resets += 1
                    self.usb_up = False
                    self._lock.notify_all()
            elif kind == "W":
                with self._lock:
                    self.uart_out += body
            elif kind == "U":
                with self._lock:
                    self.usb_up = True
                    self._lock.notify_all()
        with self._lock:
            self.exited = True
            self._lock.notify_all()

    def _wait(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        with self._lock:
            while not predicate():
                if self.exited and not predicate():
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._lock.wait(min(left, 0.5))
        return True

    def _check_alive(self):
        if self.exited:
            err = self.proc.stderr.read().decode(errors="replace").strip() if self.proc else ""
            raise VPicoError("the virtual Pico stopped%s" % (": " + err.splitlines()[-1] if err else ""))

    # -- time -----------------------------------------------------------------------------
    def run_until(self, nanos, timeout=600):
        """Run until the emulated clock reads ``nanos`` (deterministic stepping)."""
        with self._lock:
            self._reached = None
        self._send("L", struct.pack("<Q", int(nanos)))
        if not self._wait(lambda: self._reached is not None, timeout):
            self._check_alive()
            raise VPicoError("the virtual Pico did not reach %.1f ms within %d s" % (nanos / MS, timeout))
        return self.now_ns

    def run_for(self, ms, timeout=600):
        return self.run_until(self.now_ns + int(ms * MS), timeout)

    def query(self, timeout=30):
        """(emulated nanoseconds, flash operations so far), also while running free;
        ``wait_ns`` then holds the emulated time the core spent halted in WFI/WFE
        (the rest of ``now_ns`` it was executing instructions), ``flash_erased`` and
        ``flash_programmed`` the bytes erased and programmed since power-on (a real
        flash chip takes ms for them; here they take no time)."""
        with self._lock:
            self._query = None
        self._send("Q")
        if not self._wait(lambda: self._query is not None, timeout):
            self._check_alive()
            raise VPicoError("the virtual Pico did not answer a query")
        self.now_ns, self.flash_ops, self.wait_ns, self.flash_erased, self.flash_programmed = self._query
        return self._query[:2]

    def run_until_off(self, emulated_ms, step_ms=20):
        """Step until the power goes off (an armed cut fires); False if it did not
        within ``emulated_ms``."""
        end = self.now_ns + emulated_ms * MS
        while self.now_ns < end and not self.exited:
            try:
                self.run_for(step_ms)
            except VPicoError:
                if self.exited:
                    break
                raise
        if not self.exited:
            return False
        self.wait_off()
        return True

    def run_free(self):
        """Run without pausing (for the pty bridge and interactive use)."""
        self._send("L", struct.pack("<Q", 2 ** 63))

    # -- inputs -----------------------------------------------------------------------------
    def take_uart(self):
        """The bytes the device wrote to UART0 since the last call."""
        with self._lock:
            data = bytes(self.uart_out)
            self.uart_out.clear()
        return data

    def feed_uart(self, data):
        """Bytes arriving on UART0's RX (paced by the runner at 115,200 baud)."""
        if data:
            self._send("V", bytes(data))

    def set_buttons(self, names):
        """Press exactly these buttons (names up/down/left/right/a/b); others released
        (left to the pad's pull-up, as a real open switch)."""
        names = set(names)
        levels = []
        for name, pins in self.button_pins.items():
            for pin, pressed in pins:
                levels += [pin, pressed if name in names else 2]
        self._send("G", bytes(levels))

    def write_serial(self, data):
        self._send("S", data)

    def take_serial(self):
        with self._lock:
            data = bytes(self._serial)
            self._serial.clear()
        return data

    # -- power ------------------------------------------------------------------------------
    def cut_after_flash_ops(self, n):
        """Cut the power right after ``n`` more flash erase/program operations."""
        self._send("K", struct.pack("<I", n))

    def set_battery(self, volts):
        """The supply the board's ADC pin reads from now on (``volts``; None: USB),
        as ``battery`` at power-on."""
        args = supply_args(self.cfg["power"], volts)
        if args:
            self._send("A", struct.pack("<H", int(args[3])))

    def cut_at(self, nanos):
        """Cut the power when the emulated clock reaches ``nanos``."""
        self._send("C", struct.pack("<Q", int(nanos)))

    def power_off(self, timeout=60):
        """Cut the power now; the flash file keeps what was written."""
        with self._off_lock:
            if self.proc is None:
                return
            if not self.exited:
                self._send("P")
            self.wait_off(timeout)

    def wait_off(self, timeout=600):
        """Wait until the chip is off, then reap the runner.  Safe from two threads
        at once (a test's watcher and its teardown): the second finds it done."""
        with self._off_lock:
            if self.proc is None:
                return
            if not self._wait(lambda: self.exited, timeout):
                raise VPicoError("the virtual Pico did not power off within %d s" % timeout)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                try:
                    stream.close()
                except (OSError, ValueError):
                    pass
            self.proc = None

    def close(self):
        with self._off_lock:
            if self.proc is not None:
                try:
                    self.power_off()
                except VPicoError:
                    self.proc.kill()
                    self.proc = None
            relay, self._relay = self._relay, None
            if relay is not None:
                relay.join()       # before closing: a reused fd number must not be read
            for fd in (self._pty_master, self._pty_slave):
                if fd is not None:
                    os.close(fd)
            self._pty_master = self._pty_slave = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- the serial console ----------------------------------------------------------------
    def open_pty(self):
        """Bridge the USB serial console to a pseudo-terminal; returns its path
        (give it to mpremote / --port).  The chip must be running (run_free)."""
        import tty
        master, slave = os.openpty()
        tty.setraw(slave)
        self._pty_master, self._pty_slave = master, slave
        self.pty_path = os.ttyname(slave)
        self._relay = threading.Thread(target=self._relay_pty, daemon=True)
        self._relay.start()
        return self.pty_path

    def _relay_pty(self):
        master = self._pty_master
        while self._relay is not None:
            try:
                ready = select.select([master], [], [], 0.2)[0]
                if ready:
                    data = os.read(master, 4096)
                    if data:
                        self.write_serial(data)
            except OSError:
                return

    def wait_serial(self, marker, emulated_ms=5000, step_ms=20, timeout=600):
        """Step the chip until ``marker`` appears in the serial output (consumed up to
        and including it); returns the bytes before it, or raises VPicoError."""
        end = self.now_ns + emulated_ms * MS
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                at = self._serial.find(marker)
                if at >= 0:
                    before = bytes(self._serial[:at])
                    del self._serial[:at + len(marker)]
                    return before
            if self.now_ns >= end or time.monotonic() > deadline:
                tail = bytes(self._serial[-200:]).decode(errors="replace")
                raise VPicoError("no %r from the virtual Pico within %d ms emulated; last output: %r"
                                 % (marker, emulated_ms, tail))
            self.run_for(step_ms)

    def wait_booted(self, emulated_ms=5000):
        """Step until the boot is over: USB is up and the firmware either idles in
        its main loop (the driver's clearing frame and a first screen drawn, then
        50 ms without I2C: the launcher redraws only on change), sits at the REPL
        prompt, or said "safe mode" / printed a traceback.  Returns the serial
        output of the boot (kept in the buffer too)."""
        end = self.now_ns + emulated_ms * MS
        drawn = False
        while self.now_ns < end:
            before = self.i2c_transactions
            self.run_for(50)
            with self._lock:
                out = bytes(self._serial)
            if not self.usb_up:
                continue
            if b"safe mode" in out or b"Traceback" in out or out.rstrip().endswith(b">>>"):
                break
            if drawn and self.i2c_transactions == before:
                break
            drawn = drawn or (self.oled.display_on and self.oled.data_bytes >= 2048)
        if not self.usb_up:
            raise VPicoError("the virtual Pico's USB did not come up within %d ms" % emulated_ms)
        return out.decode(errors="replace")

    def boot_to_repl(self, emulated_ms=5000):
        """Boot, interrupt whatever runs (main.py) and enter the raw REPL."""
        self.wait_booted(emulated_ms)
        for _ in range(10):
            self.take_serial()
            self.write_serial(b"\r\x03\x03")
            self.run_for(30)
            self.take_serial()
            self.write_serial(b"\r\x01")
            try:
                self.wait_serial(b"raw REPL; CTRL-B to exit\r\n>", 300)
                return
            except VPicoError:
                continue
        raise VPicoError("the virtual Pico does not answer Ctrl-C / Ctrl-A (no raw REPL)")

    def start_at_repl(self, emulated_ms=5000):
        """Power on with B held (the firmware's safe mode: boot.py runs, main.py
        returns at once), enter the raw REPL and release B: for work that needs the
        REPL, not the launcher (~0.35 s of emulated boot, the launcher's ~0.7 s).
        Returns the boot's serial output."""
        self.start(hold=("b",))
        out = self.wait_booted(emulated_ms)
        self.set_buttons(())
        self.boot_to_repl(emulated_ms)
        return out

    def exec(self, code, emulated_ms=60000, timeout=600):
        """Run ``code`` in the raw REPL; returns its printed output (str).  A Python
        exception in the guest raises VPicoError with the guest's traceback."""
        self.take_serial()
        self.write_serial(code.encode() + b"\x04")
        self.wait_serial(b"OK", 2000, timeout=timeout)
        out = self.wait_serial(b"\x04", emulated_ms, step_ms=50, timeout=timeout)
        err = self.wait_serial(b"\x04", 2000, timeout=timeout)
        self.wait_serial(b">", 2000, timeout=timeout)
        if err:
            raise VPicoError("guest error:\n" + err.decode(errors="replace"))
        return out.decode(errors="replace")

    def write_file(self, name, data):
        """Write one file onto the guest filesystem (raw REPL, in base64 pieces as
        flash's devicefs writes)."""
        from host_tools.device.devicefs import write_exchanges

        for code in write_exchanges(name, data):
            self.exec(code)

    def frame_pixels(self):
        return self.oled.pixels()

    def image(self, scale=4):
        return self.oled.image(scale)


# -- the fast helper API ------------------------------------------------------------------
def _compile(src_path, mpy):
    """Device bytes for one file: .py as is, or .mpy from mpy-cross -march=armv6m."""
    src_path = Path(src_path)
    if not mpy or src_path.suffix != ".py" or src_path.name in ("main.py", "boot.py"):
        return src_path.name, src_path.read_bytes()
    from host_tools.core.build import mpy_cross_default
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / (src_path.stem + ".mpy")
        proc = subprocess.run([mpy_cross_default(), "-march=armv6m", "-o", str(out),
                               "-s", src_path.stem, str(src_path)], capture_output=True, text=True)
        if proc.returncode:
            raise VPicoError("mpy-cross failed on %s: %s" % (src_path.name, proc.stderr.strip()))
        return out.name, out.read_bytes()


def device_files(files=None, mpy=False):
    """{device name: bytes} from a list of paths, or a dict name -> bytes/path."""
    result = {}
    if files is None:
        return result
    if isinstance(files, dict):
        for name, value in files.items():
            if isinstance(value, (bytes, bytearray)):
                result[name] = bytes(value)
            else:
                dev_name, data = _compile(value, mpy and name.endswith(".py"))
                result[dev_name if mpy else name] = data
    else:
        for path in files:
            dev_name, data = _compile(path, mpy)
            result[dev_name] = data
    return result


def blank_image(board="pico-ssd1306"):
    """A cached flash image: firmware + the empty littlefs the firmware formats on
    its first boot."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    fw = require_firmware_dir() / "firmware.bin"
    key = hashlib.sha256(fw.read_bytes()).hexdigest()[:16]
    path = CACHE_DIR / ("blank-%s.img" % key)
    if not path.exists():
        tmp = CACHE_DIR / ("blank-%s.%d.img" % (key, os.getpid()))
        with VirtualPico(tmp, board=board) as pico:
            pico.start()
            pico.boot_to_repl()
        os.replace(tmp, path)
    return path


def provisioned_image(files, board="pico-ssd1306"):
    """A cached flash image with ``files`` ({name: bytes}) on the filesystem."""
    blank = blank_image(board)
    digest = hashlib.sha256(blank.name.encode())
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256(files[name]).digest())
    path = CACHE_DIR / ("fs-%s.img" % digest.hexdigest()[:16])
    if not path.exists():
        tmp = CACHE_DIR / ("fs-%s.%d.img" % (digest.hexdigest()[:16], os.getpid()))
        shutil.copyfile(blank, tmp)
        with VirtualPico(tmp, board=board) as pico:
            pico.start()
            pico.boot_to_repl()
            folders = sorted({name.rsplit("/", 1)[0] for name in files if "/" in name})
            for folder in folders:       # e.g. saves/ for flash's Klotski tables
                pico.exec("import os\ntry:\n os.mkdir(%r)\nexcept OSError:\n pass" % folder)
            for name in sorted(files):
                pico.write_file(name, files[name])
        os.replace(tmp, path)
    return path


class booted:
    """``with booted(files, mpy=True) as pico: pico.exec(code)``: a fresh virtual Pico
    (its own copy of a cached flash image with ``files``) in the raw REPL."""

    def __init__(self, files=None, mpy=False, board="pico-ssd1306", oled_address="board"):
        self.files = device_files(files, mpy)
        self.board = board
        self.oled_address = oled_address

    def __enter__(self):
        image = provisioned_image(self.files, self.board)
        self._tmp = tempfile.TemporaryDirectory(prefix="vpico-")
        flash = Path(self._tmp.name) / "flash.img"
        shutil.copyfile(image, flash)
        self.pico = VirtualPico(flash, board=self.board, oled_address=self.oled_address)
        self.pico.start()
        self.pico.boot_to_repl()
        return self.pico

    def __exit__(self, *exc):
        try:
            self.pico.close()
        finally:
            self._tmp.cleanup()


def run_snippet(code, files=None, mpy=False, board="pico-ssd1306", emulated_ms=60000):
    """Run ``code`` on a freshly booted virtual Pico whose filesystem holds ``files``
    (paths, or {name: bytes|path}); ``mpy=True`` compiles .py files with
    mpy-cross -march=armv6m (native/viper work).  Returns the printed output."""
    with booted(files, mpy, board) as pico:
        return pico.exec(code, emulated_ms=emulated_ms)
