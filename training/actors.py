"""DMC actors for the learner: local processes or Ray actors, supervised (a dead one is replaced).

Both groups offer the learner the same three calls: :meth:`get` (the next batch, from any
actor), :meth:`sync` (publish the current weights and opponent pool) and :meth:`close`.

- ``local``: spawned processes running :func:`training.dmc.actor_main`, one pipe each (a
  sender thread in the actor keeps up to ``dmc.queue_size`` batches ready, so collection
  overlaps the learner's update); weights through a shared-memory model, the opponent pool
  through ``snapshots/pool.json``.
- ``ray``: Ray actors running :class:`training.dmc.DMCWorker`, one ``collect`` call in
  flight each; weights and pool snapshots through the object store (``ray.put``), so no
  shared disk is needed.

Faults: every wait polls every ``poll_s`` seconds and checks the actors in between. An actor
that dies (``kill -9``, ``ray.kill``, a lost node) is replaced by a fresh one with a new seed
stream (:func:`actor_seed`), and the run continues; the learner only loses that actor's
unfinished batch. After ``MAX_RESTARTS`` replacements of one slot, an actor that reports a
Python exception, or ``stall_s`` seconds without any batch, the run stops with
:class:`ActorError`. A pipe per actor (not one shared queue) matters: a process killed while
writing to a shared ``multiprocessing.Queue`` can leave it locked or half-written for all.
"""

from __future__ import annotations

import hashlib
import os
import time
from multiprocessing.connection import wait as wait_connections
from typing import Any

import numpy as np
import torch.multiprocessing as mp
from torch import nn

from agents.checkpoint import weights_copy

from .config import Config

MAX_RESTARTS = 5
"""replacements of one actor slot before the run gives up"""
STALL_S = 900.0
"""seconds without a batch from any actor before the run gives up"""


class ActorError(RuntimeError):
    """The actors cannot keep the learner fed (they crash, keep dying, or stall)."""


def next_generation(generation: list[int], slot: int, what: str, last: object) -> None:
    """Count one more replacement of ``slot``; ActorError once it passes ``MAX_RESTARTS``."""
    generation[slot] += 1
    if generation[slot] > MAX_RESTARTS:
        raise ActorError(f"{what} {slot} died {generation[slot]} times; gave up after {MAX_RESTARTS} restarts "
                         f"(last: {last})")


def actor_seed(seed: int, slot: int, generation: int) -> int:
    """Seed of the ``generation``-th actor in ``slot``; generation 0 keeps the historical ``seed + 1000 (slot + 1)``."""
    if generation == 0:
        return seed + 1000 * (slot + 1)
    text = f"{seed}:dmc-actor:{slot}:{generation}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")


class ProcessActors:
    """``cfg.dmc.num_actors`` actor processes (spawn), each feeding the learner through its own pipe."""

    def __init__(self, cfg: Config, run_dir: str, model: nn.Module, poll_s: float = 1.0, stall_s: float = STALL_S):
        from .dmc import make_model

        self.cfg, self.run_dir, self.poll_s, self.stall_s = cfg, run_dir, poll_s, stall_s
        self.ctx = mp.get_context("spawn")
        self.shared, _ = make_model(cfg)
        self.shared.load_state_dict(model.state_dict())
        self.shared.share_memory()
        self.stop = self.ctx.Event()
        n = cfg.dmc.num_actors
        self.procs: list[Any] = [None] * n
        self.conns: list[Any] = [None] * n
        self.generation = [0] * n
        self.restarts = 0
        self._next = 0
        for slot in range(n):
            self._spawn(slot)

    def _spawn(self, slot: int) -> None:
        from .dmc import actor_main

        reader, writer = self.ctx.Pipe(duplex=False)
        seed = actor_seed(self.cfg.seed, slot, self.generation[slot])
        proc = self.ctx.Process(target=actor_main, args=(seed, self.cfg, self.run_dir, self.shared, writer, self.stop),
                                daemon=True, name=f"dmc-actor-{slot}")
        proc.start()
        writer.close()  # only the actor holds the write end: its death reads as EOF here
        self.procs[slot], self.conns[slot] = proc, reader

    def _replace(self, slot: int) -> None:
        proc = self.procs[slot]
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=5)
        self.conns[slot].close()
        next_generation(self.generation, slot, "DMC actor", f"exit code {proc.exitcode}")
        self.restarts += 1
        self._spawn(slot)

    def pids(self) -> list[int]:
        """Process ids of the live actors."""
        return [p.pid for p in self.procs if p is not None and p.is_alive()]

    def get(self) -> dict[str, Any]:
        """The next batch from any actor (round robin among those ready); replaces dead actors."""
        last = time.monotonic()
        while True:
            ready = wait_connections(self.conns, timeout=self.poll_s)
            n = len(self.conns)
            for slot in sorted((self.conns.index(c) for c in ready), key=lambda s: (s - self._next) % n):
                try:
                    kind, payload = self.conns[slot].recv()
                except (EOFError, OSError):  # died, possibly mid-message
                    self._replace(slot)
                    continue
                if kind == "error":
                    raise ActorError(f"DMC actor {slot} failed:\n{payload}")
                self._next = (slot + 1) % n
                return payload
            for slot, proc in enumerate(self.procs):
                if not proc.is_alive() and not self.conns[slot].poll():
                    self._replace(slot)
            if time.monotonic() - last > self.stall_s:
                raise ActorError(f"no batch from any of {n} DMC actors in {self.stall_s:.0f} s")

    def sync(self, model: nn.Module, pool_paths: list[str]) -> None:
        """Copy the learner's weights into shared memory (the pool travels through pool.json)."""
        self.shared.load_state_dict(model.state_dict())

    def close(self) -> None:
        self.stop.set()
        for conn in self.conns:
            conn.close()  # an actor blocked in send gets BrokenPipeError and exits
        for proc in self.procs:
            proc.join(timeout=5)
        for proc in self.procs:
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)


