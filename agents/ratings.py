"""Statistics for the arena: per-deal records, their summary, confidence intervals, ratings.

Stdlib only apart from ``openskill`` (imported lazily by :func:`fit_ratings`), so the
arena's numbers do not depend on scipy being installed. The Student-t quantile is exact
to ~1e-10: the t CDF is the regularized incomplete beta function, inverted by bisection.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

_BETACF_ITERATIONS = 300
_BETACF_EPS = 3e-16
_TINY = 1e-300


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz method)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _BETACF_ITERATIONS + 1):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((qam + m2) * (a + m2)),
                    -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > _TINY else _TINY)
            c = 1.0 + num / c
            c = c if abs(c) > _TINY else _TINY
            h *= d * c
        if abs(d * c - 1.0) < _BETACF_EPS:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b) for a, b > 0 and 0 <= x <= 1."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"betainc needs 0 <= x <= 1, got {x}")
    if x in (0.0, 1.0):
        return x
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _betacf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _betacf(b, a, 1.0 - x) / b


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    tail = 0.5 * betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def student_t_ppf(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"quantile level must be in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be > 0, got {df}")
    if p < 0.5:
        return -student_t_ppf(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while student_t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if student_t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1 in the denominator; 0.0 when n < 2)."""
    n = len(values)
    if n == 0:
        raise ValueError("mean of an empty sample")
    mean = math.fsum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))


def t_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float] | None:
    """Two-sided Student-t confidence interval for the mean; None for fewer than 2 values."""
    n = len(values)
    if n < 2:
        return None
    mean, std = mean_std(values)
    half = student_t_ppf(0.5 + confidence / 2.0, n - 1) * std / math.sqrt(n)
    return mean - half, mean + half


def wilson_interval(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float] | None:
    """Wilson score interval for a proportion (``successes`` may count draws as halves)."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, got {successes}")
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def fit_ratings(entrants: Sequence[str], matches: Iterable[tuple[str, str, float]]) -> list[dict[str, Any]]:
    """Openskill Plackett-Luce ratings from ``(a, b, score_a)`` matches, in the given order.

    ``score_a`` is 1 (a won), 0 (b won) or 0.5 (draw). Returns one dict per entrant
    (``agent, mu, sigma, ordinal, matches, wins, draws, losses``), best ordinal first.
    """
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = {name: model.rating(name=name) for name in entrants}
    record = {name: [0, 0, 0] for name in entrants}  # wins, draws, losses
    for a, b, score_a in matches:
        ranks = [1, 1] if score_a == 0.5 else ([1, 2] if score_a > 0.5 else [2, 1])
        [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        for name, own in ((a, score_a), (b, 1.0 - score_a)):
            record[name][0 if own == 1 else 1 if own == 0.5 else 2] += 1
    rows = [
        {"agent": name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(),
         "matches": sum(record[name]), "wins": record[name][0], "draws": record[name][1],
         "losses": record[name][2]}
        for name, r in ratings.items()
    ]
    rows.sort(key=lambda row: -row["ordinal"])
    return rows


# ------------------------------------------------------------------ arena records
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


def _speed(clock: Any) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {"a": {}, "b": {}}
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
