"""Names, reset options, episodes and rewards, hand info, records, rendering, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import crowsnest_env
from crowsnest_env import SingleSeatEnv
from crowsnest_env.agent import RandomAgent
from crowsnest_env.record import load, replay
from crowsnest_env.rules import VARIANTS, Phase

# A crowsnest deal: player_1 (left of dealer 0) holds all the Black cards and the Crow.
DEAL = {
    "hands": [
        "G5 G6 G7 G8 G9 G10 G11 G12 G13".split(),
        "B6 B7 B8 B9 B10 B11 B12 B13 B14".split(),
        "R5 R6 R7 R8 R9 R10 R11 R12 R13".split(),
        "Y5 Y6 Y7 Y8 Y9 Y10 Y11 Y12 Y13".split(),
    ],
    "nest": "B5 G14 R14 Y14 CROW".split(),
}


def test_variants_and_alias():
    assert crowsnest_env.VARIANTS == (
        "crowsnest", "tournament", "partnership", "one_high", "red_one", "buckeye", "dixie")
    assert crowsnest_env.raw_env(variant="kentucky_discard").variant.name == "tournament"


def test_unknown_variant_lists_valid_names():
    with pytest.raises(ValueError, match="unknown variant 'euchre'.*crowsnest.*dixie"):
        crowsnest_env.env(variant="euchre")


@pytest.mark.parametrize("variant", [v for v in VARIANTS if v not in ("crowsnest", "tournament")])
def test_crow_false_only_for_crowsnest_and_tournament(variant):
    with pytest.raises(ValueError, match="crow=False"):
        crowsnest_env.raw_env(variant=variant, crow=False)


def test_no_crow_option_deck():
    env = crowsnest_env.raw_env(variant="crowsnest", crow=False)
    env.reset(seed=0)
    assert env.variant.total_points == env.variant.max_bid == 100
    assert env.variant.nest_size == 4 and env.game.cards.deck_size == 40


@pytest.mark.parametrize("kwargs,match", [
    ({"episode": "season"}, "unknown episode"), ({"reward": "money"}, "unknown reward"),
    ({"render_mode": "rgb_array"}, "unknown render_mode"), ({"max_hands": 0}, "max_hands"),
])
def test_bad_env_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        crowsnest_env.raw_env(**kwargs)


def test_action_names_round_trip_every_variant():
    for variant in VARIANTS:
        env = crowsnest_env.raw_env(variant=variant)
        names = [env.action_name(a) for a in range(env.num_actions)]
        assert len(set(names)) == env.num_actions
        for a, name in enumerate(names):
            assert env.action_id(name) == a
            assert env.action_id(name.upper()) == a
    env = crowsnest_env.raw_env()
    assert env.num_actions == 98
    assert env.action_name(0) == "pass" and env.action_name(1) == "bid 70" and env.action_name(11) == "bid 120"
    assert env.action_id("trump R") == env.action_id("trump Red") == env.action_id("TRUMP red")
    assert env.action_name(env.action_id("play crow")) == "play CROW"
    assert env.action_id("play ROOK") == env.action_id("play CROW")  # both spellings, every variant
    assert crowsnest_env.raw_env(variant="red_one").action_name(
        crowsnest_env.raw_env(variant="red_one").action_id("discard r1")) == "discard R1"


@pytest.mark.parametrize("name,match", [
    ("bid 72", "not a crowsnest bid"), ("bid 125", "not a crowsnest bid"), ("play R4", "unknown card"),
    ("trump Purple", "unknown trump colour"), ("fold", "ill-formed"), ("bid", "ill-formed"),
    ("shout R5", "unknown action"), ("play R1", "unknown card"),
])
def test_bad_action_names(name, match):
    with pytest.raises(ValueError, match=match):
        crowsnest_env.raw_env().action_id(name)


def test_action_name_out_of_range():
    with pytest.raises(ValueError, match="out of range"):
        crowsnest_env.raw_env().action_name(98)


def test_reset_options_start_from_a_given_position():
    env = crowsnest_env.raw_env()
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0, "scores": [250, -40]})
    assert env.agent_selection == "player_1"
    assert env.scores == [250, -40]
    hand = env.view("player_1").hand
    assert set(env.game.cards.names_of(hand)) == set(DEAL["hands"][1])
    obs = env.observe("player_1")["observation"]
    layout = env.observation_layout
    pieces = layout.split(obs)
    assert pieces["hand"].sum() == 9 and pieces["dealer"][3] == 1  # dealer sits to player_1's right
    assert pieces["scores"].tolist() == pytest.approx([-40 / 300, 250 / 300])


@pytest.mark.parametrize("options,match", [
    ({"dealer": 4}, "dealer"), ({"dealer": "left"}, "dealer"), ({"scores": [1]}, "scores"),
    ({"scores": "high"}, "scores"), ({"deal": {"hands": DEAL["hands"][:3], "nest": []}}, "4 lists"),
    ({"deal": {"hands": [DEAL["hands"][0]] * 4, "nest": DEAL["nest"]}}, "listed twice|repeats"),
    ({"deal": {"hands": DEAL["hands"], "nest": DEAL["nest"][:4]}}, "nest has 4"),
    ({"deal": {"hands": DEAL["hands"], "nest": ["B5", "G14", "R14", "Y14", "Z3"]}}, "unknown card 'Z3'"),
    ({"deal": "random"}, "deal must be a dict"),
])
def test_bad_reset_options(options, match):
    with pytest.raises(ValueError, match=match):
        crowsnest_env.raw_env().reset(seed=0, options=options)


def test_unknown_reset_option_warns_and_names_it():
    with pytest.warns(UserWarning, match="dealr"):
        crowsnest_env.raw_env().reset(seed=0, options={"dealr": 1})


def _script(env, names):
    for name in names:
        env.step(env.action_id(name))


def test_hand_info_rewards_and_reward_timing():
    """player_1 bids 120 with every Black card and the Crow and takes every trick."""
    env = crowsnest_env.raw_env(episode="hand")
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0})
    _script(env, ["bid 120"])
    assert env.game.phase is Phase.DISCARD and env.agent_selection == "player_1"
    _script(env, ["discard G14", "discard R14", "discard Y14", "discard B6", "discard B7", "trump Black"])
    rewards_seen = {a: [] for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards_seen[agent].append(reward)
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))  # highest card id: masters
    result = env.game.results[-1]
    assert result.made and result.points == (0, 120) and result.score_change == (0, 120)
    # every seat gets exactly one non-zero reward, delivered at termination via last()
    for k, agent in enumerate(env.possible_agents):
        assert rewards_seen[agent][-1] == (1.0 if k % 2 else -1.0)
        assert all(r == 0 for r in rewards_seen[agent][:-1])


def test_infos_hand_summary_fields():
    env = crowsnest_env.raw_env(episode="hand")
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0})
    _script(env, ["bid 120", "discard G14", "discard R14", "discard Y14", "discard B6", "discard B7", "trump B"])
    while not env.terminations["player_0"]:
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    info = env.infos["player_0"]["hand"]
    assert info == {"declarer": 1, "bid": 120, "trump": 0, "points": [0, 120], "tricks": [0, 9],
                    "made": True, "score_change": [0, 120], "nest_points": 30, "hand_no": 0}


def test_win_reward_and_game_end():
    env = crowsnest_env.raw_env(reward="win")
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0, "scores": [0, 290]})
    _script(env, ["bid 120", "discard G14", "discard R14", "discard Y14", "discard B6", "discard B7", "trump B"])
    while not env.terminations["player_0"]:
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert env.game.phase is Phase.GAME_OVER and env.scores == [0, 410]
    assert env._cumulative_rewards == {"player_0": -1.0, "player_1": 1.0, "player_2": -1.0, "player_3": 1.0}


def test_game_episode_continues_after_a_hand_with_next_dealer():
    env = crowsnest_env.raw_env()
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0})
    _script(env, ["bid 120", "discard G14", "discard R14", "discard Y14", "discard B6", "discard B7", "trump B"])
    for _ in range(36):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert not any(env.terminations.values())
    assert env.game.phase is Phase.AUCTION and env.game.dealer == 1 and env.agent_selection == "player_2"
    assert env.scores == [0, 120]


def test_max_hands_truncates():
    env = crowsnest_env.raw_env(max_hands=1)
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0})
    _script(env, ["bid 120", "discard G14", "discard R14", "discard Y14", "discard B6", "discard B7", "trump B"])
    for _ in range(36):
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    assert all(env.truncations.values()) and not any(env.terminations.values())


def test_all_pass_redeals_with_same_dealer():
    env = crowsnest_env.raw_env()
    env.reset(seed=4, options={"dealer": 2})
    first_deal = env.game_record()["deals"][0]
    _script(env, ["pass"] * 4)
    record = env.game_record()
    assert len(record["deals"]) == 2 and record["deals"][1]["dealer"] == 2
    assert record["deals"][1]["hands"] != first_deal["hands"]
    assert env.agent_selection == "player_3" and env.scores == [0, 0]


def test_record_replays_to_identical_state(tmp_path):
    env = crowsnest_env.raw_env(variant="partnership")
    rng = np.random.default_rng(1)
    env.reset(seed=1)
    for _ in range(500):
        obs = env.observe(env.agent_selection)
        if env.terminations[env.agent_selection]:
            break
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    path = tmp_path / "game.json"
    env.unwrapped.save_record(str(path))
    record = load(path)
    assert record["options"]["variant"] == "partnership" and len(record["actions"]) == 500
    assert replay(record) == env.game
    assert json.loads(path.read_text()) == env.game_record()


def test_replay_takes_a_path_and_stops_at_any_move(tmp_path):
    """Issue 17: replay("game.json") said "not a CrowsNest game record"; a viewer's position at move
    n of a game of several hands (whose later deals those moves never reach) is ``upto=n``."""
    table = crowsnest_env.Table("crowsnest", max_hands=2)
    table.reset(3)
    agents = [RandomAgent(seed=s) for s in range(4)]
    while not table.done:
        table.step(agents[table.to_move].act(table.view()))
    path = tmp_path / "game.json"
    table.save_record(str(path))
    assert len(table.record()["deals"]) >= 2
    assert replay(path) == replay(str(path)) == table.state
    first = table.record()["deals"][0]
    start = replay(path, upto=0)
    assert start.hand_no == 0 and [start.cards.names_of(h) for h in start.hands] == first["hands"]
    actions = table.record()["actions"]
    env = crowsnest_env.raw_env(max_hands=2)
    env.reset(options={"deal": first, "dealer": table.record()["dealer"]})
    n = next(i for i in range(len(actions)) if replay(path, upto=i + 1).hand_no == 1)
    for a in actions[: n + 1]:
        env.step(a)
    assert replay(path, upto=n + 1).results == env.game.results  # the first hand scored alike
    with pytest.raises(ValueError, match="upto must be 0"):
        replay(path, upto=len(actions) + 1)
    with pytest.raises(FileNotFoundError):
        replay(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text('{"moves": []}')
    with pytest.raises(ValueError, match="not a CrowsNest game record"):
        replay(str(tmp_path / "other.json"))


def test_the_readme_first_example_ends():
    """Issue 17: random play on the env's defaults drove both teams to about -1.7M in 2.8M steps and
    never ended; the default cap (DEFAULT_MAX_HANDS) truncates it. The README's code, run as written."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## The environment", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    exec(compile(code, "README.md", "exec"), namespace)
    env = namespace["env"]
    table = env.unwrapped.table
    assert table.truncated and not table.terminated and table.state.hand_no == crowsnest_env.DEFAULT_MAX_HANDS
    assert all(env.unwrapped.truncations.values())
    assert env.agents == []


