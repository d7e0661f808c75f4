"""The one supervised worker mechanism under both trainers: local processes or Ray actors.

A :class:`Workers` group runs ``n`` workers, each ``factory(*args, seed=...)`` (the trainers'
factory is :class:`training.actor.Actor`) in its own spawned process (``backend="local"``) or as a
Ray actor (``backend="ray"``), with at most one call in flight per worker. DMC streams (take the
next finished batch, ask that actor for another); PPO gathers (one share of the update per worker):

| call | what it does |
|---|---|
| ``Workers(...)`` | connects to Ray when asked (a bad address fails here, before a run writes), spawns |
| ``publish(weights, files)`` | the weights later calls use; the checkpoint files workers need (the pool) |
| ``submit(slot, *args)`` | calls ``collect(*args, weights=..., snapshots=...)`` on that worker |
| ``next()`` | ``(slot, result)`` of the next finished call, round robin among the finished ones |
| ``gather(*args)`` | one call on every worker; the results by slot |
| ``pids()``, ``restarts``, ``close()`` | the live workers' process ids, replacements so far, shut down |

Shipping: a call carries the weights only when that worker does not have the latest yet, and each
checkpoint file once per worker: a local worker reads it from disk by its path, a Ray worker gets
its contents through the object store (no shared disk needed). Ray resolves only top-level
``ObjectRef`` arguments, so the worker side resolves the nested ones; results come back writable
(Ray hands numpy arrays over read-only).

Faults: every wait polls every ``poll_s`` seconds. A worker that dies (``kill -9``, ``ray.kill``, a
lost node) is replaced by a fresh one with its own seed (:func:`worker_seed`) and its call is
submitted again: the caller loses only that call's unfinished work. After ``max_restarts``
replacements of one slot, a worker that raises (its traceback in the message), or ``stall_s``
seconds without any result, the group raises :class:`ActorError`. Each local worker has its own
pipe: a process killed while writing to a shared queue could leave it locked for all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import multiprocessing
import os
import pickle
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from multiprocessing.connection import wait as wait_connections
from typing import Any

import numpy as np

MAX_RESTARTS = 5
"""replacements of one worker slot before the run gives up"""
STALL_S = 900.0
"""seconds without a result from any worker before the run gives up"""
BACKENDS = ("local", "ray")


class ActorError(RuntimeError):
    """The workers cannot keep the learner fed (they crash, keep dying, or stall)."""


class _Died(Exception):
    """A worker died with a call in flight."""


class _Failed(Exception):
    """A worker's call raised; the message is its traceback."""


def worker_seed(seed: int, slot: int, generation: int) -> int:
    """Seed of the ``generation``-th worker in ``slot``; generation 0 keeps the historical seed + 1000 (slot + 1)."""
    if generation == 0:
        return seed + 1000 * (slot + 1)
    text = f"{seed}:worker:{slot}:{generation}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=4).digest(), "big")


