"""The key-script grammar, written twice: host_tools/core/keyscript.py (sim, vpico,
benches, tests) and host_tools/web/site/keyscript.mjs (the web page's ``?keys=``).
Both run over the same scripts - a list of valid and invalid ones, then seeded
random ones built from the grammar's own pieces - and must give the same ticks,
and refuse the same scripts."""

import json
import random
import re
import subprocess

import pytest

from host_tools.core import UserError
from host_tools.core.keyscript import KEY_NAMES, MAX_KEY_COUNT, key_script, parse_keys
from host_tools.web.web_cmd import SITE_DIR

VALID = (
    "", "a", "b", "up down left right", "down a wait right*3", "Z X wait:7, hold:b:40 b+a",
    "UP+down*2 hold:z:0 wait:0", "wait", "WAIT", "wait:0", "wait:15", "wait:000012", "a*007",
    "hold:a:3", "HOLD:X:2", "hold:left:0", "a+b+up", "b+a", "B+A*3", "right*0", "x*2,z", ",,a,,",
    " a\tb\r\nleft\fright\vup ", "z+x", "a+a", "wait:%d" % MAX_KEY_COUNT, "hold:b:%d" % MAX_KEY_COUNT,
    "up*%d" % (MAX_KEY_COUNT // 1000),
)
INVALID = (
    "jump", "c", "wait:", "wait:-1", "wait:-0", "wait:+3", "wait:1_0", "wait:3.0", "wait:0x10",
    "wait:%d" % (MAX_KEY_COUNT + 1), "a*", "a*x", "a*2*3", "a**2", "a*-0", "a*+1", "a* 2", "*2",
    "hold:a", "hold:a:", "hold:a:1:2", "hold:q:3", "hold::3", "hold:a+b:3", "hold:a:+3", "hold:",
    "hold", "a+", "+a", "a++b", "wait3", "waitx", "wait:3:4", "a+wait", "\u212a", "\u00e9",
    "a\u00a0b", "a\x1cb", "a\x1fb", "a\x1c", "\x00", "a\x00", "constructor", "__proto__",
    "toString", "hasOwnProperty", "a+toString", "hold:constructor:1", "valueOf*2", "up*1000001",
)
NAMES = ("a", "B", "z", "X", "up", "Down", "left", "RIGHT")
COUNTS = ("0", "1", "3", "12", "007", "40")
JUNK = ("*", "+", ":", "-", "_", "\x0b", "\x1c", "q", "1000001", "\u00a0", "", "hold", "wait")
SEPARATORS = (" ", ",", "\t", "\n", " , ", "\r\n")


def js_results(scripts):
    """keyscript.mjs's answer for each script under Node: run-length ticks
    [[mask, count], ...], or {"error": message}."""
    url = (SITE_DIR / "keyscript.mjs").as_uri()
    code = """
import { readFileSync } from "node:fs";
const { parseKeys } = await import(%s);
const out = [];
for (const text of JSON.parse(readFileSync(0, "utf8"))) {
  try {
    const runs = [];
    for (const mask of parseKeys(text)) {
      if (runs.length && runs[runs.length - 1][0] === mask) runs[runs.length - 1][1]++;
      else runs.push([mask, 1]);
    }
    out.push(runs);
  } catch (e) {
    out.push({ error: String(e.message) });
  }
}
process.stdout.write(JSON.stringify(out));
""" % json.dumps(url)
    proc = subprocess.run(["node", "--input-type=module", "-e", code], input=json.dumps(scripts),
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def py_result(text):
    """The same for keyscript.py."""
    try:
        ticks = parse_keys(text)
    except UserError as exc:
        return {"error": str(exc)}
    runs = []
    for tick in ticks:
        mask = sum(1 << KEY_NAMES.index(name) for name in tick)
        if runs and runs[-1][0] == mask:
            runs[-1][1] += 1
        else:
            runs.append([mask, 1])
    return runs


def random_scripts(n, seed=1):
    """Scripts of well-formed tokens, about a third of them with one piece of
    junk put in (so the counts, separators and refusals all get exercised)."""
    rng = random.Random(seed)
    forms = (lambda: rng.choice(NAMES), lambda: rng.choice(NAMES) + "*" + rng.choice(COUNTS),
             lambda: rng.choice(NAMES) + "+" + rng.choice(NAMES), lambda: "wait",
             lambda: "wait:" + rng.choice(COUNTS), lambda: "hold:%s:%s" % (rng.choice(NAMES), rng.choice(COUNTS)))
    scripts = []
    for _ in range(n):
        text = rng.choice(SEPARATORS).join(rng.choice(forms)() for _ in range(rng.randint(1, 4)))
        if rng.random() < 0.35:
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(JUNK) + text[at + rng.randint(0, 1):]
        scripts.append(text)
    return scripts


def _agree(py, js):
    """The same ticks, or both refused (the messages may word it differently)."""
    if isinstance(py, dict) or isinstance(js, dict):
        return isinstance(py, dict) and isinstance(js, dict)
    return py == js


def test_the_lists_are_what_they_say():
    for text in VALID:
        assert "error" not in py_result(text), text
    for text in INVALID:
        assert "error" in py_result(text), text


def test_the_page_parses_every_script_as_keyscript_py():
    scripts = list(VALID) + list(INVALID) + random_scripts(3000)
    got = js_results(scripts)
    want = [py_result(text) for text in scripts]
    differ = [(text, py, js) for text, py, js in zip(scripts, want, got) if not _agree(py, js)]
    assert not differ, differ[:5]
    refused = sum(isinstance(py, dict) for py in want)
    assert 500 < refused < len(scripts) - 500             # the random ones exercise both sides


def test_ticks_of_each_token():
    tap = [frozenset(["a"])] * 2 + [frozenset()] * 2
    assert parse_keys("a") == tap
    assert parse_keys("z*2") == tap * 2
    assert parse_keys("wait") == [frozenset()] * 15
    assert parse_keys("hold:x:3") == [frozenset(["b"])] * 3 + [frozenset()] * 2
    assert parse_keys("b+a") == [frozenset(["a", "b"])] * 2 + [frozenset()] * 2


@pytest.mark.parametrize("text, message", [
    ("wait:1000001", "count in key token 'wait:1000001' is over 1000000"),
    ("jump", "unknown key 'jump' in 'jump' (use up, down, left, right, a, b, wait, wait:N"),
    ("hold:a", "bad key token 'hold:a' (use hold:NAME:TICKS)"),
    ("a*", "bad count in key token 'a*'"),
    ("wait:+3", "bad count in key token 'wait:+3'"),
    ("\u212a", "key script has a non-ASCII character"),
])
def test_errors_name_the_token(text, message):
    with pytest.raises(UserError, match="^" + re.escape(message)):
        parse_keys(text)


def test_key_script_reads_the_file_then_the_keys(tmp_path):
    path = tmp_path / "keys.txt"
    path.write_text("a\nwait:2\n", encoding="utf-8")
    assert key_script("b", str(path)) == parse_keys("a wait:2 b")
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(UserError, match="not a text file"):
        key_script(None, str(path))
    with pytest.raises(UserError, match="cannot read --keys-file"):
        key_script(None, str(tmp_path / "missing.txt"))
