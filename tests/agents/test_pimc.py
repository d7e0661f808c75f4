"""PIMC: the sampler respects what the seat knows and the agent is strong (the solver: test_solver.py)."""

from __future__ import annotations

import random
import types

import pytest

from agents import make_agent
from agents._eval import outcome
from agents._sampler import NEST, sample_world, slot_sizes
from agents.arena import play_duplicate_deal
from agents.heuristic import HeuristicAgent, choose_card
from agents.pimc import PIMCAgent
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import (
    NUM_SEATS,
    Phase,
    get_variant,
    new_game,
    player_view,
)


def _views_in_play(name: str, seeds: range, crow: bool = True) -> list:
    """Views of the seat to move at every trick-phase decision of random-ish hands."""
    out = []
    for seed in seeds:
        rng = random.Random(seed)
        state = new_game(name, crow=crow, rng=rng, dealer=seed % NUM_SEATS)
        agents = [HeuristicAgent(seed), RandomAgent(seed), RandomAgent(seed + 1), HeuristicAgent(seed + 1)]
        while state.phase not in (Phase.DEAL, Phase.GAME_OVER):
            view = player_view(state, state.to_move)
            if state.phase is Phase.PLAY:
                out.append(view)
            state.apply(agents[state.to_move].act(view))
    return out


@pytest.mark.parametrize("name", ["crowsnest", "tournament", "red_one", "dixie", "partnership"])
def test_sampler_respects_voids_seen_cards_and_hand_sizes(name: str) -> None:
    views = _views_in_play(name, range(8))
    assert any(any(v.voids) for v in views)  # the check below is exercised on real voids
    rng = random.Random(0)
    for view in views[::3]:
        cards, t = view.cards, view.trump
        sizes = slot_sizes(view)
        for _ in range(5):
            hands, nest = sample_world(view, rng, trump_bias=3.0)
            assert hands[view.seat] == view.hand
            seen = view.hand | view.discards
            for p in view.played:
                seen |= p
            for s in range(NUM_SEATS):
                if s == view.seat:
                    continue
                assert hands[s].bit_count() == view.hand_size(s) == sizes[s]
                assert not hands[s] & seen, "a card the seat has seen was dealt to another hand"
                for suit in range(4):
                    if view.voids[s] >> suit & 1:
                        assert not hands[s] & cards.suit_mask[t][suit], "card dealt into a shown void"
            assert nest.bit_count() == sizes[NEST]
            assert not nest & seen
            everything = nest | seen
            for h in hands:
                everything |= h
            assert everything == cards.full_deck


def test_declarer_knows_the_nest_so_nothing_is_hidden_there() -> None:
    for view in _views_in_play("crowsnest", range(6)):
        if view.seat == view.declarer:
            assert slot_sizes(view)[NEST] == 0
        else:
            assert slot_sizes(view)[NEST] == view.variant.nest_size


def test_depth_limited_values_cover_every_legal_card() -> None:
    for view in _views_in_play("buckeye", range(2))[:12]:
        agent = PIMCAgent(seed=0, samples=3, nodes=300, time_limit=1.0)
        scores = agent.card_scores(view)
        assert set(scores) == {c - view.layout.play_offset for c in view.legal_actions()}


def test_weighted_worlds_are_the_worlds_card_scores_averages() -> None:
    """One place draws and weighs the worlds: equal weights without inference, normalised ones with it,
    the same worlds for the same generator, and card_scores is the weighted mean over them."""
    view = _views_in_play("red_one", range(1))[9]
    plain = PIMCAgent(seed=0, samples=5, nodes=300)
    worlds, weights = plain.weighted_worlds(view, random.Random(3))
    assert len(worlds) == 5 and weights == [1.0] * 5
    assert all(hands[view.seat] == view.hand for hands, _ in worlds)
    weighing = make_agent("pimc?policy=learned,inference=true,samples=5,nodes=300", seed=0)
    again, w = weighing.weighted_worlds(view, random.Random(3))
    assert again == worlds  # inference weighs the worlds, it does not change which are drawn
    assert len(w) == 5 and sum(w) == pytest.approx(1.0) and all(x >= 0 for x in w)
    # card_scores draws from the agent's own generator: the same worlds, then the weighted mean
    weighing.rng = random.Random(7)
    scores = weighing.card_scores(view)
    weighing.rng = random.Random(7)
    again, w = weighing.weighted_worlds(view)
    per_world = list(weighing._solved(view, again))
    for card, value in scores.items():
        assert value == pytest.approx(sum(x * v[card] for x, v in zip(w, per_world)))


def test_outcome_counts_made_and_set() -> None:
    crows, tourn = get_variant("crowsnest"), get_variant("tournament")
    assert outcome(crows, 0, 80, 85, 0) == 80 - 35  # made: the bid, not the points
    assert outcome(crows, 0, 80, 75, 0) == -80 - 45  # set
    assert outcome(tourn, 1, 80, 35, 1) == 85 - 35  # made: the points captured
    assert outcome(tourn, 1, 80, 35, 0) == -(85 - 35)


