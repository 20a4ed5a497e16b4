"""Every parser under seeded mutation fuzzing (host_tools/commands/fuzz.py): only its own
error type, ASCII-only acceptance, round trips; the same verdicts in MicroPython
(the Node port, GC on); and the crashes found by fuzzing, one test each."""

import json
import shutil

import pytest

import boardcfg
import klotski
import savestore as saves
import strictjson
from host_tools.commands import fuzz

from host_tools.emulation import mpvm
CASES = 2000        # per target in make test (~0.1-1 s each); `fuzz --cases 100000` is the long run


# the games' saves through the runtime (the firmware booted per case): a few
# dozen cases of fewer ticks here, CASES_SLOW of each in tests/test_fuzz_saves.py
RUNTIME = fuzz.GAME_TARGETS


@pytest.mark.parametrize("target", sorted(set(fuzz.TARGETS) - set(RUNTIME)))
def test_fuzz_target(target):
    res = fuzz.run(target, CASES, seed=1)
    assert not res.failures, "%s: %s" % (target, [f for f in res.failures if f][:3])
    # both sides of the contract were exercised
    assert res.accepted >= 10 and res.rejected >= CASES // 4, (res.accepted, res.rejected)


@pytest.mark.parametrize("target", RUNTIME)
def test_fuzz_a_games_saves_through_the_runtime(target, monkeypatch):
    monkeypatch.setattr(fuzz, "RUNTIME_TICKS", fuzz.TEST_TICKS)
    res = fuzz.run(target, fuzz.TEST_CASES, seed=1)
    assert not res.failures, "%s: %s" % (target, [f for f in res.failures if f][:3])
    # saved games resumed and refused (or other saves changed) both
    assert res.accepted >= 3 and res.rejected >= 3, (res.accepted, res.rejected)


def test_fuzz_command_reports_and_fails_on_a_broken_parser(monkeypatch, capsys):
    from host_tools.cli import main

    assert main(["fuzz", "--cases", "50", "--only", "junqi-cell"]) == 0
    assert "junqi-cell" in capsys.readouterr().out

    def crash(name):
        raise TypeError("unhashable type: 'dict'")
    seeds, make, _ = fuzz.TARGETS["junqi-cell"]
    monkeypatch.setitem(fuzz.TARGETS, "junqi-cell", (seeds, make, crash))
    assert main(["fuzz", "--cases", "50", "--only", "junqi-cell"]) == 1
    out = capsys.readouterr().out
    assert "FAIL junqi-cell: TypeError" in out and "50 inputs broke" in out


# -- the crashes fuzzing found -------------------------------------------------------------
def test_board_combo_of_non_strings_is_a_board_error():
    with pytest.raises(boardcfg.BoardError, match="combos.b must list two or more physical"):
        boardcfg.loads('{"combos":{"b":[{},null]}}')


@pytest.mark.parametrize("text", ["[" * 1000, '{"a":' * 1000, '{"name": "x", "i2c": '
                                  + "[" * 5000 + "]" * 5000 + "}"])
def test_deep_board_json_is_a_board_error(text):
    with pytest.raises(boardcfg.BoardError, match="nested deeper than 16 levels"):
        boardcfg.loads(text)


def test_board_file_not_utf8_or_unreadable_is_a_board_error(tmp_path):
    (tmp_path / "bad.json").write_bytes(b'{"name": "\xff"}')
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(boardcfg.BoardError, match="not UTF-8"):
        boardcfg.load("bad", str(tmp_path))
    with pytest.raises(boardcfg.BoardError, match="cannot read it"):
        boardcfg.load("dir", str(tmp_path))


def test_brackets_inside_strings_do_not_count_as_depth():
    assert strictjson.json_error('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[\\"[[[[["}') is None
    assert strictjson.json_error("[" * 17 + "]" * 17) and strictjson.json_error("[" * 16 + "]" * 16) is None


def _sealed(body, seq):
    return ("PPS1 %d %d %s\n" % (seq, len(body), saves.checksum(body))).encode() + body


def test_deep_save_is_damaged_and_the_bak_is_used():
    deep = _sealed(b'{"a":' + b"[" * 1000 + b"]" * 1000 + b"}", 7)
    assert saves.decode(deep) is None
    fs = saves.MemFs()
    fs.files["g.sav"] = deep
    fs.files["g.bak"] = saves.encode({"best": 4}, 6)
    assert saves.Saves(fs).load("g") == ({"best": 4}, "recovered")


