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


def test_dagger_plays_the_behaviour_and_records_the_teachers_labels():
    """``behaviour`` (DAgger): the teacher (the heuristic, the prior here) labels every decision
    while the behaviour (random) plays a share of them, so the labels are all the teacher's on
    positions its own play would not reach; share 0 is the teacher's own games, and the per-decision
    draws are seeded per shard (the same demonstrations for any number of processes)."""
    prior = "heuristic"
    plain = collect_demonstrations(VARIANT, 400, seed=5, num_envs=4, prior=prior)
    zero = collect_demonstrations(VARIANT, 400, seed=5, num_envs=4, prior=prior, behaviour="random", share=0.0)
    for field in ("obs", "masks", "actions", "returns"):
        assert np.array_equal(getattr(plain, field), getattr(zero, field)), field
    mixed = [collect_demonstrations(VARIANT, 400, seed=5, num_envs=4, prior=prior, behaviour="random", share=0.5,
                                    shards=2, workers=w) for w in (1, 2)]
    for field in ("obs", "masks", "actions", "returns"):
        assert np.array_equal(getattr(mixed[0], field), getattr(mixed[1], field)), field
    num_actions = plain.masks.shape[1]
    for d in (mixed[0], collect_demonstrations(VARIANT, 400, seed=5, num_envs=4, prior=prior, behaviour="random")):
        assert d.masks[np.arange(len(d)), d.actions].all()
        assert (d.obs[:, -num_actions:].argmax(1) == d.actions).all()  # every label is the heuristic's
    # random play reaches other positions, where the teams score differently
    assert not np.array_equal(mixed[0].returns[:len(plain)], plain.returns[:len(mixed[0])])
    with pytest.raises(ValueError, match="share must be in"):
        collect_demonstrations(VARIANT, 10, seed=5, num_envs=2, behaviour="random", share=1.5)


