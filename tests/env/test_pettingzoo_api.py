"""PettingZoo's own test utilities, pickling, determinism, and the illegal-move conventions."""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import crowsnest_env
from crowsnest_env import IllegalActionError
from tests.conftest import VARIANT_IDS, VARIANT_OPTIONS


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("variant,crow", VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_api_seed_render(variant, crow):
    api_test(crowsnest_env.env(variant=variant, crow=crow), num_cycles=400)
    seed_test(lambda **kw: crowsnest_env.env(variant=variant, crow=crow, **kw), num_cycles=300)
    render_test(lambda render_mode=None: crowsnest_env.env(variant=variant, crow=crow, render_mode=render_mode))


def test_pettingzoo_make_registered():
    env = pettingzoo.make("aec", crowsnest_env.ENV_ID, variant="tournament")
    env.reset(seed=0)
    assert env.unwrapped.variant.name == "tournament"
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]


def _play(env, seed: int, steps: int) -> list:
    """Masked random play; returns the trace of (agent, action, reward)."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, _ = env.last()
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action, round(float(reward), 6), obs["observation"].sum().round(4)))
        env.step(action)
    return trace


def test_pickle_round_trip_mid_game():
    env = crowsnest_env.env(variant="red_one")
    _play(env, seed=3, steps=57)
    clone = pickle.loads(pickle.dumps(env))
    a, b = env.unwrapped, clone.unwrapped
    assert a.game == b.game
    np.testing.assert_array_equal(a.observe(a.agent_selection)["observation"],
                                  b.observe(b.agent_selection)["observation"])
    rng_a, rng_b = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(40):  # both continue identically
        for e, rng in ((env, rng_a), (clone, rng_b)):
            obs, _, term, trunc, _ = e.last()
            e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert env.unwrapped.game == clone.unwrapped.game
    for agent in env.possible_agents:
        np.testing.assert_array_equal(a.observe(agent)["observation"], b.observe(agent)["observation"])


def test_same_seed_same_game_despite_global_rng_disturbance():
    env = crowsnest_env.env(variant="buckeye")
    first = _play(env, seed=11, steps=300)
    np.random.seed(123)
    import random

    random.seed(456)
    np.random.random(17)
    assert _play(env, seed=11, steps=300) == first
    assert _play(env, seed=12, steps=300) != first


_CHILD = """
import json, numpy as np, crowsnest_env
env = crowsnest_env.env(variant="dixie")
rng = np.random.default_rng(5)
env.reset(seed=5)
out = []
for agent in env.agent_iter(400):
    obs, r, term, trunc, _ = env.last()
    a = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    out.append([agent, a, float(r)])
    env.step(a)
print(json.dumps([out, env.unwrapped.game_record()]))
"""


def test_same_seed_same_game_across_processes_and_hash_seeds():
    outputs = []
    for hash_seed in ("0", "4242"):
        envvars = {**os.environ, "PYTHONHASHSEED": hash_seed}
        res = subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, env=envvars,
                             check=True, cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
        outputs.append(json.loads(res.stdout))
    assert outputs[0] == outputs[1]
    assert len(outputs[0][0]) == 400


def test_raw_env_illegal_action_names_action_and_phase():
    env = crowsnest_env.raw_env()
    env.reset(seed=0)
    play = env.action_id("play CROW")
    with pytest.raises(IllegalActionError, match=r"play CROW.*AUCTION"):
        env.step(play)
    with pytest.raises(IllegalActionError, match="out of range"):
        env.step(env.num_actions + 3)
    with pytest.raises(IllegalActionError):
        env.step(-1)


def test_wrapped_env_follows_terminate_illegal_convention():
    env = crowsnest_env.env()
    env.reset(seed=0)
    mover = env.agent_selection
    illegal = env.unwrapped.action_id("play CROW")  # no card can be played during the auction
    env.step(illegal)
    assert all(env.terminations.values())
    assert env._cumulative_rewards[mover] == -1
    assert all(env._cumulative_rewards[a] == 0 for a in env.agents if a != mover)


def test_wrapped_env_rejects_out_of_bounds_action():
    env = crowsnest_env.env()
    env.reset(seed=0)
    with pytest.raises(AssertionError, match="action space"):
        env.step(10_000)


def test_step_before_reset_is_an_error():
    env = crowsnest_env.env()
    with pytest.raises(Exception, match="reset"):
        env.step(0)


def test_standard_wrapper_stack_also_passes_api_test():
    from crowsnest_env.wrappers import wrap_standard

    api_test(wrap_standard(crowsnest_env.raw_env(variant="dixie")), num_cycles=300)


def test_convention_wrapper_matches_standard_stack():
    """Same trace of rewards, terminations and agents as PettingZoo's own three wrappers."""
    from crowsnest_env.wrappers import wrap_standard

    traces = []
    for make in (crowsnest_env.env, lambda: wrap_standard(crowsnest_env.raw_env())):
        env = make()
        env.reset(seed=2)
        rng = np.random.default_rng(2)
        for _ in range(30):  # some legal moves first
            obs, *_ = env.last()
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        obs, *_ = env.last()
        env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an illegal move
        trace = [(dict(env.terminations), dict(env.truncations), dict(env._cumulative_rewards), env.agent_selection)]
        for agent in env.agent_iter():
            _, reward, term, trunc, _ = env.last()
            trace.append((agent, reward, term, trunc))
            env.step(None)
        trace.append(list(env.agents))
        traces.append(trace)
    assert traces[0] == traces[1]
    assert traces[0][-1] == []
