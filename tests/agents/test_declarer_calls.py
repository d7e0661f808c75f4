"""Two diagnostics of issue 15 goal 5: inference that weighs a declarer's calls (``declarer_calls``), and
``double_dummy`` seeing every hand on one side only (``sees``)."""

from __future__ import annotations

import math
import random

import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.inference import declarer_call_log_likelihoods, replay_world, splits_declarer_hand, world_log_likelihoods
from crowsnest_env.rules import Phase, player_view
from crowsnest_env.table import Table


def _defending(rule_set: str, seed: int):
    """A table played by the heuristic to the first card of a seat that defends, the declarer's calls
    (with the number of legal calls at each), and the nest it picked up (None without a nest)."""
    heuristic = HeuristicAgent(seed=seed)
    table = Table(rule_set, episode="hand", observe=False)
    table.reset(seed)
    calls: list[tuple[int, int, int]] = []
    nest_in = None
    while table.state.phase is not Phase.PLAY:
        view = table.view()
        if view.phase is Phase.AUCTION:
            if not view.auction:  # a new deal's auction (all passed: dealt again)
                calls = []
            calls.append((view.seat, heuristic.act(view), view.legal.bit_count()))
        if view.phase is Phase.DISCARD and nest_in is None:
            nest_in = table.state.nest
        table.step(heuristic.act(view))
    while table.view().team == table.state.declarer % 2:
        table.step(heuristic.act(table.view()))
    view = table.view()
    decl_calls = [n for seat, _, n in calls if seat == view.declarer and n > 1]
    return table, view, decl_calls, nest_in


def _rule_value(legal_counts: list[int], floor: float = 0.05) -> float:
    """Log likelihood of calls a deterministic rule makes itself (p = 1 each, mixed with the floor)."""
    return sum(math.log(1 - floor + floor / n) for n in legal_counts)


def test_without_a_nest_the_declarers_calls_are_weighed_on_the_hand_the_world_fixes():
    table, view, counts, _ = _defending("partnership", 3)
    assert view.variant.nest_size == 0 and counts and splits_declarer_hand(view)
    truth = [(list(table.state.hands), table.state.discards)]
    rule = HeuristicAgent()  # the rule that made the calls: each has p = 1 in the true deal
    extra = declarer_call_log_likelihoods(view, truth, rule, splits=5, rng=random.Random(0))
    assert extra == pytest.approx([_rule_value(counts)])
    # a world that gives the declarer another hand explains some call worse
    hands = list(table.state.hands)
    other = (view.declarer + 1) % 4 if (view.declarer + 1) % 4 != view.seat else (view.declarer + 3) % 4
    hands[view.declarer], hands[other] = hands[other], hands[view.declarer]
    swapped = declarer_call_log_likelihoods(view, [(hands, table.state.discards)], rule, 5, random.Random(0))
    assert swapped[0] <= extra[0]


class _Draws:
    """An rng whose every draw of the nest is the given cards."""

    def __init__(self, cards: list[int]):
        self.cards = cards

    def sample(self, pool: list[int], k: int) -> list[int]:
        assert set(self.cards) <= set(pool) and k == len(self.cards)
        return self.cards


def test_with_a_nest_the_calls_are_weighed_over_draws_of_what_came_from_it():
    table, view, counts, nest_in = _defending("crowsnest", 2)
    assert nest_in and counts and splits_declarer_hand(view)
    hands, discards = list(table.state.hands), table.state.discards
    # the true split rebuilds the deal the declarer bid on
    state, _ = replay_world(view, hands, discards, nest_in)
    assert state.nest == nest_in
    assert state.hands[view.declarer] == (hands[view.declarer] | view.played[view.declarer] | discards) & ~nest_in
    rule = HeuristicAgent()
    true_cards = [c for c in range(64) if nest_in >> c & 1]
    exact = declarer_call_log_likelihoods(view, [(hands, discards)], rule, 3, _Draws(true_cards))  # type: ignore[arg-type]
    assert exact == pytest.approx([_rule_value(counts)])
    # random draws: each one a legal replay, the mean likelihood no more than the rule's p = 1 everywhere
    drawn = declarer_call_log_likelihoods(view, [(hands, discards)] * 3, rule, 8, random.Random(1))
    assert all(d <= exact[0] + 1e-9 for d in drawn)
    again = declarer_call_log_likelihoods(view, [(hands, discards)] * 3, rule, 8, random.Random(1))
    assert drawn == again  # deterministic for the rng
    # in world_log_likelihoods: the default leaves the declarer's calls out, declarer_calls adds them
    policy = make_agent("learned", seed=0).policy_for(view.variant)
    plain = world_log_likelihoods(view, [(hands, discards)], policy)
    weighed = world_log_likelihoods(view, [(hands, discards)], policy, callers={view.declarer: rule},
                                    declarer_calls=3, rng=_Draws(true_cards))  # type: ignore[arg-type]
    assert weighed == pytest.approx([plain[0] + exact[0]])


def test_the_declarer_calls_option_needs_inference_and_plays_legally():
    with pytest.raises(ValueError, match="declarer_calls .*needs inference=true"):
        make_agent("pimc?declarer_calls=4")
    with pytest.raises(ValueError, match="declarer_calls must be an integer >= 0"):
        make_agent("expert?declarer_calls=-1")
    for rule_set, seed in (("crowsnest", 2), ("partnership", 3)):
        _, view, _, _ = _defending(rule_set, seed)
        agent = make_agent("expert?samples=3,nodes=400,exact=2,declarer_calls=2", seed=0)
        assert agent.act(view) in view.legal_actions()


def test_double_dummy_sees_every_hand_only_on_the_side_it_is_told():
    table, view, _, _ = _defending("crowsnest", 2)
    state = table.state
    full = make_agent("double_dummy?nodes=3000,exact=3", seed=0).act_seeing_all(state)
    pimc = make_agent("pimc", seed=7).act(view)
    defence = make_agent("double_dummy?nodes=3000,exact=3,sees=defence", seed=7)
    declarer = make_agent("double_dummy?nodes=3000,exact=3,sees=declarer", seed=7)
    assert defence.act_seeing_all(state) == full  # this seat defends: it sees everything
    assert declarer.act_seeing_all(state) == pimc  # ... and plays as pimc where it does not see
    # bidding as pimc with bid_margin=0
    fresh = Table("crowsnest", episode="hand", observe=False)
    fresh.reset(5)
    first = fresh.view()
    assert first.phase is Phase.AUCTION
    assert make_agent("double_dummy?bid_margin=0", seed=0).act_seeing_all(fresh.state) == make_agent(
        "pimc", seed=0).act(player_view(fresh.state, first.seat))
    with pytest.raises(ValueError, match="sees must be one of"):
        make_agent("double_dummy?sees=north")
    with pytest.raises(ValueError, match="bid_margin must be a finite number"):
        make_agent("double_dummy?bid_margin=nan")
