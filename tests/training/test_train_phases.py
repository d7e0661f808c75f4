"""``train_phases``: the learner decides some phases, a rule agent plays the rest unrecorded."""

from __future__ import annotations

import os

import numpy as np
import pytest
import yaml

import crowsnest_env
from agents.heuristic import HeuristicAgent
from crowsnest_env.observation import observation_layout
from crowsnest_env.rules import Phase
from training import cli
from training.config import ConfigError, config_from_dict
from training.rollout import AgentController, NetController, PhaseTeacher, SelfPlayCollector

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V = crowsnest_env.get_variant("crowsnest")


def _bidder(masks: np.ndarray) -> np.ndarray:
    """Open at the lowest bid if nobody has bid, else pass."""
    return np.array([1 if m[1] else 0 for m in masks])


def test_a_learner_that_only_bids_gets_the_hands_reward_on_its_last_bid():
    learner = NetController(lambda obs, masks: (_bidder(masks), {}), "self_play")
    me = PhaseTeacher(AgentController(HeuristicAgent(seed=0), "heuristic"), learner,
                      phases=frozenset({Phase.DISCARD, Phase.TRUMP, Phase.PLAY}))
    ro = SelfPlayCollector(V, num_envs=3, seed=5).collect(lambda i: ([me] * 4, (0, 1, 2, 3)), min_steps=200)
    phase = ro.obs[:, observation_layout(V)["phase"].slice]
    assert (phase[:, 0] == 1).all()  # auction decisions only
    assert ro.declared > 0 and ro.made > 0  # the teacher played the hands out
    # one trajectory per seat and episode, each ending on a done, and the hand's reward on it:
    # a hand's rewards are zero-sum across the teams, so the four seats' rewards cancel per episode
    assert int(ro.dones.sum()) == 4 * ro.episodes
    ends = np.flatnonzero(ro.dones)
    assert np.count_nonzero(ro.rewards[ends]) > 0
    assert np.count_nonzero(np.delete(ro.rewards, ends)) == 0  # nothing lands before a seat's last bid
    assert abs(ro.rewards.sum()) < 1e-4


def test_train_phases_are_checked():
    assert config_from_dict({}).train_phases == ["auction", "discard", "trump", "play"]
    assert config_from_dict({"train_phases": ["auction"]}).train_phases == ["auction"]
    for bad in ([], ["bidding"], ["auction", "auction"], "auction"):
        with pytest.raises(ConfigError, match="train_phases"):
            config_from_dict({"train_phases": bad})
    with pytest.raises(ConfigError, match="teacher_auction"):
        config_from_dict({"train_phases": ["play"], "teacher_auction": 0.5})


def test_a_run_that_trains_the_auction_only(tmp_path):
    with open(os.path.join(ROOT, "configs", "tiny_ppo.yaml"), encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    data["ppo"] = {**data.get("ppo", {}), "prior": "heuristic?margin=0.05"}
    data.update(total_steps=200, eval_interval=0, train_phases=["auction"])
    cfg = tmp_path / "a.yaml"
    cfg.write_text(yaml.safe_dump(data))
    out = cli.run(str(cfg), str(tmp_path / "run"), evaluate=False)
    assert out["global_step"] >= 200
