"""Agents that play Rook from a seat's view, selected by name everywhere.

| name              | agent                                                    |
|-------------------|----------------------------------------------------------|
| ``random``        | uniform over legal actions (:class:`RandomAgent`)        |
| ``heuristic``     | the app-style "computer player" (:mod:`agents.heuristic`) |
| ``pimc``          | Perfect-Information Monte-Carlo search (:mod:`agents.pimc`) |
| ``checkpoint:PATH`` | a trained policy loaded from a checkpoint (:mod:`agents.learned`, :mod:`agents.checkpoint`) |
| ``learned``       | the shipped policy of the variant being played (``agents/policies/<variant>.pt``) |
| ``phase:base=X;auction=Y`` | one agent per phase (:mod:`agents.phases`): auction, discard (with trump), play |
| ``expert``        | the strongest agent: PIMC, the policy's auction, policy-based inference (:mod:`agents.expert`) |
| ``double_dummy``  | a cheating reference that sees all four hands (:mod:`agents.double_dummy`); the arena only |

Constructor options may follow a name as a query string, e.g. ``pimc?samples=40,seconds=0.2``;
see :func:`make_agent`. Yes/no options take ``true``/``false``, ``yes``/``no`` or ``1``/``0``
(:func:`parse_bool`). An agent may name others (``phase:``, ``pimc?policy=``) at most
:data:`MAX_SPEC_DEPTH` deep.

Teams and lists of agents (the arena's ``--a``, ``--round-robin``): a team is one agent or two
joined by ``+`` (:func:`parse_team`), a list is agents joined by ``,`` (:func:`split_agent_list`).
A ``+`` or ``,`` inside a checkpoint path stays in the path: after ``checkpoint:`` the separator
is only one followed by the start of another agent (``random``, ``heuristic``, ``pimc``,
``learned`` with or without ``?``, ``checkpoint:``, ``phase:``), and a whole ``checkpoint:PATH``
whose file exists is always one agent.
"""

from __future__ import annotations

import contextvars
import inspect
import os
from collections.abc import Callable
from typing import Any

from crowsnest_env.agent import Agent, RandomAgent
from crowsnest_env.rules import quote

SIMPLE_AGENTS = ("random", "heuristic", "pimc", "learned", "expert", "double_dummy")
SPEC_PREFIXES = ("checkpoint:", "phase:")
AGENT_NAMES = (*SIMPLE_AGENTS, "checkpoint:PATH", "phase:base=NAME;auction=NAME;discard=NAME;play=NAME")
MAX_SPEC_DEPTH = 8
"""how deep agents may name agents (``pimc?policy=phase:base=...``): a deeper spec is refused"""
_depth = contextvars.ContextVar("agent_spec_depth", default=0)
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


def _parse_options(text: str) -> dict[str, Any]:
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


def make_agent(spec: str, seed: int | None = None, **kwargs: Any) -> Agent:
    """Build an agent from its name: ``random``, ``heuristic``, ``pimc`` or ``checkpoint:PATH``.

    ``name?key=value,key=value`` passes options to the agent's constructor.
    """
    if not isinstance(spec, str) or not spec:
        raise ValueError(f"agent name must be a non-empty string, got {quote(spec)}")
    depth = _depth.get()
    if depth >= MAX_SPEC_DEPTH:
        raise ValueError(f"agent names nest more than {MAX_SPEC_DEPTH} deep (an agent naming an agent naming ...): "
                         f"{quote(spec)}")
    token = _depth.set(depth + 1)
    try:
        return _make_agent(spec, seed, **kwargs)
    finally:
        _depth.reset(token)


def _make_agent(spec: str, seed: int | None, **kwargs: Any) -> Agent:
    if spec.startswith("phase:"):
        from .phases import PhaseAgent

        return PhaseAgent.from_spec(spec, seed=seed, **kwargs)
    if spec.startswith("checkpoint:"):
        from .learned import PolicyAgent

        return PolicyAgent.from_checkpoint(spec[len("checkpoint:"):], seed=seed, **kwargs)
    name, _, query = spec.partition("?")
    options = _parse_options(query)
    if "seed" in options:
        raise ValueError(f"agent {quote(spec)}: 'seed' is not an agent option (the arena or caller seeds agents)")
    kwargs = {**options, **kwargs}
    if name == "random":
        cls: Any = RandomAgent
    elif name == "heuristic":
        from .heuristic import HeuristicAgent

        cls = HeuristicAgent
    elif name == "pimc":
        from .pimc import PIMCAgent

        cls = PIMCAgent
    elif name == "learned":
        from .learned import LearnedAgent

        cls = LearnedAgent
    elif name == "expert":
        from .expert import ExpertAgent

        cls = ExpertAgent
    elif name == "double_dummy":
        from .double_dummy import DoubleDummyAgent

        cls = DoubleDummyAgent
    else:
        raise ValueError(f"unknown agent {quote(spec)}; valid names: {', '.join(AGENT_NAMES)}")
    valid = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = [k for k in kwargs if k not in valid]
    if unknown:
        raise ValueError(f"agent {quote(spec)}: unknown option(s) {quote(unknown)}; {name} takes "
                         f"{', '.join(valid) if valid else 'no options'}")
    try:
        return cls(seed=seed, **kwargs)
    except (TypeError, ValueError) as err:
        raise ValueError(f"agent {quote(spec)}: {err}") from None


__all__ = ["AGENT_NAMES", "MAX_SPEC_DEPTH", "Agent", "RandomAgent", "make_agent", "parse_bool", "parse_team",
           "split_agent_list", "starts_agent"]
