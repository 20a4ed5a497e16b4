"""What a save may hold, checked value by value.

The save store (savestore.py) hands back whole, plain-ASCII JSON objects, but
says nothing of what their values mean: a hand-edited file, an older
firmware's or a bug's save can hold ``{"contrast": "x"}`` under a valid CRC.
A *schema* names each key a save may hold and what its value may be;
``check(schema, data)`` keeps what fits and drops the rest (the settings, a
game's records: what is left is still worth having), ``whole(schema, data)``
says whether every key is there and fits (a game in progress is put back
whole or not at all).

A schema is ``fields(...)``; its values are *specs*, small tuples built with
these functions:

  integer(lo, hi)               an int with lo <= value <= hi (True and False are no ints here)
  boolean()                     True or False
  text(most)                    a string of at most ``most`` characters
  hexbytes(size, least, most)   hex text (undosave.to_text) of ``least``..``most``
                                records of ``size`` bytes each (exact length: least == most)
  one_of(values)                one of the tuple ``values``, of the same type (1 is not True nor 1.0)
  maybe(spec)                   None, or what ``spec`` allows
  list_of(spec, most)           a list of at most ``most`` items, each fitting ``spec``
  row(spec, ...)                a list of exactly these items, each fitting its own spec
  dict_of(spec, most, key_len)  a dict of at most ``most`` entries, keys of at most
                                ``key_len`` characters, values fitting ``spec``
  fields((key, spec), ...)      a dict with these keys: a save's schema, or one of its values
COUNT is ``integer(0, 2**30 - 1)``, a record's counter (a small int on the device).

What ``check`` drops: a key of ``fields`` whose value does not fit; an entry
of ``dict_of`` that does not fit (the rest of that dict is kept); a list
(``list_of``, ``row``) as a whole when one of its items does not fit (an
item is checked as ``whole`` checks: a fields item with a key missing does
not fit).  Its
``dropped`` list names the schema's top-level keys that lost something.  A
key the schema does not name is left out unreported (an older or a newer
firmware's: nothing this one reads); a missing key is simply missing (the
reader's default applies).  ``whole`` counts a missing key of a ``fields``
as not fitting.

Never raises, whatever JSON value it gets.  It recurses as deep as the schema
nests (two or three levels), never as deep as the data.  Imported only where
a save is read (the runtime's settings at boot, a game's start or CONTINUE):
main.py drops it after the boot, so the launcher does not keep it.

A game's own checks (catmouse_saves, junqi_saves, trapcat_saves,
klotski_saves) read through ``read(ctx, data, schema, name)``: its records,
checked, the toast "RECORDS RESET" when something was dropped; ``done(name)``
drops this module and the game's (``name``) from sys.modules once a save is
read (MicroPython ports only), so a game in play carries neither.
"""

try:
    from micropython import const
except ImportError:
    def const(value):
        return value

_INT = const(0)
_BOOL = const(1)
_TEXT = const(2)
_HEX = const(3)
_ONE_OF = const(4)
_MAYBE = const(5)
_LIST = const(6)
_ROW = const(7)
_DICT = const(8)
_FIELDS = const(9)

_NO = object()          # what _fit returns for a value that does not fit
_HEX_DIGITS = "0123456789abcdefABCDEF"


def integer(lo, hi):
    return (_INT, lo, hi)


def boolean():
    return (_BOOL,)


def text(most):
    return (_TEXT, most)


def hexbytes(size, least, most):
    return (_HEX, size, least, most)


def one_of(values):
    return (_ONE_OF, tuple(values))


def maybe(spec):
    return (_MAYBE, spec)


def list_of(spec, most):
    return (_LIST, spec, most)


def row(*specs):
    return (_ROW, specs)


def dict_of(spec, most, key_len):
    return (_DICT, spec, most, key_len)


def fields(*pairs):
    return (_FIELDS, pairs)


COUNT = integer(0, 0x3FFFFFFF)


def settings(sleep_choices):
    """The launcher's settings (the save runtime.SETTINGS_ID); ``sleep_choices``
    is runtime.SLEEP_CHOICES (passed in: this module imports no firmware module)."""
    return fields(("difficulty", integer(0, 2)), ("contrast", integer(0, 255)),
                  ("sound", boolean()), ("sleep", one_of(sleep_choices)))


