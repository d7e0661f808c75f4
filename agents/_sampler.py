"""Deal the cards a seat cannot see, consistently with everything that seat knows.

Known to the seat: its hand, every played card, its own discards if it is the declarer,
each seat's hand size, and the voids revealed by failing to follow suit. The hidden cards
(``view.unseen()``) go to the other three hands and, when this seat did not see it, to the
nest/discard pile, which takes whatever is left over (no constraint applies to it).
"""

from __future__ import annotations

import random

from crowsnest_env.rules import NUM_COLOURS, NUM_SEATS, CardSet, PlayerView, card_list

NEST = NUM_SEATS  # slot index of the hidden nest


def slot_sizes(view: PlayerView) -> list[int]:
    """Hidden cards each slot takes: seats 0..3 (0 for the viewer) and the hidden nest."""
    sizes = [0 if s == view.seat else view.hand_size(s) for s in range(NUM_SEATS)]
    sizes.append(view.unseen().bit_count() - sum(sizes))
    if sizes[NEST] < 0:
        raise ValueError(f"seat {view.seat}: fewer unseen cards than the other hands hold")
    return sizes


def allowed_masks(view: PlayerView) -> list[CardSet]:
    """Cards each slot may hold: all, minus the effective suits a seat showed void in."""
    cards = view.cards
    masks = []
    for s in range(NUM_SEATS):
        m = cards.full_deck
        if view.trump >= 0:
            for suit in range(NUM_COLOURS):
                if view.voids[s] >> suit & 1:
                    m &= ~cards.suit_mask[view.trump][suit]
        masks.append(m)
    masks.append(cards.full_deck)
    return masks


def sample_world(view: PlayerView, rng: random.Random, tries: int = 20,
                 trump_bias: float = 1.0) -> tuple[list[CardSet], CardSet]:
    """Four hands (the viewer's own as it is) and the hidden nest, drawn at random.

    ``trump_bias`` > 1 makes a hidden trump that many times likelier per free place to lie
    with the declarer, who chose trump because they held many (an inference from the
    auction; 1 = uniform).
    """
    sizes = slot_sizes(view)
    allowed = allowed_masks(view)
    unseen = card_list(view.unseen())
    favoured = 0
    if view.trump >= 0 and view.declarer != view.seat and trump_bias != 1.0:
        favoured = view.cards.suit_mask[view.trump][view.trump]
    bias = (view.declarer, favoured, trump_bias)
    for _ in range(tries):
        slots = _greedy(unseen, sizes, allowed, rng, bias)
        if slots is not None:
            break
    else:
        slots = _matching(unseen, sizes, allowed, rng)
    slots[view.seat] = view.hand
    return slots[:NUM_SEATS], slots[NEST]


def _greedy(unseen: list[int], sizes: list[int], allowed: list[CardSet],
            rng: random.Random, bias: tuple[int, CardSet, float]) -> list[CardSet] | None:
    """Most constrained cards first, each to a slot drawn in proportion to its free room."""
    cards = unseen[:]
    rng.shuffle(cards)
    cards.sort(key=lambda c: sum(1 for k, m in enumerate(allowed) if sizes[k] and m >> c & 1))
    room = sizes[:]
    slots = [0] * len(sizes)
    for c in cards:
        options = [k for k in range(len(room)) if room[k] and allowed[k] >> c & 1]
        if not options:
            return None
        weights = [room[k] * (bias[2] if k == bias[0] and bias[1] >> c & 1 else 1.0) for k in options]
        pick = rng.choices(options, weights=weights)[0]
        room[pick] -= 1
        slots[pick] |= 1 << c
    return slots


def _matching(unseen: list[int], sizes: list[int], allowed: list[CardSet],
              rng: random.Random) -> list[CardSet]:
    """A consistent deal by augmenting paths (Kuhn); raises if none exists."""
    seats = [k for k, n in enumerate(sizes) for _ in range(n)]
    rng.shuffle(seats)
    owner: list[int] = [-1] * len(seats)  # slot instance -> card index

    def augment(i: int, seen: set[int]) -> bool:
        for j, k in enumerate(seats):
            if j in seen or not allowed[k] >> unseen[i] & 1:
                continue
            seen.add(j)
            if owner[j] < 0 or augment(owner[j], seen):
                owner[j] = i
                return True
        return False

    for i in range(len(unseen)):
        if not augment(i, set()):
            raise ValueError("no deal of the unseen cards is consistent with the revealed voids")
    slots = [0] * len(sizes)
    for j, i in enumerate(owner):
        slots[seats[j]] |= 1 << unseen[i]
    return slots
