"""Helpers for scripted rules tests: build deals from card names, play scripts by action name.

A *deal* is four hand strings (seat 0..3) plus a nest string, e.g. ``"B6 B7 ... B14"``.
Scripts are lists of action names (``"bid 70"``, ``"pass"``, ``"discard G7"``,
``"trump Red"``); tricks are strings of four card names in play order from the leader.
"""

from __future__ import annotations

from crowsnest_env.rules import Phase, State, get_variant, tables_for


def cards(state: State, names: str) -> int:
    """Bitmask of the cards named in a space-separated string."""
    return state.cards.cards_from_names(names.split())


def rank_run(colour: str, lo: int, hi: int) -> str:
    """``rank_run("B", 6, 9)`` -> ``"B6 B7 B8 B9"``."""
    return " ".join(f"{colour}{r}" for r in range(lo, hi + 1))


def new_state(variant: str, *, crow: bool = True, dealer: int = 0,
              scores: tuple[int, int] = (0, 0)) -> State:
    return State(get_variant(variant, crow=crow), dealer=dealer, scores=scores)


def deal(state: State, hands: list[str], nest: str = "") -> State:
    """Deal explicit hands (seat order) and nest; returns the state (phase AUCTION)."""
    state.deal_given([cards(state, h) for h in hands], cards(state, nest) if nest else 0)
    assert state.phase is Phase.AUCTION
    return state


def rotate(hands: list[str], k: int = 1) -> list[str]:
    """The same deal moved k seats to the left: seat s's hand goes to seat s+k."""
    return [hands[(s - k) % 4] for s in range(4)]


def act(state: State, names: list[str] | str) -> State:
    """Apply action names in order (a single string is split on commas)."""
    if isinstance(names, str):
        names = [n for n in names.split(",") if n.strip()]
    for name in names:
        state.apply(state.layout.action_id(name))
    return state


def discard(state: State, names: str) -> State:
    return act(state, [f"discard {c}" for c in names.split()])


def play_tricks(state: State, tricks: list[str]) -> list[int]:
    """Play each trick (card names in order from the leader); return the winners of these tricks."""
    start = len(state.tricks)
    for trick in tricks:
        for c in trick.split():
            state.apply(state.layout.action_id(f"play {c}"))
    return [w for _, w, _ in state.tricks[start:]]


def legal_names(state: State) -> set[str]:
    return {state.layout.name(a) for a in state.legal_actions()}


def plays(*names: str) -> set[str]:
    return {f"play {n}" for n in names}


def table(variant: str, crow: bool = True):
    return tables_for(get_variant(variant, crow=crow))


# --------------------------------------------------------------------------------------------
# Shared crowsnest deal "A" (dealer 0): seat 2 declares Red, discards B5 G5 Y5 G6 R6 (15 points);
# seat 1 leads trump 5 under which seat 2's Crow falls; seat 2 then wins every trick.
# Team 0 captures 95 (80 in tricks + nest 15), team 1 captures 25.
CROWSNEST_A_HANDS = [
    rank_run("B", 6, 14),
    "R5 " + rank_run("G", 7, 14),
    rank_run("R", 6, 14),
    rank_run("Y", 6, 14),
]
CROWSNEST_A_NEST = "B5 G5 G6 Y5 CROW"
CROWSNEST_A_DISCARDS = "B5 G5 Y5 G6 R6"
CROWSNEST_A_TRICKS = ["R5 CROW Y6 B6", "G14 R7 Y7 B7"] + [f"R{k} Y{k} B{k} G{k - 1}" for k in range(8, 15)]
CROWSNEST_A_WINNERS = [1, 2, 2, 2, 2, 2, 2, 2, 2]
CROWSNEST_A_POINTS = (95, 25)


def play_crowsnest_a(state: State, bid: int = 70, hands: list[str] | None = None) -> State:
    """Deal A to ``state`` (any dealer; the seats are rotated so the dealer's role is seat 0's),
    let the dealer's partner declare at ``bid`` (others pass) and play the hand out."""
    d = state.dealer
    deal(state, rotate(hands or CROWSNEST_A_HANDS, d), CROWSNEST_A_NEST)
    act(state, ["pass", f"bid {bid}", "pass", "pass"])
    discard(state, CROWSNEST_A_DISCARDS)
    act(state, "trump Red")
    play_tricks(state, CROWSNEST_A_TRICKS)
    return state