def test_replay_rejects_foreign_json():
    with pytest.raises(ValueError, match="not a CrowsNest game record"):
        replay({"moves": []})


def test_ansi_render_shows_hands_contract_and_scores():
    env = crowsnest_env.raw_env(render_mode="ansi")
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0, "scores": [15, 35]})
    _script(env, ["bid 90", "pass", "pass", "pass"])
    text = env.render()
    assert "player_1 (declarer): B: 14 13 12 11 10 9 8 7 6 5 | G: 14 | R: 14 | Y: 14 | CROW" in text
    assert "contract: player_1 bid 90" in text and "team 0 (p0+p2) 15" in text and "phase discard" in text


def test_state_holds_hidden_information_for_critics():
    env = crowsnest_env.raw_env()
    env.reset(seed=0, options={"deal": DEAL, "dealer": 0})
    state = env.state()
    n = env.game.cards.deck_size
    assert state.shape == (4 * env.observation_layout.size + n,)
    assert state[-n:].sum() == 5  # the nest


# ------------------------------------------------------------------ single seat
def test_single_seat_passes_gymnasium_checker():
    check_env(SingleSeatEnv(variant="crowsnest", seat=2), skip_render_check=True)


def test_single_seat_plays_whole_hands_with_agents():
    env = SingleSeatEnv(variant="tournament", seat=1, others=[RandomAgent(1), RandomAgent(2), RandomAgent(3)])
    for seed in range(5):
        obs, info = env.reset(seed=seed)
        assert obs.shape == env.observation_space.shape and info["action_mask"].any()
        total, done = 0.0, False
        while not done:
            legal = np.flatnonzero(env.action_masks())
            obs, reward, term, trunc, info = env.step(int(legal[0]))
            total += reward
            done = term or trunc
        change = env.table.state.results[-1].score_change
        assert total == pytest.approx((change[1] - change[0]) / 120)


def test_single_seat_illegal_action_modes():
    env = SingleSeatEnv(seat=0)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, term, _, info = env.step(illegal)
    assert term and reward == -1.0 and info["illegal_action"] == env.action_name(illegal)
    strict = SingleSeatEnv(seat=0, illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(crowsnest_env.IllegalActionError):
        strict.step(illegal)


@pytest.mark.parametrize("kwargs,match", [
    ({"seat": 5}, "seat"), ({"others": [RandomAgent()]}, "3 agents"),
    ({"others": {1: RandomAgent()}}, "exactly the seats"),
    ({"others": [object(), RandomAgent(), RandomAgent()]}, "act"), ({"illegal_action": "ignore"}, "illegal_action"),
])
def test_single_seat_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SingleSeatEnv(**kwargs)


def test_atomic_write_leaves_a_normally_readable_file(tmp_path):
    import os
    import stat

    from crowsnest_env.atomic import atomic_write_text

    path = tmp_path / "r.json"
    atomic_write_text(path, "{}")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~umask and path.read_text() == "{}"
