"""The PettingZoo AEC environment over the rules engine (``raw_env``) and its options.

The module docstring of :mod:`crowsnest_env` is the environment's documentation page.
"""

from __future__ import annotations

import copy
import random
import warnings
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from . import record as record_mod
from .observation import SCORE_CLIP, ObservationEncoder
from .render import render_ansi
from .rules import (
    COLOURS,
    NUM_SEATS,
    IllegalActionError,
    Phase,
    PlayerView,
    State,
    get_variant,
    player_view,
)

AGENTS = tuple(f"player_{k}" for k in range(NUM_SEATS))
EPISODES = ("game", "hand")
REWARDS = ("score", "win")
RESET_OPTIONS = ("deal", "dealer", "scores")
MASK_CACHE_SIZE = 4096
_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")


class raw_env(AECEnv):  # noqa: N801  (PettingZoo naming convention)
    """Rook for four seats: auction, nest discard, trump, tricks; see the package docstring."""

    metadata = {"name": "crowsnest_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self, variant: str = "crowsnest", crow: bool = True, episode: str = "game",
        reward: str = "score", render_mode: str | None = None, max_hands: int | None = None,
    ):
        super().__init__()
        self.variant = get_variant(variant, crow)
        _check_choice("episode", episode, EPISODES)
        _check_choice("reward", reward, REWARDS)
        if render_mode is not None:
            _check_choice("render_mode", render_mode, tuple(self.metadata["render_modes"]))
        if max_hands is not None and (not isinstance(max_hands, int) or max_hands < 1):
            raise ValueError(f"max_hands must be a positive int or None, got {max_hands!r}")
        self.crow, self.episode, self.reward_mode = crow, episode, reward
        self.render_mode, self.max_hands = render_mode, max_hands
        self.options = {"variant": self.variant.name, "crow": crow, "episode": episode,
                        "reward": reward, "max_hands": max_hands}
        self.possible_agents = list(AGENTS)
        self.agent_name_mapping = {a: i for i, a in enumerate(AGENTS)}
        self._encoder = ObservationEncoder(self.variant)
        self.observation_layout = self._encoder.layout
        self.action_layout = self._encoder.actions
        self.num_actions = self.action_layout.num_actions
        self._zero_mask = np.zeros(self.num_actions, dtype=np.int8)
        self._zero_mask.flags.writeable = False
        self._mask_cache: dict[int, np.ndarray] = {}
        self._mask_format = f"0{self.num_actions}b"
        self._obs_space = self._make_obs_space()
        self._obs_rows = {a: self._encoder.obs[k] for k, a in enumerate(AGENTS)}  # views, fixed buffer
        self._act_space = spaces.Discrete(self.num_actions)
        self.game: State | None = None

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        del d["_obs_rows"]  # views into the encoder's buffer: rebuilt after unpickling
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._obs_rows = {a: self._encoder.obs[k] for k, a in enumerate(AGENTS)}

    # ------------------------------------------------------------ spaces
    def _make_obs_space(self) -> spaces.Dict:
        size = self.observation_layout.size
        low = np.zeros(size, np.float32)
        high = np.ones(size, np.float32)
        sc = self.observation_layout["scores"].slice
        low[sc], high[sc] = -SCORE_CLIP, SCORE_CLIP
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
        options = dict(options or {})
        unknown = set(options) - set(RESET_OPTIONS)
        if unknown:  # a warning, not an error: PettingZoo's api_test passes options={"options": 1}
            warnings.warn(f"ignoring unknown reset option(s) {sorted(unknown)}; valid: {', '.join(RESET_OPTIONS)}",
                          stacklevel=2)
        if seed is not None or not hasattr(self, "np_random"):
            # PettingZoo's seeding convention; the deals come from one stdlib generator drawn
            # from it, which later resets without a seed continue
            self.np_random, self.np_random_seed = seeding.np_random(seed)
            self._rng = random.Random(int(self.np_random.integers(2**62)))
        dealer = options.get("dealer")
        if dealer is None:
            dealer = self._rng.randrange(NUM_SEATS)  # R1: first dealer at random
        elif not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < NUM_SEATS:
            raise ValueError(f"reset option 'dealer' must be a seat 0..3, got {dealer!r}")
        scores = _parse_scores(options.get("scores", (0, 0)))
        self.game = State(self.variant, dealer=int(dealer), scores=scores)
        self._record = record_mod.new_record(self.options, int(dealer), scores)
        self._actions = self._record["actions"]
        self._deals: list[tuple[int, tuple[int, ...], int]] = []
        self._hands_seen = 0
        self._rewarded = False
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {a: {"action_mask": self._zero_mask} for a in AGENTS}
        self._masked: str | None = None
        if "deal" in options:
            hands, nest = record_mod.parse_deal(self.game.cards, options["deal"])
            self._deal(hands, nest)
        else:
            self._deal()
        self.agent_selection = AGENTS[self.game.to_move]
        self._refresh_masks()

    def _deal(self, hands: list[int] | None = None, nest: int | None = None) -> None:
        game = self.game
        if hands is None:
            game.deal_random(self._rng)
        else:
            game.deal_given(hands, nest)
        self._deals.append((game.dealer, tuple(game.hands), game.nest))  # named in game_record()
        self._encoder.reset(game)

    # -------------------------------------------------------------- step
    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        seat = game.to_move
        game.apply(action)  # IllegalActionError (a ValueError) names the action and phase
        action = int(action)
        self._actions.append(action)
        if self._rewarded:  # rewards are non-zero only on the step that scored a hand
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        info = self.infos[agent]
        if "hand" in info:
            del info["hand"]
        self._encoder.step(game, seat, action)
        if game.phase >= Phase.DEAL:
            self._between_deals()
            self._accumulate_rewards()
        if game.to_move >= 0:
            self.agent_selection = AGENTS[game.to_move]
        self._refresh_masks()
        if self.render_mode == "human":
            self.render()

    def _between_deals(self) -> None:
        game = self.game
        scored = game.hand_no > self._hands_seen
        self._rewarded = scored
        if scored:
            self._hands_seen = game.hand_no
            self._hand_scored(game.results[-1])
        over = game.phase is Phase.GAME_OVER or (scored and self.episode == "hand")
        capped = self.max_hands is not None and game.hand_no >= self.max_hands
        if over or capped:
            flags = self.terminations if over else self.truncations
            for a in AGENTS:
                flags[a] = True
            if game.phase is Phase.GAME_OVER and self.reward_mode == "win":
                for k, a in enumerate(AGENTS):
                    self.rewards[a] = 1.0 if k % 2 == game.winner else -1.0
            return
        self._deal()

    def _hand_scored(self, result) -> None:
        change = result.score_change
        diff = change[0] - change[1]
        for k, a in enumerate(AGENTS):
            rel = diff if k % 2 == 0 else -diff
            if self.reward_mode == "score":
                self.rewards[a] = rel / self.variant.total_points
            elif self.episode == "hand":
                self.rewards[a] = float(np.sign(rel))
            self.infos[a]["hand"] = hand_info(result)

    def _refresh_masks(self) -> None:
        """Zero the previous mover's mask, set the new mover's (only two infos change)."""
        game = self.game
        if self._masked is not None:
            self.infos[self._masked]["action_mask"] = self._zero_mask
            self._masked = None
        if game.to_move >= 0 and game.phase <= Phase.PLAY:
            self._masked = AGENTS[game.to_move]
            self.infos[self._masked]["action_mask"] = self._mask_of(game.legal_mask())

    def _mask_of(self, legal: int) -> np.ndarray:
        """The int8 mask of a legal-action bitmask; masks recur (auction, leads), so they are cached."""
        mask = self._mask_cache.get(legal)
        if mask is None:
            # bit k of legal -> byte k: binary digits, lowest bit first, "0"/"1" translated to 0/1
            flags = format(legal, self._mask_format)[::-1].encode().translate(_BITS_TO_BYTES)
            mask = np.frombuffer(flags, dtype=np.int8)  # read-only: observe() hands out copies
            if len(self._mask_cache) >= MASK_CACHE_SIZE:
                self._mask_cache.clear()
            self._mask_cache[legal] = mask
        return mask

    # ----------------------------------------------------------- observe
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation and mask, as copies that later steps never touch."""
        return {"observation": self._obs_rows[agent].copy(),
                "action_mask": self.infos[agent]["action_mask"].copy()}

    def last(self, observe: bool = True):
        agent = self.agent_selection
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
        return player_view(self.game, seat)

    @property
    def scores(self) -> list[int]:
        """The two teams' game scores [team 0 (player_0, player_2), team 1]."""
        return list(self.game.scores)

    # ------------------------------------------------------ record, render
    def game_record(self) -> dict[str, Any]:
        """Variant, options, deals and actions: enough to replay this game exactly."""
        record = copy.deepcopy(self._record)
        record["deals"] = [record_mod.deal_entry(self.game.cards, *deal) for deal in self._deals]
        return record

    def save_record(self, path: str) -> None:
        record_mod.save(self.game_record(), path)

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
    """The ``infos[agent]['hand']`` summary of a scored hand."""
    return {
        "declarer": AGENTS[result.declarer], "bid": result.bid, "trump": COLOURS[result.trump],
        "points": list(result.points), "tricks": list(result.tricks), "made": result.made,
        "score_change": list(result.score_change), "nest_points": result.nest_points,
        "hand_no": result.hand_no,
    }


def _check_choice(what: str, value: Any, valid: tuple[str, ...]) -> None:
    if value not in valid:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(valid)}")


def _parse_scores(scores: Any) -> tuple[int, int]:
    try:
        a, b = scores
        if int(a) != a or int(b) != b:
            raise TypeError
        return int(a), int(b)
    except (TypeError, ValueError):
        raise ValueError(f"reset option 'scores' must be [team0, team1] integers, got {scores!r}") from None


__all__ = ["AGENTS", "IllegalActionError", "hand_info", "raw_env"]
