"""What players expect of the table (issue 17): levels by name, the record of finished games, Stats."""

from __future__ import annotations

import asyncio
import json

import pytest

from agents import make_agent
from agents.play import history
from agents.play.dialogs import BidDialog
from agents.play.levels import DEFAULT_LEVEL, LEVELS, level_agent
from agents.play.screens import StatsScreen, SummaryScreen
from agents.play.session import Game
from agents.play.settings import Settings
from crowsnest_env import replay
from tests.agents.test_play import make_app, play_hand
from tests.agents.test_play_bugs import until


@pytest.fixture(autouse=True)
def _folders_in_tmp(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_levels_are_one_table_and_the_default_is_one_level_for_all_three():
    assert {name: lv.agent for name, lv in LEVELS.items()} == {
        "easy": "phase:base=heuristic;play=random", "normal": "heuristic", "hard": "learned",
        "expert": "expert"}
    assert DEFAULT_LEVEL == "normal" == Settings().level
    game = Game(Settings(), seed=1)
    assert game.names == {1: "heuristic", 2: "heuristic", 3: "heuristic"}
    assert game.labels == {1: "Normal", 2: "Normal", 3: "Normal"}
    hard = Game(Settings(level="hard", opponents="random"), seed=1)  # per-seat agents stay available
    assert hard.names == {1: "random", 2: "learned", 3: "random"} and hard.labels[2] == "Hard"
    with pytest.raises(ValueError, match="unknown level 'insane'; levels: easy, normal, hard, expert"):
        level_agent("insane")


def test_easy_is_weaker_than_normal_on_the_same_deals():
    """Easy keeps the heuristic's auction and plays random legal cards (docs/results: -42.2 per deal)."""
    from agents.arena import run_pairing

    result = run_pairing(level_agent("easy"), level_agent("normal"), deals=40, seed=0)
    assert result["adp_ci95"][1] < 0


def test_the_seat_labels_show_the_level():
    async def run():
        app = make_app(seed=1, level="easy")
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, BidDialog), "the table")
            for wid in ("#north", "#west", "#east"):
                assert "Easy" in str(app.query_one(wid).render())
    asyncio.run(run())


def play_as_heuristic(settings: Settings, seed: int, max_hands: int) -> Game:
    """A whole game with the person's seat played by the heuristic, as a person would through the UI."""
    game = Game(settings, seed=seed, max_hands=max_hands)
    me = make_agent("heuristic", seed=seed)
    while not game.done:
        if game.human_to_move():
            game.step(me.act(game.table.view(game.me)))
        else:
            game.agent_step()
    return game


def test_a_finished_game_is_kept_as_an_env_record_and_counted_in_stats(tmp_path):
    async def run():
        app = make_app(seed=4)
        async with app.run_test(size=(100, 30)) as pilot:
            moves = await play_hand(app, pilot)
            assert moves[-1] == "summary"
            await until(pilot, lambda: app.saved_games, "the game to be kept")
            assert "Kept in your record" in str(app.query_one("#prompt").render())
            await pilot.press("t")
            await until(pilot, lambda: isinstance(app.screen, StatsScreen), "the stats screen")
            table = app.screen.query_one("#stats")
            return app.game, app.saved_games, [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]

    game, saved, rows = asyncio.run(run())
    folder = tmp_path / "data" / "crowsnest" / "games"
    assert saved == sorted(folder.glob("*.json")) and len(saved) == 1
    assert replay(saved[0]) == game.state  # the env's own record: replay, --replay and the arena's tools read it
    players = json.loads(saved[0].read_text())["players"]
    assert players["agents"] == ["human", "heuristic", "heuristic", "heuristic"] and players["human"] == 0
    assert players["level"] == "normal" and players["finished"] is True
    r = game.state.results[0]
    declared = int(r.declarer == 0)
    assert rows == [["crowsnest", "Normal", "1", str(int(game.state.winner == 0)), "1", str(declared),
                     "-" if not declared else ("100%" if r.made else "0%"),
                     f"{r.points[0] - r.points[1]:+.1f}", f"{r.score_change[0] - r.score_change[1]:+.1f}"]]


def test_no_record_is_kept_when_the_setting_is_off(tmp_path):
    async def run():
        app = make_app(seed=4, keep_games=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await play_hand(app, pilot)
            await pilot.pause(0.1)
            assert not isinstance(app.screen, SummaryScreen) and app.game.done
    asyncio.run(run())
    assert not (tmp_path / "data").exists()


def test_stats_add_up_by_rules_and_level(tmp_path):
    folder = tmp_path / "games"
    games = [play_as_heuristic(Settings(seat=1), seed=s, max_hands=3) for s in (1, 2)]
    games.append(play_as_heuristic(Settings(variant="dixie", level="easy"), seed=3, max_hands=2))
    for g in games:
        history.save_game(g.record(), folder)
    (folder / "broken.json").write_text("{ not a record")
    summaries, problems = history.load_games(folder)
    assert len(summaries) == 3 and problems and problems[0].startswith("broken.json")
    rows = {(r.variant, r.level): r for r in history.stats(summaries)}
    assert set(rows) == {("crowsnest", "normal"), ("dixie", "easy")}
    row = rows["crowsnest", "normal"]
    results = [(g.me, r) for g in games[:2] for r in g.state.results]
    us = [(me % 2, 1 - me % 2, r) for me, r in results]
    assert row.games == 2 and row.hands == len(results) == 6
    assert row.declared == sum(r.declarer == me for me, r in results)
    assert row.made == sum(r.declarer == me and r.made for me, r in results)
    assert row.points_per_hand == pytest.approx(sum(r.points[a] - r.points[b] for a, b, r in us) / 6)
    assert row.score_per_hand == pytest.approx(sum(r.score_change[a] - r.score_change[b] for a, b, r in us) / 6)
    assert row.won == sum(g.state.winner == g.me % 2 for g in games[:2])


def test_easy_hints_come_from_normal():
    """A random card is no hint: at Easy the hints are the Normal player's."""
    game = Game(Settings(level="easy"), seed=1)
    assert game.settings.hint_agent() == "heuristic"
    assert Game(Settings(level="hard"), seed=1).settings.hint_agent() == "learned"
    assert Game(Settings(level="easy", partner="pimc"), seed=1).settings.hint_agent() == "pimc"
    while not game.human_to_move():
        game.agent_step()
    assert game.hint().agent == "heuristic"
