"""Where work runs: supervised local processes (default) or Ray tasks, behind one interface.

A backend maps a picklable function over an iterable of tasks and yields the results as
they finish (in any order). Tasks are drawn from the iterable lazily, with at most
``in_flight`` submitted at a time, so a long run never holds its whole task list.

- ``local``: tasks run in the caller (``workers=1``) or in a pool of spawned processes. A
  dead worker breaks the pool; it is rebuilt and its unfinished tasks resubmitted (at most
  ``max_restarts`` times, then :class:`WorkerCrashError`). A worker whose parent is gone (killed
  with SIGTERM or SIGKILL, so that no ``finally`` shut the pool) exits within a second instead of
  playing its task out for nobody and then waiting on the pool's queue for ever.
- ``ray``: tasks run as Ray remote functions on a local or remote cluster. Ray re-runs a
  task whose worker died (``max_retries``), then :class:`WorkerCrashError`.

Tasks must be deterministic functions of their input (the arena's are: every seed derives
from labels), so a resubmitted task gives exactly the result the lost one would have.
Nothing here waits without a timeout: every wait polls every ``poll_s`` seconds and checks
the workers' health in between.

Ray is imported only by :class:`RayBackend` and :func:`connect_ray`; the local backend
works without it.
"""

from __future__ import annotations

import multiprocessing
import os
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from crowsnest_env.cli_errors import one_line

BACKENDS = ("local", "ray")
DEFAULT_MAX_RESTARTS = 3
DEFAULT_CONNECT_TIMEOUT_S = 10.0


class WorkerCrashError(RuntimeError):
    """Worker processes kept dying (killed, out of memory, a crash in native code)."""


class RayUnreachableError(ValueError):
    """The Ray cluster at the given address cannot be reached (a ValueError: it is bad input)."""


class Backend(Protocol):
    """Runs ``fn(task)`` for each task; yields the results in completion order."""

    name: str
    workers: int

    def map_unordered(self, fn: Callable[[Any], Any], tasks: Iterable[Any], in_flight: int) -> Iterator[Any]: ...

    def close(self) -> None: ...


