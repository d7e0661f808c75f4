"""Issue 18, env: stepping before reset, reset scores, checkpoint fields of the wrong type, and
records nested too deep or too large.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import crowsnest_env
from agents.checkpoint import CheckpointError, read_checkpoint
from crowsnest_env import SingleSeatEnv, VectorEnv
from crowsnest_env.record import MAX_RECORD_BYTES, load, replay
from crowsnest_env.rules import MAX_SCORE
from crowsnest_env.table import Table
from tests._bad_input import MAX_MESSAGE, custom_record, training_checkpoint


def test_stepping_before_reset():
    venv = VectorEnv(2)
    with pytest.raises(RuntimeError, match="before reset"):
        venv.step(np.zeros(2, np.int64))
    venv.reset(seed=0)
    venv.step(np.array([0, 0]))  # pass is legal in the auction
    raw = crowsnest_env.raw_env()  # a sibling: the AEC env without its wrappers
    for call in (lambda: raw.step(0), lambda: raw.last(), lambda: raw.observe("player_0")):
        with pytest.raises(RuntimeError, match="before reset"):
            call()
    raw.reset(seed=0)
    raw.step(0)


@pytest.mark.parametrize("scores", [[math.inf, 0], [0, -math.inf], [math.nan, 0], [MAX_SCORE + 1, 0],
                                    [0, -10**400], [1.5, 0], ["1", 0], [True, 0]])
def test_reset_scores_are_finite_bounded_integers(scores):
    for make in (crowsnest_env.raw_env, crowsnest_env.env, SingleSeatEnv):
        with pytest.raises(ValueError, match="scores"):
            make().reset(options={"scores": scores})
    with pytest.raises(ValueError, match="scores"):
        VectorEnv(1).reset(options={"scores": scores})
    with pytest.raises(ValueError, match="scores"):
        Table().reset(0, scores=scores)
    env = crowsnest_env.raw_env()
    env.reset(options={"scores": [MAX_SCORE, -MAX_SCORE]})  # the bound itself is fine
    assert env.unwrapped.scores == [MAX_SCORE, -MAX_SCORE]


def test_record_scores_beyond_the_bound_are_refused():
    rec = custom_record()
    with pytest.raises(ValueError, match="scores"):
        replay({**rec, "scores": [10**400, 0]})


@pytest.mark.parametrize(("key", "value", "named"), [
    ("layout", 5, "layout must be a list"), ("layout", {"hand": 0}, "layout must be a list"),
    ("layout", [["hand", "0", [41]]], "layout must be a list"), ("layout", [[1]], "layout must be a list"),
    ("rules", 5, "rules must be a mapping"), ("crow", "no", "crow must be true or false"),
    ("variant", ["crowsnest"], "variant must be"), ("num_actions", "98", "num_actions"),
    ("global_step", [1], "global_step"), ("update", -1, "update"), ("config", 5, "config"),
    ("extra", "x", "extra"), ("algo", ["ppo"], "algo"),
])
def test_checkpoint_fields_of_the_wrong_type(tmp_path, key, value, named):
    path = tmp_path / "ck.pt"
    training_checkpoint(path)
    data = torch.load(path, weights_only=True)
    data[key] = value
    torch.save(data, path)
    with pytest.raises(CheckpointError, match=named):
        read_checkpoint(path)


def test_replay_of_deeply_nested_or_huge_json(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ValueError, match="nested too deeply"):
        load(deep)
    rec = custom_record()
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    with pytest.raises(ValueError, match="record deal 0") as info:
        replay({**rec, "deals": [nested]})  # in memory: no parser to stop it, and the message stays short
    assert len(str(info.value)) < MAX_MESSAGE
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(MAX_RECORD_BYTES + 1)
    with pytest.raises(ValueError, match="larger than"):
        load(huge)
    from agents.play.session import load_record

    with pytest.raises(ValueError, match="nested too deeply"):
        load_record(str(deep))


def test_a_huge_bad_action_or_option_is_quoted_short():
    from crowsnest_env.rules import IllegalActionError

    env = crowsnest_env.raw_env()
    env.reset(seed=0)
    for action in ("x" * 10**6, 10**1000, [0] * 10**5):
        with pytest.raises(IllegalActionError) as info:
            env.step(action)
        assert len(str(info.value)) < MAX_MESSAGE
    for make in (crowsnest_env.raw_env, SingleSeatEnv):
        with pytest.raises(ValueError, match="options") as info:
            make().reset(options=[0] * 10**5)
        assert len(str(info.value)) < MAX_MESSAGE
