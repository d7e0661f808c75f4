"""The heuristic's decisions on hand-built positions, and its margin over random play."""

from __future__ import annotations

from dataclasses import replace

from agents.arena import play_duplicate_deal
from agents.heuristic import HeuristicAgent
from agents.stats import t_interval
from crowsnest_env.agent import RandomAgent
from crowsnest_env.rules import (
    NUM_SEATS,
    Phase,
    State,
    get_variant,
    iter_cards,
    player_view,
)

CROWSNEST = get_variant("crowsnest")


def deal(fixed: dict[int, str], dealer: int = 0, variant=CROWSNEST, nest: str = "") -> State:
    """A dealt state: the named seats get exactly these cards, the rest is filled in id order."""
    state = State(variant, dealer=dealer)
    cards = state.cards
    hands = [cards.cards_from_names(fixed[s].split()) if s in fixed else 0 for s in range(NUM_SEATS)]
    nest_set = cards.cards_from_names(nest.split()) if nest else 0
    free = [c for c in iter_cards(cards.full_deck) if not (nest_set | sum(hands)) >> c & 1]
    for s in range(NUM_SEATS):
        while hands[s].bit_count() < variant.hand_size:
            hands[s] |= 1 << free.pop(0)
    while nest_set.bit_count() < variant.nest_size:
        nest_set |= 1 << free.pop(0)
    state.deal_given(hands, nest_set)
    return state


def play(state: State, *names: str) -> None:
    for n in names:
        state.apply(state.layout.action_id(n))


def act_name(state: State, agent: HeuristicAgent | None = None) -> str:
    agent = agent or HeuristicAgent(0)
    return state.layout.name(agent.act(player_view(state, state.to_move)))


def test_bids_a_monster_and_passes_junk() -> None:
    monster = deal({1: "B14 B13 B12 B11 B10 B9 B8 G14 R14"})
    assert act_name(monster).startswith("bid")
    junk = deal({1: "B5 B6 G6 G7 G8 R6 R7 Y6 Y7"})
    assert act_name(junk) == "pass"


MONSTER = "B14 B13 B12 B11 B10 B9 B8 G14 R14"


def test_monster_bids_up_to_its_value_but_not_past_it() -> None:
    state = deal({0: MONSTER}, dealer=3)  # seat 0 opens
    assert act_name(state) == "bid 70"  # it raises one step at a time
    play(state, "bid 70", "bid 90", "pass", "pass")
    assert act_name(state) == "bid 95"
    state = deal({0: MONSTER}, dealer=3)
    play(state, "bid 70", "bid 110", "pass", "pass")
    assert act_name(state) == "pass"  # 115 is past what seven trumps and two aces make safe


def test_does_not_overbid_partner_with_a_fair_hand_but_competes_with_opponents() -> None:
    fair = "B14 B12 B9 B7 G14 G6 R8 Y7 Y5"
    state = deal({3: fair}, dealer=0)  # order 1, 2, 3: partner (seat 1) bids first
    play(state, "bid 75", "pass")
    assert act_name(state) == "pass"
    state = deal({3: fair}, dealer=1)  # order 2, 3: an opponent bids first
    play(state, "bid 75")
    assert act_name(state) == "bid 80"


def _declare(state: State, seat: int) -> None:
    """Seat ``seat`` wins the auction at the minimum bid; the others pass."""
    while state.phase is Phase.AUCTION:
        play(state, "bid 70" if state.to_move == seat and state.high_bid == 0 else "pass")


def test_discard_keeps_trumps_and_names_the_long_suit() -> None:
    state = deal({0: "R14 R13 R10 R9 R7 G5 G9 Y6 B8"}, dealer=3,
                 nest="R12 R5 Y14 B6 G13")
    _declare(state, 0)
    agent = HeuristicAgent(0)
    while state.phase is Phase.DISCARD:
        state.apply(agent.act(player_view(state, 0)))
    assert act_name(state, agent) == "trump Red"
    reds = state.cards.suit_mask[2][2]
    assert state.hands[0] & reds == state.cards.cards_from_names(["R14", "R13", "R12", "R10", "R9", "R7", "R5"])
    kept = set(state.cards.names_of(state.hands[0]))
    assert "Y14" in kept  # a side master stays
    # the short suits went: at least one side colour is now void
    side_counts = [(state.hands[0] & state.cards.suit_mask[2][c]).bit_count() for c in (0, 1, 3)]
    assert 0 in side_counts