class Workers:
    """``n`` supervised workers (see the module docstring); ``what`` names them in errors ("DMC actor")."""

    def __init__(self, factory: Callable[..., Any], args: Sequence[Any], n: int, *, seed: int, name: str,
                 what: str, backend: str = "local", address: str | None = None, poll_s: float = 1.0,
                 stall_s: float = STALL_S, max_restarts: int = MAX_RESTARTS):
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
        self.factory, self.args, self.size = factory, tuple(args), n
        self.seed, self.what, self.poll_s, self.stall_s, self.max_restarts = seed, what, poll_s, stall_s, max_restarts
        self.transport: _Processes | _Ray = _Processes(name) if backend == "local" else _Ray(name, address, n)
        self.generation = [0] * n
        self.restarts = 0
        self._calls: dict[int, tuple[Any, ...]] = {}  # slot -> the args of its call in flight
        self._weights: Any = None
        self._version = 0
        self._files: dict[str, Any] = {}
        self._has_version = [-1] * n
        self._has_files: list[set[str]] = [set() for _ in range(n)]
        self._next = 0
        try:
            for slot in range(n):
                self._spawn(slot)
        except BaseException:
            self.close()
            raise

    # ------------------------------------------------------------------ the caller's side
    def publish(self, weights: dict[str, Any], files: Sequence[str] = ()) -> None:
        """The weights later calls use (a CPU copy: the caller may go on training) and the checkpoint
        files the workers need; each is shipped once per worker."""
        self._weights = self.transport.put(weights)
        self._version += 1
        self._files = {p: self._files[p] if p in self._files else self.transport.file(p) for p in files}

    def submit(self, slot: int, *args: Any) -> None:
        """Call ``collect(*args, weights=..., snapshots=...)`` on worker ``slot`` (it must be idle)."""
        if slot in self._calls:
            raise RuntimeError(f"{self.what} {slot} has a call in flight already")
        weights = self._weights if self._has_version[slot] != self._version else None
        new = {p: ref for p, ref in self._files.items() if p not in self._has_files[slot]}
        self._has_version[slot] = self._version
        self._has_files[slot].update(new)
        self._calls[slot] = args
        self.transport.call(slot, args, {"weights": weights, "snapshots": new})

    def next(self) -> tuple[int, Any]:
        """``(slot, result)`` of the next finished call; a dead worker is replaced and its call run again."""
        if not self._calls:
            raise RuntimeError(f"no {self.what} has a call in flight")
        last = time.monotonic()
        while True:
            ready = self.transport.ready(list(self._calls), self.poll_s)
            for slot in sorted(ready, key=lambda s: (s - self._next) % self.size):
                try:
                    result = self.transport.result(slot)
                except _Died as err:
                    self._replace(slot, err)
                    continue
                except _Failed as err:
                    raise ActorError(f"{self.what} {slot} failed:\n{err}") from None
                del self._calls[slot]
                self._next = (slot + 1) % self.size
                return slot, _writable(result)
            if time.monotonic() - last > self.stall_s:
                raise ActorError(f"no result from any of {self.size} {self.what}s in {self.stall_s:.0f} s")

    def gather(self, *args: Any) -> list[Any]:
        """One call ``collect(*args)`` on every worker; the results in slot order."""
        for slot in range(self.size):
            self.submit(slot, *args)
        out: dict[int, Any] = {}
        while len(out) < self.size:
            slot, result = self.next()
            out[slot] = result
        return [out[s] for s in range(self.size)]

    def pids(self) -> list[int]:
        """Process ids of the workers: the live local processes, or each Ray actor's worker process (on
        whichever machine runs it; a dead actor's until it is replaced)."""
        return self.transport.pids()

    def close(self) -> None:
        """Stop every worker (and the Ray instance this group started)."""
        self._calls.clear()
        self.transport.close()

    # ------------------------------------------------------------------ supervision
    def _spawn(self, slot: int) -> None:
        seed = worker_seed(self.seed, slot, self.generation[slot])
        self.transport.spawn(slot, self.generation[slot], self.factory, self.args, seed)
        self._has_version[slot] = -1
        self._has_files[slot] = set()

    def _replace(self, slot: int, err: Exception) -> None:
        self.generation[slot] += 1
        if self.generation[slot] > self.max_restarts:
            raise ActorError(f"{self.what} {slot} died {self.generation[slot]} times; gave up after "
                             f"{self.max_restarts} restarts (last: {err})")
        self.restarts += 1
        self.transport.kill(slot)
        self._spawn(slot)
        args = self._calls.pop(slot)
        self.submit(slot, *args)


