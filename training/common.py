"""What both trainers share: the run folder, seeding, the opponent pool, checkpoints, evaluation.

Run folder layout (``runs/<name>/``):

| path               | content                                                     |
|--------------------|-------------------------------------------------------------|
| config.yaml        | the resolved config                                         |
| tb/                | TensorBoard event files                                     |
| checkpoint.pt      | latest full checkpoint (weights, optimizer, RNG, step)      |
| snapshots/*.pt     | agent checkpoints of past policies (opponent pool, ratings) |
| ratings.json       | openskill ratings of the evaluated snapshots                |
| eval.json, report.md, *.png | final arena results and the report                 |
| baseline.json      | the heuristic vs random on the final evaluation's deals     |
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch
from torch import nn
from torch.utils.tensorboard import SummaryWriter

from agents.checkpoint import model_from_checkpoint, read_checkpoint
from crowsnest_env.agent import RandomAgent
from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.rules import Variant
from crowsnest_env.table import resolve_variant

from .checkpoint import load_checkpoint, make_payload, restore_rng, save_checkpoint
from .config import Config, save_config
from .rollout import AgentController, AuctionTeacher, NetController, SelfPlayCollector

OPPONENT_KINDS = ("self_play", "snapshot", "heuristic", "random")


def seed_everything(seed: int, threads: int) -> None:
    """The fixed seeding block: python, numpy, torch; deterministic CPU kernels."""
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_num_threads(max(1, threads))
    torch.use_deterministic_algorithms(True, warn_only=True)


class OpponentPool:
    """Draws the opponent team per episode from the config's mix; keeps past snapshots.

    Snapshots are drawn uniformly from the whole pool (not just the newest), so the policy
    keeps facing the strategies it has already beaten instead of chasing its own tail. One
    snapshot is drawn per :meth:`assigner` (per rollout) and plays every snapshot episode of
    that rollout: one batched forward pass per step instead of one per snapshot (with 20
    snapshots, drawing per episode made collection 25% slower); the pool still varies from
    one update to the next.
    """

    def __init__(self, cfg: Config, make_snapshot: Callable[[nn.Module], NetController], seed: int):
        mix = cfg.opponents
        self.weights = [mix.self_play, mix.snapshot, mix.heuristic, mix.random]
        self.make_snapshot = make_snapshot
        self.size = cfg.pool_size
        self.rng = random.Random(seed)
        self.paths: list[str] = []
        self.snapshots: list[NetController] = []
        self.fixed: dict[str, AgentController] = {}
        self.teacher_auction, self.teacher_train = cfg.teacher_auction, cfg.teacher_train
        if mix.heuristic > 0 or cfg.teacher_auction > 0:
            from agents.heuristic import HeuristicAgent

            self.fixed["heuristic"] = AgentController(HeuristicAgent(seed=seed), "heuristic")
        if mix.random > 0:
            self.fixed["random"] = AgentController(RandomAgent(seed=seed), "random")

    def add(self, path: str, data: dict[str, Any] | None = None) -> None:
        """Add the snapshot at ``path`` (``data``: its already-read checkpoint, e.g. on a remote actor)."""
        model = model_from_checkpoint(data if data is not None else read_checkpoint(path))
        self.paths.append(path)
        self.snapshots.append(self.make_snapshot(model))
        if len(self.paths) > self.size:
            self.paths.pop(0)
            self.snapshots.pop(0)

    def assigner(self, learner: NetController) -> Callable[[int], tuple[list[Any], tuple[int, ...]]]:
        """The collector's per-episode callback: controllers per seat and the learner's seats
        (a fresh one per rollout; it draws this rollout's snapshot)."""
        snapshot = self.rng.choice(self.snapshots) if self.snapshots else None

        def assign(_: int) -> tuple[list[Any], tuple[int, ...]]:
            kind = self.rng.choices(OPPONENT_KINDS, weights=self.weights)[0]
            if kind == "snapshot" and snapshot is None:
                kind = "self_play"
            me: Any = learner
            if self.teacher_auction > 0 and self.rng.random() < self.teacher_auction:
                me = AuctionTeacher(self.fixed["heuristic"], learner, record=self.teacher_train)
            if kind == "self_play":
                return [me] * 4, (0, 1, 2, 3)
            opp = snapshot if kind == "snapshot" else self.fixed[kind]
            team = self.rng.randrange(2)
            ctrl = [me if s % 2 == team else opp for s in range(4)]
            return ctrl, (team, team + 2)

        return assign


class Run:
    """The run folder, TensorBoard writer, wall clock, checkpoints and interval evaluations."""

    def __init__(self, cfg: Config, run_dir: str, algo: str, resume: bool = False):
        if resume:  # before anything in the run folder is written
            check_resume(cfg, run_dir)
        self.cfg, self.dir, self.algo = cfg, run_dir, algo
        self.variant: Variant = resolve_variant(cfg.variant, cfg.crow)
        os.makedirs(os.path.join(run_dir, "snapshots"), exist_ok=True)
        save_config(cfg, os.path.join(run_dir, "config.yaml"))
        self.writer = SummaryWriter(os.path.join(run_dir, "tb"))
        self.start = time.time()
        self.ckpt_path = os.path.join(run_dir, "checkpoint.pt")
        self.rating_matches: list[tuple[str, str, float]] = []
        self.rated: list[str] = []

    def out_of_time(self) -> bool:
        cap = self.cfg.max_wall_time
        return cap > 0 and time.time() - self.start >= cap

    def scalars(self, values: Mapping[str, float | None], step: int) -> None:
        for tag, v in values.items():
            if v is not None and np.isfinite(v):
                self.writer.add_scalar(tag, v, step)

    # ----------------------------------------------------------------- checkpoints
    def payload(self, model: nn.Module, spec: dict[str, Any], optimizer: torch.optim.Optimizer | None,
                step: int, update: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
        return make_payload(algo=self.algo, model=model, model_spec=spec, variant=self.variant, cfg=self.cfg,
                            optimizer=optimizer, global_step=step, update=update, extra=extra)

    def save(self, payload: dict[str, Any]) -> None:
        save_checkpoint(self.ckpt_path, payload)

    def snapshot(self, model: nn.Module, spec: dict[str, Any], step: int, update: int) -> str:
        """An agent checkpoint (no optimizer) of the current policy under snapshots/."""
        path = os.path.join(self.dir, "snapshots", f"update_{update:06d}.pt")
        save_checkpoint(path, self.payload(model, spec, None, step, update))
        return path

    def after_update(self, model: nn.Module, spec: dict[str, Any], optimizer: torch.optim.Optimizer, step: int,
                     update: int, pool: OpponentPool, extra: Callable[[], dict[str, Any]],
                     on_snapshot: Callable[[], None] | None = None) -> None:
        """What both trainers do after an update, at the config's intervals: a snapshot into the
        opponent pool, an arena evaluation, a checkpoint."""
        cfg, snap = self.cfg, None
        if update % cfg.snapshot_interval == 0:
            snap = self.snapshot(model, spec, step, update)
            pool.add(snap)
            if on_snapshot is not None:
                on_snapshot()
        if cfg.eval_interval and update % cfg.eval_interval == 0:
            self.evaluate(snap or self.snapshot(model, spec, step, update), step)
        if update % cfg.checkpoint_interval == 0:
            self.save(self.payload(model, spec, optimizer, step, update, extra()))

    def resume(self, model: nn.Module, optimizer: torch.optim.Optimizer) -> dict[str, Any]:
        """Load checkpoint.pt into model and optimizer, restore the RNGs; returns the checkpoint."""
        data = load_checkpoint(self.ckpt_path, self.variant, self.algo)
        model.load_state_dict(data["model"])
        optimizer.load_state_dict(data["optimizer"])
        restore_rng(data["rng"])
        extra = data.get("extra", {})
        self.rating_matches = [tuple(m) for m in extra.get("rating_matches", [])]
        self.rated = list(extra.get("rated", []))
        return data

    def run_extra(self) -> dict[str, Any]:
        return {"rating_matches": [list(m) for m in self.rating_matches], "rated": list(self.rated),
                "elapsed": time.time() - self.start}

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, snapshot_path: str, step: int) -> dict[str, Any]:
        """Arena vs random and heuristic (and the previous evaluated snapshot), logged under eval/."""
        from .evaluate import arena_scalars, evaluate_agent, rate_snapshots

        cfg = self.cfg
        if cfg.eval_deals <= 0:
            return {}
        name = os.path.splitext(os.path.basename(snapshot_path))[0]
        opponents = ["random", "heuristic"]
        prev = self.rated[-1] if (cfg.rate_snapshots and self.rated) else None
        if prev is not None:
            opponents.append("checkpoint:" + os.path.join(self.dir, "snapshots", prev + ".pt"))
        results = evaluate_agent("checkpoint:" + snapshot_path, opponents, cfg, cfg.eval_deals, workers=1)
        self.scalars(arena_scalars(results), step)
        if cfg.rate_snapshots:
            ratings = rate_snapshots(self, name, results)
            mine = next(r for r in ratings if r["agent"] == name)
            self.scalars({"eval/rating_ordinal": mine["ordinal"], "eval/rating_mu": mine["mu"]}, step)
            atomic_write_text(os.path.join(self.dir, "ratings.json"),
                              json.dumps({"step": step, "ratings": ratings}, indent=2))
        return results

    def close(self) -> None:
        self.writer.flush()
        self.writer.close()


def resume_run(run: Run, model: nn.Module, optimizer: torch.optim.Optimizer, pool: OpponentPool,
               collector: SelfPlayCollector) -> tuple[int, int, dict[str, Any]]:
    """Load the run's checkpoint into model, optimizer, opponent pool and collector.

    Returns (global_step, update, extra) so a trainer can restore its own fields from ``extra``.
    """
    from .checkpoint import _tuplify

    data = run.resume(model, optimizer)
    extra = data["extra"]
    for p in extra.get("pool", []):
        pool.add(in_run(run.dir, p))
    pool.rng.setstate(_tuplify(extra["pool_rng"]))
    collector.set_state(extra["collector"])
    return data["global_step"], data["update"], extra


def loop_state(run: Run, pool: OpponentPool, collector: SelfPlayCollector) -> dict[str, Any]:
    """What a checkpoint needs, beyond weights and optimizer, to resume the loop exactly."""
    return {**run.run_extra(), "pool": [run_relative(run.dir, p) for p in pool.paths], "pool_rng": pool.rng.getstate(),
            "collector": collector.get_state()}



def run_relative(run_dir: str, path: str) -> str:
    """``path`` as stored in a checkpoint: relative to the run folder when inside it, so that a
    run folder can move (or be resumed from another working directory)."""
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(run_dir))
    return path if rel.startswith(os.pardir) else rel.replace(os.sep, "/")


