"""Issue 8 (1): the tiny PPO and DMC runs train, checkpoint and reload in every variant.

Checkpoints once stored ``crow=bool(variant.bird)``, and reading one back asked for the no-Crow
option of partnership and dixie, which have no bird and no such option: every run crashed.
"""

from __future__ import annotations

import os

import pytest
import torch
import yaml

from agents import make_agent
from agents.checkpoint import checkpoint_variant, read_checkpoint
from crowsnest_env.rules import VARIANTS, get_variant
from training import cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIANT_NAMES = ("crowsnest", "tournament", "partnership", "one_high", "red_one", "buckeye", "dixie")


@pytest.fixture(autouse=True)
def _threads():
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


def test_the_list_is_every_preset():
    assert set(VARIANT_NAMES) == set(VARIANTS)


def tiny_config(tmp_path, algo: str, **over) -> str:
    with open(os.path.join(ROOT, "configs", f"tiny_{algo}.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"total_steps": 200, "eval_interval": 0, "final_eval_deals": 0, "snapshot_interval": 1,
                 "opponents": {"self_play": 0.4, "snapshot": 0.3, "heuristic": 0.3}})
    data[algo].update({"rollout_steps": 100, "num_envs": 2})
    data.update(over)
    path = tmp_path / f"{algo}.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


@pytest.mark.parametrize("algo", ["ppo", "dmc"])
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_tiny_training_in_every_variant(tmp_path, variant, algo):
    out = tmp_path / "run"
    summary = cli.run(tiny_config(tmp_path, algo, variant=variant), str(out), evaluate=False)
    assert summary["global_step"] >= 200 and summary["update"] == 2
    data = read_checkpoint(summary["checkpoint"], get_variant(variant))
    assert checkpoint_variant(data) == get_variant(variant) and data["algo"] == algo
    # the snapshots went through the opponent pool, and the agent file plays in the arena
    agent = make_agent(f"checkpoint:{summary['checkpoint']}", seed=0)
    assert agent.variant == get_variant(variant)
    from agents.arena import run_pairing

    result = run_pairing(f"checkpoint:{summary['checkpoint']}", "random", variant=variant, deals=1, workers=1)
    assert result["deals"] == 1
