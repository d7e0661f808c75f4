"""Shared card knowledge for the heuristic and search agents: powers, masters, hand value.

Everything here reads a variant's :class:`Variant` fields and :class:`CardTables` only, so
one formula serves all seven variants (no branching on a variant's name).
"""

from __future__ import annotations

from crowsnest_env.rules import (
    NUM_COLOURS,
    NUM_SEATS,
    CardSet,
    CardTables,
    Variant,
    iter_cards,
    score_change,
    trick_key,
)

# Chance that a trump wins a trick, by how many trumps held by others rank above it.
_TRUMP_WIN = (1.0, 0.55, 0.3, 0.15)
_PARTNER_SHARE = 0.8  # an unknown partner takes ~80% of an average quarter of the tricks
_BASE_SHARE, _NEST_SHARE = 0.2, 0.05  # estimate_points calibration (see there)
_SLOPE, _NEST_SLOPE = 0.85, 0.07


def power(cards: CardTables, trump: int, card: int) -> int:
    """Rank of a card within its effective suit (higher wins)."""
    return cards.trump_power[trump][card] or cards.plain_power[card]


win_key = trick_key  # the engine's trick-taking key (one rule, said once)


def is_master(cards: CardTables, trump: int, card: int, others: CardSet) -> bool:
    """True if no card in ``others`` of the same effective suit outranks ``card``."""
    suit = cards.suit_mask[trump][cards.eff_suit[trump][card]] & others
    p = power(cards, trump, card)
    return all(power(cards, trump, c) < p for c in iter_cards(suit))


def outcome(variant: Variant, decl_team: int, bid: int, team0_points: int, team: int) -> int:
    """``team``'s hand score change minus the other team's, given team 0's captured points
    (the engine's scoring; the other team is assumed to hold the rest of the hand's total,
    which overstates it by the trick bonus on a tied trick split)."""
    _, change = score_change(variant, (team0_points, variant.total_points - team0_points), decl_team, bid)
    return change[team] - change[1 - team]


# ------------------------------------------------------------------ hand value
def trump_tricks(cards: CardTables, hand: CardSet, trump: int) -> float:
    """Expected trump tricks of a hand: each trump weighed by the outstanding trumps above it."""
    order = cards.trump_order[trump]
    total, others_above = 0.0, 0
    for c in reversed(order):
        if hand >> c & 1:
            total += _TRUMP_WIN[min(others_above, len(_TRUMP_WIN) - 1)]
        else:
            others_above += 1
    length = sum(1 for c in order if hand >> c & 1)
    outstanding = len(order) - length
    # long trumps win once the opponents' trumps are drawn
    total += max(0.0, length - (outstanding + 1) / 2) * 0.5
    return total


def side_tricks(cards: CardTables, hand: CardSet, trump: int) -> float:
    """Expected tricks from top cards of the side suits plus ruffing value of short suits."""
    total = 0.0
    n_trump = (hand & cards.suit_mask[trump][trump]).bit_count()
    for s in range(NUM_COLOURS):
        if s == trump:
            continue
        suit = cards.suit_mask[trump][s]
        held = hand & suit
        length = held.bit_count()
        top = sorted(iter_cards(suit), key=lambda c: -cards.plain_power[c])
        for i, c in enumerate(top[:3]):
            if not held >> c & 1:
                break
            total += (0.9, 0.7, 0.4)[i] if length > i else 0
        if n_trump >= 4 and length <= 1:
            total += 0.5 * (2 - length) * min(1.0, (n_trump - 3) / 2)
    return total


def suit_score(cards: CardTables, hand: CardSet, colour: int) -> float:
    """How good ``colour`` is as trump for ``hand``: length first, then high cards."""
    order = cards.trump_order[colour]
    held = [c for c in order if hand >> c & 1 and cards.colour[c] == colour]
    n = len(order)
    return sum(3.0 + 3.0 * order.index(c) / n + cards.points[c] / 10 for c in held)


def best_trump(cards: CardTables, hand: CardSet) -> int:
    """The colour a declarer holding ``hand`` should name."""
    return max(range(NUM_COLOURS), key=lambda t: (suit_score(cards, hand, t), -t))


def raw_strength(cards: CardTables, hand: CardSet) -> float:
    """Trick-count strength of a hand in its best suit, scaled to the variant's points."""
    v = cards.variant
    t = best_trump(cards, hand)
    mine = trump_tricks(cards, hand, t) + side_tricks(cards, hand, t)
    partner = _PARTNER_SHARE * v.num_tricks / NUM_SEATS
    nest_gain = min(1.5, 0.22 * v.nest_size)
    return min(1.0, (mine + partner + nest_gain) / v.num_tricks) * v.total_points


def estimate_points(cards: CardTables, hand: CardSet) -> float:
    """Points this seat's team expects to capture declaring in its best suit.

    Calibrated on heuristic self-play with a forced declarer (600 deals per variant): the
    captured points regress on :func:`raw_strength` with an intercept that grows and a
    slope that shrinks with the nest (0.22/0.84 of the total without a nest, ~0.45/0.5
    with five cards: the declarer's pick of extra cards evens out weak hands).
    """
    v = cards.variant
    nest = min(v.nest_size, 5)
    base = _BASE_SHARE + _NEST_SHARE * nest
    return base * v.total_points + (_SLOPE - _NEST_SLOPE * nest) * raw_strength(cards, hand)


# ------------------------------------------------------------------- discard
def keep_value(cards: CardTables, hand: CardSet, trump: int, card: int, strong: bool) -> float:
    """How much the declarer wants to keep ``card`` (the lowest goes to the nest)."""
    if cards.trump_power[trump][card]:
        return 1000.0 + cards.trump_power[trump][card]
    suit = cards.suit_mask[trump][cards.eff_suit[trump][card]]
    length = (hand & suit).bit_count()
    value = float(cards.plain_power[card]) + 4.0 * length
    if is_master(cards, trump, card, suit & ~hand):
        value += 60.0
    # a counter in the nest goes to the last trick: cheap to bury when trumps are strong
    value += cards.points[card] * (0.3 if strong else 2.0)
    return value


def choose_discard(cards: CardTables, hand: CardSet, trump: int | None = None) -> int:
    """The card a declarer holding ``hand`` puts back next."""
    t = best_trump(cards, hand) if trump is None else trump
    n_trump = (hand & cards.suit_mask[t][t]).bit_count()
    top = cards.trump_order[t][-1]
    strong = n_trump >= 5 or bool(hand >> top & 1)
    return min(iter_cards(hand), key=lambda c: (keep_value(cards, hand, t, c, strong), c))
