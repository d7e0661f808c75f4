"""Frozen deal sets: golden hashes, the arena's own deals, independence from hash randomisation."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys

import pytest

from agents.arena import play_duplicate_deal
from agents.deal_sets import (
    DEAL_SETS,
    RULE_SETS,
    DealSetError,
    deals_sha256,
    export_deals,
    generate_deals,
    get_deal_set,
    rule_set_options,
    rule_set_variant,
    verify_deal_set,
)
from crowsnest_env.rules import State

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Golden values, typed here a second time on purpose: a change to the dealing code, the seed
# derivation or the card names breaks them, and then the deal set needs a new version (-v2),
# not new numbers here.
GOLDEN_V1 = {
    "crowsnest": "ab97375030dc9019a4e9debc3d78a79ac138bbb8808fa7d0ab8eba657cfd528b",
    "tournament": "c0230dd8f01fa107a769944d0772acb542d2b2a9c3a780e3a9e1ada26c101c63",
    "partnership": "994e2738078dbf2ef80b61da0f8c347b02decc5ee7faffbfa3d455480773766e",
    "one_high": "b92989bb7484ab734002459cb90e3ba2e1e10faf73893686f50b0897622d3204",
    "red_one": "f5bd907bfaed11aa645c3497498e2e14859143b5f6a144ae113eac0f7ad5a06e",
    "buckeye": "e3d35c9d0c914f03bd1134eb10cfc181e0a555f3320e87a98a8e38a9d00ebe28",
    "dixie": "94916bab94d4c599d3871179779204aaa381f2f9eab09b4f706ef3fa56aee596",
    "crowsnest_nocrow": "baec40cf94cf9ee2925a72b0d13f87925c5ae613b9d6e02338036edfef1f8aa5",
    "tournament_nocrow": "baec40cf94cf9ee2925a72b0d13f87925c5ae613b9d6e02338036edfef1f8aa5",
}
GOLDEN_SMOKE_CROWSNEST = "fa2cd9e891140eaac5e6e0d12454aac3dbee38d9745e45b57fbe4862377cb990"
V1_CROWSNEST_DEAL_0 = {
    "dealer": 0,
    "hands": [["B7", "B9", "B10", "B14", "G5", "R8", "R9", "R12", "R14"],
              ["B6", "B12", "G6", "R7", "R11", "Y5", "Y6", "Y7", "Y10"],
              ["B5", "B11", "B13", "G8", "G9", "G13", "G14", "R13", "CROW"],
              ["G11", "G12", "R5", "R6", "R10", "Y11", "Y12", "Y13", "Y14"]],
    "nest": ["B8", "G7", "G10", "Y8", "Y9"],
}


def test_rule_sets_are_the_seven_presets_and_the_two_no_crow_options():
    assert RULE_SETS == ("crowsnest", "tournament", "partnership", "one_high", "red_one", "buckeye", "dixie",
                         "crowsnest_nocrow", "tournament_nocrow")
    assert rule_set_options("tournament_nocrow") == ("tournament", False)
    assert rule_set_variant("crowsnest_nocrow").name == "crowsnest_nocrow"


@pytest.mark.parametrize("rule_set", RULE_SETS)
def test_v1_hash_is_the_golden_value(rule_set):
    ds = get_deal_set("crowsnest-v1")
    assert ds.deals == 1000
    assert ds.sha256[rule_set] == GOLDEN_V1[rule_set]
    assert verify_deal_set(ds, rule_set) == GOLDEN_V1[rule_set]


def test_deal_0_is_the_golden_deal_and_the_smoke_set_is_v1s_first_deals():
    v1 = generate_deals(get_deal_set("crowsnest-v1"), "crowsnest")
    smoke_set = get_deal_set("crowsnest-smoke-v1")
    smoke = generate_deals(smoke_set, "crowsnest")
    assert v1[0] == V1_CROWSNEST_DEAL_0
    assert smoke == v1[:smoke_set.deals]
    assert deals_sha256(smoke) == GOLDEN_SMOKE_CROWSNEST == verify_deal_set(smoke_set, "crowsnest")
    assert [d["dealer"] for d in v1[:8]] == [0, 1, 2, 3, 0, 1, 2, 3]


@pytest.mark.parametrize("rule_set", ["crowsnest", "partnership", "tournament_nocrow"])
def test_the_deals_are_the_ones_the_arena_plays(rule_set):
    """Both tables of arena deal i (run seed = the set's seed) are dealt exactly deal i's cards."""
    ds = get_deal_set("crowsnest-smoke-v1")
    rules = rule_set_variant(rule_set)
    deals = generate_deals(ds, rule_set)
    cards = State(rules).cards
    for i in (0, 5, 23):
        rec = play_duplicate_deal("random", "random", i, variant=rules, seed=ds.seed, record=True)
        for table in rec.tables:
            hands, nest = table.deals[0]
            assert ([cards.names_of(h) for h in hands], cards.names_of(nest)) == (deals[i]["hands"], deals[i]["nest"])


def test_the_hash_does_not_depend_on_hash_randomisation():
    """Two interpreters with different PYTHONHASHSEED regenerate the same hash."""
    code = "from agents.deal_sets import *; print(deals_sha256(generate_deals(get_deal_set('crowsnest-smoke-v1'), " \
           "'buckeye')))"
    out = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": ROOT, "PYTHONHASHSEED": seed}).stdout.strip()
           for seed in ("1", "2")}
    assert out == {DEAL_SETS["crowsnest-smoke-v1"].sha256["buckeye"]}


def test_a_set_whose_cards_differ_from_its_pin_is_refused():
    ds = dataclasses.replace(get_deal_set("crowsnest-smoke-v1"), seed=1)
    with pytest.raises(DealSetError, match="regenerates as sha256 .* not the pinned .*new deal-set version"):
        verify_deal_set(ds, "crowsnest")
    with pytest.raises(DealSetError, match="unknown deal set 'nope'; deal sets: crowsnest-v1, crowsnest-smoke-v1"):
        get_deal_set("nope")
    with pytest.raises(DealSetError, match="unknown rule set 'kentucky'"):
        rule_set_options("kentucky")


def test_an_exported_file_carries_the_hash_of_its_deals():
    doc = export_deals(get_deal_set("crowsnest-smoke-v1"), "red_one")
    text = json.dumps(doc["deals"], sort_keys=True, separators=(",", ":"))
    pinned = DEAL_SETS["crowsnest-smoke-v1"].sha256["red_one"]
    assert hashlib.sha256(text.encode()).hexdigest() == doc["sha256"] == pinned
    assert (doc["schema"], doc["rule_set"], doc["variant"], doc["crow"], len(doc["deals"])) == \
        ("crowsnest-deal-set/1", "red_one", "red_one", True, 24)
    hand_size = rule_set_variant("red_one").hand_size
    assert all(len(h) == hand_size for d in doc["deals"] for h in d["hands"])
