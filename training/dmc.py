"""Deep Monte-Carlo (DouZero) self-play: a Q(s, a) network regressed on Monte-Carlo returns.

Read top to bottom. Actors (:class:`~training.actor.Actor`: the collector and opponent pool PPO
uses too) play with an epsilon-greedy policy over Q of the legal actions (:mod:`training.policies`);
each learner transition's rewards become its Monte-Carlo return, and the learner regresses
Q(s, a) on the returns with MSE.

``dmc.num_actors = 0`` collects in the learner's process (deterministic; used by the tests);
``N > 0`` runs N actors under the worker layer (:class:`~training.workers.Workers`: spawned
processes, or Ray actors with ``backend: ray``), each collecting its next batch while the learner
trains on the last; the learner publishes its weights and pool every ``sync_interval`` updates.
"""

from __future__ import annotations

import time
from typing import Any, cast

import numpy as np
import torch
from tqdm import tqdm

from agents.checkpoint import weights_copy
from agents.networks import QNet

from .actor import Actor
from .config import Config
from .losses import dmc_loss, mc_returns
from .rollout import Rollout, rollout_scalars
from .run import OnUpdate, Progress, Run, check_run_folder, resolve_run, seed_everything
from .workers import Workers


def train(cfg: Config, run_dir: str, resume: bool = False, on_update: OnUpdate | None = None) -> dict[str, Any]:
    """Train ``cfg`` (algo dmc) into ``run_dir``; ``on_update(Progress)`` after each update may stop the run."""
    args = cfg.dmc
    # --- seeding, the run resolved once, the actors (a bad Ray address fails before anything is written)
    seed_everything(cfg.seed, cfg.torch_threads)
    spec = resolve_run(cfg)
    check_run_folder(spec, run_dir, resume)
    workers = (Workers(Actor, (spec,), args.num_actors, seed=cfg.seed, name="dmc", what="DMC actor",
                       backend=cfg.backend, address=cfg.address) if args.num_actors > 0 else None)
    try:
        run = Run(spec, run_dir)

        # --- model, optimizer, the learner's own actor (its opponent pool; in-process collection)
        model = cast(QNet, spec.build_model()).to(spec.device)
        optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
        actor = Actor(spec, cfg.seed, model)
        global_step = update = 0
        if resume:
            global_step, update, extra = run.resume(model, optimizer)
            actor.restore(extra, run_dir)

        def checkpoint_extra() -> dict[str, Any]:
            return {**run.run_extra(), **actor.state(run_dir)}

        if workers is not None:
            workers.publish(weights_copy(model), actor.pool.paths)
            for slot in range(workers.size):
                workers.submit(slot, args.rollout_steps)

        bar = tqdm(total=cfg.total_steps, initial=min(global_step, cfg.total_steps), disable=not cfg.progress,
                   unit="step", desc="dmc", dynamic_ncols=True)
        while global_step < cfg.total_steps and not run.out_of_time():
            t0 = time.time()
            # --- data: the next actor's batch (that actor starts its next one), or collected here
            if workers is None:
                ro = actor.collect(args.rollout_steps)
            else:
                slot, ro = workers.next()
                workers.submit(slot, args.rollout_steps)
            t_data = time.time() - t0
            update += 1
            global_step += len(ro)

            # --- regress Q(s, a) on the Monte-Carlo returns
            returns = mc_returns(ro.rewards, ro.dones, args.gamma)
            losses = regress(model, optimizer, ro, returns, cfg, spec.device)
            if workers is not None and update % args.sync_interval == 0:
                workers.publish(weights_copy(model), actor.pool.paths)

            # --- logging
            dt = time.time() - t0
            if update % cfg.log_interval == 0:
                run.scalars({"losses/value_loss": float(np.mean(losses)) if losses else None,
                             "charts/SPS": len(ro) / dt, "charts/env_SPS": ro.env_steps / dt,
                             "charts/data_wait_fraction": t_data / dt, "charts/epsilon": args.epsilon,
                             "charts/mean_return_target": float(returns.mean()) if len(ro) else None,
                             **rollout_scalars(ro)}, global_step)
            bar.update(min(global_step, cfg.total_steps) - bar.n)

            # --- snapshots, checkpoints, evaluation
            model.eval()
            run.after_update(model, optimizer, global_step, update, actor.pool, checkpoint_extra)
            if on_update is not None and on_update(Progress(update, global_step, workers)):
                break
        bar.close()
        restarts = workers.restarts if workers is not None else 0
    finally:
        if workers is not None:
            workers.close()
    return run.finish(model, optimizer, global_step, update, checkpoint_extra(), restarts)


def regress(model: QNet, optimizer: torch.optim.Optimizer, ro: Rollout, returns: np.ndarray,
            cfg: Config, device: str) -> list[float]:
    """One pass of shuffled minibatches of MSE between Q(s, a) and the returns; the losses."""
    args = cfg.dmc
    obs, actions = torch.from_numpy(ro.obs).to(device), torch.from_numpy(ro.actions).to(device)
    targets = torch.from_numpy(returns).to(device)
    perm = torch.randperm(len(ro))
    losses = []
    for start in range(0, len(ro), args.batch_size):
        mb = perm[start:start + args.batch_size].to(device)
        loss = dmc_loss(model, obs[mb], actions[mb], targets[mb])
        optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
        optimizer.step()
        losses.append(loss.item())
    return losses
