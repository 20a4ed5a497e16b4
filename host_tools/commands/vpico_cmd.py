"""`python -m host_tools vpico`: the handheld on a virtual Pico.

The official MicroPython RPI_PICO firmware runs in the rp2040js RP2040 emulator
(host_tools/emulation/vpico.py); the OLED, the buttons and the USB serial console are
wired as the board file says.  The game firmware gets onto the virtual flash
the way a maker's does: ``flash`` over the USB serial console (mpremote), into
a flash image kept under build/vpico/ and flashed again only when firmware/
or the board file changed (saves survive, as on a real handheld).

Front ends and key scripts are the simulator's (host_tools/emulation/sim.py); one tick
is 1/30 s of emulated time.  ``--serve`` keeps the device running and prints
the pty path for mpremote, ``flash --port`` and ``doctor --port``.
"""

import hashlib
import os
import shutil
import sys
import time
from pathlib import Path

from host_tools.emulation import sim
from host_tools.core import UserError

TICK_NS = 1_000_000_000 // 30
BOOT_LIMIT_MS = 5000
CP_BOOT_LIMIT_MS = 12000    # CircuitPython waits 1 s for a safe-mode press, then starts code.py
CP_DEFAULT_BOARD = "pico-cp-ssd1306"
STATUS_TAIL = 256           # bytes of console the status line looks at


def firmware_stamp(board, boards_dir, image_firmware):
    """What the provisioned image must match: firmware/ sources, the board file and
    the MicroPython image."""
    from host_tools.core.boards import load_board
    from host_tools.core.fwpath import FIRMWARE_DIR

    digest = hashlib.sha256()
    for src in sorted(Path(FIRMWARE_DIR).iterdir()):
        if src.is_file() and not src.name.startswith("."):
            digest.update(src.name.encode() + b"\0" + src.read_bytes())
    _, raw = load_board(board, boards_dir)
    digest.update(raw if isinstance(raw, bytes) else str(raw).encode())
    digest.update(image_firmware)
    return digest.hexdigest()


def provision(image, board, firmware=None, boards_dir=None, log=print):
    """Make sure ``image`` holds MicroPython and the current game firmware, flashed
    with ``flash`` over the pty (the maker's path); returns the image path.  The
    flashing works on a copy that replaces ``image`` (and then its stamp) only
    when it succeeded: a failed provision leaves the previous image, its saves
    and its stamp as they were."""
    from host_tools.emulation import vpico
    fw_bytes = vpico.read_firmware(firmware or vpico.require_firmware_dir() / "firmware.bin")
    stamp_path = Path(str(image) + ".stamp")
    stamp = firmware_stamp(board, boards_dir, fw_bytes)
    if Path(image).exists() and stamp_path.exists() and stamp_path.read_text() == stamp:
        return image
    Path(image).parent.mkdir(parents=True, exist_ok=True)
    log("vpico: flashing the firmware onto the virtual Pico (%s) ..." % image)
    started = time.monotonic()
    work = Path("%s.%d.tmp" % (image, os.getpid()))
    if Path(image).exists():
        shutil.copyfile(image, work)
    else:
        work.unlink(missing_ok=True)
    try:
        _flash_onto(work, board, firmware, boards_dir)
        os.replace(work, image)
    finally:
        work.unlink(missing_ok=True)
    stamp_path.write_text(stamp)
    log("vpico: flashed in %.0f s" % (time.monotonic() - started))
    return image


def _flash_onto(image, board, firmware, boards_dir):
    """Boot ``image`` with ``firmware`` and flash the game onto it over the pty."""
    from host_tools.device import usbserial, mpflash

    from host_tools.emulation import vpico
    pico = vpico.VirtualPico(image, board=board, firmware=firmware, boards_dir=boards_dir)
    try:
        pico.start()
        pico.wait_booted()
        pico.run_free()
        port = pico.open_pty()
        dev = usbserial.connect(port)
        try:
            mpflash.flash_micropython(dev, board, boards_dir=boards_dir, log=lambda line: None)
        finally:
            dev.close()
        resets = pico.resets
        pico._wait(lambda: pico.resets > resets, 60)
    finally:
        pico.close()


