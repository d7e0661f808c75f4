"""Residual policies (agents/prior.py): the prior's columns, the network, checkpoints, configs, rollouts."""

from __future__ import annotations

import os
import random

import numpy as np
import pytest
import torch
import yaml

from agents.checkpoint import CheckpointError, make_payload, read_checkpoint, validate_model_spec, write_checkpoint
from agents.learned import PolicyAgent
from agents.networks import build_model
from agents.prior import make_prior, prior_columns, prior_options
from crowsnest_env.observation import encode_view, observation_layout
from crowsnest_env.rules import Phase, get_variant, layout_for
from crowsnest_env.rules.state import new_game
from crowsnest_env.rules.view import player_view
from training import cli
from training.config import ConfigError, config_from_dict
from training.rollout import AgentController, SelfPlayCollector

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VARIANT = get_variant("partnership")
SPEC = {"hidden": [32], "prior": "heuristic?margin=0.05", "prior_weight": 6.0}


def _views(variant, n: int, seed: int):
    """Views of the seat to move along random hands (every phase)."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        state = new_game(variant, rng=rng)
        while state.phase < Phase.DEAL and len(out) < n:
            v = player_view(state, state.to_move)
            out.append(v)
            state.apply(rng.choice([a for a in range(layout_for(variant).num_actions) if v.legal >> a & 1]))
    return out


def _fresh_agent(variant=VARIANT, spec=SPEC) -> PolicyAgent:
    torch.manual_seed(0)
    model = build_model("ppo", observation_layout(variant).size, layout_for(variant).num_actions, spec)
    return PolicyAgent(model.eval(), "ppo", variant, prior=spec["prior"])


def test_a_fresh_residual_policy_plays_the_priors_moves():
    agent, prior = _fresh_agent(), make_prior(SPEC["prior"])
    views = _views(VARIANT, 300, seed=3)
    assert {v.phase for v in views} >= {Phase.AUCTION, Phase.TRUMP, Phase.PLAY}
    assert all(agent.act(v) == prior.act(v) for v in views)
    obs = agent.encode(views[0])
    assert obs.shape == (observation_layout(VARIANT).size + layout_for(VARIANT).num_actions,)
    assert np.array_equal(obs[: observation_layout(VARIANT).size], encode_view(views[0]))
    assert obs[-layout_for(VARIANT).num_actions:].sum() == 1.0


def test_prior_columns_are_one_hot_and_a_cut_stays_zero():
    cols = prior_columns([2, -1, 0], 4)
    assert cols.dtype == np.float32 and cols.tolist() == [[0, 0, 1, 0], [0, 0, 0, 0], [1, 0, 0, 0]]


def test_bad_priors_are_named():
    assert prior_options("heuristic?margin=0.05,support=4") == {"margin": 0.05, "support": 4.0}
    for bad, words in (("pimc", "must be one of"), ("heuristic?depth=2", "unknown option"),
                       ("heuristic?margin=abc", "must be a number"), ("", "agent name"), (3, "agent name")):
        with pytest.raises(ValueError, match=words):
            prior_options(bad)
    obs, acts = observation_layout(VARIANT).size, layout_for(VARIANT).num_actions
    for spec, words in (({"hidden": [8], "prior": "heuristic"}, "go together"),
                        ({"hidden": [8], "prior": "heuristic", "prior_weight": 0}, "prior_weight"),
                        ({"hidden": [8], "prior": "heuristic", "prior_weight": 1e9}, "prior_weight"),
                        ({"hidden": [8], "prior": "random", "prior_weight": 6.0}, "must be one of")):
        with pytest.raises(ValueError, match=words):
            validate_model_spec("ppo", spec, obs, acts)
    with pytest.raises(ValueError, match="model_spec keys"):
        validate_model_spec("dmc", {"hidden": [8], "prior": "heuristic", "prior_weight": 6.0}, obs, acts)


def test_configs_check_the_prior():
    cfg = config_from_dict({"ppo": {"prior": "heuristic?margin=0.0"}})
    assert cfg.model_spec() == {"hidden": [256, 256], "prior": "heuristic?margin=0.0", "prior_weight": 6.0}
    assert "prior" not in config_from_dict({}).model_spec()
    for bad, words in (({"ppo": {"prior": "expert"}}, "ppo.prior"),
                       ({"ppo": {"prior": "heuristic", "prior_weight": -1}}, "ppo.prior_weight"),
                       ({"ppo": {"prior": 5}}, "ppo.prior"),
                       ({"algo": "dmc", "ppo": {"prior": "heuristic"}}, "algo ppo")):
        with pytest.raises(ConfigError, match=words):
            config_from_dict(bad)


def test_a_residual_checkpoint_loads_back_with_its_prior(tmp_path):
    agent = _fresh_agent()
    with torch.no_grad():
        for p in agent.model.parameters():
            p.add_(torch.randn_like(p) * 0.5)  # a trained-looking network: not just the prior any more
    path = str(tmp_path / "p.pt")
    write_checkpoint(path, make_payload(algo="ppo", model=agent.model, model_spec=SPEC, variant=VARIANT))
    back = PolicyAgent.from_checkpoint(path)
    assert back.prior is not None and back.prior.margin == 0.05
    views = _views(VARIANT, 120, seed=5)
    assert [back.act(v) for v in views] == [agent.act(v) for v in views]
    data = read_checkpoint(path)
    data["model_spec"] = {"hidden": [32]}  # the prior dropped: the weights no longer fit
    write_checkpoint(path, data)
    with pytest.raises(CheckpointError, match="model_spec gives"):
        PolicyAgent.from_checkpoint(path)


def test_the_collector_appends_the_priors_columns():
    from agents.heuristic import HeuristicAgent

    variant = get_variant("crowsnest")
    col = SelfPlayCollector(variant, 4, seed=2, prior="heuristic")
    teacher = AgentController(HeuristicAgent(seed=0), "heuristic", record=True)
    ro = col.collect(lambda _: ([teacher] * 4, (0, 1, 2, 3)), 200)
    size, n = observation_layout(variant).size, layout_for(variant).num_actions
    assert ro.obs.shape[1] == size + n
    hint = ro.obs[:, size:]
    assert np.all(hint.sum(1) == 1)
    assert np.array_equal(hint.argmax(1), ro.actions)  # the prior is the heuristic here: its column is the move
    assert np.all(ro.masks[np.arange(len(ro)), hint.argmax(1)])


def test_a_residual_run_trains_exports_and_plays(tmp_path):
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data["ppo"] = {**data.get("ppo", {}), "prior": "heuristic?margin=0.05"}
    data.update(total_steps=300, eval_interval=0, bc_decisions=300, bc_epochs=1, bc_batch_size=64)
    cfg = tmp_path / "r.yaml"
    cfg.write_text(yaml.safe_dump(data))
    cli.run(str(cfg), str(tmp_path / "run"), evaluate=False)
    agent = PolicyAgent.from_checkpoint(str(tmp_path / "run" / "checkpoint.pt"))
    assert agent.prior is not None
    variant = agent.variant
    for v in _views(variant, 60, seed=9):
        assert v.legal >> agent.act(v) & 1
