"""YAML files for variants (``configs/rules/*.yaml``) that map 1:1 onto :class:`Variant`.

``load_variant(path)`` rejects unknown or missing keys and bad values with a message naming
them (each value is checked by :class:`Variant` itself; the file is read with the limits of
:func:`crowsnest_env.yamlfile.read_yaml`); ``variant_to_dict`` writes the mirror of a preset.
"""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from .rules import BirdRank, MadeScore, Variant, quote
from .yamlfile import read_yaml

_ENUMS = {"bird_rank": BirdRank, "made_score": MadeScore}
_FIELDS = [f.name for f in dataclasses.fields(Variant) if f.init]


def variant_to_dict(v: Variant) -> dict[str, Any]:
    """Plain data for YAML: enums by value, counters as {rank: points}."""
    out: dict[str, Any] = {}
    for name in _FIELDS:
        val = getattr(v, name)
        if isinstance(val, (BirdRank, MadeScore)):
            val = val.value
        elif name == "counters":
            val = dict(val)
        elif isinstance(val, tuple):
            val = list(val)
        out[name] = val
    return out


def variant_from_dict(data: dict[str, Any], source: str = "variant config") -> Variant:
    """Build a Variant; ValueError naming unknown keys, missing keys or bad values."""
    if not isinstance(data, dict):
        raise ValueError(f"{source}: expected a mapping of variant fields, got {type(data).__name__}")
    unknown = sorted(set(data) - set(_FIELDS), key=str)
    if unknown:
        raise ValueError(f"{source}: unknown key(s) {quote(unknown)}; valid keys: {', '.join(_FIELDS)}")
    required = [f.name for f in dataclasses.fields(Variant)
                if f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING]
    missing = [k for k in required if k not in data]
    if missing:
        raise ValueError(f"{source}: missing key(s) {missing}")
    kwargs = dict(data)
    for key, enum in _ENUMS.items():
        if key in kwargs:
            try:
                kwargs[key] = enum(kwargs[key])
            except (ValueError, TypeError):  # TypeError: an unhashable value (a list)
                valid = [e.value for e in enum]
                raise ValueError(f"{source}: {key} must be one of {valid}, got {quote(kwargs[key])}") from None
    if not isinstance(kwargs["counters"], dict):
        raise ValueError(f"{source}: counters must map rank -> points, got {quote(kwargs['counters'])}")
    # JSON (a record's rules) writes every key as a string: "5" is the rank 5
    kwargs["counters"] = {int(r) if isinstance(r, str) and r.isdecimal() else r: p
                          for r, p in kwargs["counters"].items()}
    try:
        return Variant(**kwargs)  # checks every value's type and range
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from None


def load_variant(path: str | os.PathLike[str]) -> Variant:
    """The Variant of a YAML file (``configs/rules/*.yaml`` format); ValueError naming the file and the problem."""
    return variant_from_dict(read_yaml(path), source=os.fspath(path))