class VpicoSim:
    """The simulator's front-end interface (step/image/oled) on a virtual Pico."""

    runtime = None            # the firmware's runtime lives inside the emulator

    def __init__(self, pico, cfg, echo=None):
        self.pico = pico
        self.oled = pico.oled
        self.cfg = cfg
        self.ticks = 0
        self.t0 = pico.now_ns
        self.echo = echo            # print(line) for each console line, as a serial monitor
        self._echoed = 0

    def console_lines(self):
        """The device's complete console lines not echoed yet."""
        new = bytes(self.pico.console[self._echoed:])
        end = new.rfind(b"\n") + 1
        new = new[:end]
        self._echoed += end
        return [line.rstrip("\r") for line in new.decode("utf-8", "replace").split("\n") if line.strip()]

    def led_status(self):
        return "LED %s (%d blink%s)" % ("ON " if self.pico.led else "off", self.pico.led_blinks,
                                       "" if self.pico.led_blinks == 1 else "s")

    def status(self):
        """The LED and the console's last line, for the front ends' status line
        (asked every frame: only the console's tail is read)."""
        lines = bytes(self.pico.console[-STATUS_TAIL:]).decode("utf-8", "replace").strip().splitlines()
        return self.led_status() + ("  console: " + lines[-1].strip() if lines else "")

    def boot(self, hold=()):
        """Power on with ``hold`` pressed until the boot is over
        (VirtualPico.wait_booted); returns the boot's serial output."""
        pico = self.pico
        pico.start(hold=hold)
        out = pico.wait_booted(CP_BOOT_LIMIT_MS if pico.runtime == "circuitpython" else BOOT_LIMIT_MS)
        pico.take_serial()
        pico.set_buttons(())
        self.t0 = pico.now_ns
        return out

    def step(self, keys=()):
        self.pico.set_buttons(keys)
        self.ticks += 1
        self.pico.run_until(self.t0 + self.ticks * TICK_NS)
        if self.echo is not None:
            for line in self.console_lines():
                self.echo(line)

    def image(self, scale=4):
        return self.pico.image(scale)


def _oled_address(text):
    if text is None:
        return "board"
    if text.lower() == "none":
        return None
    try:
        value = int(text, 0)
    except ValueError:
        raise UserError("bad --oled-address %r (use e.g. 0x3C, or none)" % text) from None
    if not 0 < value < 0x80:
        raise UserError("--oled-address must be a 7-bit I2C address, got %r" % text)
    return value


def _board_for_runtime(args):
    """The board file to run: ``--board``, or for ``--runtime circuitpython`` without
    one the CircuitPython wiring of the default build; the two must agree."""
    from host_tools.core.boards import board_runtime
    board = args.board
    if args.runtime is None:
        args.runtime = board_runtime(board) or "micropython"     # an unknown board is named later
        if args.runtime not in ("micropython", "circuitpython"):
            raise UserError("board %s runs %s: the virtual Pico runs MicroPython or CircuitPython "
                            "boards" % (board, args.runtime))
        return board
    if args.runtime == "circuitpython" and board == "pico-ssd1306":
        board = CP_DEFAULT_BOARD
    if board_runtime(board) not in (None, args.runtime):
        raise UserError("board %s is a %s board, not %s: choose a matching --board"
                        % (board, board_runtime(board), args.runtime))
    if args.runtime == "circuitpython" and args.firmware:
        raise UserError("--firmware takes a MicroPython image; the virtual CircuitPython Pico "
                        "runs third_party/circuitpython/firmware.uf2")
    return board


def _second_image(image):
    """The other handheld's flash for ``--link``: a copy of ``image`` made again
    whenever the firmware on ``image`` changed (its saves are kept otherwise)."""
    other = Path(str(image).replace(".img", "-b.img"))
    stamp = Path(str(image) + ".stamp")
    other_stamp = Path(str(other) + ".stamp")
    want = stamp.read_text() if stamp.exists() else ""
    if not other.exists() or not other_stamp.exists() or other_stamp.read_text() != want:
        shutil.copyfile(image, other)
        other_stamp.write_text(want)
    return other


