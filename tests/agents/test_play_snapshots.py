"""Snapshots of the play app's main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

import pytest

from agents.play.app import PlayApp
from agents.play.screens import SummaryScreen
from agents.play.settings import Settings
from crowsnest_env.rules import Phase
from tests.agents.test_play import play_turn

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def app(variant: str = "crowsnest") -> PlayApp:
    return PlayApp(Settings(variant=variant, speed=0), seed=1, max_hands=1, persist=False)


def test_bid_dialog(snap_compare):
    assert snap_compare(app(), terminal_size=SIZE)


def test_table_in_play(snap_compare):
    async def play_three_tricks(pilot):
        a = pilot.app
        await pilot.pause()
        while a.game.state.phase is not Phase.PLAY or a.game.state.trick_no < 3 or not a.game.human_to_move():
            await play_turn(a, pilot)
            await pilot.pause()

    assert snap_compare(app(), terminal_size=SIZE, run_before=play_three_tricks)


def test_hand_summary(snap_compare):
    async def play_out(pilot):
        await pilot.pause()
        while not isinstance(pilot.app.screen, SummaryScreen):
            await play_turn(pilot.app, pilot)
            await pilot.pause()

    assert snap_compare(app("tournament"), terminal_size=SIZE, run_before=play_out)


def test_rules_screen(snap_compare):
    assert snap_compare(app("one_high"), terminal_size=SIZE, press=["_", "r"])


def test_settings_screen(snap_compare):
    assert snap_compare(app("red_one"), terminal_size=SIZE, press=["_", "s"])
