"""Frozen, versioned deal sets: the same cards for every benchmark result, on every machine.

A deal set (``crowsnest-v1``) is a fixed number of duplicate deals per *rule set* (the seven
presets and the two no-Crow options, :data:`RULE_SETS`). Its deals are the arena's own: deal
``i`` of a set with seed ``S`` is what ``crowsnest-arena --seed S`` plays as deal ``i``, the
cards from ``random.Random(derive_seed(S, "deal", i))`` through the engine's
``State.deal_random`` and the dealer ``i % 4``; so a benchmark cell is one arena pairing, run
by the arena's own code, with no second way of dealing.

| name                   | deals | seed                | max_redeals | use                         |
|------------------------|------:|---------------------|------------:|-----------------------------|
| ``crowsnest-v1``       | 1000  | 3935625943659348160 | 50          | the published leaderboard   |
| ``crowsnest-smoke-v1`` | 24    | 3935625943659348160 | 50          | tests; v1's first 24 deals  |

(the seed is ``derive_seed("crowsnest-bench", "crowsnest-v1")``, pinned as a number.)

**Identity.** A deal set is identified per rule set by the SHA-256 of its deals' *contents*,
not of its seed: the canonical JSON (``sort_keys``, separators ``","`` and ``":"``) of the list
``[{"dealer": d, "hands": [[card names] x 4], "nest": [card names]}, ...]`` in deal order (the
``"deals"`` list that :func:`export_deals` writes, so anyone can check an exported file with
``hashlib.sha256``). Every benchmark result records that hash. The expected hashes are pinned
in :data:`DEAL_SETS`; :func:`verify_deal_set` regenerates the deals and refuses a set whose
hash differs (a changed dealing routine would otherwise publish numbers on other cards).

**Why generated, not stored.** Generation uses only ``random.Random(int).random()``, which
Python guarantees to reproduce across versions and machines (the ``random`` docs' "reproducibility"
note), a blake2b seed (never ``hash()``, which is randomised per process), and a stable sort;
no numpy. The deals are therefore fixed by the engine's dealing code, and the version string
(``-v1``) is pinned to that code: if ``State.deal_random``, the arena's seed derivation or the
card names ever change, the golden-value test (``tests/agents/test_deal_sets.py``) fails and the
set must be renamed ``-v2`` rather than re-pinned. Generating 1000 deals takes about 0.1 s;
storing nine files of them would add megabytes and a second path for the arena to deal from.
After an all-pass the table redeals from the same generator, so redeals are fixed as well.
``crowsnest_nocrow`` and ``tournament_nocrow`` deal the same 56-card deck (no bird), so their
deals and hashes are the same; ``crowsnest`` and ``tournament`` differ only in the bird's name.
``crowsnest-bench --export-deals`` writes a set's deals with their hash for other frameworks.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from crowsnest_env.rules import NO_CROW_SUFFIX, NUM_SEATS, PRESETS, VARIANTS, Variant, get_variant
from crowsnest_env.table import Table

from .arena import DEFAULT_MAX_REDEALS, derive_seed

DEAL_SET_SCHEMA = "crowsnest-deal-set/1"
RULE_SETS: tuple[str, ...] = (*VARIANTS, *(v + NO_CROW_SUFFIX for v in VARIANTS if PRESETS[v].crow_option))
"""every rule set a deal set covers: the presets, then the no-Crow options (``crowsnest_nocrow``)"""


class DealSetError(ValueError):
    """An unknown deal set or rule set, or a deal set whose regenerated cards differ from its pinned hash."""


@dataclass(frozen=True)
class DealSet:
    """A named, frozen set of duplicate deals: ``deals`` arena deals of run seed ``seed`` per rule set."""

    name: str
    seed: int
    deals: int
    sha256: Mapping[str, str]
    """rule set -> the SHA-256 of its deals (the golden values)"""
    max_redeals: int = DEFAULT_MAX_REDEALS
    """all-pass redeals before a hand counts as passed out (part of the protocol, as the arena plays it)"""
    description: str = ""

    def as_dict(self) -> dict[str, Any]:
        """The set's protocol as recorded in results (name, deals, seed, max_redeals)."""
        return {"name": self.name, "deals": self.deals, "seed": self.seed, "max_redeals": self.max_redeals}


def rule_set_options(rule_set: str) -> tuple[str, bool]:
    """``crowsnest_nocrow`` -> ``("crowsnest", False)``: the arena's (variant, crow) of a rule set."""
    if rule_set not in RULE_SETS:
        raise DealSetError(f"unknown rule set {rule_set!r}; rule sets: {', '.join(RULE_SETS)}")
    if rule_set.endswith(NO_CROW_SUFFIX):
        return rule_set[: -len(NO_CROW_SUFFIX)], False
    return rule_set, True


def rule_set_variant(rule_set: str) -> Variant:
    """The :class:`Variant` a rule set plays."""
    variant, crow = rule_set_options(rule_set)
    return get_variant(variant, crow)


def deal_entry(seed: int, rules: Variant, index: int) -> dict[str, Any]:
    """Deal ``index`` of run seed ``seed`` as the arena deals it: ``{"dealer", "hands", "nest"}`` by card names."""
    table = Table(rules, episode="hand", observe=False, record=True)
    table.reset(random.Random(derive_seed(seed, "deal", index)), dealer=index % NUM_SEATS)
    dealer, hands, nest = table.deals()[0]
    cards = table.state.cards
    return {"dealer": dealer, "hands": [cards.names_of(h) for h in hands], "nest": cards.names_of(nest)}


