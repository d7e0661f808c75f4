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
|                  | (PPO may add ``prior``, ``prior_weight``: a residual policy, :mod:`agents.prior`; |
|                  | ``oracle_size``: an oracle critic's extra input, used in training only; |
|                  | ``members``: a list of ``{"hidden": ..}``, a :class:`PolicyEnsemble` of |
|                  | actor-critics sharing the prior, written by :mod:`training.ensemble`) |
| model            | the network's ``state_dict``                                     |
| variant, crow    | rules the network was trained for                                |
| layout           | ``ObservationLayout.describe()`` as lists                        |
| num_actions      | size of the flat action space                                    |
| config, global_step, update, optimizer, rng, extra | trainer state (see ``training.checkpoint``) |
"""

from __future__ import annotations

import math
import os
from typing import Any

import torch
from torch import nn

from crowsnest_env.atomic import atomic_write
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import Variant, get_variant, layout_for, quote
from crowsnest_env.variant_config import variant_from_dict, variant_to_dict

from .networks import ALGOS, build_model

FORMAT = "crowsnest-checkpoint"
FORMAT_VERSION = 1


class CheckpointError(ValueError):
    """A checkpoint that cannot be used: unreadable, foreign, or for other rules/layout."""


def weights_copy(model: nn.Module) -> dict[str, torch.Tensor]:
    """A detached CPU copy of the model's weights (for a checkpoint, or to ship to workers), wherever it trains."""
    return {k: v.detach().to("cpu", copy=True) for k, v in model.state_dict().items()}


def _on_cpu(value: Any) -> Any:
    """``value`` (tensors in dicts and lists, as in an optimizer's state_dict) with every tensor on the CPU."""
    if isinstance(value, torch.Tensor):
        return value.cpu()
    if isinstance(value, dict):
        return {k: _on_cpu(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_on_cpu(v) for v in value)
    return value


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
        "model_spec": dict(model_spec), "model": weights_copy(model),
        "variant": variant.name, "crow": variant.bird, "rules": variant_to_dict(variant),
        "layout": layout_rows(variant),
        "num_actions": layout_for(variant).num_actions, "config": dict(config or {}),
        "global_step": int(global_step), "update": int(update), "extra": dict(extra or {}),
    }
    if optimizer is not None:
        payload["optimizer"] = _on_cpu(optimizer.state_dict())  # a GPU run's checkpoint loads on any machine
    if rng is not None:
        payload["rng"] = rng
    return payload


def checkpoint_variant(data: dict[str, Any]) -> Variant:
    """The rules a checkpoint was trained for: its stored ``rules``, else its variant name."""
    if isinstance(data.get("rules"), dict):
        return variant_from_dict(data["rules"], source="checkpoint rules")
    own = get_variant(data["variant"])
    return own.without_crow() if data.get("crow") is False and own.bird else own


def other_rules(trained: Variant, wanted: Variant) -> str:
    """For two variants of one name, what tells them apart: `` (same name, other rules: target 300
    (trained) vs 500 (wanted))``; empty when the names differ (the names say it)."""
    if trained.name != wanted.name or trained == wanted:
        return ""
    return f" (same name, other rules: {trained.differences(wanted, ('trained', 'wanted'))})"


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
        raise CheckpointError(f"cannot read checkpoint {path!r}: {kind} ({_load_failure(err)})") from err
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
        _check_types(data)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path!r}: {err}") from None
    try:
        own = checkpoint_variant(data)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path!r} names unknown rules: {err}") from err
    if variant is not None and own != variant:
        raise CheckpointError(f"checkpoint {path!r} was trained for variant {own.name!r}; "
                              f"expected {variant.name!r}{other_rules(own, variant)}")
    if _norm(data["layout"]) != _norm(layout_rows(own)):
        raise CheckpointError(f"checkpoint {path!r} has another observation layout than this code's "
                              f"for {own.name!r}: {_layout_diff(data['layout'], layout_rows(own))}")
    if data["num_actions"] != layout_for(own).num_actions:
        raise CheckpointError(f"checkpoint {path!r} has {data['num_actions']} actions; "
                              f"{own.name!r} has {layout_for(own).num_actions}")
    try:
        shapes = validate_model_spec(data["algo"], data["model_spec"], observation_layout(own).size,
                                     data["num_actions"])
        check_state_dict(data["model"], shapes)
    except ValueError as err:
        raise CheckpointError(f"checkpoint {path!r}: {err}") from err
    return data


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _check_types(data: dict[str, Any]) -> None:
    """ValueError naming the first stored value of the wrong type (the table above)."""
    rows = data["layout"]
    if not isinstance(rows, (list, tuple)) or not all(
            isinstance(r, (list, tuple)) and len(r) == 3 and isinstance(r[0], str) and _is_int(r[1])
            and isinstance(r[2], (list, tuple)) and all(_is_int(x) for x in r[2]) for r in rows):
        raise ValueError(f"layout must be a list of [name, offset, [shape...]] rows, got {quote(rows)}")
    for key, kind, what in (("algo", str, "a name"), ("variant", str, "a variant name"),
                            ("crow", bool, "true or false"), ("rules", dict, "a mapping of rule fields"),
                            ("config", dict, "a mapping"), ("extra", dict, "a mapping")):
        if key in data and not isinstance(data[key], kind):
            raise ValueError(f"{key} must be {what}, got {quote(data[key])}")
    for key in ("num_actions", "global_step", "update"):
        if key in data and not (_is_int(data[key]) and data[key] >= 0):
            raise ValueError(f"{key} must be a non-negative integer, got {quote(data[key])}")


