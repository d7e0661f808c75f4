"""Static checks that guard the architecture: one-way layering, type checks, lint.

Layers (ARCHITECTURE.md 1): ``crowsnest_env/rules`` (stdlib only) <- ``crowsnest_env`` <- ``agents``
<- ``training``; no module imports a higher layer.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent
LAYERS = ("crowsnest_env.rules", "crowsnest_env", "agents", "training")
STDLIB = sys.stdlib_module_names


def _layer(module: str) -> int | None:
    for i, name in enumerate(LAYERS):
        if module == name or module.startswith(name + "."):
            return i
    return None


def _imports(path: pathlib.Path, root: pathlib.Path = ROOT) -> list[str]:
    """Absolute names of every module ``path`` imports (relative imports resolved)."""
    rel = path.relative_to(root).with_suffix("")
    package = list(rel.parts[:-1]) if rel.name != "__init__" else list(rel.parts[:-1])
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                out.append(".".join(base + ([node.module] if node.module else [])))
            elif node.module:
                out.append(node.module)
    return out


def _sources(top: str) -> list[pathlib.Path]:
    return sorted((ROOT / top).rglob("*.py"))


def upward_imports(paths: list[pathlib.Path], root: pathlib.Path = ROOT) -> list[str]:
    bad = []
    for path in paths:
        mod = ".".join(path.relative_to(root).with_suffix("").parts)
        own = _layer(mod)
        for name in _imports(path, root):
            other = _layer(name)
            if other is not None and own is not None and other > own:
                bad.append(f"{mod} imports {name}")
    return bad


@pytest.mark.parametrize("top", ["crowsnest_env", "agents", "training"])
def test_no_module_imports_a_higher_layer(top):
    bad = upward_imports(_sources(top))
    assert not bad, bad


def test_engine_imports_only_the_standard_library():
    bad = []
    for path in _sources("crowsnest_env/rules"):
        for name in _imports(path):
            top = name.split(".")[0]
            if top not in STDLIB and not name.startswith("crowsnest_env.rules") and top != "__future__":
                bad.append(f"{path.name} imports {name}")
    assert not bad, bad


def test_layer_check_catches_an_upward_import(tmp_path):
    """The check itself sees an engine module importing an agent, or env code importing training."""
    (tmp_path / "crowsnest_env" / "rules").mkdir(parents=True)
    (tmp_path / "crowsnest_env" / "rules" / "x.py").write_text("from agents import make_agent\nimport random\n")
    (tmp_path / "crowsnest_env" / "y.py").write_text("from ..training import ppo\nfrom .rules import x\n")
    bad = upward_imports(sorted(tmp_path.rglob("*.py")), tmp_path)
    assert bad == ["crowsnest_env.rules.x imports agents", "crowsnest_env.y imports training"]


def test_type_checks_clean():
    """mypy over the three packages, zero errors (its settings are in setup.cfg)."""
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy", "crowsnest_env", "agents", "training"],
                         cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr


def test_lint_clean():
    """ruff over the whole tree (its settings are in pyproject.toml)."""
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
