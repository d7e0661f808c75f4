"""Game records: variant, options, deals and actions as JSON, replayable to the identical state.

Other top-level keys are kept and ignored by :func:`replay` (the play app adds ``players``: the
agent of each seat, ``human`` for the person)."""

from __future__ import annotations

import json
import os
from typing import Any

from .atomic import atomic_write_text
from .rules import CardTables, Phase, State, Variant, get_variant, quote

RECORD_FORMAT = "crowsnest-record"
RECORD_VERSION = 1
MAX_RECORD_BYTES = 16 << 20
"""largest record file read (a whole game to 300 is a few tens of kilobytes)"""


def new_record(options: dict[str, Any], dealer: int, scores: tuple[int, int],
               variant: Variant | None = None, preset: bool | None = None) -> dict[str, Any]:
    """An empty record; a variant that is not a preset (nor its no-Crow option) is stored in full
    under ``rules`` so that the record replays without it. ``preset``: :func:`is_preset` of
    ``variant`` where the caller already knows it (a table asks once, not per record)."""
    rec = {"format": RECORD_FORMAT, "version": RECORD_VERSION, "options": dict(options),
           "dealer": dealer, "scores": list(scores), "deals": [], "actions": []}
    if variant is not None and not (is_preset(variant) if preset is None else preset):
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

        if not isinstance(record["rules"], dict):
            raise ValueError(f"record 'rules' must be a mapping, got {type(record['rules']).__name__}")
        return variant_from_dict(record["rules"], source="record rules")
    opts = record["options"]
    if not isinstance(opts.get("variant"), str):
        raise ValueError(f"record options['variant'] must be a variant name, got {quote(opts.get('variant'))}")
    crow = opts.get("crow", True)
    if not isinstance(crow, bool):  # "false" is a non-empty string: it would read as True
        raise ValueError(f"record options['crow'] must be true or false, got {quote(crow)}")
    return get_variant(opts["variant"], crow)


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_record(record: Any) -> None:
    """ValueError naming the first thing wrong with the shape of ``record`` (its keys and their types)."""
    if not isinstance(record, dict) or record.get("format") != RECORD_FORMAT:
        raise ValueError("not a CrowsNest game record (missing format 'crowsnest-record')")
    if record.get("version") != RECORD_VERSION:
        raise ValueError(f"unsupported record version {quote(record.get('version'))}; expected {RECORD_VERSION}")
    missing = [k for k in ("options", "dealer", "scores", "deals", "actions") if k not in record]
    if missing:
        raise ValueError(f"record is missing {missing}")
    if not isinstance(record["options"], dict):
        raise ValueError(f"record 'options' must be a mapping, got {quote(record['options'])}")
    if not _is_int(record["dealer"]) or not 0 <= record["dealer"] < 4:
        raise ValueError(f"record 'dealer' must be a seat 0..3, got {quote(record['dealer'])}")
    scores = record["scores"]
    if not isinstance(scores, list) or len(scores) != 2 or not all(_is_int(x) for x in scores):
        raise ValueError(f"record 'scores' must be two integers, got {quote(scores)}")
    for key in ("deals", "actions"):
        if not isinstance(record[key], list):
            raise ValueError(f"record {key!r} must be a list, got {type(record[key]).__name__}")
    for i, a in enumerate(record["actions"]):
        if not _is_int(a):
            raise ValueError(f"record action {i} must be an integer id, got {quote(a)}")


def deal_entry(cards: CardTables, dealer: int, hands: tuple[int, ...], nest: int) -> dict[str, Any]:
    """A deal by card names."""
    return {"dealer": dealer, "hands": [cards.names_of(h) for h in hands], "nest": cards.names_of(nest)}


def parse_deal(cards: CardTables, deal: Any) -> tuple[list[int], int]:
    """``{"hands": [4 lists of card names], "nest": [names]}`` -> bitmasks; ValueError if malformed."""
    if not isinstance(deal, dict) or set(deal) - {"hands", "nest", "dealer"} or "hands" not in deal:
        raise ValueError(f"deal must be a dict with keys 'hands' (4 lists of card names) and 'nest', got {quote(deal)}")
    hands = deal["hands"]
    if not isinstance(hands, (list, tuple)) or len(hands) != 4:
        raise ValueError(f"deal['hands'] must be 4 lists of card names, got {quote(hands)}")
    nest = deal.get("nest", [])
    for what, names in [*((f"deal['hands'][{i}]", h) for i, h in enumerate(hands)), ("deal['nest']", nest)]:
        if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) for n in names):
            raise ValueError(f"{what} must be a list of card names, got {quote(names)}")
    return [cards.cards_from_names(list(h)) for h in hands], cards.cards_from_names(list(nest))


def replay(record: dict[str, Any] | str | os.PathLike, upto: int | None = None) -> State:
    """Rebuild the state a record ends in, by dealing its deals and applying its actions.

    ``record`` is a loaded record or the path of a record file (read with :func:`load`).
    ``upto=n`` stops after the first n actions: the position a viewer shows at move n (the
    deals its actions have not reached yet are then not an error).
    ValueError (IllegalActionError for an illegal move) names what is wrong: a missing or
    ill-typed key, a bad deal, or actions or deals left over once the game has ended.
    """
    if isinstance(record, (str, os.PathLike)):
        record = load(record)
    check_record(record)
    variant = record_variant(record)
    state = State(variant, dealer=record["dealer"], scores=tuple(record["scores"]))
    deals, actions = record["deals"], record["actions"]
    if upto is not None:
        if isinstance(upto, bool) or not isinstance(upto, int) or not 0 <= upto <= len(actions):
            raise ValueError(f"upto must be 0..{len(actions)} (the record's actions), got {upto!r}")
        actions = actions[:upto]
    d = a = 0
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.DEAL:
            if d == len(deals):
                break
            try:
                hands, nest = parse_deal(state.cards, deals[d])
                state.deal_given(hands, nest)
            except ValueError as err:
                raise ValueError(f"record deal {d}: {err}") from None
            d += 1
        elif a == len(actions):
            break
        else:
            state.apply(actions[a])  # IllegalActionError (a ValueError) names the action and the phase
            a += 1
    if a < len(actions):
        where = "after the game ended" if state.phase is Phase.GAME_OVER else "with no deal left to play them on"
        raise ValueError(f"record has {len(actions) - a} trailing action(s) {where} (from action {a})")
    if d < len(deals) and upto is None:
        raise ValueError(f"record has {len(deals) - d} deal(s) that its actions never reach (from deal {d})")
    return state


def save(record: dict[str, Any], path: str | os.PathLike) -> None:
    atomic_write_text(path, json.dumps(record, indent=1))


def load(path: str | os.PathLike) -> dict[str, Any]:
    """Read a record file (not checked: :func:`replay` does that). ValueError for a file larger than
    MAX_RECORD_BYTES, nested deeper than the JSON parser can go, or holding NaN or Infinity."""
    with open(path, "rb") as f:
        data = f.read(MAX_RECORD_BYTES + 1)
    if len(data) > MAX_RECORD_BYTES:
        raise ValueError(f"record {os.fspath(path)!r} is larger than {MAX_RECORD_BYTES:,} bytes; not a game record")
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError:  # json raises it cleanly, before the stack is at risk
        raise ValueError(f"record {os.fspath(path)!r} is nested too deeply; not a game record") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"record has a non-finite number {name} (JSON allows none)")
