"""Evaluation through the duplicate arena (``agents.arena.run_pairing``), shared by both trainers.

Figures per opponent: ``adp`` (mean points difference per duplicate deal, learner minus
opponent), its 95% interval, and the made rate of each side's contracts. Snapshot ratings are
openskill ratings fitted to every deal played in the interval evaluations (learner snapshots,
random and heuristic as entrants), cheap because those deals are played anyway.
"""

from __future__ import annotations

import os
from typing import Any

from .config import Config


def short_name(spec: str) -> str:
    """``checkpoint:/x/y/update_000010.pt`` -> ``update_000010``; other names unchanged."""
    if spec.startswith("checkpoint:"):
        return os.path.splitext(os.path.basename(spec[len("checkpoint:"):]))[0]
    return spec


def evaluate_agent(agent: str, opponents: list[str], cfg: Config, deals: int, workers: int = 1,
                   keep_deals: bool = True) -> dict[str, dict[str, Any]]:
    """Play ``agent`` against each opponent on the config's fixed deals; summaries by opponent name."""
    from agents.arena import run_pairing

    out = {}
    for opp in opponents:
        res = run_pairing(agent, opp, variant=cfg.variant, crow=cfg.crow, deals=deals, seed=cfg.eval_seed,
                          workers=max(1, workers), keep_deals=keep_deals)
        out[short_name(opp)] = res
    return out


def arena_scalars(results: dict[str, dict[str, Any]]) -> dict[str, float]:
    """The ``eval/`` TensorBoard scalars of :func:`evaluate_agent`'s results."""
    out: dict[str, float] = {}
    for opp, r in results.items():
        tag = opp if opp in EVAL_TAGS else "previous"
        out[f"eval/adp_vs_{tag}"] = r["adp"]
        if r.get("adp_ci95"):
            out[f"eval/adp_vs_{tag}_ci_low"], out[f"eval/adp_vs_{tag}_ci_high"] = r["adp_ci95"]
        if r.get("made_rate_a") is not None:
            out[f"eval/made_rate_vs_{tag}"] = r["made_rate_a"]
        if r.get("made_rate_b") is not None:
            out[f"eval/opponent_made_rate_vs_{tag}"] = r["made_rate_b"]
        if r.get("deals") and r.get("bids_a") is not None:  # contracts per hand played (two hands a deal)
            out[f"eval/declare_rate_vs_{tag}"] = r["bids_a"] / (2 * r["deals"])
            out[f"eval/opponent_declare_rate_vs_{tag}"] = r["bids_b"] / (2 * r["deals"])
    return out


EVAL_TAGS = ("random", "heuristic", "agent")
"""the opponents :func:`arena_scalars` tags by name (``agent``: ``cfg.opponent_agent``); any other is ``previous``"""


def rate_snapshots(run: Any, name: str, results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Add this evaluation's deals to the run's match list and refit openskill ratings."""
    from agents.arena import round_robin_matches
    from agents.stats import fit_ratings

    for opp, r in results.items():
        labelled = dict(r, a=name, b=opp)
        run.rating_matches.extend(round_robin_matches([labelled]))
    run.rated.append(name)
    entrants = sorted({m[0] for m in run.rating_matches} | {m[1] for m in run.rating_matches})
    return fit_ratings(entrants, run.rating_matches)


def final_evaluation(cfg: Config, checkpoint: str) -> dict[str, dict[str, Any]]:
    """The end-of-run arena: the final policy vs random and vs heuristic."""
    if cfg.final_eval_deals <= 0:
        return {}
    res = evaluate_agent("checkpoint:" + checkpoint, ["random", "heuristic"], cfg, cfg.final_eval_deals,
                         workers=cfg.eval_workers, keep_deals=False)
    return res


def baseline_reference(cfg: Config) -> dict[str, Any]:
    """The heuristic vs random on the final evaluation's deals: the yardstick of robustness
    (a policy that beats the heuristic by exploiting it loses margin against random)."""
    return evaluate_agent("heuristic", ["random"], cfg, cfg.final_eval_deals, workers=cfg.eval_workers,
                          keep_deals=False)["random"]


ROBUST_SLACK = 5.0
"""points per deal the policy's margin over random may fall short of the heuristic's"""
STRONG_LOW = 5.0
"""the low end of the policy's 95% interval against the heuristic that counts as beating it"""


def verdicts(results: dict[str, dict[str, Any]], reference: dict[str, Any] | None) -> dict[str, Any]:
    """Is the policy strong (interval vs the heuristic above ``STRONG_LOW``) and robust (margin
    over random at least the heuristic's own minus ``ROBUST_SLACK``)? ``None`` where a figure
    is missing."""
    out: dict[str, Any] = {"strong": None, "robust": None, "strong_low": STRONG_LOW, "robust_slack": ROBUST_SLACK}
    h = results.get("heuristic")
    if h and h.get("adp_ci95"):
        out["vs_heuristic_low"] = h["adp_ci95"][0]
        out["strong"] = bool(h["adp_ci95"][0] > STRONG_LOW)
    r = results.get("random")
    if r and reference:
        out["vs_random"], out["heuristic_vs_random"] = r["adp"], reference["adp"]
        out["robust"] = bool(r["adp"] >= reference["adp"] - ROBUST_SLACK)
    return out
