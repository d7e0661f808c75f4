"""The game driver: one Rook game with its episode rules. Every loop over a game drives a Table.

``raw_env`` and ``env()`` (PettingZoo), ``SingleSeatEnv`` (Gymnasium), :class:`~crowsnest_env.VectorEnv`
(batched), the arena, the play app and the trainers' rollouts all step a :class:`Table`, so a
rule about episodes is written once, here:

| rule | meaning |
|---|---|
| deals | the first deal comes from ``reset`` (seeded, or given); after a scored hand, or after an all-pass, the next deal is dealt at once from ``table.rng`` (a ``random.Random``; a caller may replace it between hands) |
| ``episode="game"`` | ends (terminated) when a team has won the game (RULES 2.9) |
| ``episode="hand"`` | ends (terminated) when one hand has been scored |
| ``max_hands`` | scored hands before the episode is *truncated* (default :data:`DEFAULT_MAX_HANDS`, ``None`` = no cap): random play may never reach the target, since totals have no floor (RULES R7) |
| ``max_redeals`` | all-pass deals in a row (RULES R4 allows them without limit) before the episode is *truncated*; default :data:`DEFAULT_MAX_REDEALS`, ``None`` = no cap |
| ``reward="score"`` | at each scored hand, every seat gets (its team's score change - the other team's) / the variant's points per hand |
| ``reward="win"`` | +1 / -1 to the winning / losing team when a game ends (``episode="hand"``: the sign of the hand's score difference); nothing at a truncation |

``step(action)`` returns the rewards that landed for the four seats at that step (zeros except
on the step that scored a hand or ended the game). Events of the last step: ``scored`` (the
:class:`~crowsnest_env.rules.HandResult` if a hand was scored, else None), ``passed_out`` (an
all-pass redeal happened), ``terminated``, ``truncated``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import record as record_mod
from .observation import ObservationEncoder, action_mask
from .rules import (
    NO_CROW_SUFFIX,
    NUM_SEATS,
    HandResult,
    Phase,
    PlayerView,
    State,
    Variant,
    check_scores,
    get_variant,
    layout_for,
    player_view,
)

EPISODES = ("game", "hand")
REWARDS = ("score", "win")
DEFAULT_MAX_REDEALS = 100
"""All-pass deals in a row before an episode is truncated: no sensible agent gets near it, a
policy that has learnt to pass every hand stops there instead of looping for ever."""
DEFAULT_MAX_HANDS = 100
"""Scored hands before a game episode is truncated. Seeded games to the target took at most 13
hands between heuristic players (200 to 300 games in each of the seven variants and crowsnest_nocrow)
and at most 17 between shipped crowsnest policies (100 games), so play that means to win never
meets it; random bidding is set so often that both totals fall without bound (no floor, RULES R7)
and such a game would otherwise never end. An ``episode="hand"`` episode ends after one hand anyway."""
ZERO_REWARDS = (0.0, 0.0, 0.0, 0.0)
_DEAL = Phase.DEAL  # a module global: reading an Enum member in 3.11 costs 8x, at every step


@dataclass(frozen=True)
class EpisodeRules:
    """How a Table turns a game into episodes and rewards (see the module table)."""

    episode: str = "game"
    reward: str = "score"
    max_hands: int | None = DEFAULT_MAX_HANDS
    max_redeals: int | None = DEFAULT_MAX_REDEALS

    def __post_init__(self) -> None:
        check_choice("episode", self.episode, EPISODES)
        check_choice("reward", self.reward, REWARDS)
        for name in ("max_hands", "max_redeals"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, (int, np.integer)) or isinstance(value, bool)
                                      or value < 1):
                raise ValueError(f"{name} must be a positive integer or None, got {value!r}")

    def as_dict(self) -> dict[str, Any]:
        return {"episode": self.episode, "reward": self.reward, "max_hands": self.max_hands,
                "max_redeals": self.max_redeals}


def check_choice(what: str, value: Any, valid: tuple[str, ...]) -> None:
    """ValueError naming ``what`` unless ``value`` is one of ``valid``."""
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"unknown {what} {value!r}; valid: {', '.join(valid)}")


def resolve_variant(variant: str | Variant, crow: bool = True) -> Variant:
    """A preset by name (or alias), a :class:`Variant` as it is, or a variant YAML file (``*.yaml``)."""
    if isinstance(variant, str) and variant.lower().endswith((".yaml", ".yml")):
        from .variant_config import load_variant

        variant = load_variant(variant)
    return get_variant(variant, crow)


class Table:
    """One game: the rules state, the observation encoder, the episode rules and the record."""

    def __init__(self, variant: str | Variant = "crowsnest", crow: bool = True, *, episode: str = "game",
                 reward: str = "score", max_hands: int | None = DEFAULT_MAX_HANDS,
                 max_redeals: int | None = DEFAULT_MAX_REDEALS, observe: bool = True, record: bool = True):
        self.variant = resolve_variant(variant, crow)
        self.rules = EpisodeRules(episode, reward, max_hands, max_redeals)
        self.encoder = ObservationEncoder(self.variant) if observe else None
        self.num_actions = layout_for(self.variant).num_actions
        self.keep_record = bool(record)
        self._preset = record_mod.is_preset(self.variant)  # records store a custom variant's rules
        self.rng = random.Random()
        self.hand_rng: Callable[[int], random.Random] | None = None
        """optional: ``hand_rng(k)`` replaces ``rng`` when hand k is first dealt (redeals continue it),
        so that hand k's cards do not depend on what happened before (the arena's duplicate games)"""
        self.state = State(self.variant)  # undealt until reset()
        self.started = False
        self.rewards: tuple[float, ...] = ZERO_REWARDS
        self.scored: HandResult | None = None
        self.passed_out = False
        self.terminated = self.truncated = False
        self.redeals = 0

    # ------------------------------------------------------------------------- options
    def options(self) -> dict[str, Any]:
        """The variant and episode rules, as stored in records."""
        return {"variant": self.variant.name, "crow": not self.variant.name.endswith(NO_CROW_SUFFIX),
                **self.rules.as_dict()}

    # --------------------------------------------------------------------------- reset
    def reset(self, seed: int | random.Random | None = None, *, dealer: int | None = None,
              scores: tuple[int, int] = (0, 0), deal: Any = None) -> None:
        """A new game: ``seed`` (an int or a ``random.Random``) seeds the deals; None continues
        the table's generator. ``dealer`` (default: drawn at random, R1), ``scores`` and an
        explicit first ``deal`` (``{"hands": [4 lists of card names], "nest": [...]}``) are optional."""
        if isinstance(seed, random.Random):
            self.rng = seed
        elif seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
                raise ValueError(f"seed must be an int, a random.Random or None, got {seed!r}")
            self.rng = random.Random(int(seed))
        if dealer is None:
            dealer = self.rng.randrange(NUM_SEATS)
        elif isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < NUM_SEATS:
            raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
        self.state = State(self.variant, dealer=int(dealer), scores=_parse_scores(scores))
        self._deals: list[tuple[int, tuple[int, ...], int]] = []
        self._actions: list[int] = []
        self._start = (int(dealer), (self.state.scores[0], self.state.scores[1]))
        self.rewards, self.scored, self.passed_out = ZERO_REWARDS, None, False
        self.terminated = self.truncated = False
        self.redeals = self._hand_no = 0
        self.started = True
        if deal is not None:
            hands, nest = record_mod.parse_deal(self.state.cards, deal)
            self._deal(hands, nest)
        else:
            self._deal(new_hand=True)

    def _deal(self, hands: list[int] | None = None, nest: int | None = None, new_hand: bool = False) -> None:
        st = self.state
        if hands is None:
            if new_hand and self.hand_rng is not None:
                self.rng = self.hand_rng(st.hand_no)
            st.deal_random(self.rng)
        else:
            st.deal_given(hands, nest or 0)
        if self.keep_record:
            self._deals.append((st.dealer, tuple(st.hands), st.nest))
        if self.encoder is not None:
            self.encoder.reset(st)

    # ---------------------------------------------------------------------------- step
    def step(self, action: int) -> tuple[float, ...]:
        """Apply the mover's action; the rewards that landed for seats 0..3 at this step.

        Raises :class:`~crowsnest_env.rules.IllegalActionError` (nothing changes) for an
        illegal action, RuntimeError after the episode ended."""
        if not self.started:
            raise RuntimeError("call reset() before step()")
        if self.terminated or self.truncated:
            raise RuntimeError("the episode is over; call reset()")
        action = int(action)  # as apply() would (a TypeError for what is not a number)
        self.state.check(action)  # IllegalActionError names the action, seat and phase
        return self.step_legal(action)

    def step_legal(self, action: int) -> tuple[float, ...]:
        """:meth:`step` for a caller that knows the episode runs and ``action`` (an int) is legal
        (``VectorEnv`` checks a whole batch against its masks at once): no test is repeated.
        The one body of a step (``VectorEnv``'s hot path: one call per decision)."""
        st = self.state
        seat = st.to_move
        st.advance(action)
        if self.keep_record:
            self._actions.append(action)
        if self.encoder is not None:
            self.encoder.step(st, seat, action)
        self.rewards, self.scored, self.passed_out = ZERO_REWARDS, None, False
        if st.phase >= _DEAL:
            self._between_deals()
        return self.rewards

    def _between_deals(self) -> None:
        st, rules = self.state, self.rules
        scored = st.hand_no > self._hand_no
        self._hand_no = st.hand_no
        if scored:
            self.scored = result = st.results[-1]
            self.redeals = 0
            self.rewards = self._hand_rewards(result)
        else:
            self.passed_out = True
            self.redeals += 1
        over = st.phase is Phase.GAME_OVER or (scored and rules.episode == "hand")
        if over:
            self.terminated = True
            if st.phase is Phase.GAME_OVER and rules.reward == "win":
                self.rewards = tuple(1.0 if s % 2 == st.winner else -1.0 for s in range(NUM_SEATS))
            return
        if (rules.max_hands is not None and st.hand_no >= rules.max_hands) or \
                (rules.max_redeals is not None and self.redeals >= rules.max_redeals):
            self.truncated = True
            return
        self._deal(new_hand=scored)

    def _hand_rewards(self, result: HandResult) -> tuple[float, ...]:
        change = result.score_change
        diff = change[0] - change[1]
        if self.rules.reward == "score":
            d = diff / self.variant.total_points
        elif self.rules.episode == "hand":
            d = float(np.sign(diff))
        else:
            return ZERO_REWARDS
        return (d, -d, d, -d)

    # ------------------------------------------------------------------------ queries
    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def to_move(self) -> int:
        """The seat to move, -1 when the episode is over."""
        return -1 if self.done else self.state.to_move

    @property
    def phase(self) -> Phase:
        return self.state.phase

    def legal_mask(self) -> int:
        """Legal action ids of the seat to move, as an int bitmask (0 when the episode is over)."""
        return 0 if self.done else self.state.legal_mask()

    def mask(self) -> np.ndarray:
        """The int8 action mask of the seat to move (read-only, shared: copy before writing)."""
        return action_mask(self.legal_mask(), self.num_actions)

    def observer(self) -> ObservationEncoder:
        """The table's observation encoder (RuntimeError for a table built with observe=False)."""
        if self.encoder is None:
            raise RuntimeError("this table was built with observe=False")
        return self.encoder

    def observation(self, seat: int) -> np.ndarray:
        """``seat``'s observation row: a view that later steps overwrite (copy to keep it)."""
        return self.observer().obs[seat]

    def view(self, seat: int | None = None) -> PlayerView:
        """What ``seat`` (default: the seat to move) may know, for agents' ``act(view)``."""
        return player_view(self.state, self.state.to_move if seat is None else seat)

    @property
    def scores(self) -> list[int]:
        return list(self.state.scores)

    # ------------------------------------------------------------------------- record
    def record(self) -> dict[str, Any]:
        """Variant, options, deals and actions: enough to replay this game exactly."""
        if not self.keep_record:
            raise RuntimeError("this table was built with record=False")
        rec = record_mod.new_record(self.options(), self._start[0], self._start[1], self.variant,
                                     self._preset)
        rec["actions"] = list(self._actions)
        cards = self.state.cards
        rec["deals"] = [record_mod.deal_entry(cards, *d) for d in self._deals]
        return rec

    def deals(self) -> list[tuple[int, tuple[int, ...], int]]:
        """(dealer, hands, nest) of every deal of this episode, redeals included (bitmasks)."""
        if not self.keep_record:
            raise RuntimeError("this table was built with record=False")
        return list(self._deals)

    def save_record(self, path: str) -> None:
        record_mod.save(self.record(), path)

def _parse_scores(scores: Any) -> tuple[int, int]:
    """Two integers (numpy ones and integral floats too), within the engine's bound."""
    try:
        a, b = scores
        if isinstance(a, bool) or isinstance(b, bool) or int(a) != a or int(b) != b:
            raise TypeError
        pair = (int(a), int(b))
    except (TypeError, ValueError, OverflowError):  # OverflowError: int(inf)
        pair = scores
    return check_scores(pair)


__all__ = ["DEFAULT_MAX_HANDS", "DEFAULT_MAX_REDEALS", "EPISODES", "REWARDS", "EpisodeRules", "Table", "check_choice",
           "resolve_variant"]
