"""Writing and resuming checkpoints (the format and its reader live in :mod:`agents.learned`).

A checkpoint holds only tensors and primitive containers so it loads with
``torch.load(weights_only=True)``. It is written to a temp file beside the target and moved
into place with ``os.replace``, so a run killed mid-write leaves the previous checkpoint intact.
"""

from __future__ import annotations

import os
import random
from dataclasses import asdict
from typing import Any

import numpy as np
import torch
from torch import nn

from agents.learned import (
    FORMAT,
    FORMAT_VERSION,
    CheckpointError,
    layout_rows,
    read_checkpoint,
)
from crowsnest_env.atomic import atomic_write
from crowsnest_env.rules import Variant, layout_for

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
    """Everything a checkpoint carries (see the table in :mod:`agents.learned`)."""
    return {
        "format": FORMAT, "format_version": FORMAT_VERSION, "algo": algo,
        "model_spec": dict(model_spec), "model": {k: v.detach().clone() for k, v in model.state_dict().items()},
        "variant": variant.name, "crow": bool(variant.bird), "layout": layout_rows(variant),
        "num_actions": layout_for(variant).num_actions, "config": asdict(cfg),
        "global_step": int(global_step), "update": int(update),
        "optimizer": optimizer.state_dict() if optimizer is not None else None,
        "rng": capture_rng(), "extra": extra or {},
    }


def save_checkpoint(path: str | os.PathLike[str], payload: dict[str, Any]) -> None:
    """Atomically write ``payload`` to ``path`` (temp file in the same folder, then os.replace)."""
    atomic_write(path, lambda fh: torch.save(payload, fh), binary=True)


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
