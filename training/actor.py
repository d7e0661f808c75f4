"""The collecting actor: a policy network, its opponent pool and its collector, seeded from one seed.

Both trainers collect through an :class:`Actor`. In the learner's process it acts with the
learner's own network, on the learner's device (pool seed ``seed + 1``, collector ``seed + 2``);
its pool and collector are also what a checkpoint keeps of the loop. Under the worker layer
(:class:`training.workers.Workers`: DMC actors, PPO rollout workers) each worker is an Actor with
its own CPU copy of the network, seeded by its own seed, that every call refreshes.
"""

from __future__ import annotations

from typing import Any

from torch import nn

from .checkpoint import random_state
from .policies import learner_policy, snapshot_policy
from .pool import OpponentPool
from .rollout import Rollout, SelfPlayCollector
from .run import RunSpec, in_run, run_relative, seed_everything


class Actor:
    """Collects rollouts of ``spec``'s game with ``model`` (None: a worker, with its own seeded copy)."""

    def __init__(self, spec: RunSpec, seed: int, model: nn.Module | None = None):
        device = spec.device
        if model is None:  # a worker: its own seeding, a CPU copy of the network
            seed_everything(seed, 1)
            model, device = spec.build_model(), "cpu"
        self.spec, self.model = spec, model
        cfg = spec.cfg
        self.pool = OpponentPool(cfg, snapshot_policy(cfg, device), seed=seed + 1)
        prior = cfg.ppo.prior if cfg.algo == "ppo" else ""  # a residual policy's rule agent (agents.prior)
        oracle = cfg.algo == "ppo" and cfg.ppo.oracle_critic  # the value network's extra columns
        self.collector = SelfPlayCollector(spec.variant, spec.num_envs, seed + 2, prior=prior, oracle=oracle,
                                           **cfg.episode_options())
        self.learner = learner_policy(cfg, model, device)

    def collect(self, steps: int, weights: dict[str, Any] | None = None,
                snapshots: dict[str, Any] | None = None) -> Rollout:
        """Whole episodes with at least ``steps`` learner decisions. A worker's call first loads new
        ``weights`` and adds new pool ``snapshots`` (path -> checkpoint data, or None to read the file)."""
        if weights is not None:
            self.model.load_state_dict(weights)
            self.model.eval()
        for path, data in (snapshots or {}).items():
            if path not in self.pool.paths:
                self.pool.add(path, data)
        return self.collector.collect(self.pool.assigner(self.learner), steps)

    # ------------------------------------------------------------------ resume
    def state(self, run_dir: str) -> dict[str, Any]:
        """What a checkpoint keeps of the loop: the pool's snapshots (run-relative) and generators."""
        return {"pool": [run_relative(run_dir, p) for p in self.pool.paths], "pool_rng": self.pool.rng.getstate(),
                "collector": self.collector.get_state()}

    def restore(self, state: dict[str, Any], run_dir: str) -> None:
        """Back to :meth:`state` (the snapshots read again from the run folder)."""
        for path in state.get("pool", []):
            self.pool.add(in_run(run_dir, path))
        self.pool.rng.setstate(random_state(state["pool_rng"]))
        self.collector.set_state(state["collector"])


__all__ = ["Actor"]
