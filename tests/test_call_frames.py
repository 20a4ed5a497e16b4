"""Call frames that stay on the C stack on the device.

MicroPython on the Pico puts a bytecode function's frame (locals + value stack,
3 words per level of exception handlers) on the C stack only when it is at most
11 words; a larger one is allocated on the GC heap and freed at every call
(docs/conventions.md, "Firmware style").  The functions below run several times
a tick, so each must stay within the limit.  ``tests/mpyframes.py`` reads the
frame sizes from the .mpy that `flash` would build (only these modules are
compiled)."""

import pytest

import mpyframes

# (firmware module, qualified function name): called several times a tick
ON_C_STACK = [
    ("buttons", "Buttons.sample"),     # the runtime's wait for the next tick, every 8 ms
    ("link", "Link.poll"),             # linkplay's wake, every 8 ms while a linked game waits
    ("klotski_setup", "_word_info"),   # 625 calls in a Klotski table's setup, 64 a slice
    ("klotski_game", "SolverTask.step"),   # every slice of a Klotski table's build: up to 12 a tick
    # already within it, and as hot: kept there
    ("hw_machine", "Hardware.read_buttons"),   # the wait for the next tick, every 8 ms
    ("clock", "ticks_diff"),           # the wait (twice every 8 ms), sample, the deadlines
    ("link", "Parser.feed"),           # every byte received
]


@pytest.mark.parametrize("module, name", ON_C_STACK)
def test_hot_function_frame_stays_on_the_c_stack(module, name):
    frame = mpyframes.module_frames(module)[name]
    assert frame.kind == "bytecode"
    assert frame.words <= mpyframes.ON_STACK_WORDS, (
        "%s.%s needs %d words (n_state %d, n_exc_stack %d): its frame goes on the heap at "
        "every call on the device" % (module, name, frame.words, frame.n_state, frame.n_exc_stack))


def _locals_function(name, n_locals):
    """``name(w)`` with ``n_locals`` locals (the argument included) set by one
    chained assignment: its value stack is 2 deep (the 0 and its copy)."""
    names = " = ".join("a%d" % i for i in range(n_locals - 1))
    return "def %s(w):\n    %s = 0\n    return w\n" % (name, names)


SOURCE = _locals_function("f9", 9) + _locals_function("f10", 10) + _locals_function("f20", 20) + '''
class Box:
    def guarded(self, x, *, key=1):
        try:
            with x:
                return key
        except ValueError:
            return 0

    def outer(self):
        def inner(a, b):
            return a + b
        return inner
'''


def test_decoder_reads_known_functions():
    frames = {f.name: f for f in mpyframes.frames(mpyframes.compile_source(SOURCE))}
    assert sorted(frames) == ["<module>", "Box", "Box.guarded", "Box.outer", "Box.outer.inner",
                              "f10", "f20", "f9"]
    # the pair measured on the virtual Pico (12.7 us a call, 20.3 us on the heap):
    # 9 locals + 2 stack words on the C stack, 10 locals + 2 over the limit
    assert (frames["f9"].n_state, frames["f9"].n_exc_stack, frames["f9"].on_heap) == (11, 0, False)
    assert (frames["f10"].n_state, frames["f10"].n_exc_stack, frames["f10"].on_heap) == (12, 0, True)
    # n_state - 1 over 16 takes the signature's extension bytes
    assert frames["f20"].n_state == 22
    # try + with: two handler levels of 3 words each
    guarded = frames["Box.guarded"]
    assert guarded.n_exc_stack == 2
    assert guarded.words == guarded.n_state + 6
    assert frames["Box.outer.inner"].n_state == 4            # a, b and the two operands


def test_decoder_signature_fields():
    # py/bc.h MP_BC_PRELUDE_SIG_ENCODE of n_state 22, n_exc_stack 2, 3 positional
    # arguments, 1 keyword-only, 1 default: xSSSSEAA then xFSSKAED bytes
    S, E, F, A, K, D = 22 - 1, 2, 0, 3, 1, 1
    out = [0x80 | (S & 0xF) << 3 | (E & 1) << 2 | (A & 3)]
    S, E, A = S >> 4, E >> 1, A >> 2
    while S | E | F | A | K | D:
        out.append(0x80 | (F & 1) << 6 | (S & 3) << 4 | (K & 1) << 3 | (A & 1) << 2
                   | (E & 1) << 1 | (D & 1))
        S, E, F, A, K, D = S >> 2, E >> 1, F >> 1, A >> 1, K >> 1, D >> 1
    out[-1] &= 0x7F
    assert mpyframes.prelude_signature(bytes(out) + b"\x00")[:7] == (22, 2, 0, 3, 1, 1, len(out))
