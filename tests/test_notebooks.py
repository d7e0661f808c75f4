"""Notebooks use the public API only; their code cells must run as they stand."""

from __future__ import annotations

import json
import pathlib

import pytest

NOTEBOOKS = sorted((pathlib.Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_code_cells_run(path, capsys):
    cells = json.loads(path.read_text())["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert code, f"{path.name} has no code"
    namespace: dict = {}
    for source in code:
        exec(compile(source, f"{path.name}", "exec"), namespace)  # noqa: S102
    assert capsys.readouterr().out.strip()
