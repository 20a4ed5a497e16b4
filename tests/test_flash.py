"""Flashing against a fake MicroPython device: plan, deploy, errors, and a
power cut at every step of a deploy (and of the boot step) that must always
leave the old or the new firmware complete."""

import json
import shutil
from pathlib import Path

import pytest

import boot_switch
from clirun import run_cli
from host_tools.core import UserError
from host_tools.core import boards as boardfiles
from host_tools.core import build, kernelgen
from host_tools.core.fwpath import FRAMEBUF_DIR
from host_tools.device import cpflash, devicefs, flash, usbserial, mpflash, staging
from host_tools.games import klotski_hook
from host_tools.device.devicefs import DeviceError
from host_tools.emulation.fakedevice import FakeDevice, PowerCut

ROOT = Path(__file__).resolve().parent.parent
BOARD = json.loads((ROOT / "boards" / "pico-ssd1306.json").read_text())


def quiet(*_a):
    pass


@pytest.fixture(scope="module")
def trees(tmp_path_factory):
    """Two firmware versions A and B (B: changed, added, removed modules and a
    changed boot.py / boot_switch.py) plus a boards dir; built once."""
    base = tmp_path_factory.mktemp("fw")
    a = base / "A"
    a.mkdir()
    for name in ("boot_switch.py", "gridpath.py", "catmouse.py", "rng.py"):
        shutil.copy(ROOT / "firmware" / name, a / name)
    (a / "main.py").write_text("import launcher\nlauncher.run()\n")
    (a / "launcher.py").write_text("def run():\n    print('A')\n")
    (a / "oldonly.py").write_text("X = 1\n")
    b = base / "B"
    shutil.copytree(a, b)
    (b / "oldonly.py").unlink()
    (b / "newonly.py").write_text("Y = 2\n" * 300)
    (b / "launcher.py").write_text("def run():\n    print('B')\n")
    (b / "boot.py").write_text("import boot_switch\nboot_switch.run()\nprint('boot B')\n")
    (b / "boot_switch.py").write_text((a / "boot_switch.py").read_text() + "\n# v2\n")
    boards = base / "boards"
    boards.mkdir()
    shutil.copy(ROOT / "boards" / "pico-ssd1306.json", boards / "pico-ssd1306.json")
    mpy = FakeDevice().mpy
    files_a = build.build_files(a, "pico-ssd1306", boards, mpy)
    files_b = build.build_files(b, "pico-ssd1306", boards, mpy)
    return {"A": a, "B": b, "boards": boards, "files_a": files_a, "files_b": files_b}


SAVES = {"/saves/catmouse.json": b'{"best": 12}', "/notes.txt": b"user file"}


def device_with(files, **kw):
    content = {"/" + n: d for n, d in files.items()}
    content.update(SAVES)
    return FakeDevice(content, **kw)


def run_deploy(dev, files):
    plan = staging.make_plan(dev, files, dev.info())
    staging.deploy(dev, files, plan, log=quiet)
    return plan


def live_firmware(dev):
    return {p[1:]: d for p, d in dev.files.items() if p not in SAVES}


def test_compiled_tree(trees):
    files = trees["files_a"]
    assert files["gridpath.mpy"][:2] == b"M\x06"
    assert "boot.py" in files and b"boot_switch.run()" in files["boot.py"]  # hook added
    assert "boot_switch.py" in files and "main.py" in files
    assert json.loads(files["board.json"]) == BOARD
    version, board, names = build.parse_manifest(files["fw_manifest.txt"])
    assert version.startswith("fw-") and board == "pico-ssd1306"
    assert set(names) == set(files) - {"fw_manifest.txt"}


def test_fresh_deploy_then_only_changed_files(trees):
    dev = FakeDevice({"/saves/other.json": b"{}"})
    plan = run_deploy(dev, trees["files_a"])
    assert live_firmware(dev) == trees["files_a"] | {"saves/other.json": b"{}"}
    assert dev.resets == 1 and not dev.exists("/.stage") and not dev.exists("/.switch")
    plan2 = staging.make_plan(dev, trees["files_a"], dev.info())
    assert plan2.send == [] and plan2.delete == []
    plan3 = staging.make_plan(dev, trees["files_b"], dev.info())
    assert set(plan3.send) == {"boot.py", "boot_switch.py", "launcher.mpy", "newonly.mpy",
                               "fw_manifest.txt"}
    assert plan3.send[:2] == ["boot_switch.py", "boot.py"] and plan3.send[-1] == "fw_manifest.txt"
    assert plan3.delete == ["oldonly.mpy"]
    assert len(plan.send) == len(trees["files_a"])


