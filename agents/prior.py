"""A rule agent's choice as an input of the policy network: a *residual* policy.

With ``ppo.prior: heuristic?margin=0.05`` in a training config, the actor-critic sees, next to
the observation, a one-hot of the action the prior agent would take in that view, and adds
``prior_weight`` times that one-hot to its logits (:class:`agents.networks.ActorCritic`). A
fresh network therefore plays the prior's move (with ``prior_weight`` 6, about 98% of the time
when it samples among ten legal actions, always when greedy) and training learns where to
deviate from it, instead of first having to clone it: a cloned 14-trick heuristic played 17
points a deal worse than the heuristic itself in partnership (residual policy learning: Silver
et al. 2018, Johannink et al. 2019).

The prior is part of the policy: its spec is in the checkpoint's ``model_spec``
(``prior``, ``prior_weight``) and :class:`agents.learned.PolicyAgent` runs it at every
decision. Only the heuristic (with its ``margin`` and ``support`` options) may be a prior: it
is deterministic, cheap (tens of microseconds a decision) and sees only the seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from crowsnest_env.rules import quote

from .heuristic import HeuristicAgent
from .specs import parse_options

PRIOR_AGENTS = ("heuristic",)
PRIOR_OPTIONS = ("margin", "support")
MAX_PRIOR_WEIGHT = 50.0


def prior_options(spec: Any) -> dict[str, float]:
    """The options of a prior spec (``heuristic`` or ``heuristic?margin=0.05,support=8``);
    ValueError naming the problem for anything else."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"prior must be an agent name ({', '.join(PRIOR_AGENTS)}, with options), got {quote(spec)}")
    name, _, query = spec.strip().partition("?")
    if name not in PRIOR_AGENTS:
        raise ValueError(f"prior must be one of {list(PRIOR_AGENTS)} (with options, e.g. heuristic?margin=0.05), "
                         f"got {quote(spec)}")
    opts = parse_options(query)
    unknown = sorted(set(opts) - set(PRIOR_OPTIONS))
    if unknown:
        raise ValueError(f"prior {quote(spec)}: unknown option(s) {unknown}; a heuristic prior takes "
                         f"{list(PRIOR_OPTIONS)}")
    for key, value in opts.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not np.isfinite(value):
            raise ValueError(f"prior {quote(spec)}: option {key} must be a number, got {quote(value)}")
    return {k: float(v) for k, v in opts.items()}


def check_prior_weight(weight: Any) -> float:
    if isinstance(weight, bool) or not isinstance(weight, (int, float)) or not 0 < weight <= MAX_PRIOR_WEIGHT:
        raise ValueError(f"prior_weight must be a number in (0, {MAX_PRIOR_WEIGHT:g}], got {quote(weight)}")
    return float(weight)


def make_prior(spec: str) -> HeuristicAgent:
    """The prior agent of ``spec`` (checked by :func:`prior_options`)."""
    return HeuristicAgent(seed=0, **prior_options(spec))


def prior_columns(actions: Sequence[int] | np.ndarray, num_actions: int) -> np.ndarray:
    """(B, num_actions) float32 one-hot rows of the prior's actions; a row of an action < 0 stays
    zero (no decision: the observation at a truncation cut)."""
    acts = np.asarray(actions, dtype=np.int64)
    out = np.zeros((len(acts), num_actions), dtype=np.float32)
    rows = np.flatnonzero(acts >= 0)
    out[rows, acts[rows]] = 1.0
    return out


__all__ = ["MAX_PRIOR_WEIGHT", "PRIOR_AGENTS", "check_prior_weight", "make_prior", "prior_columns", "prior_options"]
