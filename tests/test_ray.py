"""Everything that needs Ray, under one small local Ray (started once: it takes seconds).

Arena: the same numbers on Ray as on local processes; a clear error for a bad address. Bench: the
same board on Ray.
The worker layer on Ray actors: calls, shipping, a killed worker replaced, errors.
DMC and PPO: a tiny run with Ray workers writes its checkpoint; a worker killed mid-run is
replaced (deterministic: the run's hook kills, through the pid the layer reports, a worker at
update 1 and keeps the run going until the layer has replaced it).
Skipped when Ray is not installed (``pip install -e ".[ray]"``).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import time

import pytest
import torch

from agents.arena import main, run_pairing, run_round_robin
from agents.backends import RayBackend, RayUnreachableError, connect_ray
from tests._procs import is_running
from tests.training.test_actors import GIVE_UP, kill_one_worker, tiny_dmc
from tests.training.workers_fixture import Echo
from training.config import load_config
from training.workers import ActorError, Workers, worker_seed

ray = pytest.importorskip("ray")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module", autouse=True)
def ray_cluster():
    """One small local Ray for the module (workers import this checkout).

    The tests' hang guards time the test bodies only (``func_only``): this fixture's ray.init and
    ray.shutdown fall to whichever test runs first or last on a worker, and under load the
    shutdown's wait for Ray's processes alone once passed a 300 s guard whose test had passed.
    Ray bounds both itself (its start-up and kill timeouts)."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"PYTHONPATH": ROOT}})
    yield
    ray.shutdown()


@pytest.fixture(autouse=True)
def _threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def _numbers(report: dict) -> dict:
    """A report without its timing fields (elapsed_s, speed, decisions_per_s*) and its command
    (which names the backend)."""
    out = {k: v for k, v in report.items() if k not in ("elapsed_s", "command")}
    out["pairings"] = [{k: v for k, v in p.items() if k != "speed" and not k.startswith("decisions_per_s")}
                       for p in report["pairings"]]
    return out


@pytest.mark.timeout(120, func_only=True)
def test_cli_json_is_the_same_with_ray_and_local(tmp_path):
    args = ["--a", "random+heuristic", "--b", "random", "--deals", "30", "--games", "2", "--max-hands", "4",
            "--seed", "11", "--workers", "2", "--no-progress"]
    assert main([*args, "--backend", "ray", "--out", str(tmp_path / "ray.json")]) == 0
    assert main([*args, "--out", str(tmp_path / "local.json")]) == 0
    on_ray, local = (json.loads((tmp_path / f"{n}.json").read_text()) for n in ("ray", "local"))
    assert _numbers(on_ray) == _numbers(local)
    assert on_ray["pairings"][0]["deals"] == 30


@pytest.mark.timeout(120, func_only=True)
def test_round_robin_on_ray_matches_local():
    kw = {"deals": 12, "seed": 4, "workers": 2}
    on_ray, local = (run_round_robin(["random", "heuristic", "random+heuristic"], backend=b, **kw)
                     for b in ("ray", "local"))
    assert on_ray["ratings"] == local["ratings"] and on_ray["adp_table"] == local["adp_table"]


@pytest.mark.timeout(180, func_only=True)  # hang guards (the test body: see ray_cluster)
def test_unreachable_address_is_a_clear_cli_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--a", "random", "--b", "random", "--deals", "2", "--backend", "ray", "--address", "127.0.0.1:1",
              "--no-progress"])
    assert exc.value.code == 2
    assert "crowsnest-arena: error: cannot reach Ray cluster at 127.0.0.1:1" in capsys.readouterr().err


@pytest.mark.timeout(180, func_only=True)
def test_unreachable_address_is_a_value_error_in_the_api():
    with socket.socket() as silent:  # accepts TCP connections, never answers: the probe times out
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        address = f"127.0.0.1:{silent.getsockname()[1]}"
        t0 = time.monotonic()
        with pytest.raises(RayUnreachableError, match=f"cannot reach Ray cluster at {address}: no gRPC answer"):
            connect_ray(address, timeout_s=0.5)
        assert time.monotonic() - t0 < 10
    with pytest.raises(ValueError, match="cannot reach Ray cluster"):
        run_pairing("random", "random", deals=2, backend="ray", address="ray://127.0.0.1:1")
    with pytest.raises(ValueError, match="Ray address must look like HOST:PORT"):
        RayBackend(2, address="nonsense")