def _check_count(name: str, value: object, low: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")


def one_torch_thread() -> None:
    """One intra-op thread for torch in this process (unless OMP_NUM_THREADS says otherwise): an arena
    worker runs one small forward pass at a time, where a second thread costs more than it gives
    (the learned agent played 191 decisions/s with torch's default threads, 3,206 with one)."""
    os.environ.setdefault("OMP_NUM_THREADS", "1")  # read when torch loads
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


PARENT_POLL_S = 1.0
"""how often a pool worker checks that the process that started it is still there"""


def _exit_with_parent(parent: int, poll_s: float) -> None:
    while os.getppid() == parent:
        time.sleep(poll_s)
    os._exit(1)  # the parent is gone: its pool, its results and its queue with it


def pool_worker_init(parent: int, poll_s: float = PARENT_POLL_S) -> None:
    """A local pool worker's start: :func:`one_torch_thread`, and a daemon thread that ends the worker
    once ``parent`` (the pid that started it) is no longer its parent. A killed arena or benchmark
    otherwise left its workers computing (found: two workers still at 100% of a core 7 minutes after
    ``kill`` of their arena), then blocked on the pool's call queue, whose write end they hold too."""
    one_torch_thread()
    threading.Thread(target=_exit_with_parent, args=(parent, poll_s), daemon=True,
                     name="crowsnest-parent-watch").start()


class LocalBackend:
    """Tasks in this process (``workers <= 1``) or in a pool of ``workers`` spawned processes.

    A worker that dies (``kill -9``, the OOM killer) breaks the pool; the pool is rebuilt and
    every task that had not returned is submitted again, in its original order. After
    ``max_restarts`` rebuilds in one call the run stops with :class:`WorkerCrashError`.
    """

    name = "local"

    def __init__(self, workers: int = 1, max_restarts: int = DEFAULT_MAX_RESTARTS, poll_s: float = 1.0):
        _check_count("workers", workers, 1)
        _check_count("max_restarts", max_restarts, 0)
        self.workers, self.max_restarts, self.poll_s = workers, max_restarts, poll_s
        self.restarts = 0
        self._pool: ProcessPoolExecutor | None = None
        self._procs: dict[int, Any] = {}  # the pool's processes (it forgets them once broken)

    def pids(self) -> list[int]:
        """Process ids of the current pool's workers (empty when running in-process)."""
        procs = getattr(self._pool, "_processes", None) or {}
        return [p.pid for p in list(procs.values()) if p.pid is not None]

    def map_unordered(self, fn: Callable[[Any], Any], tasks: Iterable[Any], in_flight: int = 0) -> Iterator[Any]:
        """Yield ``fn(task)`` per task as they finish; at most ``in_flight`` (default 2 x workers) pending."""
        if self.workers <= 1:
            for task in tasks:
                yield fn(task)
            return
        limit = in_flight or 2 * self.workers
        source = iter(tasks)
        pending: dict[Future, tuple[int, Any]] = {}  # future -> (submission number, task)
        submitted = 0
        self.restarts = 0
        finished = False
        try:
            self._pool = self._new_pool()
            while True:
                broken = False
                while len(pending) < limit and not broken:
                    task = next(source, _END)
                    if task is _END:
                        break
                    try:
                        pending[self._submit(fn, task)] = (submitted, task)
                    except BrokenProcessPool:  # broke since the last wait: resubmitted below
                        pending[Future()] = (submitted, task)
                        broken = True
                    submitted += 1
                if not pending:
                    finished = True
                    return
                done, _ = wait(list(pending), timeout=0 if broken else self.poll_s, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        result = fut.result(timeout=0)
                    except BrokenProcessPool:
                        broken = True
                        continue
                    del pending[fut]
                    yield result
                if broken:
                    pending = self._restart(fn, pending)
        finally:
            self._shutdown(graceful=finished)

    def _submit(self, fn: Callable[[Any], Any], task: Any) -> Future:
        assert self._pool is not None
        try:
            fut = self._pool.submit(fn, task)
        except OSError as err:
            # A pool that breaks while this submit runs: its manager thread marks it broken, then
            # closes the call queue that submit may be pickling to spawn a worker ("handle is
            # closed"). That is a broken pool, and is handled as one; any other OSError is raised.
            if getattr(self._pool, "_broken", False):
                raise BrokenProcessPool(f"pool broke during submit ({err})") from err
            raise
        # remember the workers now: a broken pool forgets them, and their exit codes name the cause
        self._procs.update(getattr(self._pool, "_processes", None) or {})
        return fut

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawn: safe with threads and torch in the parent
        return ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=pool_worker_init, initargs=(os.getpid(),))

    def _restart(self, fn: Callable[[Any], Any],
                 pending: dict[Future, tuple[int, Any]]) -> dict[Future, tuple[int, Any]]:
        codes = self._exit_codes()
        self.restarts += 1
        self._shutdown()
        if self.restarts > self.max_restarts:
            raise WorkerCrashError(
                f"a worker process died {self.restarts} times (exit codes {codes or 'unknown'}); "
                f"gave up after {self.max_restarts} restarts")
        self._pool = self._new_pool()
        again = sorted(pending.values(), key=lambda item: item[0])
        out: dict[Future, tuple[int, Any]] = {}
        for n, task in again:
            try:
                out[self._submit(fn, task)] = (n, task)
            except BrokenProcessPool:  # the new pool broke already: the next wait sees it
                fut: Future = Future()
                fut.set_exception(BrokenProcessPool("pool broke during resubmission"))
                out[fut] = (n, task)
        return out

    def _exit_codes(self, timeout_s: float = 5.0) -> list[int]:
        """The non-zero exit codes of the broken pool's workers. The pool's manager thread reaps
        them (it terminates the survivors, then joins every worker); a join from this thread that
        races it can find the child already reaped, with its exit code not yet stored (CPython's
        ``Popen.poll`` returns None on ECHILD), and the killed worker's -9 went missing. So the
        manager thread is waited for first, then each worker."""
        deadline = time.monotonic() + timeout_s
        manager = getattr(self._pool, "_executor_manager_thread", None)
        if manager is not None:
            manager.join(timeout=timeout_s)
        for p in self._procs.values():
            p.join(timeout=max(0.0, deadline - time.monotonic()))
        return sorted({p.exitcode for p in self._procs.values() if p.exitcode not in (None, 0)})

    def _shutdown(self, graceful: bool = False) -> None:
        """Stop the pool. ``graceful`` (every task done, the workers idle): let them exit on their
        own first, so that what they hold is released (a worker killed while holding a lock, e.g.
        tqdm's, leaves the resource tracker to warn of leaked semaphores); else, or if one lingers,
        terminate them."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        procs = list({**self._procs, **(getattr(pool, "_processes", None) or {})}.values())
        self._procs = {}
        pool.shutdown(wait=False, cancel_futures=True)
        if graceful:
            for p in procs:
                p.join(timeout=5)
        for p in procs:  # do not leave workers busy on tasks nobody will collect
            if p.is_alive():
                p.terminate()
        for p in procs:
            p.join(timeout=5)

    def close(self) -> None:
        self._shutdown()


_END = object()


# ----------------------------------------------------------------------------- Ray
def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of ``host:port`` or ``ray://host:port``; None for ``auto`` / ``local``."""
    if address in ("auto", "local"):
        return None
    text = address.split("://", 1)[-1]
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ValueError(f"Ray address must look like HOST:PORT, ray://HOST:PORT or auto, got {address!r}")
    return host.strip("[]"), int(port)


def _probe(address: str, timeout_s: float) -> None:
    """Raise RayUnreachableError unless a gRPC server (Ray's GCS or client server) answers at ``address``.

    A TCP connect alone is not enough: Ray retries for minutes against a port that accepts
    connections but does not speak gRPC."""
    target = _host_port(address)
    if target is None:
        return
    try:
        socket.create_connection(target, timeout=timeout_s).close()
    except OSError as err:
        raise RayUnreachableError(f"cannot reach Ray cluster at {address}: {err}") from None
    try:
        import grpc  # type: ignore[import-untyped]
    except ImportError:  # Ray depends on grpcio; without it, the TCP check has to do
        return
    host, port = target
    channel = grpc.insecure_channel(f"[{host}]:{port}" if ":" in host else f"{host}:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=timeout_s)
    except grpc.FutureTimeoutError:
        raise RayUnreachableError(f"cannot reach Ray cluster at {address}: no gRPC answer within "
                                  f"{timeout_s:g} s (is it a Ray head's GCS port?)") from None
    finally:
        channel.close()


def connect_ray(address: str | None = None, num_cpus: int | None = None,
                timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S) -> bool:
    """Make sure this process is connected to Ray; True if this call started (and owns) it.

    An already initialised Ray is reused. ``address=None`` starts a local Ray instance with
    ``num_cpus`` (default: the machine's cores). Otherwise the head's port is probed first
    (``timeout_s``), so a wrong address fails in seconds with :class:`RayUnreachableError`
    instead of Ray's own long retry loop.
    """
    try:
        import ray
    except ImportError as err:
        raise ValueError("the ray backend needs Ray: pip install 'crowsnest[ray]'") from err
    if address:  # probed even when Ray is up: a named address that does not answer is an error
        _probe(address, timeout_s)
    if ray.is_initialized():
        return False
    env = {"PYTHONPATH": os.environ["PYTHONPATH"]} if os.environ.get("PYTHONPATH") else {}
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if env and not address:
        kwargs["runtime_env"] = {"env_vars": env}
    try:
        if address:
            ray.init(address=address, **kwargs)
        else:
            # "local": a new instance even if a (possibly stale) `ray start` cluster is recorded in /tmp/ray
            ray.init(address="local", num_cpus=num_cpus or os.cpu_count() or 1, **kwargs)
    except ConnectionError as err:
        raise RayUnreachableError(f"cannot reach Ray cluster at {address}: {err}") from None
    return True


def task_error_cause(err: BaseException) -> BaseException:
    """The exception a Ray task raised, as it was raised there: a ``RayTaskError``'s text carries
    the remote traceback, so its ``cause`` is what reaches the caller (a ValueError stays a
    ValueError, and a CLI prints its one line). A cause Ray could not carry back (not picklable:
    Ray's own error in its place) becomes a RuntimeError with the first line of the error."""
    cause = err
    for _ in range(8):  # a task that called a task: the innermost cause
        inner = getattr(cause, "cause", None)
        if not isinstance(inner, BaseException):
            break
        cause = inner
    if cause is not err and isinstance(cause, Exception) and not type(cause).__module__.startswith("ray"):
        return cause
    first = next((line for line in str(cause).splitlines() if line.strip()), type(cause).__name__)
    return RuntimeError(f"a Ray task failed: {first.strip()}")


class RayBackend:
    """Tasks as Ray remote functions (one CPU each) on a local or remote cluster.

    Ray re-runs a task whose worker died (``max_retries`` times); after that the run stops
    with :class:`WorkerCrashError`. ``workers`` bounds the tasks in flight (2 x workers).
    """

    name = "ray"

    def __init__(self, workers: int = 1, address: str | None = None, max_retries: int = DEFAULT_MAX_RESTARTS,
                 poll_s: float = 1.0, connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S):
        _check_count("workers", workers, 1)
        _check_count("max_retries", max_retries, 0)
        self.workers, self.address, self.max_retries, self.poll_s = workers, address, max_retries, poll_s
        self._owned = connect_ray(address, None, connect_timeout_s)

    def map_unordered(self, fn: Callable[[Any], Any], tasks: Iterable[Any], in_flight: int = 0) -> Iterator[Any]:
        """Yield ``fn(task)`` per task as the Ray tasks finish; at most ``in_flight`` pending."""
        import ray
        from ray.exceptions import RayTaskError, WorkerCrashedError

        remote = ray.remote(num_cpus=1, max_retries=self.max_retries)(fn)
        limit = in_flight or 2 * self.workers
        source = iter(tasks)
        pending: list[Any] = []
        try:
            while True:
                while len(pending) < limit:
                    task = next(source, _END)
                    if task is _END:
                        break
                    pending.append(remote.remote(task))
                if not pending:
                    return
                done, pending = ray.wait(pending, num_returns=1, timeout=self.poll_s)
                for ref in done:
                    try:
                        yield ray.get(ref, timeout=self.poll_s * 60)
                    except WorkerCrashedError as err:
                        raise WorkerCrashError(f"a Ray worker died {self.max_retries + 1} times on one task: "
                                               f"{one_line(err)}") from None
                    except RayTaskError as err:
                        raise task_error_cause(err) from None
        finally:
            for ref in pending:
                ray.cancel(ref, force=True)

    def close(self) -> None:
        if self._owned:
            import ray

            ray.shutdown()
            self._owned = False


def make_backend(name: str, workers: int = 1, address: str | None = None) -> Backend:
    """``local`` or ``ray`` (see the table above); a bad name or address is a ValueError naming it."""
    if name not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {name!r}")
    if name == "local":
        if address:
            raise ValueError(f"address {address!r} is for the ray backend, not local")
        return LocalBackend(workers)
    return RayBackend(workers, address)
