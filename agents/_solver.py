"""Double-dummy solver: minimax of team 0's points over the remaining tricks, all hands known.

The search is compiled (``agents/_dds.c``, the one implementation; built by the package's
install): alpha-beta over single card plays with equivalent cards merged, a transposition
table at trick starts keyed on rank-relative hands, point bounds, move ordering, and an
optional trick horizon where a static estimate replaces the search. That file's header says
how each part works.

A value is team 0's points from the position to the end of the hand: the counters of the
tricks still to play, the nest to the last trick's winner and the trick bonus (the team with
more than half of all the hand's tricks; ``tricks0`` counts team 0's tricks so far). Any
monotone score (made/set against the bid) is a function of this value, so minimax of points
followed by the score mapping equals minimax of the score itself.

The C code keeps specialised copies of three engine rules on its own card numbering: who wins
a trick (the engine's ``trick_winner_offset``), which cards may follow (``legal_cards``) and
the end-of-hand scoring of the nest and the trick bonus (``hand_points``).
``tests/agents/test_rule_copies.py`` holds all three equal to the engine's in every variant.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import TypeVar

from crowsnest_env.rules import CardSet, CardTables

from ._dds import Solver

__all__ = ["DoubleDummy", "solver_for"]


@cache
def solver_for(cards: CardTables, trump: int) -> Solver:
    """The compiled solver of one deck and trump colour (built once per process)."""
    tp = cards.trump_power[trump]
    power = [tp[c] or cards.plain_power[c] for c in range(cards.deck_size)]
    v = cards.variant
    return Solver(cards.eff_suit[trump], power, cards.points, cards.anytime, trump, v.num_tricks, v.trick_bonus)


T = TypeVar("T")


def _finished(result: T | None) -> T:
    """A search without a node limit always finishes; None would mean it was stopped."""
    if result is None:
        raise RuntimeError("the solver stopped a search that had no node limit")
    return result


class DoubleDummy:
    """Solver for one deck, trump and nest value; :meth:`values` scores the moves of a position.

    A position is the four hands (card sets), the seat that led the current trick, the cards
    on the table from that leader, the trick number (0-based) and team 0's tricks so far.
    """

    def __init__(self, cards: CardTables, trump: int, nest_points: int, horizon: int = 99,
                 partition: bool = True):
        self.cards = cards
        self.trump = trump
        self.nest_points = nest_points
        self.horizon = horizon  # whole tricks searched after the current one, then estimate
        # False: the table keys on exact (rank-relative) positions; slower, the same values (tests compare)
        self.partition = partition
        self._solver = solver_for(cards, trump)
        self.nodes = 0

    def values(self, hands: Sequence[CardSet], leader: int, trick: Sequence[int], trick_no: int,
               tricks0: int) -> dict[int, int]:
        """Team 0's points from here after each legal card of the seat to move."""
        out = self._solver.values(hands, leader, trick, trick_no, tricks0, self.nest_points, self.horizon, -1,
                                  not self.partition)
        self.nodes = self._solver.nodes
        return _finished(out)

    def values_within(self, hands: Sequence[CardSet], leader: int, trick: Sequence[int], trick_no: int,
                      tricks0: int, node_limit: int) -> dict[int, int] | None:
        """:meth:`values` if the search finishes within ``node_limit`` nodes, else None."""
        out = self._solver.values(hands, leader, trick, trick_no, tricks0, self.nest_points, self.horizon,
                                  node_limit, not self.partition)
        self.nodes = self._solver.nodes
        return out

    def solve(self, hands: Sequence[CardSet], leader: int, trick: Sequence[int], trick_no: int,
              tricks0: int) -> int:
        """Team 0's points from here to the end of the hand under best play by all seats."""
        out = self._solver.solve(hands, leader, trick, trick_no, tricks0, self.nest_points, self.horizon, -1,
                                 not self.partition)
        self.nodes = self._solver.nodes
        return _finished(out)

    def deepening(self, hands: Sequence[CardSet], leader: int, trick: Sequence[int], trick_no: int,
                  tricks0: int, node_budget: int) -> dict[int, int]:
        """:meth:`values` at the deepest horizon that completes within ``node_budget`` nodes
        (the current trick, horizon 0, always completes; the last horizon is exact)."""
        out = self._solver.deepening(hands, leader, trick, trick_no, tricks0, self.nest_points, node_budget)
        self.nodes = self._solver.nodes
        return out

    def estimate(self, hands: Sequence[CardSet]) -> int:
        """The static guess at the horizon for a trick start with these hands."""
        return self._solver.estimate(hands, self.nest_points)

    # the specialised rule copies, exposed so that tests can hold them equal to the engine's
    def trick_winner(self, trick: Sequence[int]) -> int:
        """Offset from the leader of the winning card (the engine's ``trick_winner_offset``)."""
        return self._solver.trick_winner(trick)

    def legal(self, hand: CardSet, trick: Sequence[int]) -> CardSet:
        """Cards of ``hand`` that may follow ``trick`` (the engine's ``legal_cards``)."""
        return self._solver.legal(hand, trick)
