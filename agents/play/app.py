"""The Textual app: the table, the turn loop over a :class:`Game`, hints, save and replay.

The loop (:meth:`PlayApp.advance`) moves the computer players until the person is to move; it
waits whenever a screen is open above the table (a dialog, the summary, the rules, settings,
stats, the last trick), while a finished trick is held (the ``trick_pause`` setting), and
between AI moves (the ``speed`` setting); closing a screen starts it again.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Header

from crowsnest_env.rules import NUM_SEATS, HandResult, Phase, State

from . import history
from .dialogs import BidDialog, ConfirmScreen, DiscardDialog, GameDialog, LastTrickScreen, TrumpDialog
from .screens import RulesScreen, SettingsScreen, StatsScreen, SummaryScreen
from .session import Game, Replay, first_line, seat_label
from .settings import Settings, save_settings
from .styles import CSS
from .widgets import CardButton, HandView, KeyLine, Panel, SeatPanel, SidePanel, TrickView

KEYS_PLAY = (Text.from_markup(
    " [b]Left/Right[/] card  [b]Enter[/] play  [b]h[/] hint  [b]l[/] last trick  [b]r[/] rules  [b]s[/] settings"
    "  [b]t[/] stats  [b]n[/] new game  [b]w[/] save  [b]q[/] quit"), Text.from_markup(
    " [b]←→[/] card [b]⏎[/] play [b]h[/] hint [b]l[/] last [b]r[/] rules [b]s[/] settings [b]t[/] stats "
    "[b]n[/] new [b]w[/] save [b]q[/] quit"))
KEYS_REPLAY = (Text.from_markup(
    " [b]Right/Space[/] next move  [b]Left[/] back  [b]Home/End[/] start/end  [b]l[/] last trick  [b]r[/] rules"
    "  [b]q[/] quit"), Text.from_markup(" [b]→[/] next [b]←[/] back [b]Home/End[/] [b]l[/]ast trick [b]r[/]ules "
                                       "[b]q[/]uit"))


class PlayApp(App[None]):
    """CrowsNest at the table: you and an AI partner against two AI opponents."""

    TITLE = "CrowsNest"
    CSS = CSS
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (34, "-tall")]
    BINDINGS = [
        Binding("left", "focus_card(-1)", "Card", show=False),
        Binding("right", "focus_card(1)", "Card", show=False),
        Binding("space", "replay_step(1)", "Next", show=False),
        Binding("home", "replay_step(-1000000)", "Start", show=False),
        Binding("end", "replay_step(1000000)", "End", show=False),
        Binding("h", "hint", "Hint"),
        Binding("l", "last_trick", "Last trick"),
        Binding("r", "rules", "Rules"),
        Binding("s", "settings", "Settings"),
        Binding("t", "stats", "Stats"),
        Binding("n", "new_game", "New game"),
        Binding("w", "save", "Save game"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, settings: Settings | None = None, *, seed: int | None = None,
                 max_hands: int | None = None, autoplay: bool = False, screenshot: str | None = None,
                 save_path: str | None = None, persist: bool = True, replay: dict[str, Any] | None = None,
                 game: Game | None = None, notices: list[str] | None = None, server_pid: int | None = None):
        super().__init__()
        self.settings = settings or (game.settings if game is not None else Settings())
        self.seed, self.max_hands, self.autoplay = seed, max_hands, autoplay
        self.screenshot, self.save_path, self.persist = screenshot, save_path, persist
        self.game: Game | None = None
        self._first_game = game  # built and checked by the command line before the app starts
        self.notices = list(notices or [])
        self.server_pid = server_pid
        self.replay = Replay(replay, self.settings.seat) if replay is not None else None
        self._timer: Any = None
        self._hold: Any = None  # a finished trick held on screen: True (until a key) or its timer
        self._hold_text = ""
        self._done_text = ""
        self._pending: HandResult | None = None  # a scored hand whose summary is still to show
        self._failed = ""  # an agent failed mid-game: the loop stops, the table stays
        self.saved_games: list[Path] = []
        self.hint_text = ""

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="top"):
            with Vertical(id="table"):
                yield SeatPanel(id="north")
                with Horizontal(id="middle"):
                    yield SeatPanel(id="west")
                    yield TrickView(id="trick")
                    yield SeatPanel(id="east")
            yield SidePanel(id="side")
        yield Panel("", id="prompt")
        yield HandView(id="hand")
        # a plain key line: Textual's Footer rebuilds itself on every focus change (a third of a move's time)
        yield KeyLine(*(KEYS_PLAY if self.replay is None else KEYS_REPLAY), id="keys")

    def on_mount(self) -> None:
        for notice in self.notices:
            self.notify(notice, title="Settings", severity="warning", timeout=20)
        if self.server_pid is not None:
            self.set_interval(1.0, self._check_server)
        if self.replay is not None:
            self.sub_title = "replay: Right/Space next, Left back, Home/End"
            self.refresh_table()
            return
        self.call_after_refresh(self.new_game)

    def _check_server(self) -> None:
        """Served in the browser: end with the server (it owns this process; none should outlive it)."""
        try:
            os.kill(self.server_pid, 0)  # type: ignore[arg-type]
        except ProcessLookupError:
            self.exit()
        except PermissionError:
            pass

    # ------------------------------------------------------------------ game flow
    def new_game(self) -> None:
        self._stop_timers()
        while len(self.screen_stack) > 1:  # the old game's dialogs go with it
            self.pop_screen()
        self._pending, self._failed, self._done_text, self.hint_text = None, "", "", ""
        game, self._first_game = self._first_game, None
        if game is None:
            try:
                game = Game(self.settings, seed=self.seed, max_hands=self.max_hands, autoplay=self.autoplay)
            except (ValueError, TypeError) as exc:
                self.game = None
                self.push_screen(SettingsScreen(self.settings, error=f"error: {first_line(exc)}"),
                                 self._settings_done)
                return
        self.game = game
        v = game.variant
        self.sub_title = f"{v.name} - you are player_{game.me}, target {v.target}"
        self.refresh_table()
        self.advance()

    def on_unmount(self) -> None:
        """Closing: no AI move or held trick may fire on a torn-down table."""
        self._stop_timers()

    def _stop_timers(self) -> None:
        for t in (self._timer, self._hold):
            if t is not None and t is not True:
                t.stop()
        self._timer = self._hold = None

    def _busy(self) -> bool:
        """The loop waits: a screen above the table, a trick held, an AI move scheduled, a failure."""
        return len(self.screen_stack) > 1 or self._hold is not None or self._timer is not None or bool(self._failed)

    def advance(self) -> None:
        """Move the agents until it is the person's turn, a hand is scored, or the game ends."""
        game = self.game
        while game is not None and not self._busy():
            if self._pending is not None:
                result, self._pending = self._pending, None
                self._show_summary(result)
                return
            if game.done:
                self.refresh_table()
                self._finished()
                return
            if game.human_to_move():
                self.refresh_table()
                self._ask_person()
                return
            if self.settings.speed > 0 and not self.autoplay:
                self._timer = self.set_timer(self.settings.speed, self._agent_tick)
                return
            self._agent_move()
        self.refresh_table()

    def _agent_tick(self) -> None:
        self._timer = None
        if not self.screen_stack:  # the app is closing: a timer that fired late has no table to move
            return
        game = self.game
        if game is None or self._busy() or game.done or game.human_to_move():
            self.advance()  # a screen opened meanwhile: its closing starts the loop again
            return
        self._agent_move()
        self.refresh_table()
        self.advance()

    def _agent_move(self) -> None:
        game = self.game
        assert game is not None
        try:
            result = game.agent_step()
        except Exception as exc:  # noqa: BLE001 - a foreign agent's failure stops the game, not the app
            seat = game.table.to_move
            self._failed = f"{game.labels.get(seat, '?')} ({game.names.get(seat, '?')}) failed: {first_line(exc)}"
            self.notify(self._failed + "\nS: settings, N: new game", title="Error", severity="error", timeout=30)
            self.refresh_table()
            return
        self._after_move(result)

    def _after_move(self, result: HandResult | None) -> None:
        """A move was made: hints expire; a scored hand waits for its summary; a trick may be held."""
        self._clear_hint()
        if result is not None and not self.autoplay:
            self._pending = result
        game = self.game
        assert game is not None
        pause, trick = self.settings.trick_pause, game.last_trick
        if self.autoplay or pause == 0 or not game.trick_done or trick is None:
            return
        if result is None and game.human_to_move():
            return  # the person leads next: the trick stays until they play
        self._hold = True if pause is None else self.set_timer(pause, self._release_trick)
        self._hold_text = (f"Trick {trick.number} won by {seat_label(trick.winner, game.me)}: any key goes on"
                           + ("" if pause is None else f" (or wait {pause:g} s)"))
        self.refresh_table()

    def _release_trick(self) -> None:
        if self._hold is not None and self.screen_stack:
            if self._hold is not True:
                self._hold.stop()
            self._hold = None
            self.advance()

    def on_key(self, event: Any) -> None:
        if self._hold is not None and len(self.screen_stack) == 1:
            event.stop()
            event.prevent_default()
            self._release_trick()

    def _show_summary(self, result: HandResult) -> None:
        game = self.game
        assert game is not None
        self.refresh_table()
        winner = game.state.winner if game.state.phase is Phase.GAME_OVER else None
        self._open(SummaryScreen(game.state, result, game.scored_nest, game.me, list(game.state.results), winner),
                   lambda _: self.advance())

    def _finished(self) -> None:
        game = self.game
        assert game is not None
        st = game.state
        if self.save_path:
            game.save(self.save_path)
        if game.finished and not self.autoplay and self.settings.keep_games and game.kept is None:
            try:
                game.kept = history.save_game(game.record())
            except OSError as exc:
                game.kept = False
                self.notify(f"could not keep the game in your record: {exc}", severity="error")
            else:
                self.saved_games.append(game.kept)
        kept = "  Kept in your record (T: stats)." if game.kept else ""
        if st.phase is Phase.GAME_OVER:
            who = "You win" if st.winner == game.me % 2 else "They win"
            self._done_text = f"{who} {max(st.scores)}-{min(st.scores)}.{kept}  N: new game"
        else:
            hands = f"{st.hand_no} hand" + ("s" if st.hand_no != 1 else "")
            self._done_text = f"Done after {hands}.{kept}  N: new game"
        self.refresh_table()
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
            self.call_after_refresh(self._focus_a_card)

    def _focus_a_card(self) -> None:
        """The person's card play: a legal card has the focus (also after a dialog has closed)."""
        buttons = self.query_one(HandView).legal_buttons()
        if buttons and self.focused not in buttons and len(self.screen_stack) == 1:
            buttons[0].focus()

    def _open(self, screen: Any, callback: Any) -> None:
        game = self.game

        def answer(result: Any) -> None:  # a dialog of a game that has been replaced answers nothing
            if self.game is game:
                callback(result)

        self.push_screen(screen, answer)

    def _do_action(self, action: int | None) -> None:
        game = self.game
        if game is None or action is None or not game.human_to_move():
            self.advance()
            return
        result = game.step(action)
        self._after_move(result)
        self.refresh_table()
        self.advance()

    def _do_discards(self, cards: list[int] | None) -> None:
        game = self.game
        assert game is not None and cards
        for c in cards[:-1]:
            game.step(game.state.layout.discard_offset + c)
        self._do_action(game.state.layout.discard_offset + cards[-1])

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if isinstance(event.button, CardButton) and self.game is not None and self.game.human_to_move() \
                and self.game.state.phase is Phase.PLAY and not self._busy():
            self._do_action(self.game.state.layout.play_offset + event.button.card)

    # ------------------------------------------------------------------ display
    def shown_state(self) -> tuple[State, int]:
        if self.replay is not None:
            return self.replay.state, self.replay.me
        assert self.game is not None
        return self.game.state, self.game.me

    def refresh_table(self) -> None:
        if self.replay is None and self.game is None:
            return
        state, me = self.shown_state()
        reveal = self.replay is not None
        names = self._seat_names()
        for wid, off in (("#north", 2), ("#west", 1), ("#east", 3)):
            seat = (me + off) % NUM_SEATS
            self.query_one(wid, SeatPanel).show(state, seat, me, names[seat], reveal)
        self.query_one(TrickView).show(state, me, self.game.last_trick if self.game is not None else None)
        self.query_one(SidePanel).show(state, me)
        legal_cards = 0
        if self.game is not None and self.game.human_to_move() and state.phase is Phase.PLAY:
            legal_cards = state.legal_mask() >> state.layout.play_offset
        self.query_one(HandView).show(state, state.hands[me], legal_cards)
        self.query_one("#prompt", Panel).update(self._prompt(state, me))

    def _prompt(self, state: State, me: int) -> Text:
        """The status line: what the person most needs to know now."""
        game = self.game
        if self.replay is not None:
            return Text(self._replay_line())
        if self._failed:
            return Text(self._failed, style="bold red")
        if self._hold is not None:
            return Text(self._hold_text, style="bold")
        if self.hint_text:
            return Text(self.hint_text, style="bold cyan")
        if game is None:
            return Text("")
        if game.done:
            return Text(self._done_text, style="bold")
        if game.human_to_move() and state.phase is Phase.PLAY:
            return Text("Your turn: click a card, or Left/Right and Enter", style="bold")
        return Text(self.move_line(game.last, state, me, reveal=False), style="bold")

    @staticmethod
    def move_line(last: tuple[int, int] | None, state: State, me: int, reveal: bool) -> str:
        """The last move as the person may see it: another seat's discard into the nest is hidden
        (only the declarer knows the nest), unless everything is shown (a replay)."""
        if last is None:
            return ""
        seat, action = last
        lay = state.layout
        if not reveal and seat != me and lay.discard_offset <= action < lay.discard_offset + state.cards.deck_size:
            return f"{seat_label(seat, me)}: a card into the nest"
        return f"{seat_label(seat, me)}: {lay.name(action)}"

    def _seat_names(self) -> list[str]:
        if self.game is None:
            return ["replay"] * NUM_SEATS
        game, me = self.game, self.game.me
        return [("you" if i == me and not self.autoplay else game.labels[i]) for i in range(NUM_SEATS)]

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
        text = f"Hint ({hint.agent}): {lay.name(hint.action)}"
        if hint.values:
            best = sorted(hint.values.items(), key=lambda kv: -kv[1])
            text += "  (expected score difference: " + ", ".join(
                f"{st.cards.names[a - lay.play_offset]} {v:+.1f}" for a, v in best) + ")"
        if isinstance(self.screen, GameDialog):
            self.screen.show_hint(text, hint.action)
            return
        self.hint_text = text
        for b in self.query(CardButton):
            b.set_class(lay.play_offset + b.card == hint.action, "hinted")
        self.query_one("#prompt", Panel).update(Text(text, style="bold cyan"))

    def _clear_hint(self) -> None:
        """A hint is for one move: after any move it goes (text and marked card)."""
        self.hint_text = ""
        if not self.screen_stack:
            return
        for b in self.screen_stack[0].query(CardButton):
            b.remove_class("hinted")

    def action_last_trick(self) -> None:
        if self.replay is not None:
            st = self.replay.state
            from .session import Trick

            trick = None
            if st.tricks:
                leader, winner, cards = st.tricks[-1]
                trick = Trick(st.hand_no, len(st.tricks), leader, tuple(cards), winner)
            self.push_screen(LastTrickScreen(st, trick, self.replay.me))
            return
        if self.game is not None:
            self.push_screen(LastTrickScreen(self.game.state, self.game.last_trick, self.game.me),
                             lambda _: self.advance())

    def action_rules(self) -> None:
        if self.replay is None and self.game is None:
            return
        state, _ = self.shown_state()
        self.push_screen(RulesScreen(state.variant), lambda _: self.advance())

    def action_stats(self) -> None:
        games, problems = history.load_games()
        rows = history.stats(games)
        self.push_screen(StatsScreen(rows, str(history.games_dir()), problems, self.settings.keep_games),
                         lambda _: self.advance())

    def action_settings(self) -> None:
        if self.replay is None:
            self.push_screen(SettingsScreen(self.settings), self._settings_done)

    def _settings_done(self, settings: Settings | None) -> None:
        if settings is None:
            self.advance()  # cancelled: the game goes on where it was
            return
        self.settings = settings
        if self.persist:
            save_settings(settings)
        self.call_after_refresh(self.new_game)  # once the settings screen has gone

    def action_new_game(self) -> None:
        if self.replay is not None:
            return
        game = self.game
        if game is not None and not game.done and game.table.record()["actions"]:
            self.push_screen(ConfirmScreen("Start a new game? This one is not finished and is not kept."),
                             self._new_game_answer)
            return
        self._new_game_answer(True)

    def _new_game_answer(self, yes: bool | None) -> None:
        if yes:
            self.seed = None
            self.call_after_refresh(self.new_game)
        else:
            self.advance()

    def action_save(self) -> None:
        if self.game is None:
            return
        name = f"crowsnest-{time.strftime('%Y%m%d-%H%M%S')}.json"
        if self.is_web:  # the browser downloads it; nothing is written in the server's folder
            self.deliver_text(io.StringIO(self.game.record_json()), save_filename=Path(self.save_path or name).name,
                              mime_type="application/json")
            self.notify(f"game record sent to your browser as {Path(self.save_path or name).name}")
            return
        path = self.save_path or name
        self.game.save(path)
        self.notify(f"game saved to {path} (replay: crowsnest-play --replay {path})")

    # ------------------------------------------------------------------ replay
    def _replay_line(self) -> str:
        rp = self.replay
        assert rp is not None
        moved = self.move_line(rp.last, rp.state, rp.me, reveal=True) or "start"
        return f"move {rp.pos}/{len(rp.actions)}  {moved}"

    def action_replay_step(self, step: int) -> None:
        self._replay_to(step)

    def _replay_to(self, step: int) -> None:
        if self.replay is not None:
            self.replay.seek(self.replay.pos + step)
            self.refresh_table()
