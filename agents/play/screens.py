"""The play app's dialogs and screens: bid, nest discard, trump, hand summary, rules, settings."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, Label, Markdown, Select, Static

from crowsnest_env.rules import COLOURS, NO_CROW_SUFFIX, PRESETS, HandResult, State, Variant

from .rules_text import rules_markdown
from .session import seat_label
from .settings import SPEEDS, Settings
from .widgets import CardButton, card_text, grouped, hand_line


class BidDialog(ModalScreen[int]):
    """Pass or bid: one button per legal bid; Enter bids the lowest, P passes."""

    BINDINGS = [Binding("p", "choose(0)", "Pass"), Binding("h", "app.hint", "Hint"), Binding("r", "app.rules", "Rules"),
                Binding("s", "app.settings", "Settings")]

    def __init__(self, state: State, legal: list[int]):
        super().__init__(classes="dialog")
        self.state, self.legal = state, legal

    def compose(self) -> ComposeResult:
        lay, st = self.state.layout, self.state
        high = f"High bid {st.high_bid} by {seat_label(st.high_bidder, st.to_move)}" if st.high_bid else "No bid yet"
        with Vertical(classes="box"):
            yield Label(f"Your bid - {high}", classes="title")
            yield Static(hand_line(st, st.hands[st.to_move]), classes="handline")
            with Grid(id="bids"):
                for a in self.legal:
                    if a:
                        yield Button(str(lay.bid_value(a)), id=f"bid-{lay.bid_value(a)}", classes="bid")
            yield Button("Pass", id="pass", variant="warning")

    def on_mount(self) -> None:
        buttons = self.query(Button)
        if buttons:
            buttons.first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        bid_id = event.button.id or ""
        self.dismiss(0 if bid_id == "pass" else self.state.layout.bid_action(int(bid_id[4:])))

    def action_choose(self, action: int) -> None:
        self.dismiss(action)


class DiscardDialog(ModalScreen[list[int]]):
    """Choose the cards that go back to the nest, then confirm."""

    BINDINGS = [Binding("c", "confirm", "Confirm"), Binding("h", "app.hint", "Hint"),
                Binding("r", "app.rules", "Rules"),
                Binding("s", "app.settings", "Settings")]

    def __init__(self, state: State, hand: int, nest: int, count: int):
        super().__init__(classes="dialog")
        self.state, self.hand, self.nest, self.count = state, hand, nest, count
        self.chosen: list[int] = []

    def compose(self) -> ComposeResult:
        with Vertical(classes="box wide"):
            yield Label(f"Put {self.count} cards back in the nest (nest cards are marked +)", classes="title")
            with Grid(id="discards"):
                for group in grouped(self.state, self.hand):
                    for c in group:
                        b = CardButton(self.state, c, classes="from-nest" if self.nest >> c & 1 else "")
                        if self.nest >> c & 1:
                            b.label = f"+{b.label}"
                        yield b
            yield Label("", id="chosen")
            yield Button("Confirm", id="confirm", variant="success", disabled=True)

    def on_mount(self) -> None:
        cards = self.query(CardButton)
        if cards:
            cards.first().focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if isinstance(event.button, CardButton):
            c = event.button.card
            if c in self.chosen:
                self.chosen.remove(c)
                event.button.remove_class("chosen")
            elif len(self.chosen) < self.count:
                self.chosen.append(c)
                event.button.add_class("chosen")
            names = " ".join(self.state.cards.names[c] for c in self.chosen)
            self.query_one("#chosen", Label).update(f"to the nest ({len(self.chosen)}/{self.count}): {names}")
            self.query_one("#confirm", Button).disabled = len(self.chosen) != self.count
        elif event.button.id == "confirm":
            self.action_confirm()

    def action_confirm(self) -> None:
        if len(self.chosen) == self.count:
            self.dismiss(list(self.chosen))


class TrumpDialog(ModalScreen[int]):
    """Name trump: a button per colour with how many of it you hold; keys B, G, R, Y."""

    BINDINGS = [*(Binding(c[0].lower(), f"choose({i})", c) for i, c in enumerate(COLOURS)),
                Binding("h", "app.hint", "Hint")]  # R is Red here

    def __init__(self, state: State, hand: int):
        super().__init__(classes="dialog")
        self.state, self.hand = state, hand

    def compose(self) -> ComposeResult:
        t = self.state.cards
        with Vertical(classes="box"):
            yield Label("Name trump", classes="title")
            yield Static(hand_line(self.state, self.hand), classes="handline")
            with Horizontal(classes="row"):
                for i, colour in enumerate(COLOURS):
                    n = sum(1 for c in range(t.deck_size) if self.hand >> c & 1 and t.colour[c] == i)
                    yield Button(f"{colour} ({n})", id=f"trump-{colour}", classes=f"trumpbtn c{i}")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(COLOURS.index((event.button.id or "")[6:]))

    def action_choose(self, colour: int) -> None:
        self.dismiss(colour)


def score_sheet(results: list[HandResult] | tuple[HandResult, ...], me: int,
                start: tuple[int, int] = (0, 0)) -> DataTable:
    """Every scored hand so far with running totals, from ``me``'s side of the table."""
    table: DataTable = DataTable(id="sheet", zebra_stripes=True, cursor_type="none")
    table.can_focus = False
    table.add_columns("hand", "declarer", "bid", "trump", "result", "points us-them", "us", "them")
    us, them = start[me % 2], start[1 - me % 2]
    for r in results:
        us, them = us + r.score_change[me % 2], them + r.score_change[1 - me % 2]
        table.add_row(str(r.hand_no + 1), seat_label(r.declarer, me), str(r.bid), COLOURS[r.trump],
                      "made" if r.made else "set", f"{r.points[me % 2]}-{r.points[1 - me % 2]}", str(us), str(them))
    return table


