"""Issue 17's bugs in the play app, each driven through the app with Textual's pilot (headless).

Each test names the bug it holds fixed; the 80x24 layout is also a snapshot (test_play_snapshots.py)
and the browser's abrupt disconnect is test_play_browser.py (opt-in: -m browser).
"""

from __future__ import annotations

import asyncio
import io
import json
import time

import pytest

from agents.play.app import PlayApp
from agents.play.dialogs import BidDialog, ConfirmScreen, DiscardDialog, LastTrickScreen
from agents.play.screens import RulesScreen, SettingsScreen, SummaryScreen
from agents.play.session import Game, load_record
from agents.play.settings import Settings
from agents.play.widgets import CardButton, HandView
from crowsnest_env import replay
from crowsnest_env.rules import Phase
from tests.agents.test_play import make_app, play_turn, started, ticks


@pytest.fixture(autouse=True)
def _folders_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


async def until(pilot, condition, what: str, seconds: float = 60.0, delay: float = 0.01) -> None:
    """Wait for ``condition`` by wall clock, not by a count of pauses: a loaded CI machine (both
    cores busy) runs the app's timers late, and a fixed number of 10 ms pauses then ran out."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        await pilot.pause(delay)
    if condition():
        return
    raise AssertionError(f"timed out waiting for {what}")


async def to_my_card_play(app, pilot, min_trick: int = 0) -> None:
    """Play (bidding the top) until it is the person's turn to play a card in trick >= min_trick."""
    await started(app, pilot)
    for _ in ticks():
        g = app.game
        if g.state.phase is Phase.PLAY and g.human_to_move() and g.state.trick_no >= min_trick \
                and len(app.screen_stack) == 1 and app.query_one(HandView).legal_buttons():
            return
        if g.human_to_move() or len(app.screen_stack) > 1:
            await play_turn(app, pilot)
        await pilot.pause(0.02)
    raise AssertionError("never reached the person's card play")


def text_rows(widget) -> list[tuple[int, str]]:
    """(screen row, text) of each line a widget shows."""
    region = widget.region
    lines = widget.render_lines(region.reset_offset)
    return [(region.y + i, "".join(seg.text for seg in line)) for i, line in enumerate(lines)]