@pytest.mark.timeout(300, func_only=True)  # a hang guard: a Ray worker's imports count, slow under load
def test_an_error_in_a_ray_task_is_one_cli_line_without_the_remote_traceback(tmp_path, capsys):
    """The shipped policy is found by name, so a same-name custom variant fails in the task itself."""
    import yaml

    from crowsnest_env.rules import get_variant
    from crowsnest_env.variant_config import variant_to_dict

    rules = tmp_path / "rules.yaml"
    rules.write_text(yaml.safe_dump({**variant_to_dict(get_variant("crowsnest")), "target": 500}))
    with pytest.raises(SystemExit) as exc:
        main(["--a", "learned", "--b", "random", "--variant", str(rules), "--deals", "2", "--workers", "1",
              "--backend", "ray", "--no-progress", "--out", str(tmp_path / "r.json")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("crowsnest-arena: error: shipped policy"), err
    assert "target 300 (trained) vs 500 (wanted)" in err and "ray::" not in err and 'File "' not in err, err
    assert not (tmp_path / "r.json").exists()


@pytest.mark.timeout(180, func_only=True)
def test_bench_board_on_ray_matches_local(tmp_path):
    """crowsnest-bench's cells are arena pairings: the same board on Ray tasks as on local processes."""
    from agents.bench import run_bench, without_timing

    kw = {"references": ("random", "heuristic"), "workers": 2}
    cands = {"crowsnest": ["random+heuristic"], "tournament_nocrow": []}
    on_ray = run_bench("crowsnest-smoke-v1", cands, cache=tmp_path / "ray", backend="ray", **kw)
    local = run_bench("crowsnest-smoke-v1", cands, cache=tmp_path / "local", **kw)
    assert without_timing(on_ray) == without_timing(local)
    assert [len(s["cells"]) for s in local["rule_sets"].values()] == [3, 1]


# ------------------------------------------------------------------ the worker layer on Ray
# three Ray worker processes start, the last after a death is noticed: slow under load
@pytest.mark.timeout(300, func_only=True)
def test_ray_workers_ship_weights_and_files_and_replace_a_killed_one(tmp_path):
    from agents.checkpoint import make_payload, write_checkpoint
    from agents.networks import ActorCritic
    from crowsnest_env.observation import observation_layout
    from crowsnest_env.rules import get_variant

    snap, variant = str(tmp_path / "snap.pt"), get_variant("crowsnest")
    model = ActorCritic(observation_layout(variant).size, 98, [8])
    write_checkpoint(snap, make_payload(algo="ppo", model=model, model_spec={"hidden": [8]}, variant=variant))
    workers = Workers(Echo, ("t",), 2, seed=10, name="test", what="test worker", backend="ray", poll_s=0.2)
    try:
        workers.publish({"w": 1}, [snap])
        first = workers.gather(5)
        assert [r["seed"] for r in first] == [worker_seed(10, s, 0) for s in range(2)]
        # a Ray worker gets the checkpoint's contents through the object store (no shared disk needed)
        assert all(r["got_weights"] and r["snapshot_data"][snap]["model_spec"] == {"hidden": [8]} for r in first)
        assert sorted(workers.pids()) == sorted(r["pid"] for r in first)
        victim = first[0]["pid"]
        os.kill(victim, signal.SIGKILL)
        deadline = time.monotonic() + 30
        while is_running(victim):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        after = workers.gather(6)
        assert workers.restarts == 1 and after[0]["pid"] != victim and after[0]["seed"] == worker_seed(10, 0, 1)
        assert after[0]["got_weights"] and after[0]["files"] == [snap] and not after[1]["got_weights"]
        workers.submit(1, "raise")
        with pytest.raises(ActorError, match="(?s)test worker 1 failed:\n.*the worker's own error"):
            workers.next()
    finally:
        workers.close()
    assert not [n for n in ray.util.list_named_actors() if n.startswith("crowsnest-test-")]


def _kill_pid(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)


# ------------------------------------------------------------------ DMC with Ray actors
def _actor_names() -> list[str]:
    return sorted(n for n in ray.util.list_named_actors() if n.startswith("crowsnest-dmc-"))


@pytest.mark.timeout(300, func_only=True)
def test_ray_actor_killed_mid_run_is_replaced_and_the_run_writes_its_checkpoint(tmp_path):
    from training.dmc import train

    out, killed = tmp_path / "run", []
    summary = train(load_config(tiny_dmc(tmp_path, backend="ray")), str(out),
                    on_update=kill_one_worker(_kill_pid, killed))
    assert killed and summary["actor_restarts"] == 1 and summary["update"] <= GIVE_UP, summary
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    assert ckpt["global_step"] == summary["global_step"] and ckpt["update"] == summary["update"]
    assert len(list((out / "snapshots").glob("update_*.pt"))) == summary["update"]  # pool grew on the driver
    assert _actor_names() == []  # the learner's actors are gone


# ------------------------------------------------------------------ PPO with Ray rollout workers
def _ppo_names() -> list[str]:
    return sorted(n for n in ray.util.list_named_actors() if n.startswith("crowsnest-ppo-"))


def tiny_ppo_ray(tmp_path, **over) -> str:  # type: ignore[no-untyped-def]
    import yaml

    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 10**7, "eval_interval": 0, "final_eval_deals": 0, "checkpoint_interval": 1,
                 "backend": "ray", "snapshot_interval": 1, "bc_decisions": 0})
    data["ppo"] = {**data["ppo"], "rollout_workers": 2, "rollout_steps": 200, "minibatch_size": 64}
    data.update(over)
    path = tmp_path / "ppo_ray.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


@pytest.mark.timeout(300, func_only=True)
def test_ppo_with_ray_rollout_workers_learns_and_survives_a_killed_worker(tmp_path):
    from training.ppo import train

    out, killed = tmp_path / "ppo", []
    summary = train(load_config(tiny_ppo_ray(tmp_path)), str(out), on_update=kill_one_worker(_kill_pid, killed))
    # every update calls every worker: the one killed after update 1 is replaced in update 2
    assert killed and summary["actor_restarts"] == 1 and summary["update"] == 2, summary
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    assert ckpt["global_step"] == summary["global_step"]
    assert _ppo_names() == []  # the learner's workers are gone
    from agents.arena import run_pairing as pairing

    assert pairing("checkpoint:" + str(out / "checkpoint.pt"), "random", deals=4, seed=0)["deals"] == 4
