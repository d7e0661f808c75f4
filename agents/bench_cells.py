"""Benchmark cells: one arena pairing on a deal set, its cache key, and the cache of finished cells.

A *cell* is one entrant against one reference in one rule set: ``run_pairing(a, b)`` on the
deal set's deals (its seed, count and ``max_redeals``). Its result is cached as one JSON file,
written atomically, under ``CACHE/<deal set>/<rule set>/<key hash>.json``; a cell whose file
exists with the same key is not played again. The key (:func:`cell_key`) holds everything the
result depends on:

- ``deal_set``, ``deal_set_sha256``, ``deals``, ``seed``, ``max_redeals``: the cards (by the
  hash of the deals' contents, :mod:`agents.deal_sets`) and the protocol;
- ``rule_set`` (``crowsnest_nocrow``), and ``a``, ``b``: the two agent specs as given;
- ``files``: path -> SHA-256 of every file the agents load (each ``checkpoint:PATH``; the
  shipped policy ``agents/policies/<rule set>.pt`` wherever ``learned`` plays);
- ``code_version``: SHA-256 of the source that plays (:func:`code_version`).

A cache file that cannot be read, is not a cell, or holds another key is reported (a warning
naming the file and the problem) and the cell is played again and the file rewritten.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.rules import Variant

from . import parse_team

CELL_SCHEMA = "crowsnest-bench-cell/1"
TIMING_KEYS = ("speed", "decisions_per_s_a", "decisions_per_s_b")
"""the pairing fields that depend on the machine: kept in a cell's ``timing``, apart from the results"""
PAIRING_FIELDS = ("a", "b", "deals", "adp", "adp_ci95", "deals_won_a", "deals_won_b", "deals_tied", "contracts")
"""the arena summary fields a board reads from a cell"""
ROOT = Path(__file__).resolve().parent.parent
"""the folder holding the ``agents`` and ``crowsnest_env`` packages (the checkout, or site-packages)"""
PACKAGES = ("agents", "crowsnest_env")
PLAY_ROOTS = ("agents.arena",)
"""where the play closure starts: the arena, whose ``make_agent`` imports every agent module"""
PRESENTATION = ("agents.arena_plot",)
"""modules the arena imports that only print and draw results: their code cannot change a number"""


# ------------------------------------------------------------------------------ code version
def _module_source(name: str, root: Path) -> Path | None:
    """The source file of a project module: ``x.py``, ``x/__init__.py``, or ``x.c`` for a C extension."""
    if name.split(".")[0] not in PACKAGES:
        return None
    base = root.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".c")):
        if path.is_file():
            return path
    return None


def _imported_names(path: Path, module: str, root: Path = ROOT) -> list[str]:
    """Every module ``path`` may import, at any level (function bodies too), relative ones resolved.

    ``from M import n`` is the submodule ``M.n`` where there is one, else ``M`` itself (``n`` is a
    name defined there); a parent package's ``__init__`` is not followed for its submodules' sake."""
    if path.suffix != ".py":
        return []
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    out: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                out.append(sub if _module_source(sub, root) is not None else base)
    return out


def play_closure(roots: tuple[str, ...] = PLAY_ROOTS, root: Path = ROOT,
                 exclude: tuple[str, ...] = PRESENTATION) -> list[Path]:
    """The source files of every project module reachable by imports from ``roots``, less ``exclude``."""
    seen: dict[str, Path] = {}
    todo = list(roots)
    while todo:
        name = todo.pop()
        if name in seen or name in exclude:
            continue
        path = _module_source(name, root)
        if path is None:
            continue
        seen[name] = path
        todo += _imported_names(path, name, root)
    return sorted(set(seen.values()))


@functools.lru_cache(maxsize=4)
def code_version(root: Path = ROOT) -> tuple[str, tuple[str, ...]]:
    """(SHA-256, relative paths) of the source that plays a cell: :func:`play_closure`'s files.

    Every module the arena reaches by an import (the engine, the table, the observation encoder,
    every agent, the arena and its records), so a change to any of them is a new version and
    replays the cells; the play app, the trainers, the env wrappers and the benchmark's own
    reporting are outside it. A C extension counts by its ``.c`` source."""
    digest = hashlib.sha256()
    rel = []
    for path in play_closure(root=root):
        name = path.relative_to(root).as_posix()
        data = path.read_bytes()
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
        rel.append(name)
    return digest.hexdigest(), tuple(rel)


