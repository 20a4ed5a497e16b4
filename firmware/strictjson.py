# Strict JSON for saves, board files and level-pack metadata: ``loads(raw)``
# accepts exactly the same texts on CPython and MicroPython, and raises only
# ValueError (never RecursionError).
#
# CPython's json recurses (RecursionError near 1000 levels); MicroPython's parses
# any depth (its recursive json.dumps then runs out of C stack) and is lenient:
# it reads {"a": 1 "b": 2} (no comma), "a"::1 and control characters inside
# strings, all errors on CPython.  So ``loads`` checks the text against strict
# JSON first, in one pass without recursion (``json_error``), then calls
# json.loads.  Saves and board files nest 2-3 levels; MAX_JSON_DEPTH is 16.
# (comments, not a docstring: the launcher imports this module, and a docstring
# stays on the heap of a MicroPython that compiles the source)

import json

try:
    from micropython import const
except ImportError:
    def const(x):
        return x

MAX_JSON_DEPTH = 16
_MAX_NUMBER = 24            # characters in one number


def _skip_string(raw, i, n):
    """Index after the string whose opening quote is at i - 1, or -1."""
    while i < n:
        c = raw[i]
        if c == 34:
            return i + 1
        if c < 32:
            return -1
        if c == 92:
            i += 1
            if i >= n:
                return -1
            c = raw[i]
            if c == 117:                            # \uXXXX, no surrogate halves
                if i + 4 >= n:
                    return -1
                for k in range(1, 5):
                    h = raw[i + k] | 32
                    if not (48 <= h <= 57 or 97 <= h <= 102):
                        return -1
                if raw[i + 1] | 32 == 100 and raw[i + 2] | 32 >= 56:
                    return -1
                i += 4
            elif c not in b'"\\/bfnrt':
                return -1
        i += 1
    return -1


def _skip_number(raw, i, n):
    """Index after the number starting at i, or -1."""
    start = i
    if raw[i] == 45:                                # -
        i += 1
    if i < n and raw[i] == 48:
        i += 1
    elif i < n and 49 <= raw[i] <= 57:
        while i < n and 48 <= raw[i] <= 57:
            i += 1
    else:
        return -1
    if i < n and raw[i] == 46:                      # .
        i += 1
        if not (i < n and 48 <= raw[i] <= 57):
            return -1
        while i < n and 48 <= raw[i] <= 57:
            i += 1
    if i < n and raw[i] | 32 == 101:                # e E
        i += 1
        if i < n and (raw[i] == 43 or raw[i] == 45):
            i += 1
        if not (i < n and 48 <= raw[i] <= 57):
            return -1
        while i < n and 48 <= raw[i] <= 57:
            i += 1
    return i if i - start <= _MAX_NUMBER else -1


# what comes next
_VALUE = const(0)
_VALUE_OR_END = const(1)      # after [
_KEY_OR_END = const(2)        # after {
_KEY = const(3)
_COLON = const(4)
_MORE = const(5)              # , or the closing bracket
_DONE = const(6)


def json_error(raw, limit=MAX_JSON_DEPTH):
    """None when ``raw`` (str or bytes) is one strict JSON value nested at most
    ``limit`` deep; otherwise a short reason naming the byte."""
    if isinstance(raw, str):
        raw = raw.encode()
    n = len(raw)
    kinds = bytearray(limit)
    depth = 0
    want = _VALUE
    i = 0
    while True:
        while i < n and (raw[i] == 32 or raw[i] == 10 or raw[i] == 13 or raw[i] == 9):
            i += 1
        if i >= n:
            return None if want == _DONE else "unexpected end"
        b = raw[i]
        if want == _DONE:
            return "extra data at byte %d" % i
        if want == _COLON:
            if b != 58:
                return "expected ':' at byte %d" % i
            i += 1
            want = _VALUE
            continue
        if want == _MORE or (want == _VALUE_OR_END and b == 93) or (want == _KEY_OR_END
                                                                     and b == 125):
            top = kinds[depth - 1]
            if b == 44 and want == _MORE:
                want = _VALUE if top == 91 else _KEY
            elif b == top + 2:                      # ] after [, } after {
                depth -= 1
                want = _MORE if depth else _DONE
            else:
                return "expected ',' or a closing bracket at byte %d" % i
            i += 1
            continue
        if want >= _KEY_OR_END and b != 34:
            return "expected a key string at byte %d" % i
        if b == 34:
            start = i
            i = _skip_string(raw, i + 1, n)
            if i < 0:
                return "bad string at byte %d" % start
            want = _COLON if want >= _KEY_OR_END else (_MORE if depth else _DONE)
            continue
        if b == 91 or b == 123:
            if depth >= limit:
                return "nested deeper than %d levels" % limit
            kinds[depth] = b
            depth += 1
            i += 1
            want = _VALUE_OR_END if b == 91 else _KEY_OR_END
            continue
        if b == 116 and raw[i:i + 4] == b"true" or b == 110 and raw[i:i + 4] == b"null":
            i += 4
        elif b == 102 and raw[i:i + 5] == b"false":
            i += 5
        else:
            start = i
            i = _skip_number(raw, i, n)
            if i < 0:
                return "bad value at byte %d" % start
        want = _MORE if depth else _DONE


def loads(raw):
    """json.loads of strict JSON text (str or UTF-8 bytes): ValueError for
    anything else, the same on CPython and MicroPython (never RecursionError)."""
    if not isinstance(raw, str):
        raw = bytes(raw).decode()               # UnicodeError is a ValueError
    err = json_error(raw)
    if err:
        raise ValueError(err)
    return json.loads(raw)
