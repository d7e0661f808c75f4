"""Does weighing the declarer's calls put the weight on worlds nearer the declarer's true hand? ``expert``
defends (seats 1 and 3) against ``pimc`` declaring (seats 0 and 2) on seeded hands; at each defender's card in
the given tricks the same sampled worlds are weighted by default and with ``declarer_calls``.

    python docs/results/attempts/expert_declarer_calls/posterior.py crowsnest 0-40 0,1,2,3 8

Arguments: rule set, hands (seeds lo-hi), the 0-based tricks, the nest draws. For each weighting: the weighted
share of the declarer's true hand that a world gives it (uniform weights: what the sampler alone does), the
effective number of worlds, and the seconds the weighting takes a decision."""

from __future__ import annotations

import random
import sys
import time

import torch

from agents.expert import ExpertAgent
from agents.heuristic import HeuristicAgent
from agents.inference import world_log_likelihoods, world_weights
from agents.pimc import PIMCAgent
from crowsnest_env.rules import NUM_SEATS, Phase, get_variant, new_game, player_view, step


def main() -> None:
    torch.set_num_threads(1)
    variant, hands, draws = sys.argv[1], sys.argv[2], int(sys.argv[4])
    tricks = {int(t) for t in sys.argv[3].split(",")}
    lo, hi = (int(x) for x in hands.split("-"))
    expert, pimc = ExpertAgent(seed=1), PIMCAgent(seed=1)
    arms = {"uniform": None, "default": 0, f"declarer_calls={draws}": draws, "pimc's own rule": draws}
    rule = HeuristicAgent(margin=0.0)  # how pimc bids: the model that fits it exactly, as a yardstick
    share = dict.fromkeys(arms, 0.0)
    ess = dict.fromkeys(arms, 0.0)
    spent = dict.fromkeys(arms, 0.0)
    pts = dict.fromkeys(arms, 0.0)
    n = 0
    for seed in range(lo, hi):
        state = new_game(get_variant(variant), rng=random.Random(700 + seed), dealer=seed % NUM_SEATS)
        expert.reset(seed)
        pimc.reset(seed)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            seat = state.to_move
            view = player_view(state, seat)
            agent = expert if seat % 2 else pimc
            if (state.phase == Phase.PLAY and seat % 2 and view.declarer % 2 == 0 and view.trick_no in tricks
                    and bin(view.legal).count("1") > 1):
                worlds, _ = expert.weighted_worlds(view, random.Random(seed * 1000 + view.trick_no * 10 + seat))
                truth = state.hands[view.declarer]
                size = truth.bit_count()
                n += 1
                for arm, k in arms.items():
                    t = time.perf_counter()
                    if k is None:
                        weights = [1 / len(worlds)] * len(worlds)
                    else:
                        callers = dict(expert.inference_callers(view))
                        if arm == "pimc's own rule":
                            callers[view.declarer] = rule
                        lls = world_log_likelihoods(view, worlds, expert._policy(view), callers=callers,
                                                    declarer_calls=k,
                                                    rng=random.Random(seed))
                        weights = world_weights(lls, expert.temperature)
                    spent[arm] += time.perf_counter() - t
                    share[arm] += sum(w * (hs[view.declarer] & truth).bit_count() / size
                                      for (hs, _), w in zip(worlds, weights))
                    pts[arm] += abs(sum(w * view.cards.count_points(hs[view.declarer])
                                        for (hs, _), w in zip(worlds, weights)) - view.cards.count_points(truth))
                    ess[arm] += 1 / sum(w * w for w in weights)
            state = step(state, agent.act(view))
    print(f"{variant} hands {hands} tricks {sorted(tricks)}: {n} defender decisions against pimc's contracts")
    for arm in arms:
        print(f"  {arm:>18}: share of the declarer's true hand {share[arm] / n:.3f}, "
              f"points held off by {pts[arm] / n:.1f}, effective worlds {ess[arm] / n:.1f}, "
              f"weighting {spent[arm] / n * 1000:.1f} ms a decision")


if __name__ == "__main__":
    main()
