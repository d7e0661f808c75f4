"""Does a deeper search change expert's card? The same weighted worlds solved within several node budgets,
against a far deeper search (exact when it fits), on the early-trick positions of seeded hands that
``expert`` plays in all four seats.

    python docs/results/attempts/expert_more_worlds/horizon.py one_high 2-8 2000000 0,1,2,3,4,5 20000,60000,200000

Arguments: rule set, hands (seeds lo-hi), the deep budget, the 0-based tricks, the budgets compared. For each
budget: how often its card is the deep search's, and what its card loses by the deep values (weighted mean
over the worlds, points a decision)."""

from __future__ import annotations

import random
import sys
import time

import torch

from agents.expert import ExpertAgent
from agents.pimc import solve_world
from crowsnest_env.rules import NUM_SEATS, Phase, PlayerView, get_variant, new_game, player_view, step


def scores(view: PlayerView, worlds: list, weights: list[float], nodes: int, exact: int,
           try_exact: bool) -> dict[int, float]:
    """Each legal card's weighted total over ``worlds``, each solved within ``nodes``."""
    total: dict[int, float] = {}
    for (hands, nest), w in zip(worlds, weights):
        vals = solve_world(view, hands, view.cards.count_points(nest | view.discards), nodes, exact, try_exact)
        for c, v in vals.items():
            total[c] = total.get(c, 0.0) + w * v
    return total


def main() -> None:
    torch.set_num_threads(1)
    variant, hands, deep = sys.argv[1], sys.argv[2], int(sys.argv[3])
    tricks = {int(t) for t in sys.argv[4].split(",")}
    bases = [int(b) for b in sys.argv[5].split(",")]
    lo, hi = (int(x) for x in hands.split("-"))
    agent = ExpertAgent(seed=1)  # what make_agent("expert", seed=1) builds
    n = 0
    agree = dict.fromkeys(bases, 0)
    loss = dict.fromkeys(bases, 0.0)
    spent = dict.fromkeys(bases, 0.0)
    deep_s = 0.0
    for seed in range(lo, hi):
        state = new_game(get_variant(variant), rng=random.Random(500 + seed), dealer=seed % NUM_SEATS)
        agent.reset(seed)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            if state.phase == Phase.PLAY and view.trick_no in tricks and bin(view.legal).count("1") > 1:
                worlds, weights = agent.weighted_worlds(view, random.Random(seed * 1000 + view.trick_no))
                t = time.perf_counter()
                d = scores(view, worlds, weights, deep, agent.exact, True)
                deep_s += time.perf_counter() - t
                best = max(d, key=d.__getitem__)
                n += 1
                for b in bases:
                    t = time.perf_counter()
                    a = scores(view, worlds, weights, b, agent.exact, False)
                    spent[b] += time.perf_counter() - t
                    card = max(a, key=a.__getitem__)
                    agree[b] += card == best
                    loss[b] += d[best] - d[card]
            state = step(state, agent.act(view))
    print(f"{variant} hands {hands} tricks {sorted(tricks)}: {n} positions; "
          f"deep {deep} nodes {deep_s / n:.2f} s a position")
    for b in bases:
        print(f"  nodes {b}: same card {agree[b] / n:.0%}, mean loss by deep values {loss[b] / n:.2f} pts, "
              f"{spent[b] / n:.3f} s a position ({agent.samples} worlds)")


if __name__ == "__main__":
    main()
