"""Text rendering of a game state (all hands face up: a table view for humans and logs)."""

from __future__ import annotations

from .rules import COLOURS, NUM_SEATS, HandResult, Phase, State, iter_cards


def hand_text(state: State, cards: int) -> str:
    """Cards grouped by colour, highest first, e.g. ``B: 14 10 5 | R: 9 | CROW``."""
    t = state.cards
    groups = []
    for c, colour in enumerate(COLOURS):
        ranks = sorted((k for k in iter_cards(cards) if t.colour[k] == c), key=lambda k: -t.plain_power[k])
        if ranks:
            groups.append(f"{colour[0]}: " + " ".join(str(t.rank[k]) for k in ranks))
    specials = [t.names[k] for k in iter_cards(cards) if t.colour[k] < 0]
    return " | ".join(groups + specials) or "-"


def contract_text(state: State) -> str:
    if state.declarer < 0:
        high = f"high bid {state.high_bid} by player_{state.high_bidder}" if state.high_bid else "no bid yet"
        return f"auction: {high}"
    trump = COLOURS[state.trump] if state.trump >= 0 else "not named"
    return f"contract: player_{state.declarer} bid {state.bid}, trump {trump}"


def result_text(r: HandResult) -> str:
    """One line on a scored hand: contract, made or set, points and score change."""
    return (f"player_{r.declarer} bid {r.bid} in {COLOURS[r.trump]}, {'made' if r.made else 'set'}; "
            f"points {r.points[0]}-{r.points[1]}, score change {r.score_change[0]:+d}/{r.score_change[1]:+d}")


def render_ansi(state: State) -> str:
    """A readable multi-line table: scores, contract, hands, the current and last trick."""
    v = state.variant
    lines = [
        f"CrowsNest - {v.name} (hand {state.hand_no + 1}, dealer player_{state.dealer})",
        f"scores: team 0 (p0+p2) {state.scores[0]}  |  team 1 (p1+p3) {state.scores[1]}",
        contract_text(state) + f"  |  phase {state.phase.name.lower()}",
    ]
    for seat in range(NUM_SEATS):
        mark = "*" if seat == state.to_move and state.phase <= Phase.PLAY else " "
        role = " (declarer)" if seat == state.declarer else ""
        lines.append(f"{mark} player_{seat}{role}: {hand_text(state, state.hands[seat])}")
    if state.phase is Phase.PLAY:
        shown = [f"player_{(state.leader + i) % NUM_SEATS} {state.cards.names[c]}" for i, c in enumerate(state.trick)]
        lines.append(f"trick {state.trick_no + 1}: " + (", ".join(shown) or "(lead)"))
        lines.append(f"captured: team 0 {state.captured[0]}, team 1 {state.captured[1]}")
    if state.tricks:
        leader, winner, cards = state.tricks[-1]
        names = " ".join(state.cards.names[c] for c in cards)
        lines.append(f"last trick: {names} (led by player_{leader}, won by player_{winner})")
    if state.results and state.phase in (Phase.DEAL, Phase.GAME_OVER, Phase.AUCTION):
        lines.append("last hand: " + result_text(state.results[-1]))
    if state.phase is Phase.GAME_OVER:
        lines.append(f"game over: team {state.winner} wins {state.scores[0]}-{state.scores[1]}")
    return "\n".join(lines)