def _norm(rows: Any) -> list:
    return [[str(r[0]), int(r[1]), [int(x) for x in r[2]]] for r in rows]


def _layout_diff(saved: Any, code: list) -> str:
    a, b = _norm(saved), _norm(code)
    for x, y in zip(a, b):
        if x != y:
            return f"piece {x} in the checkpoint vs {y} in the code"
    return f"{len(a)} pieces in the checkpoint vs {len(b)} in the code"


def _load_failure(err: Exception) -> str:
    """One short line for why torch.load failed (its messages run to a dozen lines of advice)."""
    text = str(err).strip()
    if "Weights only load failed" in text:  # torch's advice to unpickle arbitrary code: not for us
        return f"{type(err).__name__}: it holds more than tensors and plain data, or is not a pickle"
    first = text.splitlines()[0] if text else ""
    sentence = first.split(". ")[0].rstrip(".")
    return f"{type(err).__name__}: {sentence[:120]}" if sentence else type(err).__name__


def _looks_like_torch(path: str) -> bool:
    with open(path, "rb") as fh:
        head = fh.read(4)
    return head[:2] == b"PK" or head[:1] == b"\x80"


MAX_LAYER_WIDTH = 65536
"""widest layer (hidden size, action embedding) a model_spec may ask for"""
MAX_PARAMS = 2**27
"""most parameters a model_spec may ask for (512 MiB of float32): a crafted spec must not exhaust memory"""


def _width(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"model_spec {name} must be an integer, got {type(value).__name__} {value!r}")
    if not 1 <= value <= MAX_LAYER_WIDTH:
        raise ValueError(f"model_spec {name} must be in [1, {MAX_LAYER_WIDTH}], got {value!r}")
    return value


