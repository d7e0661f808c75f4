"""Every agent returns a legal action in every phase of every variant (incl. crow=False)."""

from __future__ import annotations

import random

import pytest

from agents import make_agent
from agents.heuristic import HeuristicAgent
from agents.pimc import PIMCAgent
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import NUM_SEATS, Phase, State, get_variant, player_view
from crowsnest_env.table import Table
from tests.conftest import VARIANT_IDS, VARIANT_OPTIONS


def play_hand(variant, seats, seed: int, dealer: int, check) -> None:
    """One hand (all-pass redeals included) on the game driver; ``check(view, action)`` sees every move."""
    table = Table(variant, episode="hand", observe=False, record=False)
    table.reset(seed, dealer=dealer)
    for i, agent in enumerate(seats):
        agent.reset(seed * 4 + i)
    while not table.done:
        view = table.view()
        action = seats[view.seat].act(view)
        check(view, action)
        table.step(action)


def _fast_pimc(seed: int) -> PIMCAgent:
    return PIMCAgent(seed=seed, samples=2, nodes=150, time_limit=0.005, min_samples=1)


def _lineups(seed: int) -> list[list]:
    return [
        [HeuristicAgent(seed), RandomAgent(seed), HeuristicAgent(seed + 1), RandomAgent(seed + 1)],
        [_fast_pimc(seed), HeuristicAgent(seed), RandomAgent(seed), _fast_pimc(seed + 1)],
    ]


@pytest.mark.parametrize(("name", "crow"), VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_agents_always_legal(name: str, crow: bool) -> None:
    variant = get_variant(name, crow)
    seen_phases: set[Phase] = set()
    count = [0]

    def check(view, action: int) -> None:
        assert view.legal >> action & 1, f"{view.layout.name(action)} illegal in {view.phase.name}"
        seen_phases.add(view.phase)
        count[0] += 1

    for seed in range(6):
        for seats in _lineups(seed):
            play_hand(variant, seats, seed, dealer=seed % NUM_SEATS, check=check)
    expected = {Phase.AUCTION, Phase.TRUMP, Phase.PLAY}
    if variant.nest_size:
        expected.add(Phase.DISCARD)
    assert expected <= seen_phases
    assert count[0] > 100


@pytest.mark.parametrize("spec", ["heuristic", "pimc?samples=2,nodes=100,time_limit=0.01",
                                  "pimc?samples=2,nodes=100,policy=random", "phase:base=heuristic;discard=random"])
def test_agents_legal_when_declaring_every_variant(spec: str) -> None:
    """Force the agent under test to declare (random others pass) so it discards and names trump."""
    for name in ("crowsnest", "one_high", "red_one", "buckeye", "dixie", "partnership"):
        variant = get_variant(name)
        rng = random.Random(7)
        state = State(variant, dealer=3)
        state.deal_random(rng)
        agent = make_agent(spec, seed=1)
        state.apply(state.layout.action_id(f"bid {variant.min_bid}"))  # seat 0 bids
        for _ in range(3):
            state.apply(0)
        while state.phase is not Phase.DEAL:
            view = player_view(state, state.to_move)
            action = agent.act(view)
            assert view.legal >> action & 1
            state.apply(action)
        assert state.results[-1].declarer == 0


def test_agents_refuse_a_view_with_nothing_to_do() -> None:
    state = State(get_variant("crowsnest"))
    state.deal_random(random.Random(0))
    off_turn = player_view(state, (state.to_move + 1) % NUM_SEATS)
    for agent in (HeuristicAgent(0), _fast_pimc(0)):
        with pytest.raises(ValueError, match="no legal action"):
            agent.act(off_turn)


def test_heuristic_is_deterministic_and_reads_only_the_view() -> None:
    """Two states that look the same from a seat (hidden cards swapped) get the same action."""
    variant = get_variant("crowsnest")
    a, b = State(variant, dealer=0), State(variant, dealer=0)
    rng = random.Random(3)
    a.deal_random(rng)
    hands = list(a.hands)
    seat = a.to_move
    other = (seat + 1) % NUM_SEATS
    # swap one card between two hidden places: another hand and the nest
    card_h, card_n = hands[other] & -hands[other], a.nest & -a.nest
    hands[other] = hands[other] ^ card_h | card_n
    b.deal_given(hands, a.nest ^ card_n | card_h)
    view_a, view_b = player_view(a, seat), player_view(b, seat)
    assert view_a == view_b
    assert HeuristicAgent(5).act(view_a) == HeuristicAgent(5).act(view_b)
