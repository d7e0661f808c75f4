"""RLlib's PPO on CrowsNest through RLlib's own PettingZoo wrapper, with action masking.

    PYTHONPATH=. python examples/rllib_ppo.py --iterations 8 --seed 0 --deals 200

* ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv`` over ``crowsnest_env.env(...)``:
  it steps the AEC env and hands each seat its observation and accumulated reward at the
  seat's next turn (and, at the end, to every seat), so rewards that land while others act
  reach the right seat.
* One policy (``"shared"``) for all four seats; the observation is seat-relative.
* Masking: RLlib's example ``ActionMaskingTorchRLModule``. It expects the observation dict
  keys ``observations``/``action_mask``; PettingZoo's convention (ours) is
  ``observation``/``action_mask``, so a ten-line subclass renames the key (and makes the int8
  mask float, since the module takes its log).
* Evaluation: the trained module as a named agent in our duplicate arena
  (``examples/arena_eval.py``), against random and the heuristic.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
from typing import Any

import gymnasium as gym
import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from arena_eval import ScoresAgent, report  # noqa: E402

import crowsnest_env  # noqa: E402

ENV_NAME = "crowsnest_rllib"
POLICY = "shared"


def make_env(config: dict[str, Any]):
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    return PettingZooEnv(crowsnest_env.env(variant=config.get("variant", "crowsnest"), episode="hand",
                                           reward="score"))


def masking_module_class():
    """RLlib's example action-masking PPO module, reading PettingZoo's ``observation`` key."""
    from ray.rllib.core.columns import Columns
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    class CrowsNestMaskingModule(ActionMaskingTorchRLModule):
        def __init__(self, *, observation_space=None, **kwargs):
            space = gym.spaces.Dict({"observations": observation_space["observation"],
                                     "action_mask": observation_space["action_mask"]})
            super().__init__(observation_space=space, **kwargs)

        def _preprocess_batch(self, batch, **kwargs):
            obs = batch[Columns.OBS]
            if "observation" in obs:
                obs["observations"] = obs.pop("observation")
            obs["action_mask"] = obs["action_mask"].float()
            return super()._preprocess_batch(batch, **kwargs)

    return CrowsNestMaskingModule


def build_config(variant: str = "crowsnest", seed: int = 0, batch: int = 2000, hidden: int = 128):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    register_env(ENV_NAME, make_env)
    module = RLModuleSpec(module_class=masking_module_class(),
                          model_config={"fcnet_hiddens": [hidden], "head_fcnet_hiddens": [hidden]})
    return (
        PPOConfig()
        # RLlib's env check steps the env with an unmasked random action (an illegal move ends
        # the episode with a warning); the wrapper's contract is covered by PettingZoo's api_test
        .environment(ENV_NAME, env_config={"variant": variant}, disable_env_checking=True)
        .multi_agent(policies={POLICY}, policy_mapping_fn=lambda agent_id, episode, **kw: POLICY)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={POLICY: module}))
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1)
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=256, num_epochs=4, lr=3e-4,
                  gamma=1.0, lambda_=0.95, entropy_coeff=0.01)
        .debugging(seed=seed)
    )


def train(variant: str = "crowsnest", iterations: int = 8, seed: int = 0, batch: int = 2000):
    """Run RLlib's PPO; returns (the trained RLModule, the last result dict). Starts Ray locally."""
    import ray

    # address="local": a Ray of our own, never a cluster some other process left running
    ray.init(address="local", num_cpus=2, include_dashboard=False, ignore_reinit_error=True,
             log_to_driver=False)
    algo = build_config(variant, seed, batch).build_algo()
    result: dict = {}
    for i in range(iterations):
        result = algo.train()
        ret = result.get("env_runners", {}).get("agent_episode_returns_mean", {})
        print(f"iteration {i + 1}: episode returns by seat {ret}")
    return algo.get_module(POLICY), result


def module_agent(module, name: str = "rllib-ppo", sample: bool = False) -> ScoresAgent:
    """The trained RLModule as an arena agent: greedy over its masked action logits, or sampling."""
    from ray.rllib.core.columns import Columns

    def scores(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        batch = {Columns.OBS: {"observation": torch.from_numpy(obs).unsqueeze(0),
                               "action_mask": torch.from_numpy(mask.astype(np.float32)).unsqueeze(0)}}
        with torch.no_grad():
            out = module.forward_inference(batch)
        return out[Columns.ACTION_DIST_INPUTS][0].numpy()

    return ScoresAgent(scores, name, sample=sample)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", default="crowsnest")
    parser.add_argument("--iterations", type=int, default=8)
    parser.add_argument("--batch", type=int, default=2000, help="decisions per PPO iteration")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals per arena match")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    os.environ.setdefault("RAY_DEDUP_LOGS", "0")
    module, _ = train(args.variant, args.iterations, args.seed, args.batch)
    # greedy play of a PPO policy passes whenever "pass" outweighs every single bid level, however
    # much mass the bids hold together, so the sampled policy (what PPO trained) is reported too
    report(module_agent(module), deals=args.deals, seed=args.seed, variant=args.variant)
    report(module_agent(module, "rllib-ppo-sampled", sample=True), deals=args.deals, seed=args.seed,
           variant=args.variant)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
