"""Pure Rook rules engine (stdlib only): cards, variants, state, legality, scoring, views."""

from __future__ import annotations

from .actions import PASS, ActionLayout, layout_for
from .cards import CardSet, CardTables, card_list, iter_cards, tables, tables_for
from .quote import quote
from .state import (
    DECISION_PHASES,
    MAX_SCORE,
    HandResult,
    IllegalActionError,
    Phase,
    State,
    check_scores,
    hand_points,
    legal_cards,
    new_game,
    opening_leader,
    score_change,
    step,
    trick_key,
    trick_winner_offset,
)
from .variants import (
    ALIASES,
    COLOUR_LETTERS,
    COLOURS,
    MAX_BIDS,
    MAX_CARD_POINTS,
    MAX_RANKS,
    MAX_TARGET,
    NO_CROW_SUFFIX,
    NUM_COLOURS,
    NUM_SEATS,
    PRESETS,
    VARIANTS,
    BirdRank,
    MadeScore,
    Variant,
    get_variant,
)
from .view import PlayerView, player_view

__all__ = [
    "ALIASES", "COLOURS", "COLOUR_LETTERS", "DECISION_PHASES", "MAX_BIDS", "MAX_CARD_POINTS", "MAX_RANKS",
    "MAX_SCORE", "MAX_TARGET", "NUM_COLOURS", "NUM_SEATS",
    "PASS", "PRESETS", "VARIANTS", "ActionLayout", "BirdRank", "CardSet", "CardTables",
    "HandResult", "IllegalActionError", "MadeScore", "NO_CROW_SUFFIX", "Phase", "PlayerView", "State",
    "Variant", "card_list", "check_scores", "get_variant", "iter_cards", "layout_for", "new_game",
    "hand_points", "legal_cards", "opening_leader", "player_view", "quote", "score_change", "step", "tables",
    "tables_for", "trick_key", "trick_winner_offset",
]
