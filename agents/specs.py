"""Agent names as text: the known names, yes/no options, teams and lists of agents, options.

The parsing half of :func:`agents.make_agent` (whose module docstring gives the rules), kept
apart so that agent modules that read options (``parse_bool``) import no agent registry.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from crowsnest_env.rules import quote

SIMPLE_AGENTS = ("random", "heuristic", "pimc", "learned", "expert", "double_dummy")
SPEC_PREFIXES = ("checkpoint:", "phase:")
SEARCH_AGENTS = ("pimc", "expert")  # agents whose policy= option names another agent
AGENT_NAMES = (*SIMPLE_AGENTS, "checkpoint:PATH", "phase:base=NAME;auction=NAME;discard=NAME;play=NAME")
MAX_SPEC_DEPTH = 8
"""how deep agents may name agents (``pimc?policy=phase:base=...``): a deeper spec is refused"""
_TRUE, _FALSE = ("true", "yes", "1"), ("false", "no", "0")


def parse_bool(option: str, value: Any) -> bool:
    """A yes/no option: a bool, 1/0, or (any case) true/false, yes/no, 1/0; ValueError naming ``option``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise ValueError(f"option {option} must be true or false (or yes/no, 1/0), got {quote(value)}")


def starts_agent(text: str) -> bool:
    """Whether ``text`` begins with an agent name (``pimc``, ``pimc?...``, ``checkpoint:...``)."""
    name = text.strip()
    return name.startswith(SPEC_PREFIXES) or name.partition("?")[0] in SIMPLE_AGENTS


def _rejoin(pieces: list[str], sep: str, joins: Callable[[str, str], bool]) -> list[str]:
    """Glue back the pieces of a split that do not start an agent where ``joins(previous, piece)``."""
    out: list[str] = []
    for piece in pieces:
        if out and not starts_agent(piece) and joins(out[-1], piece):
            out[-1] += sep + piece
        else:
            out.append(piece)
    return out


def parse_team(spec: str) -> tuple[str, str]:
    """``"x"`` -> ``("x", "x")``; ``"x+y"`` -> ``("x", "y")`` (x sits in the lower seat); a ``+`` in a
    checkpoint path stays in it (see the module docstring)."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"a team must be an agent name or two joined by '+', got {quote(spec)}")
    whole = spec.strip()
    if whole.startswith("checkpoint:") and os.path.isfile(whole[len("checkpoint:"):]):
        return (whole, whole)
    names = [n.strip() for n in _rejoin(spec.split("+"), "+", lambda prev, _: "checkpoint:" in prev)]
    if len(names) > 2 or not all(names):
        raise ValueError(f"a team is one agent name or two joined by '+', got {quote(spec)}")
    return (names[0], names[-1])


def split_agent_list(text: str) -> list[str]:
    """Split ``a,b,pimc?samples=9,depth=2`` on commas: ``key=value`` pieces stay with their agent,
    and so does the rest of a checkpoint path (see the module docstring)."""
    pieces = [p.strip() for p in text.split(",") if p.strip()]
    return _rejoin(pieces, ",", lambda prev, piece: "=" in piece or "checkpoint:" in prev)


def parse_options(text: str) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        if "=" not in part:
            raise ValueError(f"agent option {quote(part)} must look like key=value")
        key, raw = part.split("=", 1)
        val: Any = raw
        for conv in (int, float):
            try:
                val = conv(raw)
                break
            except ValueError:
                continue
        opts[key.strip()] = val
    return opts




__all__ = ["AGENT_NAMES", "MAX_SPEC_DEPTH", "SEARCH_AGENTS", "SIMPLE_AGENTS", "SPEC_PREFIXES", "parse_bool",
           "parse_options", "parse_team", "split_agent_list", "starts_agent"]
