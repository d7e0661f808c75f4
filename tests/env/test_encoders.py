"""The incremental ObservationEncoder equals the reference encode_view(view) in every variant,
on fixed seeds; action_mask is the one bitmask -> int8 mask conversion."""

from __future__ import annotations

import random

import numpy as np
import pytest

from crowsnest_env.observation import ObservationEncoder, action_mask, encode_view
from crowsnest_env.rules import PRESETS, Phase, get_variant, new_game, player_view

CASES = [(name, True) for name in PRESETS] + [("crowsnest", False), ("tournament", False)]


@pytest.mark.parametrize("name,crow", CASES)
def test_incremental_encoder_equals_reference(name, crow):
    v = get_variant(name, crow)
    rng = random.Random(f"encoders-{name}-{crow}")  # a str seed is hashed with sha512: stable
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


def test_action_mask():
    m = action_mask((1 << 0) | (1 << 9) | (1 << 97), 98)
    assert m.dtype == np.int8 and m.shape == (98,)
    assert np.flatnonzero(m).tolist() == [0, 9, 97]
    assert m.view(bool).tolist() == [k in (0, 9, 97) for k in range(98)]
    assert action_mask((1 << 0) | (1 << 9) | (1 << 97), 98) is m  # cached
    with pytest.raises(ValueError):
        m[0] = 0  # shared: read-only
