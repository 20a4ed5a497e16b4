"""firmware/saveschema.py: what a save may hold, value by value.  Every kind
of spec kept and dropped, check() and whole(), never an exception on any JSON
value (also fuzzed: host_tools/commands/fuzz.py, "save-schema"), and the same
answers in MicroPython."""

import json

import pytest

import runtime
import saveschema as ss

_SETTINGS = ss.settings(runtime.SLEEP_CHOICES)


@pytest.mark.parametrize("spec, good, bad", [
    (ss.integer(0, 2), [0, 1, 2], [-1, 3, True, False, 1.0, "1", None, [1], {"a": 1}]),
    (ss.integer(-5, 2 ** 40), [-5, 0, 2 ** 40], [-6, 2 ** 40 + 1, 2.5]),
    (ss.boolean(), [True, False], [0, 1, "true", None, 1.0]),
    (ss.text(3), ["", "abc"], ["abcd", 3, None, ["a"]]),
    (ss.hexbytes(2, 1, 3), ["00ff", "0a0B0c0d", "000000000000"],
     ["", "00f", "00ff00", "00000000000000000000", "zz00", "00 f", 12, None]),
    (ss.hexbytes(6, 0, 64), ["", "00" * 6 * 64], ["00" * 6 * 65, "00" * 5]),
    (ss.one_of((30, 60, 300, 0)), [30, 0, 300], [False, True, 30.0, "30", 45, None]),
    (ss.one_of(("mouse", "cat")), ["cat"], ["dog", "Cat", 0, None]),
    (ss.maybe(ss.integer(0, 9)), [None, 0, 9], [10, "x", False]),
    (ss.list_of(ss.integer(0, 9), 3), [[], [1, 2, 3]], [[1, 2, 3, 4], [1, "2"], [1, True], "123", None]),
    (ss.row(ss.integer(3, 9), ss.text(4), ss.boolean()), [[3, "ab", True]],
     [[3, "ab"], [3, "ab", True, 1], [2, "ab", True], [3, "abcde", False], (3, "ab", True)]),
    (ss.fields(("a", ss.integer(0, 1))), [{"a": 0}], [[0], None, "a"]),
])
def test_each_kind_keeps_what_fits_and_drops_the_rest(spec, good, bad):
    schema = ss.fields(("k", spec))
    for value in good:
        assert ss.check(schema, {"k": value}) == ({"k": value}, []), value
        assert ss.whole(schema, {"k": value}), value
    for value in bad:
        got, dropped = ss.check(schema, {"k": value, "other": 1})
        assert dropped == ["k"] and "k" not in got, value
        assert not ss.whole(schema, {"k": value}), value


def test_settings_keep_every_value_that_fits():
    good = {"difficulty": 2, "contrast": 24, "sound": False, "sleep": 0}
    assert ss.check(_SETTINGS, good) == (good, [])
    got, dropped = ss.check(_SETTINGS, {"contrast": "x", "difficulty": 2, "sleep": 45,
                                        "sound": True, "old": 1})
    assert got == {"difficulty": 2, "sound": True} and sorted(dropped) == ["contrast", "sleep"]
    assert ss.check(_SETTINGS, {}) == ({}, [])                         # nothing saved yet


def test_a_dict_of_keeps_its_entries_that_fit():
    schema = ss.fields(("best", ss.dict_of(ss.integer(1, 999), 4, 6)), ("n", ss.COUNT))
    data = {"best": {"abc": 5, "toolongkey": 5, "x": 0, "y": "7"}, "n": 4}
    assert ss.check(schema, data) == ({"best": {"abc": 5}, "n": 4}, ["best"])
    assert not ss.whole(schema, data)
    assert ss.check(schema, {"best": dict.fromkeys("abcde", 1)}) == ({}, ["best"])   # too many
    assert ss.whole(schema, {"best": {}, "n": 0})


def test_nested_fields_drop_inside_and_whole_wants_every_key():
    schema = ss.fields(("snap", ss.fields(("a", ss.integer(0, 9)), ("b", ss.maybe(ss.text(2))))))
    assert ss.check(schema, {"snap": {"a": 10, "b": None}}) == ({"snap": {"b": None}}, ["snap"])
    assert ss.check(schema, {"snap": {"a": 1}}) == ({"snap": {"a": 1}}, [])   # missing: not dropped
    assert not ss.whole(schema, {"snap": {"a": 1}})
    assert ss.whole(schema, {"snap": {"a": 1, "b": "xy"}, "extra": [1]})
    assert not ss.whole(schema, {"snap": {"a": 1, "b": "xyz"}})


