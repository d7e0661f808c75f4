"""Variant parameters: every rule difference between the seven Rook variants is data here.

Each preset is a frozen :class:`Variant`; :func:`get_variant` resolves a name (or alias)
and the ``crow`` option. A rule correction is a one-line change to a preset below
(``../shared/RULES.md`` section 4 is the source table).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType

from .quote import quote


class BirdRank(enum.Enum):
    """Where the bird sits among trumps."""

    LOWEST = "lowest"  # below trump 5 (crowsnest) or trump 2 (one_high)
    HIGHEST = "highest"  # above the top trump colour card (below the Red 1 if present)


class MadeScore(enum.Enum):
    """What a declaring team that made its bid adds to its score."""

    BID = "bid"  # crowsnest: the bid, captured surplus ignored
    CAPTURED = "captured"  # tournament and the rest: the points captured


COLOURS: tuple[str, ...] = ("Black", "Green", "Red", "Yellow")
COLOUR_LETTERS: tuple[str, ...] = ("B", "G", "R", "Y")
NUM_SEATS = 4
NUM_COLOURS = 4

MAX_RANKS = 20
"""most ranks per colour (a deck of at most 4 x 20 + 2 cards)"""
MAX_RANK = 99
"""highest printed rank"""
MAX_CARD_POINTS = 1000
"""most points one card (or the trick bonus) may be worth"""
MAX_BIDS = 200
"""most bid levels ``min_bid..max_bid``: the action layout and the observation stay small"""
MAX_TARGET = 100_000
"""highest game target"""
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
"""a variant's name: also a file name (the shipped policy ``agents/policies/<name>.pt``)"""
BIRD_NAME_PATTERN = re.compile(r"[A-Z][A-Z0-9_]{0,15}")
"""the bird's card name: upper case, so that card names parse case-insensitively"""


