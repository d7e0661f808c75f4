"""Scripted deals for every variant: explicit hands, scripted auction/nest/trump/play, exact
trick winners, captured points and score changes (RULES.md sections 2 and 3).

Every deal below has dealer 0, so seat 1 bids first and leads trick 1; seat 2 declares.
Seats mostly hold one colour each, so follow-suit is obvious from the hand strings.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from crowsnest_env.rules import (
    IllegalActionError,
    Phase,
    get_variant,
    trick_winner_offset,
)

from .conftest import (
    CROWSNEST_A_DISCARDS,
    CROWSNEST_A_HANDS,
    CROWSNEST_A_NEST,
    CROWSNEST_A_POINTS,
    CROWSNEST_A_TRICKS,
    CROWSNEST_A_WINNERS,
    act,
    cards,
    deal,
    discard,
    legal_names,
    new_state,
    play_tricks,
    plays,
    rank_run,
    table,
)


@dataclass(frozen=True)
class Deal:
    """One scripted hand: everything but the auction, and what it must produce."""

    variant: str
    crow: bool
    hands: list[str]
    nest: str
    discards: str  # declarer's put-back ("" when there is no nest)
    trump: str
    tricks: list[str]
    winners: list[int]
    points: tuple[int, int]  # captured per team, nest and trick bonus included
    tricks_won: tuple[int, int]
    nest_points: int
    bonus: tuple[int, int] = (0, 0)


DEALS: dict[str, Deal] = {
    # 2.5/2.6: trump 5 beats the Crow (T1); nest 15 to seat 2 (last trick).
    "crowsnest": Deal(
        "crowsnest", True, CROWSNEST_A_HANDS, CROWSNEST_A_NEST, CROWSNEST_A_DISCARDS, "Red",
        CROWSNEST_A_TRICKS, CROWSNEST_A_WINNERS, CROWSNEST_A_POINTS, (8, 1), 15,
    ),
    # 2.8: 40 cards, nest 4, total 100.
    "crowsnest_nocrow": Deal(
        "crowsnest", False,
        [rank_run("B", 6, 14), "R14 " + rank_run("G", 7, 14), rank_run("R", 5, 13), rank_run("Y", 6, 14)],
        "B5 G5 G6 Y5", "B5 G5 G6 Y5", "Red",
        ["R14 R5 Y6 B6", "G14 R6 Y7 B7"] + [f"R{k - 1} Y{k} B{k} G{k - 1}" for k in range(8, 15)],
        [1, 2, 2, 2, 2, 2, 2, 2, 2], (85, 15), (8, 1), 15,
    ),
    # 3.1: the Rook is the highest trump (beats R14 in T1); made scores the captured points.
    "tournament": Deal(
        "tournament", True,
        [rank_run("B", 6, 14), "R13 R14 " + rank_run("G", 8, 14), rank_run("R", 5, 12) + " G7",
         rank_run("Y", 6, 14)],
        "B5 G5 G6 Y5 ROOK", "B5 G5 G6 Y5 G7", "Red",
        ["R14 ROOK Y6 B6", "R5 Y7 B7 R13", "G14 R6 Y8 B8"]
        + [f"R{k} Y{k + 2} B{k + 2} G{k + 1}" for k in range(7, 13)],
        [2, 1, 2, 2, 2, 2, 2, 2, 2], (115, 5), (8, 1), 15,
    ),
    # 3.2: no nest, 14 tricks, +20 for 8+ tricks (team 0 takes 10; 85 + 20 = 105).
    "partnership": Deal(
        "partnership", True,
        [rank_run("B", 5, 14) + " R11 R12 R13 R14", rank_run("G", 1, 14),
         rank_run("R", 1, 10) + " B1 B2 B3 B4", rank_run("Y", 1, 14)],
        "", "", "Red",
        ["G14 B1 Y1 B5", "G13 B2 Y2 B6", "G12 B3 Y3 B7", "G11 B4 Y4 B8", "G10 R1 Y5 B9",
         "R2 Y6 R14 G9", "B14 G8 R3 Y7", "R4 Y8 R13 G7", "B13 G6 R5 Y9", "R6 Y10 R12 G5",
         "B12 G4 R7 Y11", "R8 Y12 R11 G3", "B11 G2 R9 Y13", "R10 Y14 B10 G1"],
        [1, 1, 1, 1, 2, 0, 2, 0, 2, 0, 2, 0, 2, 2], (105, 15), (10, 4), 0, (20, 0),
    ),
    # 3.2, R9: a 7-7 split gives no bonus; the hand holds 100 points.
    "partnership_7_7": Deal(
        "partnership", True,
        [rank_run("R", 8, 14) + " " + rank_run("B", 1, 7), rank_run("G", 1, 14),
         rank_run("R", 1, 7) + " " + rank_run("B", 8, 14), rank_run("Y", 1, 14)],
        "", "", "Red",
        [f"G{22 - k} B{k} Y{k - 7} B{k - 7}" for k in range(8, 15)]
        + ["G7 R1 Y8 R14"] + [f"R{14 - j} G{7 - j} R{1 + j} Y{8 + j}" for j in range(1, 7)],
        [1] * 7 + [0] * 7, (50, 50), (7, 7), 0, (0, 0),
    ),
    # 3.3: 1 ranks high (G1 beats G14, T1); the Rook is the lowest trump (R2 beats it, T2).
    "one_high": Deal(
        "one_high", True,
        [rank_run("B", 2, 14), "R2 G1 " + rank_run("G", 3, 13), "G14 " + rank_run("R", 3, 14),
         rank_run("Y", 2, 14)],
        "B1 G2 R1 Y1 ROOK", "B1 G2 Y1 R3 R4", "Red",
        ["G1 G14 Y2 B2", "R2 ROOK Y3 B3", "G13 R5 Y4 B4"]
        + [f"R{k} Y{k - 1} B{k - 1} G{k - 3}" for k in range(6, 15)] + ["R1 Y14 B14 G12"],
        [1, 1] + [2] * 11, (135, 45), (11, 2), 30,
    ),
    # 3.4: Red 1 (30) led as trump beats the Rook although Green is trump.
    "red_one": Deal(
        "red_one", True,
        [rank_run("B", 6, 14), "R1 " + rank_run("R", 6, 13), rank_run("G", 6, 14), rank_run("Y", 6, 14)],
        "B5 G5 R5 R14 Y5 ROOK", "B5 R5 Y5 R14 G5 G6", "Green",
        ["R1 ROOK Y6 B6", "R13 G7 Y7 B7"] + [f"G{k} Y{k} B{k} R{k - 2}" for k in range(8, 15)],
        [1, 2, 2, 2, 2, 2, 2, 2, 2], (100, 50), (8, 1), 30,
    ),
    # 3.5: 1 above 14 (G1 beats G14, T1); the Rook above the trump 1 (T2).
    "buckeye": Deal(
        "buckeye", True,
        [rank_run("B", 5, 14), "R1 G1 " + rank_run("G", 6, 13), rank_run("R", 5, 14), rank_run("Y", 5, 14)],
        "B1 G5 G14 Y1 ROOK", "B1 Y1 G5 R5 R6", "Red",
        ["G1 G14 Y5 B5", "R1 ROOK Y6 B6", "R14 Y7 B7 G6"]
        + [f"R{k} Y{k + 1} B{k + 1} G{k}" for k in range(7, 14)],
        [1, 2, 2, 2, 2, 2, 2, 2, 2, 2], (145, 35), (9, 1), 40,
    ),
    # 3.6: 13 counts 10, 14 counts 0 (G14 trick T1 is worth 0); +20 for 7+ of 13 tricks.
    "dixie": Deal(
        "dixie", True,
        [rank_run("B", 1, 13), rank_run("G", 2, 14), rank_run("R", 1, 13), rank_run("Y", 1, 13)],
        "B14 G1 R14 Y14", "R1 R2 R3 R5", "Red",
        ["G14 G1 Y1 B1", "G13 B14 Y2 B2", "G12 Y14 Y3 B3", "G11 R4 Y4 B4"]
        + [f"R{k} Y{k - 1} B{k - 1} G{k - 4}" for k in range(6, 15)],
        [1, 1, 1] + [2] * 10, (110, 10), (10, 3), 5, (20, 0),
    ),
}

# (deal, auction from seat 1, bid, made, score change (team 0, team 1)); seat 2 always declares.
CONTRACTS = [
    # crowsnest: made adds the bid, not the 95 captured; exactly the bid captured is made.
    ("crowsnest", "pass, bid 70, pass, pass", 70, True, (70, 25)),
    ("crowsnest", "bid 70, bid 95, pass, pass, pass", 95, True, (95, 25)),
    ("crowsnest", "pass, bid 100, pass, pass", 100, False, (-100, 25)),
    ("crowsnest_nocrow", "pass, bid 80, pass, pass", 80, True, (80, 15)),
    ("crowsnest_nocrow", "bid 85, bid 90, pass, pass, pass", 90, False, (-90, 15)),
    # tournament and the rest: made adds the points captured.
    ("tournament", "pass, bid 70, pass, pass", 70, True, (115, 5)),
    ("tournament", "pass, bid 120", 120, False, (-120, 5)),  # a maximum bid closes at once
    ("partnership", "pass, bid 90, pass, pass", 90, True, (105, 15)),  # made thanks to the bonus
    ("partnership", "pass, bid 110, pass, pass", 110, False, (-110, 15)),
    ("partnership_7_7", "pass, bid 70, pass, pass", 70, False, (-70, 50)),
    ("one_high", "bid 100, bid 135, pass, pass, pass", 135, True, (135, 45)),
    ("one_high", "pass, bid 140, pass, pass", 140, False, (-140, 45)),
    ("red_one", "pass, bid 80, pass, pass", 80, True, (100, 50)),
    ("red_one", "pass, bid 105, pass, pass", 105, False, (-105, 50)),
    ("buckeye", "pass, bid 120, pass, pass", 120, True, (145, 35)),
    ("buckeye", "pass, bid 150, pass, pass", 150, False, (-150, 35)),
    ("dixie", "pass, bid 100, pass, pass", 100, True, (110, 10)),  # 90 without the bonus
    ("dixie", "pass, bid 115, pass, pass", 115, False, (-115, 10)),
]

# Section 4 table: hand total (= maximum bid), deck, hand size, nest per variant.
TOTALS = {
    ("crowsnest", True): (120, 41, 9, 5), ("crowsnest", False): (100, 40, 9, 4),
    ("tournament", True): (120, 41, 9, 5), ("tournament", False): (100, 40, 9, 4),
    ("partnership", True): (120, 56, 14, 0), ("one_high", True): (180, 57, 13, 5),
    ("red_one", True): (150, 42, 9, 6), ("buckeye", True): (180, 45, 10, 5),
    ("dixie", True): (120, 56, 13, 4),
}


def declare(state, declarer: int = 2, bid: int = 70, discards: str = "", trump: str = "Red"):
    """Everyone passes but ``declarer``, who bids ``bid``; then the put-back and the trump."""
    while state.phase is Phase.AUCTION:
        mine = state.to_move == declarer and state.high_bid == 0
        act(state, f"bid {bid}" if mine else "pass")
    assert (state.declarer, state.bid) == (declarer, bid)
    if discards:
        discard(state, discards)
    return act(state, f"trump {trump}")


# ------------------------------------------------------------------------------ whole hands
@pytest.mark.parametrize(
    "name, auction, bid, made, change", CONTRACTS,
    ids=[f"{c[0]}-{'made' if c[3] else 'set'}-{c[2]}" for c in CONTRACTS],
)
def test_scripted_hand(name, auction, bid, made, change):
    """2.3-2.7 and 3.1-3.6: exact trick winners, captured points (nest to the last-trick winner,
    trick bonus) and score changes (crowsnest made = bid, others = captured; set = -bid and
    nothing for the declarers' captures; defenders add what they captured)."""
    d = DEALS[name]
    total, _, n_tricks, _ = TOTALS[(d.variant, d.crow)]
    s = deal(new_state(d.variant, crow=d.crow, scores=(10, 20)), d.hands, d.nest)
    act(s, auction)
    assert (s.declarer, s.bid) == (2, bid)
    if d.discards:
        assert s.phase is Phase.DISCARD and s.to_move == 2
        discard(s, d.discards)
    assert s.phase is Phase.TRUMP  # partnership: trump straight after the auction (3.2)
    act(s, f"trump {d.trump}")
    assert (s.phase, s.to_move) == (Phase.PLAY, 1)  # left of the dealer leads (2.5)

    winners = play_tricks(s, d.tricks)

    assert winners == d.winners and len(winners) == n_tricks
    r = s.results[-1]
    assert (r.declarer, r.bid, r.made) == (2, bid, made)
    assert r.points == d.points
    assert r.tricks == d.tricks_won
    assert r.nest_points == d.nest_points
    assert r.trick_bonus == d.bonus
    assert sum(r.points) == (total - 20 if name == "partnership_7_7" else total)
    assert r.discards == (cards(s, d.discards) if d.discards else 0)
    assert r.score_change == change
    assert tuple(s.scores) == (10 + change[0], 20 + change[1])
    assert (s.phase, s.dealer, s.hand_no) == (Phase.DEAL, 1, 1)  # next deal is due, dealt by seat 1


@pytest.mark.parametrize("variant, crow", list(TOTALS), ids=[f"{v}-{c}" for v, c in TOTALS])
def test_variant_sizes_and_bids(variant, crow):
    """Section 4 table: deck, hand, nest, total points = maximum bid; bids 70..total by 5
    (100..180 in Buckeye, R11)."""
    total, deck, hand, nest = TOTALS[(variant, crow)]
    v = get_variant(variant, crow=crow)
    t = table(variant, crow)
    assert (t.deck_size, v.hand_size, v.nest_size, v.total_points) == (deck, hand, nest, total)
    assert sum(t.points) + v.trick_bonus == total
    assert v.bids == tuple(range(100 if variant == "buckeye" else 70, total + 1, 5))


def test_no_crow_option_only_in_crowsnest_and_tournament():
    """2.8: asking for crow=False in another variant is an error."""
    for name in ("partnership", "one_high", "red_one", "buckeye", "dixie"):
        with pytest.raises(ValueError):
            get_variant(name, crow=False)


# ------------------------------------------------------------------------ card values and rank
@pytest.mark.parametrize("variant, values", [
    ("crowsnest", {"CROW": 20, "G5": 5, "G10": 10, "G14": 10, "G13": 0, "G6": 0}),
    ("tournament", {"ROOK": 20, "R5": 5, "R10": 10, "R14": 10}),
    ("partnership", {"B1": 0, "B5": 5, "B10": 10, "B13": 0, "B14": 10}),
    ("one_high", {"Y1": 15, "Y14": 10, "Y10": 10, "Y5": 5, "Y2": 0, "ROOK": 20}),
    ("red_one", {"R1": 30, "ROOK": 20, "R5": 5, "R14": 10}),
    ("buckeye", {"G1": 15, "G14": 10, "G10": 10, "G5": 5, "ROOK": 20}),
    ("dixie", {"R13": 10, "R14": 0, "R10": 10, "R5": 5, "R1": 0}),
])
def test_card_points(variant, values):
    """2.1 and section 4 'Counters': per-card values (dixie 13 = 10 and 14 = 0; 1s = 15)."""
    t = table(variant)
    assert {n: t.points[t.card_id(n)] for n in values} == values


RANKING = [
    # (variant, trump, trick in play order, index of the winning card, what it shows)
    ("crowsnest", "Red", "G14 CROW Y6 B6", 1, "Crow beats every non-trump card"),
    ("crowsnest", "Red", "CROW R5 G14 B6", 1, "trump 5 beats the Crow (Crow led = trump led)"),
    ("crowsnest", "Red", "R5 CROW R6 G14", 2, "Crow is the lowest trump"),
    ("crowsnest", "Red", "G5 B14 Y14 G6", 3, "off-colour cards never win"),
    ("tournament", "Red", "R14 ROOK G5 B6", 1, "Rook above trump 14"),
    ("tournament", "Red", "G14 G13 ROOK R5", 2, "Rook beats a trump played after it"),
    ("red_one", "Green", "ROOK R1 G14 G13", 1, "Red 1 above the Rook, Green trump"),
    ("red_one", "Green", "R14 R1 R13 B5", 1, "Red 1 is a trump, not a Red card"),
    ("red_one", "Red", "R14 ROOK R1 R13", 2, "Red 1 top trump when Red is trump"),
    ("buckeye", "Red", "R1 ROOK R14 G1", 1, "Rook above the trump 1"),
    ("buckeye", "Red", "G14 G1 B1 Y1", 1, "1 above 14 in a plain colour"),
    ("buckeye", "Red", "R14 R1 R13 R12", 1, "1 above 14 in trump"),
    ("one_high", "Red", "R2 ROOK G1 B1", 0, "Rook below trump 2"),
    ("one_high", "Red", "ROOK G1 B14 Y1", 0, "Rook led is a trump and beats plain 1s"),
    ("one_high", "Red", "G14 G1 G13 G2", 1, "1 ranks high"),
    ("one_high", "Red", "R14 R1 ROOK R2", 1, "trump 1 is the top trump"),
    ("partnership", "Red", "G13 G14 G1 R1", 3, "trump 1 beats plain 14"),
    ("partnership", "Red", "G1 G2 B14 Y14", 1, "1 ranks low"),
    ("dixie", "Black", "G14 G13 B1 Y14", 2, "trump 1 wins, 1 low otherwise"),
]


@pytest.mark.parametrize("variant, trump, trick, winner, why", RANKING, ids=[r[4] for r in RANKING])
def test_trick_ranking(variant, trump, trick, winner, why):
    """2.6, 3.1, 3.3-3.5: highest trump wins, else the highest card of the led colour."""
    t = table(variant)
    colour = ["Black", "Green", "Red", "Yellow"].index(trump)
    assert trick_winner_offset(t, colour, [t.card_id(c) for c in trick.split()]) == winner


# ------------------------------------------------------------------------ follow suit, the bird
FOLLOW_NEST = "B5 B6 B7 G5 Y5"


def test_crow_led_forces_trump():
    """2.5: the Crow led leads trump; everyone holding trump must play trump."""
    s = deal(new_state("crowsnest"), [
        "R5 R6 " + rank_run("B", 8, 14), "CROW " + rank_run("G", 6, 13),
        rank_run("R", 7, 14) + " G14", rank_run("Y", 6, 14)], FOLLOW_NEST)
    declare(s, 2, 70, FOLLOW_NEST, "Red")
    act(s, "play CROW")
    assert legal_names(s) == plays(*rank_run("R", 7, 14).split())  # not G14
    act(s, "play R7")
    assert legal_names(s) == plays(*rank_run("Y", 6, 14).split())  # no trump: anything
    act(s, "play Y6")
    assert legal_names(s) == plays("R5", "R6")
    assert play_tricks(s, ["R5"]) == [2]  # R7 is the highest trump of the trick


def test_crow_playable_when_holding_led_colour():
    """2.5: the Crow may be played at any time, even holding the led colour; it then beats
    every non-trump card (2.6)."""
    s = deal(new_state("crowsnest"), [
        "R5 R6 " + rank_run("B", 8, 14), "R7 " + rank_run("G", 6, 13),
        "CROW G14 " + rank_run("R", 8, 14), rank_run("Y", 6, 14)], FOLLOW_NEST)
    declare(s, 2, 70, FOLLOW_NEST, "Red")
    act(s, "play G13")
    assert legal_names(s) == plays("G14", "CROW")
    act(s, "play CROW")
    assert play_tricks(s, ["Y6 B8"]) == [2]


def test_crow_only_trump_is_forced():
    """2.5: trump led and the Crow is the holder's only trump -> the Crow is the only legal card."""
    s = deal(new_state("crowsnest"), [
        "R5 R6 " + rank_run("B", 8, 14), "R7 " + rank_run("G", 6, 13),
        "Y6 G14 " + rank_run("R", 8, 14), "CROW " + rank_run("Y", 7, 14)], FOLLOW_NEST)
    declare(s, 2, 70, FOLLOW_NEST, "Red")
    act(s, "play R7, play R14")
    assert legal_names(s) == plays("CROW")
    with pytest.raises(IllegalActionError, match=r"play Y7.*PLAY"):
        act(s, "play Y7")
    act(s, "play CROW")
    assert legal_names(s) == plays("R5", "R6")
    assert play_tricks(s, ["R5"]) == [2]


RED_ONE_HANDS = [
    "R1 R5 R6 B5 B6 B7 B8 B9 B10",
    "R7 R8 R9 Y5 Y6 Y7 Y8 Y9 Y10",
    "R10 " + rank_run("G", 6, 12) + " G14",
    "ROOK G13 B11 B12 B13 B14 Y11 Y12 Y13",
]
RED_ONE_NEST = "G5 R11 R12 R13 R14 Y14"


def test_red_one_follows_suit_as_a_trump():
    """3.4, R13: with Green trump the Red 1 is not a Red card: it may not be played on a Red lead
    by a holder of Reds; when trump is led and it is the only trump it must be played; it beats
    the Rook."""
    s = deal(new_state("red_one"), RED_ONE_HANDS, RED_ONE_NEST)
    declare(s, 2, 70, RED_ONE_NEST, "Green")
    act(s, "play R9")
    assert legal_names(s) == plays("R10")
    act(s, "play R10")
    assert len(legal_names(s)) == 9  # seat 3 has no Red: anything
    act(s, "play B11")
    assert legal_names(s) == plays("R5", "R6")
    with pytest.raises(IllegalActionError):
        act(s, "play R1")
    assert play_tricks(s, ["R5"]) == [2]
    act(s, "play G14")  # trump led
    assert legal_names(s) == plays("G13", "ROOK")
    act(s, "play ROOK")
    assert legal_names(s) == plays("R1")
    act(s, "play R1")
    assert play_tricks(s, ["Y5"]) == [0]
    assert s.captured == [5 + 10 + 10 + 20 + 30 + 5, 0]  # R5 R10 | G14 ROOK R1 Y5


def test_red_one_led_leads_trump():
    """3.4, R13: leading the Red 1 leads trump (Green): trump holders must follow with trump,
    Reds do not follow it."""
    s = deal(new_state("red_one", dealer=3), RED_ONE_HANDS, RED_ONE_NEST)
    declare(s, 2, 70, RED_ONE_NEST, "Green")
    assert s.to_move == 0
    act(s, "play R1")
    assert legal_names(s) == plays("R7", "R8", "R9", *rank_run("Y", 5, 10).split())  # no trump
    act(s, "play R9")
    assert legal_names(s) == plays(*rank_run("G", 6, 12).split(), "G14")  # not R10
    act(s, "play G6")
    assert legal_names(s) == plays("G13", "ROOK")
    assert play_tricks(s, ["ROOK"]) == [0]


# ------------------------------------------------------------------------ auction and lead
def test_first_lead_left_of_dealer_not_declarer():
    """2.5, R16: seat dealer+1 leads trick 1 even when the declarer sits elsewhere."""
    s = deal(new_state("crowsnest", dealer=3), CROWSNEST_A_HANDS, CROWSNEST_A_NEST)
    act(s, "pass, pass, bid 70, pass")  # seats 0, 1 pass; seat 2 bids; seat 3 passes
    assert s.declarer == 2
    discard(s, CROWSNEST_A_DISCARDS)
    act(s, "trump Red")
    assert s.to_move == 0  # left of dealer 3; left of the declarer would be seat 3
    assert legal_names(s) == plays(*rank_run("B", 6, 14).split())


def test_all_pass_redeal_same_dealer():
    """2.3, R4: four passes -> phase DEAL with the same dealer and the scores untouched."""
    s = deal(new_state("crowsnest", dealer=1, scores=(40, -15)), CROWSNEST_A_HANDS, CROWSNEST_A_NEST)
    assert s.to_move == 2
    act(s, "pass, pass, pass, pass")
    assert (s.phase, s.dealer, tuple(s.scores), s.results, s.hand_no) == (
        Phase.DEAL, 1, (40, -15), [], 0)
    deal(s, CROWSNEST_A_HANDS, CROWSNEST_A_NEST)  # the same dealer deals again
    assert s.to_move == 2
    act(s, "pass, pass, pass, pass")
    assert (s.phase, s.dealer, tuple(s.scores)) == (Phase.DEAL, 1, (40, -15))


@pytest.mark.parametrize("variant, script, declarer, next_phase", [
    ("crowsnest", "bid 120", 1, Phase.DISCARD),
    ("crowsnest", "bid 70, bid 120", 2, Phase.DISCARD),
    ("partnership", "bid 70, pass, bid 120", 3, Phase.TRUMP),
    ("one_high", "pass, bid 180", 2, Phase.DISCARD),
])
def test_max_bid_closes_auction(variant, script, declarer, next_phase):
    """2.3, R3: a bid of the maximum ends the auction at once; the bidder declares."""
    v = get_variant(variant)
    hands = {
        "crowsnest": (CROWSNEST_A_HANDS, CROWSNEST_A_NEST),
        "partnership": (DEALS["partnership"].hands, ""),
        "one_high": (DEALS["one_high"].hands, DEALS["one_high"].nest),
    }[variant]
    s = deal(new_state(variant), *hands)
    act(s, script)
    assert (s.phase, s.declarer, s.bid, s.to_move) == (next_phase, declarer, v.max_bid, declarer)


def test_partner_may_overbid():
    """2.3, R2: partners may outbid each other."""
    s = deal(new_state("crowsnest"), CROWSNEST_A_HANDS, CROWSNEST_A_NEST)
    act(s, "bid 70, pass, bid 75, pass")  # seat 3 overbids partner seat 1
    assert s.to_move == 1 and "bid 80" in legal_names(s)
    act(s, "bid 80, pass")  # seat 1 overbids partner seat 3, who then passes
    assert (s.phase, s.declarer, s.bid) == (Phase.DISCARD, 1, 80)


def test_bid_legality():
    """2.3: bids are multiples of 5, at least 70, above the high bid, at most the total."""
    s = deal(new_state("crowsnest"), CROWSNEST_A_HANDS, CROWSNEST_A_NEST)
    assert legal_names(s) == {"pass"} | {f"bid {b}" for b in range(70, 121, 5)}
    for bad in ("bid 72", "bid 65", "bid 125", "bid 0"):
        with pytest.raises(ValueError):  # not a bid of this variant at all
            s.layout.action_id(bad)
    act(s, "bid 80")
    assert legal_names(s) == {"pass"} | {f"bid {b}" for b in range(85, 121, 5)}
    for low in ("bid 80", "bid 75", "bid 70"):
        with pytest.raises(IllegalActionError, match=rf"{low}.*AUCTION"):
            act(s, low)
    with pytest.raises(IllegalActionError):
        s.apply(s.layout.num_actions)  # an id outside the action space
    assert (s.to_move, s.high_bid, s.high_bidder) == (2, 80, 1)  # nothing changed
    with pytest.raises(IllegalActionError, match="AUCTION"):
        act(s, "play B6")


def test_discarded_bird_and_counters_go_to_last_trick_winner():
    """2.4, 2.7, R5: the declarer may put the Crow and counters in the nest; their points go
    to the team winning the last trick (here the defenders), and the declarers are set."""
    s = deal(new_state("crowsnest"), [
        rank_run("B", 6, 14), "R12 R13 R14 " + rank_run("G", 9, 14),
        rank_run("R", 5, 11) + " G7 G8", rank_run("Y", 6, 14)], "B5 G5 G6 Y5 CROW")
    declare(s, 2, 70, "G8 B5 G5 G6 CROW", "Red")
    winners = play_tricks(s, [
        "R14 R5 Y6 B6", "R13 R6 Y7 B7", "R12 R7 Y8 B8", "G14 G7 Y9 B9", "G13 R8 Y10 B10",
        "R9 Y11 B11 G9", "R10 Y12 B12 G10", "R11 Y13 B13 G11", "Y5 Y14 B14 G12"])
    assert winners == [1, 1, 1, 1, 2, 2, 2, 2, 3]
    r = s.results[-1]
    assert r.nest_points == 30
    assert r.points == (40, 80)  # team 1: 15 + 10 + 25 in tricks + nest 30
    assert (r.made, r.score_change) == (False, (-70, 80))


# ------------------------------------------------------------------ rule corrections (RULES.md changes)
def test_one_high_bird_follows_suit():
    """3.3, R10: in 1-High Partnership the Rook is an ordinary lowest trump with no "any time"
    privilege: holding the led colour, it may not be played; void in it, anything goes."""
    hands = [rank_run("B", 1, 13), rank_run("G", 1, 13), "ROOK B14 G14 " + rank_run("R", 1, 10),
             rank_run("Y", 1, 13)]
    nest = "R11 R12 R13 R14 Y14"
    s = deal(new_state("one_high"), hands, nest)
    act(s, "bid 70, pass, pass, pass")
    discard(s, nest)
    act(s, "trump Red, play G13")
    assert legal_names(s) == plays("G14")  # the Rook may not be played on Green
    act(s, "play G14, play Y1, play B1")
    assert s.tricks[-1][1] == 2
    act(s, "play B14, play Y2, play B2")
    act(s, "play G1")  # seat 1 is void in Black: any card
    assert s.tricks[-1][1] == 2  # B14 beat B2; seat 2 leads again
    act(s, "play R1")  # trump led: the Rook is a trump and may follow it
    assert legal_names(s) == plays(*rank_run("Y", 3, 13).split())  # seat 3 holds no trump


def test_one_high_bird_led_is_trump():
    """3.3: the Rook led leads trump; a seat holding trump must play trump."""
    hands = [rank_run("B", 1, 13), "R11 " + rank_run("G", 1, 12), "ROOK B14 G14 G13 " + rank_run("R", 1, 9),
             rank_run("Y", 1, 13)]
    nest = "R10 R12 R13 R14 Y14"
    s = deal(new_state("one_high"), hands, nest)
    act(s, "bid 70, pass, pass, pass")
    discard(s, "R10 R12 R13 R14 Y14")
    act(s, "trump Red, play G1")
    assert legal_names(s) == plays("G14", "G13")
    act(s, "play G13, play Y1, play B1")
    assert s.tricks[-1][1] == 1
    act(s, "play R11")
    assert legal_names(s) == plays("ROOK", *rank_run("R", 1, 9).split())


def test_buckeye_opens_at_100():
    """3.5, R11: Buckeye's bids run 100..180 by 5; the action layout has exactly those bids."""
    v = get_variant("buckeye")
    s = new_state("buckeye")
    s.deal_random(__import__("random").Random(0))
    assert legal_names(s) == {"pass"} | {f"bid {b}" for b in range(100, 181, 5)}
    assert s.layout.num_bids == len(range(100, 181, 5)) == len(v.bids)
    for bad in ("bid 95", "bid 70"):
        with pytest.raises(ValueError, match="not a buckeye bid"):
            s.layout.action_id(bad)
    act(s, "bid 100")
    assert (s.high_bid, s.high_bidder) == (100, s.dealer + 1)
