"""MicroPython with a ROMFS partition (third_party/rp2040-romfs) on the virtual Pico,
flashed the maker's way (host_tools/device/romfs.py, docs/romfs.md).

One image per session: a blank Pico in BOOTSEL mode (a fake RPI-RP2 drive) taken
to its game by one ``flash --romfs``: the ROMFS UF2 it copies to the drive boots
the virtual Pico, and ``flash`` puts the modules into ``/rom``.  Then: the
launcher comes up with its modules imported from ``/rom`` and none on the
littlefs; two games are played to their ends (the endings of
tests/test_endings.py, from their crafted positions); a power cut in the
middle of writing the ROMFS image leaves no image (never a half one), and the
next ``flash`` writes it again and removes a module that would shadow it.
"""

import contextlib
import io
import shutil
import threading
import time

import pytest

import test_endings as endings
from host_tools import cli as host_cli
from host_tools.device import bootsel, usbserial
from host_tools.emulation import mpvm, vpfirmware, vpico
from test_vpico import BOARD, boot_frame, cli, launcher_frame, serve

pytestmark = pytest.mark.device

WHERE = """
import os, sys, vfs
import launcher, klotski
print(repr((vfs.rom_ioctl(1), [type(m[0]).__name__ for m in vfs.mount()], launcher.__file__,
            klotski.__file__, sorted(n for n in os.listdir('/') if n.endswith(('.mpy', '.py'))))))
"""
ROOT_SOURCES = ["boot.py", "boot_switch.py", "main.py"]


def flash_romfs_from_bootsel(folder, image):
    """``flash --romfs --uf2-drive DRIVE`` in this process, with a fake RPI-RP2 drive:
    once the ROMFS UF2 has landed there, a virtual Pico boots ``image`` from it and
    its pty is the port flash waits for.  Returns (exit code, output)."""
    drive = folder / "RPI-RP2"
    drive.mkdir()
    (drive / "INFO_UF2.TXT").write_text("UF2 Bootloader v3.0\nModel: Raspberry Pi RP2\nBoard-ID: RPI-RP2\n")
    ports, picos = [], []
    done = threading.Event()

    def board_boots_from_the_uf2():
        uf2 = drive / "micropython.uf2"
        size = bootsel.ROMFS_UF2.stat().st_size
        while not (uf2.exists() and uf2.stat().st_size == size):
            if done.is_set():
                return
            time.sleep(0.05)
        pico = vpico.VirtualPico(image, board=BOARD, firmware=uf2)
        picos.append(pico)
        pico.start()
        pico.wait_booted()
        pico.run_free()
        ports.append(pico.open_pty())

    watcher = threading.Thread(target=board_boots_from_the_uf2, daemon=True)
    watcher.start()
    out = io.StringIO()
    try:
        with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(out):
            mp.setattr(usbserial, "list_ports", lambda: [])
            mp.setattr(bootsel, "micropython_ports", lambda: list(ports))
            mp.setattr(bootsel, "PORT_WITHIN_S", 300)     # an emulated boot on a busy machine
            code = host_cli.main(["flash", "--board", BOARD, "--romfs", "--uf2-drive", str(drive)])
    finally:
        done.set()
        watcher.join()
        for pico in picos:
            pico.close()
    return code, out.getvalue()


@pytest.fixture(scope="module")
def romfs_flashed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("romfs")
    image = folder / "flash.img"
    code, text = flash_romfs_from_bootsel(folder, image)
    return image, code, text


@pytest.fixture
def device(romfs_flashed, tmp_path):
    path = tmp_path / "flash.img"
    shutil.copyfile(romfs_flashed[0], path)
    return path


def test_flash_romfs_takes_a_blank_pico_to_the_launcher_with_its_modules_in_rom(romfs_flashed, device):
    _, code, text = romfs_flashed
    assert code == 0, text
    assert "installing MicroPython v1.28.0 (RPI_PICO_ROMFS)" in text
    assert "-> /rom (256 KB partition): write" in text and "verified the ROMFS image" in text
    assert "flashed firmware fw-" in text
    out, frame, where = boot_frame(device, then=WHERE)
    assert "Traceback" not in out, out
    assert frame == launcher_frame()
    count, mounts, launcher_file, klotski_file, at_root = eval(where.strip())
    assert count == 1 and mounts == ["VfsRom", "VfsLfs2"]
    assert (launcher_file, klotski_file) == ("/rom/launcher.mpy", "/rom/klotski.mpy")
    assert at_root == ROOT_SOURCES                    # no module on the littlefs