class SummaryScreen(ModalScreen[None]):
    """After a hand: contract, made or set, points, score change, the nest; the score sheet; the winner."""

    BINDINGS = [Binding("enter", "close", "Continue"), Binding("escape", "close", "Continue")]

    def __init__(self, state: State, result: HandResult, nest: int, me: int, results: list[HandResult],
                 winner: int | None):
        super().__init__(classes="dialog")
        self.state, self.result, self.nest, self.me = state, result, nest, me
        self.results, self.winner = results, winner

    def compose(self) -> ComposeResult:
        r, st, me = self.result, self.state, self.me
        us = me % 2
        ours = r.declarer % 2 == us
        verdict = ("made" if r.made else "set")
        with Vertical(classes="box wide"):
            yield Label(f"Hand {r.hand_no + 1}: {seat_label(r.declarer, me)} bid {r.bid} in "
                        f"{COLOURS[r.trump]} and was {verdict.upper()}", classes="title " + (
                            "good" if ours == r.made else "bad"))
            t = Text()
            t.append(f"points captured: us {r.points[us]}, them {r.points[1 - us]}"
                     f" (tricks {r.tricks[us]}-{r.tricks[1 - us]})\n")
            t.append(f"score change: us {r.score_change[us]:+d}, them {r.score_change[1 - us]:+d}\n")
            t.append("nest dealt: ")
            for c in sorted_cards(st, self.nest):
                t.append_text(card_text(st, c, trump_mark=False))
                t.append(" ")
            t.append("\nput back: ")
            for c in sorted_cards(st, r.discards):
                t.append_text(card_text(st, c, trump_mark=False))
                t.append(" ")
            t.append(f"  ({r.nest_points} points, to the last trick's winners)\n")
            yield Static(t)
            yield score_sheet(self.results, me)
            if self.winner is not None:
                won = self.winner == us
                yield Label("You WIN the game!" if won else "They win the game.",
                            classes="title " + ("good" if won else "bad"), id="winner")
            yield Button("Continue", id="continue", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#continue", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def sorted_cards(state: State, cards: int) -> list[int]:
    return [c for group in grouped(state, cards) for c in group]


class RulesScreen(ModalScreen[None]):
    """The selected variant's rules, generated from its parameters."""

    BINDINGS = [Binding("escape,q,r", "close", "Close")]

    def __init__(self, variant: Variant):
        super().__init__(classes="dialog")
        self.variant = variant

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="box wide tall"):
            yield Markdown(rules_markdown(self.variant), id="rules")
            yield Button("Close", id="close")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)


def variant_choices() -> list[tuple[str, str]]:
    """(label, value) for every variant and, where allowed, its no-Crow option (value ``name_nocrow``)."""
    out = []
    for name, v in PRESETS.items():
        out.append((f"{name} ({v.deck_size} cards, bids {v.min_bid}-{v.max_bid})", name))
        if v.crow_option:
            nc = v.without_crow()
            out.append((f"{name} without the {v.bird_name.title()} ({nc.deck_size} cards)", nc.name))
    return out


class SettingsScreen(ModalScreen[Settings | None]):
    """Variant, seat, the agents and the AI speed; Save checks them and starts a new game."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, settings: Settings, error: str = ""):
        super().__init__(classes="dialog")
        self.settings, self.error = settings, error

    def compose(self) -> ComposeResult:
        s = self.settings
        value = s.variant if s.crow else s.variant + NO_CROW_SUFFIX
        speeds = sorted(set(SPEEDS) | {s.speed})
        with Vertical(classes="box wide"):
            yield Label("Settings", classes="title")
            with Grid(id="form"):
                yield Label("Variant")
                yield Select(variant_choices(), value=value, allow_blank=False, id="variant")
                yield Label("Your seat")
                yield Select([(f"player_{i}", i) for i in range(4)], value=s.seat, allow_blank=False, id="seat")
                yield Label("Partner agent")
                yield Input(s.partner, id="partner",
                            placeholder="random | heuristic | pimc?samples=8 | checkpoint:PATH")
                yield Label("Opponents' agent")
                yield Input(s.opponents, id="opponents")
                yield Label("AI speed (s/move)")
                yield Select([(f"{x:g} s" + (" (instant)" if x == 0 else ""), x) for x in speeds], value=s.speed,
                             allow_blank=False, id="speed")
            yield Label(self.error, id="error", classes="bad")
            with Horizontal(classes="row"):
                yield Button("Save and new game", id="save", variant="success")
                yield Button("Cancel", id="cancel")

    def read(self) -> Settings:
        name = str(self.query_one("#variant", Select).value)
        crow = not name.endswith(NO_CROW_SUFFIX)
        return Settings(variant=name.removesuffix(NO_CROW_SUFFIX), crow=crow,
                        seat=int(self.query_one("#seat", Select).value),  # type: ignore[arg-type]
                        partner=self.query_one("#partner", Input).value.strip(),
                        opponents=self.query_one("#opponents", Input).value.strip(),
                        speed=float(self.query_one("#speed", Select).value))  # type: ignore[arg-type]

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        from .session import build_agent

        try:
            new = self.read().check()
            for spec in {new.partner, new.opponents}:
                build_agent(spec, new.rules(), 0)
        except (ValueError, TypeError) as exc:
            self.query_one("#error", Label).update(f"error: {exc}")
            return
        self.dismiss(new)

    def action_cancel(self) -> None:
        self.dismiss(None)
