"""The app-style "computer player": rule-based bidding, nest discard, trump and card play.

Design (every number comes from the variant's fields and card tables, so one agent plays
all seven variants):

- Bidding: :func:`agents._eval.estimate_points` turns trump length and strength, side-suit
  top cards, ruffing value, an average partner and the nest into expected captured
  points. It raises by one step while the next bid is within that value; it credits a
  partner who bid (and debits one who passed) and outbids its own partner only with a
  clear surplus.
- Discard: keep trumps, masters and long suits; bury short-suit losers (voids for ruffing);
  counters go to the nest only when the trumps are strong enough to win the last trick.
- Trump: the longest, strongest colour of the 14 cards held after the nest.
- Play: tracks unseen cards (masters) and revealed voids; pulls trump with the master
  trump as declaring side, cashes safe masters, leads into partner's ruffs, wins counters
  cheaply and safely, feeds counters to a partner whose card nobody behind can beat,
  dumps low otherwise, and keeps a master trump for the last trick (the nest goes to it).
"""

from __future__ import annotations

import math
import random

from crowsnest_env.rules import (
    NUM_SEATS,
    CardSet,
    Phase,
    PlayerView,
    iter_cards,
    trick_winner_offset,
)

from ._eval import (
    best_trump,
    choose_discard,
    estimate_points,
    is_master,
    power,
    win_key,
)


class HeuristicAgent:
    """Rule-based player for every variant; deterministic given its seed."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, margin: float = 0.1, support: float = 8.0):
        self.rng = random.Random(seed)
        for key, value in (("margin", margin), ("support", support)):
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"heuristic option {key} must be a finite number, got {value!r}")
        self.margin = float(margin)  # safety share of the total kept below the estimate
        self.support = float(support)  # points credited for a partner who bid

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.rng.seed(seed)

    def act(self, view: PlayerView) -> int:
        """A legal action for ``view``'s seat, chosen by the rules in the module docstring."""
        if not view.legal:
            raise ValueError(f"seat {view.seat} has no legal action in phase {view.phase.name}")
        lay = view.layout
        if view.phase is Phase.AUCTION:
            action = self.bid(view)
        elif view.phase is Phase.DISCARD:
            action = lay.discard_offset + choose_discard(view.cards, view.hand)
        elif view.phase is Phase.TRUMP:
            action = lay.trump_offset + best_trump(view.cards, view.hand)
        else:
            action = lay.play_offset + choose_card(view)
        if not view.legal >> action & 1:  # a bug in the rules above: say so, never play another move
            raise RuntimeError(f"heuristic chose illegal action {action} ({lay.name(action)}) for seat "
                               f"{view.seat} in phase {view.phase.name}")
        return action

    def bid(self, view: PlayerView) -> int:
        """Pass, or raise one step while the next bid is within the hand's value."""
        return bid_action(view, self.margin, self.support)


# -------------------------------------------------------------------- auction
def bid_limit(view: PlayerView, margin: float = 0.1, support: float = 8.0, value: float | None = None) -> float:
    """The highest bid the heuristic's auction makes from ``view``: the hand's estimate less ``margin``
    of the hand's points (or ``value`` when one is given: a bidder that values the hand its own way,
    :mod:`agents.search_bid`), moved by the partner's calls, by being last to speak, and by whether the
    contract would be taken from the partner."""
    v = view.variant
    safety = margin * v.total_points if value is None else 0.0  # a given value keeps no margin
    if value is None:
        value = estimate_points(view.cards, view.hand) - safety
    partner_calls = [a for s, a in view.auction if s == view.partner]
    if any(a != 0 for a in partner_calls):
        value += support
    elif partner_calls:
        value -= support / 2
    if view.high_bid == 0 and view.passed.bit_count() == NUM_SEATS - 1:
        value += safety  # last to speak: open on the estimate, not redeal
    if view.high_bidder == view.partner:
        value -= 3 * v.bid_step  # only take the contract from partner with a clear surplus
    return value


def bid_action(view: PlayerView, margin: float = 0.1, support: float = 8.0, value: float | None = None) -> int:
    """The heuristic's auction action for ``view`` (a bid id or pass = 0): the next bid while it is
    within :func:`bid_limit`."""
    v = view.variant
    nxt = v.min_bid if view.high_bid == 0 else view.high_bid + v.bid_step
    if nxt <= min(bid_limit(view, margin, support, value), v.max_bid):
        return view.layout.bid_action(nxt)
    return 0


# ----------------------------------------------------------------------- play
def _later_seats(view: PlayerView) -> list[int]:
    return [(view.leader + i) % NUM_SEATS for i in range(len(view.trick) + 1, NUM_SEATS)]


def could_beat(view: PlayerView, seat: int, key: int, led: int, others: CardSet) -> bool:
    """Might ``seat`` (per the cards still unseen and its voids) beat a card of ``key``?"""
    cards, t = view.cards, view.trump
    voids = view.voids[seat]
    pools = []
    if not voids >> led & 1:
        pools.append(cards.suit_mask[t][led])
    elif not voids >> t & 1:
        pools.append(cards.suit_mask[t][t])
    for pool in pools:
        if any(win_key(cards, t, c, led) > key for c in iter_cards(pool & others)):
            return True
    return False


