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

__all__ = ["CheckpointError", "capture_rng", "load_checkpoint", "make_payload", "random_state", "restore_rng",
           "save_checkpoint"]


def capture_rng() -> dict[str, Any]:
    """Python, numpy (legacy global) and torch RNG states as checkpoint-safe values (CUDA's too once
    the run has used it)."""
    kind, keys, pos, has_gauss, cached = np.random.get_state()
    state = {
        "python": random.getstate(),
        "numpy": [kind, [int(k) for k in keys], int(pos), int(has_gauss), float(cached)],
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_initialized():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def restore_rng(state: dict[str, Any]) -> None:
    random.setstate(random_state(state["python"]))
    kind, keys, pos, has_gauss, cached = state["numpy"]
    np.random.set_state((kind, np.asarray(keys, dtype=np.uint32), pos, has_gauss, cached))
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():  # a GPU run resumed on the CPU leaves CUDA alone
        torch.cuda.set_rng_state_all(state["cuda"])


def random_state(stored: Any) -> Any:
    """A ``random.Random`` state as read back from a checkpoint (its tuples come back as lists)."""
    return tuple(random_state(v) for v in stored) if isinstance(stored, (list, tuple)) else stored


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
