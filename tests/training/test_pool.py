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
