"""encode_view(view) rebuilds exactly the incremental encoder's row, in every variant."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents.learned import encode_view, legal_to_mask
from crowsnest_env.observation import ObservationEncoder
from crowsnest_env.rules import PRESETS, Phase, get_variant, new_game, player_view

CASES = [(name, True) for name in PRESETS] + [("crowsnest", False), ("tournament", False)]


@pytest.mark.parametrize("name,crow", CASES)
def test_encode_view_equals_encoder_rows(name, crow):
    v = get_variant(name, crow)
    rng = random.Random(hash(name) % 1000)
    enc = ObservationEncoder(v)
    checked = 0
    for game in range(3):
        state = new_game(v, rng=rng, dealer=game % 4)
        enc.reset(state)
        while state.phase is not Phase.GAME_OVER and state.hand_no < 2:
            if state.phase is Phase.DEAL:
                state.deal_random(rng)
                enc.reset(state)
                continue
            for seat in range(4):
                np.testing.assert_array_equal(encode_view(player_view(state, seat)), enc.obs[seat],
                                              err_msg=f"{name} seat {seat} phase {state.phase.name}")
                checked += 1
            seat = state.to_move
            action = rng.choice(state.legal_actions())
            state.apply(action)
            enc.step(state, seat, action)
    assert checked > 200


def test_legal_to_mask():
    m = legal_to_mask((1 << 0) | (1 << 9) | (1 << 97), 98)
    assert m.dtype == bool and m.shape == (98,)
    assert np.flatnonzero(m).tolist() == [0, 9, 97]
