"""An agent made of one agent per phase: ``phase:base=heuristic;auction=pimc``.

The phases are ``auction``, ``discard`` (the declarer's put-back, with ``trump``) and
``play`` (the tricks); ``base`` plays every phase not named. Each part is any agent name
(``random``, ``heuristic``, ``pimc?samples=4``, ``checkpoint:PATH``, ...). The arena's
``--by-phase`` option (:func:`agents.arena.run_by_phase`) uses it to swap one phase's agent at a
time and tell which phase an agent's edge comes from; this module only builds agents.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crowsnest_env.agent import Agent
from crowsnest_env.rules import Phase, PlayerView

PHASE_GROUPS = ("auction", "discard", "play")
"""The swappable phases; ``discard`` covers the nest put-back and the trump call."""
_GROUP_OF = {Phase.AUCTION: "auction", Phase.DISCARD: "discard", Phase.TRUMP: "discard", Phase.PLAY: "play"}
PREFIX = "phase:"


def parse_phase_spec(spec: str) -> dict[str, str]:
    """``phase:base=X;auction=Y`` -> {"auction": Y, "discard": X, "play": X}; ValueError naming a bad part."""
    if not spec.startswith(PREFIX):
        raise ValueError(f"a phase agent is written {PREFIX}base=NAME;auction=NAME;..., got {spec!r}")
    parts: dict[str, str] = {}
    for piece in filter(None, (p.strip() for p in spec[len(PREFIX):].split(";"))):
        key, sep, name = piece.partition("=")
        key = key.strip()
        if not sep or not name.strip():
            raise ValueError(f"phase agent part {piece!r} must look like phase=AGENT")
        if key not in ("base", *PHASE_GROUPS):
            raise ValueError(f"unknown phase {key!r} in {spec!r}; phases: base, {', '.join(PHASE_GROUPS)}")
        if key in parts:
            raise ValueError(f"phase {key!r} named twice in {spec!r}")
        parts[key] = name.strip()
    base = parts.pop("base", None)
    missing = [g for g in PHASE_GROUPS if g not in parts and base is None]
    if missing:
        raise ValueError(f"phase agent {spec!r} names no agent for {missing} (add base=NAME)")
    return {g: parts.get(g, base) for g in PHASE_GROUPS}  # type: ignore[misc]


def phase_spec(base: str, **swapped: str) -> str:
    """The name of ``base`` with some phases played by other agents."""
    return PREFIX + ";".join([f"base={base}", *(f"{k}={v}" for k, v in swapped.items())])


class PhaseAgent:
    """Routes each decision to the agent of its phase; resets all of them together."""

    def __init__(self, agents: dict[str, Agent], name: str = "phase"):
        unknown = set(agents) - set(PHASE_GROUPS)
        if unknown or len(agents) != len(PHASE_GROUPS):
            raise ValueError(f"PhaseAgent needs exactly the phases {PHASE_GROUPS}, got {sorted(agents)}")
        self.agents, self.name = dict(agents), name
        self._distinct = list({id(a): a for a in agents.values()}.values())

    @classmethod
    def from_spec(cls, spec: str, make: Callable[..., Agent], seed: int | None = None, **kwargs: Any) -> PhaseAgent:
        """The agent of ``spec``, its parts built by ``make(name, seed=seed, **kwargs)`` (``agents.make_agent``,
        which passes itself: this module builds agents and imports no registry)."""
        names = parse_phase_spec(spec)
        built: dict[str, Agent] = {}
        for group, name in names.items():
            same = next((g for g in built if names[g] == name), None)  # one instance per distinct name
            built[group] = built[same] if same else make(name, seed=seed, **kwargs)
        return cls(built, name=spec)

    def reset(self, seed: int | None = None) -> None:
        for agent in self._distinct:
            agent.reset(seed)

    def act(self, view: PlayerView) -> int:
        return self.agents[_GROUP_OF[view.phase]].act(view)

    def explain(self, view: PlayerView) -> tuple[int, dict[int, float] | None]:
        """The phase's agent's action and its value of each legal action (its ``explain``, as
        :meth:`agents.pimc.PIMCAgent.explain`), or None where that agent gives no values."""
        agent = self.agents[_GROUP_OF[view.phase]]
        explain = getattr(agent, "explain", None)
        return explain(view) if explain is not None else (agent.act(view), None)


__all__ = ["PHASE_GROUPS", "PREFIX", "PhaseAgent", "parse_phase_spec", "phase_spec"]
