"""The Klotski search kernel on the virtual Pico (official MicroPython v1.28.0
in rp2040js, host_tools/emulation/vpico.py): the @micropython.viper machine code that
``flash`` makes (mpy-cross -march=armv6m) builds, byte for byte, the table of
the plain-Python loop."""

import hashlib

import pytest

import klotski
from host_tools.core import kernelgen
from host_tools.emulation import vpico

pytestmark = pytest.mark.device

GUEST = r"""
import hashlib, binascii, klotski
def table(ps, kernel):
    s = klotski.Solver(ps[0], ps[1], ps[2], kernel=kernel)
    s.build()
    return binascii.hexlify(hashlib.sha256(s.table).digest()).decode(), s.reached, s._kernel is not None
print('native', klotski.NATIVE_KERNEL)
print('both', (table(BOTH, True), table(BOTH, False)))
for ps in KERNEL_ONLY:
    print('kernel', ps, table(ps, True))
"""

BOTH = (4, 2, 2)                     # small enough for the plain loop on the Pico (~1 s)
KERNEL_ONLY = ((4, 1, 4), (0, 4, 6))  # 横刀立马's set (16-bit words), a 6-soldier set (30-bit)


def _host_table(ps):
    s = klotski.Solver(*ps, kernel=False)
    s.build()
    return hashlib.sha256(s.table).hexdigest(), s.reached


def test_viper_kernel_builds_the_plain_loops_table_on_the_virtual_pico(tmp_path):
    code = "BOTH = %r\nKERNEL_ONLY = %r\n" % (BOTH, KERNEL_ONLY) + GUEST
    kernels = kernelgen.render_into(tmp_path)             # klotski_viper(32).py as the build renders them
    files = ["firmware/klotski.py", "firmware/klotski_common.py", "firmware/klotski_setup.py",
             "firmware/klotski_loop.py", "firmware/asciitext.py"] + [str(p) for p in kernels]
    out = vpico.run_snippet(code, files=files, mpy=True, emulated_ms=120000)
    lines = out.strip().splitlines()
    assert lines[0] == "native True", out
    (kd, kr, kk), (pd, pr, pk) = eval(lines[1][len("both "):])
    assert kk and not pk
    assert (kd, kr) == (pd, pr) == _host_table(BOTH)
    for line, ps in zip(lines[2:], KERNEL_ONLY):
        digest, reached, used = eval(line[len("kernel %r " % (ps,)):])
        assert used
        assert (digest, reached) == _host_table(ps), ps


def test_a_level_whose_build_would_not_fit_has_hints_from_the_flashed_table(tmp_path):
    """After `flash` (its Klotski tables included by default), the first 2V2H6S level,
    the first game after boot, reaches HINTS READY: its table is read from the file
    (docs/klotski.md), where building it (~102 KB of arrays beside the search code)
    ran out of memory at a Klotski board."""
    import argparse
    import shutil

    import framebuf
    import gfx
    import klotski_game as kg
    import klotski_levels
    from host_tools.emulation import vpfirmware, vpframes
    from host_tools.games import klotski_hook

    files = dict(vpfirmware.firmware_files())
    files.update(klotski_hook.flash_files(argparse.Namespace(klotski_tables=True), {}, lambda line: None))
    assert "saves/klotski_226.tbl" in files
    image = tmp_path / "flash.img"
    shutil.copyfile(vpico.blank_image(), image)
    with vpico.VirtualPico(image) as pico:
        pico.start()
        pico.boot_to_repl()
        pico.exec("import os\ntry:\n    os.mkdir('saves')\nexcept OSError:\n    pass\n")
        for name in sorted(files):
            pico.write_file(name, files[name])
    level = next(i for i in range(klotski_levels.count())
                 if klotski.piece_set(klotski.parse(klotski_levels.level(i)[1])) == (2, 2, 6))
    fb = framebuf.FrameBuffer(bytearray(1024), 128, 64, framebuf.MONO_VLSB)
    gfx.text(fb, "HINTS READY", kg.PX, 32)
    ready = [[fb.pixel(c, r) for c in range(kg.PX, 128)] for r in range(32, 38)]
    with vpico.VirtualPico(image) as pico:
        pico.start()
        vpframes.realtime_frames(pico, [
            ("klotski list", "hold:down:2 wait:6 " * 3 + "hold:a:3 wait:20"),   # the fourth game
            ("the level", "hold:down:2 wait:6 " * level + "hold:a:3 wait:10")])
        for _ in range(40):                  # 10 s emulated at most
            if [list(row[kg.PX:]) for row in pico.frame_pixels()[32:38]] == ready:
                break
            pico.run_for(250)
        else:
            raise AssertionError("no HINTS READY:\n" + vpframes.text(pico.frame_pixels()))