class RayActors:
    """``cfg.dmc.num_actors`` Ray actors, each with one ``collect`` call in flight.

    ``address`` (``cfg.address``) names the cluster; empty starts a local Ray with
    max(cores, num_actors) CPUs, so every actor gets a slot even on a small machine."""

    def __init__(self, cfg: Config, model: nn.Module, poll_s: float = 1.0, stall_s: float = STALL_S):
        import ray

        from agents.backends import connect_ray

        from .dmc import DMCWorker

        n = cfg.dmc.num_actors
        self._owned = connect_ray(cfg.address or None, max(os.cpu_count() or 1, n))
        self.cfg, self.poll_s, self.stall_s = cfg, poll_s, stall_s
        self.cls = ray.remote(num_cpus=1, max_restarts=0)(DMCWorker)
        self.tag = f"crowsnest-dmc-{os.getpid()}-{id(self):x}"
        self.weights = ray.put(weights_copy(model))
        self.snapshots: dict[str, Any] = {}  # pool path -> object ref of its checkpoint
        self.handles: list[Any] = [None] * n
        self.sent: list[set[str]] = [set() for _ in range(n)]
        self.calls: dict[Any, int] = {}  # pending collect() ref -> slot
        self.generation = [0] * n
        self.restarts = 0
        for slot in range(n):
            self._spawn(slot)

    def _spawn(self, slot: int) -> None:
        name = f"{self.tag}-{slot}-{self.generation[slot]}"
        seed = actor_seed(self.cfg.seed, slot, self.generation[slot])
        self.handles[slot] = self.cls.options(name=name).remote(self.cfg, seed)
        self.sent[slot] = set()
        self._call(slot)

    def _call(self, slot: int) -> None:
        new = {p: ref for p, ref in self.snapshots.items() if p not in self.sent[slot]}
        self.sent[slot].update(new)
        self.calls[self.handles[slot].collect.remote(self.weights, new)] = slot

    def _replace(self, slot: int, err: Exception) -> None:
        next_generation(self.generation, slot, "DMC Ray actor", err)
        self.restarts += 1
        self._spawn(slot)

    def get(self) -> dict[str, Any]:
        """The next finished batch; a dead actor is replaced and asked again."""
        import ray
        from ray.exceptions import RayActorError, RayTaskError

        last = time.monotonic()
        while True:
            done, _ = ray.wait(list(self.calls), num_returns=1, timeout=self.poll_s)
            for ref in done:
                slot = self.calls.pop(ref)
                try:
                    msg = ray.get(ref, timeout=self.poll_s * 60)
                except RayActorError as err:
                    self._replace(slot, err)
                    continue
                except RayTaskError as err:
                    raise ActorError(f"DMC Ray actor {slot} failed:\n{err}") from None
                self._call(slot)
                # Ray hands numpy arrays over read-only (zero copy); the learner wants its own
                return {k: v.copy() if isinstance(v, np.ndarray) and not v.flags.writeable else v
                        for k, v in msg.items()}
            if time.monotonic() - last > self.stall_s:
                raise ActorError(f"no batch from any of {len(self.handles)} DMC Ray actors in {self.stall_s:.0f} s")

    def sync(self, model: nn.Module, pool_paths: list[str]) -> None:
        """Publish the weights and the opponent pool (each snapshot put in the object store once)."""
        import ray

        from agents.checkpoint import read_checkpoint

        self.weights = ray.put(weights_copy(model))
        self.snapshots = {p: self.snapshots.get(p) or ray.put(read_checkpoint(p)) for p in pool_paths}

    def close(self) -> None:
        import ray

        for handle in self.handles:
            ray.kill(handle)
        self.calls.clear()
        if self._owned:
            ray.shutdown()
            self._owned = False


def start_actors(cfg: Config, run_dir: str, model: nn.Module) -> ProcessActors | RayActors:
    """The actor group for ``cfg.backend`` (local processes or Ray actors)."""
    if cfg.backend == "ray":
        return RayActors(cfg, model)
    return ProcessActors(cfg, run_dir, model)


__all__ = ["ActorError", "ProcessActors", "RayActors", "actor_seed", "next_generation", "start_actors"]