@dataclass(frozen=True)
class Variant:
    """One variant's rules. Validated on construction (every field: type, range, and the
    rules together; ValueError naming the field); see RULES.md for each field."""

    name: str
    ranks: tuple[int, ...]  # printed ranks present in every colour
    plain_order: tuple[int, ...]  # ranks from lowest to highest trick-taking power
    bird: bool
    hand_size: int
    nest_size: int
    counters: tuple[tuple[int, int], ...]  # (rank, points) pairs for coloured counters
    bird_points: int = 20
    bird_rank: BirdRank = BirdRank.LOWEST
    bird_name: str = "ROOK"
    bird_any_time: bool = True  # the bird may be played whatever was led (False: it follows suit as a trump)
    red_one: bool = False  # the R1 special card (top trump, worth red_one_points)
    red_one_points: int = 30
    trick_bonus: int = 0  # to the team winning more than half of the tricks
    made_score: MadeScore = MadeScore.CAPTURED
    min_bid: int = 70
    bid_step: int = 5
    target: int = 300
    crow_option: bool = False  # whether crow=False may be asked for
    total_points: int = field(init=False)

    def __post_init__(self) -> None:
        self._check_fields()
        object.__setattr__(self, "counters", tuple(sorted(self.counters)))
        colour_points = NUM_COLOURS * sum(self.rank_points(r) for r in self.ranks)
        total = colour_points + self.trick_bonus
        total += self.bird_points if self.bird else 0
        total += self.red_one_points if self.red_one else 0
        object.__setattr__(self, "total_points", total)
        self._validate()

    def _fail(self, text: str) -> ValueError:
        name = self.name if isinstance(self.name, str) and NAME_PATTERN.fullmatch(self.name) else "variant"
        return ValueError(f"{name}: {text}")

    def _check_fields(self) -> None:
        """Each field on its own: its type and range (sequences become tuples)."""
        if not isinstance(self.name, str) or not NAME_PATTERN.fullmatch(self.name):
            raise self._fail(f"name must be 1 to 64 letters, digits, '_' or '-' (starting with a letter or "
                             f"digit), got {quote(self.name)}")
        for key in ("ranks", "plain_order"):
            value = getattr(self, key)
            if not isinstance(value, (tuple, list)) or not 1 <= len(value) <= MAX_RANKS:
                raise self._fail(f"{key} must be a list of 1 to {MAX_RANKS} ranks, got {quote(value)}")
            for i, rank in enumerate(value):
                self._int(f"{key}[{i}]", rank, 1, MAX_RANK)
            object.__setattr__(self, key, tuple(value))
        if len(set(self.ranks)) != len(self.ranks):
            raise self._fail(f"ranks must be distinct, got {quote(self.ranks)}")
        self._check_counters()
        for key in ("bird", "bird_any_time", "red_one", "crow_option"):
            if not isinstance(getattr(self, key), bool):
                raise self._fail(f"{key} must be true or false, got {quote(getattr(self, key))}")
        for key, kind in (("bird_rank", BirdRank), ("made_score", MadeScore)):
            if not isinstance(getattr(self, key), kind):
                raise self._fail(f"{key} must be one of {[e.value for e in kind]}, got {quote(getattr(self, key))}")
        if not isinstance(self.bird_name, str) or not BIRD_NAME_PATTERN.fullmatch(self.bird_name):
            raise self._fail(f"bird_name must be 1 to 16 upper-case letters, digits or '_' (starting with a "
                             f"letter), got {quote(self.bird_name)}")
        self._int("hand_size", self.hand_size, 1, NUM_COLOURS * MAX_RANKS)
        self._int("nest_size", self.nest_size, 0, NUM_COLOURS * MAX_RANKS)
        for key in ("bird_points", "red_one_points", "trick_bonus"):
            self._int(key, getattr(self, key), 0, MAX_CARD_POINTS)
        self._int("min_bid", self.min_bid, 1, None)
        self._int("bid_step", self.bid_step, 1, None)
        self._int("target", self.target, 1, MAX_TARGET)

    def _int(self, key: str, value: object, low: int, high: int | None) -> None:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self._fail(f"{key} must be an integer, got {type(value).__name__} {quote(value)}")
        if value < low or (high is not None and value > high):
            span = f">= {low}" if high is None else f"in {low}..{high}"
            raise self._fail(f"{key} must be {span}, got {quote(value)}")

    def _check_counters(self) -> None:
        pairs = self.counters
        if isinstance(pairs, Mapping):
            pairs = tuple(pairs.items())
        if not isinstance(pairs, (tuple, list)) or len(pairs) > MAX_RANKS:
            raise self._fail(f"counters must be (rank, points) pairs, at most {MAX_RANKS}, got {quote(pairs)}")
        for pair in pairs:
            if not isinstance(pair, (tuple, list)) or len(pair) != 2:
                raise self._fail(f"counters must be (rank, points) pairs, got {quote(pair)}")
            self._int("counters rank", pair[0], 1, MAX_RANK)
            self._int(f"counters[{pair[0]}] (the points of rank {pair[0]})", pair[1], 0, MAX_CARD_POINTS)
        ranks = [r for r, _ in pairs]
        if len(set(ranks)) != len(ranks):
            raise self._fail(f"counters name a rank twice: {quote(sorted(ranks))}")
        object.__setattr__(self, "counters", tuple((r, p) for r, p in pairs))

    def _validate(self) -> None:
        """The fields together: the deck deals, the bids fit the points, the no-Crow option exists."""
        if sorted(self.plain_order) != sorted(self.ranks):
            raise self._fail("plain_order must be a permutation of ranks")
        if self.red_one and 1 in self.ranks:
            raise self._fail("the Red 1 special card needs a deck without 1s")
        unknown = {r for r, _ in self.counters} - set(self.ranks)
        if unknown:
            raise self._fail(f"counters for ranks not in the deck: {sorted(unknown)}")
        if self.bird and self.bird_name in {COLOUR_LETTERS[c] + str(r) for c in range(NUM_COLOURS)
                                            for r in self.ranks} | {"R1"}:
            raise self._fail(f"bird_name {self.bird_name!r} is also the name of another card")
        if self.deck_size != NUM_SEATS * self.hand_size + self.nest_size:
            raise self._fail(f"deck of {self.deck_size} cards does not deal "
                             f"{NUM_SEATS}x{self.hand_size} + nest {self.nest_size}")
        if self.min_bid > self.total_points or (self.total_points - self.min_bid) % self.bid_step:
            raise self._fail(f"bids go from min_bid {self.min_bid} in steps of bid_step {self.bid_step} and "
                             f"must end on the {self.total_points} points of a hand")
        levels = (self.total_points - self.min_bid) // self.bid_step + 1
        if levels > MAX_BIDS:
            raise self._fail(f"bids {self.min_bid}..{self.total_points} step {self.bid_step} make "
                             f"{levels:,} bid levels; at most {MAX_BIDS}")
        if self.crow_option:
            if not self.bird or self.nest_size < 1:
                raise self._fail("crow_option needs a bird and a nest (crow=False removes the bird and one nest card)")
            try:
                self.without_crow()
            except ValueError as err:
                raise self._fail(f"crow_option: the no-Crow rules do not work: {err}") from None

    def differences(self, other: Variant, labels: tuple[str, str] = ("this", "other")) -> str:
        """The rule fields in which ``self`` and ``other`` differ, e.g. ``target 300 (trained) vs
        500 (played)`` with ``labels=("trained", "played")``; empty if they are the same rules."""
        out = []
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if f.init and mine != theirs:
                mine, theirs = (x.value if isinstance(x, enum.Enum) else x for x in (mine, theirs))
                out.append(f"{f.name} {quote(mine)} ({labels[0]}) vs {quote(theirs)} ({labels[1]})")
        return ", ".join(out)

    def rank_points(self, rank: int) -> int:
        """Points of a coloured card of this printed rank."""
        return dict(self.counters).get(rank, 0)

    @property
    def deck_size(self) -> int:
        return NUM_COLOURS * len(self.ranks) + int(self.bird) + int(self.red_one)

    @property
    def num_tricks(self) -> int:
        return self.hand_size

    @property
    def max_bid(self) -> int:
        return self.total_points

    @property
    def bids(self) -> tuple[int, ...]:
        return tuple(range(self.min_bid, self.max_bid + 1, self.bid_step))

    @property
    def has_nest(self) -> bool:
        return self.nest_size > 0

    def without_crow(self) -> Variant:
        """The 40-card option: no bird, one card fewer in the nest, named ``<name>_nocrow``."""
        if not self.crow_option:
            raise ValueError(f"crow=False is only available in crowsnest and tournament, not {self.name!r}")
        return replace(self, name=self.name + NO_CROW_SUFFIX, bird=False, nest_size=self.nest_size - 1,
                       crow_option=False)


