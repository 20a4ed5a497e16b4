"""The layers of host_tools (docs/conventions.md, "Layers"), read from the source
with ast: every import of a host_tools module counts, at the top of a module or
inside a function (a lazy import is still a dependency).

- no import circle among host_tools modules;
- host_tools/core/ imports only core/ (and firmware modules, the standard
  library, third-party packages), never a higher layer;
- nothing imports host_tools.cli but the entry point (__main__).

And the shape of firmware/ (docs/conventions.md):

- no import circle among firmware modules (an import inside a function counts);
- no class over 400 lines and no function over 80, except machine-code kernels
  (viper/native) and hot search loops whose docstring gives the measured fuel a
  split would cost;
- the runtime, the launcher and the web page never probe a backend or a screen
  with hasattr/getattr: they call the contracts (screens.py, hardware.py);
- the glossary's "undo ring": undo is ``undo()`` on a screen or model, so no
  function is named ``undo_*`` (but ``scenekit.undo_chord``, the B+A test), and
  no attribute is named ``undo`` (a ring is ``undo_ring``: ``undo`` is the method).
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "host_tools"
GUEST_DIRS = ("fakecp", "vmcp")          # copied into MicroPython guests, not host modules


def _modules():
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if any(d in parts for d in GUEST_DIRS):
            continue
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


def imported_names(path, submodules=False):
    """Every module name ``path`` imports, at the top or inside a function
    (``from a import b`` also names a.b when ``submodules``; a literal
    ``__import__("x")`` names x)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            if submodules:
                found.update(node.module + "." + alias.name for alias in node.names)
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id == "__import__" and node.args and isinstance(node.args[0], ast.Constant)):
            found.add(node.args[0].value)
    return found


def import_graph():
    """{module: set of host_tools modules it imports}.  A module also depends on
    its parent packages (importing a.b.c runs a/__init__ and a/b/__init__)."""
    mods = _modules()
    graph = {}
    for name, path in mods.items():
        found = imported_names(path, submodules=True)
        deps = set()
        for dep in found:
            while dep.startswith("host_tools"):
                if dep in mods:
                    deps.add(dep)
                dep = dep.rpartition(".")[0]
        deps.discard(name)
        deps -= {p for p in deps if name.startswith(p + ".")}   # its own parent packages
        graph[name] = deps
    return graph


def find_cycle(graph):
    """One import circle as a list of modules (first == last), or None."""
    state = {}
    for start in sorted(graph):
        if start in state:
            continue
        stack = [(start, iter(sorted(graph[start])))]
        path = [start]
        state[start] = "open"
        while stack:
            node, deps = stack[-1]
            dep = next(deps, None)
            if dep is None:
                state[node] = "done"
                stack.pop()
                path.pop()
            elif state.get(dep) == "open":
                return path[path.index(dep):] + [dep]
            elif dep not in state:
                state[dep] = "open"
                stack.append((dep, iter(sorted(graph[dep]))))
                path.append(dep)
    return None


def test_the_walker_sees_top_level_and_lazy_imports():
    graph = import_graph()
    assert "host_tools.core.levelcheck" in graph["host_tools.commands.levels_cmd"]
    assert "host_tools.emulation.cpsim" in graph["host_tools.emulation.sim"]      # inside a function
    assert "host_tools.core.registry" in graph["host_tools.device.flash"]         # from host_tools.core import registry
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle_in_host_tools():
    cycle = find_cycle(import_graph())
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_core_imports_nothing_above_it():
    bad = {name: sorted(d for d in deps if not d.startswith("host_tools.core"))
           for name, deps in import_graph().items() if name.startswith("host_tools.core")}
    assert {k: v for k, v in bad.items() if v} == {}


def test_only_the_entry_point_imports_the_cli():
    users = sorted(name for name, deps in import_graph().items() if "host_tools.cli" in deps)
    assert users == ["host_tools.__main__"]


# machine-code kernels and the plain-Python Klotski loop stay whole for speed
# (docs/conventions.md); every other function fits on a page
LONG_FUNCTIONS_ALLOWED = {("firmware/klotski_loop.py", "expand"), ("firmware/trapcat_viper.py", "escape_run")}
MAX_FUNCTION_LINES = 120


