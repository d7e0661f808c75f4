"""Put a policy trained by another library into our duplicate arena as a named agent.

``ScoresAgent`` is the adapter: it encodes a seat's view with the public reference encoder
(``crowsnest_env.observation.encode_view``), asks the library's network for one score per
action (logits or Q-values), and plays the best legal one. ``duplicate_match`` plays it
against a named baseline on the arena's duplicate deals (both tables, teams swapping seats)
and returns the arena's summary (``adp``: mean points difference per deal, with its 95% CI).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from agents.arena import Clock, Lineup, PairingConfig, play_duplicate_deal
from agents.arena_records import summarise_pairing
from crowsnest_env.observation import action_mask, encode_view
from crowsnest_env.rules import PlayerView, layout_for

ScoreFn = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (obs (D,), mask (A,) bool) -> scores (A,)


class ScoresAgent:
    """``act(view)``: the legal action with the highest score from ``score_fn`` (greedy), or, with
    ``sample=True``, one drawn from the softmax of the legal scores (a policy's logits)."""

    def __init__(self, score_fn: ScoreFn, name: str, sample: bool = False):
        self.score_fn, self.name, self.sample = score_fn, name, sample
        self.rng = np.random.default_rng()

    def reset(self, seed: int | None = None) -> None:
        """The arena seeds every agent per deal and seat, so sampled play is reproducible."""
        self.rng = np.random.default_rng(seed)

    def act(self, view: PlayerView) -> int:
        legal = view.legal
        if legal & (legal - 1) == 0:  # one legal action: no network needed
            return legal.bit_length() - 1
        mask = action_mask(legal, layout_for(view.variant).num_actions).astype(bool)
        legal_ids = np.flatnonzero(mask)
        scores = np.asarray(self.score_fn(encode_view(view), mask), dtype=np.float64)[legal_ids]
        if not self.sample:
            return int(legal_ids[np.argmax(scores)])
        p = np.exp(scores - scores.max())
        return int(self.rng.choice(legal_ids, p=p / p.sum()))


def duplicate_match(agent: ScoresAgent, opponent: str, *, deals: int, seed: int,
                    variant: str = "crowsnest") -> dict:
    """``agent`` (both seats of team a) against the named baseline, on ``deals`` duplicate deals."""
    lineup, clock = Lineup((agent, agent), opponent), Clock()
    records = [play_duplicate_deal(None, None, i, variant=variant, seed=seed, lineup=lineup, clock=clock)
               for i in range(deals)]
    return summarise_pairing(PairingConfig(agent.name, opponent, variant, True, seed), records, [], clock)


def report(agent: ScoresAgent, *, deals: int, seed: int, variant: str = "crowsnest") -> dict[str, dict]:
    """The agent against random and against the heuristic; prints one line per match."""
    out = {}
    for opponent in ("random", "heuristic"):
        res = duplicate_match(agent, opponent, deals=deals, seed=seed, variant=variant)
        lo, hi = res["adp_ci95"] or (float("nan"), float("nan"))
        made = res["made_rate_a"]
        print(f"{agent.name} vs {opponent}: adp {res['adp']:+.1f} points/deal (95% CI {lo:+.1f}..{hi:+.1f}), "
              f"{deals} duplicate deals, seed {seed}; declared {res['bids_a']} of {2 * deals} hands"
              + (f", made {100 * made:.0f}%" if made is not None else ""))
        out[opponent] = res
    return out
