"""The opponent pool's draws: the config's mix, one snapshot per rollout, self-play while it is empty."""

from __future__ import annotations

from collections import Counter

from training.config import Config, OpponentMix
from training.pool import OPPONENT_KINDS, OpponentPool
from training.rollout import NetController


class _Snap(NetController):
    def __init__(self, tag: str):
        super().__init__(lambda obs, masks: (None, {}), "snapshot")
        self.tag = tag


def _pool(mix: OpponentMix, snapshots: int) -> OpponentPool:
    cfg = Config(opponents=mix)
    pool = OpponentPool(cfg, lambda model: None, seed=7)  # type: ignore[arg-type,return-value]
    for k in range(snapshots):  # bypass checkpoint files: the pool only keeps controllers and paths
        pool.paths.append(f"s{k}.pt")
        pool.snapshots.append(_Snap(f"s{k}"))
    return pool


def test_one_snapshot_plays_every_snapshot_episode_of_a_rollout():
    pool = _pool(OpponentMix(self_play=0.0, snapshot=1.0, heuristic=0.0, random=0.0), snapshots=10)
    learner = NetController(lambda obs, masks: (None, {}), "self_play")
    drawn = []
    for _ in range(40):  # 40 rollouts
        assign = pool.assigner(learner)
        tags = set()
        for i in range(25):  # 25 episodes each
            ctrl, seats = assign(i)
            assert len(seats) == 2 and all(ctrl[s] is learner for s in seats)
            opp = {c for s, c in enumerate(ctrl) if s not in seats}
            assert len(opp) == 1
            tags.add(next(iter(opp)).tag)
        assert len(tags) == 1
        drawn.append(tags.pop())
    assert len(set(drawn)) >= 6  # the pool still varies between rollouts


def test_mix_proportions_and_empty_pool_falls_back_to_self_play():
    mix = OpponentMix(self_play=0.3, snapshot=0.3, heuristic=0.3, random=0.1)
    learner = NetController(lambda obs, masks: (None, {}), "self_play")
    pool = _pool(mix, snapshots=0)
    assign = pool.assigner(learner)
    kinds = Counter()
    for i in range(4000):
        ctrl, seats = assign(i)
        opp = ctrl[1 - seats[0] % 2] if len(seats) == 2 else learner
        kinds[opp.name] += 1
    assert set(kinds) <= set(OPPONENT_KINDS)
    assert kinds["snapshot"] == 0  # no snapshot yet: those episodes are self-play
    assert abs(kinds["self_play"] / 4000 - 0.6) < 0.04
    assert abs(kinds["heuristic"] / 4000 - 0.3) < 0.04
    assert abs(kinds["random"] / 4000 - 0.1) < 0.03


def test_the_opponent_agent_holds_both_seats_of_its_team_in_its_share_of_episodes():
    mix = OpponentMix(self_play=0.5, snapshot=0.0, heuristic=0.0, random=0.0, agent=0.5)
    pool = OpponentPool(Config(opponents=mix, opponent_agent="heuristic?margin=0.2"), lambda model: None,  # type: ignore[arg-type,return-value]
                        seed=7)
    target = pool.fixed["agent"]
    assert target.name == "agent" and target.agent.margin == 0.2  # the named agent, built with its options
    learner = NetController(lambda obs, masks: (None, {}), "self_play")
    assign = pool.assigner(learner)
    against, teams = 0, Counter()
    for i in range(2000):
        ctrl, seats = assign(i)
        if len(seats) == 2:
            team = seats[0] % 2
            assert seats == (team, team + 2) and [ctrl[s] for s in range(4) if s % 2 != team] == [target, target]
            against += 1
            teams[team] += 1
    assert abs(against / 2000 - 0.5) < 0.04 and min(teams.values()) > 400  # the learner sits on either team


def test_more_opponent_agents_share_the_agent_kinds_episodes_equally():
    mix = OpponentMix(self_play=0.5, snapshot=0.0, heuristic=0.0, random=0.0, agent=0.5)
    cfg = Config(opponents=mix, opponent_agent="heuristic?margin=0.2", more_opponent_agents=["random", "heuristic"])
    pool = OpponentPool(cfg, lambda model: None, seed=7)  # type: ignore[arg-type,return-value]
    first, rnd, heur = pool.agents
    assert first is pool.fixed["agent"] and first.agent.margin == 0.2
    assert type(rnd.agent).__name__ == "RandomAgent" and heur.agent.margin != 0.2  # each built from its own name
    learner = NetController(lambda obs, masks: (None, {}), "self_play")
    assign = pool.assigner(learner)
    drawn: Counter = Counter()
    for i in range(3000):
        ctrl, seats = assign(i)
        if len(seats) == 2:
            opp = {id(ctrl[s]) for s in range(4) if s not in seats}
            assert len(opp) == 1  # one agent holds both seats of its team
            drawn[next(iter(opp))] += 1
    assert abs(sum(drawn.values()) / 3000 - 0.5) < 0.04  # the agent kind keeps its share ...
    shares = [drawn[id(c)] / sum(drawn.values()) for c in pool.agents]
    assert all(abs(x - 1 / 3) < 0.05 for x in shares), shares  # ... split equally among the three


def test_a_name_listed_again_is_one_agent_drawn_as_often_as_it_is_listed():
    mix = OpponentMix(self_play=0.0, snapshot=0.0, heuristic=0.0, random=0.0, agent=1.0)
    cfg = Config(opponents=mix, opponent_agent="heuristic", more_opponent_agents=["heuristic", "heuristic", "random"])
    pool = OpponentPool(cfg, lambda model: None, seed=3)  # type: ignore[arg-type,return-value]
    heur, again, third, rnd = pool.agents
    assert heur is again is third and type(rnd.agent).__name__ == "RandomAgent"  # one heuristic, built once
    assign = pool.assigner(NetController(lambda obs, masks: (None, {}), "self_play"))
    drawn: Counter = Counter()
    for i in range(4000):
        ctrl, seats = assign(i)
        drawn[next(id(ctrl[s]) for s in range(4) if s not in seats)] += 1
    assert abs(drawn[id(rnd)] / 4000 - 0.25) < 0.03 and abs(drawn[id(heur)] / 4000 - 0.75) < 0.03


def test_an_existing_mix_draws_the_same_opponents_with_the_agent_kind_added():
    """The agent kind came last with weight 0 by default: an existing config's draws are those of the four
    kinds of before (the same generator calls, the same outcomes)."""
    import random

    learner = NetController(lambda obs, masks: (None, {}), "self_play")
    assign = _pool(OpponentMix(self_play=0.3, snapshot=0.3, heuristic=0.3, random=0.1), snapshots=3).assigner(learner)
    drawn = []
    for i in range(500):
        ctrl, seats = assign(i)
        drawn.append((ctrl[seats[0] ^ 1].name, seats) if len(seats) == 2 else ("self_play", seats))
    rng = random.Random(7)  # the pool's generator, replayed with the four kinds' weights
    rng.choice(range(3))  # the rollout's snapshot
    replay = []
    for _ in range(500):
        kind = rng.choices(OPPONENT_KINDS[:4], weights=[0.3, 0.3, 0.3, 0.1])[0]
        if kind == "self_play":
            replay.append(("self_play", (0, 1, 2, 3)))
        else:
            team = rng.randrange(2)
            replay.append((kind, (team, team + 2)))
    assert drawn == replay and len({d[0] for d in drawn}) == 4