def _writable(value: Any) -> Any:
    """``value`` with its read-only numpy arrays copied (in dicts, lists and dataclass fields)."""
    if isinstance(value, np.ndarray):
        return value if value.flags.writeable else value.copy()
    if isinstance(value, dict):
        return {k: _writable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_writable(v) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            setattr(value, f.name, _writable(getattr(value, f.name)))
    return value


# ----------------------------------------------------------------------------- local processes
def _serve(factory: Callable[..., Any], args: tuple[Any, ...], seed: int, conn: Any) -> None:
    """A local worker process: build the worker, then answer ``collect`` calls until the pipe closes
    (or the learner kills it). Replies are ``("ok", result)`` or ``("error", traceback)``; an error
    ends the process."""
    try:
        worker = factory(*args, seed=seed)
        while True:
            try:
                call_args, kwargs = pickle.loads(conn.recv_bytes())
            except (EOFError, OSError):
                return  # the learner closed the pipe
            reply = ("ok", worker.collect(*call_args, **kwargs))
            conn.send_bytes(pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL))
    except (BrokenPipeError, ConnectionResetError):
        return
    except BaseException:
        try:
            conn.send_bytes(pickle.dumps(("error", traceback.format_exc())))
        except OSError:
            pass
        raise SystemExit(1) from None


def _send(conn: Any, data: bytes) -> None:
    try:
        conn.send_bytes(data)
    except OSError:  # the worker died: its pipe reads as EOF at the learner's next wait
        pass