def run_linked(args, image, board):
    """``--link``: two virtual Picos wired by the link cable (host_tools/emulation/vplink.py),
    headless: ``--keys`` plays on the first, ``--keys-b`` on the second; the
    screenshot shows both screens side by side."""
    from host_tools.core.keyscript import key_script
    from host_tools.emulation import vpico
    from host_tools.emulation.vplink import TwoPicos

    script_a = key_script(args.keys, args.keys_file)
    script_b = key_script(args.keys_b, None)
    picos = [vpico.VirtualPico(path, board=board) for path in (image, _second_image(image))]
    started = time.monotonic()
    try:
        for p in picos:
            p.start()
        two = TwoPicos(*picos)
        two.step(ticks=int(BOOT_LIMIT_MS / 1000 * 30 / 2))       # both boot (~1.2 s)
        two.run_script(script_a, script_b)
        rest = (args.ticks or 0) - len(script_a) - len(script_b)
        if rest > 0 or not (script_a or script_b):
            two.step(ticks=max(rest, 30))
        for name, p in zip("AB", picos):
            for line in p.console.decode("utf-8", "replace").splitlines():
                if line.strip():
                    print("console %s> %s" % (name, line.rstrip()))
        if args.screenshot:
            from PIL import Image

            left, right = (p.image(args.scale) for p in picos)
            both = Image.new(left.mode, (left.width * 2 + 4 * args.scale, left.height))
            both.paste(left, (0, 0))
            both.paste(right, (left.width + 4 * args.scale, 0))
            sim.save_image(both, args.screenshot)
            print("screenshot: %s" % args.screenshot)
        print("two virtual Picos linked: %.2f s emulated in %.1f s wall, %d + %d bytes carried"
              % (two.ms / 1000, time.monotonic() - started, two.cable.carried[0], two.cable.carried[1]))
        return 0
    finally:
        for p in picos:
            p.close()


def run_vpico(args):
    from host_tools.emulation import vpico

    script, frontend = sim.run_options(args)
    address = _oled_address(args.oled_address)
    board = _board_for_runtime(args)
    if args.link:
        if args.runtime != "micropython":
            raise UserError("--link: the virtual Pico links MicroPython boards only")
        if args.gif or args.serve or args.frontend not in ("auto", "headless"):
            raise UserError("--link runs headless: --keys, --keys-b, --ticks, --screenshot (both screens)")
    elif args.keys_b:
        raise UserError("--keys-b is the second handheld's script: add --link")
    if args.romfs:
        if args.firmware or args.runtime != "micropython":
            raise UserError("--romfs boots third_party/rp2040-romfs (MicroPython): no --firmware, "
                            "no CircuitPython")
        args.firmware = str(vpico.ROMFS_FIRMWARE)
    try:
        image = Path(args.flash_image) if args.flash_image else vpico.CACHE_DIR / (
            "%s%s.img" % (board, "-romfs" if args.romfs else ""))
        if args.no_provision:
            pass
        elif args.runtime == "circuitpython":
            from host_tools.emulation import vpcircuitpy
            vpcircuitpy.provision(image, board)
        else:
            provision(image, board, args.firmware)
        if args.link:
            return run_linked(args, image, board)
        pico = vpico.VirtualPico(image, board=board, oled_address=address,
                                 firmware=args.firmware if args.no_provision else None,
                                 battery=args.battery)
        if args.serve:
            return _serve(pico)
        echo = (lambda line: print("console> " + line)) if frontend == "headless" else None
        adapter = VpicoSim(pico, pico.cfg, echo=echo)
        started = time.monotonic()
        try:
            boot_log = adapter.boot(hold=("b",) if args.safe_mode else ())
            if echo is None and ("Traceback" in boot_log or "safe mode" in boot_log):
                print(boot_log.strip())
            if frontend == "headless":
                for line in adapter.console_lines():      # what the boot printed
                    echo(line)
                code = sim.run_headless(adapter, script, args.ticks, args.screenshot, args.gif, args.scale)
            elif frontend in ("window", "pygame"):
                code = sim.run_pygame(adapter, args.scale, args.ticks or None)
            else:
                code = sim.run_terminal(adapter, args.ticks or None)
            print("virtual Pico: %.2f s emulated in %.1f s wall, I2C %d bytes in %d transactions; %s"
                  % (pico.now_ns / 1e9, time.monotonic() - started, pico.i2c_bytes, pico.i2c_transactions,
                     adapter.led_status()))
            return code
        finally:
            pico.close()
    except vpico.VPicoError as exc:
        raise UserError(str(exc)) from None


