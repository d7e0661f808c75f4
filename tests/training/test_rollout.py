"""Reward timing: each seat's transition gets the rewards that land before its next decision."""

from __future__ import annotations

import random

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env.rules import NUM_SEATS, new_game
from training.rollout import (
    NetController,
    SelfPlayCollector,
    attribute_rewards,
    seat_credit,
)


def scripted(masks: np.ndarray) -> np.ndarray:
    """Bid 70 if nobody has bid, else the lowest legal id (pass, lowest discard, Black, lowest card)."""
    return np.array([1 if m[1] else int(np.flatnonzero(m)[0]) for m in masks])


def test_attribute_rewards_credits_latest_decision_of_each_seat():
    movers = [0, 1, 2, 3, 0, 1]
    rewards = [(0, 0, 0, 0)] * 4 + [(0.5, -0.5, 0.5, -0.5), (0, 0, 0, 0)]
    out = attribute_rewards(movers, rewards)
    # landed after step 4 (seat 0's 2nd move): seat 0 -> step 4, seat 1 -> step 1, 2 -> step 2, 3 -> step 3
    np.testing.assert_allclose(out, [0, -0.5, 0.5, -0.5, 0.5, 0])
    # every decision recorded: each seat's rewards as attributed, its last decision done
    m = np.asarray(movers)
    dones = np.zeros(len(movers))
    for seat in range(NUM_SEATS):
        steps = list(np.flatnonzero(m == seat))
        gain, done = seat_credit(m, out, seat, steps)
        np.testing.assert_allclose(gain, out[steps])
        dones[steps] = done
    np.testing.assert_array_equal(dones, [0, 0, 1, 1, 1, 1])


def test_seat_credit_moves_a_teachers_reward_to_the_latest_recorded_decision():
    movers = np.array([0, 1, 0, 1, 0])
    rewards = np.array([0.0, 0.0, 0.25, 0.0, 1.0])  # seat 0's steps 2 and 4 were a teacher's
    gain, done = seat_credit(movers, rewards, 0, [0])
    np.testing.assert_allclose(gain, [1.25])
    np.testing.assert_array_equal(done, [1])
    gain, done = seat_credit(movers, rewards, 0, [2])  # step 0 came before any record: dropped
    np.testing.assert_allclose(gain, [1.25])
    assert seat_credit(movers, rewards, 1, [])[0].size == 0


def test_attribute_rewards_drops_reward_before_a_seats_first_move():
    out = attribute_rewards([0, 1], [(1.0, 1.0, 1.0, 1.0), (0, 0, 0, 0)])
    np.testing.assert_allclose(out, [1.0, 0.0])


def _play_aec(env, policy, rng):
    """Play to the end; per seat, the rewards last() hands over, and the global step log."""
    movers, landed, seen = [], [], {s: [] for s in range(NUM_SEATS)}
    raw = env.unwrapped
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        seat = raw.agent_name_mapping[agent]
        if movers and seat in movers:  # reward for this seat's previous decision
            seen[seat].append(reward)
        if term or trunc:
            env.step(None)
            continue
        action = policy(obs["action_mask"], rng)
        movers.append(seat)
        env.step(action)
        landed.append(tuple(raw.rewards[a] for a in crowsnest_env.AGENTS))
    return movers, landed, seen


def test_scripted_hand_returns_equal_each_seats_share():
    v = crowsnest_env.get_variant("crowsnest")
    state = new_game(v, rng=random.Random(5))
    names = state.cards.names_of
    deal = {"hands": [names(h) for h in state.hands], "nest": names(state.nest)}
    env = crowsnest_env.env(variant="crowsnest", episode="hand")
    env.reset(seed=0, options={"deal": deal, "dealer": 0})
    movers, landed, seen = _play_aec(env, lambda m, _: int(scripted(m[None])[0]), None)
    change = env.unwrapped.game.results[-1].score_change
    share = (change[0] - change[1]) / v.total_points
    assert share != 0
    credit = attribute_rewards(movers, landed)
    for s in range(NUM_SEATS):
        mine = [credit[t] for t, m in enumerate(movers) if m == s]
        expected = share if s % 2 == 0 else -share
        assert sum(mine) == pytest.approx(expected)
        assert mine[-1] == pytest.approx(expected) and not any(mine[:-1])
        assert mine == pytest.approx(seen[s])  # what last() delivered, transition by transition


def test_multi_hand_game_matches_aec_last_rewards():
    """Rewards land mid-episode after each hand; credit equals what last() delivers."""
    env = crowsnest_env.env(variant="crowsnest", episode="game", max_hands=3)
    env.reset(seed=11)
    rng = random.Random(3)
    movers, landed, seen = _play_aec(env, lambda m, r: r.choice(np.flatnonzero(m).tolist()), rng)
    assert env.unwrapped.game.hand_no == 3
    credit = attribute_rewards(movers, landed)
    for s in range(NUM_SEATS):
        mine = [credit[t] for t, m in enumerate(movers) if m == s]
        assert mine == pytest.approx(seen[s])
    assert sum(1 for x in credit if x) >= 3 * 4 - 4  # every seat credited after each hand (bar none)