def test_no_function_outside_the_kernels_is_over_120_lines():
    too_long = []
    for root in ("firmware", "host_tools"):
        for path in sorted((ROOT / root).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    lines = node.end_lineno - node.lineno + 1
                    if lines > MAX_FUNCTION_LINES and (rel, node.name) not in LONG_FUNCTIONS_ALLOWED:
                        too_long.append("%s:%d %s (%d lines)" % (rel, node.lineno, node.name, lines))
    assert not too_long, too_long


# -- firmware/ ------------------------------------------------------------------------------
FIRMWARE = ROOT / "firmware"
MAX_CLASS = 400
MAX_FUNCTION = 80
NO_PROBES = ("runtime.py", "launcher.py", "hw_web.py")


def _firmware_modules():
    return {p.stem: p for p in FIRMWARE.glob("*.py")}


def firmware_import_graph():
    mods = _firmware_modules()
    return {name: {m for m in imported_names(path) if m in mods and m != name}
            for name, path in mods.items()}


def test_firmware_has_no_import_circle():
    assert find_cycle(firmware_import_graph()) is None


def test_the_circle_finder_sees_a_firmware_circle():
    graph = firmware_import_graph()
    graph["games"] = graph["games"] | {"runtime"}      # runtime imports games
    assert find_cycle(graph) is not None


def _exempt(node):
    """A kernel (a viper/native decorator) or a hot loop that says what a split costs."""
    for dec in node.decorator_list:
        if "micropython" in ast.unparse(dec):
            return True
    doc = ast.get_docstring(node) or ""
    return "fuel" in doc.lower()


def oversized():
    found = []
    for name, path in sorted(_firmware_modules().items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                limit = MAX_CLASS
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                limit = MAX_FUNCTION
            else:
                continue
            lines = node.end_lineno - node.lineno + 1
            if lines > limit and not _exempt(node):
                found.append("%s.%s: %d lines" % (name, node.name, lines))
    return found


def test_no_class_or_function_is_oversized():
    assert oversized() == []


def test_no_probes_in_the_runtime_launcher_and_web_page():
    probes = []
    for fname in NO_PROBES:
        path = FIRMWARE / fname
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("hasattr", "getattr")):
                target = ast.unparse(node.args[0]) if node.args else ""
                if target in ("sys", "gc", "time", "machine"):     # the port, not a backend
                    continue
                probes.append("%s:%d %s" % (fname, node.lineno, ast.unparse(node)))
    assert probes == []


UNDO_NAMES_KEPT = ("undo_chord",)       # scenekit: is B+A down (not an undo)


def undo_misnamed(source, name="<src>"):
    """What breaks the glossary's "undo ring" row in ``source``: a def named
    ``undo_*`` (the undo is ``undo()``; the B+A handler is ``chord_undo``) but
    UNDO_NAMES_KEPT, an attribute assigned as ``undo`` (the ring is ``undo_ring``)."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("undo_")
                and node.name not in UNDO_NAMES_KEPT):
            found.append((node.lineno, "%s:%d def %s" % (name, node.lineno, node.name)))
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else (node.target,):
                if isinstance(target, ast.Attribute) and target.attr == "undo":
                    found.append((node.lineno, "%s:%d %s = ..." % (name, node.lineno, ast.unparse(target))))
    return [text for _, text in sorted(found)]


def test_undo_is_undo_and_the_ring_is_undo_ring():
    found = []
    for name, path in sorted(_firmware_modules().items()):
        found += undo_misnamed(path.read_text(encoding="utf-8"), name)
    assert found == []


def test_the_undo_check_sees_the_old_names():
    src = ("class Scene:\n"
           "    def __init__(self):\n"
           "        self.undo = undoring.UndoRing(12, 64)\n"
           "    def undo_move(self):\n"
           "        return self.undo.pop() >= 0\n"
           "    def undo(self):\n"
           "        return undo_chord(self.btn)\n"
           "def undo_chord(btn):\n"
           "    return True\n")
    assert undo_misnamed(src) == ["<src>:3 self.undo = ...", "<src>:4 def undo_move"]