def _hex_fits(value, size, least, most):
    if not isinstance(value, str):
        return False
    n = len(value)
    if n % (2 * size) or not least <= n // (2 * size) <= most:
        return False
    for ch in value:
        if ch not in _HEX_DIGITS:
            return False
    return True


def _fit(spec, value, whole, lost):
    """``value`` as kept (a dict rebuilt without what was dropped from it), or
    _NO when it does not fit; ``lost[0]`` counts what was dropped inside it."""
    kind = spec[0]
    if kind == _INT:
        ok = isinstance(value, int) and not isinstance(value, bool) and spec[1] <= value <= spec[2]
        return value if ok else _NO
    if kind == _BOOL:
        return value if value is True or value is False else _NO
    if kind == _TEXT:
        return value if isinstance(value, str) and len(value) <= spec[1] else _NO
    if kind == _HEX:
        return value if _hex_fits(value, spec[1], spec[2], spec[3]) else _NO
    if kind == _ONE_OF:
        for choice in spec[1]:
            if type(choice) is type(value) and choice == value:
                return value
        return _NO
    if kind == _MAYBE:
        return None if value is None else _fit(spec[1], value, whole, lost)
    if kind == _LIST or kind == _ROW:
        return _fit_list(spec, value, lost)
    if kind == _DICT:
        if not isinstance(value, dict) or len(value) > spec[2]:
            return _NO
        out = {}
        for key in value:
            got = _NO
            if isinstance(key, str) and len(key) <= spec[3]:
                got = _fit(spec[1], value[key], whole, lost)
            if got is _NO:
                lost[0] += 1
            else:
                out[key] = got
        return out
    if kind == _FIELDS:
        if not isinstance(value, dict):
            return _NO
        out = {}
        for key, sub in spec[1]:
            if key in value:
                got = _fit(sub, value[key], whole, lost)
                if got is _NO:
                    lost[0] += 1
                else:
                    out[key] = got
            elif whole:
                lost[0] += 1
        return out
    return _NO


def _fit_list(spec, value, lost):
    """A list_of or row: kept whole (a new list) or _NO; its items are checked
    as ``whole`` does (a fields item with a key missing does not fit)."""
    if not isinstance(value, list):
        return _NO
    n = len(value)
    is_list = spec[0] == _LIST
    if (n > spec[2]) if is_list else (n != len(spec[1])):
        return _NO
    before = lost[0]
    out = []
    for i in range(n):
        got = _fit(spec[1] if is_list else spec[1][i], value[i], True, lost)
        if got is _NO or lost[0] != before:
            return _NO
        out.append(got)
    return out


def check(schema, data):
    """(what of ``data`` fits ``schema``, the schema's keys that lost something).
    ``data`` that is not a dict keeps nothing and loses every key."""
    if not isinstance(data, dict):
        return {}, [key for key, _ in schema[1]]
    lost = [0]
    out = {}
    dropped = []
    for key, spec in schema[1]:
        if key in data:
            before = lost[0]
            got = _fit(spec, data[key], False, lost)
            if got is not _NO:
                out[key] = got
            if got is _NO or lost[0] != before:
                dropped.append(key)
    return out, dropped


def whole(schema, data):
    """True when every key of ``schema`` is in ``data`` and fits, all the way down."""
    lost = [0]
    return _fit(schema, data, True, lost) is not _NO and not lost[0]


def done(name):
    """Drop this module and module ``name`` (the caller's) from sys.modules on
    MicroPython ports: they leave the heap once their callers let go."""
    import sys
    if sys.implementation.name != "cpython":
        sys.modules.pop("saveschema", None)
        sys.modules.pop(name, None)


def read(ctx, data, schema, name):
    """A save's ``data`` (what ``ctx.load`` read) checked against ``schema``:
    what does not fit is dropped and "RECORDS RESET" says so (the reader's
    defaults apply), the rest is kept; then ``done(name)``."""
    got, dropped = check(schema, data)
    done(name)
    if dropped:
        ctx.toast("RECORDS RESET", 60)
    return got
