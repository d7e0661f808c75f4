"""Tianshou 2.0.1's own DQN trainer on CrowsNest through Tianshou's PettingZoo route, unchanged.

    PYTHONPATH=. python examples/tianshou_dqn.py --epochs 6 --seed 0 --deals 200

The documented route (``tianshou.env.PettingZooEnv`` -> ``Collector`` ->
``MultiAgentOffPolicyAlgorithm``) stores one row per decision, whoever made it, with the
reward *vector* of all four seats that the env handed out at that step. Each seat's
algorithm reads its own column, but only on its own rows, and a one-step target bootstraps
from ``obs_next``: the next row's observation, which is another seat's (usually an
opponent's) view. Two settings make the targets right without touching Tianshou:

* ``episode="hand"``: an episode is one hand, scored once at its end;
* ``gamma=1`` and ``n_step_return_horizon`` longer than any hand (``HAND_HORIZON``): the
  n-step return of a row then sums that seat's column over the rest of the hand and never
  bootstraps, i.e. a Monte-Carlo target (the Deep Monte-Carlo of DouZero, run by Tianshou).

One network serves all four seats (the observation is seat-relative): the same ``DQN``
object is given for every agent. Pitfalls and alternatives: ``docs/other_trainers.md``.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

import numpy as np
import torch
from tianshou.algorithm.modelfree.dqn import DQN, DiscreteQLearningPolicy
from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from arena_eval import ScoresAgent, report  # noqa: E402

import crowsnest_env  # noqa: E402

HAND_HORIZON = 160  # decisions in the longest hand we expect (auction, nest, trump, 40 cards)


def make_env(variant: str) -> PettingZooEnv:
    return PettingZooEnv(crowsnest_env.env(variant=variant, episode="hand", reward="score"))


def build(variant: str, hidden: list[int], lr: float) -> tuple[MultiAgentOffPolicyAlgorithm, Net, PettingZooEnv]:
    env = make_env(variant)
    net = Net(state_shape=env.observation_space["observation"].shape, action_shape=env.action_space.n,
              hidden_sizes=hidden)
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.3)
    dqn = DQN(policy=policy, optim=AdamOptimizerFactory(lr=lr), gamma=1.0,
              n_step_return_horizon=HAND_HORIZON, target_update_freq=0)
    # the same algorithm for every seat: one shared network, each seat's rows scored in its own column
    return MultiAgentOffPolicyAlgorithm(algorithms=[dqn] * len(env.agents), env=env), net, env


def train(variant: str = "crowsnest", epochs: int = 6, steps_per_epoch: int = 2000, num_envs: int = 2,
          hidden: tuple[int, ...] = (128,), lr: float = 1e-3, seed: int = 0, updates_per_step: float = 0.1,
          verbose: bool = True):
    """Train with Tianshou's off-policy trainer; returns (the trained Q-network, Tianshou's InfoStats)."""
    torch.manual_seed(seed)
    np.random.seed(seed)  # Tianshou's epsilon-greedy draws from the global numpy generator
    algorithm, net, env = build(variant, list(hidden), lr)
    envs = DummyVectorEnv([lambda: make_env(variant) for _ in range(num_envs)])
    envs.seed(seed)
    collector = Collector(algorithm, envs, VectorReplayBuffer(50_000, num_envs), exploration_noise=True)
    policy = algorithm.get_algorithm(env.agents[0]).policy
    # warm-up with masked random play; not collect(random=True), which samples the action space
    # unmasked, so the env ends each episode at the first illegal move
    policy.set_eps_training(1.0)
    collector.reset()
    collector.collect(n_step=1000)

    def anneal(epoch: int, _step: int) -> None:  # epsilon 0.3 -> 0.05 over the run
        policy.set_eps_training(max(0.05, 0.3 * (1 - epoch / max(1, epochs))))

    stats = algorithm.run_training(OffPolicyTrainerParams(
        training_collector=collector, test_collector=None, max_epochs=epochs, epoch_num_steps=steps_per_epoch,
        collection_step_num_env_steps=200, update_step_num_gradient_steps_per_sample=updates_per_step, batch_size=128,
        training_fn=anneal, verbose=verbose, show_progress=False,
    ))
    return net, stats


def q_agent(net: Net, name: str = "tianshou-dqn") -> ScoresAgent:
    """The trained Q-network as an arena agent (greedy over legal Q-values)."""
    net.eval()

    def scores(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            q, _ = net(torch.from_numpy(obs).unsqueeze(0))
        return q[0].numpy()

    return ScoresAgent(scores, name)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="crowsnest")
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--steps-per-epoch", type=int, default=2000)
    parser.add_argument("--updates-per-step", type=float, default=0.1,
                        help="gradient steps per collected decision")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per arena match")
    parser.add_argument("--save", default=None, help="write the Q-network's state_dict here")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    os.environ.setdefault("TQDM_DISABLE", "1")  # Tianshou's per-update progress bars
    net, stats = train(args.variant, args.epochs, args.steps_per_epoch, seed=args.seed,
                       updates_per_step=args.updates_per_step)
    print(f"trained: {stats.train_step} decisions, {stats.update_step} trainer update steps, "
          f"{stats.timing.total_time:.0f} s")
    if args.save:
        torch.save(net.state_dict(), args.save)
    report(q_agent(net), deals=args.deals, seed=args.seed, variant=args.variant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
