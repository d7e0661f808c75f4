"""The agent protocol shared by the Gymnasium wrapper, the agents package and the arena.

An agent acts on its seat's :class:`~crowsnest_env.rules.PlayerView` (never the full state)
and returns a legal action id. ``reset(seed)`` is called before each deal (or game) that the
agent plays, so a driver can make every random choice reproducible.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from .rules import PlayerView, iter_cards


@runtime_checkable
class Agent(Protocol):
    """Anything with ``act(view) -> action id``; ``reset(seed)`` re-seeds its randomness."""

    def act(self, view: PlayerView) -> int: ...

    def reset(self, seed: int | None = None) -> None: ...


class RandomAgent:
    """Uniform over the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if not legal:
            raise ValueError(f"seat {view.seat} has no legal action in phase {view.phase.name}")
        k = self.rng.randrange(legal.bit_count())
        for a in iter_cards(legal):
            if k == 0:
                return a
            k -= 1
        raise AssertionError("unreachable")
