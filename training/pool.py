"""The opponent pool: who holds the other team in each episode, and the past snapshots it keeps."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from torch import nn

from agents.checkpoint import model_from_checkpoint, read_checkpoint
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import Phase

from .config import TRAIN_PHASES, Config
from .rollout import AgentController, NetController, PhaseTeacher

OPPONENT_KINDS = ("self_play", "snapshot", "heuristic", "random", "agent")
"""the opponent team's kinds, in :class:`~training.config.OpponentMix`'s order; ``agent`` is ``cfg.opponent_agent``"""


class OpponentPool:
    """Draws the opponent team per episode from the config's mix; keeps past snapshots.

    The fixed opponents (heuristic, random, ``cfg.opponent_agent`` and ``cfg.more_opponent_agents``) are view
    agents, each one object for both seats of its team and every game, reseeded by the collector at each
    episode's start. The agent kind's episodes go to one of ``opponent_agent`` and ``more_opponent_agents``,
    drawn uniformly per episode.

    Snapshots are drawn uniformly from the whole pool (not just the newest), so the policy
    keeps facing the strategies it has already beaten instead of chasing its own tail. One
    snapshot is drawn per :meth:`assigner` (per rollout) and plays every snapshot episode of
    that rollout: one batched forward pass per step instead of one per snapshot (with 20
    snapshots, drawing per episode made collection 25% slower); the pool still varies from
    one update to the next.
    """

    def __init__(self, cfg: Config, make_snapshot: Callable[[nn.Module], NetController], seed: int):
        mix = cfg.opponents
        self.weights = [mix.self_play, mix.snapshot, mix.heuristic, mix.random, mix.agent]
        self.make_snapshot = make_snapshot
        self.size = cfg.pool_size
        self.rng = random.Random(seed)
        self.paths: list[str] = []
        self.snapshots: list[NetController] = []
        self.fixed: dict[str, AgentController] = {}
        self.teacher_auction, self.teacher_train = cfg.teacher_auction, cfg.teacher_train
        # train_phases: who plays the learner's seats in the other phases (the rule agent, unrecorded)
        self.taught = frozenset(Phase[p.upper()] for p in TRAIN_PHASES if p not in cfg.train_phases)
        self.phase_teacher: AgentController | None = None
        if self.taught:
            from agents.heuristic import HeuristicAgent
            from agents.prior import make_prior

            prior = cfg.ppo.prior if cfg.algo == "ppo" else ""
            agent = make_prior(prior) if prior else HeuristicAgent(seed=seed)
            self.phase_teacher = AgentController(agent, prior or "heuristic")
        if mix.heuristic > 0 or cfg.teacher_auction > 0:
            from agents.heuristic import HeuristicAgent

            self.fixed["heuristic"] = AgentController(HeuristicAgent(seed=seed), "heuristic")
        if mix.random > 0:
            self.fixed["random"] = AgentController(RandomAgent(seed=seed), "random")
        # the agent kind: one agent for both seats of its team, as heuristic and random (agents act on views);
        # more_opponent_agents share its episodes, one of them drawn per episode; a name listed n times is one
        # agent drawn n times as often (a weighted mix without another config field)
        self.agents: list[AgentController] = []
        if mix.agent > 0:
            from agents import make_agent

            built: dict[str, AgentController] = {}
            for name in (cfg.opponent_agent, *cfg.more_opponent_agents):
                if name not in built:
                    built[name] = AgentController(make_agent(name, seed=seed), "agent")
                self.agents.append(built[name])
            self.fixed["agent"] = self.agents[0]

    def add(self, path: str, data: dict[str, Any] | None = None) -> None:
        """Add the snapshot at ``path`` (``data``: its already-read checkpoint, e.g. on a remote actor)."""
        model = model_from_checkpoint(data if data is not None else read_checkpoint(path))
        self.paths.append(path)
        self.snapshots.append(self.make_snapshot(model))
        if len(self.paths) > self.size:
            self.paths.pop(0)
            self.snapshots.pop(0)

    def assigner(self, learner: NetController) -> Callable[[int], tuple[list[Any], tuple[int, ...]]]:
        """The collector's per-episode callback: controllers per seat and the learner's seats
        (a fresh one per rollout; it draws this rollout's snapshot)."""
        snapshot = self.rng.choice(self.snapshots) if self.snapshots else None

        def assign(_: int) -> tuple[list[Any], tuple[int, ...]]:
            kind = self.rng.choices(OPPONENT_KINDS, weights=self.weights)[0]
            if kind == "snapshot" and snapshot is None:
                kind = "self_play"
            me: Any = learner
            if self.phase_teacher is not None:
                me = PhaseTeacher(self.phase_teacher, learner, phases=self.taught)
            elif self.teacher_auction > 0 and self.rng.random() < self.teacher_auction:
                me = PhaseTeacher(self.fixed["heuristic"], learner, record=self.teacher_train)
            if kind == "self_play":
                return [me] * 4, (0, 1, 2, 3)
            opp = snapshot if kind == "snapshot" else self.fixed[kind]
            if kind == "agent" and len(self.agents) > 1:  # no extra draw with one agent: old configs draw the same
                opp = self.rng.choice(self.agents)
            team = self.rng.randrange(2)
            ctrl = [me if s % 2 == team else opp for s in range(4)]
            return ctrl, (team, team + 2)

        return assign


__all__ = ["OPPONENT_KINDS", "OpponentPool"]