def test_games_played_from_rom_reach_their_ends(device):
    """Klotski's solved ending (its solver's table, the largest heap) and Trap the
    Cat's win (the viper kernel, copied to RAM from /rom), each continued from its
    crafted position, played by the buttons, and left for the launcher."""
    games = endings._endings(["klotski-solved", "trapcat-won"])
    data = [(e.game, e.prior, e.snap()) for e in games]
    with vpico.VirtualPico(device, board=BOARD) as pico:
        pico.start()
        vpfirmware.repl(pico)
        pico.set_buttons(())
        boot = mpvm._parse_results(pico.exec(endings._VP_BOOT % {"data": data}, emulated_ms=120000))
        assert set(boot["boot"]) >= {"klotski", "trapcat"}
        for e in games:
            code = endings._VP_GAME % {
                "line": endings.LINE[e.game], "down": endings._masks("down"), "up": endings._masks("up"),
                "a": endings._masks("a wait:3"), "id": e.game, "keys": endings._masks(e.keys),
                "over": endings.VPICO_OVER[e.game], "settle": endings._masks("wait:5"),
                "leave": endings._masks(endings.LEAVE[e.game] + " wait:5")}
            got = mpvm._parse_results(pico.exec(code, emulated_ms=600000, timeout=1800))
            over, resumable, no_snapshot = got["end"]
            assert over and e.game not in resumable and no_snapshot, (e, got)
            assert got["left"] == (True, [g for g in got["left"][1] if g != e.game]), (e, got)
        where = pico.exec("import klotski_loop, trapcat_ai\n"
                          "print(klotski_loop.__file__, trapcat_ai.__file__)").split()
        assert where == ["/rom/klotski_loop.mpy", "/rom/trapcat_ai.mpy"]


def test_a_power_cut_while_the_rom_image_is_written_is_repaired_by_flash(device, tmp_path):
    """The board's image lost its first block (no ROMFS mounted, main.py stops at its
    first import) and a module that would shadow /rom sits on the littlefs:
    ``flash`` must write the image again.  The
    power is cut part-way through (after the erases, among the block writes): the
    board then has no ROMFS mounted (the header is written last), and the next
    ``flash`` writes the image, removes the shadowing module, and the launcher runs."""
    with vpico.VirtualPico(device, board=BOARD) as pico:
        pico.start_at_repl()
        pico.exec("import vfs\nd = vfs.rom_ioctl(2, 0)\nvfs.umount('/rom')\nd.ioctl(6, 0)\n")
        pico.write_file("klotski.py", b"raise ImportError('the stale copy ran')\n")
    pico, port = serve(device)
    try:
        pico.cut_after_flash_ops(80)              # 53 blocks: 53 erases, then the writes
        proc = cli("flash", "--board", BOARD, "--port", port, timeout=900)
        assert proc.returncode != 0
        assert "-> /rom (256 KB partition): write" in proc.stdout, proc.stdout + proc.stderr
        assert pico._wait(lambda: pico.exited, 300), "the cut did not happen"
        pico.wait_off()
    finally:
        pico.close()
    out, _, left = boot_frame(device, then="import vfs\nprint(repr((vfs.mount()[0][1], "
                                           "bytes(memoryview(vfs.rom_ioctl(2, 0))[:4]))))")
    assert eval(left.strip()) == ("/", b"\xff" * 4)          # no image: the header was still erased

    pico, port = serve(device)
    try:
        proc = cli("flash", "--board", BOARD, "--port", port, timeout=900)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert "delete  klotski.py" in proc.stdout and "verified the ROMFS image" in proc.stdout
        pico._wait(lambda: pico.resets > 0, 60)
    finally:
        pico.close()
    out, frame, where = boot_frame(device, then=WHERE)
    assert "Traceback" not in out, out
    assert frame == launcher_frame()
    count, mounts, launcher_file, klotski_file, at_root = eval(where.strip())
    assert mounts == ["VfsRom", "VfsLfs2"] and klotski_file == "/rom/klotski.mpy"
    assert at_root == ROOT_SOURCES
