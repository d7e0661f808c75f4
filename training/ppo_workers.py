"""PPO rollout workers as Ray actors (``backend: ray``): each holds a copy of the policy, its own
opponent pool and :class:`~training.rollout.SelfPlayCollector`, and collects its share of an
update's decisions with the learner's current weights; the learner merges the shares and
optimises as usual (on-policy: every share is collected with the same weights).

Weights and pool snapshots travel through Ray's object store (no shared disk). A worker that
dies is replaced (fresh seed stream) and its share collected again; after ``MAX_RESTARTS``
replacements of one slot the run stops with :class:`~training.actors.ActorError`. A resumed
run starts fresh workers, so its collection is not bit-identical to an uninterrupted one
(the in-process backend's is).
"""

from __future__ import annotations

import math
import os
from typing import Any

import numpy as np
from torch import nn

from agents.checkpoint import weights_copy
from crowsnest_env.observation import observation_layout
from crowsnest_env.table import resolve_variant

from .actors import ActorError, actor_seed, next_generation
from .common import OpponentPool, seed_everything
from .config import Config
from .rollout import Rollout, SelfPlayCollector, merge_rollouts


class PPOWorker:
    """One rollout worker: policy copy, opponent pool and collector, all seeded from ``seed``."""

    def __init__(self, cfg: Config, seed: int):
        from agents.networks import ActorCritic
        from crowsnest_env.rules import layout_for

        from .ppo import snapshot_controller

        seed_everything(seed, 1)
        variant = resolve_variant(cfg.variant, cfg.crow)
        self.model = ActorCritic(observation_layout(variant).size, layout_for(variant).num_actions, cfg.ppo.hidden)
        self.pool = OpponentPool(cfg, snapshot_controller, seed=seed + 1)
        self.collector = SelfPlayCollector(variant, cfg.ppo.num_envs, seed + 2, **cfg.episode_options())

    def collect(self, weights: dict[str, Any], snapshots: dict[str, Any], min_steps: int) -> Rollout:
        from .ppo import learner_controller

        self.model.load_state_dict(weights)
        self.model.eval()
        for path, data in snapshots.items():
            if path not in self.pool.paths:
                if type(data).__name__ == "ObjectRef":  # refs nested in an argument are not resolved by Ray
                    import ray

                    data = ray.get(data)
                self.pool.add(path, data)
        return self.collector.collect(self.pool.assigner(learner_controller(self.model)), min_steps)


class RayRolloutWorkers:
    """``cfg.ppo.rollout_workers`` Ray actors collecting one update's rollout together."""

    def __init__(self, cfg: Config):
        import ray

        from agents.backends import connect_ray

        n = cfg.ppo.rollout_workers
        self._owned = connect_ray(cfg.address or None, max(os.cpu_count() or 1, n))
        self.cfg = cfg
        self.cls = ray.remote(num_cpus=1, max_restarts=0)(PPOWorker)
        self.handles: list[Any] = [None] * n
        self.sent: list[set[str]] = [set() for _ in range(n)]
        self.generation = [0] * n
        self.snapshots: dict[str, Any] = {}
        self.restarts = 0
        self.tag = f"crowsnest-ppo-{os.getpid()}-{id(self):x}"
        for slot in range(n):
            self._spawn(slot)

    def _spawn(self, slot: int) -> None:
        name = f"{self.tag}-{slot}-{self.generation[slot]}"
        seed = actor_seed(self.cfg.seed + 7, slot, self.generation[slot])
        self.handles[slot] = self.cls.options(name=name).remote(self.cfg, seed)
        self.sent[slot] = set()

    def collect(self, model: nn.Module, pool_paths: list[str], rollout_steps: int) -> Rollout:
        """The update's rollout: each worker collects ``ceil(rollout_steps / n)`` decisions."""
        import ray
        from ray.exceptions import RayActorError, RayTaskError

        from agents.checkpoint import read_checkpoint

        weights = ray.put(weights_copy(model))
        self.snapshots = {p: self.snapshots.get(p) or ray.put(read_checkpoint(p)) for p in pool_paths}
        share = math.ceil(rollout_steps / len(self.handles))
        pending = {self._call(slot, weights, share): slot for slot in range(len(self.handles))}
        parts: dict[int, Rollout] = {}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in done:
                slot = pending.pop(ref)
                try:
                    part = ray.get(ref)
                except RayActorError as err:
                    self._replace(slot, err)
                    pending[self._call(slot, weights, share)] = slot
                    continue
                except RayTaskError as err:
                    raise ActorError(f"PPO Ray worker {slot} failed:\n{err}") from None
                parts[slot] = _writable(part)
        return merge_rollouts([parts[s] for s in sorted(parts)])

    def _call(self, slot: int, weights: Any, share: int) -> Any:
        new = {p: ref for p, ref in self.snapshots.items() if p not in self.sent[slot]}
        self.sent[slot].update(new)
        return self.handles[slot].collect.remote(weights, new, share)

    def _replace(self, slot: int, err: Exception) -> None:
        next_generation(self.generation, slot, "PPO Ray worker", err)
        self.restarts += 1
        self._spawn(slot)

    def close(self) -> None:
        import ray

        for handle in self.handles:
            ray.kill(handle)
        if self._owned:
            ray.shutdown()
            self._owned = False


def _writable(ro: Rollout) -> Rollout:
    """Ray hands numpy arrays over read-only (zero copy); the learner writes into rewards."""
    for name in ("obs", "masks", "actions", "rewards", "dones", "bootstrap_index", "bootstrap_obs"):
        arr = getattr(ro, name)
        if isinstance(arr, np.ndarray) and not arr.flags.writeable:
            setattr(ro, name, arr.copy())
    ro.extras = {k: v.copy() if not v.flags.writeable else v for k, v in ro.extras.items()}
    return ro


__all__ = ["PPOWorker", "RayRolloutWorkers"]
