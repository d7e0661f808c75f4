"""Card ids, names and per-variant lookup tables.

Card layout (per variant, ``n = len(variant.ranks)``):

| card id              | card                                   | name        |
|----------------------|----------------------------------------|-------------|
| ``c * n + i``        | colour ``c`` (Black, Green, Red, Yellow), ``i``-th rank ascending | ``B5``, ``Y14`` |
| ``4 * n``            | the bird (if the variant has one)      | ``CROW`` / ``ROOK`` |
| last                 | the Red 1 (red_one only)               | ``R1``      |

A set of cards is an ``int`` bitmask (``CardSet``): bit ``k`` set means card ``k`` is in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import TypeAlias

from .variants import COLOUR_LETTERS, NUM_COLOURS, BirdRank, Variant, get_variant

CardSet: TypeAlias = int
BIRD_NAMES = ("CROW", "ROOK")


def iter_cards(cards: CardSet) -> Iterator[int]:
    """Card ids in the set, lowest first (python-chess's scan_forward)."""
    while cards:
        low = cards & -cards
        yield low.bit_length() - 1
        cards ^= low


def card_list(cards: CardSet) -> list[int]:
    return list(iter_cards(cards))


@dataclass(frozen=True, eq=False)
class CardTables:
    """Everything about a variant's deck that the hot path looks up, computed once."""

    variant: Variant
    deck_size: int
    full_deck: CardSet
    names: tuple[str, ...]
    colour: tuple[int, ...]  # printed colour, -1 for the bird and the Red 1
    rank: tuple[int, ...]  # printed rank, 0 for the bird
    points: tuple[int, ...]
    bird: int  # card id, -1 if none
    red_one: int  # card id, -1 if none
    anytime: CardSet  # cards playable whatever was led (the bird, where bird_any_time)
    # Indexed [trump colour][...]:
    eff_suit: tuple[tuple[int, ...], ...]  # card -> effective suit (trump colour for bird/R1)
    suit_mask: tuple[tuple[CardSet, ...], ...]  # effective suit -> cards
    trump_power: tuple[tuple[int, ...], ...]  # card -> 0 if not trump, else 1.. (higher wins)
    plain_power: tuple[int, ...]  # card -> 1.. within its colour (higher wins)
    trump_order: tuple[tuple[int, ...], ...]  # trump cards from lowest to highest

    def name(self, card: int) -> str:
        return self.names[card]

    def card_id(self, name: str) -> int:
        """Parse a card name (case-insensitive; CROW and ROOK both name the bird)."""
        key = name.strip().upper() if isinstance(name, str) else None
        if key in BIRD_NAMES and self.bird >= 0:
            return self.bird
        card = self._by_name().get(key)
        if card is None:
            raise ValueError(f"unknown card {name!r} in variant {self.variant.name!r}")
        return card

    def _by_name(self) -> dict[str, int]:
        return _name_index(self)

    def cards_from_names(self, names: list[str]) -> CardSet:
        cards = 0
        for n in names:
            bit = 1 << self.card_id(n)
            if cards & bit:
                raise ValueError(f"card {n!r} listed twice")
            cards |= bit
        return cards

    def names_of(self, cards: CardSet) -> list[str]:
        """Names of the cards in the set, lowest id first (a byte of the mask at a time, from
        tables of the names each byte value stands for: records name every deal)."""
        out: list[str] = []
        for table in _byte_names(self):
            low = cards & 255
            if low:
                out += table[low]
            cards >>= 8
            if not cards:
                break
        return out

    def count_points(self, cards: CardSet) -> int:
        pts = self.points
        return sum(pts[c] for c in iter_cards(cards))


@cache
def _byte_names(tables: CardTables) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Per byte k of a card mask, the names of the cards each of its 256 values holds."""
    names, out = tables.names, []
    for k in range(0, tables.deck_size, 8):
        out.append(tuple(tuple(names[k + i] for i in range(8) if value >> i & 1 and k + i < len(names))
                         for value in range(256)))
    return tuple(out)


@cache
def _name_index(tables: CardTables) -> dict[str, int]:
    return {n: i for i, n in enumerate(tables.names)}


def _trump_order(v: Variant, trump: int, bird: int, red_one: int) -> tuple[int, ...]:
    n = len(v.ranks)
    colour_cards = [trump * n + v.ranks.index(r) for r in v.plain_order]
    order = list(colour_cards)
    if bird >= 0:
        order.insert(0 if v.bird_rank is BirdRank.LOWEST else len(order), bird)
    if red_one >= 0:
        order.append(red_one)
    return tuple(order)


@cache
def tables_for(variant: Variant) -> CardTables:
    """Build (once per variant) the lookup tables used by the engine."""
    v = variant
    n = len(v.ranks)
    names = [COLOUR_LETTERS[c] + str(r) for c in range(NUM_COLOURS) for r in v.ranks]
    colour = [c for c in range(NUM_COLOURS) for _ in v.ranks]
    rank = [r for _ in range(NUM_COLOURS) for r in v.ranks]
    points = [v.rank_points(r) for _ in range(NUM_COLOURS) for r in v.ranks]
    bird = red_one = -1
    if v.bird:
        bird = len(names)
        names.append(v.bird_name)
        colour.append(-1)
        rank.append(0)
        points.append(v.bird_points)
    if v.red_one:
        red_one = len(names)
        names.append("R1")
        colour.append(-1)
        rank.append(1)
        points.append(v.red_one_points)
    deck = len(names)
    plain_power = [0] * deck
    for c in range(NUM_COLOURS):
        for strength, r in enumerate(v.plain_order, start=1):
            plain_power[c * n + v.ranks.index(r)] = strength
    eff_suit: list[tuple[int, ...]] = []
    suit_mask: list[tuple[int, ...]] = []
    trump_power: list[tuple[int, ...]] = []
    trump_order: list[tuple[int, ...]] = []
    for t in range(NUM_COLOURS):
        eff = [t if colour[k] < 0 else colour[k] for k in range(deck)]
        masks = [sum(1 << k for k in range(deck) if eff[k] == s) for s in range(NUM_COLOURS)]
        order = _trump_order(v, t, bird, red_one)
        power = [0] * deck
        for p, k in enumerate(order, start=1):
            power[k] = p
        eff_suit.append(tuple(eff))
        suit_mask.append(tuple(masks))
        trump_power.append(tuple(power))
        trump_order.append(order)
    return CardTables(
        variant=v, deck_size=deck, full_deck=(1 << deck) - 1, names=tuple(names),
        colour=tuple(colour), rank=tuple(rank), points=tuple(points), bird=bird,
        red_one=red_one, anytime=(1 << bird) if bird >= 0 and v.bird_any_time else 0,
        eff_suit=tuple(eff_suit), suit_mask=tuple(suit_mask), trump_power=tuple(trump_power),
        plain_power=tuple(plain_power), trump_order=tuple(trump_order),
    )


def tables(name: str = "crowsnest", crow: bool = True) -> CardTables:
    """Tables for a variant by name."""
    return tables_for(get_variant(name, crow))
