"""The person's dialogs: bid, nest discard, trump, the last trick and the new-game question.

They sit over the bottom of the table, left of the side panel (``.docked`` in the stylesheet), so
the seats and the auction stay in sight; the bid, nest and trump dialogs answer the app's keys
too (hint, last trick, rules, settings, stats, save, new game, quit).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from crowsnest_env.rules import COLOURS, NUM_SEATS, State

from .session import Trick, seat_label
from .widgets import CardButton, card_text, grouped, hand_line

APP_KEYS = [Binding("h", "app.hint", "Hint"), Binding("l", "app.last_trick", "Last trick"),
            Binding("s", "app.settings", "Settings"), Binding("t", "app.stats", "Stats"),
            Binding("w", "app.save", "Save"), Binding("n", "app.new_game", "New game"),
            Binding("q", "app.quit", "Quit")]
"""The app's keys inside the person's dialogs (R for the rules is added where R is not Red)."""
MOVE_KEYS = [Binding("left,up", "app.focus_previous", "Previous", show=False),
             Binding("right,down", "app.focus_next", "Next", show=False)]


def short(app) -> bool:
    """A terminal under 34 rows: one-row buttons and fields."""
    return app.size.height < 34


class GameDialog(ModalScreen):
    """A decision of the person's: docked over the bottom of the table, the app's keys active."""

    BINDINGS = [*MOVE_KEYS, Binding("r", "app.rules", "Rules"), *APP_KEYS]

    def __init__(self) -> None:
        super().__init__(classes="dialog docked")

    def show_hint(self, text: str, action: int | None = None) -> None:
        """Show a hint in the dialog (and mark the button of ``action``, where it has one)."""
        self.query_one("#hint", Label).update(text)
        for b in self.query(Button):
            b.set_class(getattr(b, "move", None) == action, "hinted")


class BidDialog(GameDialog):
    """Pass or bid: one button per legal bid; Enter bids the focused one, P passes."""

    BINDINGS = [Binding("p", "choose(0)", "Pass")]

    def __init__(self, state: State, legal: list[int]):
        super().__init__()
        self.state, self.legal = state, legal

    def compose(self) -> ComposeResult:
        lay, st = self.state.layout, self.state
        high = f"high bid {st.high_bid} by {seat_label(st.high_bidder, st.to_move)}" if st.high_bid else "no bid yet"
        compact = short(self.app)
        with Vertical(classes="box"):
            yield Label(f"Your bid ({high})", classes="title")
            yield Static(hand_line(st, st.hands[st.to_move]), classes="handline")
            with Grid(id="bids"):
                for a in self.legal:
                    if a:
                        b = Button(str(lay.bid_value(a)), id=f"bid-{lay.bid_value(a)}", classes="bid", compact=compact)
                        b.move = a  # type: ignore[attr-defined]
                        yield b
                p = Button("Pass", id="pass", variant="warning", classes="bid", compact=compact)
                p.move = 0  # type: ignore[attr-defined]
                yield p
            yield Label("", id="hint", classes="hintline")

    def on_mount(self) -> None:
        buttons = self.query(Button)
        if buttons:
            buttons.first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(getattr(event.button, "move", 0))

    def action_choose(self, action: int) -> None:
        self.dismiss(action)


class DiscardDialog(GameDialog):
    """Choose the cards that go back to the nest, then confirm: Left/Right choose a card, Enter or
    Space (or a click) picks it or puts it back, C confirms."""

    BINDINGS = [Binding("c", "confirm", "Confirm")]

    def __init__(self, state: State, hand: int, nest: int, count: int):
        super().__init__()
        self.state, self.hand, self.nest, self.count = state, hand, nest, count
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        compact = short(self.app)
        with Vertical(classes="box"):
            yield Label(f"Put {self.count} cards back in the nest (+ came from the nest)", classes="title")
            with Grid(id="discards", classes="compact" if compact else ""):
                for group in grouped(self.state, self.hand):
                    for c in group:
                        b = CardButton(self.state, c, classes="from-nest" if self.nest >> c & 1 else "",
                                       label=self._label(c))
                        b.compact = compact
                        yield b
            with Horizontal(classes="row"):
                yield Button("Confirm", id="confirm", variant="success", compact=compact)
                yield Label(self._status(), id="chosen")
            yield Label("", id="hint", classes="hintline")

    def _label(self, card: int) -> str:
        """A card's name, ``+`` if it came from the nest, ``v`` in front once chosen to go back."""
        return ("v" if card in self.chosen else "") + ("+" if self.nest >> card & 1 else "") + \
            self.state.cards.names[card]

    def _status(self) -> str:
        names = " ".join(self.state.cards.names[c] for c in self.chosen)
        return f" to the nest {len(self.chosen)}/{self.count}: {names}"

    def on_mount(self) -> None:
        cards = self.query(CardButton)
        if cards:
            cards.first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if isinstance(event.button, CardButton):
            c = event.button.card
            label = self.query_one("#chosen", Label)
            if c in self.chosen:
                self.chosen.remove(c)
            elif len(self.chosen) < self.count:
                self.chosen.append(c)
            else:
                label.update(f" {self.count} chosen already: put one back first")
                label.add_class("bad")
                return
            event.button.set_class(c in self.chosen, "chosen")
            event.button.label = self._label(c)
            label.remove_class("bad")
            label.update(self._status())
        elif event.button.id == "confirm":
            self.action_confirm()

    def action_confirm(self) -> None:
        if len(self.chosen) == self.count:
            self.dismiss(list(self.chosen))
            return
        label = self.query_one("#chosen", Label)
        more = self.count - len(self.chosen)
        label.update(f" choose {more} more card{'s' if more > 1 else ''} ({self.count} go back)")
        label.add_class("bad")