def test_dry_run_writes_nothing(trees, capsys):
    dev = device_with(trees["files_a"])
    before = dev.snapshot()
    lines = []
    mpflash.flash_micropython(dev, "pico-ssd1306", trees["B"], trees["boards"], dry_run=True,
                              log=lines.append)
    assert dev.snapshot() == before and dev.steps == 0 and dev.resets == 0
    text = "\n".join(lines)
    assert "send    newonly.mpy" in text and "delete  oldonly.mpy" in text
    assert "dry run: nothing was written" in text


def test_stale_py_shadowing_mpy_is_deleted(trees):
    dev = FakeDevice({"/gridpath.py": b"old source", "/saves/x.json": b"1"})
    run_deploy(dev, trees["files_a"])
    assert not dev.exists("/gridpath.py") and dev.exists("/gridpath.mpy")
    assert dev.read("/saves/x.json") == b"1"


def boots_with(dev, files_a, files_b):
    live = live_firmware(dev)
    assert live in (files_a, files_b), sorted(set(live) ^ set(files_a))
    assert not dev.exists("/.stage") and not dev.exists("/.switch")
    assert not dev.exists("/.switch.tmp")
    for path, data in SAVES.items():
        assert dev.read(path) == data
    return "A" if live == files_a else "B"


def test_power_cut_at_every_step(trees):
    fa, fb = trees["files_a"], trees["files_b"]
    probe = device_with(fa)
    run_deploy(probe, fb)
    total = probe.steps
    assert total > 20
    outcomes = {"A": 0, "B": 0}
    boot_cuts = 0
    for k in range(total + 1):
        dev = device_with(fa)
        dev.cut_after = k
        try:
            run_deploy(dev, fb)
        except PowerCut:
            pass
        dev.power_on()
        # the live boot.py always runs the boot step
        assert b"boot_switch.run()" in dev.files["/boot.py"]
        # a cut during the boot step itself, at its first few steps, then a clean boot
        for j in range(3):
            dev.steps = 0
            dev.cut_after = j
            try:
                boot_switch.run(dev)
                break
            except PowerCut:
                boot_cuts += 1
                dev.power_on()
        dev.power_on()
        boot_switch.run(dev)
        outcomes[boots_with(dev, fa, fb)] += 1
    assert outcomes["A"] > 0 and outcomes["B"] > 0
    assert boot_cuts > 0
    # a cut before the commit keeps A, after it gives B: exactly one switch-over
    print("deploy steps", total, outcomes, "boot-step cuts", boot_cuts)


def test_interrupted_flash_is_finished_by_next_flash(trees):
    fa, fb = trees["files_a"], trees["files_b"]
    probe = device_with(fa)
    run_deploy(probe, fb)
    dev = device_with(fa)
    dev.cut_after = probe.steps - 4  # inside the switch
    with pytest.raises(PowerCut):
        run_deploy(dev, fb)
    dev.power_on()
    assert dev.exists("/.switch")
    lines = []
    staging.finish_pending(dev, log=lines.append)
    assert "completed" in lines[0]
    assert boots_with(dev, fa, fb) == "B"


def test_full_filesystem_is_refused_and_nothing_written(trees):
    fa, fb = trees["files_a"], trees["files_b"]
    dev = device_with(fa)
    dev.capacity = dev.used() + 8 * 1024
    before = dev.snapshot()
    with pytest.raises(UserError, match="not enough room"):
        run_deploy(dev, fb)
    assert dev.snapshot() == before