# a number the writer cannot write back: json reads 1e999 as infinity and
# json.dumps writes it as Infinity (CPython) or inf (MicroPython), no JSON, so
# the save written after it would be damaged at the next boot
_MP_UNWRITABLE = r'''
import savestore as saves
def sealed(body, seq):
    return ("PPS1 %d %d %s\n" % (seq, len(body), saves.checksum(body))).encode() + body
out = []
for body in (b'{"a": 1e999}', b'{"a": [1, {"b": -1E400}]}', b'{"a": 1e308, "b": 2.5e-400}'):
    got = saves.decode(sealed(body, 7))
    out.append(None if got is None else saves.decode(saves.encode(got[1], 8)) == (8, got[1]))
fs = saves.MemFs()
fs.files["g.sav"] = sealed(b'{"best": 1e999}', 7)
fs.files["g.bak"] = saves.encode({"best": 4}, 6)
out.append(saves.Saves(fs).load("g"))
emit("unwritable", out)
'''


def test_a_number_the_writer_cannot_write_back_makes_the_save_damaged(vm):
    want = [None, None, True, ({"best": 4}, "recovered")]
    assert _on_cpython(_MP_UNWRITABLE)["unwritable"] == want
    assert vm(_MP_UNWRITABLE)["unwritable"] == want


# the same inputs on MicroPython: its json parses any depth without recursion (it
# accepted 5000 levels in the VM), so only the pre-check makes the runtimes agree
_MP_DEEP = r'''
import boardcfg, savestore as saves
def sealed(body, seq):
    return ("PPS1 %d %d %s\n" % (seq, len(body), saves.checksum(body))).encode() + body
out = []
for text in ("[" * 1000, '{"a":' * 400, '{"combos":{"b":[{},null]}}'):
    try:
        boardcfg.loads(text)
        out.append("accepted")
    except boardcfg.BoardError as exc:
        out.append(str(exc)[:60])
fs = saves.MemFs()
fs.files["g.sav"] = sealed(b'{"a":' + b"[" * 1000 + b"]" * 1000 + b"}", 7)
fs.files["g.bak"] = saves.encode({"best": 4}, 6)
out.append(saves.Saves(fs).load("g"))
emit("deep", out)
'''


def _on_cpython(code):
    got = {}
    exec(code, {"emit": got.__setitem__})
    return got


_MP_EXPECT = ["board ?: not valid JSON (nested deeper than 16 levels)"] * 2


def test_deep_json_in_the_micropython_vm(vm):
    got = vm(_MP_DEEP)["deep"]
    assert got == _on_cpython(_MP_DEEP)["deep"]
    assert got[:2] == _MP_EXPECT and got[3] == ({"best": 4}, "recovered")


def test_deep_json_in_the_node_port(node_vm):
    got = node_vm(_MP_DEEP)["deep"]
    assert got == _on_cpython(_MP_DEEP)["deep"]
    assert got[:2] == _MP_EXPECT and got[3] == ({"best": 4}, "recovered")


@pytest.mark.parametrize("layout", ["VBBV/VBBV/VHHV/VSSV/S..ß", "VBBV/VBBV/VHHV/VSSV/ſ..S",
                                    "VBBV/VBBV/VHHV/VSSV/\u0131..S", "VBBV/VBBV/VHHV/VSSV/S..S\u3000"])
def test_klotski_layout_with_unicode_look_alikes_is_refused(layout):
    with pytest.raises(klotski.LayoutError, match="unknown cell"):
        klotski.parse(layout)


def test_levels_pack_refuses_a_layout_the_device_would_read_differently(tmp_path, capsys):
    from clirun import run_cli
    (tmp_path / "a.txt").write_text("VBBV/VBBV/VHHV/VSSV/S..S\n")
    (tmp_path / "b.txt").write_text("VBBV/VBBV/VHHV/VSSV/S..\u00df\n", encoding="utf-8")
    code, out, err = run_cli(["levels", "pack", str(tmp_path), "--game", "klotski",
                              "-o", str(tmp_path / "k.bin")], capsys)
    assert code == 2 and "unknown cell" in err and not (tmp_path / "k.bin").exists()


def test_unicode_digits_are_not_numbers_anywhere():
    import junqi_board
    import trapcat
    from host_tools.core import UserError
    from host_tools.commands.klotski_cmd import parse_piece_set
    from host_tools.levels.levels_catmouse import parse_size
    with pytest.raises(boardcfg.BoardError, match="buttons.a.pin missing or not an integer"):
        cfg = json.loads(json.dumps(boardcfg.DEFAULT))
        cfg["buttons"]["a"]["pin"] = "\u0668"          # int() on CPython: 8
        boardcfg.validate(cfg)
    for bad in ("4V1H4\u00b2S", "\u0664V1H4S", "4V1H4\u017f"):
        with pytest.raises(UserError):
            parse_piece_set(bad)
    with pytest.raises(UserError):
        parse_size("\u0661\u0666x8")
    with pytest.raises(ValueError):
        junqi_board.parse_cell("\u01310")               # dotless i upper-cases to I
    with pytest.raises(trapcat.LevelError, match="U\\+00A0"):
        trapcat.parse_level("...\n.C.\n...\u00a0\n")
    body = b'{"a": 1}'
    header = ("PPS1 \u0665 %d %s\n" % (len(body), saves.checksum(body))).encode()
    assert saves.decode(header + body) is None


