"""Other libraries' PettingZoo wrappers, unchanged, hold what the env hands out.

Tianshou's ``PettingZooEnv`` + ``Collector`` store every step's ``info`` in a replay buffer
(``infos[agent]["hand"]`` appears only after a scored hand: the buffer zero-fills the other
rows) and the reward vector of all four seats in the row of the seat that acted last.
RLlib's ``PettingZooEnv`` hands each seat its accumulated reward at its next turn or at the end.
"""

from __future__ import annotations

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env.rules import get_variant


def test_tianshou_buffer_holds_the_hand_summary_and_all_seats_rewards():
    pytest.importorskip("tianshou")
    from tianshou.algorithm.multiagent.marl import MultiAgentOffPolicyAlgorithm
    from tianshou.algorithm.random import MARLRandomDiscreteMaskedOffPolicyAlgorithm
    from tianshou.data import Collector, VectorReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv

    def make():
        return PettingZooEnv(crowsnest_env.env(variant="crowsnest", episode="hand"))

    env = make()
    algorithm = MultiAgentOffPolicyAlgorithm(
        algorithms=[MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(4)],
        env=env)
    buf = VectorReplayBuffer(2000, 2)
    envs = DummyVectorEnv([make, make])
    envs.seed(0)
    Collector(algorithm, envs, buf).collect(n_episode=4, reset_before_collect=True)
    done = np.flatnonzero(buf.terminated)
    assert len(done) >= 4 and not buf.truncated.any()  # masked play: no illegal move ended a hand
    hand = buf.info.hand
    assert (hand.bid[done] >= get_variant("crowsnest").min_bid).all()
    assert (hand.points[done].sum(axis=1) == get_variant("crowsnest").total_points).all()
    others = np.setdiff1d(np.flatnonzero(buf.obs.agent_id != ""), done)
    assert (hand.bid[others] == 0).all()  # zero-filled where no hand was scored: read bid > 0, not declarer
    rew = buf.rew[done]
    assert np.allclose(rew[:, 0], rew[:, 2]) and np.allclose(rew[:, 0], -rew[:, 1])
    assert np.abs(rew).min() > 0 and np.allclose(buf.rew[others], 0)


def test_rllib_wrapper_gives_each_seat_its_hand_reward():
    pytest.importorskip("ray.rllib")
    from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv

    env = PettingZooEnv(crowsnest_env.env(variant="crowsnest", episode="hand"))
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for _ in range(500):
        (agent, o), = obs.items()
        obs, rew, term, trunc, info = env.step({agent: int(rng.choice(np.flatnonzero(o["action_mask"])))})
        for a, r in rew.items():
            totals[a] += r
        if term["__all__"] or trunc["__all__"]:
            break
    assert term["__all__"] and set(rew) == set(env.possible_agents)  # every seat gets its last reward
    assert totals["player_0"] == totals["player_2"] == -totals["player_1"] == -totals["player_3"] != 0
    assert all(isinstance(i.get("hand", {}).get("declarer", 0), int) for i in info.values())