# ------------------------------------------------------------------------------ agent files
def file_sha256(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


_AGENT_START = r"(?:^|(?<=[=;+]))\s*"
_LEARNED = re.compile(_AGENT_START + r"learned(?=$|[?;,+])")
_CHECKPOINT = re.compile(_AGENT_START + r"checkpoint:")
_PATH_ENDS = re.compile(r"[;,+?]")


def _checkpoint_paths(spec: str) -> list[str]:
    """The file of each ``checkpoint:PATH`` in ``spec``: the longest piece after it that is a file."""
    out = []
    for m in _CHECKPOINT.finditer(spec):
        rest = spec[m.end():]
        cuts = [len(rest)] + sorted((c.start() for c in _PATH_ENDS.finditer(rest)), reverse=True)
        path = next((rest[:c] for c in cuts if os.path.isfile(rest[:c])), None)
        if path is not None:
            out.append(path)
    return out


def agent_files(spec: str, rules: Variant) -> dict[str, str]:
    """Path -> SHA-256 of every file team ``spec`` loads when playing ``rules``: its checkpoints,
    and the shipped policy wherever it names ``learned`` (CheckpointError if there is none)."""
    from .learned import shipped_policy

    files: dict[str, str] = {}
    for name in dict.fromkeys(parse_team(spec)):
        for path in _checkpoint_paths(name):
            files[path] = file_sha256(path)
        if _LEARNED.search(name):
            path = shipped_policy(rules)
            files[Path(path).resolve().relative_to(ROOT).as_posix()
                  if Path(path).resolve().is_relative_to(ROOT) else path] = file_sha256(path)
    return dict(sorted(files.items()))


# ------------------------------------------------------------------------------ keys and cache
def cell_key(deal_set: dict[str, Any], deal_set_sha256: str, rule_set: str, a: str, b: str,
             files: dict[str, str], version: str) -> dict[str, Any]:
    """Everything a cell's result depends on (see the module table)."""
    return {"schema": CELL_SCHEMA, "deal_set": deal_set["name"], "deal_set_sha256": deal_set_sha256,
            "deals": deal_set["deals"], "seed": deal_set["seed"], "max_redeals": deal_set["max_redeals"],
            "rule_set": rule_set, "a": a, "b": b, "files": dict(sorted(files.items())), "code_version": version}


def key_digest(key: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(key, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def cell_path(cache: str | os.PathLike[str], key: dict[str, Any]) -> Path:
    """``CACHE/<deal set>/<rule set>/<first 24 hex of the key's SHA-256>.json``."""
    return Path(cache) / key["deal_set"] / key["rule_set"] / f"{key_digest(key)[:24]}.json"


Warn = Callable[[str], None]


def stderr_warning(text: str) -> None:
    """The default ``warn``: ``crowsnest-bench: warning: TEXT`` on stderr."""
    print(f"crowsnest-bench: warning: {text}", file=sys.stderr)


def read_cell(path: Path, key: dict[str, Any], warn: Warn = stderr_warning) -> dict[str, Any] | None:
    """The cached cell at ``path`` if it holds ``key``'s result; None if there is none, and None with a
    warning if the file is unreadable, not a cell, or holds another key (it is then played again)."""
    if not path.exists():
        return None
    try:
        cell = json.loads(path.read_text(encoding="utf-8"))
        problem = _cell_problem(cell, key)
    except (OSError, UnicodeDecodeError, ValueError) as err:
        problem = f"unreadable ({type(err).__name__}: {' '.join(str(err).split())[:120]})"
    if problem:
        warn(f"ignoring cache file {str(path)!r}: {problem}; the cell is played again")
        return None
    return cell


def _cell_problem(cell: Any, key: dict[str, Any]) -> str | None:
    if not isinstance(cell, dict) or cell.get("schema") != CELL_SCHEMA:
        return f"not a {CELL_SCHEMA} file"
    if cell.get("key") != key:
        return "it holds another cell's key"
    pairing = cell.get("pairing")
    if not isinstance(pairing, dict) or not isinstance(cell.get("timing"), dict):
        return "it has no pairing and timing"
    values = pairing.get("deal_values")
    if not isinstance(values, list) or len(values) != key["deals"] or \
            not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return f"its pairing has no list of {key['deals']} deal values"
    missing = [f for f in PAIRING_FIELDS if f not in pairing]
    if missing:
        return f"its pairing has no {missing[0]!r}"
    if (pairing["a"], pairing["b"], pairing["deals"]) != (key["a"], key["b"], key["deals"]):
        return "its pairing is not the key's"
    contracts = pairing["contracts"]
    if not isinstance(contracts, dict) or not all(isinstance(contracts.get(r), dict) for r in ("a", "b")):
        return "its pairing's contracts are malformed"
    return None


def write_cell(path: Path, key: dict[str, Any], pairing: dict[str, Any]) -> dict[str, Any]:
    """Store a finished pairing (with its ``deal_values``) as the cell of ``key``, atomically."""
    results = {k: v for k, v in pairing.items() if k not in TIMING_KEYS}
    cell = {"schema": CELL_SCHEMA, "key": key, "pairing": results,
            "timing": {k: pairing[k] for k in TIMING_KEYS if k in pairing}}
    atomic_write_text(path, json.dumps(cell, indent=1, sort_keys=True) + "\n")
    return cell


__all__ = ["CELL_SCHEMA", "TIMING_KEYS", "agent_files", "cell_key", "cell_path", "code_version", "file_sha256",
           "key_digest", "play_closure", "read_cell", "stderr_warning", "write_cell"]
