"""The docs cannot drift from the code: README.md and docs/*.md checked three ways.

1. Figures: every measured figure sits in a cog block written by
   host_tools/commands/docfigs.py from the committed bench snapshot
   (docs/figures/bench.json); a doc whose block differs from what the generator
   writes fails here (`make docs` rewrites them). Only the blocks are compared, so
   prose edits elsewhere never trip this test.
2. Examples: a fenced block whose info string says ``runnable`` is executed.
   ``sh runnable``: each ``$ `` line is a command (``python -m host_tools ...``,
   run in-process in a scratch folder that sees the checkout's maps/, boards/,
   firmware/); the lines after it, up to the next command, are the output it must
   print (``...`` stands for any lines). ``python runnable file=NAME`` is written to
   NAME in that folder first (for a later command of the same page);
   ``python runnable`` is executed. ``slow`` in the info string marks an example
   that takes 0.5 s or more (part of `make test`, not `make test-fast`).
   ``python imports-checked``: an example too long for the suite (it boots the
   virtual Pico, whose own tests run the same calls) is compiled and its imports run.
3. Names: a path in backticks (``firmware/x.py``, ``host_tools/...``, ``tests/...``)
   must exist, ``path.py: NAME`` must be defined in that file, and ``module.NAME``
   of a firmware module (``gridpath.GridSearch``) must be defined in it.
"""

import contextlib
import io
import os
import re
import shlex
from pathlib import Path

import pytest

from host_tools.commands import docfigs, docs_cmd
from host_tools.core.fwpath import ROOT

DOCS = docs_cmd.doc_files()
FENCE = re.compile(r"^```(.*)$")
SHELL_START = re.compile(r"^(\$ )?(python3? |\.venv/bin/python |make |mpremote |sudo |pip )")


def fenced_blocks(path):
    """(line number, info string, lines) of every fenced block of a markdown file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 1, m.group(1).strip(), lines[i + 1:j]))
            i = j
        i += 1
    return out


def indented_examples(path):
    """Line numbers of indented (4-space) blocks that hold a command."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [i + 1 for i, line in enumerate(lines)
            if line.startswith("    ") and SHELL_START.match(line[4:]) and (i == 0 or not lines[i - 1].strip())]


def is_example(info, body):
    """A shell or Python example (not a diagram, a table of output, a wire format)."""
    if info.split()[:1] in (["python"], ["sh"]):
        return True
    return any(SHELL_START.match(line) for line in body)


def runnable_blocks():
    out = []
    for path in DOCS:
        for lineno, info, _ in fenced_blocks(path):
            words = info.split()
            if "runnable" in words:
                marks = [pytest.mark.slow] if "slow" in words else []
                rel = path.relative_to(ROOT)
                out.append(pytest.param(path, lineno, id="%s:%d" % (rel, lineno), marks=marks))
    return out


def imports_checked_blocks():
    return [pytest.param(path, lineno, id="%s:%d" % (path.relative_to(ROOT), lineno))
            for path in DOCS for lineno, info, _ in fenced_blocks(path) if "imports-checked" in info.split()]


def example_counts():
    """(examples run by the tests, examples that are prose only) over README.md and docs/*.md:
    a shell command is one example (a ``$ `` line of a runnable block; a command line of another
    block or of an indented one), a Python block is one."""
    checked = prose = 0
    for path in DOCS:
        for _, info, body in fenced_blocks(path):
            words = info.split()
            if "runnable" in words:
                checked += 1 if words[0] == "python" else sum(1 for line in body if line.startswith("$ "))
            elif "imports-checked" in words:
                continue
            elif words[:1] == ["python"]:
                prose += 1
            elif is_example(info, body):
                prose += sum(1 for line in body if SHELL_START.match(line))
        lines = path.read_text(encoding="utf-8").splitlines()
        for start in indented_examples(path):
            i = start - 1
            while i < len(lines) and lines[i].startswith("    "):
                prose += 1 if SHELL_START.match(lines[i][4:]) else 0
                i += 1
    return checked, prose


# ---------- 1. figures


def test_generated_figures_match_the_snapshot():
    stale = docs_cmd.stale()
    assert not stale, "generated figures out of date (run `make docs`):\n" + "\n".join(d for _, d in stale)


def test_every_doc_with_a_figure_block_is_generated_from_the_snapshot():
    blocks = sum(p.read_text(encoding="utf-8").count("[[[cog") for p in DOCS)
    assert blocks >= 10
    assert docfigs.SNAPSHOT.exists()


def test_a_missing_figure_is_a_one_line_error(tmp_path):
    from host_tools.core import UserError

    empty = tmp_path / "bench.json"
    empty.write_text('{"rows": []}')
    saved = docfigs._rows
    try:
        docfigs.use(empty)
        with pytest.raises(UserError, match="bench snapshot: no figure"):
            docfigs.readme_figures()
    finally:
        docfigs._rows = saved


