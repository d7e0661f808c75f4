"""``double_dummy``: a cheating reference that sees all four hands (the ceiling of card play).

It plays each card by the double-dummy value of the real deal (:mod:`agents._solver`: exact
when at most ``exact`` tricks are left or when the solve finishes within ``nodes`` search nodes,
else the deepest trick horizon that fits in them; in the 9- and 10-trick rule sets that is exact
from the first trick), scored as PIMC scores a world (the bid made or set
counts), with the heuristic's auction, nest discard and trump. Both partners of a team see
everything, so the team's card play is as good as card play gets: an agent's margin over the
heuristic, set beside this one's, says what share of the card-play ceiling it reaches.

``sees=defence`` (or ``sees=declarer``) splits that ceiling: the agent sees every hand only in the
hands its team defends (declares) and plays the other side's cards as ``pimc`` does, from its own
view. With ``bid_margin=0`` (the heuristic's is 0.1) it bids as ``pimc`` does, so that against
``pimc`` each side's share of the card-play ceiling is measured with both teams bidding alike.

It is never a baseline and cannot sit at a table that shows a seat only its own view: only a
driver that hands it the whole state (the arena, via :meth:`act_seeing_all`) can seat it, and
its :meth:`act` refuses a view.
"""

from __future__ import annotations

import math

from crowsnest_env.rules import Phase, PlayerView, State, player_view

from .heuristic import HeuristicAgent, choose_card
from .pimc import PIMCAgent, count_option, pick_card, solve_world

SIDES = ("both", "defence", "declarer")
"""the hands in which ``double_dummy`` sees every card (``sees``): all, those its team defends, or declares"""


class DoubleDummyAgent:
    """Perfect-information card play on the real deal; the heuristic's auction, discard and trump."""

    name = "double_dummy"
    sees_all_hands = True  # drivers pass the state to act_seeing_all; labelled a cheating reference

    def __init__(self, seed: int | None = None, nodes: int = 2_000_000, exact: int = 7, sees: str = "both",
                 bid_margin: float = 0.1):
        if isinstance(bid_margin, bool) or not isinstance(bid_margin, (int, float)) or not math.isfinite(bid_margin):
            raise ValueError(f"double_dummy option bid_margin must be a finite number, got {bid_margin!r}")
        self.heuristic = HeuristicAgent(seed=seed, margin=bid_margin)
        self.nodes = count_option("nodes", nodes, 1)
        self.exact = count_option("exact", exact, 0)
        if sees not in SIDES:
            raise ValueError(f"double_dummy option sees must be one of {list(SIDES)}, got {sees!r}")
        self.sees = sees
        # the other side's card play, from the seat's own view (pimc's search at its defaults)
        self.pimc = PIMCAgent(seed=seed) if sees != "both" else None

    def reset(self, seed: int | None = None) -> None:
        self.heuristic.reset(seed)
        if self.pimc is not None:
            self.pimc.reset(seed)

    def act(self, view: PlayerView) -> int:
        raise ValueError("double_dummy sees all four hands (a cheating reference): only a driver that passes "
                         "the whole state can seat it (the arena); it cannot play from one seat's view")

    def act_seeing_all(self, state: State) -> int:
        """A legal action of the seat to move, seeing every hand and the nest."""
        view = player_view(state, state.to_move)
        if view.phase is not Phase.PLAY:
            return self.heuristic.act(view)
        off = view.layout.play_offset
        legal = view.legal >> off
        if legal & (legal - 1) == 0:
            return off + legal.bit_length() - 1
        if self.pimc is not None and (view.declarer % 2 == view.team) != (self.sees == "declarer"):
            return self.pimc.act(view)
        nest_points = state.cards.count_points(state.discards)
        scores = solve_world(view, list(state.hands), nest_points, self.nodes, self.exact, try_exact=True)
        return off + pick_card(view, {c: float(v) for c, v in scores.items()}, lambda: choose_card(view))
