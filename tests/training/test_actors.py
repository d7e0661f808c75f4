"""DMC actors under faults: a killed actor is replaced and the run finishes with its checkpoint."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest
import torch
import yaml

from tests._procs import HAS_PROC, spawned_children
from training import cli
from training.actors import ActorError, ProcessActors, actor_seed
from training.config import ConfigError, config_from_dict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY_DMC = os.path.join(ROOT, "configs", "tiny_dmc.yaml")


def tiny_dmc(tmp_path, **over) -> str:  # type: ignore[no-untyped-def]
    """The tiny DMC config with actors (and ``over`` applied), written to tmp_path."""
    with open(TINY_DMC, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 1000, "eval_interval": 0, "final_eval_deals": 0, "checkpoint_interval": 1})
    dmc = {**data["dmc"], "num_actors": 2, **over.pop("dmc", {})}
    data.update(over, dmc=dmc)
    path = tmp_path / "dmc.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def kill_when(ready, kill, timeout_s: float = 200.0) -> threading.Thread:  # type: ignore[no-untyped-def]
    """Start a thread that calls ``kill()`` once ``ready()`` is true (the run is under way)."""

    def watch() -> None:
        deadline = time.time() + timeout_s
        while time.time() < deadline:
            if ready():
                kill()
                return
            time.sleep(0.05)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


@pytest.fixture(autouse=True)
def _threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.skipif(not HAS_PROC, reason="needs /proc to find the actors")
@pytest.mark.timeout(300)
def test_killed_local_actor_is_replaced_and_the_run_writes_its_checkpoint(tmp_path):
    out = tmp_path / "run"
    killed: list[int] = []

    def kill() -> None:
        pid = spawned_children(os.getpid())[0]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    watcher = kill_when(lambda: (out / "checkpoint.pt").exists() and spawned_children(os.getpid()), kill)
    summary = cli.run(tiny_dmc(tmp_path), str(out), evaluate=False)
    watcher.join(timeout=5)
    assert killed, "no actor was killed"
    assert summary["actor_restarts"] >= 1 and summary["global_step"] >= 1000
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    assert ckpt["global_step"] == summary["global_step"]


def test_replacement_actors_get_their_own_seed_streams():
    assert actor_seed(3, 0, 0) == 3 + 1000 and actor_seed(3, 1, 0) == 3 + 2000  # unchanged first generation
    seeds = {actor_seed(3, slot, gen) for slot in range(4) for gen in range(6)}
    assert len(seeds) == 24


@pytest.mark.timeout(120)
def test_an_actor_that_raises_stops_the_run_with_its_traceback(tmp_path, monkeypatch):
    cfg = config_from_dict(yaml.safe_load(open(tiny_dmc(tmp_path, dmc={"num_actors": 1}))))
    cfg.dmc.num_envs = 0  # the collector refuses it inside the actor
    from training.dmc import make_model

    model, _ = make_model(cfg)
    actors = ProcessActors(cfg, str(tmp_path), model, poll_s=0.2)
    try:
        with pytest.raises(ActorError, match="DMC actor 0 failed:\n.*Traceback"):
            actors.get()
    finally:
        actors.close()
    assert actors.pids() == []


def test_backend_config_errors_name_the_field():
    with pytest.raises(ConfigError, match="backend must be one of local, ray; got 'spark'"):
        config_from_dict({"backend": "spark"})
    with pytest.raises(ConfigError, match="address 'h:1' needs backend: ray"):
        config_from_dict({"address": "h:1"})
    assert config_from_dict({"algo": "ppo", "backend": "ray"}).ppo.rollout_workers == 2  # PPO rollout workers
    with pytest.raises(ConfigError, match="ppo.rollout_workers"):
        config_from_dict({"algo": "ppo", "backend": "ray", "ppo": {"rollout_workers": 0}})
    with pytest.raises(ConfigError, match="dmc.num_actors >= 1, got 0"):
        config_from_dict({"algo": "dmc", "backend": "ray", "dmc": {"num_actors": 0}})
