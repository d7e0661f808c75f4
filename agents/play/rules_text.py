"""The rules of a variant as Markdown, generated from its :class:`Variant` parameters.

Every number on the rules screen is read from the Variant the engine plays, so the screen
cannot disagree with the game; only the text shared by all seven variants is fixed here.
"""

from __future__ import annotations

from crowsnest_env.rules import COLOURS, NUM_SEATS, Variant
from crowsnest_env.rules.variants import BirdRank, MadeScore


def _ranks_high_to_low(v: Variant) -> str:
    return " ".join(str(r) for r in reversed(v.plain_order))


def _trump_order(v: Variant) -> str:
    order = [str(r) for r in reversed(v.plain_order)]
    bird = [v.bird_name.title()] if v.bird else []
    top = ["Red 1"] if v.red_one else []
    if v.bird_rank is BirdRank.HIGHEST:
        return " ".join(top + bird + order)
    return " ".join(top + order + bird)


def _deck(v: Variant) -> str:
    extras = []
    if v.bird:
        extras.append(f"the {v.bird_name.title()} (bird)")
    if v.red_one:
        extras.append("the Red 1 (special card)")
    ranks = ", ".join(str(r) for r in sorted(v.ranks))
    more = f" plus {' and '.join(extras)}" if extras else ""
    return (f"**Deck**: {v.deck_size} cards: ranks {ranks} in {', '.join(COLOURS)}{more}. "
            f"Each seat gets {v.hand_size} cards"
            + (f", {v.nest_size} go face down to the nest." if v.has_nest else "; there is no nest."))


def _counters(v: Variant) -> str:
    parts = [f"each {r} = {p}" for r, p in v.counters]
    if v.bird:
        parts.append(f"{v.bird_name.title()} = {v.bird_points}")
    if v.red_one:
        parts.append(f"Red 1 = {v.red_one_points}")
    bonus = (f" The team that wins more than half of the {v.num_tricks} tricks scores "
             f"{v.trick_bonus} more (a tie scores nothing)." if v.trick_bonus else "")
    return f"**Counters**: {', '.join(parts)}.{bonus} Total per hand: **{v.total_points}**."


def _bird(v: Variant) -> str:
    lines = []
    if v.bird:
        where = ("the **lowest** trump" if v.bird_rank is BirdRank.LOWEST
                 else "the **highest** trump" + (" below the Red 1" if v.red_one else ""))
        when = ("it may be played **at any time**, whatever was led" if v.bird_any_time
                else "it **follows suit** like any other trump (no 'any time' privilege)")
        lines.append(f"**{v.bird_name.title()}**: {where}, whatever colour is trump; {when}. "
                     f"Leading it leads trump.")
    if v.red_one:
        lines.append(f"**Red 1**: the highest trump whatever colour is trump, worth {v.red_one_points}; "
                     "it is not a Red card and follows suit as a trump.")
    return "\n\n".join(lines)


def _auction(v: Variant) -> str:
    return (f"**Bidding**: starts left of the dealer. Bids run from **{v.min_bid}** to **{v.max_bid}** "
            f"in steps of {v.bid_step}; each bid beats the last. A pass is final for the hand. "
            f"A bid of {v.max_bid} ends the auction at once. If all {NUM_SEATS} pass, the same dealer deals again.")


def _nest(v: Variant) -> str:
    if not v.has_nest:
        return "**Trump**: the declarer names a trump colour straight after the auction."
    return (f"**Nest**: the declarer picks up the {v.nest_size} nest cards, puts back any {v.nest_size} "
            "(counters and trumps allowed), then names a trump colour. The nest stays hidden until the "
            "hand is scored; its counters go to the team that wins the last trick.")


def _scoring(v: Variant) -> str:
    made = ("the declaring team scores **its bid** (points captured above it do not count)"
            if v.made_score is MadeScore.BID else "the declaring team scores **the points it captured**")
    return (f"**Scoring**: if the declaring team captures at least its bid (made), {made}. "
            "If not (set), it loses the bid and scores nothing for its captures. "
            "The defenders always score what they captured. Scores may go below zero.")


COMMON = """**Seats**: four players in two partnerships; partners sit opposite. Play goes clockwise.

**Play**: the player left of the dealer leads the first trick; the winner of a trick leads
the next. You must follow the colour led if you can (trump counts as one colour, so the
special cards belong to it); otherwise play any card. A trick is won by the highest trump
in it, or if there is none by the highest card of the colour led."""


def rules_markdown(v: Variant) -> str:
    """The full rules screen for ``v``."""
    trumps = (f"**Ranks**, high to low in every colour: {_ranks_high_to_low(v)}. "
              f"**Trumps**, high to low: {_trump_order(v)}.")
    parts = [f"# {v.name} rules", COMMON, _deck(v), trumps, _counters(v), _bird(v), _auction(v), _nest(v),
             _scoring(v),
             f"**Game**: hands are played until a team reaches **{v.target}**; if both do, the higher "
             "total wins, and a tie is settled by another hand."]
    return "\n\n".join(p for p in parts if p)
