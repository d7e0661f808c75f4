"""The other-trainer examples train a little and their networks play legal arena deals.

Opt-in (``-m slow``): they need the ``examples`` extra (tianshou, ray[rllib]) and take minutes.
"""

from __future__ import annotations

import pathlib
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture(autouse=True)
def examples_on_path(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLES))


def _plays_legal_deals(agent, opponent="random"):
    from arena_eval import duplicate_match

    res = duplicate_match(agent, opponent, deals=2, seed=0)  # an illegal action raises RuntimeError
    assert res["deals"] == 2 and res["a"] == agent.name


@pytest.mark.slow
def test_tianshou_dqn_trains_and_plays():
    pytest.importorskip("tianshou")
    import tianshou_dqn

    net, stats = tianshou_dqn.train(epochs=2, steps_per_epoch=200, num_envs=1, hidden=(32,), verbose=False)
    assert stats.train_step >= 400 and stats.update_step >= 2
    _plays_legal_deals(tianshou_dqn.q_agent(net))


@pytest.mark.slow
def test_rllib_ppo_trains_and_plays():
    pytest.importorskip("ray.rllib")
    import ray
    import rllib_ppo

    try:
        module, result = rllib_ppo.train(iterations=2, batch=256)
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 512
        _plays_legal_deals(rllib_ppo.module_agent(module))
    finally:
        ray.shutdown()
        sys.modules.pop("rllib_ppo", None)
