"""Learner decisions per second of the PPO trainer: its rollout collection and its update, with the
real actor-critic network on one core (and on ``--device``).

    python benchmarks/bench_trainer.py [--seconds 20] [--rounds 3] [--cpu 0] [--device cpu|cuda|auto]

Collection, in two opponent set-ups as in the main job: pure self-play (every seat the learner,
all decisions batched through the network, on ``--device``) and learner vs the heuristic (half
the seats act on their views). ``update``: the PPO optimisation (4 epochs of 512-decision
minibatches over a 4096-decision rollout) on ``--device``, in learner decisions per second of
rollout. The best round is kept. To compare code versions, alternate two checkouts' runs in one
session; the figure to report is the ratio.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
import torch  # noqa: E402

from agents.networks import ActorCritic  # noqa: E402
from crowsnest_env.observation import observation_layout  # noqa: E402
from crowsnest_env.rules import get_variant, layout_for  # noqa: E402
from training.config import resolve_device  # noqa: E402
from training.policies import ppo_learner  # noqa: E402
from training.rollout import AgentController, SelfPlayCollector  # noqa: E402

SETUPS = ("self_play", "vs_heuristic", "update")


def _model(device: str) -> ActorCritic:
    v = get_variant("crowsnest")
    torch.manual_seed(0)
    return ActorCritic(observation_layout(v).size, layout_for(v).num_actions, [256, 256]).to(device)


def measure(seconds: float, setup: str, device: str = "cpu") -> float:
    if setup == "update":
        return measure_update(seconds, device)
    from agents.heuristic import HeuristicAgent

    v = get_variant("crowsnest")
    learner = ppo_learner(_model(device), device)
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


def measure_update(seconds: float, device: str) -> float:
    """Rollout decisions per second through the PPO update (the trainer's ``optimise``) on ``device``."""
    from training.config import PPOArgs
    from training.ppo import optimise
    from training.rollout import Rollout

    model = _model(device)
    v = get_variant("crowsnest")
    n, d, a = 4096, observation_layout(v).size, layout_for(v).num_actions
    rng = np.random.default_rng(0)
    masks = rng.random((n, a)) < 0.3
    masks[np.arange(n), 0] = True
    ro = Rollout(obs=rng.random((n, d), dtype=np.float32), masks=masks, actions=np.zeros(n, np.int64),
                 rewards=rng.standard_normal(n).astype(np.float32), dones=np.ones(n, np.float32),
                 extras={"logprob": np.full(n, -1.0, np.float32), "value": np.zeros(n, np.float32)})
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4, eps=1e-5)
    args = PPOArgs()
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        optimise(model, optimizer, ro, ro.rewards, ro.rewards, args, device)
        done += n
    if device == "cuda":
        torch.cuda.synchronize()
    return done / (time.perf_counter() - start)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--cpu", type=int, default=0)
    p.add_argument("--device", default="cpu", choices=("auto", "cpu", "cuda"),
                   help="where the network runs (collection's forward passes and the update); default cpu")
    p.add_argument("--setups", default=",".join(SETUPS), help=f"comma-separated, of {', '.join(SETUPS)}")
    p.add_argument("--json")
    args = p.parse_args()
    try:
        device = resolve_device(args.device)
    except ValueError as err:
        p.error(str(err))
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    torch.set_num_threads(1)
    best: dict[str, float] = {}
    for r in range(args.rounds):
        for setup in args.setups.split(","):
            rate = measure(args.seconds, setup, device)
            best[setup] = max(best.get(setup, 0.0), rate)
            print(f"round {r + 1}/{args.rounds} {setup:14s} {rate:8.0f} learner decisions/s ({device})",
                  file=sys.stderr)
    for k, v in best.items():
        print(f"{k:14s} {v:8.0f} learner decisions/s on {device}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(best, f, indent=1)


if __name__ == "__main__":
    main()
