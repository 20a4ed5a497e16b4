"""Shared fixtures.  Firmware modules import on CPython unchanged (firmware/ on
sys.path); ``vm`` runs code in the MicroPython WASI VM (GC off, fuel counted) and
``node_vm`` in the official WebAssembly port under Node (GC on)."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "firmware"))

from host_tools import mpnode, mpvm  # noqa: E402


@pytest.fixture(scope="session")
def vm():
    """``vm(code) -> VMResult``; ``emit(tag, value)`` and ``measure(fn, *args)``
    are available inside the guest."""
    return mpvm.run


@pytest.fixture(scope="session")
def node_vm():
    return mpnode.run
