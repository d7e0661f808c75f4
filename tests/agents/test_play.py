"""The terminal play app: a scripted person plays with random agents."""

from __future__ import annotations

import io
import random

import pytest

from agents import RandomAgent
from agents.play import parse_choice, play_game
from crowsnest_env.rules import Phase, new_game


def test_scripted_person_plays_two_hands():
    answers = iter(["play R99", "17", "?"] + ["0"] * 500)
    prompts = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        return next(answers)

    out = io.StringIO()
    agents = {s: RandomAgent(seed=s) for s in (1, 2, 3)}
    state = play_game(0, agents, rng_seed=3, ask=ask, out=out, max_hands=2)
    text = out.getvalue()
    assert state.hand_no == 2
    assert "your hand:" in text and "legal: [0]" in text and "hand 2:" in text
    assert "unknown card in action 'play R99'" in text  # bad input is explained, then asked again
    assert len(prompts) > 10


def test_parse_choice_by_name_and_number():
    state = new_game("crowsnest", dealer=3, rng=random.Random(0))
    assert state.phase is Phase.AUCTION
    assert parse_choice(state, "bid 85") == state.layout.action_id("bid 85")
    assert parse_choice(state, "0") == 0  # pass is listed first
    with pytest.raises(ValueError, match="not legal now"):
        parse_choice(state, "play CROW")
    with pytest.raises(ValueError, match="choose a number"):
        parse_choice(state, "99")