def test_bc_behaviour_is_validated():
    cfg = config_from_dict({"bc_decisions": 100, "bc_behaviour": "random", "bc_behaviour_share": 0.25})
    assert (cfg.bc_behaviour, cfg.bc_behaviour_share) == ("random", 0.25)
    from training.report import bc_line

    line = bc_line(cfg, {"decisions": 100, "episodes": 2})
    assert "labelled by `heuristic`" in line and "`random` played 25%" in line and "DAgger" in line
    with pytest.raises(ConfigError, match="bc_behaviour 'random' is set but bc_decisions is 0"):
        config_from_dict({"bc_behaviour": "random"})
    with pytest.raises(ConfigError, match="bc_behaviour 'nosuch'"):
        config_from_dict({"bc_decisions": 100, "bc_behaviour": "nosuch"})
    with pytest.raises(ConfigError, match="bc_behaviour_share"):
        config_from_dict({"bc_decisions": 100, "bc_behaviour": "random", "bc_behaviour_share": 2})
    pimc = "phase:base=heuristic;play=pimc?samples=2,nodes=200"
    with pytest.raises(ConfigError, match="needs bc_target action"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": pimc, "bc_target": "values", "bc_behaviour": "random"})


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


# ------------------------------------------------------------------ imitating a teacher's values
def test_value_regression_fits_differences_only_where_the_teacher_gave_values():
    from training.bc import value_regression

    nan = float("nan")
    targets = torch.tensor([[10.0, 30.0, nan, nan], [nan, nan, nan, nan], [5.0, nan, nan, nan]])
    head = torch.tensor([[7.0, 9.0, 100.0, -50.0], [1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 2.0, 3.0]])
    loss = value_regression(head, targets, scale=10.0)
    # row 0: a gap of 20 points is 2 logits and the head's gap is 2 (its constant and its unvalued
    # entries do not count); rows with no values or only one give 0
    assert loss.tolist() == pytest.approx([0.0, 0.0, 0.0])
    off = value_regression(torch.tensor([[0.0, 0.0, 5.0, 5.0]]), targets[:1], scale=10.0)
    assert off.item() == pytest.approx(1.0)  # errors -1 and +1 around the mean: squared, averaged


def test_bc_loss_regresses_valued_rows_without_the_prior_bonus_and_clones_the_rest():
    torch.manual_seed(0)
    model = ActorCritic(6, 4, [8], prior_weight=3.0)
    obs = torch.cat([torch.randn(3, 6), torch.eye(4)[[1, 1, 2]]], 1)  # the prior's one-hot columns last
    masks = torch.tensor([[1, 1, 1, 0]] * 3, dtype=torch.bool)
    actions = torch.tensor([0, 1, 2])
    nan = float("nan")
    targets = torch.tensor([[0.0, 10.0, 20.0, nan], [nan] * 4, [nan] * 4])
    loss, stats = bc_loss(model, obs, masks, actions, targets=targets, value_scale=10.0)
    logits, _ = model(obs)
    head = logits - model.prior_bonus(obs)
    assert torch.allclose(head, model.policy(model.trunk(obs)), atol=1e-6)
    ce = -torch.log_softmax(logits[1:, :3], -1)[torch.arange(2), actions[1:]].mean()
    centred = head[0, :3] - head[0, :3].mean() - torch.tensor([-1.0, 0.0, 1.0])
    assert stats["bc_loss"] == pytest.approx(ce.item(), rel=1e-5)
    assert stats["bc_regression_loss"] == pytest.approx(centred.pow(2).mean().item(), rel=1e-5)
    assert loss.item() == pytest.approx(ce.item() + centred.pow(2).mean().item(), rel=1e-5)


def test_a_search_teachers_values_are_recorded_with_its_moves():
    """``values="teacher"`` keeps pimc's mean of every legal card where it searched (its move is the best
    mean), and NaN rows where it did not (auction, discard, trump, forced cards)."""
    from agents import make_agent
    from crowsnest_env.rules import layout_for

    teacher = "phase:base=heuristic;play=pimc?samples=2,nodes=300"
    demos = collect_demonstrations(VARIANT, 300, seed=3, num_envs=4, prior="heuristic", teacher=teacher,
                                   values="teacher")
    assert demos.values is not None and demos.values.shape == demos.masks.shape
    valued = np.isfinite(demos.values).any(1)
    assert 0.3 < valued.mean() < 1.0
    assert np.array_equal(np.isfinite(demos.values[valued]), demos.masks[valued])  # exactly the legal cards
    assert (np.isfinite(demos.values[valued]).sum(1) >= 2).all()
    best = np.nanmax(demos.values[valued], 1)
    assert np.allclose(demos.values[valued][np.arange(valued.sum()), demos.actions[valued]], best)
    off = layout_for(VARIANT).play_offset
    assert (demos.actions[valued] >= off).all()
    plain = collect_demonstrations(VARIANT, 300, seed=3, num_envs=4, prior="heuristic", teacher=teacher)
    assert plain.values is None and np.array_equal(plain.actions, demos.actions)  # asking for values changes no move
    with pytest.raises(ValueError, match="gives no action values"):
        collect_demonstrations(VARIANT, 50, seed=3, num_envs=2, teacher="heuristic", values="teacher")
    assert callable(make_agent(teacher).explain)


def test_value_targets_are_validated():
    pimc = "phase:base=heuristic;play=pimc"
    cfg = config_from_dict({"bc_decisions": 100, "bc_teacher": pimc, "bc_target": "values", "bc_value_scale": 5})
    assert cfg.bc_target == "values" and cfg.bc_value_scale == 5
    with pytest.raises(ConfigError, match="bc_target"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": pimc, "bc_target": "logits"})
    with pytest.raises(ConfigError, match="the default teacher gives no values"):
        config_from_dict({"bc_decisions": 100, "bc_target": "values"})
    with pytest.raises(ConfigError, match="'heuristic' gives none"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": "heuristic", "bc_target": "values"})
    with pytest.raises(ConfigError, match="bc_value_scale"):
        config_from_dict({"bc_decisions": 100, "bc_teacher": pimc, "bc_target": "values", "bc_value_scale": 0})


def test_a_value_fit_residual_policy_leaves_its_prior_only_for_a_large_predicted_gain():
    """Fitted on values, the residual network plays the prior's move unless another move is worth
    more than prior_weight x value_scale points: here a 40-point gain is taken, a 20-point one is
    not (weight 3, scale 10: the threshold is 30 points)."""
    from training.bc import Demonstrations

    torch.manual_seed(0)
    n, nan = 512, float("nan")
    kind = torch.arange(n) % 2  # two kinds of state, told apart by the first feature
    feats = torch.stack([kind.float(), torch.ones(n)], 1)
    prior = torch.eye(3)[torch.zeros(n, dtype=torch.long)]  # the prior always plays action 0
    obs = torch.cat([feats, prior], 1).numpy()
    values = np.where(kind.numpy()[:, None] == 1, [[0.0, 40.0, nan]], [[0.0, 20.0, nan]]).astype(np.float32)
    masks = np.tile([True, True, False], (n, 1))
    demos = Demonstrations(obs, masks, np.ones(n, np.int64), np.zeros(n, np.float32), 1, values)
    model = ActorCritic(2, 3, [16], prior_weight=3.0)
    stats = behaviour_clone(model, demos, epochs=200, batch_size=128, learning_rate=0.01, value_scale=10.0)
    assert stats["bc_regression_loss"] < 0.01
    logits, _ = model(torch.from_numpy(obs[:2]))
    assert logits.argmax(-1).tolist() == [0, 1]  # the 20-point state keeps the prior's move; the 40 leaves it


def test_rollout_values_are_the_teachers_own_outcome_on_the_true_deal():
    """``values="rollouts"``: every card with a choice is valued by playing the true deal out with the
    teacher in all seats; for the card the (deterministic) teacher really played, that is exactly
    what the hand then gave its team (the return, in points). Other phases and forced cards: NaN."""
    demos = collect_demonstrations(VARIANT, 400, seed=8, num_envs=4, prior="heuristic", values="rollouts")
    assert demos.values is not None
    valued = np.isfinite(demos.values).any(1)
    assert 0.3 < valued.mean() < 1.0
    assert np.array_equal(np.isfinite(demos.values[valued]), demos.masks[valued])
    own = demos.values[valued][np.arange(valued.sum()), demos.actions[valued]]
    assert np.allclose(own, demos.returns[valued] * VARIANT.total_points, atol=1e-3)
    spread = np.nanmax(demos.values[valued], 1) - np.nanmin(demos.values[valued], 1)
    assert (spread > 0).mean() > 0.2  # the cards are told apart
    again = collect_demonstrations(VARIANT, 400, seed=8, num_envs=4, prior="heuristic", values="rollouts")
    assert np.array_equal(again.values, demos.values, equal_nan=True)
    with pytest.raises(ValueError, match="values must be one of"):
        collect_demonstrations(VARIANT, 50, seed=3, num_envs=2, values="oracle")


def test_rollout_values_skip_forced_cards_and_other_phases():
    import random

    from agents.heuristic import HeuristicAgent
    from crowsnest_env.rules import Phase, new_game, player_view
    from training.bc import RolloutValues

    agent = HeuristicAgent(seed=0)
    label = RolloutValues(agent)
    state = new_game("crowsnest", rng=random.Random(2))
    kinds = set()
    while not state.results:
        before = state.clone()
        values = label(state)
        assert state == before  # labelling plays out copies only
        legal = state.legal_actions()
        if state.phase is not Phase.PLAY or len(legal) < 2:
            assert values is None
        else:
            assert sorted(values) == legal
            kinds.add("valued")
        state.apply(agent.act(player_view(state, state.to_move)))
    assert kinds == {"valued"}


def test_double_dummy_values_are_the_true_deals_solve_for_every_card():
    """``values="double_dummy"``: each card with a choice is valued by solving the true deal
    double-dummy (the ``double_dummy`` reference's scores, pimc's units); the reference plays a card
    of the best value. Other phases, forced cards: None. Labelling changes nothing."""
    import random

    from agents.double_dummy import DoubleDummyAgent
    from agents.heuristic import HeuristicAgent
    from crowsnest_env.rules import Phase, new_game, player_view
    from training.bc import DoubleDummyValues

    agent, oracle, label = HeuristicAgent(seed=0), DoubleDummyAgent(seed=0), DoubleDummyValues()
    valued = differ = 0
    for deal in range(3):
        state = new_game("crowsnest", rng=random.Random(40 + deal))
        while not state.results:
            before = state.clone()
            values = label(state)
            assert state == before
            legal = state.legal_actions()
            if state.phase is not Phase.PLAY or len(legal) < 2:
                assert values is None
            else:
                assert sorted(values) == legal
                assert values[oracle.act_seeing_all(state)] == max(values.values())
                valued += 1
                differ += max(values.values()) > min(values.values())
            state.apply(agent.act(player_view(state, state.to_move)))
    assert valued >= 30 and differ >= 5


def test_double_dummy_value_targets_are_collected_and_validated():
    demos = collect_demonstrations(VARIANT, 300, seed=8, num_envs=4, prior="heuristic", values="double_dummy")
    assert demos.values is not None
    valued = np.isfinite(demos.values).any(1)
    assert 0.3 < valued.mean() < 1.0
    assert np.array_equal(np.isfinite(demos.values[valued]), demos.masks[valued])
    again = collect_demonstrations(VARIANT, 300, seed=8, num_envs=4, prior="heuristic", values="double_dummy")
    assert np.array_equal(again.values, demos.values, equal_nan=True)
    cfg = config_from_dict({"bc_decisions": 100, "bc_target": "double_dummy", "ppo": {"prior": "heuristic"}})
    assert cfg.bc_target == "double_dummy"
