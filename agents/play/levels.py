"""Difficulty levels: the one table that says which agent plays at each level.

| level | agent |
|---|---|
| Easy | ``phase:base=heuristic;play=random``: the heuristic's bids, nest and trump, random legal cards |
| Normal | ``heuristic``: the rule-based computer player |
| Hard | ``learned``: the shipped self-play policy of the rule set (``agents/policies/<variant>.pt``) |
| Expert | ``expert``: a trained auction where ``expert.AUCTION_FILES`` has one, else ``pimc``'s; PIMC |

How strong each is (duplicate deals, from the JSON in ``docs/results/``): the README's Play
section, whose table ``scripts/readme_tables.py`` writes from this one.

Hard and Expert need a shipped policy for the rule set (all nine rule sets have one); where
there is none (a variant without a file in ``agents/policies/``) the table is refused before the
game starts, with the reason (the app checks every agent on the rule set first: :func:`.session.check_agent`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    title: str
    agent: str
    about: str
    hint: str | None = None  # who gives the H hints when not the level's agent (a random card is no hint)


LEVELS: dict[str, Level] = {
    "easy": Level("Easy", "phase:base=heuristic;play=random", "sensible bids, random card play", hint="heuristic"),
    "normal": Level("Normal", "heuristic", "the rule-based computer player"),
    "hard": Level("Hard", "learned", "the shipped self-play policy of the rule set"),
    "expert": Level("Expert", "expert", "trained bids, PIMC search (slower)"),
}
DEFAULT_LEVEL = "normal"


def level_agent(level: str) -> str:
    """The agent name of a level; ValueError naming the levels for an unknown one."""
    try:
        return LEVELS[level].agent
    except (KeyError, TypeError):
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVELS)}") from None


__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level_agent"]
