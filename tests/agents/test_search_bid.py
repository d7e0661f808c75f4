"""Bidding by search (``pimc?auction=search``): the hand's value over sampled deals solved double-dummy."""

from __future__ import annotations

import random

import numpy as np
import pytest

from agents import make_agent, search_bid
from agents._eval import estimate_points
from agents.heuristic import HeuristicAgent
from agents.pimc import PIMCAgent
from agents.search_bid import SearchBidder, declared_points, hand_value
from crowsnest_env.rules import NUM_SEATS, Phase, get_variant, new_game, opening_leader, player_view


def _opening_views(name: str, n: int) -> list:
    """The first seat's view at the start of the auction of ``n`` seeded deals."""
    views = []
    for seed in range(n):
        state = new_game(name, rng=random.Random(seed), dealer=seed % NUM_SEATS)
        views.append(player_view(state, state.to_move))
    return views


def test_hand_value_is_the_highest_bid_whose_mean_net_reaches_the_threshold() -> None:
    view = _opening_views("crowsnest", 1)[0]
    v = view.variant  # crowsnest: 120 points, bids 70..120 by 5, a made contract scores the bid
    assert (v.total_points, v.min_bid, v.max_bid, v.bid_step) == (120, 70, 120, 5) and v is get_variant("crowsnest")
    assert hand_value(view, [v.total_points] * 4, 0.0) == v.max_bid  # every bid made
    assert hand_value(view, [0] * 4, 0.0) == v.min_bid - v.bid_step  # nothing is worth declaring
    # 80 points every time: bid 80 nets 80 - 40 = +40; bid 85 is set: -85 - 40
    assert hand_value(view, [80] * 4, 0.0) == 80
    assert hand_value(view, [80] * 4, 40.0) == 80
    assert hand_value(view, [80] * 4, 41.0) == v.min_bid - v.bid_step  # a made contract nets at most 80 - 40
    # made half the time at 90, set the other half: (90 - 30 + (-90) - 50) / 2 = -40
    assert hand_value(view, [90, 70], -40.0) == 90 and hand_value(view, [90, 70], -39.0) == 70
    # a higher threshold never values a hand higher
    pts = [60, 75, 85, 95, 110]
    values = [hand_value(view, pts, t) for t in (-40, -20, 0, 20, 40)]
    assert values == sorted(values, reverse=True)


def test_declared_points_are_the_solvers_value_of_the_declarers_hand() -> None:
    """In every rule set the points lie in 0..total, and the searched value tracks the hand's
    strength: it correlates with the heuristic's estimate over many hands."""
    for name in ("crowsnest", "tournament", "partnership", "one_high", "red_one", "buckeye", "dixie"):
        view = _opening_views(name, 1)[0]
        rng = random.Random(1)
        from agents._sampler import sample_world

        for _ in range(3):
            hands, nest = sample_world(view, rng)
            p = declared_points(view, hands, nest, 5000)
            assert 0 <= p <= view.variant.total_points, name
    views = _opening_views("crowsnest", 40)
    bidder = SearchBidder(seed=0, worlds=8)
    searched = [bidder.value(v) for v in views]
    estimated = [estimate_points(v.cards, v.hand) for v in views]
    assert np.corrcoef(searched, estimated)[0, 1] > 0.3


def test_the_value_is_drawn_once_a_hand_and_a_seeded_bidder_repeats_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    orig = search_bid.declared_points
    monkeypatch.setattr(search_bid, "declared_points", lambda *a: calls.append(1) or orig(*a))
    view = _opening_views("crowsnest", 1)[0]
    a, b = SearchBidder(seed=5, worlds=6), SearchBidder(seed=5, worlds=6)
    assert a.value(view) == b.value(view)
    assert len(calls) == 12
    a.act(view), a.act(view)
    assert len(calls) == 12  # the same hand: no new deals solved
    a.reset(5)
    a.act(view)
    assert len(calls) == 18  # a reset forgets the hand


@pytest.mark.parametrize("name", ["crowsnest", "tournament", "partnership", "one_high", "red_one", "buckeye",
                                  "dixie"])
def test_pimc_with_the_search_auction_plays_whole_hands_legally(name: str) -> None:
    agents = [make_agent("pimc?auction=search,bid_worlds=4,bid_nodes=2000,samples=2,nodes=500", seed=s)
              for s in range(NUM_SEATS)]
    for seed in range(2):
        state = new_game(name, rng=random.Random(seed), dealer=seed)
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            action = agents[state.to_move].act(view)
            assert view.legal >> action & 1
            state.apply(action)


def test_the_search_auction_passes_weak_hands_that_the_heuristic_opens() -> None:
    """pimc's own auction (margin 0) opens nearly every crowsnest hand; searched values leave the
    weakest to the others."""
    views = _opening_views("crowsnest", 40)
    searched = PIMCAgent(0, auction="search", bid_worlds=8)
    heuristic = HeuristicAgent(0, margin=0.0)
    assert sum(heuristic.act(v) == 0 for v in views) < sum(searched.act(v) == 0 for v in views)
    assert any(searched.act(v) != 0 for v in views)


def test_search_auction_options_are_checked() -> None:
    for bad, words in (({"bid_worlds": 0}, "bid_worlds"), ({"bid_nodes": "many"}, "bid_nodes"),
                       ({"bid_threshold": float("nan")}, "bid_threshold")):
        with pytest.raises(ValueError, match=words):
            PIMCAgent(auction="search", **bad)
    with pytest.raises(ValueError, match="bid_worlds apply only with auction=search"):
        make_agent("pimc?bid_worlds=8")
    assert make_agent("expert?auction=search,bid_threshold=-40", seed=0).bidder.threshold == -40.0


def test_the_search_auction_takes_the_engines_opening_lead_and_the_bidders_defaults() -> None:
    """declared_points solves from opening_leader(dealer): the seat the engine gives the first lead,
    whoever declares; pimc leaves unset search options to SearchBidder's own defaults."""
    for seed in range(8):
        state = new_game("tournament", rng=random.Random(seed), dealer=seed % NUM_SEATS)
        bot = HeuristicAgent(seed, margin=0.0)
        while state.phase is not Phase.PLAY:
            state.apply(bot.act(player_view(state, state.to_move)))
        assert state.leader == opening_leader(state.dealer) and state.trick_no == 0
    default, bidder = PIMCAgent(auction="search").bidder, SearchBidder()
    assert (default.worlds, default.nodes, default.threshold, default.bias) == \
        (bidder.worlds, bidder.nodes, bidder.threshold, bidder.bias)
