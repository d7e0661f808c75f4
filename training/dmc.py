"""Deep Monte-Carlo (DouZero) self-play: a Q(s, a) network regressed on Monte-Carlo returns.

Read top to bottom. Actors play with an epsilon-greedy policy over Q of the legal actions
(the same :class:`~training.rollout.SelfPlayCollector` and opponent pool as PPO), turn each
learner transition's rewards into its Monte-Carlo return, and send ``(obs, action, return)``
batches to the learner through a queue. The learner regresses Q(s, a) on the returns with MSE
and publishes its weights to the actors through a model in shared memory.

``dmc.num_actors = 0`` collects in the learner's process (deterministic; used by the tests);
``N > 0`` starts N actor processes (``torch.multiprocessing``, spawn).
"""

from __future__ import annotations

import json
import os
import queue
import threading
import time
import traceback
from typing import Any

import numpy as np
import torch
from tqdm import tqdm

from agents.networks import QNet
from crowsnest_env.atomic import atomic_write_text
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import layout_for
from crowsnest_env.table import resolve_variant

from .actors import start_actors
from .common import (
    OpponentPool,
    Run,
    loop_state,
    resume_run,
    seed_everything,
)
from .config import Config
from .losses import dmc_loss, mc_returns
from .ppo import rollout_scalars
from .rollout import NetController, SelfPlayCollector


def learner_controller(model: QNet, epsilon: float) -> NetController:
    """Epsilon-greedy over Q of the legal actions (random choices from torch's generator)."""

    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        m = torch.from_numpy(masks)
        with torch.no_grad():
            greedy = model.q_legal(torch.from_numpy(obs), m).argmax(-1)
        explore = torch.rand(len(obs)) < epsilon
        if explore.any():
            uniform = torch.multinomial(m[explore].float(), 1).squeeze(-1)
            greedy[explore] = uniform
        return greedy.numpy(), {}

    return NetController(act, "self_play", score=lambda obs, masks, actions: {})


