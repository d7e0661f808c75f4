"""The one game driver (Table) and the batched VectorEnv: episode rules, autoreset, records,
illegal actions; a VectorEnv game replayed through env() gives the same masks, observations
and rewards step by step."""

from __future__ import annotations

import random

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env import HOLD, IllegalActionError, Table, VectorEnv
from crowsnest_env.rules import PASS, PRESETS, get_variant


def random_actions(obs, rng):
    m = obs["action_mask"]
    return np.argmax(m * rng.random(m.shape), axis=1)


@pytest.mark.parametrize("variant", list(PRESETS))
def test_vector_records_replay_through_env_step_by_step(variant):
    venv = VectorEnv(3, variant=variant, episode="hand")
    obs, info = venv.reset(seed=5)
    rng = np.random.default_rng(0)
    trace: dict[int, list] = {i: [] for i in range(3)}
    finished = []
    while len(finished) < 4:
        actions = random_actions(obs, rng)
        for i in range(3):
            trace[i].append((info["seat"][i], obs["observation"][i].copy(), obs["action_mask"][i].copy(),
                             int(actions[i])))
        obs, rewards, term, trunc, info = venv.step(actions)
        for i in range(3):
            trace[i][-1] += (rewards[i].copy(),)
        for fin in info.get("final", []):
            assert term[fin["index"]] and not trunc[fin["index"]]
            finished.append((fin["record"], trace[fin["index"]]))
            trace[fin["index"]] = []
            assert obs["action_mask"][fin["index"]].any()  # the slot already holds the next game
    compared = 0
    for record, steps in finished:
        state = crowsnest_env.replay(record)
        assert state.hand_no == 1
        if len(record["deals"]) > 1:
            continue  # passed out and redealt: env() would redeal from its own generator
        env = crowsnest_env.env(variant=variant, episode="hand")
        first = record["deals"][0]
        env.reset(options={"deal": first, "dealer": record["dealer"]})
        raw = env.unwrapped
        for seat, ob, mask, action, rew in steps:
            agent = f"player_{seat}"
            assert env.agent_selection == agent
            np.testing.assert_array_equal(env.observe(agent)["observation"], ob)
            np.testing.assert_array_equal(env.observe(agent)["action_mask"], mask)
            env.step(action)
            landed = [raw.rewards[f"player_{k}"] if raw._rewarded else 0.0 for k in range(4)]
            np.testing.assert_allclose(landed, rew, atol=1e-7)
        assert all(raw.terminations.values())
        assert raw.table.record()["actions"] == record["actions"]
        compared += 1
    assert compared >= 3


def test_vector_env_shapes_and_spaces():
    venv = VectorEnv(4, variant="tournament")
    obs, info = venv.reset(seed=0)
    d, a = venv.observation_layout.size, venv.num_actions
    assert obs["observation"].shape == (4, d) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].shape == (4, a) and obs["action_mask"].dtype == np.int8
    assert info["seat"].shape == (4,)
    assert venv.observation_space.contains(obs) and venv.single_action_space.n == a
    obs2, rewards, term, trunc, info2 = venv.step(random_actions(obs, np.random.default_rng(1)))
    assert rewards.shape == (4, 4) and rewards.dtype == np.float32
    assert term.shape == trunc.shape == (4,) and term.dtype == bool
    obs["observation"][:] = -1  # returned arrays are the caller's
    assert (obs2["observation"] >= -SCORE_CLIP()).all()


def SCORE_CLIP():
    from crowsnest_env.observation import SCORE_CLIP as clip

    return clip


def test_vector_env_seeded_reset_is_reproducible():
    a, b = VectorEnv(3), VectorEnv(3)
    oa, _ = a.reset(seed=11)
    ob, _ = b.reset(seed=11)
    np.testing.assert_array_equal(oa["observation"], ob["observation"])
    rng_a, rng_b = np.random.default_rng(2), np.random.default_rng(2)
    for _ in range(60):
        oa, ra, *_ = a.step(random_actions(oa, rng_a))
        ob, rb, *_ = b.step(random_actions(ob, rng_b))
        np.testing.assert_array_equal(oa["observation"], ob["observation"])
        np.testing.assert_array_equal(ra, rb)


def test_vector_env_illegal_action_names_game_and_loses_nothing():
    venv = VectorEnv(3)
    obs, info = venv.reset(seed=0)
    actions = random_actions(obs, np.random.default_rng(0))
    bad = actions.copy()
    bad[1] = int(np.flatnonzero(obs["action_mask"][1] == 0)[0])
    before = [t.state.clone() for t in venv.tables]
    with pytest.raises(IllegalActionError, match=rf"game 1: illegal action {bad[1]} .* by seat {info['seat'][1]}") \
            as err:
        venv.step(bad)
    assert err.value.game == 1 and err.value.seat == info["seat"][1]
    assert [t.state for t in venv.tables] == before  # no game was stepped
    venv.step(actions)  # and the env goes on
    with pytest.raises(ValueError, match="3 integers"):
        venv.step([0, 0])