def test_collector_scripted_self_play_returns_are_hand_shares():
    v = crowsnest_env.get_variant("crowsnest")
    learner = NetController(lambda obs, masks: (scripted(masks), {"tag": np.zeros(len(obs))}), "self_play")
    col = SelfPlayCollector(v, num_envs=1, seed=4)
    ro = col.collect(lambda i: ([learner] * 4, (0, 1, 2, 3)), min_steps=1)
    assert ro.episodes == 1 and ro.truncated == 0 and len(ro.bootstrap_index) == 0
    share = ro.episode_returns[0]  # team 0's (score change - team 1's) / 120: a whole number of 5s
    assert share != 0 and round(share * v.total_points) % 5 == 0
    # four contiguous per-seat trajectories, each ending with done=1 and carrying its share
    ends = np.flatnonzero(ro.dones)
    assert len(ends) == 4 and ends[-1] == len(ro) - 1
    starts = np.concatenate([[0], ends[:-1] + 1])
    totals = sorted(float(ro.rewards[a:b + 1].sum()) for a, b in zip(starts, ends))
    assert totals == pytest.approx(sorted([share, -share, share, -share]))
    assert ro.masks[np.arange(len(ro)), ro.actions].all()
    assert ro.obs.shape == (len(ro), crowsnest_env.raw_env().observation_layout.size)


def test_collector_keeps_only_learner_seats():
    from crowsnest_env.agent import RandomAgent
    from training.rollout import AgentController

    v = crowsnest_env.get_variant("crowsnest")
    learner = NetController(lambda obs, masks: (scripted(masks), {}), "self_play")
    opp = AgentController(RandomAgent(seed=1), "random")
    col = SelfPlayCollector(v, num_envs=3, seed=9)
    ro = col.collect(lambda i: ([learner, opp, learner, opp], (0, 2)), min_steps=30)
    assert len(ro) >= 30 and ro.env_steps > len(ro)
    assert int(ro.dones.sum()) == 2 * ro.episodes
    assert set(ro.opponent_returns) == {"random"}


def test_auction_teacher_bids_are_not_recorded():
    from agents.heuristic import HeuristicAgent
    from crowsnest_env.observation import observation_layout
    from training.rollout import AgentController, PhaseTeacher

    v = crowsnest_env.get_variant("crowsnest")
    learner = NetController(lambda obs, masks: (np.array([int(np.flatnonzero(m)[-1]) for m in masks]), {}),
                            "self_play")
    me = PhaseTeacher(AgentController(HeuristicAgent(seed=0), "heuristic"), learner)
    col = SelfPlayCollector(v, num_envs=2, seed=1)
    ro = col.collect(lambda i: ([me] * 4, (0, 1, 2, 3)), min_steps=100)
    phase = observation_layout(v)["phase"].slice
    assert ro.obs[:, phase][:, 0].sum() == 0  # no auction decision among the transitions
    assert ro.obs[:, phase][:, 3].sum() > 0  # card play is
    assert ro.declared > 0  # contracts are formed (by the teacher's bids)


def test_auction_teacher_bids_recorded_with_learner_scores_when_asked():
    from agents.heuristic import HeuristicAgent
    from crowsnest_env.observation import observation_layout
    from training.rollout import AgentController, PhaseTeacher

    v = crowsnest_env.get_variant("crowsnest")

    def score(obs, masks, actions):
        assert masks[np.arange(len(actions)), actions].all()
        return {"logprob": np.full(len(obs), -1.0), "value": np.zeros(len(obs))}

    learner = NetController(lambda obs, masks: (scripted(masks), {"logprob": np.zeros(len(obs)),
                                                                   "value": np.zeros(len(obs))}), "self_play", score)
    me = PhaseTeacher(AgentController(HeuristicAgent(seed=0), "heuristic"), learner, record=True)
    ro = SelfPlayCollector(v, num_envs=2, seed=1).collect(lambda i: ([me] * 4, (0, 1, 2, 3)), min_steps=100)
    auction = ro.obs[:, observation_layout(v)["phase"].slice][:, 0] == 1
    assert auction.any()
    assert (ro.extras["logprob"][auction] == -1.0).all() and (ro.extras["logprob"][~auction] == 0.0).all()


def test_collector_marks_truncated_episodes_for_bootstrapping():
    """The env's max_hands truncates a game episode; the learner seats' last transitions are
    listed with their observation at the cut (for gamma * V(s'))."""
    v = crowsnest_env.get_variant("crowsnest")
    learner = NetController(lambda obs, masks: (scripted(masks), {}), "self_play")
    col = SelfPlayCollector(v, num_envs=2, seed=3, episode="game", max_hands=1)
    ro = col.collect(lambda i: ([learner] * 4, (0, 1, 2, 3)), min_steps=50)
    assert ro.truncated == ro.episodes > 0
    assert len(ro.bootstrap_index) == 4 * ro.episodes
    assert ro.dones[ro.bootstrap_index].all()
    assert ro.bootstrap_obs.shape == (len(ro.bootstrap_index), ro.obs.shape[1])
    scores = observation_layout_piece(v, "scores")
    assert np.abs(ro.bootstrap_obs[:, scores]).sum() > 0  # the cut comes after a scored hand


def observation_layout_piece(v, name):
    from crowsnest_env.observation import observation_layout

    return observation_layout(v)[name].slice