def test_make_docs_merges_a_partial_bench_run(tmp_path):
    def row(section, name, value):
        return {"section": section, "name": name, "value": value}

    snap = tmp_path / "snap.json"
    snap.write_text(__import__("json").dumps({"rows": [row("a", "x", 1), row("b", "y", 2), row("b", "gone", 3),
                                                       row("c", "z", 4)]}))
    run = tmp_path / "bench.json"
    run.write_text(__import__("json").dumps({"generated": "now", "rows": [row("b", "y", 20), row("d", "w", 5)]}))
    merged = docs_cmd.merge_snapshot(run, snap)["rows"]
    assert [(r["section"], r["name"], r["value"]) for r in merged] == [
        ("a", "x", 1), ("b", "y", 20), ("c", "z", 4), ("d", "w", 5)]


def test_make_docs_writes_nothing_when_the_run_lacks_a_figure(tmp_path, monkeypatch, capsys):
    import json
    import shutil

    from clirun import run_cli

    readme = tmp_path / "README.md"
    shutil.copy(ROOT / "README.md", readme)
    snapshot = tmp_path / "bench.json"
    shutil.copy(docfigs.SNAPSHOT, snapshot)
    rows = json.loads(snapshot.read_text(encoding="utf-8"))["rows"]
    run = tmp_path / "run.json"
    run.write_text(json.dumps({"rows": [r for r in rows if r["section"].startswith(docfigs.VPICO)
                                        and r["name"] != "Klotski peak live heap"]}))
    monkeypatch.setattr(docs_cmd, "doc_files", lambda: [readme])
    monkeypatch.setattr(docfigs, "SNAPSHOT", snapshot)
    monkeypatch.setattr(docfigs, "_rows", None)
    before = (readme.read_bytes(), snapshot.read_bytes())
    code, out, err = run_cli(["docs", "--bench", str(run)], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "no figure 'Klotski peak live heap'" in err
    assert (readme.read_bytes(), snapshot.read_bytes()) == before


def test_a_missing_bench_file_is_an_error(tmp_path, capsys):
    from clirun import run_cli

    code, out, err = run_cli(["docs", "--bench", str(tmp_path / "none.json")], capsys)
    assert code == 2 and "none.json: no such file" in err and len(err.strip().splitlines()) == 1


# ---------- 2. examples


def _commands(body):
    """(command, expected output lines) of a ``sh runnable`` block."""
    cmds = []
    for line in body:
        if line.startswith("$ "):
            cmds.append((line[2:], []))
        elif cmds:
            cmds[-1][1].append(line)
        elif line.strip():
            raise AssertionError("output before the first `$ ` command: %r" % line)
    return cmds


def _matches(expected, actual):
    """``expected`` lines against ``actual``; a line ``...`` matches any run of lines."""
    expected = [e.rstrip() for e in expected]
    actual = [a.rstrip() for a in actual]
    while expected and not expected[-1]:
        expected.pop()
    while actual and not actual[-1]:
        actual.pop()
    if "..." not in expected:
        return len(expected) == len(actual) and all(
            a == e or (e.endswith(" ...") and a.startswith(e[:-3])) for e, a in zip(expected, actual))
    k = expected.index("...")
    head, tail = expected[:k], expected[k + 1:]
    if not _matches(head, actual[:len(head)]):
        return False
    rest = actual[len(head):]
    return any(_matches(tail, rest[i:]) for i in range(len(rest) + 1))


@contextlib.contextmanager
def _scratch(tmp_path):
    for name in ("maps", "boards", "firmware", "host_tools", "third_party"):
        (tmp_path / name).symlink_to(ROOT / name)
    old = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(old)


def _run(command):
    from host_tools import cli

    argv = shlex.split(command, comments=True)
    assert argv[:3] == ["python", "-m", "host_tools"], "a runnable command is `python -m host_tools ...`"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(argv[3:])
        except SystemExit as exc:
            code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path, lineno", runnable_blocks())
def test_runnable_example(path, lineno, tmp_path):
    blocks = fenced_blocks(path)
    with _scratch(tmp_path):
        for n, info, body in blocks:
            words = info.split()
            if n > lineno:
                break
            if "runnable" in words and any(w.startswith("file=") for w in words) and n < lineno:
                name = [w for w in words if w.startswith("file=")][0][5:]
                Path(name).write_text("\n".join(body) + "\n", encoding="utf-8")
            if n != lineno:
                continue
            if words[0] == "python":
                if any(w.startswith("file=") for w in words):
                    compile("\n".join(body), path.name, "exec")
                    continue
                out = io.StringIO()
                with contextlib.redirect_stdout(out):
                    exec(compile("\n".join(body), "%s:%d" % (path.name, lineno), "exec"), {"__name__": "__doc__"})
                continue
            assert words[0] == "sh", "a runnable block is `sh` or `python`"
            for command, expected in _commands(body):
                code, out, err = _run(command)
                assert code == 0, "%s:%d: `%s` exited %s\n%s" % (path.name, lineno, command, code, err)
                if any(e.strip() for e in expected):
                    assert _matches(expected, out.splitlines()), (
                        "%s:%d: `%s` printed\n%s\nthe doc shows\n%s" % (path.name, lineno, command, out,
                                                                        "\n".join(expected)))


@pytest.mark.parametrize("path, lineno", imports_checked_blocks())
def test_example_compiles_and_imports(path, lineno):
    import ast

    body = next(b for n, _, b in fenced_blocks(path) if n == lineno)
    tree = ast.parse("\n".join(body), "%s:%d" % (path.name, lineno))
    imports = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))]
    assert imports, "an imports-checked example imports what it uses"
    exec(compile(ast.Module(body=imports, type_ignores=[]), path.name, "exec"), {})


