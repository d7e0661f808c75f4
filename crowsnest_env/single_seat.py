"""A Gymnasium single-seat view of the game: one learner seat, three seats driven by agents.

``SingleSeatEnv(variant="crowsnest", seat=0, others=None, **env_kwargs)``: the learner plays
``seat``; the other seats are driven by :class:`~crowsnest_env.agent.Agent` objects acting on
their own views (default: uniform random legal). Observations are the learner's flat float32
vector; the legal actions come from ``action_masks()`` (sb3-contrib's MaskablePPO) and from
``info["action_mask"]``. The reward of a step is everything that reached the learner's seat
since its previous decision (hand results land while the others act). ``episode`` defaults to
``"hand"`` here (one scored hand per episode); pass ``episode="game"`` to play to the target.
An illegal action ends the episode with ``illegal_reward`` (-1) and ``info["illegal_action"]``
(PettingZoo's TerminateIllegal convention, which Gymnasium's ``check_env`` relies on, since it
steps unmasked samples); ``illegal_action="raise"`` raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from .agent import Agent, RandomAgent
from .env import AGENTS, raw_env
from .rules import NUM_SEATS, IllegalActionError

ILLEGAL_ACTION_MODES = ("terminate", "raise")


class SingleSeatEnv(gym.Env):
    """One learner seat of the four; the others are played by agents."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self, variant: str = "crowsnest", seat: int = 0,
        others: Sequence[Agent] | Mapping[int, Agent] | None = None,
        illegal_action: str = "terminate", illegal_reward: float = -1.0, **env_kwargs: Any,
    ):
        if seat not in range(NUM_SEATS):
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_MODES}, got {illegal_action!r}")
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        env_kwargs.setdefault("episode", "hand")
        self.raw = raw_env(variant=variant, **env_kwargs)
        self.seat, self.agent_name = seat, AGENTS[seat]
        self.others = _seat_agents(seat, others)
        self.render_mode = self.raw.render_mode
        self.observation_space = self.raw.observation_space(self.agent_name)["observation"]
        self.action_space = self.raw.action_space(self.agent_name)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self._illegal_end = False
        self.raw.reset(seed=seed, options=options)
        for s, agent in self.others.items():
            agent.reset(None if seed is None else seed * 4 + s)
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: int):
        raw = self.raw
        if self._done():
            raise RuntimeError("step() called after the episode ended; call reset()")
        if not self.action_space.contains(action):
            raise ValueError(f"action {action!r} outside the action space Discrete({self.action_space.n})")
        if not self.action_masks()[action] and self.illegal_action == "terminate":
            # PettingZoo's TerminateIllegalWrapper convention: the episode ends, the mover is penalized
            self._illegal_end = True
            info = {**self._info(), "illegal_action": self.action_name(int(action))}
            return self._obs(), self.illegal_reward, True, False, info
        raw.step(int(action))  # illegal_action="raise": IllegalActionError names the action and phase
        self._play_others()
        reward = float(raw._cumulative_rewards[self.agent_name])
        raw._cumulative_rewards[self.agent_name] = 0.0
        terminated = raw.terminations[self.agent_name]
        truncated = raw.truncations[self.agent_name] and not terminated
        return self._obs(), reward, terminated, truncated, self._info()

    def _play_others(self) -> None:
        raw = self.raw
        while not self._done() and raw.agent_selection != self.agent_name:
            seat = raw.agent_name_mapping[raw.agent_selection]
            action = self.others[seat].act(raw.view(seat))
            raw.step(action)

    def _done(self) -> bool:
        raw = self.raw
        return self._illegal_end or raw.terminations[self.agent_name] or raw.truncations[self.agent_name]

    def _obs(self) -> np.ndarray:
        return self.raw.observe(self.agent_name)["observation"]

    def _info(self) -> dict[str, Any]:
        info = dict(self.raw.infos[self.agent_name])
        info["action_mask"] = self.action_masks()
        return info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now, as a bool array (MaskablePPO's convention)."""
        return self.raw.infos[self.agent_name]["action_mask"].astype(bool)

    def action_name(self, action: int) -> str:
        return self.raw.action_name(action)

    def render(self):
        return self.raw.render()


def _seat_agents(seat: int, others: Sequence[Agent] | Mapping[int, Agent] | None) -> dict[int, Agent]:
    seats = [s for s in range(NUM_SEATS) if s != seat]
    if others is None:
        return {s: RandomAgent() for s in seats}
    if isinstance(others, Mapping):
        if sorted(others) != seats:
            raise ValueError(f"others must map exactly the seats {seats} to agents, got {sorted(others)}")
        agents = dict(others)
    else:
        if len(others) != len(seats):
            raise ValueError(f"others must hold {len(seats)} agents (seats {seats}), got {len(others)}")
        agents = dict(zip(seats, others))
    for s, a in agents.items():
        if not callable(getattr(a, "act", None)):
            raise ValueError(f"the agent for seat {s} has no act(view) method: {a!r}")
        if not callable(getattr(a, "reset", None)):
            raise ValueError(f"the agent for seat {s} has no reset(seed) method: {a!r}")
    return agents


__all__ = ["IllegalActionError", "SingleSeatEnv"]
