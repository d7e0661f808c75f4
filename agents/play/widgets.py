"""The table's widgets: cards, the hand grouped by colour, the trick, the seats, the side panel."""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button

from crowsnest_env.render import contract_text, hand_text, result_text
from crowsnest_env.rules import COLOURS, NUM_SEATS, Phase, State, iter_cards

from .session import seat_label

CARD_STYLES = {0: ("#f0f0f0", "#262626"), 1: ("#ffffff", "#1e7b3c"), 2: ("#ffffff", "#b8322a"),
               3: ("#1a1a1a", "#e8b923"), -1: ("#ffffff", "#6a3d9a")}
"""(foreground, background) by colour index; -1 for the bird and the Red 1."""
TRUMP_MARK = "*"


def card_style(state: State, card: int) -> str:
    fg, bg = CARD_STYLES[state.cards.colour[card] if state.cards.colour[card] >= 0 else -1]
    return f"bold {fg} on {bg}"


def card_text(state: State, card: int, trump_mark: bool = True) -> Text:
    """A card as coloured text, e.g. `` R14 `` on red; trumps get a star."""
    name = state.cards.names[card]
    star = TRUMP_MARK if trump_mark and is_trump(state, card) else ""
    return Text(f" {name}{star} ", style=card_style(state, card))


def hand_line(state: State, cards: int) -> Text:
    """A hand as one line of coloured cards, grouped by colour."""
    t = Text()
    for group in grouped(state, cards):
        for c in group:
            t.append_text(card_text(state, c))
            t.append(" ")
        t.append("  ")
    return t


def is_trump(state: State, card: int) -> bool:
    return state.trump >= 0 and state.cards.trump_power[state.trump][card] > 0


def sort_key(state: State, card: int) -> tuple[int, int]:
    """Trumps last (specials with them), the other colours in order, each high to low."""
    t = state.cards
    if state.trump >= 0 and is_trump(state, card):
        return (9, -t.trump_power[state.trump][card])
    colour = t.colour[card] if t.colour[card] >= 0 else 8
    return (colour, -t.plain_power[card] if t.colour[card] >= 0 else 0)


def grouped(state: State, cards: int) -> list[list[int]]:
    """Cards grouped by colour (trump group last), each group high to low."""
    groups: dict[int, list[int]] = {}
    for c in sorted(iter_cards(cards), key=lambda c: sort_key(state, c)):
        groups.setdefault(sort_key(state, c)[0], []).append(c)
    return list(groups.values())


class CardButton(Button):
    """One card in a hand: pressing it plays (or, in the discard dialog, selects) it."""

    def __init__(self, state: State, card: int, disabled: bool = False, classes: str = ""):
        colour = state.cards.colour[card]
        cls = f"card c{colour if colour >= 0 else 'x'}" + (" trump" if is_trump(state, card) else "")
        name = state.cards.names[card]
        super().__init__(name + (TRUMP_MARK if is_trump(state, card) else ""), id=f"card-{name}",
                         classes=f"{cls} {classes}".strip(), disabled=disabled)
        self.card = card
        self.active_effect_duration = 0  # the card leaves the hand at once; no press flash


class HandView(Horizontal):
    """The person's hand: coloured cards grouped by colour; only legal ones can be pressed.

    Rebuilt only when cards arrive or trump is named; a played card is just removed and
    legality toggles ``disabled``, so a move does not restyle the whole hand."""

    _cards = 0
    _trump = -2

    def show(self, state: State, cards: int, legal_cards: int) -> None:
        self.call_later(self._update, state, cards, legal_cards)

    async def _update(self, state: State, cards: int, legal_cards: int) -> None:
        had_focus = self.app.focused is None or isinstance(self.app.focused, CardButton)
        if cards & ~self._cards or state.trump != self._trump:
            await self.remove_children()
            groups = [Horizontal(*(CardButton(state, c) for c in g), classes="group") for g in grouped(state, cards)]
            if groups:
                await self.mount_all(groups)
        else:
            for b in self.query(CardButton):
                if not cards >> b.card & 1:
                    parent = b.parent
                    gone = parent if isinstance(parent, Horizontal) and len(parent.children) == 1 else b
                    await gone.remove()
        self._cards, self._trump = cards, state.trump
        for b in self.query(CardButton):
            b.disabled = not legal_cards >> b.card & 1
            b.set_class(bool(legal_cards) and b.disabled, "illegal")  # struck out only when choosing a card
        buttons = self.legal_buttons()
        if buttons and had_focus and self.screen is self.app.screen:
            buttons[0].focus()

    def legal_buttons(self) -> list[CardButton]:
        return [b for b in self.query(CardButton) if not b.disabled]


