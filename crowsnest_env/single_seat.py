"""A Gymnasium single-seat view of the game: one learner seat, three seats driven by agents.

``SingleSeatEnv(variant="crowsnest", seat=0, others=None, **env_kwargs)``: the learner plays
``seat``; the other seats are driven by :class:`~crowsnest_env.agent.Agent` objects acting on
their own views (default: uniform random legal). Observations are the learner's flat float32
vector; the legal actions come from ``action_masks()`` (sb3-contrib's MaskablePPO) and from
``info["action_mask"]``. The reward of a step is everything that reached the learner's seat
since its previous decision (hand results land while the others act). ``episode`` defaults to
``"hand"`` here (one scored hand per episode); pass ``episode="game"`` to play to the target.
The episode options (``episode``, ``reward``, ``max_hands``, ``max_redeals``, ``crow``) are the
env's, applied by the same game driver (:class:`~crowsnest_env.table.Table`).
An illegal action ends the episode with ``illegal_reward`` (-1) and ``info["illegal_action"]``
(PettingZoo's TerminateIllegal convention, which Gymnasium's ``check_env`` relies on, since it
steps unmasked samples); ``illegal_action="raise"`` raises ``IllegalActionError`` instead.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .agent import Agent, RandomAgent
from .env import AGENTS, hand_info
from .render import render_ansi
from .rules import NUM_SEATS, IllegalActionError, Variant, quote
from .table import DEFAULT_MAX_HANDS, DEFAULT_MAX_REDEALS, Table, check_choice

ILLEGAL_ACTION_MODES = ("terminate", "raise")


class SingleSeatEnv(gym.Env):
    """One learner seat of the four; the others are played by agents. Drives one :class:`Table`."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self, variant: str | Variant = "crowsnest", seat: int = 0,
        others: Sequence[Agent] | Mapping[int, Agent] | None = None,
        illegal_action: str = "terminate", illegal_reward: float = -1.0, *, episode: str = "hand",
        reward: str = "score", max_hands: int | None = DEFAULT_MAX_HANDS, max_redeals: int | None = DEFAULT_MAX_REDEALS,
        crow: bool = True, render_mode: str | None = None,
    ):
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or seat not in range(NUM_SEATS):
            raise ValueError(f"seat must be 0..3, got {seat!r}")
        check_choice("illegal_action", illegal_action, ILLEGAL_ACTION_MODES)
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        if (isinstance(illegal_reward, bool) or not isinstance(illegal_reward, (int, float, np.integer, np.floating))
                or not np.isfinite(illegal_reward)):
            raise ValueError(f"illegal_reward must be a finite number, got {illegal_reward!r}")
        self.illegal_reward = float(illegal_reward)
        self.illegal_action = illegal_action
        self.table = Table(variant, crow, episode=episode, reward=reward, max_hands=max_hands,
                           max_redeals=max_redeals)
        self.seat, self.agent_name = int(seat), AGENTS[seat]
        self.others = _seat_agents(self.seat, others)
        self.render_mode = render_mode
        low, high = self.table.observer().layout.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space: spaces.Discrete = spaces.Discrete(self.table.num_actions)
        self._hand: dict[str, Any] | None = None
        self._illegal_end = False

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"reset seed must be a non-negative integer or None, got {seed!r}")
        super().reset(seed=seed)
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict, got {quote(options)}")
        opts = dict(options or {})
        unknown = set(opts) - {"deal", "dealer", "scores"}
        if unknown:
            raise ValueError(f"unknown reset option(s) {sorted(unknown)}; valid: deal, dealer, scores")
        self._illegal_end = False
        self._hand = None
        self.table.reset(None if seed is None else random.Random(int(self.np_random.integers(2**62))), **opts)
        for s, agent in self.others.items():
            agent.reset(None if seed is None else seed * 4 + s)
        self._play_others()
        return self._obs(), self._info()

    def step(self, action: int):
        if self.table.state is None:
            raise RuntimeError("step() called before reset()")
        if not self.table.started:
            raise RuntimeError("call reset() before step()")
        if self._done():
            raise RuntimeError("step() called after the episode ended; call reset()")
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) or not self.action_space.contains(
                int(action)):
            raise ValueError(f"action {quote(action)} outside the action space Discrete({self.action_space.n})")
        action = int(action)
        if not self.table.legal_mask() >> action & 1 and self.illegal_action == "terminate":
            # PettingZoo's TerminateIllegalWrapper convention: the episode ends, the mover is penalized
            self._illegal_end = True
            info = {**self._info(), "illegal_action": self.action_name(action)}
            return self._obs(), self.illegal_reward, True, False, info
        self._hand = None
        reward = self._advance(action)  # illegal_action="raise": IllegalActionError names the action and phase
        reward += self._play_others()
        return self._obs(), reward, self.table.terminated, self.table.truncated, self._info()

    def _advance(self, action: int) -> float:
        table = self.table
        reward = table.step(action)[self.seat]
        if table.scored is not None:
            self._hand = hand_info(table.scored)
        return reward

    def _play_others(self) -> float:
        table, total = self.table, 0.0
        while not table.done and table.to_move != self.seat:
            seat = table.to_move
            total += self._advance(self.others[seat].act(table.view(seat)))
        return total

    def _done(self) -> bool:
        return self._illegal_end or self.table.done

    def _obs(self) -> np.ndarray:
        return self.table.observation(self.seat).copy()

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"action_mask": self.action_masks().astype(np.int8)}
        if self._hand is not None:
            info["hand"] = self._hand
        return info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner now, as a bool array (MaskablePPO's convention)."""
        if self._done() or self.table.to_move != self.seat:
            return np.zeros(self.table.num_actions, bool)
        return self.table.mask().astype(bool)

    def action_name(self, action: int) -> str:
        return self.table.state.layout.name(action)

    def render(self):
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_ansi(self.table.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text


def _seat_agents(seat: int, others: Sequence[Agent] | Mapping[int, Agent] | None) -> dict[int, Agent]:
    seats = [s for s in range(NUM_SEATS) if s != seat]
    if others is None:
        return {s: RandomAgent() for s in seats}
    if isinstance(others, Mapping):
        if set(others) != set(seats) or len(others) != len(seats):
            raise ValueError(f"others must map exactly the seats {seats} to agents, got {list(others)}")
        agents = dict(others)
    else:
        if isinstance(others, (str, bytes)) or not isinstance(others, Sequence):
            raise ValueError(f"others must be a list of {len(seats)} agents or a {{seat: agent}} mapping, "
                             f"got {type(others).__name__}")
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
