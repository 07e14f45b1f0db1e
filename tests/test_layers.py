"""The library's layers: folders that import one way, no import cycle, no drawing in the computation."""

import ast
import pathlib
import subprocess
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "perceptron_lib"

# What each folder may import from the package, besides itself and the argument checks.
ALLOWED = {
    "core": set(),
    "draw": set(),
    "player": {"core", "draw"},
    "exercises": {"core"},
}


def _modules():
    """{module name: path} for every module of the package."""
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts).removesuffix(".__init__")
        out[name] = path
    return out


MODULES = _modules()


def _imports(name, path):
    """The package modules `name` imports (relative or absolute), resolved to module names."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                if target in MODULES:
                    found.add(target)
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in MODULES}
    # A module inside a package reaches its package's __init__ only by being imported, not by
    # importing: those edges are the package's own and make no cycle.
    return {t for t in found if t != name and not name.startswith(t + ".")}


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _folder(name):
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_the_folders_import_one_way():
    wrong = []
    for name, targets in GRAPH.items():
        folder = _folder(name)
        if folder not in ALLOWED:
            continue
        for target in targets:
            other = _folder(target)
            if other not in {folder, "_validation"} | ALLOWED[folder]:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(sorted(wrong))


def test_the_import_graph_has_no_cycle():
    # Depth-first search with three colours; a grey node met again closes a cycle.
    colour, stack, cycles = {}, [], []

    def visit(node):
        colour[node] = "grey"
        stack.append(node)
        for nxt in sorted(GRAPH[node]):
            if colour.get(nxt) == "grey":
                cycles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in colour:
                visit(nxt)
        stack.pop()
        colour[node] = "black"

    for node in sorted(GRAPH):
        if node not in colour:
            visit(node)
    assert not cycles, "\n".join(cycles)


def test_the_cycle_check_finds_a_cycle(tmp_path, monkeypatch):
    # The check above must be able to fail: two modules that import each other are a cycle.
    pkg = tmp_path / "perceptron_lib" / "core"
    pkg.mkdir(parents=True)
    (pkg / "a.py").write_text("from .b import x\n")
    (pkg / "b.py").write_text("from . import a\nx = 1\n")
    a, b = "perceptron_lib.core.a", "perceptron_lib.core.b"
    monkeypatch.setitem(MODULES, a, pkg / "a.py")
    monkeypatch.setitem(MODULES, b, pkg / "b.py")
    assert _imports(a, pkg / "a.py") == {b}
    assert _imports(b, pkg / "b.py") == {a}


def test_no_module_re_exports_another_modules_names():
    # A module's __all__ lists only what it defines: names kept for old import paths are gone.
    borrowed = []
    for name, path in MODULES.items():
        if path.name == "__init__.py":
            continue
        tree = ast.parse(path.read_text())
        defined = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        for n in tree.body:
            if isinstance(n, ast.Assign):
                defined |= {x.id for t in n.targets for x in ast.walk(t) if isinstance(x, ast.Name)}
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
                defined.add(n.target.id)
        exported = next((n.value for n in tree.body if isinstance(n, ast.Assign)
                         and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)), None)
        if exported is None:
            continue
        for item in ast.literal_eval(exported):
            if item not in defined:
                borrowed.append(f"{name}.{item}")
    assert not borrowed, "\n".join(borrowed)


COMPUTATION = ["perceptron_lib", "perceptron_lib.exercises"] + sorted(
    m for m in MODULES if m.startswith("perceptron_lib.core")
)
DRAWING = sorted(m for m in MODULES if m.startswith("perceptron_lib.draw"))
#: The libraries a layer must not load: the computation draws nothing, the drawing has no widgets.
FORBIDDEN = {**dict.fromkeys(COMPUTATION, ("matplotlib", "ipywidgets")), **dict.fromkeys(DRAWING, ("ipywidgets",))}
WATCHED = ("matplotlib", "ipywidgets")


def _fresh_import(module):
    """Import `module` first in a fresh interpreter (the test session has everything loaded already);
    returns which of WATCHED it loaded. One interpreter per module checks both things: that it imports on
    its own, and what it drags in."""
    code = f"import sys, {module}; print(sorted(m for m in {WATCHED!r} if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, f"`import {module}` fails in a fresh interpreter:\n{proc.stderr[-2000:]}"
    return ast.literal_eval(proc.stdout.strip())


def test_the_layer_lists_are_not_empty():
    assert "perceptron_lib.core" in COMPUTATION and DRAWING and set(FORBIDDEN) <= set(MODULES)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_imports_first_in_a_fresh_interpreter_and_loads_no_library_of_a_higher_layer(module):
    loaded = _fresh_import(module)
    wrong = [lib for lib in FORBIDDEN.get(module, ()) if lib in loaded]
    assert not wrong, f"importing {module} loaded {wrong}"


def test_the_fresh_import_check_sees_a_loaded_library():
    # the check above must be able to fail: the players are widgets drawn with matplotlib
    assert _fresh_import("perceptron_lib.player") == ["ipywidgets", "matplotlib"]
