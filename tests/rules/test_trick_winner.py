"""trick_winner_offset reads trick_key from a per-variant table: it must name the same card as
trick_key itself (the first of the highest keys) on any trick, in every variant and trump."""

from __future__ import annotations

import random

import pytest

from crowsnest_env.rules import PRESETS, get_variant, tables_for, trick_key, trick_winner_offset


@pytest.mark.parametrize("name", list(PRESETS))
def test_trick_winner_offset_is_the_first_highest_trick_key(name):
    cards = tables_for(get_variant(name))
    rng = random.Random(name)
    for _ in range(400):
        trump = rng.randrange(4)
        trick = rng.sample(range(cards.deck_size), rng.randint(1, 4))
        led = cards.eff_suit[trump][trick[0]]
        keys = [trick_key(cards, trump, c, led) for c in trick]
        assert trick_winner_offset(cards, trump, trick) == keys.index(max(keys))
