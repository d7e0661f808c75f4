"""Behaviour-cloning warm start: demonstrations, the masked loss, accuracy, the trainer hook."""

from __future__ import annotations

import os

import numpy as np
import pytest
import torch
import yaml

from agents.networks import ActorCritic
from crowsnest_env.rules import get_variant
from training import cli
from training.bc import bc_loss, behaviour_clone, collect_demonstrations, masked_accuracy
from training.config import ConfigError, config_from_dict
from training.report import read_scalars

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANT = get_variant("crowsnest", True)


@pytest.fixture(autouse=True)
def _one_thread():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def demos():
    return collect_demonstrations(VARIANT, 4000, seed=11, num_envs=8)


def test_demonstrations_are_legal_seeded_and_carry_team_returns(demos):
    assert len(demos) >= 4000 and demos.episodes > 0
    assert demos.obs.dtype == np.float32 and demos.obs.shape == (len(demos), demos.obs.shape[1])
    assert demos.masks[np.arange(len(demos)), demos.actions].all()  # the heuristic only plays legal moves
    again = collect_demonstrations(VARIANT, 4000, seed=11, num_envs=8)
    assert np.array_equal(again.actions, demos.actions) and np.array_equal(again.obs, demos.obs)
    assert np.array_equal(again.returns, demos.returns)
    other = collect_demonstrations(VARIANT, 500, seed=12, num_envs=8)
    assert not np.array_equal(other.actions[:200], demos.actions[:200])
    # one-hand episodes, gamma 1: every decision's return is its team's scaled score difference
    assert np.isfinite(demos.returns).all() and 0 < np.abs(demos.returns).max() < 5


def test_bc_loss_ignores_illegal_logits_and_adds_value_mse():
    torch.manual_seed(0)
    model = ActorCritic(6, 4, [8])
    obs = torch.randn(5, 6)
    masks = torch.tensor([[1, 1, 0, 0]] * 5, dtype=torch.bool)
    actions = torch.tensor([0, 1, 0, 1, 0])
    loss, stats = bc_loss(model, obs, masks, actions)
    assert set(stats) == {"bc_loss", "bc_accuracy"} and torch.isfinite(loss)
    logits, _ = model(obs)
    legal = torch.log_softmax(logits[:, :2], -1)
    assert loss.item() == pytest.approx(-legal[torch.arange(5), actions].mean().item(), rel=1e-5)
    with torch.no_grad():  # pushing the illegal actions' logits up changes nothing
        model.policy.bias[2:] += 50.0
    assert bc_loss(model, obs, masks, actions)[0].item() == pytest.approx(loss.item(), rel=1e-5)
    returns = torch.ones(5)
    total, s2 = bc_loss(model, obs, masks, actions, returns, vf_coef=0.5)
    assert total.item() == pytest.approx(s2["bc_loss"] + 0.5 * s2["bc_value_loss"], rel=1e-5)
    total.backward()


def test_cloning_reaches_well_above_chance(demos):
    torch.manual_seed(0)
    model = ActorCritic(demos.obs.shape[1], demos.masks.shape[1], [128])
    chance = float(np.mean(1.0 / demos.masks.sum(1)))
    before = masked_accuracy(model, demos.obs, demos.masks, demos.actions)
    stats = behaviour_clone(model, demos, epochs=6, batch_size=256, learning_rate=3e-3)
    after = masked_accuracy(model, demos.obs, demos.masks, demos.actions)
    assert after > max(before, chance) + 0.2 and after > 0.7, (chance, before, after, stats)
    assert stats["bc_accuracy"] > chance + 0.2 and "bc_value_loss" in stats


def test_bc_config_is_validated():
    cfg = config_from_dict({"bc_decisions": 1000, "bc_epochs": 2})
    assert cfg.bc_decisions == 1000 and cfg.bc_value is True
    for bad in ({"bc_decisions": -1}, {"bc_decisions": 10, "bc_epochs": 0}, {"bc_decisions": 10, "bc_batch_size": 0},
                {"bc_decisions": 10, "bc_learning_rate": 0.0}, {"bc_decisions": 10, "algo": "dmc"}):
        with pytest.raises(ConfigError):
            config_from_dict(bad)
    with pytest.raises(ConfigError, match="bc_value"):
        config_from_dict({"bc_value": 1})


def _tiny(tmp_path, **over) -> str:
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data.update({"bc_decisions": 600, "bc_epochs": 2, "bc_batch_size": 128, "eval_interval": 0}, **over)
    path = tmp_path / "bc.yaml"
    path.write_text(yaml.safe_dump(data))
    return str(path)


def test_trainer_warm_starts_once_and_resume_skips_it(tmp_path, monkeypatch):
    out = tmp_path / "run"
    cli.run(_tiny(tmp_path, total_steps=200), str(out), evaluate=False)
    scalars = read_scalars(str(out / "tb"))
    assert len(scalars["losses/bc_loss"]) == 2 and "charts/bc_accuracy" in scalars
    assert "losses/bc_value_loss" in scalars and "losses/policy_loss" in scalars
    ckpt = torch.load(out / "checkpoint.pt", weights_only=True)
    assert ckpt["extra"]["bc_done"] is True and ckpt["extra"]["bc"]["decisions"] >= 600
    assert (out / "snapshots" / "update_000000.pt").exists()  # the BC policy joins the opponent pool

    import training.ppo

    def boom(*_a, **_k):
        raise AssertionError("behaviour cloning ran again on resume")

    monkeypatch.setattr(training.ppo, "warm_start", boom)
    resumed = cli.run(_tiny(tmp_path, total_steps=400), str(out), resume=True, evaluate=False)
    assert resumed["update"] == 2
    assert torch.load(out / "checkpoint.pt", weights_only=True)["extra"]["bc_done"] is True


