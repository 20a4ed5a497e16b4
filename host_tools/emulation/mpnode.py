"""Run firmware code in the official MicroPython WebAssembly port under Node.

Its GC is safe (unlike the WASI build), so long compatibility runs use it with
the GC on.  Output lines ``@@tag<TAB>repr`` are parsed like host_tools.emulation.mpvm.
"""

import subprocess
from pathlib import Path

from host_tools.emulation.mpvm import FIRMWARE_DIR, VMError, _parse_results
from host_tools.core.fwpath import ROOT

RUNNER = Path(__file__).resolve().parent / "node_runner.mjs"

_PRELUDE = """
def emit(tag, value):
    print('@@' + tag + '\\t' + repr(value))
"""


def run(code, *, firmware_dir=FIRMWARE_DIR, timeout=600):
    proc = subprocess.run(
        ["node", str(RUNNER), str(firmware_dir)], input=_PRELUDE + code,
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )
    if proc.returncode != 0 or "Traceback" in proc.stdout + proc.stderr:
        raise VMError("node MicroPython failed:\n" + proc.stderr[-3000:] + proc.stdout[-2000:])
    return _parse_results(proc.stdout)
