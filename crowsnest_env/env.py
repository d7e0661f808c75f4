"""The PettingZoo AEC environment over the rules engine (``raw_env``) and its options.

The module docstring of :mod:`crowsnest_env` is the environment's documentation page.
"""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from .render import render_ansi
from .rules import (
    NUM_SEATS,
    IllegalActionError,
    PlayerView,
    State,
    Variant,
    quote,
)
from .table import DEFAULT_MAX_HANDS, DEFAULT_MAX_REDEALS, EPISODES, REWARDS, Table, check_choice

AGENTS = tuple(f"player_{k}" for k in range(NUM_SEATS))
RESET_OPTIONS = ("deal", "dealer", "scores")


class raw_env(AECEnv):  # noqa: N801  (PettingZoo naming convention)
    """Rook for four seats: auction, nest discard, trump, tricks; see the package docstring.

    A thin PettingZoo face over one :class:`~crowsnest_env.table.Table` (the game driver that
    owns the state, the encoder and the episode rules)."""

    metadata: dict[str, Any] = {"name": "crowsnest_v1", "render_modes": ["human", "ansi"],
                                "is_parallelizable": False}

    def __init__(
        self, variant: str | Variant = "crowsnest", crow: bool = True, episode: str = "game",
        reward: str = "score", render_mode: str | None = None, max_hands: int | None = DEFAULT_MAX_HANDS,
        max_redeals: int | None = DEFAULT_MAX_REDEALS,
    ):
        super().__init__()
        if render_mode is not None:
            check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        self.table = Table(variant, crow, episode=episode, reward=reward, max_hands=max_hands,
                           max_redeals=max_redeals)
        self.variant = self.table.variant
        self.render_mode = render_mode
        self.crow, self.episode, self.reward_mode, self.max_hands = crow, episode, reward, max_hands
        self.options = self.table.options()
        self.possible_agents = list(AGENTS)
        self.agent_name_mapping = {a: i for i, a in enumerate(AGENTS)}
        self._encoder = self.table.observer()
        self.observation_layout = self._encoder.layout
        self.action_layout = self._encoder.actions
        self.num_actions = self.action_layout.num_actions
        self._zero_mask = np.zeros(self.num_actions, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self._obs_space = self._make_obs_space()
        self._obs_rows = {a: self._encoder.obs[k] for k, a in enumerate(AGENTS)}  # views, fixed buffer
        self._act_space = spaces.Discrete(self.num_actions)

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        del d["_obs_rows"]  # views into the encoder's buffer: rebuilt after unpickling
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._obs_rows = {a: self._encoder.obs[k] for k, a in enumerate(AGENTS)}

    @property
    def game(self) -> State:
        """The rules state of the current game (the table's)."""
        return self.table.state

    # ------------------------------------------------------------ spaces
    def _make_obs_space(self) -> spaces.Dict:
        low, high = self.observation_layout.bounds()
        return spaces.Dict({
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
        })

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._act_space

    # ------------------------------------------------------------- names
    def action_name(self, action: int) -> str:
        """Public name of an action id, e.g. ``bid 85``; ValueError if out of range."""
        return self.action_layout.name(action)

    def action_id(self, name: str) -> int:
        """Action id of a name (case-insensitive); ValueError naming an unknown one."""
        return self.action_layout.action_id(name)

    # ------------------------------------------------------------- reset
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if options is not None and not isinstance(options, dict):
            raise ValueError(f"reset options must be a dict, got {quote(options)}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0):
            raise ValueError(f"reset seed must be a non-negative integer or None, got {seed!r}")
        options = dict(options or {})
        unknown = set(options) - set(RESET_OPTIONS)
        if unknown:  # a warning, not an error: PettingZoo's api_test passes options={"options": 1}
            warnings.warn(f"ignoring unknown reset option(s) {sorted(unknown)}; valid: {', '.join(RESET_OPTIONS)}",
                          stacklevel=2)
        if seed is not None or not hasattr(self, "np_random"):
            # PettingZoo's seeding convention; the deals come from one stdlib generator drawn
            # from it, which later resets without a seed continue
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            self.table.rng = random.Random(int(self.np_random.integers(2**62)))
        try:
            self.table.reset(dealer=options.get("dealer"), scores=options.get("scores", (0, 0)),
                             deal=options.get("deal"))
        except ValueError as err:
            raise ValueError(f"bad reset option: {err}") from None
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {"action_mask": self._zero_mask} for a in AGENTS}
        self._masked: str | None = None
        self._rewarded = False
        self.agent_selection = AGENTS[self.table.state.to_move]
        self._refresh_masks()

    # -------------------------------------------------------------- step
    def step(self, action: int) -> None:
        try:
            agent = self.agent_selection
        except AttributeError:  # set by reset(); the try costs nothing on every later step
            raise RuntimeError("raw_env.step() called before reset()") from None
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(action, self.table.phase, self.table.to_move,
                                     f"an action is an integer id, got {type(action).__name__}", "not an id")
        table = self.table
        rewards = table.step(action)  # IllegalActionError (a ValueError) names the action and phase
        if self._rewarded:  # rewards are non-zero only on the step that scored a hand
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        info = self.infos[agent]
        if "hand" in info:
            del info["hand"]
        if table.scored is not None or table.done:
            self._rewarded = True
            if table.scored is not None:
                summary = hand_info(table.scored)
                for a in AGENTS:
                    self.infos[a]["hand"] = summary
            for k, a in enumerate(AGENTS):
                self.rewards[a] = rewards[k]
            if table.done:
                flags = self.terminations if table.terminated else self.truncations
                for a in AGENTS:
                    flags[a] = True
            self._accumulate_rewards()
        if not table.done:
            self.agent_selection = AGENTS[table.state.to_move]
        self._refresh_masks()
        if self.render_mode == "human":
            self.render()

    def _refresh_masks(self) -> None:
        """Zero the previous mover's mask, set the new mover's (only two infos change)."""
        table = self.table
        if self._masked is not None:
            self.infos[self._masked]["action_mask"] = self._zero_mask
            self._masked = None
        if not table.done:
            self._masked = AGENTS[table.state.to_move]
            self.infos[self._masked]["action_mask"] = table.mask()

    # ----------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation and mask, as copies that later steps never touch."""
        try:
            mask = self.infos[agent]["action_mask"]
        except AttributeError:
            raise RuntimeError("raw_env.observe() called before reset()") from None
        return {"observation": self._obs_rows[agent].copy(), "action_mask": mask.copy()}

    def last(self, observe: bool = True):
        try:
            agent = self.agent_selection
        except AttributeError:
            raise RuntimeError("raw_env.last() called before reset()") from None
        return (self.observe(agent) if observe else None, self._cumulative_rewards[agent],
                self.terminations[agent], self.truncations[agent], self.infos[agent])

    def state(self) -> np.ndarray:
        """Full information for centralized critics: all four seats' rows, then the nest."""
        nest = np.zeros(self._encoder.n, np.float32)
        for c in range(self._encoder.n):
            nest[c] = (self.game.nest >> c) & 1
        return np.concatenate([self._encoder.obs.reshape(-1), nest])

    def view(self, agent: str | int) -> PlayerView:
        """What one seat may know, for agents (``act(view)``)."""
        seat = agent if isinstance(agent, int) else self.agent_name_mapping[agent]
        return self.table.view(seat)

    @property
    def scores(self) -> list[int]:
        """The two teams' game scores [team 0 (player_0, player_2), team 1]."""
        return self.table.scores

    # ------------------------------------------------------ record, render
    def game_record(self) -> dict[str, Any]:
        """Variant, options, deals and actions: enough to replay this game exactly."""
        return self.table.record()

    def save_record(self, path: str) -> None:
        self.table.save_record(path)

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; use render_mode='ansi' or 'human'")
            return None
        text = render_ansi(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def hand_info(result) -> dict[str, Any]:
    """The ``infos[agent]['hand']`` summary of a scored hand: plain numbers only, so any replay
    buffer can hold it (``declarer`` is a seat 0..3, ``trump`` a colour index into ``COLOURS``)."""
    return {
        "declarer": int(result.declarer), "bid": int(result.bid), "trump": int(result.trump),
        "points": list(result.points), "tricks": list(result.tricks), "made": bool(result.made),
        "score_change": list(result.score_change), "nest_points": int(result.nest_points),
        "hand_no": int(result.hand_no),
    }


__all__ = ["AGENTS", "EPISODES", "IllegalActionError", "REWARDS", "hand_info", "raw_env"]