def greedy_controller(model: torch.nn.Module) -> NetController:
    def act(obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        with torch.no_grad():
            q = model.q_legal(torch.from_numpy(obs), torch.from_numpy(masks))  # type: ignore[operator]  # a QNet
            return q.argmax(-1).numpy(), {}

    return NetController(act, "snapshot")


def make_model(cfg: Config) -> tuple[QNet, dict[str, Any]]:
    variant = resolve_variant(cfg.variant, cfg.crow)
    spec = {"hidden": list(cfg.dmc.hidden), "action_embed": cfg.dmc.action_embed}
    model = QNet(observation_layout(variant).size, layout_for(variant).num_actions, cfg.dmc.hidden,
                 cfg.dmc.action_embed)
    return model, spec


def collect_batch(cfg: Config, collector: SelfPlayCollector, pool: OpponentPool, model: QNet) -> dict[str, Any]:
    """One actor message: learner transitions with their Monte-Carlo returns, and rollout stats."""
    ro = collector.collect(pool.assigner(learner_controller(model, cfg.dmc.epsilon)), cfg.dmc.rollout_steps)
    return {"obs": ro.obs, "actions": ro.actions, "returns": mc_returns(ro.rewards, ro.dones, cfg.dmc.gamma),
            "stats": rollout_scalars(ro), "env_steps": ro.env_steps}


class DMCWorker:
    """One actor: its own network copy, opponent pool and collector, all seeded from ``seed``.

    The same object runs inside a local actor process (:func:`actor_main`) and as a Ray actor
    (:class:`training.actors.RayActors`)."""

    def __init__(self, cfg: Config, seed: int):
        seed_everything(seed, 1)
        self.cfg = cfg
        self.model, _ = make_model(cfg)
        self.pool = OpponentPool(cfg, greedy_controller, seed=seed + 1)
        self.collector = SelfPlayCollector(resolve_variant(cfg.variant, cfg.crow), cfg.dmc.num_envs, seed + 2,
                                           **cfg.episode_options())

    def collect(self, weights: dict[str, torch.Tensor], snapshots: dict[str, Any] | None = None) -> dict[str, Any]:
        """Load ``weights``, add the new pool ``snapshots`` (path -> checkpoint data, a Ray object ref, or
        None to read the file), then collect one batch (see :func:`collect_batch`)."""
        self.model.load_state_dict(weights)
        for path, data in (snapshots or {}).items():
            if path not in self.pool.paths:
                if data is not None and type(data).__name__ == "ObjectRef":
                    import ray

                    data = ray.get(data)
                self.pool.add(path, data)
        return collect_batch(self.cfg, self.collector, self.pool, self.model)


def actor_main(seed: int, cfg: Config, run_dir: str, shared: QNet, conn: Any, stop: Any) -> None:
    """Local actor process: copy the shared weights, play, send ``("batch", msg)`` down its own pipe.

    A sender thread writes to the pipe, so the actor keeps collecting (up to ``dmc.queue_size``
    batches ahead) while the learner is busy updating. Ends when ``stop`` is set or the learner
    closes the pipe; an exception is sent as ``("error", traceback)`` so the learner can stop
    with it instead of restarting the actor forever."""
    outbox: queue.Queue = queue.Queue(maxsize=max(1, cfg.dmc.queue_size))
    sender = threading.Thread(target=_send_loop, args=(conn, outbox, stop), daemon=True)
    sender.start()
    try:
        worker = DMCWorker(cfg, seed)
        while not stop.is_set() and sender.is_alive():
            item = ("batch", worker.collect(shared.state_dict(), dict.fromkeys(_pool_paths(run_dir))))
            while not stop.is_set() and sender.is_alive():
                try:
                    outbox.put(item, timeout=0.5)
                    break
                except queue.Full:
                    continue
    except BaseException:
        outbox.put(("error", traceback.format_exc()))
        sender.join(timeout=10)
        raise SystemExit(1) from None


def _send_loop(conn: Any, outbox: queue.Queue, stop: Any) -> None:
    """The actor's only writer to its pipe; returns when the learner has gone or ``stop`` is set."""
    while True:
        try:
            item = outbox.get(timeout=0.5)
        except queue.Empty:
            if stop.is_set():
                return
            continue
        try:
            conn.send(item)
        except (BrokenPipeError, ConnectionResetError, EOFError, OSError):
            return
        if item[0] == "error":
            return


def _pool_paths(run_dir: str) -> list[str]:
    path = os.path.join(run_dir, "snapshots", "pool.json")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as fh:
        return list(json.load(fh))


def _publish_pool(run: Run, pool: OpponentPool) -> None:
    path = os.path.join(run.dir, "snapshots", "pool.json")
    atomic_write_text(path, json.dumps(pool.paths))


def train(cfg: Config, run_dir: str, resume: bool = False) -> dict[str, Any]:
    args = cfg.dmc
    # --- seeding
    seed_everything(cfg.seed, cfg.torch_threads)
    run = Run(cfg, run_dir, "dmc", resume=resume)

    # --- model, optimizer, opponents, in-process collector
    model, spec = make_model(cfg)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.learning_rate)
    pool = OpponentPool(cfg, greedy_controller, seed=cfg.seed + 1)
    collector = SelfPlayCollector(run.variant, args.num_envs, cfg.seed + 2, **cfg.episode_options())
    global_step = update = 0
    if resume:
        global_step, update, _ = resume_run(run, model, optimizer, pool, collector)
    _publish_pool(run, pool)

    def checkpoint_extra() -> dict[str, Any]:
        return loop_state(run, pool, collector)

    # --- actors (local processes or Ray actors; a dead one is replaced)
    actors = start_actors(cfg, run_dir, model) if args.num_actors > 0 else None

    bar = tqdm(total=cfg.total_steps, initial=min(global_step, cfg.total_steps), disable=not cfg.progress,
               unit="step", desc="dmc", dynamic_ncols=True)
    try:
        while global_step < cfg.total_steps and not run.out_of_time():
            t0 = time.time()
            # --- data: from the actors' queue, or collected here
            if actors is None:
                msg = collect_batch(cfg, collector, pool, model)
            else:
                msg = actors.get()
            t_data = time.time() - t0
            update += 1
            n = len(msg["actions"])
            global_step += n

            # --- regress Q(s, a) on the Monte-Carlo returns
            obs, actions = torch.from_numpy(msg["obs"]), torch.from_numpy(msg["actions"])
            returns = torch.from_numpy(msg["returns"])
            perm = torch.randperm(n)
            losses = []
            for start in range(0, n, args.batch_size):
                mb = perm[start:start + args.batch_size]
                loss = dmc_loss(model, obs[mb], actions[mb], returns[mb])
                optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(model.parameters(), args.max_grad_norm)
                optimizer.step()
                losses.append(loss.item())
            if actors is not None and update % args.sync_interval == 0:
                actors.sync(model, pool.paths)

            # --- logging
            dt = time.time() - t0
            if update % cfg.log_interval == 0:
                scalars = {"losses/value_loss": float(np.mean(losses)) if losses else None,
                           "charts/SPS": n / dt, "charts/env_SPS": msg["env_steps"] / dt,
                           "charts/data_wait_fraction": t_data / dt, "charts/epsilon": args.epsilon,
                           "charts/mean_return_target": float(msg["returns"].mean()) if n else None}
                scalars.update(msg["stats"])
                run.scalars(scalars, global_step)
            bar.update(min(global_step, cfg.total_steps) - bar.n)

            # --- snapshots, checkpoints, evaluation
            model.eval()
            run.after_update(model, spec, optimizer, global_step, update, pool, checkpoint_extra,
                             on_snapshot=lambda: _publish_pool(run, pool))
    finally:
        bar.close()
        if actors is not None:
            actors.close()
    run.save(run.payload(model, spec, optimizer, global_step, update, checkpoint_extra()))
    run.close()
    return {"global_step": global_step, "update": update, "checkpoint": run.ckpt_path,
            "elapsed": time.time() - run.start, "actor_restarts": actors.restarts if actors else 0}