def expected_shapes(algo: str, obs_size: int, num_actions: int, spec: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """The state_dict shapes of ``algo``'s network for a (validated) ``spec``, without building it."""
    if "members" in spec:  # a PolicyEnsemble: each member's shapes under members.<i>.
        common = {k: v for k, v in spec.items() if k != "members"}
        return {f"members.{i}.{k}": shape for i, member in enumerate(spec["members"])
                for k, shape in expected_shapes(algo, obs_size, num_actions, {**common, **member}).items()}
    hidden = list(spec["hidden"])
    shapes: dict[str, tuple[int, ...]] = {}
    actor = obs_size + (num_actions if algo == "ppo" and spec.get("prior") else 0)
    mlps = {"trunk": actor}
    if algo == "ppo" and spec.get("oracle_size"):
        mlps["critic"] = actor + spec["oracle_size"]  # an oracle critic's own network
    for name, width in mlps.items():
        sizes = [width, *hidden]
        for i in range(len(hidden)):  # _mlp: Linear, ReLU pairs -> Linear at even indices
            shapes[f"{name}.{2 * i}.weight"], shapes[f"{name}.{2 * i}.bias"] = (sizes[i + 1], sizes[i]), (sizes[i + 1],)
    h = hidden[-1]
    if algo == "ppo":
        shapes.update({"policy.weight": (num_actions, h), "policy.bias": (num_actions,),
                       "value.weight": (1, h), "value.bias": (1,)})
    else:
        e = spec.get("action_embed", 32)
        shapes.update({"embed.weight": (num_actions, e), "head.0.weight": (h, h + e), "head.0.bias": (h,),
                       "head.2.weight": (1, h), "head.2.bias": (1,)})
    return shapes


def validate_model_spec(algo: str, spec: Any, obs_size: int, num_actions: int) -> dict[str, tuple[int, ...]]:
    """ValueError unless ``spec`` describes a buildable, sanely sized ``algo`` network; returns its shapes."""
    if algo not in ALGOS:
        raise ValueError(f"unknown algo {algo!r}; expected one of {ALGOS}")
    if not isinstance(spec, dict):
        raise ValueError(f"model_spec must be a mapping, got {type(spec).__name__}")
    if algo == "ppo" and "members" in spec:
        return _validate_ensemble(spec, obs_size, num_actions)
    allowed = {"hidden"} | ({"action_embed"} if algo == "dmc" else {"prior", "prior_weight", "oracle_size"})
    unknown = set(spec) - allowed
    if unknown or "hidden" not in spec:
        raise ValueError(f"model_spec keys must be {sorted(allowed)} ('hidden' required), got {sorted(spec)}")
    if ("prior" in spec) != ("prior_weight" in spec):
        raise ValueError(f"model_spec prior and prior_weight go together, got {sorted(spec)}")
    if "prior" in spec:
        from .prior import check_prior_weight, prior_options

        prior_options(spec["prior"])
        check_prior_weight(spec["prior_weight"])
    hidden = spec["hidden"]
    if not isinstance(hidden, (list, tuple)) or not hidden:
        raise ValueError(f"model_spec hidden must be a non-empty list of layer sizes, got {hidden!r}")
    for i, h in enumerate(hidden):
        _width(f"hidden[{i}]", h)
    if algo == "dmc" and "action_embed" in spec:
        _width("action_embed", spec["action_embed"])
    if "oracle_size" in spec:
        _width("oracle_size", spec["oracle_size"])
    shapes = expected_shapes(algo, obs_size, num_actions, spec)
    params = sum(math.prod(s) for s in shapes.values())
    if params > MAX_PARAMS:
        raise ValueError(f"model_spec {dict(spec)} asks for {params:,} parameters; the limit is {MAX_PARAMS:,}")
    return shapes


MAX_MEMBERS = 16
"""most members a PolicyEnsemble's model_spec may list"""


def _validate_ensemble(spec: dict[str, Any], obs_size: int, num_actions: int) -> dict[str, tuple[int, ...]]:
    """validate_model_spec for a PolicyEnsemble: ``members`` (each ``{"hidden": .., "oracle_size": ..}``,
    and its own ``prior_weight`` where it differs from the shared one) with the shared ``prior`` and
    ``prior_weight`` beside it."""
    unknown = set(spec) - {"members", "prior", "prior_weight"}
    if unknown:
        raise ValueError(f"an ensemble's model_spec keys must be ['members', 'prior', 'prior_weight'] (each member "
                         f"its own 'hidden'), got {sorted(spec)}")
    members = spec["members"]
    if not isinstance(members, (list, tuple)) or not 1 <= len(members) <= MAX_MEMBERS:
        raise ValueError(f"model_spec members must be a list of 1 to {MAX_MEMBERS} member specs, got {quote(members)}")
    common = {k: v for k, v in spec.items() if k != "members"}
    for i, member in enumerate(members):
        if not isinstance(member, dict) or not set(member) <= {"hidden", "oracle_size", "prior_weight"}:
            raise ValueError(f"model_spec members[{i}] must be a mapping of 'hidden' (and 'oracle_size', "
                             f"'prior_weight'), got {quote(member)}")
        if "prior_weight" in member and "prior" not in common:
            raise ValueError(f"model_spec members[{i}] has a prior_weight but the ensemble has no prior")
        validate_model_spec("ppo", {**common, **member}, obs_size, num_actions)
    shapes = expected_shapes("ppo", obs_size, num_actions, spec)
    params = sum(math.prod(s) for s in shapes.values())
    if params > MAX_PARAMS:
        raise ValueError(f"the ensemble's model_spec asks for {params:,} parameters; the limit is {MAX_PARAMS:,}")
    return shapes


def check_state_dict(state: Any, shapes: dict[str, tuple[int, ...]]) -> None:
    """ValueError unless ``state`` holds exactly the float tensors of ``shapes``."""
    if not isinstance(state, dict):
        raise ValueError(f"model weights must be a mapping of tensors, got {type(state).__name__}")
    missing, extra = sorted(set(shapes) - set(state)), sorted(set(state) - set(shapes))
    if missing or extra:
        raise ValueError(f"weights do not fit the model_spec: missing {missing}, unexpected {extra}")
    for k, shape in shapes.items():
        t = state[k]
        if not isinstance(t, torch.Tensor) or not t.is_floating_point():
            raise ValueError(f"weight {k!r} must be a float tensor, got {type(t).__name__}")
        if tuple(t.shape) != shape:
            raise ValueError(f"weight {k!r} has shape {tuple(t.shape)}; the model_spec gives {shape}")


def model_from_checkpoint(data: dict[str, Any]) -> nn.Module:
    """The checkpoint's network, in eval mode; CheckpointError if its spec or weights do not fit."""
    variant = checkpoint_variant(data)
    obs_size = observation_layout(variant).size
    try:
        shapes = validate_model_spec(data["algo"], data["model_spec"], obs_size, data["num_actions"])
        check_state_dict(data["model"], shapes)
    except ValueError as err:
        raise CheckpointError(f"checkpoint weights do not fit its model_spec: {err}") from err
    with torch.random.fork_rng(devices=[]):  # loading must not move the caller's torch RNG
        model = build_model(data["algo"], obs_size, data["num_actions"], data["model_spec"])
    try:
        model.load_state_dict(data["model"])
    except (RuntimeError, KeyError) as err:
        raise CheckpointError(f"checkpoint weights do not fit its model_spec: {err}") from err
    model.eval()
    return model


__all__ = ["FORMAT", "FORMAT_VERSION", "MAX_LAYER_WIDTH", "MAX_MEMBERS", "MAX_PARAMS", "CheckpointError",
           "check_state_dict", "checkpoint_variant", "expected_shapes", "layout_rows", "make_payload",
           "model_from_checkpoint", "other_rules", "read_checkpoint", "validate_model_spec", "weights_copy",
           "write_checkpoint"]
