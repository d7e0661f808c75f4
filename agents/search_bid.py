"""Bidding by search: what the hand is worth as the declarer, over sampled deals solved double-dummy.

The heuristic bids up to :func:`agents._eval.estimate_points`, a line fitted on its own card
play. :class:`SearchBidder` instead values the hand the way ``pimc`` plays it: it deals the
cards it cannot see (:mod:`agents._sampler`), and in each deal the viewer declares: it takes
the nest, puts back the heuristic's discards, names the heuristic's trump, and the hand is
solved double-dummy from the opening lead (:mod:`agents._solver`, within ``nodes`` search
nodes; a static estimate past the deepest horizon that fits). The points its team takes in
each deal give, for each bid on the ladder, the mean net score of declaring at that bid (the
team's score change less the other team's, :func:`agents._eval.outcome`); the hand's value is
the highest bid whose mean reaches ``threshold`` points. The auction's other rules (the
partner's support, taking a contract from partner, the last seat opening instead of a redeal)
are the heuristic's (:func:`agents.heuristic.bid_action`).

The deals are drawn once per hand (the auction's later calls reuse them) from the agent's own
seeded generator, so a seeded bidder is deterministic. ``bias`` (points) is added to every deal's
value: real defenders cannot see the cards, so a declarer takes more than double-dummy play gives.

Measured, a negative result (``docs/results/attempts/search_auction/``): ``pimc?auction=search``
against ``pimc`` (crowsnest, 300 deals, seed 603) scores -26.7 at threshold 0, -25.6 at -10, -22.8
at -20, -18.9 at -40 (-17.7 at seed 604) and -23.9 with ``bias`` 21 (the mean gap between
double-dummy and what ``pimc``'s declarers took): the searched value picks which hands to declare
no better than the heuristic's estimate. Over 150 hands of ``pimc`` self-play the points a declarer
took correlate 0.24 with the searched value (at 20,000 and at 200,000 nodes) and 0.23 with the
estimate; the true deal solved double-dummy, which sees every hand, gets 0.57: what one hand cannot
say about the others bounds any evaluator of it. Kept as an option for the record and for
experiments; the default auction is the heuristic's.
"""

from __future__ import annotations

import random

from crowsnest_env.rules import CardSet, PlayerView, opening_leader

from ._eval import best_trump, choose_discard, outcome
from ._sampler import sample_world
from ._solver import DoubleDummy
from .heuristic import bid_action


def declared_points(view: PlayerView, hands: list[CardSet], nest: CardSet, nodes: int) -> int:
    """The viewer's team's points in one deal (all hands and the nest known) when the viewer
    declares: nest taken, the heuristic's discards and trump, double-dummy play from the opening lead."""
    cards, v, seat = view.cards, view.variant, view.seat
    hands = list(hands)
    hands[seat] |= nest
    discards = 0
    for _ in range(v.nest_size):
        c = choose_discard(cards, hands[seat])
        hands[seat] ^= 1 << c
        discards |= 1 << c
    trump = best_trump(cards, hands[seat])
    dd = DoubleDummy(cards, trump, cards.count_points(discards))
    leader = opening_leader(view.dealer)
    values = dd.deepening(hands, leader, [], 0, 0, nodes)
    team0 = max(values.values()) if leader % 2 == 0 else min(values.values())
    return team0 if seat % 2 == 0 else v.total_points - team0


def hand_value(view: PlayerView, points: list[float], threshold: float) -> float:
    """The highest bid whose mean net score over ``points`` (the team's points as declarer, one
    per deal) is at least ``threshold``; one step under the lowest bid when none is."""
    v = view.variant
    team = view.seat % 2
    best = float(v.min_bid - v.bid_step)
    for bid in range(v.min_bid, v.max_bid + 1, v.bid_step):
        net = sum(outcome(v, team, bid, round(p) if team == 0 else v.total_points - round(p), team) for p in points)
        if net >= threshold * len(points):
            best = float(bid)
    return best


class SearchBidder:
    """The auction only: bids up to the hand's searched value (module docstring)."""

    name = "search_bid"

    def __init__(self, seed: int | None = None, worlds: int = 32, nodes: int = 20000, threshold: float = 0.0,
                 bias: float = 0.0, support: float = 8.0):
        self.rng = random.Random(seed)
        self.worlds, self.nodes = worlds, nodes
        self.threshold, self.bias, self.support = threshold, bias, support
        self._key: tuple[int, int, int, str] | None = None
        self._value = 0.0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)
        self._key = None

    def value(self, view: PlayerView) -> float:
        """The hand's searched value (cached for the rest of the hand's auction)."""
        key = (view.seat, view.dealer, view.hand, view.variant.name)
        if key != self._key:
            points = []
            for _ in range(self.worlds):
                hands, nest = sample_world(view, self.rng)
                points.append(declared_points(view, hands, nest, self.nodes) + self.bias)
            self._key, self._value = key, hand_value(view, points, self.threshold)
        return self._value

    def act(self, view: PlayerView) -> int:
        return bid_action(view, support=self.support, value=self.value(view))
