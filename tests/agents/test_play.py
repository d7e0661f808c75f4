"""The play app, driven through its own widgets and keys with Textual's pilot (headless)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator

import pytest

from agents.play.app import PlayApp
from agents.play.dialogs import BidDialog, DiscardDialog, TrumpDialog
from agents.play.screens import SettingsScreen, SummaryScreen
from agents.play.settings import Settings
from agents.play.widgets import HandView
from crowsnest_env.rules import VARIANTS, Phase

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # the record of finished games


def make_app(variant: str = "crowsnest", crow: bool = True, seed: int = 1, max_hands: int = 1, **settings) -> PlayApp:
    settings = Settings(variant=variant, crow=crow, seat=0, **{"speed": 0, **settings})
    return PlayApp(settings, seed=seed, max_hands=max_hands, persist=False)


def ticks(seconds: float = 60.0) -> Iterator[None]:
    """Wait loops run by wall clock, not by a count of pauses: on a loaded CI machine (both cores
    busy) the app's timers fire late, and a fixed count of 10 ms pauses ran out (a flaky test)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        yield


async def started(app: PlayApp, pilot) -> None:
    """Wait for the app's first game (built once the first frame is on screen)."""
    for _ in ticks():
        if app.game is not None:
            return
        await pilot.pause(0.01)
    raise AssertionError("the app never started a game")


async def play_turn(app: PlayApp, pilot) -> str:
    """Make the person's move with the UI's own controls; what kind of move it was."""
    await started(app, pilot)
    screen = app.screen
    for _ in ticks(30):  # a dialog just pushed may not have composed and laid out its buttons yet
        if screen is app.screen_stack[0] or any(b.region.area for b in screen.query("Button")):
            break
        await pilot.pause(0.01)
    if isinstance(screen, BidDialog):
        bids = [b for b in screen.query("Button.bid") if b.id != "pass"]
        await pilot.click(f"#{bids[-1].id}")  # the top bid ends the auction: we declare
        return "bid"
    if isinstance(screen, DiscardDialog):
        for button in list(screen.query("CardButton"))[: screen.count]:
            for _ in range(10):  # on a loaded machine a click can land before the layout settles
                await pilot.click(f"#{button.id}")
                await pilot.pause()
                if button.card in screen.chosen:
                    break
        assert len(screen.chosen) == screen.count, "the dialog took the chosen cards"
        for _ in range(10):
            await pilot.click("#confirm")
            await pilot.pause()
            if app.screen is not screen:
                break
        return "discard"
    if isinstance(screen, TrumpDialog):
        await pilot.press("r")
        return "trump"
    if isinstance(screen, SummaryScreen):
        await pilot.press("enter")
        return "summary"
    hand = app.query_one(HandView)
    assert hand.legal_buttons(), "the person's turn shows legal cards"
    assert app.focused in hand.legal_buttons(), "the first legal card has the focus"
    await pilot.press("enter")  # play the focused (first legal) card
    return "play"


async def play_hand(app: PlayApp, pilot) -> list[str]:
    moves: list[str] = []
    await started(app, pilot)
    for _ in range(60):
        if app.game.done and not isinstance(app.screen, SummaryScreen):
            break
        moves.append(await play_turn(app, pilot))
        if len(moves) > 40:
            raise AssertionError(f"the hand does not end: {moves[-5:]}, screen {app.screen}, "
                                 f"phase {app.game.state.phase.name}, to move {app.game.table.to_move}")
    return moves


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_whole_hand_through_the_ui(variant):
    """Every variant; the no-Crow options differ only in numbers the dialogs read from the Variant
    (nest size, bids), and a hand of crowsnest_nocrow is played in the settings test below."""
    asyncio.run(_whole_hand(variant, True))


async def _whole_hand(variant, crow):
    app = make_app(variant, crow)
    async with app.run_test(size=SIZE) as pilot:
        moves = await play_hand(app, pilot)
        st = app.game.state
        v = st.variant
        assert len(st.results) == 1
        r = st.results[0]
        if r.declarer == 0:  # we bid the top: the auction ended on our bid
            assert r.bid == v.max_bid
            assert ("discard" in moves) == v.has_nest and "trump" in moves
        assert moves.count("play") == v.hand_size
        assert moves[-1] == "summary"
        split = r.tricks[0] == r.tricks[1]  # an even split of tricks awards no trick bonus
        assert sum(r.points) == v.total_points - (v.trick_bonus if split else 0)
        assert "Done" in str(app.query_one("#prompt").render())


def test_left_right_move_among_legal_cards_only():
    async def run():
        app = make_app("crowsnest", seed=1)
        async with app.run_test(size=SIZE) as pilot:
            await started(app, pilot)
            while app.game.state.phase is not Phase.PLAY or len(app.query_one(HandView).legal_buttons()) < 2:
                await play_turn(app, pilot)
                await pilot.pause()
            hand = app.query_one(HandView)
            legal = hand.legal_buttons()
            disabled = [b for b in hand.query("CardButton") if b.disabled]
            assert app.focused is legal[0]
            await pilot.press("right")
            assert app.focused is legal[1]
            await pilot.press("left", "left")
            assert app.focused is legal[-1]  # wraps round, skipping the illegal cards
            assert all(b not in legal for b in disabled)
            before = app.game.state.hands[0]
            await pilot.click(f"#{disabled[0].id}") if disabled else None
            assert app.game.state.hands[0] == before  # an illegal card cannot be played
            await pilot.click(f"#{legal[-1].id}")
            assert not app.game.state.hands[0] >> legal[-1].card & 1  # clicking a legal card plays it

    asyncio.run(run())