def generate_deals(deal_set: DealSet, rule_set: str) -> list[dict[str, Any]]:
    """The deal set's deals for ``rule_set``, in deal order."""
    rules = rule_set_variant(rule_set)
    return [deal_entry(deal_set.seed, rules, i) for i in range(deal_set.deals)]


def deals_sha256(deals: list[dict[str, Any]]) -> str:
    """SHA-256 (hex) of the canonical JSON of a list of deals (see the module docstring)."""
    text = json.dumps(deals, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def verify_deal_set(deal_set: DealSet, rule_set: str) -> str:
    """Regenerate ``rule_set``'s deals and return their hash; DealSetError if it is not the pinned one."""
    return _checked_hash(deal_set, rule_set, generate_deals(deal_set, rule_set))


def _checked_hash(deal_set: DealSet, rule_set: str, deals: list[dict[str, Any]]) -> str:
    got, want = deals_sha256(deals), deal_set.sha256.get(rule_set)
    if want is None:
        raise DealSetError(f"deal set {deal_set.name!r} has no pinned hash for rule set {rule_set!r}")
    if got != want:
        raise DealSetError(f"deal set {deal_set.name!r} for {rule_set!r} regenerates as sha256 {got[:16]}..., "
                           f"not the pinned {want[:16]}...: the dealing code changed, so results would be on "
                           f"other cards (a changed generator needs a new deal-set version)")
    return got


def export_deals(deal_set: DealSet, rule_set: str) -> dict[str, Any]:
    """A JSON document of the set's deals for ``rule_set``, with the (verified) hash that identifies them."""
    deals = generate_deals(deal_set, rule_set)
    variant, crow = rule_set_options(rule_set)
    return {"schema": DEAL_SET_SCHEMA, **deal_set.as_dict(), "rule_set": rule_set, "variant": variant,
            "crow": crow, "sha256": _checked_hash(deal_set, rule_set, deals), "deals": deals}


_V1_SEED = 3935625943659348160  # derive_seed("crowsnest-bench", "crowsnest-v1")
_V1_HASHES = MappingProxyType({
    "crowsnest": "ab97375030dc9019a4e9debc3d78a79ac138bbb8808fa7d0ab8eba657cfd528b",
    "tournament": "c0230dd8f01fa107a769944d0772acb542d2b2a9c3a780e3a9e1ada26c101c63",
    "partnership": "994e2738078dbf2ef80b61da0f8c347b02decc5ee7faffbfa3d455480773766e",
    "one_high": "b92989bb7484ab734002459cb90e3ba2e1e10faf73893686f50b0897622d3204",
    "red_one": "f5bd907bfaed11aa645c3497498e2e14859143b5f6a144ae113eac0f7ad5a06e",
    "buckeye": "e3d35c9d0c914f03bd1134eb10cfc181e0a555f3320e87a98a8e38a9d00ebe28",
    "dixie": "94916bab94d4c599d3871179779204aaa381f2f9eab09b4f706ef3fa56aee596",
    "crowsnest_nocrow": "baec40cf94cf9ee2925a72b0d13f87925c5ae613b9d6e02338036edfef1f8aa5",
    "tournament_nocrow": "baec40cf94cf9ee2925a72b0d13f87925c5ae613b9d6e02338036edfef1f8aa5",
})
_SMOKE_HASHES = MappingProxyType({
    "crowsnest": "fa2cd9e891140eaac5e6e0d12454aac3dbee38d9745e45b57fbe4862377cb990",
    "tournament": "129f9f6d5d2ef69d640fe236c699c287dafb2d2650cc760a04a87164c880b3ee",
    "partnership": "e4d5028464e34eb9b041c6e45a862fc094270e89cdf593031454360d704d9696",
    "one_high": "b426b9dc0c546b595bb00b3896b803f099cc2adc2d2cddf1795d4263bc801743",
    "red_one": "65775da9cbb1ba719c062358f617ba5a5da70c2219509cc6ae2aa98f66c2bff6",
    "buckeye": "d62f140bc8218049a7640f49fcd5e2464f1308b1581f6815f557bd5df7e2eca3",
    "dixie": "63765b2f70053ca9b25ba096d2a7c8749a125a501b8dc4afcd028cb930144534",
    "crowsnest_nocrow": "0a542398ddababb4963f85985a3159adcb2422dd798c461f6d3a7eb8c24bbc71",
    "tournament_nocrow": "0a542398ddababb4963f85985a3159adcb2422dd798c461f6d3a7eb8c24bbc71",
})

DEAL_SETS: Mapping[str, DealSet] = MappingProxyType({
    "crowsnest-v1": DealSet("crowsnest-v1", _V1_SEED, 1000, _V1_HASHES,
                            description="the published leaderboard"),
    "crowsnest-smoke-v1": DealSet("crowsnest-smoke-v1", _V1_SEED, 24, _SMOKE_HASHES,
                                  description="crowsnest-v1's first 24 deals, for tests and a first try"),
})
DEFAULT_DEAL_SET = "crowsnest-v1"


def get_deal_set(name: str) -> DealSet:
    """A registered deal set by name; DealSetError naming the known ones."""
    if name not in DEAL_SETS:
        raise DealSetError(f"unknown deal set {name!r}; deal sets: {', '.join(DEAL_SETS)}")
    return DEAL_SETS[name]


__all__ = ["DEAL_SETS", "DEAL_SET_SCHEMA", "DEFAULT_DEAL_SET", "RULE_SETS", "DealSet", "DealSetError",
           "deal_entry", "deals_sha256", "export_deals", "generate_deals", "get_deal_set", "rule_set_options",
           "rule_set_variant", "verify_deal_set"]