def test_warm_started_runs_are_reproducible(tmp_path):
    cfg = _tiny(tmp_path, total_steps=200)
    for name in ("a", "b"):
        cli.run(cfg, str(tmp_path / name), evaluate=False)
    a = torch.load(tmp_path / "a" / "checkpoint.pt", weights_only=True)
    b = torch.load(tmp_path / "b" / "checkpoint.pt", weights_only=True)
    for k in a["model"]:
        assert torch.equal(a["model"][k], b["model"][k]), k


@pytest.mark.slow
def test_cloned_policy_beats_random_in_the_arena(tmp_path, demos):
    """Opt-in (-m slow, ~30 s): a policy cloned on a few thousand decisions crushes random play."""
    from agents.arena import run_pairing
    from training.checkpoint import save_checkpoint
    from training.run import Run, resolve_run

    torch.manual_seed(0)
    model = ActorCritic(demos.obs.shape[1], demos.masks.shape[1], [128])
    behaviour_clone(model, demos, epochs=6, batch_size=256, learning_rate=3e-3)
    cfg = config_from_dict({"name": "bc", "progress": False, "ppo": {"hidden": [128]}})
    run = Run(resolve_run(cfg), str(tmp_path / "bc"))
    path = str(tmp_path / "bc.pt")
    save_checkpoint(path, run.payload(model, None, 0, 0))
    run.close()
    res = run_pairing("checkpoint:" + path, "random", variant="crowsnest", crow=True, deals=50, seed=5, workers=1)
    assert res["adp"] > 40 and res["adp_ci95"][0] > 0, res["adp"]


def test_a_bc_teacher_is_imitated_and_its_shards_do_not_depend_on_the_workers():
    """``bc_teacher``: its actions are the labels (here random play's, which the heuristic's are
    not), the observations still carry the prior's columns, and 2 shards played by 1 or 2
    processes are the same demonstrations."""
    teacher, prior = "phase:base=heuristic;play=random", "heuristic"
    one = collect_demonstrations(VARIANT, 300, seed=5, num_envs=4, prior=prior, teacher=teacher, shards=2)
    two = collect_demonstrations(VARIANT, 300, seed=5, num_envs=4, prior=prior, teacher=teacher, shards=2,
                                 workers=2)
    for field in ("obs", "masks", "actions", "returns"):
        assert np.array_equal(getattr(one, field), getattr(two, field)), field
    assert len(one) >= 300 and one.episodes == two.episodes > 0
    assert one.masks[np.arange(len(one)), one.actions].all()
    # the prior's one-hot column block sits right after the observation: it names the heuristic's
    # move, which the random teacher's card play often is not
    num_actions = one.masks.shape[1]
    prior_cols = one.obs[:, -num_actions:]
    assert np.array_equal(prior_cols.sum(1), np.ones(len(one)))
    disagree = prior_cols.argmax(1) != one.actions
    assert 0.2 < disagree.mean() < 0.9  # random card play off the heuristic's; its auction is the heuristic's
    alone = collect_demonstrations(VARIANT, 300, seed=5, num_envs=4, prior=prior, shards=1)
    assert (alone.obs[:, -num_actions:].argmax(1) == alone.actions).all()  # no teacher: the prior teaches


def test_bc_teacher_is_validated():
    cfg = config_from_dict({"bc_decisions": 100, "bc_teacher": "phase:base=heuristic;play=pimc"})
    assert cfg.bc_teacher == "phase:base=heuristic;play=pimc"
    with pytest.raises(ConfigError, match="bc_decisions is 0"):
        config_from_dict({"bc_teacher": "pimc"})
    with pytest.raises(ConfigError, match="bc_teacher 'nosuch'"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": "nosuch"})
    with pytest.raises(ConfigError, match="bc_teacher 'double_dummy'"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": "double_dummy"})
    with pytest.raises(ConfigError, match="bc_teacher must be a str"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": 3})


def test_a_distillation_run_is_the_cloning_alone(tmp_path):
    """``total_steps: 0`` with ``bc_decisions``: the network imitates ``bc_teacher`` and nothing else
    (no PPO update); the file loads and plays; the report names the teacher. Without cloning a
    budget of 0 is refused."""
    from agents import make_agent
    from training.report import bc_line

    out = tmp_path / "distil"
    teacher = "phase:base=heuristic;play=random"
    summary = cli.run(_tiny(tmp_path, total_steps=0, bc_teacher=teacher), str(out), evaluate=False)
    assert summary["global_step"] == 0 and summary["update"] == 0
    assert summary["bc"]["decisions"] >= 600
    scalars = read_scalars(str(out / "tb"))
    assert "losses/bc_loss" in scalars and "losses/policy_loss" not in scalars
    agent = make_agent(f"checkpoint:{out / 'checkpoint.pt'}")
    env_view = _first_view()
    assert env_view.legal >> agent.act(env_view) & 1
    line = bc_line(config_from_dict({"bc_decisions": 600, "bc_teacher": teacher}), summary["bc"])
    assert teacher in line and f"{int(summary['bc']['decisions']):,} decisions" in line
    assert bc_line(config_from_dict({}), {}) == ""
    for bad in ({"total_steps": 0}, {"total_steps": 0, "bc_decisions": 10, "algo": "dmc"}, {"total_steps": -1}):
        with pytest.raises(ConfigError, match="total_steps"):
            config_from_dict(bad)


def _first_view():
    import random

    from crowsnest_env.rules import new_game, player_view

    state = new_game("crowsnest", rng=random.Random(3))
    return player_view(state, state.to_move)
