"""Your record: every finished game, kept as the env's JSON record, and the Stats screen's figures.

Games are saved (unless the ``keep_games`` setting is off) in ``<data>/crowsnest/games/`` where
``<data>`` is ``$XDG_DATA_HOME`` if set, else platformdirs' user data folder
(``~/.local/share`` on Linux). Each file is a record that :func:`crowsnest_env.replay` and
``crowsnest-play --replay`` read, with a ``players`` entry (the agent of each seat, ``human``
for the person, the level): together, a data set of people playing Rook against these agents.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crowsnest_env import record as record_mod

from .levels import LEVELS


def data_dir() -> Path:
    """$XDG_DATA_HOME/crowsnest, else the platform's user data folder for crowsnest."""
    xdg = os.environ.get("XDG_DATA_HOME")
    if xdg:
        return Path(xdg) / "crowsnest"
    from platformdirs import user_data_dir

    return Path(user_data_dir("crowsnest", appauthor=False))


def games_dir() -> Path:
    return data_dir() / "games"


def save_game(record: dict[str, Any], folder: Path | None = None) -> Path:
    """Write a finished game's record (atomically) under the games folder; the path written."""
    folder = folder or games_dir()
    players = record.get("players", {})
    stamp = str(players.get("started") or time.strftime("%Y-%m-%dT%H:%M:%S")).replace(":", "").replace("-", "")
    base = f"{stamp}-{record['options']['variant']}"
    path = folder / f"{base}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{base}-{n}.json"
    record_mod.save(record, path)
    return path


@dataclass(frozen=True)
class GameSummary:
    """One game from the person's side: what the Stats screen adds up."""

    variant: str
    level: str  # a level name, or "custom" when an agent was named for some seats
    hands: int
    won: bool | None  # None: stopped by the hand cap, no winner
    declared: int  # hands the person was declarer
    made: int  # of those, made
    points_diff: int  # sum over hands of the points captured, us minus them
    score_diff: int  # sum over hands of the score change, us minus them


def summarise(record: dict[str, Any]) -> GameSummary | None:
    """The person's view of a saved game; None for a record without a person (autoplay)."""
    players = record.get("players")
    if not isinstance(players, dict) or not isinstance(players.get("human"), int):
        return None
    me = players["human"]
    us, them = me % 2, 1 - me % 2
    state = record_mod.replay(record)
    results = state.results
    level = "custom" if players.get("custom") else str(players.get("level", "?"))
    return GameSummary(
        variant=state.variant.name, level=level, hands=len(results),
        won=None if state.winner < 0 else state.winner == us,
        declared=sum(r.declarer == me for r in results), made=sum(r.declarer == me and r.made for r in results),
        points_diff=sum(r.points[us] - r.points[them] for r in results),
        score_diff=sum(r.score_change[us] - r.score_change[them] for r in results))


def load_games(folder: Path | None = None) -> tuple[list[GameSummary], list[str]]:
    """Every saved game of the folder, and one line for each file that could not be read."""
    folder = folder or games_dir()
    games, problems = [], []
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        try:
            summary = summarise(record_mod.load(path))
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            problems.append(f"{path.name}: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}")
            continue
        if summary is not None:
            games.append(summary)
    return games, problems


@dataclass(frozen=True)
class StatsRow:
    variant: str
    level: str
    games: int
    won: int
    hands: int
    declared: int
    made: int
    points_per_hand: float  # captured, us minus them
    score_per_hand: float  # score change, us minus them

    @property
    def made_rate(self) -> float | None:
        return self.made / self.declared if self.declared else None


def stats(games: Iterable[GameSummary]) -> list[StatsRow]:
    """One row per (variant, level), ordered by variant then level (Easy to Expert, then custom)."""
    groups: dict[tuple[str, str], list[GameSummary]] = {}
    for g in games:
        groups.setdefault((g.variant, g.level), []).append(g)
    order = {name: i for i, name in enumerate(LEVELS)}
    rows = []
    for (variant, level), gs in sorted(groups.items(), key=lambda kv: (kv[0][0], order.get(kv[0][1], 99), kv[0][1])):
        hands = sum(g.hands for g in gs)
        rows.append(StatsRow(variant, level, len(gs), sum(g.won is True for g in gs), hands,
                             sum(g.declared for g in gs), sum(g.made for g in gs),
                             sum(g.points_diff for g in gs) / hands if hands else 0.0,
                             sum(g.score_diff for g in gs) / hands if hands else 0.0))
    return rows


def level_title(level: str) -> str:
    return LEVELS[level].title if level in LEVELS else level
