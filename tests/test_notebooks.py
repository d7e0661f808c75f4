"""The notebooks run top to bottom in a real Jupyter kernel, and ship with their outputs.

The kernel starts in the repository root with the root first on ``PYTHONPATH``, so it imports
this checkout (not whatever copy of the package is installed). Each notebook has its own
timeout; the whole set runs in about two minutes on two cores.
"""

from __future__ import annotations

import json
import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TIMEOUT_S = {"train_and_evaluate.ipynb": 240, "inside_a_policy.ipynb": 240, "custom_variant.ipynb": 180}
DEFAULT_TIMEOUT_S = 120


def kernel_env() -> dict[str, str]:
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return {**os.environ, "PYTHONPATH": path, "MPLBACKEND": "module://matplotlib_inline.backend_inline"}


def code_cells(book: dict) -> list[dict]:
    return [c for c in book["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_in_a_kernel(path):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    book = nbformat.read(path, as_version=4)
    timeout = TIMEOUT_S.get(path.name, DEFAULT_TIMEOUT_S)
    client = nbclient.NotebookClient(book, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT)}})
    client.execute(env=kernel_env())  # raises CellExecutionError naming the failing cell
    cells = code_cells(book)
    assert cells, f"{path.name} has no code"
    silent = [i for i, c in enumerate(cells) if not c.outputs]
    assert len(silent) < len(cells) / 2, f"{path.name}: code cells {silent} show nothing"
    first = next(o for c in cells for o in c.outputs if o.get("output_type") == "stream")
    assert first is not None


def test_the_kernel_imports_this_checkout():
    """Guards kernel_env(): an installed copy elsewhere must not shadow the code under test."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    pytest.importorskip("ipykernel")
    probe = nbformat.v4.new_code_cell("import crowsnest_env\nprint(crowsnest_env.__file__)")
    book = nbformat.v4.new_notebook(cells=[probe])
    nbclient.NotebookClient(book, timeout=60, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}}).execute(env=kernel_env())
    printed = book.cells[0].outputs[0]["text"].strip()
    assert pathlib.Path(printed).resolve().is_relative_to(ROOT), printed


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_committed_with_its_outputs(path):
    """They read on GitHub without running: every notebook stores the outputs of a clean run."""
    cells = code_cells(json.loads(path.read_text()))
    counts = [c.get("execution_count") for c in cells]
    assert all(isinstance(n, int) for n in counts), f"{path.name}: unexecuted cells (execution_count {counts})"
    assert counts == list(range(1, len(cells) + 1)), f"{path.name}: not one clean top-to-bottom run: {counts}"
    assert any(c.get("outputs") for c in cells), f"{path.name} has no stored outputs"
    errors = [o for c in cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name} stores an error output"