# ---------------------------------------------------------------------------------------- 1
def test_bug1_replay_of_a_game_of_several_hands(tmp_path):
    """--replay of any record of two or more hands ended in 'record has 1 deal(s) that its actions
    never reach': each earlier position is now replay(record, upto=n)."""
    game = Game(Settings(variant="crowsnest", speed=0), seed=5, max_hands=2, autoplay=True)
    while not game.done:
        game.agent_step()
    path = tmp_path / "two.json"
    game.save(str(path))
    record = load_record(str(path))
    first_hand_end = next(n for n in range(len(record["actions"]) + 1) if replay(record, upto=n).hand_no == 1)

    async def run():
        app = PlayApp(Settings(), replay=record, persist=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            assert app.replay.state.hand_no == 0
            await pilot.press("end")
            assert app.replay.state == game.state
            app.replay.seek(first_hand_end)
            await pilot.press("left", "right", "right")  # across the boundary between the two hands
            assert app.replay.pos == first_hand_end + 1 and app.replay.state.hand_no == 1
            assert f"move {first_hand_end + 1}/" in str(app.query_one("#prompt").render())

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 2
def test_bug2_other_seats_discards_never_show():
    """The status line printed every discard into the nest ('Left (p1): discard R13'), the
    partner's too; now it says only that a card went into the nest."""
    async def run():
        app = make_app(seed=3, speed=0.01)
        shown: list[str] = []
        async with app.run_test(size=(100, 30)) as pilot:
            prompt = app.query_one("#prompt")
            update = prompt.update
            prompt.update = lambda text: (shown.append(str(text)), update(text))[1]
            await started(app, pilot)
            for _ in ticks():  # the person passes every bid: an AI declares and discards
                g = app.game
                if g.state.phase is Phase.PLAY:
                    break
                if isinstance(app.screen, BidDialog):
                    await pilot.press("p")
                await pilot.pause(0.02)
            g = app.game
            assert g.state.phase is Phase.PLAY and g.state.declarer != g.me
            declarer = g.state.declarer
        lay = g.state.layout
        discards = [a for seat, a in zip(_movers(g), g.table.record()["actions"])
                    if seat == declarer and lay.discard_offset <= a < lay.discard_offset + g.state.cards.deck_size]
        assert len(discards) == g.variant.nest_size
        nest_lines = [t for t in shown if "into the nest" in t]
        assert nest_lines, "the declarer's discards were announced"
        assert not any("discard" in t for t in shown), [t for t in shown if "discard" in t]

    asyncio.run(run())


def _movers(game) -> list[int]:
    """The seat of each action of the game so far (from the record, replayed)."""
    rec = game.table.record()
    return [replay(rec, upto=i).to_move for i in range(len(rec["actions"]))]


def test_bug2_the_move_line_hides_only_what_the_person_may_not_know():
    g = Game(Settings(speed=0), seed=1)
    lay = g.state.layout
    discard = lay.discard_offset + 3
    assert PlayApp.move_line((1, discard), g.state, 0, reveal=False) == "Left (p1): a card into the nest"
    assert PlayApp.move_line((2, discard), g.state, 0, reveal=False) == "Partner (p2): a card into the nest"
    assert PlayApp.move_line((0, discard), g.state, 0, reveal=False) == f"You (p0): {lay.name(discard)}"
    assert PlayApp.move_line((1, discard), g.state, 0, reveal=True) == f"Left (p1): {lay.name(discard)}"  # replay


# ---------------------------------------------------------------------------------------- 3
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_bug3_small_terminals_show_the_whole_table(size):
    """80x24 was unusable (half the hand, the Pass button and the summary off-screen; at 120x36
    the hand was still clipped): every card, button and the summary's Continue are on screen."""
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            screen = app.screen
            await until(pilot, lambda: screen.query("#pass") and all(b.region.area for b in screen.query("Button")),
                        "the bid dialog laid out")
            full = app.screen.region
            for b in screen.query("Button"):
                assert full.contains_region(b.region) and b.region.area > 0, b.id
            await play_turn(app, pilot)
            await to_my_card_play(app, pilot)
            hand = app.query_one(HandView)
            cards = list(hand.query(CardButton))
            assert len(cards) == app.game.state.hands[0].bit_count() == app.game.variant.hand_size
            for b in cards:  # no card clipped by the hand's edge or the screen's
                assert hand.region.contains_region(b.region) and full.contains_region(b.region), b.id
            for wid in ("#north", "#west", "#east", "#side", "#trick", "#prompt"):
                w = app.query_one(wid)
                assert full.contains_region(w.region) and w.region.width >= 12, wid
            while not isinstance(app.screen, SummaryScreen):
                await play_turn(app, pilot)
                await pilot.pause()
            summary = app.screen
            await until(pilot, lambda: summary.query("#continue") and summary.query_one("#continue").region.area,
                        "the summary laid out")
            cont = summary.query_one("#continue")
            assert full.contains_region(cont.region) and cont.region.area > 0
            box = summary.query_one(".box")
            assert full.contains_region(box.region)

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 4
@pytest.mark.parametrize("key, screen_type", [("r", RulesScreen), ("s", SettingsScreen)])
def test_bug4_the_game_waits_behind_rules_and_settings(key, screen_type):
    """The AI bid and played on behind the Settings and Rules screens until it was your turn."""
    async def run():
        app = make_app(seed=2, speed=0.1)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the person's first bid")
            await pilot.press("p")  # pass: the computer players go on bidding
            await until(pilot, lambda: not app.game.human_to_move() and len(app.screen_stack) == 1, "an AI turn")
            await pilot.press(key)
            await until(pilot, lambda: isinstance(app.screen, screen_type), "the screen")
            moves = len(app.game.table.record()["actions"])
            await pilot.pause(0.6)  # 6 AI moves' time
            assert len(app.game.table.record()["actions"]) == moves
            await pilot.press("escape")
            await until(pilot, lambda: len(app.game.table.record()["actions"]) > moves, "the game to go on")

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 5
def test_bug5_w_n_and_q_work_in_the_bid_dialog(tmp_path):
    """In the bid dialog q, w and n silently did nothing."""
    async def run():
        app = make_app(seed=1)
        app.save_path = str(tmp_path / "game.json")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            dialog = app.screen
            await pilot.press("w")
            assert json.loads((tmp_path / "game.json").read_text())["format"] == "crowsnest-record"
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the new-game question")
            game = app.game
            await pilot.press("n")  # no: the same game, the same dialog
            await until(pilot, lambda: app.screen is dialog, "the bid dialog again")
            assert app.game is game
            await pilot.press("q")
            assert app.return_code == 0

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 6
def test_bug6_l_shows_the_last_trick():
    """A finished trick vanished about 0.7 s after an AI won it and led again; L shows it."""
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            await to_my_card_play(app, pilot, min_trick=2)
            g = app.game
            leader, winner, cards = g.state.tricks[-1]  # the engine's own record of the trick
            await pilot.press("l")
            await until(pilot, lambda: isinstance(app.screen, LastTrickScreen), "the last trick")
            shown = app.screen.trick
            assert (shown.leader, shown.winner, shown.cards) == (leader, winner, tuple(cards))
            text = str(app.screen.query_one("#trick-cards").content)
            assert all(g.state.cards.names[c] in text for c in cards) and "won by" in text
            await pilot.press("x")  # any key
            await until(pilot, lambda: len(app.screen_stack) == 1, "the table")

    asyncio.run(run())


@pytest.mark.parametrize("pause", [None, 0.3])
def test_bug6_a_trick_can_be_held_until_a_key_or_a_delay(pause):
    async def run():
        app = make_app(seed=1, trick_pause=pause, speed=0.01)
        async with app.run_test(size=(100, 30)) as pilot:
            await started(app, pilot)
            for _ in ticks():  # play until a trick ends with a computer player to lead next
                if app._hold is not None:
                    break
                if app.game.human_to_move() or len(app.screen_stack) > 1:
                    await play_turn(app, pilot)
                await pilot.pause(0.01)
            assert app._hold is not None
            g = app.game
            held = g.last_trick
            assert g.state.trick == [] or g.state.phase is not Phase.PLAY
            assert "any key goes on" in str(app.query_one("#prompt").render())
            moves = len(g.table.record()["actions"])
            if pause is None:
                await pilot.pause(0.5)
                assert len(g.table.record()["actions"]) == moves  # held: nobody leads
                assert f"trick {held.number} won by" in str(app.query_one("#trick").render())
                await pilot.press("space")
            await until(pilot, lambda: len(g.table.record()["actions"]) > moves
                        or isinstance(app.screen, SummaryScreen), "the game to go on")
            assert app._hold is None

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 7
def test_bug7_a_hint_goes_with_the_move():
    """Hints lingered after the move (one still said 'play G12' after G12 was played)."""
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            await to_my_card_play(app, pilot)
            await pilot.press("h")
            assert "Hint (heuristic): play" in str(app.query_one("#prompt").render())
            hinted = [b for b in app.query(CardButton) if b.has_class("hinted")]
            assert len(hinted) == 1
            await pilot.click(f"#{hinted[0].id}")
            await until(pilot, lambda: not app.game.state.hands[0] >> hinted[0].card & 1, "the card played")
            await pilot.pause()
            assert app.hint_text == "" and "Hint" not in str(app.query_one("#prompt").render())
            assert not [b for b in app.query(CardButton) if b.has_class("hinted")]

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 8
def test_bug8_nest_dialog_keys_and_messages():
    """Left/Right did nothing in the nest dialog (only Tab), and C with too few cards said nothing."""
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            await play_turn(app, pilot)  # the top bid: we declare
            await until(pilot, lambda: isinstance(app.screen, DiscardDialog), "the nest dialog")
            dialog = app.screen
            await until(pilot, lambda: dialog.query(CardButton), "its cards")
            cards = list(dialog.query(CardButton))
            assert app.focused is cards[0]
            await pilot.press("right", "right", "left")
            assert app.focused is cards[1]
            await pilot.press("enter")
            assert dialog.chosen == [cards[1].card] and cards[1].has_class("chosen")
            await pilot.press("c")
            assert app.screen is dialog
            need = dialog.count - 1
            assert f"choose {need} more card" in str(dialog.query_one("#chosen").render())
            for _ in range(need):
                await pilot.press("right", "enter")
            assert len(dialog.chosen) == dialog.count
            await pilot.press("c")
            await until(pilot, lambda: app.screen is not dialog, "the nest dialog to close")
            assert app.game.state.phase is not Phase.DISCARD

    asyncio.run(run())


def test_bug8_new_game_asks_first():
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=(100, 30)) as pilot:
            await to_my_card_play(app, pilot)
            game = app.game
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("escape")
            await until(pilot, lambda: len(app.screen_stack) == 1, "the table")
            assert app.game is game
            await pilot.press("n")
            await until(pilot, lambda: isinstance(app.screen, ConfirmScreen), "the question")
            await pilot.press("y")
            await until(pilot, lambda: app.game is not game, "a new game")

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
def test_bug8_dialogs_leave_the_right_seat_and_the_auction_in_sight(size):
    """Dialogs covered the right player's label and the auction list."""
    async def run():
        app = make_app(seed=1)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            await until(pilot, lambda: app.screen.query(".box") and app.screen.query_one(".box").region.area
                        and app.screen_stack[0].query_one("#east").region.area, "the dialog laid out")
            box = app.screen.query_one(".box").region
            table = app.screen_stack[0]
            rows = {row: text for row, text in text_rows(table.query_one("#east"))}
            right = [row for row, text in rows.items() if "Right (p3)" in text]
            assert right, rows
            east = table.query_one("#east").region
            assert not box.contains(east.x + 2, right[0])
            side = table.query_one("#side")
            assert box.right <= side.region.x
            auction = [row for row, text in text_rows(side) if "Auction" in text]
            assert auction

    asyncio.run(run())


