"""DMC actors under faults: a killed actor is replaced and the run finishes with its checkpoint.

Deterministic: the run's ``on_update`` hook kills (kill -9) an actor whose pid the worker layer
reports, at update 1 (the run is running, and the hook does not let it end until the layer has
replaced the actor, or 40 updates have gone by and the test fails).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable

import pytest
import torch
import yaml

from training.config import ConfigError, config_from_dict, load_config
from training.run import Progress, resolve_run

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY_DMC = os.path.join(ROOT, "configs", "tiny_dmc.yaml")
GIVE_UP = 40
"""updates after the kill without a replacement before a fault test fails"""


def tiny_dmc(tmp_path, **over) -> str:  # type: ignore[no-untyped-def]
    """The tiny DMC config with actors (and ``over`` applied), written to tmp_path."""
    with open(TINY_DMC, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 10**7, "eval_interval": 0, "final_eval_deals": 0, "checkpoint_interval": 1})
    dmc = {**data["dmc"], "num_actors": 2, **over.pop("dmc", {})}
    data.update(over, dmc=dmc)
    path = tmp_path / "dmc.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def kill_one_worker(kill: Callable[[int], None], killed: list[int]) -> Callable[[Progress], bool]:
    """An ``on_update`` hook: at update 1 ``kill`` the first worker the layer reports; stop the run once
    the layer has replaced it (or :data:`GIVE_UP` updates later)."""

    def hook(progress: Progress) -> bool:
        assert progress.workers is not None
        if progress.update == 1:
            pid = progress.workers.pids()[0]
            kill(pid)
            killed.append(pid)
        return progress.workers.restarts >= 1 or progress.update > GIVE_UP

    return hook


@pytest.fixture(autouse=True)
def _threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.timeout(300)
def test_killed_local_actor_is_replaced_and_the_run_writes_its_checkpoint(tmp_path):
    from training.dmc import train

    out, killed = tmp_path / "run", []
    summary = train(load_config(tiny_dmc(tmp_path)), str(out),
                    on_update=kill_one_worker(lambda pid: os.kill(pid, signal.SIGKILL), killed))
    assert killed, "no actor was killed"
    assert summary["actor_restarts"] == 1 and summary["update"] <= GIVE_UP, summary
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    assert ckpt["global_step"] == summary["global_step"] and ckpt["update"] == summary["update"]


@pytest.mark.timeout(120)
def test_an_actor_that_raises_stops_the_run_with_its_traceback(tmp_path):
    from training.actor import Actor
    from training.workers import ActorError, Workers

    cfg = config_from_dict(yaml.safe_load(open(tiny_dmc(tmp_path, dmc={"num_actors": 1}))))
    cfg.dmc.num_envs = 0  # the collector refuses it inside the actor
    workers = Workers(Actor, (resolve_run(cfg),), 1, seed=cfg.seed, name="dmc", what="DMC actor", poll_s=0.2)
    try:
        workers.submit(0, 100)
        with pytest.raises(ActorError, match="DMC actor 0 failed:\n.*Traceback"):
            workers.next()
    finally:
        workers.close()
    assert workers.pids() == []


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
