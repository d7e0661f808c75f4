"""The arena's result records: one table's hand or game, one duplicate deal or game, and the
summary of a pairing (the JSON the arena writes)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .stats import mean_std, t_interval, wilson_interval


@dataclass(frozen=True)
class TableHand:
    """One table's play of a duplicate deal, from team a's side."""

    diff_a: int  # score change of team a minus that of team b
    declarer_role: str | None  # "a", "b", or None when the hand passed out
    bid: int
    made: bool
    redeals: int
    deals: list | None = None  # (hands, nest) of every deal seen, when recorded


@dataclass(frozen=True)
class DealRecord:
    """A duplicate deal: table 0 (team a in seats 0 and 2) and table 1 (seats 1 and 3)."""

    index: int
    tables: tuple[TableHand, TableHand]

    @property
    def value(self) -> float:
        """Team a's points difference averaged over the two tables."""
        return (self.tables[0].diff_a + self.tables[1].diff_a) / 2


@dataclass(frozen=True)
class TableGame:
    """One table's whole game, from team a's side."""

    score_a: int
    score_b: int
    hands: int
    capped: bool  # stopped by max_hands and decided by the higher score

    @property
    def result_a(self) -> float:
        """1 win, 0 loss, 0.5 draw (only possible in a capped game) for team a."""
        return 1.0 if self.score_a > self.score_b else 0.0 if self.score_a < self.score_b else 0.5


@dataclass(frozen=True)
class GameRecord:
    index: int
    tables: tuple[TableGame, TableGame]


def _rounded(interval: tuple[float, float] | None, digits: int = 6) -> list[float] | None:
    return None if interval is None else [round(interval[0], digits), round(interval[1], digits)]


def _contracts(hands: list[TableHand], role: str) -> dict[str, Any]:
    mine = [h for h in hands if h.declarer_role == role]
    made = sum(h.made for h in mine)
    counts: dict[str, int] = {}
    for bid in sorted(h.bid for h in mine):
        counts[str(bid)] = counts.get(str(bid), 0) + 1
    return {
        "bids": len(mine), "made": made, "set": len(mine) - made,
        "made_rate": made / len(mine) if mine else None,
        "mean_bid": math.fsum(h.bid for h in mine) / len(mine) if mine else None,
        "bid_counts": counts,
    }


def _games_summary(games: Sequence[GameRecord]) -> dict[str, Any]:
    tables = [t for g in games for t in g.tables]
    wins = math.fsum(t.result_a for t in tables)
    return {
        "game_win_rate_a": wins / len(tables),
        "game_win_ci95": _rounded(wilson_interval(wins, len(tables))),
        "games_won_a": sum(t.result_a == 1.0 for t in tables),
        "games_won_b": sum(t.result_a == 0.0 for t in tables),
        "games_drawn": sum(t.result_a == 0.5 for t in tables),
        "games_capped": sum(t.capped for t in tables),
        "mean_hands_per_game": math.fsum(t.hands for t in tables) / len(tables),
        "game_scores_a": [g.tables[0].result_a + g.tables[1].result_a for g in games],
    }


def _speed(clock: Any) -> dict[str, dict[str, dict[str, float | None]]]:
    out: dict[str, dict[str, dict[str, float | None]]] = {"a": {}, "b": {}}
    for (role, name), (calls, secs) in sorted(clock.totals.items()):
        out[role][name] = {"decisions": int(calls), "seconds": round(secs, 4),
                           "decisions_per_s": round(calls / secs, 1) if secs > 0 else None}
    return out


def summarise_pairing(cfg: Any, deals: Sequence[DealRecord], games: Sequence[GameRecord],
                      clock: Any, keep_deals: bool = False) -> dict[str, Any]:
    """The JSON-ready summary of one pairing; every number except ``speed`` is deterministic."""
    values = [d.value for d in deals]
    mean, std = mean_std(values)
    hands = [t for d in deals for t in d.tables]
    contracts = {role: _contracts(hands, role) for role in ("a", "b")}
    out: dict[str, Any] = {
        "a": cfg.a, "b": cfg.b, "variant": cfg.variant, "crow": cfg.crow, "seed": cfg.seed,
        "deals": len(deals), "games": len(games),
        "adp": mean, "adp_ci95": _rounded(t_interval(values)), "adp_std": std,
        "adp_se": std / math.sqrt(len(values)),
        "deals_won_a": sum(v > 0 for v in values), "deals_won_b": sum(v < 0 for v in values),
        "deals_tied": sum(v == 0 for v in values),
        "contracts": contracts,
        "bids_a": contracts["a"]["bids"], "bids_b": contracts["b"]["bids"],
        "made_rate_a": contracts["a"]["made_rate"], "made_rate_b": contracts["b"]["made_rate"],
        "passed_out": sum(h.declarer_role is None for h in hands),
        "redeals": sum(h.redeals for h in hands),
    }
    if games:
        out.update(_games_summary(games))
    speed = _speed(clock)
    out["speed"] = speed
    for role in ("a", "b"):
        calls = sum(c for (r, _), (c, _) in clock.totals.items() if r == role)
        secs = math.fsum(t for (r, _), (_, t) in clock.totals.items() if r == role)
        out[f"decisions_per_s_{role}"] = round(calls / secs, 1) if secs > 0 else None
    if keep_deals:
        out["deal_values"] = values
    return out