def test_enospc_during_upload_rolls_back(trees):
    fa, fb = trees["files_a"], trees["files_b"]
    dev = device_with(fa)
    dev.capacity = dev.used() + 12 * 1024
    before = dev.snapshot()
    plan = staging.make_plan(dev, fb, dev.info())
    plan.free = 10 ** 9  # the estimate is wrong: the device runs out while writing
    with pytest.raises(UserError, match="filesystem is full"):
        staging.deploy(dev, fb, plan, log=quiet)
    assert dev.snapshot() == before


def test_mpy_version_mismatch_is_clear(trees):
    dev = device_with({}, mpy=7)
    with pytest.raises(UserError, match=r"bytecode v7\.0.*mpy-cross can only emit"):
        mpflash.flash_micropython(dev, "pico-ssd1306", trees["A"], trees["boards"], log=quiet)
    assert dev.steps == 0


def test_older_v6_device_uses_matching_mpy_cross(trees):
    binary = build.mpy_cross_binary(6, 1)
    data = build.compile_module(binary, trees["A"] / "rng.py", 6, 1)
    assert data[:2] == b"M\x06"
    binary = build.mpy_cross_binary(5, 0)  # MicroPython 1.12 .. 1.18
    assert "v1.12" in binary
    data = build.compile_module(binary, trees["A"] / "rng.py", 5, 0)
    assert data[:2] == b"M\x05"


def test_circuitpython_over_serial_and_unknown_firmware(trees):
    for impl, msg in (("circuitpython", "CIRCUITPY"), ("pyboard-ish", "not MicroPython")):
        dev = device_with({}, implementation=impl)
        with pytest.raises(UserError, match=msg):
            mpflash.flash_micropython(dev, "pico-ssd1306", trees["A"], trees["boards"], log=quiet)
        assert dev.steps == 0


def test_unknown_board_lists_available(trees):
    with pytest.raises(UserError, match="available: pico-ssd1306"):
        boardfiles.load_board("nope", trees["boards"])


# ----------------------------------------------------------------- CLI level



@pytest.fixture
def cli_env(monkeypatch, trees):
    monkeypatch.setattr(flash, "FIRMWARE_DIR", trees["A"])
    monkeypatch.setattr(boardfiles, "BOARDS_DIR", trees["boards"])
    monkeypatch.setattr(cpflash, "find_circuitpy_drives", lambda: [])
    monkeypatch.setattr(usbserial, "RESET_SETTLE_S", 0)
    state = {"ports": [("/dev/ttyACM0", "Raspberry Pi")], "dev": FakeDevice(port="/dev/ttyACM0")}
    monkeypatch.setattr(usbserial, "list_ports", lambda: state["ports"])

    def opener(port):
        if isinstance(state["dev"], Exception):
            raise state["dev"]
        return state["dev"]
    monkeypatch.setattr(usbserial, "open_transport", opener)
    return state


@pytest.mark.parametrize("ports,dev,msg", [
    ([], None, "no device found"),
    ([("/dev/ttyACM0", "a"), ("/dev/ttyACM1", "b")], None, "several devices found"),
    (None, DeviceError("/dev/ttyACM0 does not answer like a MicroPython REPL"), "does not answer"),
])
def test_cli_connection_errors(cli_env, capsys, ports, dev, msg):
    if ports is not None:
        cli_env["ports"] = ports
    if dev is not None:
        cli_env["dev"] = dev
    for cmd in (["flash"], ["doctor"]):
        code, out, err = run_cli(cmd, capsys)
        assert code == 2 and msg in err and len(err.strip().splitlines()) == 1


def test_cli_flash_then_doctor(cli_env, capsys):
    dev = cli_env["dev"]
    dev.files["/saves/catmouse.json"] = b"{}"
    dev.dirs.add("/saves")
    code, out, err = run_cli(["flash", "--board", "pico-ssd1306"], capsys)
    assert code == 0, err
    assert "flashed firmware fw-" in out and dev.resets == 1
    assert dev.restarts == 1 and "answers again after its reset" in out
    code, out, err = run_cli(["doctor"], capsys)
    assert code == 0, out
    assert "MicroPython 1.27.0" in out and "free heap:    175 KB" in out
    assert "(this project ships 1.28.0: `flash --update-micropython` installs it, files and saves stay)" in out
    assert "board file:   board.json (pico-ssd1306)" in out
    assert "firmware:     fw-" in out and "/saves/catmouse.json" in out and "status:       OK" in out
    code, out, err = run_cli(["flash", "--dry-run"], capsys)
    assert code == 0 and "unchanged" in out