# ---------------------------------------------------------------------------------------- 9
def test_bug9_w_in_the_browser_downloads_the_record(tmp_path, monkeypatch):
    """W saved in the server's folder and the browser user could not download the game."""
    monkeypatch.chdir(tmp_path)
    delivered: list[tuple[str, str]] = []

    async def run():
        app = make_app(seed=1)
        monkeypatch.setattr(PlayApp, "is_web", property(lambda self: True))
        monkeypatch.setattr(app, "deliver_text", lambda f, save_filename=None, **kw: delivered.append(
            (f.read() if isinstance(f, io.StringIO) else f, save_filename)))
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            await pilot.press("w")
    asyncio.run(run())
    assert len(delivered) == 1
    body, name = delivered[0]
    assert name.startswith("crowsnest-") and name.endswith(".json")
    assert replay(json.loads(body)).hand_no == 0
    assert list(tmp_path.glob("*.json")) == []  # nothing in the server's folder


def test_bug9_each_tab_runs_the_app_itself_and_watches_the_server():
    from agents.play.web import app_command

    cmd = app_command(["--web", "--port", "9000", "--host=0.0.0.0", "--level", "hard"])
    assert cmd.startswith("exec ") and cmd.endswith("-m agents.play --level hard")

    async def run():
        app = make_app(seed=1)
        app.server_pid = 2**22 + 12345  # no such process: the server is gone
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: app.return_code is not None, "the app to end with its server", delay=0.1)
    asyncio.run(run())


