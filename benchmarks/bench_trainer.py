"""Learner decisions per second of the PPO trainer's rollout collection (what the one-driver
change touched), with the real actor-critic network on one core.

    python benchmarks/bench_trainer.py [--seconds 20] [--rounds 3] [--cpu 0]

Two opponent set-ups, as in the main job: pure self-play (every seat the learner, all
decisions batched through the network) and learner vs the heuristic (half the seats act on
their views). The best round is kept. Run it in two checkouts one after the other to compare
code versions; the figure to report is the ratio.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402

from crowsnest_env.observation import observation_layout  # noqa: E402
from crowsnest_env.rules import get_variant, layout_for  # noqa: E402
from training.ppo import learner_controller  # noqa: E402
from training.rollout import AgentController, SelfPlayCollector  # noqa: E402


def measure(seconds: float, setup: str) -> float:
    from agents.heuristic import HeuristicAgent

    try:
        from agents.networks import ActorCritic
    except ImportError:  # older checkouts
        from agents.learned import ActorCritic  # type: ignore[no-redef]
    v = get_variant("crowsnest")
    torch.manual_seed(0)
    model = ActorCritic(observation_layout(v).size, layout_for(v).num_actions, [256, 256])
    learner = learner_controller(model)
    heuristic = AgentController(HeuristicAgent(seed=0), "heuristic")
    params = inspect.signature(SelfPlayCollector).parameters
    kwargs = {"episode": "hand"} if "episode" in params else {}
    collector = SelfPlayCollector(v, 64, 1, **kwargs)
    if setup == "self_play":
        def assign(i):
            return [learner] * 4, (0, 1, 2, 3)
    else:
        def assign(i):
            return [learner, heuristic, learner, heuristic], (0, 2)
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        n += len(collector.collect(assign, 4096))
    return n / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cpu", type=int, default=0)
    p.add_argument("--json")
    args = p.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    torch.set_num_threads(1)
    best: dict[str, float] = {}
    for r in range(args.rounds):
        for setup in ("self_play", "vs_heuristic"):
            rate = measure(args.seconds, setup)
            best[setup] = max(best.get(setup, 0.0), rate)
            print(f"round {r + 1}/{args.rounds} {setup:14s} {rate:8.0f} learner decisions/s", file=sys.stderr)
    for k, v in best.items():
        print(f"{k:14s} {v:8.0f} learner decisions/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(best, f, indent=1)


if __name__ == "__main__":
    main()
