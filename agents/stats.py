"""Statistics for the arena: confidence intervals (scipy's Student-t) and openskill ratings."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist
from typing import Any

from scipy import stats as _scipy_stats


def student_t_ppf(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` > 0 degrees of freedom."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"quantile level must be in (0, 1), got {p}")
    if df <= 0:
        raise ValueError(f"degrees of freedom must be > 0, got {df}")
    return float(_scipy_stats.t.ppf(p, df))


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
        ranks = [1.0, 1.0] if score_a == 0.5 else ([1.0, 2.0] if score_a > 0.5 else [2.0, 1.0])
        [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        for name, own in ((a, score_a), (b, 1.0 - score_a)):
            record[name][0 if own == 1 else 1 if own == 0.5 else 2] += 1
    rows: list[dict[str, Any]] = [
        {"agent": name, "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(),
         "matches": sum(record[name]), "wins": record[name][0], "draws": record[name][1],
         "losses": record[name][2]}
        for name, r in ratings.items()
    ]
    rows.sort(key=lambda row: -row["ordinal"])
    return rows


# ------------------------------------------------------------------ arena records


__all__ = ["fit_ratings", "mean_std", "student_t_ppf", "t_interval", "wilson_interval"]
