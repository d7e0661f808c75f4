"""Helpers of the bad-input tests (issue 18): CLI runs and their one error line, crafted files."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys

import torch

from agents.checkpoint import make_payload, write_checkpoint
from agents.networks import build_model
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import get_variant, layout_for
from crowsnest_env.table import Table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(ROOT, "agents", "policies", "crowsnest.pt")
CROWSNEST = get_variant("crowsnest")
MAX_MESSAGE = 400
"""an error message quotes at most a short prefix of a bad value: well under this many characters"""


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={**os.environ, "PYTHONPATH": ROOT})


def assert_one_error_line(stderr: str, prog: str, *named: str) -> None:
    """Exactly one line of ours on stderr (Ray's own log lines aside): ``prog: error: ...``."""
    lines = [ln for ln in stderr.splitlines() if ln.strip() and " INFO " not in ln and " WARNING " not in ln]
    assert len(lines) == 1 and lines[0].startswith(f"{prog}: error: "), stderr
    assert "Traceback" not in stderr and "usage:" not in stderr, stderr
    for text in named:
        assert text in lines[0], lines[0]


def main_status(main, argv, capsys) -> tuple[int, str]:
    """(exit status, stderr) of a CLI main called in-process (argparse errors raise SystemExit)."""
    try:
        status = main(argv)
    except SystemExit as exc:
        status = exc.code
    return status, capsys.readouterr().err


def training_checkpoint(path) -> None:
    """A full training checkpoint (optimizer state included), without training."""
    obs, acts = observation_layout(CROWSNEST).size, layout_for(CROWSNEST).num_actions
    model = build_model("ppo", obs, acts, {"hidden": [8]})
    optimizer = torch.optim.Adam(model.parameters())
    write_checkpoint(path, make_payload(algo="ppo", model=model, model_spec={"hidden": [8]}, variant=CROWSNEST,
                                        optimizer=optimizer, global_step=7, update=1, rng={"torch": torch.zeros(1)}))


def write_yaml(tmp_path, text: str, name: str = "rules.yaml") -> str:
    """A file ``name`` in ``tmp_path`` holding ``text``; its path."""
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def custom_record() -> dict:
    """A record of a custom (non-preset) variant, which carries its rules, as read from a file."""
    short = dataclasses.replace(CROWSNEST, name="short_game", target=150)
    table = Table(short, episode="hand")
    table.reset(seed=0)
    return json.loads(json.dumps(table.record()))  # as a file holds it