NO_CROW_SUFFIX = "_nocrow"

_FIVE_TEN_FOURTEEN = ((5, 5), (10, 10), (14, 10))
_ONES_HIGH = ((1, 15), (5, 5), (10, 10), (14, 10))
_FIVE_TO_14 = tuple(range(5, 15))
_ONE_TO_14 = tuple(range(1, 15))

PRESETS: Mapping[str, Variant] = MappingProxyType(
    {
        "crowsnest": Variant(
            name="crowsnest", ranks=_FIVE_TO_14, plain_order=_FIVE_TO_14, bird=True,
            hand_size=9, nest_size=5, counters=_FIVE_TEN_FOURTEEN, bird_name="CROW",
            bird_rank=BirdRank.LOWEST, made_score=MadeScore.BID, crow_option=True,
        ),
        "tournament": Variant(
            name="tournament", ranks=_FIVE_TO_14, plain_order=_FIVE_TO_14, bird=True,
            hand_size=9, nest_size=5, counters=_FIVE_TEN_FOURTEEN,
            bird_rank=BirdRank.HIGHEST, crow_option=True,
        ),
        "partnership": Variant(
            name="partnership", ranks=_ONE_TO_14, plain_order=_ONE_TO_14, bird=False,
            hand_size=14, nest_size=0, counters=_FIVE_TEN_FOURTEEN, trick_bonus=20,
        ),
        "one_high": Variant(
            name="one_high", ranks=_ONE_TO_14, plain_order=(*range(2, 15), 1), bird=True,
            hand_size=13, nest_size=5, counters=_ONES_HIGH, bird_rank=BirdRank.LOWEST,
            bird_any_time=False,  # R10: the bird follows suit as the lowest trump
        ),
        "red_one": Variant(
            name="red_one", ranks=_FIVE_TO_14, plain_order=_FIVE_TO_14, bird=True,
            hand_size=9, nest_size=6, counters=_FIVE_TEN_FOURTEEN,
            bird_rank=BirdRank.HIGHEST, red_one=True,
        ),
        "buckeye": Variant(
            name="buckeye", ranks=(1, *_FIVE_TO_14), plain_order=(*_FIVE_TO_14, 1), bird=True,
            hand_size=10, nest_size=5, counters=_ONES_HIGH, bird_rank=BirdRank.HIGHEST,
            min_bid=100,  # R11: the 45-card game opens at 100
        ),
        "dixie": Variant(
            name="dixie", ranks=_ONE_TO_14, plain_order=_ONE_TO_14, bird=False,
            hand_size=13, nest_size=4, counters=((5, 5), (10, 10), (13, 10)), trick_bonus=20,
        ),
    }
)

VARIANTS: tuple[str, ...] = tuple(PRESETS)
ALIASES: Mapping[str, str] = MappingProxyType({"kentucky_discard": "tournament"})


def get_variant(name: str | Variant, crow: bool = True) -> Variant:
    """Resolve a variant name or alias (case-insensitive) and the ``crow`` option.

    A :class:`Variant` is returned as it is (``crow=False`` removes its bird); a name ending in
    ``_nocrow`` (``crowsnest_nocrow``) names the 40-card option of its preset.
    """
    if isinstance(name, Variant):
        if not isinstance(crow, bool):
            raise ValueError(f"crow must be True or False, got {crow!r}")
        return name if crow or not name.bird else name.without_crow()
    if not isinstance(name, str):
        raise ValueError(f"variant must be a name or a Variant, got {name!r}")
    if not isinstance(crow, bool):
        raise ValueError(f"crow must be True or False, got {crow!r}")
    key = name.lower()
    if key.endswith(NO_CROW_SUFFIX):
        key, crow = key[: -len(NO_CROW_SUFFIX)], False
    key = ALIASES.get(key, key)
    if key not in PRESETS:
        valid = ", ".join(VARIANTS + tuple(ALIASES))
        raise ValueError(f"unknown variant {name!r}; valid names: {valid} (each crow-option one also as <name>_nocrow)")
    variant = PRESETS[key]
    return variant if crow else variant.without_crow()