# -- CPython and MicroPython give the same verdicts ---------------------------------------
_DIFF_TARGETS = ("klotski-layout", "catmouse-map", "trapcat-level", "junqi-cell", "save", "board")
_DIFF_CASES = 150


# what a parser made of one input, comparable across runtimes; run as is on both
_VERDICT = r'''
import boardcfg, catmouse, junqi_board, klotski, savestore as saves, trapcat
def verdict(target, data):
    try:
        if target == "klotski-layout":
            return bytes(klotski.parse(data)).decode()
        if target == "catmouse-map":
            return catmouse.parse_map(data).to_text()
        if target == "trapcat-level":
            size, cells, cat = trapcat.parse_level(data)
            return [size, list(cells), cat]
        if target == "junqi-cell":
            return junqi_board.parse_cell(data)
        if target == "save":
            got = saves.decode(data)
            return None if got is None else got[0]
        return sorted(boardcfg.loads(data))
    except ValueError:
        return "error"
'''

_GUEST = _VERDICT + r'''
import fuzzcases
emit("verdicts", [verdict(target, data) for target, data in fuzzcases.CASES])
'''


def test_micropython_reads_fuzzed_inputs_as_cpython_does(node_vm, tmp_path):
    import random
    cases = []
    for target in _DIFF_TARGETS:
        seeds_fn, make_input, _ = fuzz.TARGETS[target]
        rng = random.Random("diff/" + target)
        seeds = seeds_fn()
        cases.extend((target, s) for s in seeds)
        for _ in range(_DIFF_CASES):
            data = make_input(rng, seeds)
            if isinstance(data, bytes) and target != "save":
                continue           # text parsers: MicroPython cannot build invalid UTF-8 str
            if isinstance(data, str):
                try:
                    data.encode()
                except UnicodeError:
                    continue       # lone surrogates: no MicroPython str holds them
            cases.append((target, data))
    fw = tmp_path / "fw"
    shutil.copytree(mpvm.FIRMWARE_DIR, fw, ignore=shutil.ignore_patterns("__pycache__"))
    (fw / "fuzzcases.py").write_text("CASES = %r\n" % (cases,), encoding="utf-8")
    got = node_vm(_GUEST, firmware_dir=fw)["verdicts"]
    host = {}
    exec(_VERDICT, host)
    want = [host["verdict"](t, d) for t, d in cases]
    diffs = [(t, d, w, g) for (t, d), w, g in zip(cases, want, got) if w != g]
    assert not diffs, "\n".join(repr(x)[:300] for x in diffs)
    accepted = sum(w != "error" and w is not None for w in want)
    assert accepted >= 80, accepted


# On the virtual Pico (official v1.28.0 RPI_PICO image in rp2040js), MicroPython's own json
# parses "[" * 1000 + "]" * 1000, then json.dumps of it raises RuntimeError (recursion),
# 5000 levels run out of heap, and {"a": 1 "b": 2}, "a"::1, [1,] and control characters in
# strings are all accepted.  Through strictjson.loads the Pico refuses them as CPython does.
_PICO_LENIENT = r'''
import strictjson
out = []
for text in ('{"a": 1 "b": 2}', '{"a"::1}', '[1,]', '"a\x0bb"', "[" * 1000 + "]" * 1000):
    try:
        strictjson.loads(text)
        out.append("accepted")
    except ValueError:
        out.append("refused")
emit("deep", out)
'''


@pytest.mark.device
def test_deep_and_lenient_json_on_the_virtual_pico():
    import ast

    from host_tools.emulation import vpico
    code = "def emit(tag, value):\n    print('@@' + repr(value))\n" + _MP_DEEP + \
        _PICO_LENIENT.replace('emit("deep", out)', 'emit("lenient", out)')
    fw = mpvm.FIRMWARE_DIR
    out = vpico.run_snippet(code, files=[str(fw / name) for name in
                                         ("boardcfg.py", "savestore.py", "strictjson.py", "asciitext.py")])
    got = [ast.literal_eval(line[2:]) for line in out.splitlines() if line.startswith("@@")]
    assert got[0] == _on_cpython(_MP_DEEP)["deep"]
    assert got[0][:2] == _MP_EXPECT and got[0][3] == ({"best": 4}, "recovered")
    assert got[1] == ["refused"] * 5
