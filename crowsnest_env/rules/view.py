"""What one seat may know: its own hand, its own discards, and everything public.

Encoders and agents take a :class:`PlayerView`, never the full :class:`State`, so hidden
cards (other hands, the nest, another declarer's discards) cannot leak by accident.
"""

from __future__ import annotations

from dataclasses import dataclass

from .actions import ActionLayout
from .cards import CardSet, CardTables, card_list
from .state import HandResult, Phase, State
from .variants import NUM_SEATS, Variant


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's information set. Seat data is a tuple indexed by absolute seat."""

    seat: int
    variant: Variant
    cards: CardTables
    layout: ActionLayout
    phase: Phase
    to_move: int
    dealer: int
    scores: tuple[int, int]
    hand: CardSet
    auction: tuple[tuple[int, int], ...]  # (seat, action id) in order, this deal
    passed: int  # bit s: seat s has passed
    high_bid: int  # 0 before the first bid
    high_bidder: int
    declarer: int
    bid: int
    trump: int
    discards: CardSet  # this seat's own put-back; 0 for everyone else
    nest_seen: CardSet  # the nest as picked up, known to the declarer only
    leader: int
    trick: tuple[int, ...]  # cards of the current trick, from the leader
    trick_no: int
    played: tuple[CardSet, ...]  # cards each seat has played this hand
    tricks: tuple[tuple[int, int, tuple[int, ...]], ...]  # (leader, winner, cards)
    captured: tuple[int, int]  # counters taken in tricks so far (nest not yet added)
    tricks_won: tuple[int, int]
    voids: tuple[int, ...]  # bit s: seat has shown it holds no card of effective suit s
    hand_no: int
    results: tuple[HandResult, ...]
    legal: int  # legal action ids as a bitmask (0 unless this seat is to move)

    @property
    def team(self) -> int:
        return self.seat % 2

    @property
    def partner(self) -> int:
        return (self.seat + 2) % NUM_SEATS

    def legal_actions(self) -> list[int]:
        return card_list(self.legal)

    def hand_size(self, seat: int) -> int:
        """How many cards ``seat`` holds now (public knowledge)."""
        v = self.variant
        n = v.hand_size - self.played[seat].bit_count()
        if seat == self.declarer and self.phase is Phase.DISCARD:
            n += v.nest_size - self.discards.bit_count()
        return n

    def unseen(self) -> CardSet:
        """Cards whose place this seat does not know: other hands and a hidden nest."""
        known = self.hand | self.discards
        for p in self.played:
            known |= p
        return self.cards.full_deck & ~known


def player_view(state: State, seat: int) -> PlayerView:
    """Build ``seat``'s view of ``state``."""
    is_declarer = seat == state.declarer
    return PlayerView(
        seat=seat, variant=state.variant, cards=state.cards, layout=state.layout,
        phase=state.phase, to_move=state.to_move, dealer=state.dealer,
        scores=(state.scores[0], state.scores[1]), hand=state.hands[seat],
        auction=tuple(state.auction), passed=state.passed, high_bid=state.high_bid,
        high_bidder=state.high_bidder, declarer=state.declarer, bid=state.bid, trump=state.trump,
        discards=state.discards if is_declarer else 0,
        nest_seen=state.nest if is_declarer else 0,
        leader=state.leader, trick=tuple(state.trick), trick_no=state.trick_no,
        played=tuple(state.played), tricks=tuple(state.tricks),
        captured=(state.captured[0], state.captured[1]),
        tricks_won=(state.tricks_won[0], state.tricks_won[1]), voids=tuple(state.voids),
        hand_no=state.hand_no, results=tuple(state.results),
        legal=state.legal_mask() if seat == state.to_move else 0,
    )
