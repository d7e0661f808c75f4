"""The checkpoint format: its writer and its reader, in one place (the trainers import it).

A checkpoint is a ``torch.save``'d dict of tensors and primitive containers only, read back
with ``torch.load(weights_only=True)``, written atomically (temp file beside it, then
``os.replace``) so a run killed mid-write leaves the previous file intact:

| key              | content                                                          |
|------------------|------------------------------------------------------------------|
| format           | ``"crowsnest-checkpoint"``                                       |
| format_version   | :data:`FORMAT_VERSION`                                           |
| algo             | ``"ppo"`` (actor-critic, :class:`ActorCritic`) or ``"dmc"`` (:class:`QNet`) |
| model_spec       | ``{"hidden": [..], "action_embed": int}`` to rebuild the network |
| model            | the network's ``state_dict``                                     |
| variant, crow    | rules the network was trained for                                |
| layout           | ``ObservationLayout.describe()`` as lists                        |
| num_actions      | size of the flat action space                                    |
| config, global_step, update, optimizer, rng, extra | trainer state (see ``training.checkpoint``) |
"""

from __future__ import annotations

import os
from typing import Any

import torch
from torch import nn

from crowsnest_env.atomic import atomic_write
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import Variant, get_variant, layout_for
from crowsnest_env.variant_config import variant_from_dict, variant_to_dict

from .networks import ALGOS, build_model

FORMAT = "crowsnest-checkpoint"
FORMAT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: unreadable, foreign, or for other rules/layout."""


def make_payload(*, algo: str, model: nn.Module, model_spec: dict[str, Any], variant: Variant,
                 config: dict[str, Any] | None = None, optimizer: torch.optim.Optimizer | None = None,
                 global_step: int = 0, update: int = 0, rng: dict[str, Any] | None = None,
                 extra: dict[str, Any] | None = None) -> dict[str, Any]:
    """Everything a checkpoint carries (the table above); without an optimizer it is a small
    agent file (weights, rules, layout)."""
    if algo not in ALGOS:
        raise CheckpointError(f"unknown algo {algo!r}; expected one of {ALGOS}")
    payload: dict[str, Any] = {
        "format": FORMAT, "format_version": FORMAT_VERSION, "algo": algo,
        "model_spec": dict(model_spec), "model": {k: v.detach().clone() for k, v in model.state_dict().items()},
        "variant": variant.name, "crow": variant.bird, "rules": variant_to_dict(variant),
        "layout": layout_rows(variant),
        "num_actions": layout_for(variant).num_actions, "config": dict(config or {}),
        "global_step": int(global_step), "update": int(update), "extra": dict(extra or {}),
    }
    if optimizer is not None:
        payload["optimizer"] = optimizer.state_dict()
    if rng is not None:
        payload["rng"] = rng
    return payload


def checkpoint_variant(data: dict[str, Any]) -> Variant:
    """The rules a checkpoint was trained for: its stored ``rules``, else its variant name."""
    if isinstance(data.get("rules"), dict):
        return variant_from_dict(data["rules"], source="checkpoint rules")
    own = get_variant(data["variant"])
    return own.without_crow() if data.get("crow") is False and own.bird else own


def write_checkpoint(path: str | os.PathLike[str], payload: dict[str, Any]) -> None:
    """Atomically write ``payload`` to ``path`` (temp file in the same folder, then os.replace)."""
    atomic_write(path, lambda fh: torch.save(payload, fh), binary=True)


def layout_rows(variant: Variant) -> list[list[Any]]:
    """The observation layout as stored in checkpoints: [[name, offset, [shape...]], ...]."""
    return [[name, off, list(shape)] for name, off, shape in observation_layout(variant).describe()]


def read_checkpoint(path: str | os.PathLike[str], variant: Variant | None = None) -> dict[str, Any]:
    """Load and validate a checkpoint; CheckpointError says what is wrong with it.

    Checks that it is a CrowsNest checkpoint of a known format version, that it is complete,
    and that its observation layout and action count match the code's for its variant (and,
    when ``variant`` is given, that it was trained for that variant).
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise CheckpointError(f"no checkpoint file at {path!r}")
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as err:  # pickle/zip errors differ by how the file is damaged
        kind = "truncated or corrupt" if _looks_like_torch(path) else "not a torch checkpoint (foreign file)"
        raise CheckpointError(f"cannot read checkpoint {path!r}: {kind}: {type(err).__name__}: {err}") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CheckpointError(f"{path!r} is not a CrowsNest checkpoint (foreign file: no format={FORMAT!r})")
    if data.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(f"{path!r} has checkpoint format version {data.get('format_version')!r}; "
                              f"this code reads version {FORMAT_VERSION}")
    missing = [k for k in ("algo", "model_spec", "model", "variant", "crow", "layout", "num_actions")
               if k not in data]
    if missing:
        raise CheckpointError(f"checkpoint {path!r} is incomplete: missing {missing}")
    try:
        own = checkpoint_variant(data)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path!r} names unknown rules: {err}") from err
    if variant is not None and own != variant:
        raise CheckpointError(f"checkpoint {path!r} was trained for variant {own.name!r}; "
                              f"expected {variant.name!r}" + ("" if own.name != variant.name else
                                                              " (same name, other rules)"))
    if _norm(data["layout"]) != _norm(layout_rows(own)):
        raise CheckpointError(f"checkpoint {path!r} has another observation layout than this code's "
                              f"for {own.name!r}: {_layout_diff(data['layout'], layout_rows(own))}")
    if data["num_actions"] != layout_for(own).num_actions:
        raise CheckpointError(f"checkpoint {path!r} has {data['num_actions']} actions; "
                              f"{own.name!r} has {layout_for(own).num_actions}")
    return data


def _norm(rows: Any) -> list:
    return [[str(r[0]), int(r[1]), [int(x) for x in r[2]]] for r in rows]


def _layout_diff(saved: Any, code: list) -> str:
    a, b = _norm(saved), _norm(code)
    for x, y in zip(a, b):
        if x != y:
            return f"piece {x} in the checkpoint vs {y} in the code"
    return f"{len(a)} pieces in the checkpoint vs {len(b)} in the code"


def _looks_like_torch(path: str) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(4)
    return head[:2] == b"PK" or head[:1] == b"\x80"


def model_from_checkpoint(data: dict[str, Any]) -> nn.Module:
    variant = checkpoint_variant(data)
    with torch.random.fork_rng(devices=[]):  # loading must not move the caller's torch RNG
        model = build_model(data["algo"], observation_layout(variant).size, data["num_actions"], data["model_spec"])
    try:
        model.load_state_dict(data["model"])
    except (RuntimeError, KeyError) as err:
        raise CheckpointError(f"checkpoint weights do not fit its model_spec: {err}") from err
    model.eval()
    return model


__all__ = ["FORMAT", "FORMAT_VERSION", "CheckpointError", "checkpoint_variant", "layout_rows", "make_payload", "model_from_checkpoint",
           "read_checkpoint", "write_checkpoint"]
