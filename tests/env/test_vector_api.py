"""What trainers need from VectorEnv, through its public API: phases, deal generators, spaces."""

from __future__ import annotations

import random

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env import VectorEnv
from crowsnest_env.rules import Phase


def _play(venv: VectorEnv, steps: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    obs, _ = venv.reset()
    seen = [obs["observation"].copy()]
    for _ in range(steps):
        acts = [int(rng.choice(np.flatnonzero(m))) for m in obs["action_mask"]]
        obs, *_ = venv.step(np.asarray(acts))
        seen.append(obs["observation"].copy())
    return seen


def test_generator_states_restore_the_same_games():
    venv = VectorEnv(3, episode="hand")
    venv.set_generator_states([random.Random(100 + i).getstate() for i in range(3)])
    saved = venv.generator_states()
    first = _play(venv, 60, seed=1)
    _play(venv, 30, seed=2)  # the generators move on
    assert venv.generator_states() != saved
    venv.set_generator_states(saved)
    again = _play(venv, 60, seed=1)
    assert all(np.array_equal(a, b) for a, b in zip(first, again))
    # the same as seeding each game's table generator with that seed
    other = VectorEnv(3, episode="hand")
    other.set_generator_states([random.Random(100 + i).getstate() for i in range(3)])
    assert all(np.array_equal(a, b) for a, b in zip(first, _play(other, 60, seed=1)))


def test_set_generator_states_needs_one_state_per_game():
    with pytest.raises(ValueError, match="needs 2 states"):
        VectorEnv(2).set_generator_states([random.Random(0).getstate()])


def test_phase_is_each_games_phase():
    venv = VectorEnv(2, episode="hand")
    venv.reset(seed=3)
    assert [venv.phase(i) for i in range(2)] == [Phase.AUCTION, Phase.AUCTION]
    assert venv.phase(1) is venv.view(1).phase


@pytest.mark.parametrize("variant", ["crowsnest", "buckeye"])
def test_the_three_faces_have_the_same_observation_bounds(variant):
    aec = crowsnest_env.env(variant=variant).unwrapped.observation_space("player_0")["observation"]
    vec = VectorEnv(2, variant=variant)
    single = crowsnest_env.SingleSeatEnv(variant=variant).observation_space
    for box in (vec.single_observation_space["observation"], single):
        assert np.array_equal(box.low, aec.low) and np.array_equal(box.high, aec.high)
    low, high = vec.observation_layout.bounds()
    scores = vec.observation_layout["scores"].slice
    assert (low[scores] < 0).all() and (high[scores] > 1).all() and set(np.unique(low)) == {0.0, low[scores][0]}
    assert np.array_equal(vec.observation_space["observation"].low, np.tile(low, (2, 1)))
