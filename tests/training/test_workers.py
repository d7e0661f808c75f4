"""The worker layer on local processes: calls, what ships with them, and supervision under faults.

Every fault here is deterministic: a worker is killed through the pid the layer reports and the
test waits until it is dead before the next call, or the worker kills itself inside its call.
The same checks on Ray actors are in tests/test_ray.py.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from tests.training.workers_fixture import Echo
from training.workers import ActorError, Workers, worker_seed


def wait_dead(workers: Workers, pid: int, timeout_s: float = 30.0) -> None:
    """Until ``pid`` is no longer one of the layer's live workers (it has been reaped)."""
    deadline = time.monotonic() + timeout_s
    while pid in workers.pids():
        assert time.monotonic() < deadline, f"worker {pid} still alive after {timeout_s} s"
        time.sleep(0.02)


def group(n: int = 2, **kw) -> Workers:  # type: ignore[no-untyped-def]
    return Workers(Echo, ("t",), n, seed=10, name="test", what="test worker", poll_s=0.2, **kw)


@pytest.mark.timeout(120)
def test_calls_carry_new_weights_and_each_file_once_and_come_back_by_slot():
    workers = group()
    try:
        workers.publish({"w": 1}, ["a.pt"])
        first = workers.gather(5)
        assert [r["x"] for r in first] == [5, 5] and [r["seed"] for r in first] == [worker_seed(10, s, 0)
                                                                                    for s in range(2)]
        assert all(r["got_weights"] and r["weights"] == {"w": 1} for r in first)
        assert all(r["files"] == ["a.pt"] and r["snapshot_data"] == {"a.pt": None} for r in first)  # read by path
        again = workers.gather(6)
        assert not any(r["got_weights"] for r in again) and all(r["files"] == ["a.pt"] for r in again)
        workers.publish({"w": 2}, ["a.pt", "b.pt"])
        workers.submit(1, 7)
        slot, r = workers.next()
        assert (slot, r["weights"], r["files"]) == (1, {"w": 2}, ["a.pt", "b.pt"])
        assert len(set(workers.pids())) == 2 and workers.restarts == 0
        with pytest.raises(RuntimeError, match="no test worker has a call in flight"):
            workers.next()
    finally:
        workers.close()
    assert workers.pids() == []


@pytest.mark.timeout(120)
def test_a_worker_killed_between_calls_is_replaced_and_its_call_run_on_the_new_one():
    workers = group()
    try:
        workers.publish({"w": 1})
        before = workers.gather(0)
        victim = before[0]["pid"]
        assert victim in workers.pids()
        os.kill(victim, signal.SIGKILL)
        wait_dead(workers, victim)
        after = workers.gather(1)
        assert workers.restarts == 1 and workers.generation == [1, 0]
        assert after[0]["pid"] != victim and after[0]["seed"] == worker_seed(10, 0, 1) != before[0]["seed"]
        assert after[0]["got_weights"] and after[0]["weights"] == {"w": 1}  # the replacement gets the weights
        assert not after[1]["got_weights"]
    finally:
        workers.close()


@pytest.mark.timeout(120)
def test_a_worker_killed_mid_call_is_replaced_and_the_call_rerun():
    workers = group(1)
    try:
        call = f"sleep:60:{worker_seed(10, 0, 0)}"  # the first worker sleeps a minute, its replacement does not
        workers.submit(0, call)
        pid = workers.pids()[0]
        os.kill(pid, signal.SIGKILL)  # its call cannot have finished
        wait_dead(workers, pid)
        slot, r = workers.next()  # the same call, run again on the replacement
        assert (slot, r["x"], workers.restarts) == (0, call, 1) and r["pid"] != pid
    finally:
        workers.close()


@pytest.mark.timeout(120)
def test_workers_that_keep_dying_stop_with_a_clear_error():
    workers = group(1, max_restarts=2)
    try:
        workers.submit(0, "die")
        gave_up = r"test worker 0 died 3 times; gave up after 2 restarts \(last: exit code -9\)"
        with pytest.raises(ActorError, match=gave_up):
            workers.next()
    finally:
        workers.close()
    assert workers.pids() == []


@pytest.mark.timeout(120)
def test_a_worker_that_raises_stops_with_its_traceback():
    workers = group(1)
    try:
        workers.submit(0, "raise")
        with pytest.raises(ActorError, match="(?s)test worker 0 failed:\n.*Traceback.*the worker's own error"):
            workers.next()
    finally:
        workers.close()


@pytest.mark.timeout(120)
def test_a_worker_that_stalls_stops_the_wait():
    workers = group(1, stall_s=0.5)
    try:
        workers.submit(0, "sleep:30")
        t0 = time.monotonic()
        with pytest.raises(ActorError, match="no result from any of 1 test workers in 0 s"):
            workers.next()
        assert time.monotonic() - t0 < 10
    finally:
        workers.close()


def test_replacement_workers_get_their_own_seed_streams():
    assert worker_seed(3, 0, 0) == 3 + 1000 and worker_seed(3, 1, 0) == 3 + 2000  # unchanged first generation
    seeds = {worker_seed(3, slot, gen) for slot in range(4) for gen in range(6)}
    assert len(seeds) == 24


def test_a_bad_backend_is_a_value_error():
    with pytest.raises(ValueError, match="backend must be one of local, ray; got 'spark'"):
        Workers(Echo, ("t",), 1, seed=0, name="test", what="test worker", backend="spark")
