"""How far above pimc's limit does expert's trained auction win its contracts? (auction only, no play)

For ``--hands`` seeded hands of a rule set, the target auction (both seats of one team) bids against an
opponent auction (both seats of the other team; the teams swap every other hand). For each contract the
target's team wins, the winning bid is compared with the limit that pimc's auction (the heuristic's rules at
margin 0, :func:`agents.heuristic.bid_limit`) would have had in the declarer's seat at its last call: the
"gap". Reported per opponent: how often the target declares, its mean winning bid, and the gap's
distribution (the share of contracts won more than 0, 5, 10, 15, 20 points above the limit). Each hand is then
played out by the shipped policy (``learned``) in all four seats, as the exploit tool's stand-in plays, and
each contract's net (the declaring team's score change less the other team's) and whether it was made are
reported by gap: at or below the limit, and above it.

    python docs/results/attempts/expert_bid_cap_tournament/auction_gap.py [--variant tournament] [--hands 2000]
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np
from tqdm import tqdm

from agents import make_agent
from agents.heuristic import bid_limit
from agents.rollouts import play_out
from crowsnest_env.rules import NUM_SEATS, Phase, new_game, player_view

A = "docs/results/attempts"
TARGET = "checkpoint:agents/policies/expert/tournament_auction.pt"
OPPONENTS = {
    "best response": f"checkpoint:{A}/expert_auction_exploitability_tournament/best_response.pt",
    "pimc's auction": "heuristic?margin=0",
}


def contracts(target: str, opponent: str, rule_set: str, hands: int, seed: int) -> dict[str, object]:
    bots = {"t": make_agent(target, seed=seed), "o": make_agent(opponent, seed=seed + 1)}
    play = make_agent("learned", seed=seed + 2)
    gaps, bids, nets, made, declared = [], [], [], [], 0
    for h in tqdm(range(hands), desc=opponent[:30], leave=False):
        state = new_game(rule_set, rng=random.Random(seed * 100_003 + h), dealer=h % NUM_SEATS)
        target_team = (h // 2) % 2  # the teams swap every other hand
        last_gap = [0.0] * NUM_SEATS
        while state.phase is Phase.AUCTION:
            seat = state.to_move
            view = player_view(state, seat)
            ours = seat % 2 == target_team
            action = bots["t" if ours else "o"].act(view)
            if ours and action != 0:
                last_gap[seat] = view.layout.bid_value(action) - bid_limit(view, margin=0.0)
            state.apply(action)
        if state.high_bidder >= 0 and state.high_bidder % 2 == target_team:
            declared += 1
            gaps.append(last_gap[state.high_bidder])
            bids.append(state.high_bid)
            play_out([state], play)
            result = state.results[-1]
            nets.append(result.score_change[target_team] - result.score_change[1 - target_team])
            made.append(result.made)
    g, n, m = np.array(gaps), np.array(nets, float), np.array(made, float)

    def side(sel: np.ndarray) -> dict[str, float | int | None]:
        return {"contracts": int(sel.sum()), "made": float(m[sel].mean()) if sel.any() else None,
                "mean_net": float(n[sel].mean()) if sel.any() else None}

    return {"hands": hands, "declared": declared, "mean_bid": float(np.mean(bids)) if bids else None,
            "gap_mean": float(g.mean()) if len(g) else None,
            "share_above": {str(x): float((g > x).mean()) if len(g) else None for x in (0, 5, 10, 15, 20)},
            "at_or_below_limit": side(g <= 0), "above_limit": side(g > 0), "above_limit_by_10": side(g > 10),
            "all": side(g == g)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="tournament")
    parser.add_argument("--target", default=TARGET)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=4711)
    args = parser.parse_args()
    out = {name: contracts(args.target, spec, args.variant, args.hands, args.seed) for name, spec in OPPONENTS.items()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
