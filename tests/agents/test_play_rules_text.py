"""The rules screen is generated from the Variant, so it says what the engine plays."""

from __future__ import annotations

import asyncio

import pytest

from agents.play.rules_text import rules_markdown
from crowsnest_env.rules import get_variant
from tests.conftest import VARIANT_IDS, VARIANT_OPTIONS


@pytest.mark.parametrize(("name", "crow"), VARIANT_OPTIONS, ids=VARIANT_IDS)
def test_every_number_comes_from_the_variant(name, crow):
    v = get_variant(name, crow)
    text = rules_markdown(v)
    assert f"**Deck**: {v.deck_size} cards" in text
    assert f"Each seat gets {v.hand_size} cards" in text
    assert f"**{v.min_bid}** to **{v.max_bid}** in steps of {v.bid_step}" in text
    assert f"Total per hand: **{v.total_points}**" in text
    assert f"reaches **{v.target}**" in text
    for rank, points in v.counters:
        assert f"each {rank} = {points}" in text
    assert (f"{v.nest_size} go face down to the nest" in text) == v.has_nest
    assert (f"scores {v.trick_bonus} more" in text) == bool(v.trick_bonus)
    assert ("scores **its bid**" in text) == (v.made_score.value == "bid")
    if v.bird:
        assert ("**at any time**" in text) == v.bird_any_time


def test_named_rule_differences():
    assert "**100** to **180**" in rules_markdown(get_variant("buckeye"))
    one_high = rules_markdown(get_variant("one_high"))
    assert "**follows suit**" in one_high and "**lowest** trump" in one_high
    assert "Trumps**, high to low: 1 14 13" in one_high and one_high.rstrip().count("Rook") >= 2
    assert "Trumps**, high to low: Red 1 Rook 14" in rules_markdown(get_variant("red_one"))
    assert "there is no nest" in rules_markdown(get_variant("partnership"))
    assert "Crow" not in rules_markdown(get_variant("crowsnest", crow=False))


def test_rules_key_shows_the_selected_variant():
    from textual.widgets import Markdown

    from agents.play.app import PlayApp
    from agents.play.screens import RulesScreen
    from agents.play.settings import Settings

    async def run():
        app = PlayApp(Settings(variant="one_high", speed=0), seed=1, persist=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            await pilot.press("r")  # also from inside the bid dialog
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert app.screen.query_one(Markdown).source == rules_markdown(get_variant("one_high"))

    asyncio.run(run())
