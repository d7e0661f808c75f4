"""The solver's specialised copies of engine rules equal the engine's over random positions,
and the agents' shared card knowledge uses the engine's trick key and scoring."""

from __future__ import annotations

import random

import pytest

from agents import _eval
from agents._solver import DoubleDummy
from crowsnest_env.rules import (
    PRESETS,
    Phase,
    get_variant,
    legal_cards,
    new_game,
    score_change,
    trick_key,
    trick_winner_offset,
)


@pytest.mark.parametrize("name", list(PRESETS))
def test_solver_copies_equal_engine_rules(name):
    v = get_variant(name)
    rng = random.Random(f"rule-copies-{name}")
    checked = 0
    for game in range(6):
        state = new_game(v, rng=rng, dealer=game % 4)
        while state.phase is not Phase.DEAL and state.phase is not Phase.GAME_OVER:
            if state.phase is Phase.PLAY:
                dd = DoubleDummy(state.cards, state.trump, 0)
                hand = state.hands[state.to_move]
                assert dd.legal(hand, state.trick) == legal_cards(state.cards, state.trump, hand, state.trick)
                # any sequence of cards: a complete random trick drawn from the unplayed deck
                pool = [c for c in range(state.cards.deck_size)]
                trick = rng.sample(pool, 4)
                assert dd.trick_winner(trick) == trick_winner_offset(state.cards, state.trump, trick)
                checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


def test_eval_uses_engine_rules():
    assert _eval.win_key is trick_key
    for name in ("crowsnest", "tournament", "partnership"):
        v = get_variant(name)
        for team0 in range(0, v.total_points + 1, 5):
            for decl_team in (0, 1):
                _, change = score_change(v, (team0, v.total_points - team0), decl_team, 100)
                assert _eval.outcome(v, decl_team, 100, team0, 0) == change[0] - change[1]
