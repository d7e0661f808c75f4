"""Issue 8: bad input of every family fails early with a ValueError (ConfigError, CheckpointError,
IllegalActionError) that names the problem; nothing reaches torch, a worker, or a late crash."""

from __future__ import annotations

import copy
import math

import pytest

import crowsnest_env
from agents import make_agent
from agents.heuristic import HeuristicAgent
from crowsnest_env import SingleSeatEnv
from crowsnest_env.record import replay
from crowsnest_env.rules import IllegalActionError, get_variant
from training.config import ConfigError, config_from_dict

# ------------------------------------------------------------------ training configs
BAD_CONFIGS = [
    ({"ppo": {"hidden": []}}, "ppo: model_spec hidden"),
    ({"ppo": {"hidden": [0]}}, r"hidden\[0\]"),
    ({"dmc": {"hidden": [64, -1]}}, r"hidden\[1\]"),
    ({"dmc": {"action_embed": 0}}, "action_embed"),
    ({"ppo": {"hidden": [65536, 65536]}}, "parameters"),
    ({"total_steps": 0}, "total_steps"),
    ({"ppo": {"num_envs": -3}}, "ppo.num_envs"),
    ({"dmc": {"num_actors": -1}}, "dmc.num_actors"),
    ({"ppo": {"update_epochs": 0}}, "ppo.update_epochs"),
    ({"eval_workers": 0}, "eval_workers"),
    ({"ppo": {"learning_rate": -1e-3}}, "ppo.learning_rate"),
    ({"ppo": {"learning_rate": math.nan}}, "ppo.learning_rate"),
    ({"dmc": {"learning_rate": 0.0}}, "dmc.learning_rate"),
    ({"ppo": {"gamma": 1.5}}, "ppo.gamma"),
    ({"dmc": {"epsilon": math.inf}}, "dmc.epsilon"),
    ({"teacher_auction": -0.1}, "teacher_auction"),
    ({"opponents": {"self_play": 0, "snapshot": 0, "heuristic": 0, "random": 0}}, "positive sum"),
    ({"opponents": {"heuristic": math.nan}}, "opponents.heuristic"),
    ({"opponents": {"random": -1.0}}, "opponents.random"),
    ({"ppo": {"minibatch_size": 5000, "rollout_steps": 100}}, "minibatch_size"),
    ({"dmc": {"batch_size": 300, "rollout_steps": 200}}, "dmc.batch_size"),
    ({"algo": "a2c"}, "algo"),
    ({"episode": "trick"}, "episode"),
    ({"variant": "nope"}, "variant"),
    ({"name": "../escape"}, "name"),
    ({"seed": -1}, "seed"),
    ({"max_wall_time": -5.0}, "max_wall_time"),
    ({"total_steps": "many"}, "total_steps"),
]


@pytest.mark.parametrize(("over", "named"), BAD_CONFIGS, ids=[str(o) for o, _ in BAD_CONFIGS])
def test_config_rejects_nonsense_naming_the_field(over, named):
    with pytest.raises(ConfigError, match=named):
        config_from_dict(over)


def test_default_and_tiny_configs_are_valid():
    config_from_dict({})
    config_from_dict({"ppo": {"hidden": [32]}, "dmc": {"num_actors": 0, "hidden": [32], "action_embed": 8}})


# ------------------------------------------------------------------ agent specs
@pytest.mark.parametrize("spec", ["pimc?samples=0", "pimc?samples=1.5", "pimc?nodes=-1", "pimc?time_limit=0",
                                  "pimc?trump_bias=nan", "pimc?min_samples=x", "pimc?bogus=1", "pimc?bid_margin=inf",
                                  "heuristic?margin=nan", "heuristic?depth=3", "random?x=1", "random?seed=3",
                                  "pimc?samples", "nobody"])
def test_agent_spec_errors_name_the_agent(spec):
    with pytest.raises(ValueError, match=r"agent|option"):
        make_agent(spec)


def test_valid_agent_options_still_build():
    agent = make_agent("pimc?samples=3,nodes=200,time_limit=none,from_trick=2")
    assert (agent.samples, agent.nodes, agent.time_limit, agent.from_trick) == (3, 200, None, 2)


def test_heuristic_raises_on_an_illegal_choice(monkeypatch):
    """The heuristic never returns a move it did not choose: a rule bug is loud."""
    import agents.heuristic as heuristic

    env = crowsnest_env.raw_env(episode="hand")
    env.reset(seed=0)
    view = env.view(env.agent_selection)
    monkeypatch.setattr(heuristic, "bid_action", lambda *a, **k: view.layout.play_offset)  # a card in the auction
    with pytest.raises(RuntimeError, match="illegal action"):
        HeuristicAgent(0).act(view)


