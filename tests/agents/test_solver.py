"""The compiled double-dummy solver is exact: values equal to the previous solver's on fixed
positions, to a brute-force minimax over the engine on random endings, and to its own
exact-position table (partition search is an optimisation, not an approximation)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agents._solver import DoubleDummy
from agents.deal_sets import RULE_SETS
from agents.heuristic import HeuristicAgent
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import NUM_SEATS, Phase, State, get_variant, new_game, player_view, tables_for

GOLDEN = json.loads((Path(__file__).parent / "data" / "solver_golden.json").read_text())["positions"]


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_values_equal_the_previous_solvers_on_fixed_positions(rule_set: str) -> None:
    positions = [g for g in GOLDEN if g["variant"] == rule_set]
    assert len(positions) >= 10
    for g in positions:
        cards = tables_for(get_variant(g["variant"]))
        hands = [cards.cards_from_names(h) for h in g["hands"]]
        trick = [cards.card_id(c) for c in g["trick"]]
        dd = DoubleDummy(cards, g["trump"], g["nest_points"])
        got = dd.values(hands, g["leader"], trick, g["trick_no"], g["tricks0"])
        assert {cards.names[c]: v for c, v in got.items()} == g["values"], (rule_set, g["seed"], g["trick_no"])


def test_the_golden_set_holds_whole_hands_and_every_trick_position() -> None:
    """The fixed positions include whole 9-trick hands and starts at every place in a trick."""
    assert any(g["trick_no"] == 0 and g["variant"] == "crowsnest" for g in GOLDEN)
    assert {len(g["trick"]) for g in GOLDEN} == {0, 1, 2, 3}
    assert any(g["tricks0"] > 0 and get_variant(g["variant"]).trick_bonus for g in GOLDEN)


def test_a_two_trick_ending_worked_by_hand() -> None:
    """Leading the trump ace nets 25, leading G5 nets 35 (see comments)."""
    cards = tables_for(get_variant("crowsnest"))
    hands = [cards.cards_from_names(h.split()) for h in ("B14 G5", "B13 G14", "G10 R5", "Y10 B5")]
    dd = DoubleDummy(cards, trump=0, nest_points=15)
    values = dd.values(hands, leader=0, trick=[], trick_no=7, tricks0=0)
    # B14: B13 forced, seat 2 smears G10, B5 forced: 25 for us; G5 then loses to G14 (+nest).
    # G5: G14, G10 forced; seat 3 smears Y10 (35 to them); B13 R5 B5 B14 -> 20 + nest 15 = 35.
    assert {cards.names[c]: v for c, v in values.items()} == {"B14": 25, "G5": 35}
    assert dd.solve(hands, 0, [], 7, 0) == 35


def _brute_force(state: State) -> int:
    """Team 0's final captured points by plain minimax over the engine (no pruning)."""
    if state.phase is not Phase.PLAY:
        return state.results[-1].points[0]
    values = [_brute_force(_after(state, a)) for a in state.legal_actions()]
    return max(values) if state.to_move % 2 == 0 else min(values)


def _after(state: State, action: int) -> State:
    new = state.clone()
    new.apply(action)
    return new


def _play_to(rule_set: str, seed: int, tricks_left: int, on_table: int, random_play: bool = False) -> State | None:
    """A hand of ``rule_set`` played (heuristic, or random agents) until ``tricks_left`` tricks
    remain with ``on_table`` cards of the current trick down; None if the hand never gets there."""
    v = get_variant(rule_set)
    rng = random.Random(f"{rule_set}-{seed}")
    state = new_game(v, rng=rng, dealer=seed % NUM_SEATS)
    agents = [(RandomAgent if random_play else HeuristicAgent)(seed * NUM_SEATS + s) for s in range(NUM_SEATS)]
    while state.hand_no == 0:
        if state.phase is Phase.DEAL:
            state.deal_random(rng)
        elif (state.phase is Phase.PLAY and v.num_tricks - state.trick_no == tricks_left
              and len(state.trick) == on_table):
            return state
        else:
            state.apply(agents[state.to_move].act(player_view(state, state.to_move)))
    return None


