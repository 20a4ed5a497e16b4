"""The handheld on a virtual Pico: the official MicroPython RPI_PICO firmware in
the rp2040js emulator (host_tools/emulation/vpico.py).

One session image, shared by the xdist workers through a file lock: a blank Pico
in BOOTSEL mode (a fake RPI-RP2 drive) taken to its game by one ``flash``: the
UF2 it copies to the drive boots the virtual Pico, whose serial port (a pty)
``flash`` then finds and flashes the game over with mpremote.  Then:
the flashed device boots to the launcher; a save survives machine.reset() and
power cuts in the middle of a save write; a power cut in the middle of ``flash``
leaves a device that boots; ``doctor --port PTY`` reports the board.
"""

import contextlib
import fcntl
import io
import os
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from host_tools import cli as host_cli
from host_tools.commands.vpico_cmd import VpicoSim
from host_tools.device import bootsel, usbserial
from host_tools.emulation import vpico

ROOT = Path(__file__).resolve().parent.parent
BOARD = "pico-ssd1306"

pytestmark = pytest.mark.device


def cli(*argv, timeout=600):
    return subprocess.run([sys.executable, "-m", "host_tools", *argv], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def serve(image):
    """A running virtual Pico on ``image`` with its console on a pty."""
    pico = vpico.VirtualPico(image, board=BOARD)
    pico.start()
    pico.wait_booted()
    pico.run_free()
    return pico, pico.open_pty()


def flash_with_a_bootsel_drive(folder, image, argv, running=None, usb_ports=None):
    """``flash ARGV --uf2-drive DRIVE`` in this process with a fake RPI-RP2 drive in
    ``folder``: when the UF2 lands there, ``running`` (a virtual Pico that went into
    BOOTSEL mode, if any) stops, and a virtual Pico boots ``image`` from exactly that
    file; its pty becomes the MicroPython port flash waits for.  ``usb_ports``: what
    flash's port listing sees (None: left alone).  Returns (exit code, output,
    the new board's ports, wall seconds)."""
    drive = folder / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    ports, picos = [], [] if running is None else [running]
    flash_done = threading.Event()

    def board_boots_from_the_uf2():
        uf2 = drive / "micropython.uf2"
        size = bootsel.SHIPPED_UF2.stat().st_size
        while not (uf2.exists() and uf2.stat().st_size == size):
            if flash_done.is_set():
                return
            time.sleep(0.05)
        if running is not None:
            running.close()                     # the board left MicroPython for its ROM
        pico = vpico.VirtualPico(image, board=BOARD, firmware=uf2)
        picos.append(pico)
        pico.start()
        pico.wait_booted()
        pico.run_free()
        ports.append(pico.open_pty())

    watcher = threading.Thread(target=board_boots_from_the_uf2, daemon=True)
    watcher.start()
    out = io.StringIO()
    started = time.monotonic()
    try:
        with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(out):
            if usb_ports is not None:
                mp.setattr(usbserial, "list_ports", lambda: list(usb_ports))
            mp.setattr(bootsel, "micropython_ports", lambda: list(ports))
            # an emulated boot on a busy 2-core CI machine can take longer than a
            # real Pico's ~2 s enumeration that flash's 30 s allows for
            mp.setattr(bootsel, "PORT_WITHIN_S", 300)
            code = host_cli.main(list(argv) + ["--uf2-drive", str(drive)])
        wall = time.monotonic() - started
    finally:
        flash_done.set()
        watcher.join()                          # it owns the boot it may be in the middle of
        for pico in picos:
            pico.close()
    return code, out.getvalue(), ports, wall


def flash_a_blank_pico(folder):
    """`flash --uf2-drive` on a blank Pico in BOOTSEL mode (an erased flash, as a new
    board; USB holds only the drive).  Returns (exit code, output, flash image, wall
    seconds)."""
    work = folder / "flashing.img"
    code, text, _, wall = flash_with_a_bootsel_drive(folder, work, ["flash", "--board", BOARD],
                                                     usb_ports=[])
    return code, text, work, wall


@pytest.fixture(scope="session")
def flashed(tmp_path_factory):
    """(flash image, flash exit code, its output): a blank Pico taken from BOOTSEL
    mode to its game by one `flash` (flash_a_blank_pico), once per test session."""
    base = tmp_path_factory.getbasetemp()
    shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "vpico-session"
    shared.mkdir(exist_ok=True)
    image = shared / "flashed.img"
    log = shared / "flash.log"
    with open(shared / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not image.exists():
            code, text, work, wall = flash_a_blank_pico(shared)
            log.write_text("%d\n%s\nblank to game: %.1f s wall\n" % (code, text, wall))
            work.rename(image)
    code, _, text = log.read_text().partition("\n")
    return image, int(code), text


@pytest.fixture
def device(flashed, tmp_path):
    """A private copy of the flashed image."""
    path = tmp_path / "flash.img"
    shutil.copyfile(flashed[0], path)
    return path


def launcher_frame():
    from host_tools.emulation.sim import Simulator
    sim = Simulator(BOARD)
    sim.step()
    return sim.oled.pixels()


def boot_frame(image, hold=(), then=None):
    """Power on ``image`` like the vpico command: (serial output of the boot, the
    frame on the OLED, and the output of running ``then`` in the raw REPL after)."""
    pico = vpico.VirtualPico(image, board=BOARD)
    try:
        adapter = VpicoSim(pico, pico.cfg)
        out = adapter.boot(hold)
        frame = pico.oled.pixels()
        result = None
        if then is not None:
            pico.boot_to_repl()
            result = pico.exec(then)
        return out, frame, result
    finally:
        pico.close()


def test_a_blank_pico_goes_from_bootsel_to_the_launcher_in_one_flash(flashed, device):
    _, code, text = flashed
    assert code == 0, text
    assert "found a Pico in BOOTSEL mode" in text and "MicroPython is up on /dev/pts/" in text
    assert "MicroPython 1.28.0" in text                        # what the shipped UF2 holds
    assert "flashed firmware fw-" in text and "verified" in text
    assert "answers again after its reset" in text
    out, frame, _ = boot_frame(device)
    assert "Traceback" not in out
    assert frame == launcher_frame()


def test_safe_mode_when_b_held_at_power_on(device):
    out, _, _ = boot_frame(device, hold=("b",))
    assert "safe mode: launcher skipped" in out


SAVE = """
import savestore
s = savestore.Saves()
s.store('probe', {'v': %d, 'pad': 'x' * 300})
"""
LOAD = "import savestore\nprint(repr(savestore.Saves().load('probe')))"


def test_save_survives_machine_reset(device):
    with vpico.VirtualPico(device, board=BOARD) as pico:
        pico.start_at_repl()
        pico.exec(SAVE % 7)
        pico.write_serial(b"import machine\nmachine.reset()\x04")
        pico._wait(lambda: pico.resets > 0 or pico.exited, 0)
        while pico.resets == 0:
            pico.run_for(50)
        pico.boot_to_repl()
        assert eval(pico.exec(LOAD)) == ({"v": 7, "pad": "x" * 300}, "ok")


def _store_with_cut(image, cut_after):
    """Boot ``image`` (holding save v=1), store v=2 with the power cut after
    ``cut_after`` flash operations (None: no cut); returns the flash operations
    the store took when not cut."""
    with vpico.VirtualPico(image, board=BOARD) as pico:
        pico.start_at_repl()
        _, before = pico.query()
        if cut_after is None:
            pico.exec(SAVE % 2)
            return pico.query()[1] - before
        pico.cut_after_flash_ops(cut_after)
        pico.write_serial((SAVE % 2).encode() + b"\x04")
        assert pico.run_until_off(5000), "the cut did not happen"
        return None


def test_power_cut_during_a_save_leaves_old_or_new(device, tmp_path):
    with vpico.VirtualPico(device, board=BOARD) as pico:
        pico.start_at_repl()
        pico.exec(SAVE % 1)
    reference = tmp_path / "ref.img"
    shutil.copyfile(device, reference)
    ops = _store_with_cut(reference, None)
    assert ops >= 4            # data, .new, renames: several erase/program steps
    seen = set()
    for cut in sorted({1, ops // 2, ops - 1}):
        img = tmp_path / ("cut%d.img" % cut)
        shutil.copyfile(device, img)
        _store_with_cut(img, cut)
        out, frame, loaded = boot_frame(img, then=LOAD)
        assert "Traceback" not in out and frame == launcher_frame(), cut
        data, status = eval(loaded)
        assert status in ("ok", "recovered") and data["v"] in (1, 2), (cut, data, status)
        seen.add(data["v"])
    assert seen, "no cut point was tried"


def old_modules(tmp_path):
    """launcher/gfx/runtime .mpy that work like the flashed ones but differ in their
    bytes (another source name inside), so ``flash`` has to stage and switch them."""
    from host_tools.core.build import mpy_cross_default
    files = {}
    for name in ("launcher", "gfx", "runtime"):
        out = tmp_path / (name + ".mpy")
        subprocess.run([mpy_cross_default(), "-o", str(out), "-s", name + "_old.py",
                        str(ROOT / "firmware" / (name + ".py"))], check=True)
        files[name + ".mpy"] = out.read_bytes()
    return files


def test_power_cut_during_flash_leaves_a_bootable_device(device, tmp_path):
    """The device runs an older (working) build of three modules; ``flash`` stages
    the new ones and switches.  A power cut part-way must leave old or new
    firmware, complete: the launcher comes up either way.  (Every step of a
    deploy is cut in tests/test_flash.py against the fake device; this is the
    same on real MicroPython and littlefs.)"""
    with vpico.VirtualPico(device, board=BOARD) as pico:
        pico.start_at_repl()
        for name, data in old_modules(tmp_path).items():
            pico.write_file(name, data)
    old = tmp_path / "old.img"
    shutil.copyfile(device, old)
    assert boot_frame(old)[1] == launcher_frame()     # the old build works

    full = tmp_path / "full.img"
    shutil.copyfile(old, full)
    pico, port = serve(full)
    try:
        _, start = pico.query()
        result = cli("flash", "--board", BOARD, "--port", port)
        assert result.returncode == 0, result.stdout + result.stderr
        assert "send launcher.mpy" in result.stdout and "send runtime.mpy" in result.stdout
        pico._wait(lambda: pico.resets > 0, 60)
        total = pico.query()[1] - start
    finally:
        pico.close()
    assert total > 10

    for fraction in (0.6,):          # more points: same test, ~45 s wall each
        img = tmp_path / ("cut%d.img" % int(fraction * 100))
        shutil.copyfile(old, img)
        pico, port = serve(img)
        try:
            pico.cut_after_flash_ops(int(total * fraction))
            proc = subprocess.Popen([sys.executable, "-m", "host_tools", "flash", "--board", BOARD,
                                     "--port", port], cwd=ROOT, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL)
            try:
                assert pico._wait(lambda p=pico: p.exited, 300), "the cut did not happen"
                pico.wait_off()
            finally:
                proc.kill()
                proc.wait()
        finally:
            pico.close()
        # boot.py finishes or drops the interrupted switch, then the launcher runs
        out, frame, left = boot_frame(
            img, then="import os\nprint([n for n in os.listdir() if n.startswith('.s')])")
        assert "Traceback" not in out, (fraction, out)
        assert frame == launcher_frame(), fraction
        assert left.strip() == "[]", (fraction, left)


def test_doctor_reports_the_board(device):
    pico, port = serve(device)
    try:
        result = cli("doctor", "--port", port)
    finally:
        pico.close()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "board.json (pico-ssd1306)" in result.stdout
    assert "MicroPython 1.28.0 on Raspberry Pi Pico with RP2040" in result.stdout
    assert "status:       OK" in result.stdout


def test_doctor_right_after_flash_answers(device):
    """`flash` returns once the board answers after its reset (and has sent it back
    to its game); `doctor` right after it answers. It used to wait forever on the
    virtual Pico's port (mpremote's reads block on a pty, and the Ctrl-C that
    should stop the game reached the board while it was resetting)."""
    pico, port = serve(device)
    try:
        flashed = cli("flash", "--board", BOARD, "--port", port, timeout=300)
        assert flashed.returncode == 0, flashed.stderr
        assert "answers again after its reset" in flashed.stdout
        doctor = cli("doctor", "--port", port, timeout=120)
        assert doctor.returncode == 0, doctor.stdout + doctor.stderr
        assert "status:       OK" in doctor.stdout
        assert "MicroPython 1.28.0 on Raspberry Pi Pico with RP2040 (the release this project ships)" \
            in doctor.stdout
    finally:
        pico.close()


def test_update_micropython_reinstalls_it_and_keeps_the_files(device, tmp_path):
    """`flash --update-micropython` on a board that runs MicroPython: it reboots
    into BOOTSEL mode (machine.bootloader()), the shipped UF2 lands on the drive,
    the board boots from exactly that file on the same flash (so the filesystem
    stays) and flash finishes on the port it comes back on."""
    old, port = serve(device)
    code, text, ports, _ = flash_with_a_bootsel_drive(
        tmp_path, device, ["flash", "--board", BOARD, "--port", port, "--update-micropython"], running=old)
    assert code == 0, text
    assert "runs MicroPython 1.28.0: rebooting it into BOOTSEL mode" in text
    assert "MicroPython is up on %s" % ports[0] in text
    assert "answers again after its reset" in text
    assert "nothing to send" in text, text           # the firmware's files stayed on the flash


def test_a_missing_display_shows_the_console_and_the_led(device):
    """With no OLED answering, `vpico` echoes what the firmware says on its serial
    console and shows the LED's blink code, as a maker would see them."""
    run = cli("vpico", "--flash-image", str(device), "--no-provision", "--oled-address", "none",
              "--frontend", "headless", "--ticks", "150", "--screenshot", str(device.parent / "x.png"))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert any(line.startswith("console> display fault: no display at 0x3C on I2C0 (SDA GP4, SCL GP5); "
                               "found: nothing") for line in lines), run.stdout
    summary = lines[-1]
    assert "I2C 0 bytes" in summary
    blinks = int(summary.split("LED ")[1].split("(")[1].split()[0])
    assert blinks >= 3                      # 3 blinks, repeated: at least one whole code in 5 s


def test_power_cut_at_a_cycle_then_boots_from_the_same_flash(tmp_path):
    """Cut while the guest rewrites a file in a loop, at a chosen emulated time (to
    within an instruction); the same flash boots, littlefs mounts, earlier files stay."""
    img = tmp_path / "flash.img"
    shutil.copyfile(vpico.blank_image(BOARD), img)
    with vpico.VirtualPico(img, board=BOARD) as pico:
        pico.start()
        pico.boot_to_repl()
        pico.exec("f = open('kept.txt', 'w')\nf.write('k' * 100)\nf.close()")
        cut = pico.now_ns + 40 * vpico.MS
        pico.cut_at(cut)
        pico.write_serial(b"for i in range(100000):\n f = open('churn.txt', 'w')\n"
                          b" f.write(str(i) * 50)\n f.close()\n\x04")
        assert pico.run_until_off(1000)
        assert cut <= pico.now_ns < cut + 1000          # nanoseconds
    with vpico.VirtualPico(img, board=BOARD) as pico:
        pico.start()
        pico.boot_to_repl()
        out = pico.exec("print(open('kept.txt').read() == 'k' * 100)\n"
                        "import os\nprint('churn.txt' in os.listdir())")
    assert out.split()[0] == "True"


def _copy_of_the_repository(dest):
    """The files git would put in a clone (tracked, plus new ones not ignored), with
    nothing beside them; node_modules (made by `make setup`) is linked in."""
    names = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, check=True, capture_output=True).stdout.split(b"\0")
    for name in filter(None, names):
        src = ROOT / os.fsdecode(name)
        if src.is_file():
            (dest / os.fsdecode(name)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / os.fsdecode(name))
    (dest / "node_modules").symlink_to(ROOT / "node_modules")
    return dest


def test_a_clone_with_nothing_beside_it_runs_the_virtual_pico(device, tmp_path):
    """The repository alone (no workshop folder beside it, no VPICO_FIRMWARE_DIR)
    boots the flashed handheld to the launcher, drawn as the simulator draws it."""
    clone = _copy_of_the_repository(tmp_path / "alone" / "repo")
    assert not (clone.parent.parent / "shared").exists() and not (clone.parent / "shared").exists()
    env = {k: v for k, v in os.environ.items() if k != "VPICO_FIRMWARE_DIR"}
    shots = {}
    for tool, extra in (("vpico", ["--flash-image", str(device), "--no-provision"]), ("sim", [])):
        shots[tool] = tmp_path / (tool + ".png")
        run = subprocess.run([sys.executable, "-m", "host_tools", tool, *extra, "--frontend", "headless",
                              "--ticks", "60", "--scale", "1", "--screenshot", str(shots[tool])],
                             cwd=clone, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
    from PIL import Image
    pico, sim = (Image.open(shots[t]).convert("1") for t in ("vpico", "sim"))
    assert pico.size == (128, 64) and pico.tobytes() == sim.tobytes()
    assert sum(bin(b).count("1") for b in pico.tobytes()) > 200      # the launcher, not a dark screen
