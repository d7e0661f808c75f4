"""The Textual app: the table, the turn loop over a :class:`Game`, hints, save and replay."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header, Static

from crowsnest_env.rules import NUM_SEATS, HandResult, Phase, State

from .screens import BidDialog, DiscardDialog, RulesScreen, SettingsScreen, SummaryScreen, TrumpDialog
from .session import Game, Replay, seat_label
from .settings import Settings, save_settings
from .styles import CSS
from .widgets import CardButton, HandView, Panel, SeatPanel, SidePanel, TrickView

KEYS_PLAY = Text.from_markup(
    " [b]Left/Right[/] card  [b]Enter[/] play  [b]h[/] hint  [b]r[/] rules  [b]s[/] settings  "
    "[b]n[/] new game  [b]w[/] save  [b]q[/] quit")
KEYS_REPLAY = Text.from_markup(
    " [b]Right/Space[/] next move  [b]Left[/] back  [b]Home/End[/] start/end  [b]r[/] rules  [b]q[/] quit")


class PlayApp(App[None]):
    """CrowsNest at the table: you and an AI partner against two AI opponents."""

    TITLE = "CrowsNest"
    CSS = CSS
    BINDINGS = [
        Binding("left", "focus_card(-1)", "Card", show=False),
        Binding("right", "focus_card(1)", "Card", show=False),
        Binding("space", "replay_step(1)", "Next", show=False),
        Binding("home", "replay_step(-1000000)", "Start", show=False),
        Binding("end", "replay_step(1000000)", "End", show=False),
        Binding("h", "hint", "Hint"),
        Binding("r", "rules", "Rules"),
        Binding("s", "settings", "Settings"),
        Binding("n", "new_game", "New game"),
        Binding("w", "save", "Save game"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, settings: Settings | None = None, *, seed: int | None = None,
                 max_hands: int | None = None, autoplay: bool = False, screenshot: str | None = None,
                 save_path: str | None = None, persist: bool = True, replay: dict[str, Any] | None = None):
        super().__init__()
        self.settings = settings or Settings()
        self.seed, self.max_hands, self.autoplay = seed, max_hands, autoplay
        self.screenshot, self.save_path, self.persist = screenshot, save_path, persist
        self.game: Game | None = None
        self.replay = Replay(replay, self.settings.seat) if replay is not None else None
        self._waiting = False  # a dialog or summary is open for the person
        self._timer: Any = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            with Vertical(id="table"):
                yield SeatPanel(id="north")
                with Horizontal(id="middle"):
                    yield SeatPanel(id="west")
                    yield TrickView(id="trick")
                    yield SeatPanel(id="east")
                yield Panel("", id="prompt")
                yield HandView(id="hand")
            yield SidePanel(id="side")
        # a plain key line: Textual's Footer rebuilds itself on every focus change (a third of a move's time)
        yield Static(KEYS_PLAY if self.replay is None else KEYS_REPLAY, id="keys")

    def on_mount(self) -> None:
        if self.replay is not None:
            self.sub_title = "replay: Right/Space next, Left back, Home/End"
            self.refresh_table()
            return
        self.call_after_refresh(self.new_game)

    # ------------------------------------------------------------------ game flow
    def new_game(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        while len(self.screen_stack) > 1:  # the old game's dialogs go with it
            self.pop_screen()
        self._waiting = False
        try:
            self.game = Game(self.settings, seed=self.seed, max_hands=self.max_hands, autoplay=self.autoplay)
        except (ValueError, TypeError) as exc:
            self.game = None
            self.push_screen(SettingsScreen(self.settings, error=f"error: {exc}"), self._settings_done)
            return
        v = self.game.variant
        self.sub_title = f"{v.name} - you are player_{self.game.me}, target {v.target}"
        self.refresh_table()
        self.advance()

    def advance(self) -> None:
        """Move the agents until it is the person's turn, a hand is scored, or the game ends."""
        game = self.game
        if game is None or self._waiting:
            return
        while not game.done and not game.human_to_move():
            if self.settings.speed > 0 and not self.autoplay:
                self._timer = self.set_timer(self.settings.speed, self._agent_tick)
                return
            result = game.agent_step()
            if result is not None and self._hand_scored(result):
                return
        self.refresh_table()
        if game.done:
            self._finished()
        else:
            self._ask_person()

    def _agent_tick(self) -> None:
        self._timer = None
        game = self.game
        if game is None or game.done or game.human_to_move():
            return
        result = game.agent_step()
        self.refresh_table()
        if result is None or not self._hand_scored(result):
            self.advance()

    def _hand_scored(self, result: HandResult) -> bool:
        """Show the summary (not in autoplay); True when the loop must wait for it."""
        game = self.game
        assert game is not None
        if self.autoplay:
            return False
        self.refresh_table()
        winner = game.state.winner if game.state.phase is Phase.GAME_OVER else None
        self._open(SummaryScreen(game.state, result, game.scored_nest, game.me, list(game.state.results), winner),
                   self._summary_done)
        return True

    def _summary_done(self, _: None) -> None:
        self._waiting = False
        self.advance()

    def _finished(self) -> None:
        game = self.game
        assert game is not None
        st = game.state
        if self.save_path:
            game.save(self.save_path)
        if st.phase is Phase.GAME_OVER:
            who = "You win" if st.winner == game.me % 2 else "They win"
            self.query_one("#prompt", Panel).update(f"{who} {max(st.scores)}-{min(st.scores)}.  N: new game")
        else:
            self.query_one("#prompt", Panel).update("Done. N: new game")
        if self.autoplay:
            self.set_timer(0.2, self._shoot_and_exit)  # after the final table has been laid out

    def _shoot_and_exit(self) -> None:
        if self.screenshot:
            path = Path(self.screenshot)
            self.save_screenshot(path.name, str(path.parent.resolve()))
        self.exit()

    def _ask_person(self) -> None:
        game = self.game
        assert game is not None
        st = game.state
        if st.phase is Phase.AUCTION:
            self._open(BidDialog(st, game.legal()), self._do_action)
        elif st.phase is Phase.DISCARD:
            hand = st.hands[game.me]
            self._open(DiscardDialog(st, hand, game.deal_nest, st.variant.nest_size), self._do_discards)
        elif st.phase is Phase.TRUMP:
            self._open(TrumpDialog(st, st.hands[game.me]), lambda c: self._do_action(st.layout.trump_offset + c))
        else:
            self.query_one("#prompt", Panel).update("Your turn: click a card, or Left/Right and Enter")


    def _open(self, screen: Any, callback: Any) -> None:
        self._waiting = True
        game = self.game

        def answer(result: Any) -> None:  # a dialog of a game that has been replaced answers nothing
            if self.game is game:
                callback(result)

        self.push_screen(screen, answer)

    def _do_action(self, action: int | None) -> None:
        self._waiting = False
        game = self.game
        if game is None or action is None or not game.human_to_move():
            return
        result = game.step(action)
        self.refresh_table()
        if result is None or not self._hand_scored(result):
            self.advance()

    def _do_discards(self, cards: list[int] | None) -> None:
        game = self.game
        assert game is not None and cards
        for c in cards[:-1]:
            game.step(game.state.layout.discard_offset + c)
        self._do_action(game.state.layout.discard_offset + cards[-1])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, CardButton) and self.game is not None and self.game.human_to_move() \
                and self.game.state.phase is Phase.PLAY and not self._waiting:
            self._do_action(self.game.state.layout.play_offset + event.button.card)

    # ------------------------------------------------------------------ display
    def shown_state(self) -> tuple[State, int]:
        if self.replay is not None:
            return self.replay.state, self.replay.me
        assert self.game is not None
        return self.game.state, self.game.me

    def refresh_table(self) -> None:
        state, me = self.shown_state()
        reveal = self.replay is not None
        names = self._agent_names()
        for wid, off in (("#north", 2), ("#west", 1), ("#east", 3)):
            seat = (me + off) % NUM_SEATS
            self.query_one(wid, SeatPanel).show(state, seat, me, names[seat], reveal)
        self.query_one(TrickView).show(state, me)
        self.query_one(SidePanel).show(state, me)
        legal_cards = 0
        if self.game is not None and self.game.human_to_move() and state.phase is Phase.PLAY:
            legal_cards = state.legal_mask() >> state.layout.play_offset
        self.query_one(HandView).show(state, state.hands[me], legal_cards)
        prompt = self.query_one("#prompt", Panel)
        if self.replay is not None:
            prompt.update(self._replay_line())
        elif self.game is not None and not self.game.human_to_move() and not self.game.done:
            last = self.game.last
            prompt.update(Text(f"{seat_label(last[0], me)}: {state.layout.name(last[1])}" if last else "",
                               style="bold"))

    def _agent_names(self) -> list[str]:
        if self.game is None:
            return ["replay"] * NUM_SEATS
        s, me = self.settings, self.game.me
        return [("partner's agent: " if self.autoplay and i == me else "") + (
            "you" if i == me and not self.autoplay else s.partner if i % 2 == me % 2 else s.opponents)
            for i in range(NUM_SEATS)]

    # ------------------------------------------------------------------ actions
    def action_focus_card(self, step: int) -> None:
        if self.replay is not None:
            self._replay_to(step)
            return
        buttons = self.query_one(HandView).legal_buttons()
        if not buttons:
            return
        focused = self.focused
        i = buttons.index(focused) if focused in buttons else (-1 if step > 0 else 0)
        buttons[(i + step) % len(buttons)].focus()

    def action_hint(self) -> None:
        game = self.game
        if game is None or not game.human_to_move():
            self.notify("A hint is for your turn.")
            return
        hint = game.hint()
        lay, st = game.state.layout, game.state
        text = f"{hint.agent} would: {lay.name(hint.action)}"
        if hint.values:
            best = sorted(hint.values.items(), key=lambda kv: -kv[1])
            text += "\nexpected score difference per card: " + ", ".join(
                f"{st.cards.names[a - lay.play_offset]} {v:+.1f}" for a, v in best)
        for b in self.query(CardButton):
            b.set_class(lay.play_offset + b.card == hint.action, "hinted")
        self.notify(text, title="Hint", timeout=8)

    def action_rules(self) -> None:
        state, _ = self.shown_state()
        self.push_screen(RulesScreen(state.variant))

    def action_settings(self) -> None:
        if self.replay is None:
            self.push_screen(SettingsScreen(self.settings), self._settings_done)

    def _settings_done(self, settings: Settings | None) -> None:
        if settings is None:
            return
        self.settings = settings
        if self.persist:
            save_settings(settings)
        self.call_after_refresh(self.new_game)  # once the settings screen has gone

    def action_new_game(self) -> None:
        if self.replay is None:
            self.seed = None
            self.new_game()

    def action_save(self) -> None:
        if self.game is None:
            return
        path = self.save_path or f"crowsnest-{time.strftime('%Y%m%d-%H%M%S')}.json"
        self.game.save(path)
        self.notify(f"game saved to {path} (replay: crowsnest-play --replay {path})")

    # ------------------------------------------------------------------ replay
    def _replay_line(self) -> str:
        rp = self.replay
        assert rp is not None
        last = rp.last
        moved = f"{seat_label(last[0], rp.me)}: {rp.state.layout.name(last[1])}" if last else "start"
        return f"move {rp.pos}/{len(rp.actions)}  {moved}"

    def action_replay_step(self, step: int) -> None:
        self._replay_to(step)

    def _replay_to(self, step: int) -> None:
        if self.replay is not None:
            self.replay.seek(self.replay.pos + step)
            self.refresh_table()