def _solver(state: State, partition: bool = True) -> DoubleDummy:
    return DoubleDummy(state.cards, state.trump, state.cards.count_points(state.discards), partition=partition)


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_values_equal_brute_force_minimax_over_the_engine(rule_set: str) -> None:
    """Every legal card's value, nest to the last trick and trick bonus included (the engine scores)."""
    checked = 0
    for seed in range(8):
        state = _play_to(rule_set, seed, tricks_left=3, on_table=seed % 4, random_play=seed % 2 == 1)
        if state is None:
            continue
        vals = _solver(state).values(state.hands, state.leader, state.trick, state.trick_no, state.tricks_won[0])
        assert set(vals) == {a - state.layout.play_offset for a in state.legal_actions()}
        for a in state.legal_actions():
            assert state.captured[0] + vals[a - state.layout.play_offset] == _brute_force(_after(state, a))
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_partition_search_equals_exact_position_keys(rule_set: str) -> None:
    """The class entries change how much is searched, never a value."""
    v = get_variant(rule_set)
    checked = 0
    for seed in range(10):
        state = _play_to(rule_set, 100 + seed, tricks_left=min(6, v.num_tricks), on_table=seed % 4,
                         random_play=seed % 3 == 0)
        if state is None:
            continue
        args = (state.hands, state.leader, state.trick, state.trick_no, state.tricks_won[0])
        assert _solver(state).values(*args) == _solver(state, partition=False).values(*args)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize("rule_set", ["partnership", "dixie"])
def test_a_decided_trick_bonus_shifts_every_value_by_the_bonus(rule_set: str) -> None:
    """The table shares entries between trick counts that decide the bonus the same way (stored
    without it): with the bonus already won every value is the bonus above the values where it is
    out of reach, and an open bonus lies between them."""
    v = get_variant(rule_set)
    checked = 0
    for seed in range(6):
        state = _play_to(rule_set, 200 + seed, tricks_left=6, on_table=0, random_play=seed % 2 == 1)
        if state is None:
            continue
        dd = _solver(state)
        args = (state.hands, state.leader, state.trick, state.trick_no)
        won = dd.values(*args, tricks0=state.trick_no)  # every trick so far: more than half
        lost = dd.values(*args, tricks0=0)  # even all six left are not more than half
        open_ = dd.values(*args, tricks0=v.num_tricks // 2 - 2)  # three of the six left win it
        assert won == {c: x + v.trick_bonus for c, x in lost.items()}
        assert all(lost[c] <= open_[c] <= won[c] for c in lost)
        checked += 1
    assert checked >= 3


def test_depth_limited_values_cover_every_legal_card_and_the_last_horizon_is_exact() -> None:
    state = _play_to("buckeye", 3, tricks_left=6, on_table=1)
    assert state is not None
    dd = _solver(state)
    args = (state.hands, state.leader, state.trick, state.trick_no, state.tricks_won[0])
    legal = {a - state.layout.play_offset for a in state.legal_actions()}
    shallow = dd.deepening(*args, node_budget=1)  # only the current trick, then the estimate
    assert set(shallow) == legal
    assert dd.deepening(*args, node_budget=10**9) == dd.values(*args)


def test_bad_positions_are_clear_errors() -> None:
    state = _play_to("crowsnest", 0, tricks_left=5, on_table=0)
    assert state is not None
    dd = _solver(state)
    h = state.hands
    with pytest.raises(ValueError, match="four card sets"):
        dd.values(h[:3], state.leader, [], state.trick_no, 0)
    with pytest.raises(ValueError, match="in two hands"):
        dd.values([h[0], h[0], h[2], h[3]], state.leader, [], state.trick_no, 0)
    with pytest.raises(ValueError, match="holds"):
        dd.values([h[0] | h[1], 0, h[2], h[3]], state.leader, [], state.trick_no, 0)
    with pytest.raises(ValueError, match="trick_no"):
        dd.values(h, state.leader, [], 9, 0)
    with pytest.raises(ValueError, match="leader"):
        dd.values(h, 4, [], state.trick_no, 0)