class TrumpDialog(GameDialog):
    """Name trump: a button per colour with how many of it you hold; keys B, G, R, Y."""

    BINDINGS = [*MOVE_KEYS, *(Binding(c[0].lower(), f"choose({i})", c) for i, c in enumerate(COLOURS)), *APP_KEYS]
    INHERIT_BINDINGS = False  # R is Red here, not the rules

    def __init__(self, state: State, hand: int):
        super().__init__()
        self.state, self.hand = state, hand

    def compose(self) -> ComposeResult:
        t = self.state.cards
        compact = short(self.app)
        with Vertical(classes="box"):
            yield Label("Name trump (B G R Y)", classes="title")
            yield Static(hand_line(self.state, self.hand), classes="handline")
            with Horizontal(classes="row"):
                for i, colour in enumerate(COLOURS):
                    n = sum(1 for c in range(t.deck_size) if self.hand >> c & 1 and t.colour[c] == i)
                    b = Button(f"{colour} ({n})", id=f"trump-{colour}", classes=f"trumpbtn c{i}", compact=compact)
                    b.move = self.state.layout.trump_offset + i  # type: ignore[attr-defined]
                    yield b
            yield Label("", id="hint", classes="hintline")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(COLOURS.index((event.button.id or "")[6:]))

    def action_choose(self, colour: int) -> None:
        self.dismiss(colour)


class LastTrickScreen(ModalScreen[None]):
    """The last finished trick: each seat's card, who led and who won; any key closes it."""

    def __init__(self, state: State, trick: Trick | None, me: int):
        super().__init__(classes="dialog docked")
        self.state, self.trick, self.me = state, trick, me

    def compose(self) -> ComposeResult:
        with Vertical(classes="box"):
            if self.trick is None:
                yield Label("No trick has been played yet.", classes="title")
            else:
                tr, st = self.trick, self.state
                yield Label(f"Last trick: hand {tr.hand_no + 1}, trick {tr.number}", classes="title")
                t = Text()
                for i, card in enumerate(tr.cards):
                    seat = (tr.leader + i) % NUM_SEATS
                    t.append(f"{seat_label(seat, self.me):<14}")
                    t.append_text(card_text(st, card, trump_mark=False))
                    t.append("  led\n" if i == 0 else ("  won\n" if seat == tr.winner else "\n"))
                points = sum(st.cards.points[c] for c in tr.cards)
                t.append(f"won by {seat_label(tr.winner, self.me)}, {points} points")
                yield Static(t, id="trick-cards")
            yield Label("any key: back to the table", classes="hintline")

    def on_key(self, event) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self) -> None:
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: Y or Enter says yes, N or Escape no."""

    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, question: str):
        super().__init__(classes="dialog docked")
        self.question = question

    def compose(self) -> ComposeResult:
        compact = short(self.app)
        with Vertical(classes="box"):
            yield Label(self.question, classes="title")
            with Horizontal(classes="row"):
                yield Button("Yes (Y)", id="yes", variant="warning", compact=compact)
                yield Button("No (N)", id="no", compact=compact)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
