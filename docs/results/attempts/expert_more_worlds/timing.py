"""Seconds a play decision of one agent, on seeded hands it plays in all four seats, on one torch thread.

    python docs/results/attempts/expert_more_worlds/timing.py "expert?samples=96" crowsnest 3

Arguments: the agent (any arena name), the rule set, the number of hands (seeds 100, 101, ...). Prints the
mean, the 90th percentile and the largest time of the play decisions (forced ones included)."""

from __future__ import annotations

import random
import sys
import time

import torch

from agents import make_agent
from crowsnest_env.rules import NUM_SEATS, Phase, get_variant, new_game, player_view, step


def main() -> None:
    torch.set_num_threads(1)
    spec, variant = sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "crowsnest"
    hands = int(sys.argv[3]) if len(sys.argv) > 3 else 4
    agent = make_agent(spec, seed=1)
    times = []
    for seed in range(hands):
        state = new_game(get_variant(variant), rng=random.Random(100 + seed), dealer=seed % NUM_SEATS)
        agent.reset(seed)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            t = time.perf_counter()
            action = agent.act(view)
            if state.phase == Phase.PLAY:
                times.append(time.perf_counter() - t)
            state = step(state, action)
    times.sort()
    print(f"{spec} {variant}: {len(times)} play decisions, mean {sum(times) / len(times):.3f} s, "
          f"p90 {times[int(0.9 * len(times))]:.3f} s, max {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