def test_examples_are_counted():
    checked, prose = example_counts()
    assert checked >= 20
    print("doc examples: %d run by the tests, %d compiled with their imports run, %d prose only" % (
        checked, len(imports_checked_blocks()), prose))


# ---------- 3. names that point at code

PATH_RE = re.compile(r"`((?:firmware|host_tools|tests|boards|maps|docs|third_party)/[A-Za-z0-9_./-]*)"
                     r"(?::\s*([A-Za-z_][A-Za-z0-9_]*))?`")
SPLIT_PATH_RE = re.compile(r"`((?:firmware|host_tools|tests)/[A-Za-z0-9_./-]*\.py):\s*\n?\s*([A-Z_][A-Z0-9_]*)`")
DOTTED_RE = re.compile(r"`([a-z][a-z0-9_]*)\.([A-Za-z_][A-Za-z0-9_]*)(?:[.(][^`]*)?`")
NAME_IN_FILE_RE = re.compile(r"`([A-Za-z_][A-Za-z0-9_]*)` in `?((?:firmware|host_tools)/[A-Za-z0-9_/]+\.py)")


def _prose(path):
    """The text of a doc outside fenced blocks."""
    text, inside = [], False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = not inside
            continue
        if not inside:
            text.append(line)
    return "\n".join(text)


# paths in backticks that are not in the checkout, and why
NOT_IN_CHECKOUT = {
    "firmware/manifest.json": "a file of the built web site (docs/web.md lists the site's files)",
}


def _defines(py, name):
    """``name`` is defined at some level of ``py`` (def, class, assignment, import)."""
    src = py.read_text(encoding="utf-8")
    n = re.escape(name)
    return re.search(r"^\s*(?:async\s+)?(?:def|class)\s+%s\b|^\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*,\s*)*%s\s*"
                     r"(?:,\s*[A-Za-z_][A-Za-z0-9_]*\s*)*(?::[^=\n]*)?=[^=]|^\s*(?:from\s+\S+\s+)?import\b.*\b%s\b"
                     % (n, n, n), src, re.M) is not None


def _placeholder(target):
    """A path written as a pattern (``boards/NAME.json``, ``firmware/<game>*.py``) or the
    conventions' example game (``lights``), not a file."""
    return ("<" in target or "*" in target or "lights" in target
            or any(part.isupper() for part in re.split(r"[/._-]", target) if part))


def code_names():
    """(doc, name as written, problem or None) of every name in prose that points at code."""
    found = []
    for path in DOCS:
        rel = path.relative_to(ROOT)
        text = _prose(path)
        for m in list(PATH_RE.finditer(text)) + list(SPLIT_PATH_RE.finditer(text)):
            target, name = m.group(1).rstrip("./"), m.group(2)
            if _placeholder(target) or target in NOT_IN_CHECKOUT:
                continue
            file = ROOT / target
            if not file.exists() and "." in target.rsplit("/", 1)[-1] and not name:
                # `tests/gamectx.FakeCtx`: a module and a name in it
                stem, _, attr = target.rpartition(".")
                if (ROOT / (stem + ".py")).exists():
                    file, name = ROOT / (stem + ".py"), attr
            if not file.exists():
                found.append((rel, m.group(0), "no such file"))
            elif name and file.suffix == ".py" and not _defines(file, name):
                found.append((rel, m.group(0), "%s defines no %s" % (target, name)))
            else:
                found.append((rel, m.group(0), None))
        for m in NAME_IN_FILE_RE.finditer(text):
            file = ROOT / m.group(2)
            ok = file.exists() and _defines(file, m.group(1))
            found.append((rel, m.group(0), None if ok else "%s defines no %s" % (m.group(2), m.group(1))))
        for m in DOTTED_RE.finditer(text):
            module, name = m.group(1), m.group(2)
            file = ROOT / "firmware" / (module + ".py")
            if not file.exists() or name in ("py", "json", "txt", "mpy", "bin", "tbl", "md", "png", "svg", "gif"):
                continue
            ok = _defines(file, name)
            found.append((rel, m.group(0), None if ok else "firmware/%s.py defines no %s" % (module, name)))
    return found


def test_names_in_prose_exist():
    names = code_names()
    bad = ["%s: %s: %s" % n for n in names if n[2]]
    assert len(names) > 100
    assert not bad, "\n".join(bad)
