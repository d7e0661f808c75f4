"""No import circle in ``crowsnest_env``, ``agents`` or ``training`` (ARCHITECTURE.md 8).

What is counted: every ``import`` and ``from ... import`` statement of every module of the three
packages, read with :mod:`ast` wherever it stands: at module level, and inside functions and
methods too (a lazy import that closes a loop is still a loop in the design, it only moves the
failure from import time to call time). ``from pkg import name`` is an arrow to the module
``pkg.name`` when that module exists, else to ``pkg``; importing ``a.b`` does not count an arrow
to the package ``a`` (Python runs ``a/__init__.py`` first, but that is no dependency of ours).
Imports under ``if TYPE_CHECKING:`` are skipped: they are not executed. A circle is a strongly
connected set of two or more modules; the tests fail on any module-level circle, and on any
circle through imports inside functions except those in :data:`KNOWN` (each says why it is
there and who removes it; the test also fails once a known circle is gone, so the entry goes).
The message names the arrows of each circle.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).parent.parent
PACKAGES = ("crowsnest_env", "agents", "training")
KNOWN: dict[tuple[str, ...], str] = {}


def _module_name(path: pathlib.Path, root: pathlib.Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _import_nodes(tree: ast.AST) -> list[tuple[ast.Import | ast.ImportFrom, bool]]:
    """(import statement, at module level) for every executed import in ``tree``."""
    out: list[tuple[ast.Import | ast.ImportFrom, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for other in child.orelse:
                    visit(other, top)
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append((child, top))
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            visit(child, inner)

    visit(tree, True)
    return out


def import_graph(root: pathlib.Path = ROOT, packages: tuple[str, ...] = PACKAGES
                 ) -> dict[str, dict[str, bool]]:
    """module -> {imported module of these packages: True if some import of it is at module level}."""
    paths = {_module_name(p, root): p for top in packages for p in sorted((root / top).rglob("*.py"))}
    graph: dict[str, dict[str, bool]] = {m: {} for m in paths}
    for mod, path in paths.items():
        package = mod if path.name == "__init__.py" else mod.rpartition(".")[0]
        for node, top in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                targets = [f"{source}.{a.name}" if f"{source}.{a.name}" in paths else source for a in node.names]
            for target in targets:
                if target in paths and target != mod:
                    graph[mod][target] = graph[mod].get(target, False) or top
    return graph


def circles(graph: dict[str, dict[str, bool]], module_level_only: bool = False) -> list[list[str]]:
    """The strongly connected sets of two or more modules (Tarjan), each sorted."""
    edges = {m: [t for t, top in out.items() if top or not module_level_only] for m, out in graph.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            members = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                members.append(w)
                if w == v:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return sorted(found)


def _describe(graph: dict[str, dict[str, bool]], members: list[str]) -> str:
    arrows = [f"{a} -> {b}{'' if graph[a][b] else ' (in a function)'}"
              for a in members for b in sorted(graph[a]) if b in members]
    return "; ".join(arrows)


def test_the_graph_sees_module_and_function_level_imports():
    graph = import_graph()
    assert graph["training.cli"]["training.config"] is True  # module level
    assert "agents.heuristic" in graph["agents"] and graph["agents"]["agents.heuristic"] is False  # in make_agent
    assert len(graph) > 40


def test_no_import_circle_at_module_level():
    graph = import_graph()
    found = circles(graph, module_level_only=True)
    assert not found, "\n".join(_describe(graph, c) for c in found)


def test_no_import_circle_counting_imports_inside_functions_too():
    graph = import_graph()
    found = {tuple(c) for c in circles(graph)}
    new = sorted(found - set(KNOWN))
    assert not new, "\n".join(_describe(graph, list(c)) for c in new)
    gone = sorted(set(KNOWN) - found)
    assert not gone, f"no longer a circle, remove it from KNOWN: {gone}"


def test_a_circle_is_found_and_named(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import f\n")
    (pkg / "b.py").write_text("def f():\n    from pkg import a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert circles(graph) == [["pkg.a", "pkg.b"]]
    assert circles(graph, module_level_only=True) == []
    assert graph["pkg.c"] == {}
    assert _describe(graph, ["pkg.a", "pkg.b"]) == "pkg.a -> pkg.b; pkg.b -> pkg.a (in a function)"