def in_run(run_dir: str, stored: str) -> str:
    """A path read from a checkpoint, resolved against the run folder (absolute paths as they are;
    checkpoints written before paths were run-relative stored them relative to the start directory)."""
    if os.path.isabs(stored):
        return stored
    inside = os.path.join(run_dir, stored)
    return stored if not os.path.exists(inside) and os.path.exists(stored) else inside


def model_spec_of(cfg: Config) -> dict[str, Any]:
    """The ``model_spec`` the trainers build from ``cfg`` (what a checkpoint's must equal to resume)."""
    if cfg.algo == "ppo":
        return {"hidden": list(cfg.ppo.hidden)}
    return {"hidden": list(cfg.dmc.hidden), "action_embed": cfg.dmc.action_embed}


def check_resume(cfg: Config, run_dir: str) -> None:
    """Check, before anything in ``run_dir`` is written, that its checkpoint can resume ``cfg``:
    same trainer, same rules, same network, same number of games. CheckpointError / ConfigError."""
    from .config import ConfigError

    path = os.path.join(run_dir, "checkpoint.pt")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"--resume: no checkpoint at {path}")
    data = load_checkpoint(path, resolve_variant(cfg.variant, cfg.crow), cfg.algo)
    spec, want = data["model_spec"], model_spec_of(cfg)
    if {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in spec.items()} != want:
        raise ConfigError(f"cannot resume {path}: the config's network {want} differs from the checkpoint's "
                          f"{dict(spec)} (change {cfg.algo}.hidden/action_embed back, or start a new run)")
    games = data.get("extra", {}).get("collector", {}).get("games")
    num_envs = getattr(cfg, cfg.algo).num_envs
    if isinstance(games, list) and len(games) != num_envs:
        raise ConfigError(f"cannot resume {path}: {cfg.algo}.num_envs is {num_envs}; the checkpoint's run "
                          f"used {len(games)}")
