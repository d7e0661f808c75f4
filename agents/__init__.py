"""Agents that play Rook from a seat's view, selected by name everywhere.

| name              | agent                                                    |
|-------------------|----------------------------------------------------------|
| ``random``        | uniform over legal actions (:class:`RandomAgent`)        |
| ``heuristic``     | the app-style "computer player" (:mod:`agents.heuristic`) |
| ``pimc``          | Perfect-Information Monte-Carlo search (:mod:`agents.pimc`) |
| ``checkpoint:PATH`` | a trained policy loaded from a checkpoint (:mod:`agents.learned`, :mod:`agents.checkpoint`) |
| ``learned``       | the shipped policy of the variant being played (``agents/policies/<variant>.pt``) |
| ``phase:base=X;auction=Y`` | one agent per phase (:mod:`agents.phases`): auction, discard (with trump), play |

Constructor options may follow a name as a query string, e.g. ``pimc?samples=40,seconds=0.2``;
see :func:`make_agent`.
"""

from __future__ import annotations

import inspect
from typing import Any

from crowsnest_env.agent import Agent, RandomAgent

AGENT_NAMES = ("random", "heuristic", "pimc", "learned", "checkpoint:PATH",
               "phase:base=NAME;auction=NAME;discard=NAME;play=NAME")


def _parse_options(text: str) -> dict[str, Any]:
    opts: dict[str, Any] = {}
    for part in filter(None, text.split(",")):
        if "=" not in part:
            raise ValueError(f"agent option {part!r} must look like key=value")
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
        raise ValueError(f"agent name must be a non-empty string, got {spec!r}")
    if spec.startswith("phase:"):
        from .phases import PhaseAgent

        return PhaseAgent.from_spec(spec, make_agent, seed=seed, **kwargs)
    if spec.startswith("checkpoint:"):
        from .learned import PolicyAgent

        return PolicyAgent.from_checkpoint(spec[len("checkpoint:"):], seed=seed, **kwargs)
    name, _, query = spec.partition("?")
    options = _parse_options(query)
    if "seed" in options:
        raise ValueError(f"agent {spec!r}: 'seed' is not an agent option (the arena or caller seeds agents)")
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
    else:
        raise ValueError(f"unknown agent {spec!r}; valid names: {', '.join(AGENT_NAMES)}")
    valid = [p for p in inspect.signature(cls).parameters if p != "seed"]
    unknown = [k for k in kwargs if k not in valid]
    if unknown:
        raise ValueError(f"agent {spec!r}: unknown option(s) {unknown}; {name} takes "
                         f"{', '.join(valid) if valid else 'no options'}")
    try:
        return cls(seed=seed, **kwargs)
    except (TypeError, ValueError) as err:
        raise ValueError(f"agent {spec!r}: {err}") from None


__all__ = ["AGENT_NAMES", "Agent", "RandomAgent", "make_agent"]
