"""How often PIMC's best card beats the heuristic's by more than X points (the README's figures here).

    python docs/results/attempts/one_high_pimc_keep_bc/departures.py

Unforced card decisions of 40 heuristic-played one_high hands (seeds 0..39, the prior's margin
0.05), each searched by ``pimc?samples=4,nodes=5000`` with the same worlds (seed 1)."""

from __future__ import annotations

import random

from agents.heuristic import HeuristicAgent, choose_card
from agents.pimc import PIMCAgent
from crowsnest_env.rules import NUM_SEATS, Phase, new_game, player_view


def main() -> None:
    views = []
    for seed in range(40):
        state = new_game("one_high", rng=random.Random(seed), dealer=seed % NUM_SEATS)
        bot = HeuristicAgent(seed, margin=0.05)
        while state.phase < Phase.DEAL:
            view = player_view(state, state.to_move)
            if view.phase is Phase.PLAY and (view.legal >> view.layout.play_offset).bit_count() > 1:
                views.append(view)
            state.apply(bot.act(view))
    search = PIMCAgent(0, samples=4, nodes=5000)
    gaps = []
    for view in views:
        search.reset(1)
        _, scores = search.explain(view)
        gaps.append(max(scores.values()) - scores[choose_card(view) + view.layout.play_offset])
    print(f"{len(views)} unforced card decisions")
    for x in (0, 5, 10, 30, 60):
        share = sum(g > x for g in gaps) / len(gaps)
        print(f"best card better than the heuristic's by more than {x} points: {share:.1%}")


if __name__ == "__main__":
    main()