def _play_position() -> State:
    """Seat 0 declares Black; seat 0 leads trick 1 (dealer 3)."""
    state = deal({
        0: "B14 B12 G14 G13 R14 R13 Y14 Y13 B11",
        1: "B5 B6 G5 G6 R5 R6 Y5 Y6 Y7",
        2: "B10 B7 G7 G8 R7 R8 Y8 Y9 R10",
        3: "B8 B9 G9 G10 R9 R11 Y10 Y11 Y12",
    }, dealer=3, nest="B13 G11 G12 R12 CROW")
    _declare(state, 0)
    for name in ("B13", "G11", "G12", "R12", "CROW"):
        play(state, f"discard {name}")
    play(state, "trump Black")
    return state


def test_gives_a_counter_to_a_partner_who_is_sure_to_win() -> None:
    state = _play_position()
    play(state, "play B14", "play B5")  # the top trump leads; seat 2 must follow trump
    assert act_name(state) == "play B10"


def test_does_not_trump_partners_sure_winner() -> None:
    state = deal({
        0: "G14 B14 B12 R14 R13 Y14 Y13 G5 B11",
        1: "G6 G7 B5 R5 R6 Y5 Y6 Y7 B6",
        2: "B10 B7 B8 R7 R8 Y8 Y9 R10 Y10",
        3: "G8 G9 G10 B9 R9 R11 Y11 Y12 G13",
    }, dealer=3, nest="B13 G11 G12 R12 CROW")
    _declare(state, 0)
    for name in ("B13", "G11", "G12", "R12", "CROW"):
        play(state, f"discard {name}")
    play(state, "trump Black", "play G14", "play G6")
    card = act_name(state)[len("play "):]
    assert not card.startswith("B")  # seat 2 is void in green: no trump on partner's ace
    assert card in ("R10", "Y10")  # it smears a counter instead


def test_dumps_its_lowest_card_when_it_cannot_win() -> None:
    state = _play_position()
    play(state, "play R13", "play R5", "play R10")  # seat 2 gives R10; seat 3 last
    # seat 0's R13 is winning; seat 3 holds R9 R11: R11 does not beat R13 -> it dumps low
    assert act_name(state) == "play R9"


def test_keeps_the_master_trump_for_the_last_trick() -> None:
    """Two cards left, on lead with the top trump and a loser: lead the loser first."""
    state = _play_position()
    view = player_view(state, 0)
    cards, off = state.cards, state.layout.play_offset
    hand = cards.cards_from_names(["B14", "G5"])
    others = cards.cards_from_names(["B9", "B8", "R11", "Y11", "Y12", "G13"])  # two cards per other seat
    gone = cards.full_deck & ~hand & ~others & ~view.discards
    view = replace(view, hand=hand, legal=hand << off, trick_no=CROWSNEST.num_tricks - 2,
                   played=(0, gone, 0, 0))
    assert view.layout.name(HeuristicAgent(0).act(view)) == "play G5"
    # sanity: the position hides exactly the six cards still in the other hands
    assert view.unseen() == others


def duplicate_match(variant, make_a, make_b, seeds):
    """Mean and 95% half-width of team a's per-hand advantage over duplicate deals (the arena's format)."""
    values = [play_duplicate_deal((make_a(), make_a()), (make_b(), make_b()), i, variant=variant).value
              for i in seeds]
    low, high = t_interval(values)
    return (low + high) / 2, (high - low) / 2


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    """Duplicate deals (teams swapped) in crowsnest: > 60 points per hand, CI above 0."""
    mean, half = duplicate_match("crowsnest", lambda: HeuristicAgent(1), lambda: RandomAgent(2), range(60))
    assert mean > 60
    assert mean - half > 0


def test_heuristic_beats_random_in_every_variant_family() -> None:
    for name in ("tournament", "partnership", "buckeye", "dixie"):
        mean, half = duplicate_match(name, lambda: HeuristicAgent(1), lambda: RandomAgent(2), range(25))
        assert mean - half > 20, name
