"""PPO self-play with invalid-action masking; one network shared by all four seats.

Read top to bottom (CleanRL's ``ppo.py`` is the model). Seat-relative observations let one
actor-critic play any seat. Each update:

1. collect whole episodes (one hand, or one game) with the learner's :class:`~training.actor.Actor`
   (or, with ``backend: ray``, ``ppo.rollout_workers`` workers each collecting a share with the
   same weights): the learner holds one team (all four seats in pure self-play), the other team
   is drawn per episode from the opponent pool (current policy, past snapshots, heuristic;
   proportions in the config);
2. credit each seat's transitions with the rewards that land before its next decision
   (:func:`training.rollout.attribute_rewards`), bootstrap truncated episodes, then GAE per seat
   trajectory (:func:`advantages`);
3. ``update_epochs`` passes of clipped PPO over shuffled minibatches (:func:`optimise`).

With ``bc_decisions > 0`` the network first imitates the heuristic (:mod:`training.bc`):
policy by masked cross-entropy, value by the demonstration games' returns. It runs once per
run: the checkpoint written right after it records ``bc_done``, so ``--resume`` skips it.
The BC policy is also the first snapshot of the opponent pool (``update_000000``).

Metric tags: ``charts/`` (returns, SPS, learning rate), ``losses/`` (policy, value, entropy,
KL, clip fraction, explained variance), ``eval/`` (arena figures, snapshot rating);
``losses/bc_loss``, ``losses/bc_value_loss`` and ``charts/bc_accuracy`` for behaviour cloning
(x axis = BC epoch).
"""

from __future__ import annotations

import math
import time
from typing import Any, cast

import numpy as np
import torch
from torch import nn
from tqdm import tqdm

from agents.checkpoint import weights_copy
from agents.networks import ActorCritic

from .actor import Actor
from .config import Config, PPOArgs
from .losses import compute_gae, explained_variance, ppo_loss
from .rollout import Rollout, merge_rollouts, rollout_scalars
from .run import OnUpdate, Progress, Run, RunSpec, check_run_folder, resolve_run, seed_everything
from .workers import Workers


def train(cfg: Config, run_dir: str, resume: bool = False, on_update: OnUpdate | None = None) -> dict[str, Any]:
    """Train ``cfg`` (algo ppo) into ``run_dir``; ``on_update(Progress)`` after each update may stop the run."""
    args = cfg.ppo
    # --- seeding, the run resolved once, rollout workers (a bad Ray address fails before anything is written)
    seed_everything(cfg.seed, cfg.torch_threads)
    spec = resolve_run(cfg)
    check_run_folder(spec, run_dir, resume)
    workers = (Workers(Actor, (spec,), args.rollout_workers, seed=cfg.seed + 7, name="ppo", what="PPO rollout worker",
                       backend="ray", address=cfg.address) if cfg.backend == "ray" else None)
    try:
        run = Run(spec, run_dir)

        # --- model, optimizer, the learner's actor (its opponent pool and collector)
        model = cast(ActorCritic, spec.build_model()).to(spec.device)
        optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
        actor = Actor(spec, cfg.seed, model)
        global_step = update = 0
        bc_done, bc_stats = cfg.bc_decisions == 0, {}
        if resume:
            global_step, update, extra = run.resume(model, optimizer)
            actor.restore(extra, run_dir)
            bc_done, bc_stats = bool(extra.get("bc_done", True)), dict(extra.get("bc", {}))

        def checkpoint_extra() -> dict[str, Any]:
            return {**run.run_extra(), **actor.state(run_dir), "bc_done": bc_done, "bc": bc_stats}

        # --- behaviour-cloning warm start (once per run)
        if not bc_done:
            bc_stats, bc_done = warm_start(spec, model, run), True
            actor.pool.add(run.snapshot(model, global_step, update))
            run.save(run.payload(model, optimizer, global_step, update, checkpoint_extra()))

        bar = tqdm(total=cfg.total_steps, initial=min(global_step, cfg.total_steps), disable=not cfg.progress,
                   unit="step", desc="ppo", dynamic_ncols=True)
        while global_step < cfg.total_steps and not run.out_of_time():
            update += 1
            t0 = time.time()
            if args.anneal_lr:
                optimizer.param_groups[0]["lr"] = max(0.0, 1.0 - global_step / cfg.total_steps) * args.learning_rate

            # --- rollout, then advantages
            model.eval()
            ro = collect(actor, workers, args.rollout_steps)
            global_step += len(ro)
            t_collect = time.time() - t0
            adv, returns = advantages(model, ro, args, spec.device)

            # --- optimise policy and value
            model.train()
            stats = optimise(model, optimizer, ro, adv, returns, args, spec.device)

            # --- logging
            dt = time.time() - t0
            if update % cfg.log_interval == 0:
                run.scalars({**{f"losses/{k}": float(np.mean(v)) for k, v in stats.items()},
                             "losses/explained_variance": explained_variance(ro.extras["value"], returns),
                             **rollout_scalars(ro), "charts/learning_rate": optimizer.param_groups[0]["lr"],
                             "charts/SPS": len(ro) / dt, "charts/env_SPS": ro.env_steps / dt,
                             "charts/collect_fraction": t_collect / dt}, global_step)
            bar.update(min(global_step, cfg.total_steps) - bar.n)
            bar.set_postfix(ret=f"{np.mean(ro.episode_returns):+.3f}", sps=f"{len(ro) / dt:.0f}")

            # --- snapshots, checkpoints, evaluation
            run.after_update(model, optimizer, global_step, update, actor.pool, checkpoint_extra)
            if on_update is not None and on_update(Progress(update, global_step, workers)):
                break
        bar.close()
        restarts = workers.restarts if workers is not None else 0
    finally:
        if workers is not None:
            workers.close()
    summary = run.finish(model, optimizer, global_step, update, checkpoint_extra(), restarts)
    return {**summary, "bc": bc_stats}