def test_settings_are_chosen_in_the_ui_saved_and_reloaded(tmp_path):
    from agents.play.settings import load_settings, settings_path

    async def run():
        app = make_app(seed=2)
        app.persist = True
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("s")
            await pilot.pause()
            assert isinstance(app.screen, SettingsScreen)
            await pilot.click("#variant")
            await pilot.press("down", "enter")  # the list: crowsnest, its no-Crow option, tournament, ...
            await pilot.click("#partner")
            await pilot.press("end", *["backspace"] * 20, *"nonsense")
            await pilot.click("#save")
            assert "unknown agent 'nonsense'" in str(app.screen.query_one("#error").render())
            await pilot.click("#partner")
            await pilot.press("end", *["backspace"] * 8, *"random")
            await pilot.click("#save")
            await pilot.pause()
            assert not isinstance(app.screen, SettingsScreen)
            assert app.game.variant.name == "crowsnest_nocrow" and app.game.settings.partner == "random"
            await play_hand(app, pilot)  # the 40-card option through the UI: nest of 4, bids up to 100
            result = app.game.state.results[0]
            assert sum(result.points) == 100 and result.discards.bit_count() == 4
    asyncio.run(run())
    assert settings_path() == tmp_path / "config" / "crowsnest" / "settings.json"
    saved = json.loads(settings_path().read_text())
    assert saved["variant"] == "crowsnest" and saved["crow"] is False and saved["partner"] == "random"
    assert load_settings() == Settings(variant="crowsnest", crow=False, partner="random", speed=0)


def test_a_damaged_settings_file_gives_defaults_and_says_what_was_wrong(tmp_path):
    from agents.play.settings import read_settings, save_settings, settings_path

    save_settings(Settings(variant="dixie", seat=2))
    assert read_settings() == (Settings(variant="dixie", seat=2), [])
    settings_path().write_text("{not json")
    settings, problems = read_settings()
    assert settings == Settings() and "cannot be read" in problems[0]
    settings_path().write_text(json.dumps({"variant": "partnership", "crow": False, "seat": 7, "level": "insane",
                                           "speed": 0.3, "trick_pause": None}))
    settings, problems = read_settings()  # each bad value replaced by its default, the good ones kept
    assert settings == Settings(variant="partnership", speed=0.3, trick_pause=None)
    assert [p.split("=")[0] for p in problems] == ["saved setting crow", "saved setting seat", "saved setting level"]
    assert "unknown level 'insane'" in problems[2]


def test_replay_steps_through_a_saved_game_card_by_card(tmp_path):
    from agents.play.session import Game, load_record
    from crowsnest_env import replay

    game = Game(Settings(variant="tournament", speed=0), seed=5, max_hands=1, autoplay=True)
    while not game.done:
        game.agent_step()
    path = tmp_path / "game.json"
    game.save(str(path))
    record = load_record(str(path))
    n = len(record["actions"])

    async def run():
        app = PlayApp(Settings(), replay=record, persist=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert "move 0/" in str(app.query_one("#prompt").render())
            await pilot.press("right", "right", "space")
            assert app.replay.pos == 3
            assert app.replay.state == replay({**record, "actions": record["actions"][:3]})
            assert f"move 3/{n}" in str(app.query_one("#prompt").render())
            await pilot.press("left")
            assert app.replay.pos == 2
            await pilot.press("end")
            assert app.replay.state == game.state  # the replay ends where the game ended
            assert "trick" in str(app.query_one("#trick").render())

    asyncio.run(run())


def test_hint_shows_pimc_values_for_every_legal_card():
    from agents.play.session import Game

    game = Game(Settings(partner="pimc?samples=2,nodes=200", opponents="heuristic"), seed=4, max_hands=1)
    while not (game.human_to_move() and game.state.phase is Phase.PLAY and len(game.legal()) > 1):
        if game.human_to_move():
            game.step(game.legal()[0] if game.state.phase is not Phase.AUCTION else 0)
        else:
            game.agent_step()
    before = game.record()
    hint = game.hint()
    assert hint.action in game.legal()
    assert set(hint.values) == set(game.legal())
    assert hint.values[hint.action] == max(hint.values.values())
    assert game.record() == before  # asking for a hint changes nothing in the game


def test_pimc_explain_is_the_decision_act_takes():
    from agents.pimc import PIMCAgent
    from crowsnest_env.table import Table

    table = Table("crowsnest")
    table.reset(7)
    checked = 0
    while not table.done and checked < 6:
        view = table.view()
        a = PIMCAgent(seed=1, samples=2, nodes=200).act(view)
        b, values = PIMCAgent(seed=1, samples=2, nodes=200).explain(view)
        assert a == b
        if values:
            assert b in values and set(values) <= set(view.legal_actions())
            checked += 1
        table.step(a)
    assert checked
