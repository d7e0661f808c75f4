"""The play app, driven through its own widgets and keys with Textual's pilot (headless)."""

from __future__ import annotations

import asyncio
import json

import pytest

from agents.play.app import PlayApp
from agents.play.screens import BidDialog, DiscardDialog, SettingsScreen, SummaryScreen, TrumpDialog
from agents.play.settings import Settings
from agents.play.widgets import HandView
from crowsnest_env.rules import Phase
from tests.conftest import VARIANT_IDS, VARIANT_OPTIONS

SIZE = (100, 30)


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def make_app(variant: str = "crowsnest", crow: bool = True, seed: int = 1, **kw) -> PlayApp:
    settings = Settings(variant=variant, crow=crow, seat=0, partner="heuristic", opponents="heuristic", speed=0)
    return PlayApp(settings, seed=seed, max_hands=1, persist=False, **kw)


async def play_turn(app: PlayApp, pilot) -> str:
    """Make the person's move with the UI's own controls; what kind of move it was."""
    screen = app.screen
    if isinstance(screen, BidDialog):
        bids = [b for b in screen.query("Button.bid")]
        await pilot.click(f"#{bids[-1].id}")  # the top bid ends the auction: we declare
        return "bid"
    if isinstance(screen, DiscardDialog):
        for button in list(screen.query("CardButton"))[: screen.count]:
            await pilot.click(f"#{button.id}")
        await pilot.click("#confirm")
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
    await pilot.pause()
    for _ in range(60):
        if app.game.done and not isinstance(app.screen, SummaryScreen):
            break
        moves.append(await play_turn(app, pilot))
    return moves


@pytest.mark.parametrize(("variant", "crow"), VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_a_whole_hand_through_the_ui(variant, crow):
    asyncio.run(_whole_hand(variant, crow))


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