def collect(actor: Actor, workers: Workers | None, steps: int) -> Rollout:
    """The update's rollout: collected here, or ``ceil(steps / n)`` decisions by each of n workers
    with the learner's current weights (on-policy: every share comes from the same weights)."""
    if workers is None:
        return actor.collect(steps)
    workers.publish(weights_copy(actor.model), actor.pool.paths)
    return merge_rollouts(workers.gather(math.ceil(steps / workers.size)))


def advantages(model: nn.Module, ro: Rollout, args: PPOArgs, device: str) -> tuple[np.ndarray, np.ndarray]:
    """GAE advantages and returns; a truncated episode's last reward gets ``gamma * V`` of the seat's
    observation at the cut (its return goes on past the cut)."""
    if len(ro.bootstrap_index):
        with torch.no_grad():
            tail = model(torch.from_numpy(ro.bootstrap_obs).to(device))[1].cpu().numpy()
        ro.rewards[ro.bootstrap_index] += args.gamma * tail
    return compute_gae(ro.rewards, ro.extras["value"], ro.dones, args.gamma, args.gae_lambda)


def optimise(model: ActorCritic, optimizer: torch.optim.Optimizer, ro: Rollout, adv: np.ndarray,
             returns: np.ndarray, args: PPOArgs, device: str) -> dict[str, list[float]]:
    """``update_epochs`` passes of clipped PPO over shuffled minibatches (early stop above ``target_kl``);
    each minibatch's statistics."""
    batch = [torch.from_numpy(x).to(device) for x in (ro.obs, ro.masks, ro.actions, ro.extras["logprob"], adv,
                                                       returns, ro.extras["value"])]
    stats: dict[str, list[float]] = {}
    for _epoch in range(args.update_epochs):
        perm = torch.randperm(len(ro))
        for start in range(0, len(ro), args.minibatch_size):
            mb = perm[start:start + args.minibatch_size].to(device)
            obs, masks, actions, logprobs, b_adv, b_ret, values = (x[mb] for x in batch)
            loss, s = ppo_loss(model, obs, masks, actions, logprobs, b_adv, b_ret, values, clip_coef=args.clip_coef,
                               ent_coef=args.ent_coef, vf_coef=args.vf_coef, clip_vloss=args.clip_vloss,
                               norm_adv=args.norm_adv)
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
            optimizer.step()
            for k, v in s.items():
                stats.setdefault(k, []).append(v)
        if args.target_kl > 0 and np.mean(stats["approx_kl"][-1:]) > args.target_kl:
            break
    return stats


def warm_start(spec: RunSpec, model: ActorCritic, run: Run) -> dict[str, float]:
    """Collect ``cfg.bc_decisions`` decisions of the teacher (``cfg.bc_teacher``, else the prior or
    the heuristic) and clone them into ``model``."""
    from .bc import BC_SHARDS, BC_VALUES, behaviour_clone, collect_demonstrations

    cfg = spec.cfg
    t0 = time.time()
    # a search teacher, or labels that play hands out, are slow: spread over the rollout workers
    shards = BC_SHARDS if cfg.bc_teacher or cfg.bc_target != "action" else 1
    demos = collect_demonstrations(spec.variant, cfg.bc_decisions, cfg.seed + 3, num_envs=cfg.ppo.num_envs,
                                   gamma=cfg.ppo.gamma, progress=cfg.progress, prior=cfg.ppo.prior,
                                   oracle=cfg.ppo.oracle_critic, teacher=cfg.bc_teacher, shards=shards,
                                   workers=cfg.ppo.rollout_workers, values=BC_VALUES[cfg.bc_target],
                                   behaviour=cfg.bc_behaviour, share=cfg.bc_behaviour_share,
                                   **cfg.episode_options())
    t_collect = time.time() - t0
    stats = behaviour_clone(model, demos, epochs=cfg.bc_epochs, batch_size=cfg.bc_batch_size,
                            learning_rate=cfg.bc_learning_rate, fit_value=cfg.bc_value, vf_coef=cfg.ppo.vf_coef,
                            max_grad_norm=cfg.ppo.max_grad_norm, log=run.scalars, progress=cfg.progress,
                            value_scale=cfg.bc_value_scale)
    out = {**stats, "decisions": float(len(demos)), "episodes": float(demos.episodes),
           "collect_seconds": t_collect, "seconds": time.time() - t0}
    run.scalars({"charts/bc_decisions": out["decisions"], "charts/bc_seconds": out["seconds"]}, 0)
    return out