@pytest.mark.slow
def test_pimc_beats_heuristic_on_fixed_deals() -> None:
    values = [play_duplicate_deal((PIMCAgent(1), PIMCAgent(1)), (HeuristicAgent(2), HeuristicAgent(2)), i).value
              for i in range(120)]
    mean = sum(values) / len(values)
    assert mean > 0


def test_default_play_ignores_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Same view and seed, same scores and action, however slowly the clock says it ran."""
    import agents.pimc as pimc_module

    assert PIMCAgent().time_limit is None
    views = _views_in_play("tournament", range(2))[:8]
    calm = [(PIMCAgent(seed=5, samples=4, nodes=400).card_scores(v),
             PIMCAgent(seed=5, samples=4, nodes=400).act(v)) for v in views]
    ticks = iter(range(0, 10**9, 1000))  # each clock read is 1000 s after the last
    fake_clock = types.SimpleNamespace(perf_counter=lambda: float(next(ticks)))
    monkeypatch.setattr(pimc_module, "time", fake_clock)
    rushed = [(PIMCAgent(seed=5, samples=4, nodes=400).card_scores(v),
               PIMCAgent(seed=5, samples=4, nodes=400).act(v)) for v in views]
    assert rushed == calm
    # the opt-in knob does react to that clock: it stops after min_samples
    timed = PIMCAgent(seed=5, samples=4, nodes=400, time_limit=0.01, min_samples=1)
    assert timed.time_limit == 0.01
    n_calls = []
    orig = pimc_module.solve_world
    monkeypatch.setattr(pimc_module, "solve_world", lambda *a, **k: n_calls.append(1) or orig(*a, **k))
    timed.card_scores(views[0])
    assert len(n_calls) == 1  # one world solved, then the clock said stop


def test_pimc_bids_on_its_estimate_and_bid_margin_gives_the_heuristics_auction() -> None:
    """Default PIMC bids with margin 0 (its play makes more contracts); bid_margin=0.1 is the
    heuristic's own auction, call for call."""
    assert PIMCAgent().heuristic.margin == 0.0
    views = []
    for seed in range(60):
        state = new_game("crowsnest", rng=random.Random(seed), dealer=seed % NUM_SEATS)
        while state.phase is Phase.AUCTION:
            view = player_view(state, state.to_move)
            views.append(view)
            state.apply(HeuristicAgent(seed).act(view))
    heuristic, same, default = HeuristicAgent(0), PIMCAgent(0, bid_margin=0.1), PIMCAgent(0)
    assert [same.act(v) for v in views] == [heuristic.act(v) for v in views]
    raised = sum(default.act(v) != heuristic.act(v) for v in views)
    assert raised > 0 and all(default.act(v) >= heuristic.act(v) for v in views)  # bids where it passed, or higher


def test_auction_option_picks_the_bidder() -> None:
    policy = HeuristicAgent(3, margin=-0.2)  # a bolder bidder standing in for a policy
    assert PIMCAgent(policy=policy).bidder is policy
    assert PIMCAgent(policy=policy, auction="heuristic").bidder is not policy
    for bad, words in (({"auction": "pimc"}, "auction must be one of"), ({"auction": "policy"}, "needs policy")):
        with pytest.raises(ValueError, match=words):
            PIMCAgent(**bad)


def test_keep_leaves_the_guides_card_only_for_a_clearly_better_one() -> None:
    """``keep=X``: the guide's card unless the best card's mean beats it by more than X points;
    a keep larger than any score gap is the guide's play, card for card."""
    views = []
    for seed in range(12):
        state = new_game("crowsnest", rng=random.Random(seed), dealer=seed % NUM_SEATS)
        bot = HeuristicAgent(seed)
        while state.phase < Phase.DEAL:
            view = player_view(state, state.to_move)
            if view.phase is Phase.PLAY and (view.legal >> view.layout.play_offset).bit_count() > 1:
                views.append(view)
            state.apply(bot.act(view))
    views = views[::7]
    plain, huge, mid = PIMCAgent(0, samples=4, nodes=2000), PIMCAgent(0, samples=4, nodes=2000, keep=1e6), \
        PIMCAgent(0, samples=4, nodes=2000, keep=15.0)
    off = views[0].layout.play_offset
    left = 0
    for view in views:
        for agent in (plain, huge, mid):
            agent.reset(1)  # the same worlds for each
        guide = choose_card(view)
        assert huge.act(view) - off == guide
        action, scores = plain.explain(view)  # keep=0, the default: the best mean, as before
        assert scores[action] == max(scores.values())
        action, scores = mid.explain(view)  # the decision and the means it was taken on
        card = action - off
        vals = {c - off: v for c, v in scores.items()}
        if card != guide:
            left += 1
            assert vals[card] > vals[guide] + 15.0 and vals[card] == max(vals.values())
        else:
            assert vals[guide] >= max(vals.values()) - 15.0
    assert 0 < left < len(views)
    for bad in (-1, float("nan"), "x"):
        with pytest.raises(ValueError, match="keep"):
            PIMCAgent(keep=bad)
