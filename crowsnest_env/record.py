"""Game records: variant, options, deals and actions as JSON, replayable to the identical state."""

from __future__ import annotations

import json
import os
from typing import Any

from .atomic import atomic_write_text
from .rules import CardTables, Phase, State, Variant, get_variant

RECORD_FORMAT = "crowsnest-record"
RECORD_VERSION = 1


def new_record(options: dict[str, Any], dealer: int, scores: tuple[int, int],
               variant: Variant | None = None) -> dict[str, Any]:
    """An empty record; a variant that is not a preset (nor its no-Crow option) is stored in full
    under ``rules`` so that the record replays without it."""
    rec = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "options": dict(options),
           "dealer": dealer, "scores": list(scores), "deals": [], "actions": []}
    if variant is not None and not is_preset(variant):
        from .variant_config import variant_to_dict

        rec["rules"] = variant_to_dict(variant)
    return rec


def is_preset(variant: Variant) -> bool:
    """Whether ``variant`` is a registered preset or the no-Crow option of one."""
    try:
        return get_variant(variant.name) == variant
    except ValueError:
        return False


def record_variant(record: dict[str, Any]) -> Variant:
    """The rules a record was played under: its ``rules`` if present, else the named preset."""
    if "rules" in record:
        from .variant_config import variant_from_dict

        return variant_from_dict(record["rules"], source="record rules")
    opts = record["options"]
    return get_variant(opts["variant"], opts.get("crow", True))


def deal_entry(cards: CardTables, dealer: int, hands: tuple[int, ...], nest: int) -> dict[str, Any]:
    """A deal by card names."""
    return {"dealer": dealer, "hands": [cards.names_of(h) for h in hands], "nest": cards.names_of(nest)}


def parse_deal(cards: CardTables, deal: Any) -> tuple[list[int], int]:
    """``{"hands": [4 lists of card names], "nest": [names]}`` -> bitmasks; ValueError if malformed."""
    if not isinstance(deal, dict) or set(deal) - {"hands", "nest", "dealer"} or "hands" not in deal:
        raise ValueError(f"deal must be a dict with keys 'hands' (4 lists of card names) and 'nest', got {deal!r}")
    hands = deal["hands"]
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise ValueError(f"deal['hands'] must be 4 lists of card names, got {hands!r}")
    masks = [cards.cards_from_names(list(h)) for h in hands]
    nest = cards.cards_from_names(list(deal.get("nest", [])))
    return masks, nest


def replay(record: dict[str, Any]) -> State:
    """Rebuild the state a record ends in, by dealing its deals and applying its actions."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError("not a CrowsNest game record (missing format 'crowsnest-record')")
    if record.get("version") != RECORD_VERSION:
        raise ValueError(f"unsupported record version {record.get('version')!r}; expected {RECORD_VERSION}")
    variant = record_variant(record)
    state = State(variant, dealer=record["dealer"], scores=tuple(record["scores"]))
    deals = iter(record["deals"])
    actions = iter(record["actions"])
    while True:
        if state.phase is Phase.DEAL:
            deal = next(deals, None)
            if deal is None:
                break
            hands, nest = parse_deal(state.cards, deal)
            state.deal_given(hands, nest)
            continue
        action = next(actions, None)
        if action is None or state.phase is Phase.GAME_OVER:
            break
        state.apply(action)
    return state


def save(record: dict[str, Any], path: str | os.PathLike) -> None:
    atomic_write_text(path, json.dumps(record, indent=1))


def load(path: str | os.PathLike) -> dict[str, Any]:
    with open(path) as f:
        return json.load(f)
