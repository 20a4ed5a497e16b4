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
