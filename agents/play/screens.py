"""The play app's screens: the hand summary, the rules, settings and your record (Stats).

The person's dialogs (bid, nest, trump, last trick, new game) are in :mod:`.dialogs`.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Markdown, Select, Static

from crowsnest_env.rules import COLOURS, NO_CROW_SUFFIX, NUM_SEATS, PRESETS, HandResult, State, Variant

from .dialogs import short
from .history import StatsRow, level_title
from .levels import LEVELS
from .rules_text import rules_markdown
from .session import seat_label
from .settings import SPEEDS, TRICK_PAUSES, Settings
from .widgets import card_text, grouped


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

    BINDINGS = [Binding("enter,escape,space", "close", "Continue"), Binding("l", "app.last_trick", "Last trick"),
                Binding("t", "app.stats", "Stats"), Binding("w", "app.save", "Save"),
                Binding("n", "app.new_game", "New game"), Binding("q", "app.quit", "Quit")]

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
            with VerticalScroll(id="summary-body"):
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
                t.append(f" ({r.nest_points} points, to the last trick's winners)")
                yield Static(t)
                yield score_sheet(self.results, me)
                if self.winner is not None:
                    won = self.winner == us
                    yield Label("You WIN the game!" if won else "They win the game.",
                                classes="title " + ("good" if won else "bad"), id="winner")
            yield Button("Continue", id="continue", variant="primary", compact=short(self.app))

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


class StatsScreen(ModalScreen[None]):
    """Your record: games, hands, your made rate as declarer and your team's points per hand
    against the computer players, by rule set and level."""

    BINDINGS = [Binding("escape,q,t", "close", "Close")]

    def __init__(self, rows: list[StatsRow], folder: str, problems: list[str], keeping: bool):
        super().__init__(classes="dialog")
        self.rows, self.folder, self.problems, self.keeping = rows, folder, problems, keeping

    def compose(self) -> ComposeResult:
        with Vertical(classes="box wide"):
            yield Label("Your record against the computer players", classes="title")
            if self.rows:
                table: DataTable = DataTable(id="stats", zebra_stripes=True, cursor_type="none")
                table.can_focus = False
                table.add_columns("rules", "level", "games", "won", "hands", "decl", "made", "pts/hand",
                                  "score/hand")
                for r in self.rows:
                    made = "-" if r.made_rate is None else f"{r.made_rate:.0%}"
                    table.add_row(r.variant, level_title(r.level), str(r.games), str(r.won), str(r.hands),
                                  str(r.declared), made, f"{r.points_per_hand:+.1f}", f"{r.score_per_hand:+.1f}")
                yield table
                yield Static("decl: hands you won the bid; made: of those, made. pts/hand: points captured, "
                             "your team minus theirs, per hand; score/hand: score change, likewise.", classes="note")
            else:
                yield Static("No finished games yet. Every finished game is saved here"
                             + ("." if self.keeping else " when 'Keep finished games' is on (Settings)."))
            note = f"games are saved in {self.folder}" + ("" if self.keeping else " (saving is off)")
            if self.problems:
                note += f"; {len(self.problems)} file(s) could not be read: " + "; ".join(self.problems[:3])
            yield Static(note, classes="note")
            yield Button("Close", id="close", compact=short(self.app))

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


def pause_label(x: float | None) -> str:
    return "until a key" if x is None else "no pause" if x == 0 else f"{x:g} s (a key goes on sooner)"


class SettingsScreen(ModalScreen[Settings | None]):
    """Rules, seat, level (or an agent per side), speeds and your record; Save checks every agent
    on the rules and starts a new game."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, settings: Settings, error: str = ""):
        super().__init__(classes="dialog")
        self.settings, self.error = settings, error

    def compose(self) -> ComposeResult:
        s = self.settings
        value = s.variant if s.crow else s.variant + NO_CROW_SUFFIX
        speeds = sorted(set(SPEEDS) | {s.speed})
        pauses = list(TRICK_PAUSES) if s.trick_pause in TRICK_PAUSES else [*TRICK_PAUSES, s.trick_pause]
        compact = short(self.app)
        with Vertical(classes="box wide tall"):
            yield Label("Settings", classes="title")
            with VerticalScroll(id="form-scroll"):
                with Grid(id="form", classes="compact" if compact else ""):
                    yield Label("Rules")
                    yield Select(variant_choices(), value=value, allow_blank=False, id="variant", compact=compact)
                    yield Label("Your seat")
                    yield Select([(f"player_{i}", i) for i in range(NUM_SEATS)], value=s.seat, allow_blank=False,
                                 id="seat", compact=compact)
                    yield Label("Computer players")
                    yield Select([(f"{lv.title}: {lv.about}", name) for name, lv in LEVELS.items()], value=s.level,
                                 allow_blank=False, id="level", compact=compact)
                    yield Label("Partner's agent")
                    yield Input(s.partner, id="partner", placeholder="empty: the level's (or random, heuristic, "
                                "pimc, learned, checkpoint:PATH)")
                    yield Label("Opponents' agent")
                    yield Input(s.opponents, id="opponents", placeholder="empty: the level's")
                    yield Label("AI speed (s/move)")
                    yield Select([(f"{x:g} s" + (" (instant)" if x == 0 else ""), x) for x in speeds], value=s.speed,
                                 allow_blank=False, id="speed", compact=compact)
                    yield Label("After each trick")
                    yield Select([(pause_label(x), i) for i, x in enumerate(pauses)], value=pauses.index(s.trick_pause),
                                 allow_blank=False, id="trick_pause", compact=compact)
                    yield Label("Your record")
                    yield Checkbox("Keep finished games (Stats: T)", s.keep_games, id="keep_games", compact=compact)
            yield Label(self.error, id="error", classes="bad")
            with Horizontal(classes="row"):
                yield Button("Save and new game", id="save", variant="success", compact=compact)
                yield Button("Cancel", id="cancel", compact=compact)
        self._pauses = pauses

    def read(self) -> Settings:
        name = str(self.query_one("#variant", Select).value)
        pause = self._pauses[int(self.query_one("#trick_pause", Select).value)]  # type: ignore[arg-type]
        return Settings(variant=name.removesuffix(NO_CROW_SUFFIX), crow=not name.endswith(NO_CROW_SUFFIX),
                        seat=int(self.query_one("#seat", Select).value),  # type: ignore[arg-type]
                        level=str(self.query_one("#level", Select).value),
                        partner=self.query_one("#partner", Input).value.strip(),
                        opponents=self.query_one("#opponents", Input).value.strip(),
                        speed=float(self.query_one("#speed", Select).value),  # type: ignore[arg-type]
                        trick_pause=pause,
                        keep_games=self.query_one("#keep_games", Checkbox).value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.dismiss(None)
            return
        from .session import build_lineup, first_line

        try:
            new = self.read().check()
            build_lineup(new, seed=0)  # every computer seat's agent, built and checked on the rules
        except (ValueError, TypeError) as exc:
            self.query_one("#error", Label).update(f"error: {first_line(exc)}")
            return
        self.dismiss(new)

    def action_cancel(self) -> None:
        self.dismiss(None)
