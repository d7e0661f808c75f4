"""The card-play policies (PPO on the tricks alone, ``train_phases: [play]``): the one of
docs/results/card_play and the shipped partnership file (since 2026-12-06 an ensemble of such a file
and a rollout-value network of the same prior) load, play legally, and bid, discard and name trump as
their prior (their READMEs' claim: every contract is the prior's)."""

from __future__ import annotations

import os
import random

import pytest

from agents import make_agent
from agents.prior import make_prior
from crowsnest_env.rules import Phase, get_variant, new_game, player_view

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILE = os.path.join(ROOT, "docs", "results", "card_play", "crowsnest_play.pt")
PARTNERSHIP = os.path.join(ROOT, "agents", "policies", "partnership.pt")


@pytest.mark.parametrize("path, prior, variant", [(FILE, "heuristic", "crowsnest"),
                                                  (PARTNERSHIP, "heuristic?margin=0.05", "partnership")])
def test_the_card_play_policy_bids_as_its_prior_and_plays_legally(path, prior, variant):
    agent, prior = make_agent(f"checkpoint:{path}", seed=0), make_prior(prior)
    rng = random.Random(5)
    phases = set()
    for _ in range(12):
        state = new_game(get_variant(variant), rng=rng)
        while state.phase < Phase.DEAL:
            view = player_view(state, state.to_move)
            a = agent.act(view)
            assert view.legal >> a & 1
            if state.phase is not Phase.PLAY:
                assert a == prior.act(view)
            phases.add(state.phase)
            state.apply(a)
    nest = {Phase.DISCARD} if get_variant(variant).nest_size else set()  # partnership deals no nest
    assert phases == {Phase.AUCTION, Phase.TRUMP, Phase.PLAY} | nest
