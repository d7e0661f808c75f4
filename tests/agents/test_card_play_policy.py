"""The card-play policy of docs/results/card_play: it loads, plays legally, and bids, discards and
names trump as the heuristic (its README's claim: every contract is the heuristic's)."""

from __future__ import annotations

import os
import random

from agents import make_agent
from agents.prior import make_prior
from crowsnest_env.rules import Phase, get_variant, new_game, player_view

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILE = os.path.join(ROOT, "docs", "results", "card_play", "crowsnest_play.pt")


def test_the_card_play_policy_bids_as_the_heuristic_and_plays_legally():
    agent, prior = make_agent(f"checkpoint:{FILE}", seed=0), make_prior("heuristic")
    rng = random.Random(5)
    phases = set()
    for _ in range(12):
        state = new_game(get_variant("crowsnest"), rng=rng)
        while state.phase < Phase.DEAL:
            view = player_view(state, state.to_move)
            a = agent.act(view)
            assert view.legal >> a & 1
            if state.phase is not Phase.PLAY:
                assert a == prior.act(view)
            phases.add(state.phase)
            state.apply(a)
    assert phases == {Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY}