# --------------------------------------------------------------------------------------- 10
def test_bug10_an_agent_that_cannot_play_is_refused_in_settings(tmp_path, no_nocrow_policies):
    """`learned` where no policy fits crashed the app mid-game, after the choice was saved."""
    from agents.play.settings import settings_path

    async def run():
        app = make_app(seed=1)
        app.persist = True
        async with app.run_test(size=(100, 34)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, SettingsScreen), "settings")
            screen = app.screen
            screen.query_one("#variant").value = "crowsnest_nocrow"
            screen.query_one("#level").value = "hard"
            await pilot.pause()
            await pilot.click("#save")
            await until(pilot, lambda: "no shipped policy" in str(screen.query_one("#error").render()), "the error")
            assert app.screen is screen and "Hard (learned) cannot play crowsnest_nocrow" in str(
                screen.query_one("#error").render())
            assert not settings_path().exists()
            screen.query_one("#level").value = "normal"
            # a Button ignores clicks for 0.2 s after one (its "active" look): wait as a person would
            await until(pilot, lambda: not screen.query_one("#save").has_class("-active"), "the button")
            await pilot.click("#save")
            await until(pilot, lambda: app.game is not None and app.game.variant.name == "crowsnest_nocrow",
                        "the game on the new rules")
    asyncio.run(run())
    assert json.loads(settings_path().read_text())["level"] == "normal"