def test_a_list_goes_whole_when_one_item_does_not_fit():
    schema = ss.fields(("l", ss.list_of(ss.fields(("a", ss.integer(0, 1))), 4)))
    assert ss.check(schema, {"l": [{"a": 1}, {"a": 0, "z": 5}]}) == ({"l": [{"a": 1}, {"a": 0}]}, [])
    assert ss.check(schema, {"l": [{"a": 1}, {"a": 2}]}) == ({}, ["l"])
    assert ss.check(schema, {"l": [{"a": 1}, {}]}) == ({}, ["l"])          # an item is whole or nothing


def test_unknown_keys_are_left_out_unreported_and_data_that_is_no_dict_loses_all():
    schema = ss.fields(("a", ss.COUNT), ("b", ss.boolean()))
    assert ss.check(schema, {"a": 1, "zz": 2}) == ({"a": 1}, [])
    for junk in (None, [], 3, "x", 1.5, True):
        assert ss.check(schema, junk) == ({}, ["a", "b"])
        assert not ss.whole(schema, junk)


def _values(depth=0):
    """JSON values of every kind, nested a little."""
    out = [None, True, False, 0, -1, 1, 2, 255, 256, 2 ** 30, 2 ** 62, 1.0, -0.0, 1e308, "",
           "x", "00ff", "zz", "a" * 40]
    if depth < 2:
        inner = _values(depth + 1)
        out += [[], {}, inner[:7], {"a": 1, "b": inner[3]}, {str(i): v for i, v in enumerate(inner[:9])},
                [[1, "ab", True]], {"x": {"y": [1, 2]}}]
    return out


_EVERY_KIND = ss.fields(
    ("i", ss.integer(0, 255)), ("b", ss.boolean()), ("t", ss.text(3)), ("h", ss.hexbytes(2, 0, 2)),
    ("o", ss.one_of((0, "a", True))), ("m", ss.maybe(ss.row(ss.integer(0, 9), ss.text(2), ss.boolean()))),
    ("l", ss.list_of(ss.maybe(ss.integer(0, 2)), 5)), ("d", ss.dict_of(ss.COUNT, 8, 2)),
    ("f", ss.fields(("a", ss.integer(0, 9)), ("b", ss.list_of(ss.COUNT, 3)))))


def test_never_raises_and_what_it_keeps_fits():
    keys = [k for k, _ in _EVERY_KIND[1]]
    values = _values()
    n = 0
    for i, key in enumerate(keys):
        for v in values:
            data = {key: v, keys[(i + 1) % len(keys)]: values[(n * 7) % len(values)]}
            n += 1
            got, dropped = ss.check(_EVERY_KIND, data)
            assert isinstance(got, dict) and set(got) <= set(data)
            assert ss.check(_EVERY_KIND, got) == (got, [])              # what is kept fits
            assert set(dropped) <= set(data)
            assert ss.whole(_EVERY_KIND, data) is False                 # keys are missing
            json.dumps(got)


# the same answers in MicroPython (bool is an int there too; 2**62 is a big int)
_GUEST = r'''
import saveschema as ss
S = ss.fields(
    ("i", ss.integer(0, 255)), ("b", ss.boolean()), ("t", ss.text(3)), ("h", ss.hexbytes(2, 0, 2)),
    ("o", ss.one_of((0, "a", True))), ("m", ss.maybe(ss.row(ss.integer(0, 9), ss.text(2), ss.boolean()))),
    ("l", ss.list_of(ss.maybe(ss.integer(0, 2)), 5)), ("d", ss.dict_of(ss.COUNT, 8, 2)),
    ("f", ss.fields(("a", ss.integer(0, 9)), ("b", ss.list_of(ss.COUNT, 3)))))
out = []
for v in (None, True, False, 0, 1, 255, 256, 2 ** 62, 1.0, "", "ab", "00ff", "0g", [1, None, 2],
          [1, True], [3, "ab", False], {"a": 5, "b": [1, 2]}, {"a": 5, "b": [1.5]}, {"x": 1, "long": 2}):
    for key in ("i", "b", "t", "h", "o", "m", "l", "d", "f"):
        got, dropped = ss.check(S, {key: v})
        out.append((key in got, dropped))
good = {"i": 1, "b": True, "t": "ab", "h": "", "o": "a", "m": None, "l": [], "d": {}, "f": {"a": 1, "b": []}}
out.append(ss.whole(S, good))
good["i"] = True
out.append(ss.whole(S, good))
emit("answers", out)
'''


def test_micropython_gives_the_same_answers(vm):
    host = {}
    exec(_GUEST, {"emit": host.__setitem__})
    got = vm(_GUEST)["answers"]
    assert [tuple(x) if isinstance(x, list) else x for x in got] == host["answers"]
    assert host["answers"][-2:] == [True, False]