def nest_estimate(view: PlayerView, others: CardSet) -> float:
    """Points expected in the nest (exact for the declarer)."""
    v = view.variant
    if view.discards or not v.nest_size:
        return float(view.cards.count_points(view.discards))
    n = others.bit_count()
    return view.cards.count_points(others) * v.nest_size / n if n else 0.0


def choose_card(view: PlayerView) -> int:
    """The card the heuristic plays from ``view`` (trick phase)."""
    legal = view.legal >> view.layout.play_offset
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    others = view.unseen()
    if view.trick:
        return _follow(view, legal, others)
    return _lead(view, legal, others)


def _dump(view: PlayerView, legal: CardSet, others: CardSet) -> int:
    cards, t = view.cards, view.trump
    return min(iter_cards(legal), key=lambda c: (
        cards.points[c], cards.trump_power[t][c] > 0, is_master(cards, t, c, others),
        power(cards, t, c), c))


def _follow(view: PlayerView, legal: CardSet, others: CardSet) -> int:
    cards, t, trick = view.cards, view.trump, view.trick
    led = cards.eff_suit[t][trick[0]]
    off = trick_winner_offset(cards, t, trick)
    win_seat = (view.leader + off) % NUM_SEATS
    wk = win_key(cards, t, trick[off], led)
    later_opp = [s for s in _later_seats(view) if s % 2 != view.team]
    pts: float = sum(cards.points[c] for c in trick)
    if view.trick_no == view.variant.num_tricks - 1:
        pts += nest_estimate(view, others)

    def safe(key: int) -> bool:
        return not any(could_beat(view, s, key, led, others) for s in later_opp)

    if win_seat == view.partner and safe(wk):
        return _give(view, legal, others)
    beaters = [c for c in iter_cards(legal) if win_key(cards, t, c, led) > wk]
    if win_seat != view.partner and beaters:
        safe_b = [c for c in beaters if safe(win_key(cards, t, c, led))]
        if safe_b:
            return min(safe_b, key=lambda c: (
                2 * cards.trump_power[t][c] + cards.plain_power[c] / 2 - cards.points[c], c))
        cheap = [c for c in beaters if cards.points[c] == 0]
        if pts >= 10 and cheap and not later_opp[1:]:
            return min(cheap, key=lambda c: (power(cards, t, c), c))
    return _dump(view, legal, others)


def _give(view: PlayerView, legal: CardSet, others: CardSet) -> int:
    """Partner wins the trick for sure: smear the biggest counter we can spare."""
    cards, t = view.cards, view.trump
    spare = [c for c in iter_cards(legal) if not is_master(cards, t, c, others)]
    pool = spare or list(iter_cards(legal))
    return min(pool, key=lambda c: (-cards.points[c], cards.trump_power[t][c] > 0, power(cards, t, c), c))


def _lead(view: PlayerView, legal: CardSet, others: CardSet) -> int:
    cards, t = view.cards, view.trump
    trumps = cards.suit_mask[t][t]
    opps = ((view.seat + 1) % NUM_SEATS, (view.seat + 3) % NUM_SEATS)
    opp_trumps = bool(others & trumps) and not all(view.voids[o] >> t & 1 for o in opps)
    masters = [c for c in iter_cards(legal) if is_master(cards, t, c, others)]
    if legal.bit_count() == 2:  # keep a master trump for the last trick and the nest
        keep = [c for c in masters if c in _top_trump(view, legal)]
        if keep:
            return next(c for c in iter_cards(legal) if c != keep[0])
    declaring = view.declarer % 2 == view.team
    my_trumps = legal & trumps
    if declaring and my_trumps and opp_trumps:
        top = max(iter_cards(my_trumps), key=lambda c: cards.trump_power[t][c])
        if top in masters:
            return top
    safe_masters = [
        c for c in masters if not cards.trump_power[t][c]
        and not (opp_trumps and any(view.voids[o] >> cards.eff_suit[t][c] & 1 for o in opps))
    ]
    if safe_masters:
        return max(safe_masters, key=lambda c: (cards.points[c], power(cards, t, c), -c))
    return _low_lead(view, legal, others, opps)


def _top_trump(view: PlayerView, legal: CardSet) -> list[int]:
    t = view.trump
    return [c for c in iter_cards(legal) if view.cards.trump_power[t][c]]


def _low_lead(view: PlayerView, legal: CardSet, others: CardSet, opps: tuple[int, int]) -> int:
    cards, t = view.cards, view.trump
    p = view.partner
    plain = [c for c in iter_cards(legal) if not cards.trump_power[t][c]]
    ruff = [c for c in plain if view.voids[p] >> cards.eff_suit[t][c] & 1 and not view.voids[p] >> t & 1]
    if ruff:
        return min(ruff, key=lambda c: (cards.points[c], power(cards, t, c), c))
    pool = plain or list(iter_cards(legal))

    def length(c: int) -> int:
        return (legal & cards.suit_mask[t][cards.eff_suit[t][c]]).bit_count()

    return min(pool, key=lambda c: (cards.points[c], -length(c), power(cards, t, c), c))
