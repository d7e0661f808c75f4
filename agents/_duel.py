"""Duplicate matches between two agent kinds, for the agents' tests and quick measurements.

A deal is played twice with the same cards: once with agent A in seats 0/2, once with A in
seats 1/3. The per-deal result is A's mean (own score change - other's) over the two hands,
so the luck of the cards cancels. (The full tournament runner lives in the arena.)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

from crowsnest_env.agent import Agent
from crowsnest_env.rules import Phase, State, Variant, get_variant, player_view

MAX_REDEALS = 20


def play_hand(variant: Variant, seats: Sequence[Agent], seed: int, dealer: int = 0,
              check: Callable[[object, int], None] | None = None) -> tuple[int, int] | None:
    """Play one hand from the deal seeded by ``seed``; team score changes, None if all pass."""
    rng = random.Random(seed)
    state = State(variant, dealer=dealer)
    for i, agent in enumerate(seats):
        agent.reset(seed * 4 + i)
    for _ in range(MAX_REDEALS):
        state.deal_random(rng)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            action = seats[state.to_move].act(view)
            if check is not None:
                check(view, action)
            state.apply(action)
        if state.results:
            return state.results[-1].score_change
    return None


def duplicate_deal(variant: Variant, make_a: Callable[[], Agent], make_b: Callable[[], Agent],
                   seed: int) -> float:
    """A's mean score-difference advantage per hand over the two seatings of one deal."""
    total = 0.0
    for a_team in (0, 1):
        seats = [make_a() if s % 2 == a_team else make_b() for s in range(4)]
        change = play_hand(variant, seats, seed, dealer=seed % 4)
        if change is not None:
            total += change[a_team] - change[1 - a_team]
    return total / 2


def duplicate_match(variant: str | Variant, make_a: Callable[[], Agent],
                    make_b: Callable[[], Agent], seeds: Sequence[int]) -> tuple[float, float]:
    """Mean and 95% half-width of A's per-hand advantage over ``seeds`` duplicate deals."""
    v = variant if isinstance(variant, Variant) else get_variant(variant)
    xs = [duplicate_deal(v, make_a, make_b, s) for s in seeds]
    n = len(xs)
    mean = sum(xs) / n
    var = sum((x - mean) ** 2 for x in xs) / max(1, n - 1)
    return mean, 1.96 * math.sqrt(var / n)
