"""PPO self-play with invalid-action masking; one network shared by all four seats.

Read top to bottom (CleanRL's ``ppo.py`` is the model). Seat-relative observations let one
actor-critic play any seat. Each update:

1. collect whole episodes (one hand, or one game) with ``SelfPlayCollector``: the learner
   holds one team (all four seats in pure self-play), the other team is drawn per episode
   from the opponent pool (current policy, past snapshots, heuristic; proportions in the config);
2. credit each seat's transitions with the rewards that land before its next decision
   (:func:`training.rollout.attribute_rewards`), then GAE per seat trajectory;
3. ``update_epochs`` passes of clipped PPO over shuffled minibatches.

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

import time
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from agents.networks import ActorCritic, masked_logits
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import layout_for

from .common import (
    OpponentPool,
    Run,
    loop_state,
    resume_run,
    seed_everything,
)
from .config import Config
from .losses import MaskedCategorical, compute_gae, explained_variance, ppo_loss
from .rollout import NetController, Rollout, SelfPlayCollector


def learner_controller(model: ActorCritic) -> NetController:
    """Samples from the masked policy; stores log-prob and value with each transition."""

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        with torch.no_grad():
            logits, value = model(torch.from_numpy(obs))
            dist = MaskedCategorical(logits, torch.from_numpy(masks))
            action = dist.sample()
            return action.numpy(), {"logprob": dist.log_prob(action).numpy(), "value": value.numpy()}

    def score(obs: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> dict[str, np.ndarray]:
        with torch.no_grad():
            logits, value = model(torch.from_numpy(obs))
            dist = MaskedCategorical(logits, torch.from_numpy(masks))
            return {"logprob": dist.log_prob(torch.from_numpy(actions)).numpy(), "value": value.numpy()}

    return NetController(act, "self_play", score)


def snapshot_controller(model: torch.nn.Module) -> NetController:
    """A past policy, sampling like the learner (no transitions kept)."""

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        with torch.no_grad():
            logits = masked_logits(model(torch.from_numpy(obs))[0], torch.from_numpy(masks))
            return torch.multinomial(torch.softmax(logits, -1), 1).squeeze(-1).numpy(), {}

    return NetController(act, "snapshot")


def rollout_scalars(r: Rollout) -> dict[str, float | None]:
    out: dict[str, float | None] = {
        "charts/episodic_return": float(np.mean(r.episode_returns)) if r.episode_returns else None,
        "charts/episodes": r.episodes,
        "charts/made_rate": r.made / r.declared if r.declared else None,
        "charts/truncated_episodes": r.truncated,
    }
    for opp, rets in r.opponent_returns.items():
        out[f"charts/return_vs_{opp}"] = float(np.mean(rets))
    return out


def train(cfg: Config, run_dir: str, resume: bool = False) -> dict[str, Any]:
    args = cfg.ppo
    # --- seeding (fixed order: python, numpy, torch; then everything drawn from them)
    seed_everything(cfg.seed, cfg.torch_threads)
    run = Run(cfg, run_dir, "ppo", resume=resume)
    variant = run.variant
    obs_size, num_actions = observation_layout(variant).size, layout_for(variant).num_actions

    # --- model, optimizer, opponents, collector
    spec = {"hidden": list(args.hidden)}
    model = ActorCritic(obs_size, num_actions, args.hidden)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate, eps=1e-5)
    pool = OpponentPool(cfg, snapshot_controller, seed=cfg.seed + 1)
    collector = SelfPlayCollector(variant, args.num_envs, cfg.seed + 2, **cfg.episode_options())
    learner = learner_controller(model)
    global_step = update = 0
    bc_done, bc_stats = cfg.bc_decisions == 0, {}
    if resume:
        global_step, update, extra = resume_run(run, model, optimizer, pool, collector)
        bc_done, bc_stats = bool(extra.get("bc_done", True)), dict(extra.get("bc", {}))

    def checkpoint_extra() -> dict[str, Any]:
        return {**loop_state(run, pool, collector), "bc_done": bc_done, "bc": bc_stats}

    # --- behaviour-cloning warm start (once per run)
    if not bc_done:
        bc_stats = warm_start(cfg, model, run)
        bc_done = True
        pool.add(run.snapshot(model, spec, global_step, update))
        run.save(run.payload(model, spec, optimizer, global_step, update, checkpoint_extra()))

    workers = None
    if cfg.backend == "ray":  # rollout workers as Ray actors, each with its share of the update
        from .ppo_workers import RayRolloutWorkers

        workers = RayRolloutWorkers(cfg)
    try:
        bar = tqdm(total=cfg.total_steps, initial=min(global_step, cfg.total_steps), disable=not cfg.progress,
                   unit="step", desc="ppo", dynamic_ncols=True)
        while global_step < cfg.total_steps and not run.out_of_time():
            update += 1
            t0 = time.time()
            if args.anneal_lr:
                frac = max(0.0, 1.0 - global_step / cfg.total_steps)
                optimizer.param_groups[0]["lr"] = frac * args.learning_rate

            # --- rollout
            model.eval()
            if workers is not None:
                ro = workers.collect(model, pool.paths, args.rollout_steps)
            else:
                ro = collector.collect(pool.assigner(learner), args.rollout_steps)
            global_step += len(ro)
            t_collect = time.time() - t0
            values = ro.extras["value"]
            if len(ro.bootstrap_index):  # truncated episodes: their return goes on past the cut
                with torch.no_grad():
                    ro.rewards[ro.bootstrap_index] += args.gamma * model(torch.from_numpy(ro.bootstrap_obs))[1].numpy()
            advantages, returns = compute_gae(ro.rewards, values, ro.dones, args.gamma, args.gae_lambda)

            # --- optimise policy and value
            model.train()
            b_obs, b_masks = torch.from_numpy(ro.obs), torch.from_numpy(ro.masks)
            b_actions = torch.from_numpy(ro.actions)
            b_logprobs, b_values = torch.from_numpy(ro.extras["logprob"]), torch.from_numpy(values)
            b_adv, b_ret = torch.from_numpy(advantages), torch.from_numpy(returns)
            n = len(ro)
            stats: dict[str, list[float]] = {}
            for _epoch in range(args.update_epochs):
                perm = torch.randperm(n)
                for start in range(0, n, args.minibatch_size):
                    mb = perm[start:start + args.minibatch_size]
                    loss, s = ppo_loss(model, b_obs[mb], b_masks[mb], b_actions[mb], b_logprobs[mb], b_adv[mb],
                                       b_ret[mb], b_values[mb], clip_coef=args.clip_coef, ent_coef=args.ent_coef,
                                       vf_coef=args.vf_coef, clip_vloss=args.clip_vloss, norm_adv=args.norm_adv)
                    optimizer.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                    optimizer.step()
                    for k, v in s.items():
                        stats.setdefault(k, []).append(v)
                if args.target_kl > 0 and np.mean(stats["approx_kl"][-1:]) > args.target_kl:
                    break

            # --- logging
            dt = time.time() - t0
            if update % cfg.log_interval == 0:
                scalars: dict[str, float | None] = {f"losses/{k}": float(np.mean(v)) for k, v in stats.items()}
                scalars["losses/explained_variance"] = explained_variance(values, returns)
                scalars.update(rollout_scalars(ro))
                scalars["charts/learning_rate"] = optimizer.param_groups[0]["lr"]
                scalars["charts/SPS"] = len(ro) / dt
                scalars["charts/env_SPS"] = ro.env_steps / dt
                scalars["charts/collect_fraction"] = t_collect / dt
                run.scalars(scalars, global_step)
            bar.update(min(global_step, cfg.total_steps) - bar.n)
            bar.set_postfix(ret=f"{np.mean(ro.episode_returns):+.3f}", sps=f"{len(ro) / dt:.0f}")

            # --- snapshots, checkpoints, evaluation
            run.after_update(model, spec, optimizer, global_step, update, pool, checkpoint_extra)
    finally:
        restarts = workers.restarts if workers is not None else 0
        if workers is not None:
            workers.close()
    bar.close()
    run.save(run.payload(model, spec, optimizer, global_step, update, checkpoint_extra()))
    run.close()
    return {"global_step": global_step, "update": update, "checkpoint": run.ckpt_path,
            "elapsed": time.time() - run.start, "actor_restarts": restarts}


def warm_start(cfg: Config, model: ActorCritic, run: Run) -> dict[str, float]:
    """Collect ``cfg.bc_decisions`` heuristic decisions and clone them into ``model``."""
    from .bc import behaviour_clone, collect_demonstrations

    t0 = time.time()
    demos = collect_demonstrations(run.variant, cfg.bc_decisions, cfg.seed + 3, num_envs=cfg.ppo.num_envs,
                                   gamma=cfg.ppo.gamma, progress=cfg.progress, **cfg.episode_options())
    t_collect = time.time() - t0
    stats = behaviour_clone(model, demos, epochs=cfg.bc_epochs, batch_size=cfg.bc_batch_size,
                            learning_rate=cfg.bc_learning_rate, fit_value=cfg.bc_value, vf_coef=cfg.ppo.vf_coef,
                            max_grad_norm=cfg.ppo.max_grad_norm, log=run.scalars, progress=cfg.progress)
    out = {**stats, "decisions": float(len(demos)), "episodes": float(demos.episodes),
           "collect_seconds": t_collect, "seconds": time.time() - t0}
    run.scalars({"charts/bc_decisions": out["decisions"], "charts/bc_seconds": out["seconds"]}, 0)
    return out