class Panel(Widget):
    """A fixed-size text panel: ``update`` repaints it without a new layout of the screen
    (``Static.update`` lays the whole screen out again, the main cost of a move)."""

    def __init__(self, text: str | Text = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self._text: str | Text = text

    def update(self, text: str | Text) -> None:
        self._text = text
        self.refresh()

    def render(self) -> str | Text:
        return self._text


class SeatPanel(Panel):
    """A seat around the table: who, which agent, cards left, dealer / declarer / to move."""

    def show(self, state: State, seat: int, me: int, agent: str, reveal: bool = False) -> None:
        t = Text()
        mover = state.to_move == seat and state.phase <= Phase.PLAY
        t.append(("> " if mover else "  ") + seat_label(seat, me), style="bold reverse" if mover else "bold")
        team = "us" if seat % 2 == me % 2 else "them"
        t.append(f"  [{team}]\n", style="green" if team == "us" else "red")
        t.append(f"  {agent}\n", style="dim")
        t.append(f"  cards: {state.hands[seat].bit_count()}")
        tags = [tag for tag, on in (("dealer", state.dealer == seat), ("declarer", state.declarer == seat)) if on]
        if tags:
            t.append("  " + ", ".join(tags), style="yellow")
        bids = [state.layout.name(a) for s, a in state.auction if s == seat]
        if bids and state.phase is Phase.AUCTION:
            t.append(f"\n  {bids[-1]}", style="cyan")
        if reveal:
            t.append("\n  " + hand_text(state, state.hands[seat]), style="dim")
        self.update(t)


class TrickView(Panel):
    """The trick in the middle: each seat's card at its side of the table, and who won the last."""

    def show(self, state: State, me: int) -> None:
        cards: list[int | None] = [None] * NUM_SEATS
        note = ""
        if state.trick:
            for i, c in enumerate(state.trick):
                cards[(state.leader + i) % NUM_SEATS] = c
            note = f"trick {state.trick_no + 1} - {seat_label(state.leader, me)} led"
        elif state.tricks:
            leader, winner, played = state.tricks[-1]
            for i, c in enumerate(played):
                cards[(leader + i) % NUM_SEATS] = c
            note = f"trick {len(state.tricks)} won by {seat_label(winner, me)}"
        elif state.phase is Phase.PLAY:
            note = f"{seat_label(state.to_move, me)} to lead"
        slot = {off: (cards[(me + off) % NUM_SEATS]) for off in range(NUM_SEATS)}

        def at(off: int) -> Text:
            c = slot[off]
            return card_text(state, c) if c is not None else Text(" ... ", style="dim")

        t = Text()
        t.append("Partner\n", style="dim")
        t.append_text(at(2))
        t.append("\n\n")
        t.append("Left ", style="dim")
        t.append_text(at(1))
        t.append(" " * 6)
        t.append_text(at(3))
        t.append(" Right", style="dim")
        t.append("\n\n")
        t.append_text(at(0))
        t.append("\nYou\n\n", style="dim")
        t.append(note, style="italic")
        self.update(t)


class SidePanel(Panel):
    """Scores to the target, the contract, points this hand and the auction so far."""

    def show(self, state: State, me: int) -> None:
        v, us, them = state.variant, me % 2, 1 - me % 2
        t = Text()
        playing = state.phase <= Phase.PLAY
        t.append(f"{v.name}  hand {state.hand_no + int(playing)}" + ("" if playing else " (scored)") + "\n",
                 style="bold")
        t.append("Score ", style="bold")
        t.append(f"us {state.scores[us]}", style="green")
        t.append(" / ")
        t.append(f"them {state.scores[them]}", style="red")
        t.append(f"  (to {v.target})\n\n")
        t.append(contract_text(state).replace("player_", "p") + "\n")
        if state.declarer >= 0:
            t.append(f"declarer: {seat_label(state.declarer, me)}\n")
        if state.trump >= 0:
            t.append("trump: ")
            t.append(f" {COLOURS[state.trump]} ", style=card_style_colour(state.trump))
            t.append("\n")
        t.append(f"\ncaptured: us {state.captured[us]}, them {state.captured[them]}\n")
        t.append(f"tricks: us {state.tricks_won[us]}, them {state.tricks_won[them]}\n")
        if state.results and not playing:
            t.append("\nlast hand: " + result_text(state.results[-1]).replace("player_", "p") + "\n", style="cyan")
        if state.auction:
            t.append("\nAuction\n", style="bold")
            for seat, a in state.auction:
                t.append(f"  {seat_label(seat, me):<14} {state.layout.name(a)}\n")
        self.update(t)


def card_style_colour(colour: int) -> str:
    fg, bg = CARD_STYLES[colour]
    return f"bold {fg} on {bg}"
