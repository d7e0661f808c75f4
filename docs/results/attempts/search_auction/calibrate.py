"""How well each hand evaluator predicts what a declarer takes when `pimc` plays all four seats.

Plays N crowsnest hands of `pimc` self-play (deal seeds 1000..1000+N-1) and, for each hand's
declarer, compares the points its team took with: the heuristic's estimate of its hand at its first
call (`agents._eval.estimate_points`, what `pimc` bids on); the searched value of that hand
(`agents.search_bid.declared_points` over 16 deals drawn from what the seat saw, at NODES search
nodes); and the double-dummy value of the true deal from the opening lead (everything known: the
ceiling of any evaluator that sees one hand). Writes one JSON line of the figures.

    python docs/results/attempts/search_auction/calibrate.py 150 20000
    python docs/results/attempts/search_auction/calibrate.py 150 200000
"""

from __future__ import annotations

import json
import random
import sys
import time

import numpy as np

from agents._eval import estimate_points
from agents._sampler import sample_world
from agents._solver import DoubleDummy
from agents.pimc import PIMCAgent
from agents.search_bid import declared_points
from crowsnest_env.rules import Phase, new_game, player_view


def main(n: int, nodes: int) -> dict[str, float]:
    rows = []
    start = time.time()
    for seed in range(1000, 1000 + n):
        state = new_game("crowsnest", rng=random.Random(seed), dealer=seed % 4)
        agents = [PIMCAgent(seed * 4 + s) for s in range(4)]
        first_views = {}
        true_dd = 0
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            if state.phase is Phase.AUCTION and state.to_move not in first_views:
                first_views[state.to_move] = view
            if state.phase is Phase.PLAY and state.trick_no == 0 and not state.trick:
                dd = DoubleDummy(state.cards, state.trump, state.cards.count_points(state.discards))
                values = dd.deepening(list(state.hands), state.leader, [], 0, 0, nodes)
                team0 = max(values.values()) if state.leader % 2 == 0 else min(values.values())
                true_dd = team0 if state.declarer % 2 == 0 else state.variant.total_points - team0
            state.apply(agents[state.to_move].act(view))
        if not state.results:
            continue  # passed out
        result = state.results[-1]
        first = first_views[result.declarer]
        rng = random.Random(seed)
        searched = np.mean([declared_points(first, *sample_world(first, rng), nodes) for _ in range(16)])
        rows.append((result.points[result.declarer % 2], true_dd, estimate_points(first.cards, first.hand),
                     searched, result.bid, result.made))
    a = np.array(rows, dtype=float)
    corr = lambda i: float(np.corrcoef(a[:, 0], a[:, i])[0, 1])  # noqa: E731
    return {"hands": len(a), "nodes": nodes, "seconds": round(time.time() - start, 1),
            "taken_mean": float(a[:, 0].mean()), "bid_mean": float(a[:, 4].mean()), "made": float(a[:, 5].mean()),
            "estimate_mean": float(a[:, 2].mean()), "searched_mean": float(a[:, 3].mean()),
            "true_deal_dd_mean": float(a[:, 1].mean()),
            "corr_taken_estimate": corr(2), "corr_taken_searched": corr(3), "corr_taken_true_deal_dd": corr(1)}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
