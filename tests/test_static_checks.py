"""Static checks that guard the architecture: the engine type-checks and lints clean."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).parent.parent


def test_engine_type_checks():
    pytest.importorskip("mypy")
    res = subprocess.run([sys.executable, "-m", "mypy", "crowsnest_env/rules", "--ignore-missing-imports",
                          "--follow-imports=silent"], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stdout + res.stderr
