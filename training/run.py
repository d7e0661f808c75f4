"""One training run: its config resolved once, the fixed seeding, the run folder and resuming.

:func:`resolve_run` turns a :class:`~training.config.Config` into a :class:`RunSpec` (the rules, the
network's sizes and ``model_spec``, the device): the learner, its in-process actor and every
worker take that object, so nothing in a run resolves the config again (a variant YAML file is
read once, also for Ray workers on other machines).

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

Nothing is written before :func:`check_run_folder` has passed: a resume must fit its checkpoint,
and a fresh run never writes over a run folder that holds a checkpoint.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import torch
from torch import nn

from agents.networks import build_model
from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import Variant, layout_for
from crowsnest_env.table import resolve_variant

from .checkpoint import load_checkpoint, make_payload, restore_rng, save_checkpoint
from .config import Config, ConfigError, resolve_device, save_config
from .pool import OpponentPool
from .rollout import oracle_size

if TYPE_CHECKING:
    from .workers import Workers


@dataclass(frozen=True)
class RunSpec:
    """A config resolved once: rules, network sizes and spec, device (picklable, for the workers)."""

    cfg: Config
    variant: Variant
    obs_size: int
    num_actions: int
    model_spec: dict[str, Any]
    device: str
    """where the learner trains: cpu or cuda (``device: auto`` resolved)"""

    @property
    def algo(self) -> str:
        return self.cfg.algo

    @property
    def num_envs(self) -> int:
        """Games an actor steps side by side (the algorithm section's ``num_envs``)."""
        return self.cfg.ppo.num_envs if self.algo == "ppo" else self.cfg.dmc.num_envs

    def build_model(self) -> nn.Module:
        """A freshly initialised network of this run (from torch's global generator), on the CPU."""
        return build_model(self.algo, self.obs_size, self.num_actions, self.model_spec)


def resolve_run(cfg: Config) -> RunSpec:
    """The :class:`RunSpec` of ``cfg``: the one place a run resolves its variant, network and device."""
    variant = resolve_variant(cfg.variant, cfg.crow)
    model_spec = cfg.model_spec()
    if cfg.algo == "ppo" and cfg.ppo.oracle_critic:  # its width is the deck's (training.rollout.oracle_columns)
        model_spec["oracle_size"] = oracle_size(variant.deck_size)
    return RunSpec(cfg, variant, observation_layout(variant).size, layout_for(variant).num_actions,
                   model_spec, resolve_device(cfg.device))


def seed_everything(seed: int, threads: int) -> None:
    """The fixed seeding block: python, numpy, torch; deterministic kernels."""
    os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")  # deterministic cuBLAS (read when CUDA starts)
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)
    torch.set_num_threads(max(1, threads))
    torch.use_deterministic_algorithms(True, warn_only=True)


@dataclass(frozen=True)
class Progress:
    """What a trainer's ``on_update`` hook sees after each update (it returns True to stop the run there,
    as if the step budget were spent: the final checkpoint is still written)."""

    update: int
    global_step: int
    workers: Workers | None
    """the run's worker group (DMC actors, PPO rollout workers), None when collecting in-process"""


OnUpdate = Callable[[Progress], "bool | None"]


# ----------------------------------------------------------------------------- the folder
def check_run_folder(spec: RunSpec, run_dir: str, resume: bool) -> None:
    """Before anything is written: ``run_dir`` can hold this run. A resume needs a checkpoint that fits
    the config (:func:`check_resume`); a fresh run refuses a folder that holds a run's checkpoint."""
    if os.path.exists(run_dir) and not os.path.isdir(run_dir):
        raise NotADirectoryError(f"run folder {run_dir!r} exists and is not a folder")
    if resume:
        check_resume(spec, run_dir)
    elif os.path.exists(os.path.join(run_dir, "checkpoint.pt")):
        raise FileExistsError(f"run folder {run_dir!r} holds a run already (checkpoint.pt): --resume continues "
                              f"it; a new run needs another --out")


def check_resume(spec: RunSpec, run_dir: str) -> None:
    """That ``run_dir``'s checkpoint can resume ``spec``: same trainer, same rules, same network, same
    number of games. FileNotFoundError, CheckpointError or ConfigError naming the difference."""
    path = os.path.join(run_dir, "checkpoint.pt")
    if not os.path.isfile(path):
        raise FileNotFoundError(f"--resume: no checkpoint at {path}")
    data = load_checkpoint(path, spec.variant, spec.algo)
    saved = {k: (list(v) if isinstance(v, (list, tuple)) else v) for k, v in data["model_spec"].items()}
    if saved != spec.model_spec:
        raise ConfigError(f"cannot resume {path}: the config's network {spec.model_spec} differs from the "
                          f"checkpoint's {dict(data['model_spec'])} (change {spec.algo}.hidden/action_embed, "
                          f"ppo.prior/prior_weight or ppo.oracle_critic back, or start a new run)")
    games = data.get("extra", {}).get("collector", {}).get("games")
    if isinstance(games, list) and len(games) != spec.num_envs:
        raise ConfigError(f"cannot resume {path}: {spec.algo}.num_envs is {spec.num_envs}; the checkpoint's run "
                          f"used {len(games)}")


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


