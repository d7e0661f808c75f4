"""The trainer's side of checkpoints: RNG states and resuming (the format, its writer and its
reader are :mod:`agents.checkpoint`)."""

from __future__ import annotations

import os
import random
from dataclasses import asdict
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.checkpoint import CheckpointError, read_checkpoint, write_checkpoint
from agents.checkpoint import make_payload as _make_payload
from crowsnest_env.rules import Variant

from .config import Config

__all__ = ["CheckpointError", "capture_rng", "load_checkpoint", "make_payload", "restore_rng", "save_checkpoint"]


def capture_rng() -> dict[str, Any]:
    """Python, numpy (legacy global) and torch RNG states as checkpoint-safe values."""
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    return {
        "python": random.getstate(),
        "numpy": [kind, [int(k) for k in keys], int(pos), int(has_gauss), float(cached)],
        "torch": torch.get_rng_state(),
    }


def restore_rng(state: dict[str, Any]) -> None:
    random.setstate(_tuplify(state["python"]))
    kind, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((kind, np.asarray(keys, dtype=np.uint32), pos, has_gauss, cached))
    torch.set_rng_state(state["torch"])


def _tuplify(x: Any) -> Any:
    return tuple(_tuplify(v) for v in x) if isinstance(x, (list, tuple)) else x


def make_payload(*, algo: str, model: nn.Module, model_spec: dict[str, Any], variant: Variant, cfg: Config,
                 optimizer: torch.optim.Optimizer | None, global_step: int, update: int,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """A checkpoint of the run: with an optimizer a full one (RNG states too), else an agent file."""
    return _make_payload(algo=algo, model=model, model_spec=model_spec, variant=variant, config=asdict(cfg),
                         optimizer=optimizer, global_step=global_step, update=update,
                         rng=capture_rng() if optimizer is not None else None, extra=extra)


save_checkpoint = write_checkpoint


def load_checkpoint(path: str | os.PathLike[str], variant: Variant, algo: str | None = None) -> dict[str, Any]:
    """Read a checkpoint for resuming: it must match ``variant`` (and ``algo`` when given)."""
    data = read_checkpoint(path, variant)
    if algo is not None and data["algo"] != algo:
        raise CheckpointError(f"checkpoint {os.fspath(path)!r} was written by the {data['algo']!r} trainer, "
                              f"not {algo!r}")
    for key in ("optimizer", "global_step", "update", "rng"):
        if key not in data:
            raise CheckpointError(f"checkpoint {os.fspath(path)!r} cannot resume training: missing {key!r}")
    return data