def test_cli_flash_says_so_when_the_board_does_not_come_back(cli_env, capsys, monkeypatch):
    dev = cli_env["dev"]
    opened = []

    def opener(port):
        opened.append(port)
        if len(opened) > 1:            # after its reset the port never answers again
            raise DeviceError("cannot open %s: no such device" % port)
        return dev
    monkeypatch.setattr(usbserial, "open_transport", opener)
    monkeypatch.setattr(usbserial, "BACK_WITHIN_S", 0.2)
    code, out, err = run_cli(["flash", "--board", "pico-ssd1306"], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "flashed, but /dev/ttyACM0 did not answer within" in err and "replug" in err
    assert dev.resets == 1 and dev.restarts == 0 and len(opened) > 1


def test_a_port_where_nothing_answers_is_one_line_within_the_deadline(capsys, monkeypatch):
    """A serial port (here a pty, where mpremote reads block) whose other end never
    answers: doctor and flash end with one line instead of waiting forever."""
    import os
    import time
    master, slave = os.openpty()
    try:
        monkeypatch.setattr(devicefs, "ANSWER_WITHIN_S", 1.5)
        monkeypatch.setattr(devicefs, "READ_POLL_S", 0.5)
        for cmd in (["doctor"], ["flash", "--board", "pico-ssd1306"]):
            started = time.monotonic()
            code, _, err = run_cli(cmd + ["--port", os.ttyname(slave)], capsys)
            assert time.monotonic() - started < 10
            assert code == 2 and len(err.strip().splitlines()) == 1
            assert "did not answer within 1 s" in err and "reset button" in err
    finally:
        os.close(master)
        os.close(slave)


def test_cli_doctor_on_empty_device(cli_env, capsys):
    code, out, err = run_cli(["doctor", "--port", "/dev/ttyACM0"], capsys)
    assert code == 1 and "no firmware" in out and "saves:        none" in out


# ----------------------------------------------------------- CircuitPython

CP_BOARD = json.loads((ROOT / "boards" / "pico-cp-ssd1306.json").read_text())


@pytest.fixture
def mixed_boards(tmp_path):
    """A boards dir with one MicroPython and one CircuitPython board file."""
    boards = tmp_path / "boards"
    boards.mkdir()
    for name in ("pico-ssd1306", "pico-cp-ssd1306"):
        shutil.copy(ROOT / "boards" / (name + ".json"), boards / (name + ".json"))
    return boards


def circuitpy_drive(path):
    """A mounted CIRCUITPY drive with old firmware and an unfinished upload on it."""
    path.mkdir()
    (path / "boot_out.txt").write_text("Adafruit CircuitPython 9.2.1 on 2024-11-20; Raspberry Pi Pico\n")
    (path / "code.py").write_text("print('old')\n")
    (path / ".stage").mkdir()
    (path / ".stage" / "code.py").write_text("print('half')\n")
    return path


def drive_snapshot(drive):
    return {str(p.relative_to(drive)): p.read_bytes() if p.is_file() else None
            for p in sorted(drive.rglob("*"))}


@pytest.fixture
def cp_env(tmp_path, trees, mixed_boards, monkeypatch, fake_circup):
    """The CLI with a fake circup, the mixed boards dir and one mounted CIRCUITPY drive."""
    drive = circuitpy_drive(tmp_path / "CIRCUITPY")
    monkeypatch.setattr(flash, "FIRMWARE_DIR", trees["A"])
    monkeypatch.setattr(boardfiles, "BOARDS_DIR", mixed_boards)
    monkeypatch.setattr(cpflash, "find_circuitpy_drives", lambda: [str(drive)])
    monkeypatch.setattr(usbserial, "list_ports", lambda: [])
    return {"drive": drive, "circup": fake_circup}


def test_circuitpython_drive(cp_env, trees, tmp_path, capsys):
    drive = cp_env["drive"]
    code, out, err = run_cli(["flash", "--board", "pico-cp-ssd1306"], capsys)
    assert code == 0, err
    assert (drive / "code.py").read_text() == (trees["A"] / "main.py").read_text()
    # modules go as CircuitPython bytecode (its own mpy-cross: header "C", v6), which
    # CircuitPython loads without compiling the source in its heap
    assert (drive / "gridpath.mpy").read_bytes()[:2] == b"C\x06" and not (drive / "gridpath.py").exists()
    assert (drive / "framebuf.mpy").read_bytes()[:2] == b"C\x06"
    assert json.loads((drive / "board.json").read_text()) == CP_BOARD
    assert (drive / "fw_manifest.txt").exists() and not (drive / ".stage").exists()
    assert not (drive / "main.py").exists()
    assert cp_env["circup"] == [["/usr/bin/circup", "--path", str(drive), "install",
                                 "adafruit_displayio_ssd1306"]]
    # not a CircuitPython drive
    other = tmp_path / "USBSTICK"
    other.mkdir()
    code, out, err = run_cli(["flash", "--board", "pico-cp-ssd1306", "--drive", str(other)], capsys)
    assert code == 2 and "not a mounted CIRCUITPY drive" in err


@pytest.mark.parametrize("extra,how", [([], "found mounted; "),
                                       (["--drive", "DRIVE"], "given with --drive; "),
                                       (["--drive", "DRIVE", "--port", "/dev/ttyACM0"],
                                        "given with --drive; ")])
def test_micropython_board_refused_on_a_drive(cp_env, capsys, extra, how):
    # Regression: a MicroPython board file was copied to CIRCUITPY, which then could
    # not boot the CircuitPython backend (no boot.py, no framebuf.py, wrong libraries).
    drive = cp_env["drive"]
    before = drive_snapshot(drive)
    argv = ["flash", "--board", "pico-ssd1306"] + [str(drive) if a == "DRIVE" else a
                                                   for a in extra]
    code, out, err = run_cli(argv, capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert ("board pico-ssd1306 is a MicroPython board: it cannot go on the CircuitPython "
            "drive %s %s" % (drive, how)) in err
    assert "choose a CircuitPython board file (pico-cp-ssd1306) with --board" in err
    assert drive_snapshot(drive) == before and cp_env["circup"] == []


def test_micropython_board_refused_by_flash_circuitpython(cp_env, trees, mixed_boards):
    drive = cp_env["drive"]
    before = drive_snapshot(drive)
    with pytest.raises(UserError, match="pico-ssd1306 is a MicroPython board.*pico-cp-ssd1306"):
        cpflash.flash_circuitpython(drive, "pico-ssd1306", trees["A"], mixed_boards, log=quiet)
    assert drive_snapshot(drive) == before


def test_circuitpython_board_refused_over_serial(cli_env, mixed_boards, monkeypatch, capsys):
    monkeypatch.setattr(boardfiles, "BOARDS_DIR", mixed_boards)
    dev = cli_env["dev"]
    code, out, err = run_cli(["flash", "--board", "pico-cp-ssd1306", "--port", "/dev/ttyACM0"],
                             capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1, err
    assert ("board pico-cp-ssd1306 is a CircuitPython board: it cannot be flashed over the "
            "serial port /dev/ttyACM0; ") in err
    assert "choose a MicroPython board file (pico-ssd1306) with --board" in err
    assert dev.steps == 0 and dev.files == {}
    with pytest.raises(UserError, match="pico-cp-ssd1306 is a CircuitPython board"):
        mpflash.flash_micropython(dev, "pico-cp-ssd1306", boards_dir=mixed_boards, log=quiet)
    assert dev.steps == 0 and dev.files == {}


def test_circuitpython_device_over_serial_names_the_board_files(mixed_boards, trees):
    dev = device_with({}, implementation="circuitpython")
    with pytest.raises(UserError, match=r"runs CircuitPython: mount its CIRCUITPY drive and "
                                        r"flash a CircuitPython board file \(pico-cp-ssd1306\)"):
        mpflash.flash_micropython(dev, "pico-ssd1306", trees["A"], mixed_boards, log=quiet)
    assert dev.steps == 0


def test_board_file_checked_by_boardcfg(tmp_path):
    (tmp_path / "bad.json").write_text('{"name": "bad"}')
    with pytest.raises(UserError, match="board file .*bad.json"):
        boardfiles.load_board("bad", tmp_path)
    data, raw = boardfiles.load_board("pico-ssd1306")  # the real boards/ file passes
    assert data["name"] == "pico-ssd1306"


# ----------------------------------------------------------- level packs

def _pack(tmp_path, game="catmouse", name="cm.bin", levels=(b"C..#\n..#.\n...M\n",)):
    import levelpack

    path = tmp_path / name
    path.write_bytes(levelpack.build_pack(game, list(levels)))
    return path


def test_level_files_are_checked_and_named_by_game(tmp_path):
    good = _pack(tmp_path)
    files = staging.level_files([good])
    assert list(files) == ["levels/catmouse.bin"] and files["levels/catmouse.bin"] == good.read_bytes()
    folder = tmp_path / "levels"
    folder.mkdir()
    _pack(folder, "trapcat", "tc.bin", (b".....\n.....\n..C..\n.....\n.....\n",))
    assert list(staging.level_files([folder])) == ["levels/trapcat.bin"]
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"XXXX" + good.read_bytes()[4:])
    with pytest.raises(UserError, match="bad.bin: bad level pack: bad magic"):
        staging.level_files([bad])
    big = _pack(tmp_path, name="big.bin", levels=(b"C" + b"." * 18 + b"M\n",))
    with pytest.raises(UserError, match="level 0: the map is 20x1; the screen fits 16x8"):
        staging.level_files([big])
    with pytest.raises(UserError, match="both hold catmouse levels"):
        staging.level_files([good, _pack(tmp_path, name="cm2.bin")])
    with pytest.raises(UserError, match="no such file"):
        staging.level_files([tmp_path / "nope.bin"])


def test_journal_names_with_one_folder():
    steps = [("M", "levels/catmouse.bin"), ("M", "a.mpy")]
    assert boot_switch.parse_journal(boot_switch.format_journal(steps)) == steps
    assert boot_switch.staged("levels/catmouse.bin") == "/.stage/levels%catmouse.bin"
    for bad in ("/abs", "a/b/c", "../x", "levels/"):
        with pytest.raises(ValueError):
            boot_switch.parse_journal(boot_switch.format_journal([("M", bad)]))


def test_packs_deploy_to_levels_and_survive_a_flash_without_them(trees, tmp_path):
    fa, fb = trees["files_a"], trees["files_b"]
    packs = staging.level_files([_pack(tmp_path)])
    dev = device_with(fa)
    run_deploy(dev, fb | packs)
    assert dev.read("/levels/catmouse.bin") == packs["levels/catmouse.bin"]
    assert "levels/catmouse.bin" not in build.parse_manifest(dev.read("/fw_manifest.txt"))[2]
    plan = run_deploy(dev, fa)                  # a later flash without --levels keeps it
    assert "levels/catmouse.bin" not in plan.delete and dev.exists("/levels/catmouse.bin")


def test_power_cut_at_every_step_with_a_pack(trees, tmp_path):
    fa = trees["files_a"]
    fb = trees["files_b"] | staging.level_files([_pack(tmp_path)])
    probe = device_with(fa)
    run_deploy(probe, fb)
    outcomes = {"A": 0, "B": 0}
    for k in range(probe.steps + 1):
        dev = device_with(fa)
        dev.cut_after = k
        try:
            run_deploy(dev, fb)
        except PowerCut:
            pass
        dev.power_on()
        boot_switch.run(dev)
        outcomes[boots_with(dev, fa, fb)] += 1
    assert outcomes["A"] > 0 and outcomes["B"] > 0


def test_cli_flash_levels(cli_env, capsys, tmp_path):
    pack = _pack(tmp_path)
    code, out, err = run_cli(["flash", "--levels", str(pack), "--dry-run"], capsys)
    assert code == 0, err
    assert "send    levels/catmouse.bin" in out
    code, out, err = run_cli(["flash", "--levels", str(pack)], capsys)
    assert code == 0, err
    assert cli_env["dev"].read("/levels/catmouse.bin") == pack.read_bytes()
    bad = tmp_path / "bad.bin"
    bad.write_bytes(pack.read_bytes()[:-2])
    code, out, err = run_cli(["flash", "--levels", str(bad)], capsys)
    assert code == 2 and "truncated" in err and len(err.strip().splitlines()) == 1


def test_cli_board_and_levels_checked_before_looking_for_a_device(cli_env, capsys, tmp_path):
    # Regression: with no device plugged in, a typo in --board or a bad --levels pack
    # was reported as "no device found" instead of naming the mistake.
    cli_env["ports"] = []
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(b"\xbe\x0f\xf7\x03" * 8)
    for argv, msg in ((["flash", "--board", "nosuch"], "no board file"),
                      (["flash", "--levels", str(tmp_path / "missing.bin")], "no such file or folder"),
                      (["flash", "--levels", str(garbage)], "bad level pack")):
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and msg in err and len(err.strip().splitlines()) == 1, (argv, err)


def test_cli_flash_klotski_tables_are_the_devices_cache(cli_env, capsys, tmp_path, monkeypatch):
    import klotski
    import klotski_cache

    # one built-in layout of the classic set and a pack adding another piece set
    monkeypatch.setattr(klotski_hook, "klotski_layouts", lambda packs: [
        "VBBV/VBBV/VHHV/VSSV/S..S", "VBBV/VBBV/VSSV/VSSV/S..S"])
    code, out, err = run_cli(["flash", "--klotski-tables"], capsys)
    assert code == 0, err
    assert "klotski table 4V1H4S for 1 level:" in out and "5V0H4S" not in out
    dev = cli_env["dev"]
    for ps in ((4, 1, 4), (4, 0, 6)):
        name = "klotski_%d%d%d.tbl" % ps
        (tmp_path / name).write_bytes(dev.read("/saves/" + name))
        solver = klotski.Solver(*ps)
        assert klotski_cache.load(klotski_cache.Dir(str(tmp_path)), solver) == "ok"
    assert solver.distance(solver.rank_of(klotski.parse("VBBV/VBBV/VSSV/VSSV/S..S"))) is not None
    # data, not firmware: a later flash without them keeps the tables
    code, out, err = run_cli(["flash", "--no-klotski-tables"], capsys)
    assert code == 0, err
    assert dev.exists("/saves/klotski_414.tbl")


def test_klotski_tables_go_to_every_board_by_default(monkeypatch):
    """A plain `flash` (and the virtual CircuitPython Pico, deployed through
    board_hook_files) puts the tables on every board: CircuitPython cannot build
    a table beside the runtime, MicroPython not the largest sets'; a board goes
    without them with --no-klotski-tables only."""
    import argparse

    monkeypatch.setattr(klotski_hook, "klotski_layouts", lambda packs: ["VBBV/VBBV/VHHV/VSSV/S..S"])
    for board in ("pico-cp-ssd1306", "pico-ssd1306"):
        files = flash.board_hook_files(board)({}, lambda line: None)
        assert list(files) == ["saves/klotski_414.tbl"], board
    parser = argparse.ArgumentParser()
    flash.register(parser.add_subparsers())
    for argv, want in ((["--board", "pico-cp-ssd1306", "--no-klotski-tables"], False),
                       (["--board", "pico-ssd1306", "--no-klotski-tables"], False),
                       (["--board", "pico-ssd1306", "--klotski-tables"], True),
                       (["--board", "pico-ssd1306"], True),
                       (["--board", "pico-cp-ssd1306"], True)):
        assert klotski_hook.wants_tables(parser.parse_args(["flash"] + argv)) is want, argv


def test_klotski_layouts_include_a_klotski_pack(tmp_path):
    import klotski_levels
    import levelpack

    data = levelpack.build_pack("klotski", [b"SBBS/SBBS/SSSS/SSSS/S..S"])
    layouts = klotski_hook.klotski_layouts({"levels/klotski.bin": data})
    assert len(layouts) == klotski_levels.count() + 1 and layouts[-1] == "SBBS/SBBS/SSSS/SSSS/S..S"


def test_the_pure_python_framebuf_goes_to_circuitpython_only(tmp_path):
    """MicroPython has framebuf built in: firmware/circuitpython/ is a subfolder that the
    flat copy skips; a CircuitPython board gets its framebuf.py."""
    fw = tmp_path / "fw"
    fw.mkdir()
    shutil.copy(ROOT / "firmware" / "boot_switch.py", fw)
    (fw / "plain.py").write_text("X = 1\n")
    shutil.copytree(FRAMEBUF_DIR, fw / "circuitpython")
    boards = ROOT / "boards"
    files = build.build_files(fw, "pico-ssd1306", boards, 6 | (3 << 8) | (4 << 10))
    assert not [n for n in files if "framebuf" in n] and "plain.mpy" in files
    files = build.build_files(fw, "pico-cp-ssd1306", boards, None, circuitpython=True)
    assert files["framebuf.mpy"][:2] == b"C\x06" and "framebuf.py" not in files


def test_native_code_is_compiled_for_the_device_arch(tmp_path):
    """klotski_viper's @micropython.viper kernel, rendered from its template,
    becomes armv6m machine code for a Pico (arch 4 in the .mpy header); a
    device without native code gets the source, whose failing import klotski
    catches."""
    fw = tmp_path / "fw"
    fw.mkdir()
    shutil.copy(ROOT / "firmware" / "klotski_viper.py.tmpl", fw)
    (fw / "plain.py").write_text("X = 1\n")
    shutil.copy(ROOT / "firmware" / "boot_switch.py", fw)
    boards = ROOT / "boards"
    pico = 6 | (3 << 8) | (4 << 10)
    assert build.native_arch(pico) == "armv6m"
    files = build.build_files(fw, "pico-ssd1306", boards, pico)
    assert files["klotski_viper.mpy"][2] >> 2 == 4 and files["klotski_viper32.mpy"][2] >> 2 == 4
    assert "plain.mpy" in files
    files = build.build_files(fw, "pico-ssd1306", boards, 6 | (3 << 8))
    for name, source in kernelgen.rendered_modules(fw).items():      # klotski_viper, klotski_viper32
        assert files[name].decode() == source
    assert "klotski_viper.mpy" not in files and "plain.mpy" in files


def test_disk_full_is_read_from_the_device_errno_not_from_a_28_anywhere():
    # Regression: `"28" in str(exc)` called any failed write whose text held a 28
    # (a line number, a size) "no space left"; only the OSError's number counts.
    import errno

    from mpremote.transport import TransportError, TransportExecError

    from host_tools.device import devicefs

    class Link:
        def __init__(self, exc):
            self.exc = exc

        def exec(self, *args):
            raise self.exc

        fs_writefile = exec

    def write_with(exc, base64):
        dev = object.__new__(devicefs.MpremoteTransport)
        dev._TransportError = TransportError
        dev._base64 = base64
        dev._t = Link(exc)
        dev.write("/levels/l28.bin", b"x" * 28)

    not_full = TransportExecError(1, 'Traceback (most recent call last):\r\n  File "<stdin>", '
                                  'line 28, in <module>\r\nMemoryError: memory allocation failed, '
                                  'allocating 2048 bytes\r\n')
    for base64 in (True, False):            # our base64 pieces, and mpremote's own write
        with pytest.raises(DeviceError, match="MemoryError"):
            write_with(not_full, base64)
        for text in ("OSError: 28\r\n", "Traceback:\r\nOSError: [Errno 28] ENOSPC\r\n"):
            with pytest.raises(OSError) as got:
                write_with(TransportExecError(1, text), base64)
            assert got.value.errno == errno.ENOSPC
        with pytest.raises(OSError) as got:     # another device OSError keeps its own number
            write_with(TransportExecError(1, "OSError: 5\r\n"), base64)
        assert got.value.errno == errno.EIO
        with pytest.raises(OSError) as got:     # already converted by mpremote: kept as is
            write_with(OSError(errno.ENOSPC, "/levels/l28.bin"), base64)
    assert got.value.errno == errno.ENOSPC and devicefs.ENOSPC == errno.ENOSPC
