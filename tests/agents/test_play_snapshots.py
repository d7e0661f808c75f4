"""Snapshots of the play app's main screens (pytest-textual-snapshot; update with --snapshot-update)."""

from __future__ import annotations

import pytest

from agents.play.app import PlayApp
from agents.play.dialogs import DiscardDialog
from agents.play.screens import SummaryScreen
from agents.play.settings import Settings
from crowsnest_env.rules import Phase
from tests.agents.test_play import play_turn, started

SIZE = (120, 36)


@pytest.fixture(autouse=True)
def _config_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def app(variant: str = "crowsnest") -> PlayApp:
    return PlayApp(Settings(variant=variant, speed=0), seed=1, max_hands=1, persist=False)


def test_bid_dialog(snap_compare):
    assert snap_compare(app(), terminal_size=SIZE)


async def play_three_tricks(pilot):
    a = pilot.app
    await started(a, pilot)
    while a.game.state.phase is not Phase.PLAY or a.game.state.trick_no < 3 or not a.game.human_to_move():
        await play_turn(a, pilot)
        await pilot.pause()
    await pilot.pause(0.1)


async def to_the_nest(pilot):
    await started(pilot.app, pilot)
    while not isinstance(pilot.app.screen, DiscardDialog):
        await play_turn(pilot.app, pilot)
        await pilot.pause()
    await pilot.pause(0.1)


async def play_out(pilot):
    await started(pilot.app, pilot)
    while not isinstance(pilot.app.screen, SummaryScreen):
        await play_turn(pilot.app, pilot)
        await pilot.pause()
    await pilot.pause(0.1)


def test_table_in_play(snap_compare):
    assert snap_compare(app(), terminal_size=SIZE, run_before=play_three_tricks)


# Issue 17 bug 3: 80x24 was unusable. The whole table, the dialogs and the summary at 80x24.
def test_table_in_play_80x24(snap_compare):
    assert snap_compare(app(), terminal_size=(80, 24), run_before=play_three_tricks)


def test_bid_dialog_80x24(snap_compare):
    assert snap_compare(app(), terminal_size=(80, 24), run_before=lambda pilot: pilot.pause(0.2))


def test_nest_dialog_80x24(snap_compare):
    assert snap_compare(app(), terminal_size=(80, 24), run_before=to_the_nest)


def test_hand_summary_80x24(snap_compare):
    assert snap_compare(app("tournament"), terminal_size=(80, 24), run_before=play_out)


def test_table_in_play_160x50(snap_compare):
    assert snap_compare(app(), terminal_size=(160, 50), run_before=play_three_tricks)


def test_hand_summary(snap_compare):
    assert snap_compare(app("tournament"), terminal_size=SIZE, run_before=play_out)


def test_rules_screen(snap_compare):
    assert snap_compare(app("one_high"), terminal_size=SIZE, press=["_", "r"])


def test_settings_screen(snap_compare):
    assert snap_compare(app("red_one"), terminal_size=SIZE, press=["_", "s"])