class _Processes:
    """Workers as spawned processes, one duplex pipe each (its EOF is the worker's death)."""

    def __init__(self, name: str):
        self.name = name
        self.ctx = multiprocessing.get_context("spawn")  # safe with threads and torch in the parent
        self.procs: dict[int, Any] = {}
        self.conns: dict[int, Any] = {}
        self.senders: dict[int, threading.Thread] = {}

    def spawn(self, slot: int, generation: int, factory: Callable[..., Any], args: tuple[Any, ...], seed: int) -> None:
        mine, theirs = self.ctx.Pipe(duplex=True)
        proc = self.ctx.Process(target=_serve, args=(factory, args, seed, theirs), daemon=True,
                                name=f"crowsnest-{self.name}-{slot}-{generation}")
        proc.start()
        theirs.close()  # only the worker holds its end: its death reads as EOF here
        self.procs[slot], self.conns[slot] = proc, mine

    def put(self, obj: Any) -> Any:
        return obj

    def file(self, path: str) -> Any:
        return None  # read from the shared disk by the worker

    def call(self, slot: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        # sent from a thread: weights fill the pipe's buffer, and a worker still starting up does not
        # read yet; the learner's own waits keep their timeouts (a worker that never answers stalls)
        data = pickle.dumps((args, kwargs), protocol=pickle.HIGHEST_PROTOCOL)
        sender = threading.Thread(target=_send, args=(self.conns[slot], data), daemon=True,
                                  name=f"crowsnest-{self.name}-send-{slot}")
        sender.start()
        self.senders[slot] = sender

    def ready(self, slots: list[int], timeout: float) -> list[int]:
        by_conn = {self.conns[s]: s for s in slots}
        return [by_conn[c] for c in wait_connections(list(by_conn), timeout=timeout)]

    def result(self, slot: int) -> Any:
        try:
            kind, payload = pickle.loads(self.conns[slot].recv_bytes())
        except (EOFError, OSError) as err:  # died, possibly mid-message
            raise _Died(f"exit code {self._exitcode(slot)}") from err
        if kind == "error":
            raise _Failed(payload)
        return payload

    def _exitcode(self, slot: int) -> int | None:
        proc = self.procs[slot]
        proc.join(timeout=5)
        return proc.exitcode

    def kill(self, slot: int) -> None:
        """End worker ``slot`` (dead already, or killed now), then its sender, then its pipe: the pipe
        is closed last so that no sender can write into a descriptor the next pipe reuses."""
        proc = self.procs.pop(slot)
        proc.kill()
        proc.join(timeout=5)
        sender = self.senders.pop(slot, None)
        if sender is not None:
            sender.join(timeout=5)  # its peer is gone: the send ends with EPIPE
        self.conns.pop(slot).close()

    def pids(self) -> list[int]:
        return [p.pid for p in self.procs.values() if p.is_alive()]

    def close(self) -> None:
        for slot in list(self.procs):  # workers hold nothing worth a graceful exit: collections are discarded
            self.kill(slot)


# ----------------------------------------------------------------------------- Ray
class _RayHost:
    """What runs inside a Ray actor: the worker, and the ObjectRef check Ray leaves to us."""

    def __init__(self, factory: Callable[..., Any], args: tuple[Any, ...], seed: int):
        self.worker = factory(*args, seed=seed)

    def collect(self, *args: Any, weights: Any = None, snapshots: dict[str, Any] | None = None) -> Any:
        import ray

        # refs nested in an argument are not resolved by Ray (weights, a top-level argument, are)
        snapshots = {p: ray.get(d) if isinstance(d, ray.ObjectRef) else d for p, d in (snapshots or {}).items()}
        return self.worker.collect(*args, weights=weights, snapshots=snapshots)

    def pid(self) -> int:
        return os.getpid()


class _Ray:
    """Workers as Ray actors (one CPU each, no automatic restart: replacing is ours)."""

    def __init__(self, name: str, address: str | None, n: int):
        import ray

        from agents.backends import connect_ray

        # address empty: a local Ray with max(cores, n) CPUs, so every worker gets a slot on a small machine
        self.owned = connect_ray(address or None, max(os.cpu_count() or 1, n))
        self.cls: Any = ray.remote(num_cpus=1, max_restarts=0)(_RayHost)
        self.tag = f"crowsnest-{name}-{os.getpid()}-{id(self):x}"
        self.handles: dict[int, Any] = {}
        self.pid_refs: dict[int, Any] = {}
        self.pending: dict[int, Any] = {}  # slot -> ref of its call in flight

    def spawn(self, slot: int, generation: int, factory: Callable[..., Any], args: tuple[Any, ...], seed: int) -> None:
        handle = self.cls.options(name=f"{self.tag}-{slot}-{generation}").remote(factory, args, seed)
        self.handles[slot], self.pid_refs[slot] = handle, handle.pid.remote()

    def put(self, obj: Any) -> Any:
        import ray

        return ray.put(obj)

    def file(self, path: str) -> Any:
        import ray

        from agents.checkpoint import read_checkpoint

        return ray.put(read_checkpoint(path))

    def call(self, slot: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        self.pending[slot] = self.handles[slot].collect.remote(*args, **kwargs)

    def ready(self, slots: list[int], timeout: float) -> list[int]:
        import ray

        refs = {self.pending[s]: s for s in slots}
        done, rest = ray.wait(list(refs), num_returns=1, timeout=timeout)
        if done and rest:  # everything else that has finished too, so that a death is seen at once
            more, _ = ray.wait(rest, num_returns=len(rest), timeout=0)
            done += more
        return [refs[r] for r in done]

    def result(self, slot: int) -> Any:
        import ray
        from ray.exceptions import RayActorError, RayTaskError

        ref = self.pending.pop(slot)
        try:
            return ray.get(ref, timeout=600)
        except RayActorError as err:
            raise _Died(str(err).splitlines()[0] if str(err) else type(err).__name__) from None
        except RayTaskError as err:
            raise _Failed(str(err)) from None

    def kill(self, slot: int) -> None:
        import ray

        self.pending.pop(slot, None)
        self.pid_refs.pop(slot, None)
        ray.kill(self.handles.pop(slot))

    def pids(self) -> list[int]:
        import ray
        from ray.exceptions import RayActorError

        out = []
        for ref in list(self.pid_refs.values()):
            try:
                out.append(ray.get(ref, timeout=600))
            except RayActorError:
                continue
        return out

    def close(self) -> None:
        import ray

        for handle in self.handles.values():
            ray.kill(handle)
        self.handles.clear()
        self.pending.clear()
        self.pid_refs.clear()
        if self.owned:
            ray.shutdown()
            self.owned = False


__all__ = ["BACKENDS", "MAX_RESTARTS", "STALL_S", "ActorError", "Workers", "worker_seed"]
