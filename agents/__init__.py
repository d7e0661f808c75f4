"""Agents that play Rook from a seat's view, selected by name everywhere.

| name              | agent                                                    |
|-------------------|----------------------------------------------------------|
| ``random``        | uniform over legal actions (:class:`RandomAgent`)        |
| ``heuristic``     | the app-style "computer player" (:mod:`agents.heuristic`) |
| ``pimc``          | Perfect-Information Monte-Carlo search (:mod:`agents.pimc`) |
| ``checkpoint:PATH`` | a trained policy loaded from a checkpoint (:mod:`agents.learned`, :mod:`agents.checkpoint`) |
| ``learned``       | the shipped policy of the variant being played (``agents/policies/<variant>.pt``) |
| ``phase:base=X;auction=Y`` | one agent per phase (:mod:`agents.phases`): auction, discard (with trump), play |
| ``expert``        | the strongest agent: PIMC, a trained auction, inference (:mod:`agents.expert`) |
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
from typing import Any

from crowsnest_env.agent import Agent, RandomAgent
from crowsnest_env.rules import quote

from .specs import (
    AGENT_NAMES,
    MAX_SPEC_DEPTH,
    SEARCH_AGENTS,
    parse_bool,
    parse_options,
    parse_team,
    split_agent_list,
    starts_agent,
)

_depth = contextvars.ContextVar("agent_spec_depth", default=0)


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

        return PhaseAgent.from_spec(spec, make_agent, seed=seed, **kwargs)
    if spec.startswith("checkpoint:"):
        from .learned import PolicyAgent

        return PolicyAgent.from_checkpoint(spec[len("checkpoint:"):], seed=seed, **kwargs)
    name, _, query = spec.partition("?")
    options = parse_options(query)
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
    params = inspect.signature(cls).parameters
    for option in ("policy", "bidder"):  # an agent named by an option is built here, by name
        if option in params and option in kwargs:
            kwargs[option] = _named_policy(kwargs[option], seed, spec, option)
    valid = [p for p in params if p != "seed"]
    unknown = [k for k in kwargs if k not in valid]
    if unknown:
        raise ValueError(f"agent {quote(spec)}: unknown option(s) {quote(unknown)}; {name} takes "
                         f"{', '.join(valid) if valid else 'no options'}")
    try:
        return cls(seed=seed, **kwargs)
    except (TypeError, ValueError) as err:
        raise ValueError(f"agent {quote(spec)}: {err}") from None


def _named_policy(name: Any, seed: int | None, spec: str, option: str = "policy") -> Agent | None:
    """The agent of a search agent's ``policy=NAME`` or ``bidder=NAME`` option (none for an empty
    name or ``none``)."""
    if name is None or (isinstance(name, str) and name.strip().lower() in ("", "none")):
        return None
    if not isinstance(name, str) or name.partition("?")[0].strip() in SEARCH_AGENTS:
        raise ValueError(f"agent {quote(spec)}: option {option} must name another agent that is not a search, "
                         f"got {quote(name)}")
    return make_agent(name, seed=seed)


__all__ = ["AGENT_NAMES", "MAX_SPEC_DEPTH", "Agent", "RandomAgent", "make_agent", "parse_bool", "parse_team",
           "split_agent_list", "starts_agent"]
