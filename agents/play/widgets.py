"""The table's widgets: cards, the hand grouped by colour, the trick, the seats, the side panel.

The panels lay their text out for the size they get (80x24 up): a narrow trick view drops the
seat words, the side panel keeps the newest bids when the auction is longer than it is tall.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import Button

from crowsnest_env.render import result_text
from crowsnest_env.rules import COLOURS, NUM_SEATS, Phase, State, iter_cards

from .session import SEAT_NAMES, Trick, seat_label

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
        t.append(" ")
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

    def __init__(self, state: State, card: int, disabled: bool = False, classes: str = "", label: str = ""):
        colour = state.cards.colour[card]
        cls = f"card c{colour if colour >= 0 else 'x'}" + (" trump" if is_trump(state, card) else "")
        name = state.cards.names[card]
        super().__init__(label or name + (TRUMP_MARK if is_trump(state, card) else ""), id=f"card-{name}",
                         classes=f"{cls} {classes}".strip(), disabled=disabled)
        self.card = card
        self.active_effect_duration = 0  # the card leaves the hand at once; no press flash
        self.styles.line_pad = 0  # Button pads its label by 1 (CSS cannot say 0): cards are narrow


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
            b.remove_class("hinted")
        buttons = self.legal_buttons()
        if buttons and had_focus and self.screen is self.app.screen:
            buttons[0].focus()

    def legal_buttons(self) -> list[CardButton]:
        return [b for b in self.query(CardButton) if not b.disabled]


def fit(lines: list[Text], width: int) -> Text:
    """Lines joined, each cut to ``width`` with an ellipsis (a panel never wraps a line)."""
    out = Text()
    for i, line in enumerate(lines):
        line = line.copy()
        if width > 0:
            line.truncate(width, overflow="ellipsis")
        out.append_text(line)
        if i < len(lines) - 1:
            out.append("\n")
    return out


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
        if isinstance(self._text, Text):
            return fit(list(self._text.split("\n")), self.content_size.width)
        return self._text


class SeatPanel(Panel):
    """A seat around the table: who, its level or agent, cards left, dealer / declarer / bid."""

    def show(self, state: State, seat: int, me: int, agent: str, reveal: bool = False) -> None:
        mover = state.to_move == seat and state.phase <= Phase.PLAY
        first = Text(("> " if mover else "  ") + seat_label(seat, me), style="bold reverse" if mover else "bold")
        team = "us" if seat % 2 == me % 2 else "them"
        second = Text("  ")
        second.append(team, style="green" if team == "us" else "red")
        second.append(f" · {agent}", style="dim")
        third = Text(f"  {state.hands[seat].bit_count()} cards")
        tags = [tag for tag, on in (("dealer", state.dealer == seat), ("declarer", state.declarer == seat)) if on]
        lines = [first, second, third]
        if tags:
            lines.append(Text("  " + ", ".join(tags), style="yellow"))
        bids = [state.layout.name(a) for s, a in state.auction if s == seat]
        if bids and state.phase is Phase.AUCTION:
            lines.append(Text(f"  {bids[-1]}", style="cyan"))
        if reveal:
            from crowsnest_env.render import hand_text

            lines.append(Text("  " + hand_text(state, state.hands[seat]), style="dim"))
        if self.id == "north":  # one wide row: two lines of the seat's facts
            lines = [Text("   ").join(lines[:2]), Text("   ").join(lines[2:])]
        else:  # the same height left and right, so both seats' names sit on one row
            lines += [Text("")] * (6 - len(lines))
        self.update(Text("\n").join(lines))


class TrickView(Panel):
    """The trick in the middle: each seat's card at its side of the table; after the fourth card
    the finished trick and its winner stay until the next lead."""

    def show(self, state: State, me: int, last: Trick | None = None) -> None:
        self._args = (state, me, last)
        self.refresh()

    def render(self) -> Text:
        if not hasattr(self, "_args"):
            return Text("")
        state, me, last = self._args
        cards: list[int | None] = [None] * NUM_SEATS
        note = ""
        narrow = self.content_size.width < 30  # seat names without their numbers

        def who(seat: int) -> str:
            return SEAT_NAMES[(seat - me) % NUM_SEATS] if narrow else seat_label(seat, me)

        if state.trick:
            for i, c in enumerate(state.trick):
                cards[(state.leader + i) % NUM_SEATS] = c
            note = f"trick {state.trick_no + 1}: {who(state.leader)} led"
        elif state.tricks:
            leader, winner, played = state.tricks[-1]
            for i, c in enumerate(played):
                cards[(leader + i) % NUM_SEATS] = c
            note = f"trick {len(state.tricks)} won by {who(winner)}"
        elif last is not None and last.hand_no == state.hand_no - 1 and (
                state.phase in (Phase.DEAL, Phase.GAME_OVER) or (state.phase is Phase.AUCTION and not state.auction)):
            # the hand's last trick, until the next hand's first bid (the table has dealt it already)
            for i, c in enumerate(last.cards):
                cards[(last.leader + i) % NUM_SEATS] = c
            note = f"trick {last.number} won by {who(last.winner)}"
        elif state.phase is Phase.PLAY:
            note = f"{who(state.to_move)} to lead"
        slot = {off: cards[(me + off) % NUM_SEATS] for off in range(NUM_SEATS)}
        size = self.content_size
        if size.height >= 17 and size.width >= 40:
            return self._blocks(state, slot, note)
        wide = size.width >= 34
        spaced = size.height >= 9

        def at(off: int) -> Text:
            c = slot[off]
            return card_text(state, c) if c is not None else Text(" ... ", style="dim")

        t = Text(justify="center")
        t.append("Partner\n", style="dim")
        t.append_text(at(2))
        t.append("\n\n" if spaced else "\n")
        if wide:
            t.append("Left ", style="dim")
        t.append_text(at(1))
        t.append(" " * (6 if wide else 4))
        t.append_text(at(3))
        if wide:
            t.append(" Right", style="dim")
        t.append("\n\n" if spaced else "\n")
        t.append_text(at(0))
        t.append("\nYou\n", style="dim")
        if spaced:
            t.append("\n")
        t.append(note, style="italic")
        return t

    @staticmethod
    def _blocks(state: State, slot: dict[int, int | None], note: str) -> Text:
        """Cards as 3-row blocks, for a table with room for them."""
        width = 8

        def block(off: int) -> list[Text]:
            c = slot[off]
            if c is None:
                return [Text(" " * width), Text("...".center(width), style="dim"), Text(" " * width)]
            style = card_style(state, c)
            name = state.cards.names[c] + (TRUMP_MARK if is_trump(state, c) else "")
            edge = Text(" " * width, style=style)
            return [edge, Text(name.center(width), style=style), edge.copy()]

        lines: list[Text] = [Text("Partner", style="dim"), *block(2), Text("")]
        left, right = block(1), block(3)
        for i in range(3):
            row = Text(" Left  " if i == 1 else " " * 7, style="dim")
            row.append_text(left[i])
            row.append(" " * 8)
            row.append_text(right[i])
            row.append("  Right" if i == 1 else " " * 7, style="dim")
            lines.append(row)
        lines += [Text(""), *block(0), Text("You", style="dim"), Text(""), Text(note, style="italic")]
        return Text("\n", justify="center").join(lines)


class SidePanel(Panel):
    """Scores to the target, the contract, points this hand and the auction so far."""

    def show(self, state: State, me: int) -> None:
        self._args = (state, me)
        self.refresh()

    def render(self) -> Text:
        if not hasattr(self, "_args"):
            return Text("")
        state, me = self._args
        v, us, them = state.variant, me % 2, 1 - me % 2
        playing = state.phase <= Phase.PLAY
        head: list[Text] = [Text(f"{v.name}, to {v.target}", style="bold")]
        score = Text(f"hand {state.hand_no + int(playing)}: ")
        score.append(f"us {state.scores[us]}", style="bold green")
        score.append(" / ")
        score.append(f"them {state.scores[them]}", style="bold red")
        head += [score, Text("")]
        if state.declarer >= 0:
            line = Text(f"{SEAT_NAMES[(state.declarer - me) % NUM_SEATS]} bid {state.bid}")
            if state.trump >= 0:
                line.append(" in ")
                line.append(f" {COLOURS[state.trump]} ", style=card_style_colour(state.trump))
            head.append(line)
        elif state.high_bid:
            head.append(Text(f"high bid {state.high_bid} ({SEAT_NAMES[(state.high_bidder - me) % NUM_SEATS]})"))
        else:
            head.append(Text("no bid yet"))
        head.append(Text(f"captured: us {state.captured[us]}, them {state.captured[them]}"))
        head.append(Text(f"tricks: us {state.tricks_won[us]}, them {state.tricks_won[them]}"))
        if state.results and not playing:
            head.append(Text("last hand: " + result_text(state.results[-1]).replace("player_", "p"), style="cyan"))
        auction = [Text(f" {seat_label(seat, me):<13}{state.layout.name(a)}") for seat, a in state.auction]
        lines = head
        if auction:
            room = max(1, self.content_size.height - len(head) - 2)
            shown = auction[-room:] if len(auction) > room else auction
            title = "Auction" if len(shown) == len(auction) else f"Auction ({len(auction) - len(shown)} earlier)"
            lines = [*head, Text(""), Text(title, style="bold"), *shown]
        return fit(lines, self.content_size.width)


class KeyLine(Panel):
    """The key line at the bottom: the long form when it fits, else the short one."""

    def __init__(self, long: Text, short: Text, **kwargs) -> None:
        super().__init__(long, **kwargs)
        self.long, self.short = long, short

    def set_keys(self, long: Text, short: Text) -> None:
        self.long, self.short = long, short
        self.refresh()

    def render(self) -> Text:
        return self.long if self.long.cell_len <= self.content_size.width else self.short


def card_style_colour(colour: int) -> str:
    fg, bg = CARD_STYLES[colour]
    return f"bold {fg} on {bg}"


__all__ = ["CardButton", "HandView", "KeyLine", "Panel", "SeatPanel", "SidePanel", "TrickView",
           "card_text", "grouped", "hand_line", "is_trump"]