def test_heuristic_is_always_legal_so_it_never_raises():
    for seed in range(3):
        env = crowsnest_env.raw_env(episode="hand")
        env.reset(seed=seed)
        agent = HeuristicAgent(seed)
        for name in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            env.step(None if term or trunc else agent.act(env.view(name)))


# ------------------------------------------------------------------ records
def _record():
    env = crowsnest_env.raw_env(episode="hand")
    env.reset(seed=3)
    agent = HeuristicAgent(3)
    for name in env.agent_iter():
        _, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else agent.act(env.view(name)))
    return env.game_record()


def _mutate(rec, path, value):
    rec = copy.deepcopy(rec)
    *head, last = path
    target = rec
    for k in head:
        target = target[k]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return rec


BAD_RECORDS = [
    (("actions", 0), 1.5, "action 0"),
    (("actions", 3), "12", "action 3"),
    (("actions", 0), True, "action 0"),
    (("scores", 0), math.nan, "scores"),
    (("scores",), [0], "scores"),
    (("options", "crow"), "false", "crow"),
    (("options", "variant"), 7, "variant"),
    (("dealer",), KeyError, "missing"),
    (("actions",), KeyError, "missing"),
    (("dealer",), 4, "dealer"),
    (("deals",), "none", "deals"),
    (("deals", 0, "hands"), [["R1"]] * 3, "deal 0"),
    (("deals", 0, "hands", 0), "R1 R2", "deal 0"),
    (("options",), None, "options"),
    (("version",), 99, "version"),
]


@pytest.mark.parametrize(("path", "value", "named"), BAD_RECORDS, ids=[f"{p}={v!r}" for p, v, _ in BAD_RECORDS])
def test_replay_rejects_malformed_records(path, value, named):
    with pytest.raises(ValueError, match=named):
        replay(_mutate(_record(), path, value))


def test_replay_rejects_trailing_actions_and_unused_deals():
    rec = _record()
    assert replay(rec).hand_no == 1
    with pytest.raises(ValueError, match="trailing action"):
        replay({**rec, "actions": rec["actions"] + [0]})
    with pytest.raises(ValueError, match="deal"):
        replay({**rec, "deals": rec["deals"] * 2, "actions": rec["actions"][:3]})
    with pytest.raises(IllegalActionError):
        replay({**rec, "actions": [10_000, *rec["actions"][1:]]})


def test_record_file_with_nan_is_refused(tmp_path):
    from crowsnest_env.record import load

    path = tmp_path / "r.json"
    path.write_text('{"format": "crowsnest-record", "scores": [NaN, 0]}')
    with pytest.raises(ValueError, match="NaN"):
        load(path)


# ------------------------------------------------------------------ environments
def test_raw_env_float_action_is_an_illegal_action_error():
    env = crowsnest_env.raw_env()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="integer"):
        env.step(1.5)


@pytest.mark.parametrize("make", [crowsnest_env.raw_env, crowsnest_env.env, SingleSeatEnv])
@pytest.mark.parametrize(("kwargs", "named"), [
    ({"options": [1]}, "options"), ({"options": {"dealer": "x"}}, "dealer"), ({"options": {"scores": 5}}, "scores"),
    ({"options": {"deal": {"hands": 5}}}, "hands"), ({"seed": "x"}, "seed"), ({"seed": -1}, "seed"),
    ({"seed": 1.5}, "seed"),
])
def test_reset_arguments_of_the_wrong_kind(make, kwargs, named):
    env = make()
    with pytest.raises(ValueError, match=named):
        env.reset(**kwargs)


@pytest.mark.parametrize(("kwargs", "named"), [
    ({"others": 5}, "others"), ({"others": [1, 2, 3]}, "act"), ({"others": {"a": 1, 2: 3, 3: 4}}, "seats"),
    ({"seat": "1"}, "seat"), ({"seat": 4}, "seat"), ({"illegal_reward": math.nan}, "illegal_reward"),
    ({"illegal_reward": "x"}, "illegal_reward"), ({"illegal_action": "ignore"}, "illegal_action"),
    ({"crow": "false"}, "crow"), ({"max_hands": 0}, "max_hands"), ({"variant": 5}, "variant"),
])
def test_single_seat_arguments_of_the_wrong_kind(kwargs, named):
    with pytest.raises(ValueError, match=named):
        SingleSeatEnv(**kwargs)


def test_single_seat_step_before_reset():
    with pytest.raises(RuntimeError, match="reset"):
        SingleSeatEnv().step(0)


@pytest.mark.parametrize("action", [None, 10_000, -1, 1.5, "x"])
def test_wrapped_env_rejects_bad_actions_without_dropping_agents(action):
    env = crowsnest_env.env()
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="action space"):
        env.step(action)
    assert len(env.agents) == 4 and not any(env.terminations.values())
    assert get_variant("crowsnest").name == "crowsnest"