def test_bug10_a_foreign_policy_in_a_phase_agent_fails_before_the_game():
    spec = "phase:base=heuristic;play=checkpoint:agents/policies/crowsnest.pt"
    with pytest.raises(ValueError, match="trained for 'crowsnest', not 'dixie'"):
        Game(Settings(variant="dixie", partner=spec), seed=1)
    assert Game(Settings(variant="crowsnest", partner=spec), seed=1).names[2] == spec


def test_bug10_an_agent_failing_mid_game_stops_the_game_not_the_app():
    async def run():
        app = make_app(seed=1, speed=0)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the bid dialog")
            partner = app.game.agents[2]
            partner.act = lambda view: (_ for _ in ()).throw(RuntimeError("lost its network"))
            await pilot.press("p")
            await until(pilot, lambda: bool(app._failed), "the failure")
            assert "lost its network" in str(app.query_one("#prompt").render())
            assert app.return_code is None  # still running: S or N go on
    asyncio.run(run())


def test_the_probe_reaches_every_phase():
    from agents.play.session import probe_views
    from crowsnest_env.rules import PRESETS, get_variant

    for name in [*PRESETS, "crowsnest_nocrow"]:
        v = get_variant(name)
        phases = [view.phase for view in probe_views(v)]
        assert phases == ([Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY] if v.has_nest
                          else [Phase.AUCTION, Phase.TRUMP, Phase.PLAY]), name
        assert all(view.legal and view.seat == view.to_move for view in probe_views(v))


def test_bug9_an_app_that_will_not_quit_is_stopped(monkeypatch):
    """The app process of a closed tab that ignores the quit message and SIGTERM (busy, 100% CPU) is
    killed: textual-serve alone waited for it for ever."""
    import sys
    import time

    from textual_serve.download_manager import DownloadManager

    from agents.play import web

    monkeypatch.setattr(web, "QUIT_WAIT", 0.5)
    stubborn = (f"exec {sys.executable} -c 'import signal; signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
                "while True: pass'")

    async def nothing(*_: object) -> None:
        return None

    async def run() -> tuple[int | None, float]:
        tab = web.TabApp(stubborn, write_bytes=nothing, write_str=nothing, close=nothing,
                         download_manager=DownloadManager())
        await tab.start(80, 24)
        await asyncio.sleep(0.3)
        assert tab._process.returncode is None
        start = time.monotonic()
        await tab.stop()
        return tab._process.returncode, time.monotonic() - start

    code, took = asyncio.run(run())
    assert code == -9 and took < 3