def test_vector_env_hold_leaves_a_game_as_it_is():
    venv = VectorEnv(2)
    obs, _ = venv.reset(seed=3)
    actions = random_actions(obs, np.random.default_rng(0))
    actions[0] = HOLD
    state0 = venv.tables[0].state.clone()
    obs2, rewards, *_ = venv.step(actions)
    assert venv.tables[0].state == state0
    np.testing.assert_array_equal(obs2["observation"][0], obs["observation"][0])
    assert not rewards[0].any()


# ---------------------------------------------------------------------------- the Table
def test_all_pass_episodes_are_truncated_by_the_redeal_cap():
    """Issue: an episode never ended when every seat passed, even with max_hands=1."""
    table = Table("crowsnest", episode="hand", max_hands=1, max_redeals=7)
    table.reset(0)
    steps = 0
    while not table.done:
        table.step(PASS)
        steps += 1
    assert table.truncated and not table.terminated and table.redeals == 7 and steps == 28
    assert len(table.deals()) == 7 and table.rewards == (0.0, 0.0, 0.0, 0.0)
    env = crowsnest_env.env(max_redeals=3)
    env.reset(seed=0)
    for _agent in env.agent_iter(100):
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else PASS)
    assert all(env.unwrapped.truncations.values()) and not env.agents


def test_default_redeal_cap_bounds_every_episode():
    table = Table("partnership")
    table.reset(1)
    while not table.done:
        table.step(PASS)
    assert table.truncated and table.redeals == crowsnest_env.DEFAULT_MAX_REDEALS
    with pytest.raises(RuntimeError, match="episode is over"):
        table.step(PASS)


def test_max_hands_truncates_and_win_rewards_land_at_game_end():
    rng = random.Random(0)
    table = Table("crowsnest", episode="game", max_hands=2)
    table.reset(4)
    hands = 0
    while not table.done:
        table.step(rng.choice(table.state.legal_actions()))
        hands += table.scored is not None
    assert table.truncated and hands == 2
    win = Table("crowsnest", episode="game", reward="win")
    win.reset(4, scores=(290, 0))
    total = [0.0] * 4
    while not win.done:
        r = win.step(rng.choice(win.state.legal_actions()))
        total = [x + y for x, y in zip(total, r)]
    assert win.terminated and sorted(total) == [-1.0, -1.0, 1.0, 1.0]
    assert total[win.state.winner] == 1.0


def test_table_rejects_bad_options():
    for kwargs, match in [({"episode": "set"}, "unknown episode"), ({"reward": 1}, "unknown reward"),
                          ({"max_hands": 0}, "max_hands"), ({"max_redeals": 1.5}, "max_redeals"),
                          ({"variant": "spades"}, "unknown variant")]:
        with pytest.raises(ValueError, match=match):
            Table(**kwargs)
    t = Table()
    with pytest.raises(ValueError, match="dealer"):
        t.reset(0, dealer=4)
    with pytest.raises(ValueError, match="scores"):
        t.reset(0, scores=(1, "x"))


def test_custom_variant_object_and_yaml_file(tmp_path):
    import dataclasses

    import yaml

    from crowsnest_env.variant_config import variant_to_dict

    short = dataclasses.replace(get_variant("crowsnest"), name="short_game", target=150)
    env = crowsnest_env.env(variant=short)
    env.reset(seed=0)
    assert env.unwrapped.variant.target == 150
    record_path = tmp_path / "rec.json"
    rng = np.random.default_rng(0)
    for _agent in env.agent_iter(300):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    env.unwrapped.save_record(str(record_path))
    import json

    rec = json.loads(record_path.read_text())
    assert rec["rules"]["target"] == 150  # a custom variant travels with its records
    assert crowsnest_env.replay(rec) == env.unwrapped.game
    path = tmp_path / "my_rules.yaml"
    path.write_text(yaml.safe_dump(variant_to_dict(short)))
    assert Table(str(path)).variant == short
    assert crowsnest_env.VectorEnv(2, variant=str(path)).variant == short


def test_no_crow_variant_has_its_own_name():
    full, bare = get_variant("crowsnest"), get_variant("crowsnest", crow=False)
    assert bare.name == "crowsnest_nocrow" != full.name
    assert get_variant("crowsnest_nocrow") == bare
    assert crowsnest_env.raw_env(variant="crowsnest", crow=False).variant == bare