class Run:
    """The run folder, TensorBoard writer, wall clock, checkpoints and interval evaluations.

    Creating it is the run's first write (``config.yaml``, ``snapshots/``, ``tb/``): call
    :func:`check_run_folder` first."""

    def __init__(self, spec: RunSpec, run_dir: str):
        from torch.utils.tensorboard import SummaryWriter  # tensorboard loads in the learner only, not in workers

        self.spec, self.cfg, self.dir = spec, spec.cfg, run_dir
        os.makedirs(os.path.join(run_dir, "snapshots"), exist_ok=True)
        save_config(self.cfg, os.path.join(run_dir, "config.yaml"))
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
    def payload(self, model: nn.Module, optimizer: torch.optim.Optimizer | None, step: int, update: int,
                extra: dict[str, Any] | None = None) -> dict[str, Any]:
        """A checkpoint of the run (an agent file when ``optimizer`` is None)."""
        return make_payload(algo=self.spec.algo, model=model, model_spec=self.spec.model_spec,
                            variant=self.spec.variant, cfg=self.cfg, optimizer=optimizer, global_step=step,
                            update=update, extra=extra)

    def save(self, payload: dict[str, Any]) -> None:
        save_checkpoint(self.ckpt_path, payload)

    def snapshot(self, model: nn.Module, step: int, update: int) -> str:
        """An agent checkpoint (no optimizer) of the current policy under snapshots/."""
        path = os.path.join(self.dir, "snapshots", f"update_{update:06d}.pt")
        save_checkpoint(path, self.payload(model, None, step, update))
        return path

    def after_update(self, model: nn.Module, optimizer: torch.optim.Optimizer, step: int, update: int,
                     pool: OpponentPool, extra: Callable[[], dict[str, Any]]) -> None:
        """What both trainers do after an update, at the config's intervals: a snapshot into the
        opponent pool, an arena evaluation, a checkpoint (``extra()``: the loop's own state)."""
        cfg, snap = self.cfg, None
        if update % cfg.snapshot_interval == 0:
            snap = self.snapshot(model, step, update)
            pool.add(snap)
        if cfg.eval_interval and update % cfg.eval_interval == 0:
            self.evaluate(snap or self.snapshot(model, step, update), step)
        if update % cfg.checkpoint_interval == 0:
            self.save(self.payload(model, optimizer, step, update, extra()))

    def resume(self, model: nn.Module, optimizer: torch.optim.Optimizer) -> tuple[int, int, dict[str, Any]]:
        """Load checkpoint.pt into model and optimizer and restore the RNGs; (global_step, update, extra)."""
        data = load_checkpoint(self.ckpt_path, self.spec.variant, self.spec.algo)
        model.load_state_dict(data["model"])
        optimizer.load_state_dict(data["optimizer"])
        restore_rng(data["rng"])
        extra = data.get("extra", {})
        self.rating_matches = [tuple(m) for m in extra.get("rating_matches", [])]
        self.rated = list(extra.get("rated", []))
        # training time counts across a kill and a resume (to the last checkpoint): the report's
        # minutes and max_wall_time are the run's, not this process's
        self.start = time.time() - float(extra.get("elapsed", 0.0))
        return data["global_step"], data["update"], extra

    def run_extra(self) -> dict[str, Any]:
        return {"rating_matches": [list(m) for m in self.rating_matches], "rated": list(self.rated),
                "elapsed": time.time() - self.start}

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, snapshot_path: str, step: int) -> dict[str, Any]:
        """Arena vs random and heuristic (and the previous evaluated snapshot, and ``cfg.opponent_agent`` as
        ``agent``), logged under eval/."""
        from .evaluate import arena_scalars, evaluate_agent, rate_snapshots

        cfg = self.cfg
        if cfg.eval_deals <= 0:
            return {}
        name = os.path.splitext(os.path.basename(snapshot_path))[0]
        me = "checkpoint:" + snapshot_path
        opponents = ["random", "heuristic"]
        prev = self.rated[-1] if (cfg.rate_snapshots and self.rated) else None
        if prev is not None:
            opponents.append("checkpoint:" + os.path.join(self.dir, "snapshots", prev + ".pt"))
        results = evaluate_agent(me, opponents, cfg, cfg.eval_deals, workers=1)
        same = cfg.opponent_agent if cfg.opponent_agent in ("random", "heuristic") else None
        if cfg.opponent_agent:  # keyed "agent" whatever its name (a checkpoint's short name could be "random")
            results["agent"] = results[same] if same else next(iter(evaluate_agent(
                me, [cfg.opponent_agent], cfg, cfg.eval_deals, workers=1).values()))
        self.scalars(arena_scalars(results), step)
        if cfg.rate_snapshots:  # each pairing once (the agent under its own name when it is random or heuristic)
            ratings = rate_snapshots(self, name, {k: v for k, v in results.items() if k != "agent" or not same})
            mine = next(r for r in ratings if r["agent"] == name)
            self.scalars({"eval/rating_ordinal": mine["ordinal"], "eval/rating_mu": mine["mu"]}, step)
            atomic_write_text(os.path.join(self.dir, "ratings.json"),
                              json.dumps({"step": step, "ratings": ratings}, indent=2))
        return results

    def close(self) -> None:
        self.writer.flush()
        self.writer.close()

    def finish(self, model: nn.Module, optimizer: torch.optim.Optimizer, step: int, update: int,
               extra: dict[str, Any], restarts: int) -> dict[str, Any]:
        """The last checkpoint, the TensorBoard writer closed, and the trainer's summary (both trainers end here)."""
        self.save(self.payload(model, optimizer, step, update, extra))
        self.close()
        return {"global_step": step, "update": update, "checkpoint": self.ckpt_path,
                "elapsed": time.time() - self.start, "actor_restarts": restarts}


__all__ = ["OnUpdate", "Progress", "Run", "RunSpec", "check_resume", "check_run_folder", "in_run", "resolve_run",
           "run_relative", "seed_everything"]
