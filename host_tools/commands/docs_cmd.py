"""`python -m host_tools docs` (`make docs`): the docs' measured figures, regenerated.

After a bench run, `docs` merges build/bench.json into the committed snapshot
docs/figures/bench.json (a `bench --only TOPIC` run replaces that topic's rows and
keeps the others) and rewrites every cog block of README.md and docs/*.md from it
(the functions are in host_tools/commands/docfigs.py). `docs --check` changes
nothing: it lists the docs whose generated text differs from what the snapshot
gives (tests/test_docs.py runs the same check). Only the text between a block's
``]]] -->`` and ``<!-- [[[end]]]`` belongs to the generator.
"""

import difflib
import json

from host_tools.core import UserError, write_atomic
from host_tools.core.fwpath import ROOT

BENCH_JSON = ROOT / "build" / "bench.json"
PROLOGUE = "from host_tools.commands.docfigs import *"


def _rel(path):
    """``path`` as the checkout names it (README.md, docs/x.md), else as given."""
    try:
        return path.relative_to(ROOT)
    except ValueError:
        return path


def doc_files():
    """README.md and docs/*.md, the files whose figures are generated."""
    return [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))


def generate(text, fname="<doc>"):
    """``text`` with every cog block's output written anew from the snapshot; a figure the
    snapshot lacks is the generator's one-line UserError."""
    import cogapp
    from cogapp.cogapp import CogError

    cog = cogapp.Cog()
    cog.options.prologue = PROLOGUE
    cog.options.print_output = True
    try:
        return cog.process_string(text, fname=str(fname))
    except CogError as exc:
        lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
        last = lines[-1] if lines else exc.__class__.__name__
        raise UserError("%s: %s" % (fname, last.replace("UserError: ", "", 1))) from None


def stale():
    """(path, unified diff) for each doc whose generated text is not what the snapshot gives."""
    out = []
    for path in doc_files():
        old = path.read_text(encoding="utf-8")
        new = generate(old, _rel(path))
        if new != old:
            rel = str(_rel(path))
            out.append((rel, "".join(difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), rel, rel + " (generated)"))))
    return out


def merge_snapshot(src, snapshot):
    """The snapshot's rows with ``src``'s in their place: a section ``src`` has is
    taken whole from it (a figure gone from it goes) where the old one stood, a new
    section goes last, the others are kept."""
    new = json.loads(src.read_text(encoding="utf-8"))
    try:
        old = json.loads(snapshot.read_text(encoding="utf-8"))["rows"]
    except FileNotFoundError:
        old = []
    by_section = {}
    for r in new["rows"]:
        by_section.setdefault(r["section"], []).append(r)
    merged, done = [], set()
    for r in old:
        s = r["section"]
        if s not in by_section:
            merged.append(r)
        elif s not in done:
            merged += by_section[s]
            done.add(s)
    merged += [r for r in new["rows"] if r["section"] not in done]
    return {"generated": new.get("generated"), "rows": merged}


def main(args):
    from host_tools.commands import docfigs

    if args.check:
        found = stale()
        for _, diff in found:
            print(diff)
        bad = [rel for rel, _ in found]
        if bad:
            raise UserError("generated figures out of date in %s: run `make docs`" % ", ".join(bad))
        print("docs: every generated figure matches %s" % _rel(docfigs.SNAPSHOT))
        return 0
    src = args.bench or BENCH_JSON
    if args.bench is not None and not src.is_file():
        raise UserError("--bench %s: no such file (a bench.json written by `make bench`)" % src)
    if src.exists():
        merged = merge_snapshot(src, docfigs.SNAPSHOT)
        docfigs.use_rows(merged["rows"])
        note = "docs: %s merged into %s" % (src, _rel(docfigs.SNAPSHOT))
    else:
        merged = None
        note = "docs: no %s (run `make bench` first); generating from %s" % (
            src, _rel(docfigs.SNAPSHOT))
    # every doc generated before anything is written: a figure the run lacks changes nothing
    changed = []
    for path in doc_files():
        old = path.read_text(encoding="utf-8")
        new = generate(old, _rel(path))
        if new != old:
            changed.append((path, new))
    if merged is not None:
        docfigs.SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(docfigs.SNAPSHOT, (json.dumps(merged, indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
    for path, new in changed:
        write_atomic(path, new.encode("utf-8"))
    print(note)
    print("docs: %s" % ("rewrote " + ", ".join(str(_rel(p)) for p, _ in changed)
                        if changed else "every doc already current"))
    return 0


def register(sub):
    from pathlib import Path

    p = sub.add_parser("docs", help=HELP, description=__doc__.split("\n\n")[1])
    p.add_argument("--check", action="store_true",
                   help="change nothing; fail when a doc's generated figures differ from the snapshot's")
    p.add_argument("--bench", type=Path,
                   help="the bench run to merge into docs/figures/bench.json (default build/bench.json)")
    p.set_defaults(func=main)


HELP = "regenerate the docs' measured figures from the bench (make docs)"