def _serve(pico):
    pico.start()
    pico.wait_booted(BOOT_LIMIT_MS)   # a real port appears once the board is up
    pico.run_free()
    port = pico.open_pty()
    print("virtual Pico serial port: %s  (Ctrl-C powers it off; flash kept in %s)"
          % (port, pico.flash_path), flush=True)
    try:
        while not pico.exited:
            time.sleep(0.5)
        print("the virtual Pico stopped", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        pico.close()


def register(subparsers):
    p = subparsers.add_parser(
        "vpico", help="run the handheld on a virtual Pico (MicroPython in the rp2040js emulator)",
        description="The official MicroPython RPI_PICO firmware in an emulated RP2040, with the "
                    "board file's OLED and buttons; the game firmware is flashed onto it over "
                    "its USB serial console like a real handheld.")
    p.add_argument("--board", default="pico-ssd1306", help="board name from boards/ (default pico-ssd1306)")
    p.add_argument("--runtime", choices=("micropython", "circuitpython"),
                   help="the firmware the virtual Pico runs (default: the board file's); "
                        "circuitpython runs CircuitPython 10.2.1 (third_party/circuitpython) with "
                        "the game deployed onto its CIRCUITPY drive (default board pico-cp-ssd1306)")
    p.add_argument("--firmware", help="MicroPython image: the official RPI_PICO .uf2 or a .bin "
                                      "(default: the one in third_party/rp2040)")
    p.add_argument("--romfs", action="store_true",
                   help="MicroPython with a ROMFS partition (third_party/rp2040-romfs): flash puts "
                        "the modules in /rom (docs/romfs.md); its own flash image, "
                        "build/vpico/BOARD-romfs.img")
    p.add_argument("--flash-image", help="the virtual Pico's 2 MB flash file "
                                         "(default build/vpico/BOARD.img, kept between runs)")
    p.add_argument("--no-provision", action="store_true",
                   help="do not flash the game firmware first (boot the flash image as it is)")
    p.add_argument("--serve", action="store_true",
                   help="keep running and print the serial port (pty) for mpremote/flash/doctor")
    p.add_argument("--frontend", choices=("auto", "window", "pygame", "terminal", "headless"), default="auto")
    p.add_argument("--keys", help='key script, e.g. "down a right right wait:30"')
    p.add_argument("--keys-file", help="key script from a file")
    p.add_argument("--ticks", type=int, help="run this many ticks (1/30 s emulated each)")
    p.add_argument("--screenshot", help="write the final screen as PNG")
    p.add_argument("--gif", help="write an animated GIF of the run")
    p.add_argument("--scale", type=int, default=4, help="pixel scale for window/images")
    p.add_argument("--safe-mode", action="store_true", help="hold B at power-on")
    p.add_argument("--battery", type=float, metavar="VOLTS",
                   help="the supply a battery board reads on its ADC pin, e.g. 3.7 (default: USB power)")
    p.add_argument("--oled-address", help="I2C address the OLED answers at (default the board "
                                          "file's; 'none' = no display attached)")
    p.add_argument("--link", action="store_true",
                   help="two virtual Picos wired by the link cable (headless: --keys plays on "
                        "the first, --keys-b on the second; --screenshot shows both)")
    p.add_argument("--keys-b", help="with --link: the second handheld's key script")
    p.set_defaults(func=run_vpico)
