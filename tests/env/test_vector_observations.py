"""VectorEnv's batch against the reference encoder: every row of every step, at several N, in
every variant, equals ``encode_view`` of that game's mover (and the mask its legal set), the
finished games' last observations equal the reference at their final states, and the
vectorised action check rejects what the engine would, before any game moves."""

from __future__ import annotations

import numpy as np
import pytest

import crowsnest_env
from crowsnest_env import HOLD, IllegalActionError, VectorEnv
from crowsnest_env.observation import encode_view
from crowsnest_env.rules import PRESETS, player_view

CASES = [(name, 5) for name in PRESETS] + [("crowsnest", 1), ("crowsnest", 64), ("tournament", 33)]


def legal_bits(mask: int, num_actions: int) -> np.ndarray:
    return np.array([(mask >> a) & 1 for a in range(num_actions)], np.int8)


@pytest.mark.parametrize("variant,n", CASES)
def test_every_row_equals_the_reference_encoder(variant, n):
    venv = VectorEnv(n, variant=variant, episode="hand")
    obs, info = venv.reset(seed=40 + n)
    rng = np.random.default_rng(n)
    finished = rows = 0
    steps = 260 if n < 64 else 90  # a crowsnest hand is about 45 decisions: several autoresets
    for _ in range(steps):
        for i, table in enumerate(venv.tables):
            assert info["seat"][i] == table.state.to_move
            np.testing.assert_array_equal(obs["observation"][i], encode_view(venv.view(i)),
                                          err_msg=f"{variant} game {i} phase {table.phase.name}")
            np.testing.assert_array_equal(obs["action_mask"][i], legal_bits(table.legal_mask(), venv.num_actions))
            rows += 1
        mask = obs["action_mask"]
        actions = np.argmax(mask * rng.random(mask.shape), axis=1)
        actions[rng.random(n) < 0.1] = HOLD  # held games must keep their rows
        obs, _, term, trunc, info = venv.step(actions)
        for fin in info.get("final", []):
            state = crowsnest_env.replay(fin["record"])
            for seat in range(4):
                np.testing.assert_array_equal(fin["observation"][seat], encode_view(player_view(state, seat)))
            assert term[fin["index"]] or trunc[fin["index"]]
            finished += 1
    assert rows == steps * n and finished >= n


def test_writing_into_the_returned_mask_cannot_pass_an_illegal_action():
    venv = VectorEnv(4)
    obs, _ = venv.reset(seed=2)
    mask = obs["action_mask"]
    illegal = int(np.flatnonzero(mask[2] == 0)[0])
    mask[2, illegal] = 1  # the caller's copy: the env checks against its own
    actions = np.argmax(mask, axis=1)
    actions[2] = illegal
    before = [t.state.clone() for t in venv.tables]
    with pytest.raises(IllegalActionError, match=rf"game 2: illegal action {illegal} "):
        venv.step(actions)
    assert [t.state for t in venv.tables] == before


@pytest.mark.parametrize("bad", [-5, 98, 10**6])
def test_out_of_range_actions_are_named_before_any_game_moves(bad):
    venv = VectorEnv(3)
    obs, _ = venv.reset(seed=4)
    actions = np.argmax(obs["action_mask"], axis=1)
    actions[1] = bad
    before = [t.state.clone() for t in venv.tables]
    with pytest.raises(IllegalActionError, match=rf"game 1: illegal action {bad} \(out of range\)"):
        venv.step(actions)
    assert [t.state for t in venv.tables] == before
    huge = np.argmax(obs["action_mask"], axis=1).astype(np.uint64)
    huge[0] = 2**64 - 1  # not HOLD, whatever its bits
    with pytest.raises(IllegalActionError, match="game 0: illegal action 18446744073709551615"):
        venv.step(huge)
    for wrong in (np.zeros(3, float), np.zeros(3, bool), np.zeros(2, np.int64)):
        with pytest.raises(ValueError, match="3 integers"):
            venv.step(wrong)
    unsigned = np.argmax(obs["action_mask"], axis=1).astype(np.uint8)
    venv.step(unsigned)  # any integer dtype holding legal ids is fine
    assert [t.state for t in venv.tables] != before
