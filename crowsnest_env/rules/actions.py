"""The flat action space of a variant: every id has exactly one name in every phase.

Layout (``N`` = deck size, ``B`` = number of bid levels ``min_bid..max_bid`` by ``bid_step``):

| ids                        | action             | name             |
|----------------------------|--------------------|------------------|
| ``0``                      | pass (auction)     | ``pass``         |
| ``1 .. B``                 | bid ``min_bid + 5k`` | ``bid 85``     |
| ``1+B .. B+N``             | discard card k to the nest | ``discard G7`` |
| ``1+B+N .. 4+B+N``         | name trump colour  | ``trump Red``    |
| ``5+B+N .. 4+B+2N``        | play card k        | ``play CROW``    |

crowsnest: B=11, N=41, A=98.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from .cards import CardTables, tables_for
from .quote import quote
from .variants import COLOUR_LETTERS, COLOURS, NUM_COLOURS, Variant

PASS = 0


@dataclass(frozen=True, eq=False)
class ActionLayout:
    """Offsets of the action ranges of one variant."""

    cards: CardTables
    num_bids: int
    bid_offset: int
    discard_offset: int
    trump_offset: int
    play_offset: int
    num_actions: int

    def bid_action(self, bid: int) -> int:
        v = self.cards.variant
        return self.bid_offset + (bid - v.min_bid) // v.bid_step

    def bid_value(self, action: int) -> int:
        v = self.cards.variant
        return v.min_bid + (action - self.bid_offset) * v.bid_step

    def name(self, action: int) -> str:
        """The action's public name, e.g. ``bid 85`` or ``play CROW``."""
        a = int(action)
        if not 0 <= a < self.num_actions:
            raise ValueError(f"action id {quote(action)} out of range 0..{self.num_actions - 1}")
        if a == PASS:
            return "pass"
        if a < self.discard_offset:
            return f"bid {self.bid_value(a)}"
        if a < self.trump_offset:
            return f"discard {self.cards.names[a - self.discard_offset]}"
        if a < self.play_offset:
            return f"trump {COLOURS[a - self.trump_offset]}"
        return f"play {self.cards.names[a - self.play_offset]}"

    def action_id(self, name: str) -> int:
        """Parse an action name (case-insensitive); raises ValueError naming bad input."""
        if not isinstance(name, str):
            raise ValueError(f"action name must be a string, got {name!r}")
        words = name.strip().lower().split()
        if words == ["pass"]:
            return PASS
        if len(words) != 2:
            raise ValueError(f"ill-formed action name {name!r} (e.g. 'pass', 'bid 85', 'play G7')")
        verb, arg = words
        if verb == "bid":
            return self._parse_bid(name, arg)
        if verb == "trump":
            return self.trump_offset + _parse_colour(name, arg)
        if verb in ("discard", "play"):
            try:
                card = self.cards.card_id(arg)
            except ValueError:
                raise ValueError(f"unknown card in action {name!r}") from None
            return (self.discard_offset if verb == "discard" else self.play_offset) + card
        raise ValueError(f"unknown action {name!r}: verb must be pass, bid, discard, trump or play")

    def _parse_bid(self, name: str, arg: str) -> int:
        v = self.cards.variant
        try:
            bid = int(arg)
        except ValueError:
            raise ValueError(f"ill-formed bid in action {name!r}") from None
        if bid not in v.bids:
            raise ValueError(
                f"bid {bid} in {name!r} is not a {v.name} bid ({v.min_bid}..{v.max_bid} by {v.bid_step})"
            )
        return self.bid_action(bid)


def _parse_colour(name: str, arg: str) -> int:
    for c in range(NUM_COLOURS):
        if arg in (COLOURS[c].lower(), COLOUR_LETTERS[c].lower()):
            return c
    raise ValueError(f"unknown trump colour in action {name!r}; use one of {', '.join(COLOURS)}")


@cache
def layout_for(variant: Variant) -> ActionLayout:
    cards = tables_for(variant)
    nb = len(variant.bids)
    n = cards.deck_size
    return ActionLayout(
        cards=cards, num_bids=nb, bid_offset=1, discard_offset=1 + nb,
        trump_offset=1 + nb + n, play_offset=1 + nb + n + NUM_COLOURS,
        num_actions=1 + nb + 2 * n + NUM_COLOURS,
    )
