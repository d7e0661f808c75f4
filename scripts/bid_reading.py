"""Does the bid read the hand? Each shipped policy's first call by hand strength, in every rule set.

Issue 15 goal 4: a policy that bids on every hand wins only against a passive opponent. For each
rule set, ``--hands`` seeded hands are played with one agent in all four seats (``learned``, then
the heuristic on the same deals); each seat's *first* call of a hand (before the others' bids push
it) is logged with the strength of the 9 to 13 cards it was dealt, as the project's one hand
evaluator measures it (:func:`agents._eval.estimate_points`, the points the seat's team expects
declaring in its best suit). The calls are cut into fifths of strength (each agent's own quintiles)
and the share of passes in each fifth is reported, weakest first, with the correlation between
strength and the first call (a pass counting as 0). Where every hand opens (one_high and red_one,
whose lowest bid is under any hand's estimate), the highest bid each seat made in the auction reads
the hand instead: its mean in each fifth, and its correlation with strength.
``inside_a_policy.ipynb`` draws the same for crowsnest with its own strength formula.

    python scripts/bid_reading.py [--hands 300] [--out docs/results/bid_reading.json]

The README's table *Does the bid read the hand?* is generated from the JSON by ``scripts/readme_tables.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

import numpy as np
from tqdm import tqdm

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import make_agent  # noqa: E402
from agents._eval import estimate_points  # noqa: E402
from agents.deal_sets import RULE_SETS  # noqa: E402  (the nine rule sets, one place)
from crowsnest_env.atomic import atomic_write_text  # noqa: E402
from crowsnest_env.rules import NUM_SEATS, Phase, get_variant, new_game, player_view  # noqa: E402

AGENTS = ("learned", "heuristic")


def first_calls(spec: str, rule_set: str, hands: int, seed: int) -> list[tuple[float, int, int]]:
    """(strength, first call: 0 = pass, else the bid; the highest bid it made, 0 if none) of every
    seat in ``hands`` seeded hands."""
    variant = get_variant(rule_set)
    bots = [make_agent(spec, seed=seed + s) for s in range(NUM_SEATS)]
    out = []
    for h in range(hands):
        state = new_game(variant, rng=random.Random(seed * 100_003 + h), dealer=h % NUM_SEATS)
        strength = [estimate_points(state.cards, state.hands[s]) for s in range(NUM_SEATS)]
        first: dict[int, int] = {}
        top = [0] * NUM_SEATS
        while state.phase is Phase.AUCTION:
            seat = state.to_move
            view = player_view(state, seat)
            action = bots[seat].act(view)
            bid = 0 if action == 0 else view.layout.bid_value(action)
            first.setdefault(seat, bid)
            top[seat] = max(top[seat], bid)
            state.apply(action)
        out += [(strength[s], first[s], top[s]) for s in sorted(first)]
    return out


def reading(calls: list[tuple[float, int, int]]) -> dict[str, object]:
    """Pass rate of the first call in each fifth of strength (weakest first), the mean highest bid
    in each fifth (where every hand opens, as in one_high and red_one, that is what reads the hand),
    and their correlations with strength."""
    s, b, top = np.array(calls, dtype=float).T
    edges = np.quantile(s, [0.2, 0.4, 0.6, 0.8])
    fifth = np.searchsorted(edges, s, side="right")

    def corr(x: np.ndarray) -> float | None:
        return round(float(np.corrcoef(s, x)[0, 1]), 4) if x.std() > 0 else None

    return {"calls": len(s), "pass_by_fifth": [round(float((b[fifth == k] == 0).mean()), 4) for k in range(5)],
            "pass_rate": round(float((b == 0).mean()), 4), "corr_strength_first_call": corr(b),
            "top_bid_by_fifth": [round(float(top[fifth == k].mean()), 2) for k in range(5)],
            "corr_strength_top_bid": corr(top)}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hands", type=int, default=300, help="seeded hands per rule set and agent (default 300)")
    p.add_argument("--seed", type=int, default=44, help="deal seed (default 44)")
    p.add_argument("--rule-sets", default=",".join(RULE_SETS), help="comma-separated (default: all nine)")
    p.add_argument("--agents", default=",".join(AGENTS),
                   help="comma-separated arena agent names (default: learned,heuristic), e.g. a best response's "
                        "auction in a policy's place: 'phase:base=learned;auction=checkpoint:PATH'")
    p.add_argument("--out", help="write the figures here as JSON (atomically)")
    args = p.parse_args(argv)
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    if not agents:
        p.error("--agents names no agent")
    if args.hands < 5:
        p.error("--hands must be at least 5 (five fifths of strength)")
    rule_sets = [r.strip() for r in args.rule_sets.split(",") if r.strip()]
    for r in rule_sets:
        get_variant(r)  # an unknown rule set is an error naming the valid ones, before any game
    for spec in agents:
        make_agent(spec)  # so is an unknown agent or option
    result: dict[str, dict[str, object]] = {}
    for rule_set in tqdm(rule_sets, desc="rule sets"):
        result[rule_set] = {spec: reading(first_calls(spec, rule_set, args.hands, args.seed)) for spec in agents}
    payload = {"hands": args.hands, "seed": args.seed, "strength": "agents._eval.estimate_points of the dealt hand",
               "command": "python scripts/bid_reading.py " + " ".join(argv if argv is not None else sys.argv[1:]),
               "rule_sets": result}
    for rule_set, row in result.items():
        line = "  ".join(f"{spec} " + " ".join(f"{100 * x:3.0f}%" for x in row[spec]["pass_by_fifth"])  # type: ignore[index]
                         + f" top {row[spec]['top_bid_by_fifth'][0]:5.1f}..{row[spec]['top_bid_by_fifth'][4]:5.1f}"  # type: ignore[index]
                         for spec in agents)
        print(f"{rule_set:18s} {line}")
    if args.out:
        atomic_write_text(args.out, json.dumps(payload, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
