"""Variant parameters: every rule difference between the seven Rook variants is data here.

Each preset is a frozen :class:`Variant`; :func:`get_variant` resolves a name (or alias)
and the ``crow`` option. A rule correction is a one-line change to a preset below
(``../shared/RULES.md`` section 4 is the source table).
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType


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


@dataclass(frozen=True)
class Variant:
    """One variant's rules. Validated on construction; see RULES.md for each field."""

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
        object.__setattr__(self, "counters", tuple(sorted(dict(self.counters).items())))
        colour_points = NUM_COLOURS * sum(self.rank_points(r) for r in self.ranks)
        total = colour_points + self.trick_bonus
        total += self.bird_points if self.bird else 0
        total += self.red_one_points if self.red_one else 0
        object.__setattr__(self, "total_points", total)
        self._validate()

    def _validate(self) -> None:
        if sorted(self.plain_order) != sorted(self.ranks):
            raise ValueError(f"{self.name}: plain_order must be a permutation of ranks")
        if self.red_one and 1 in self.ranks:
            raise ValueError(f"{self.name}: the Red 1 special card needs a deck without 1s")
        unknown = {r for r, _ in self.counters} - set(self.ranks)
        if unknown:
            raise ValueError(f"{self.name}: counters for ranks not in the deck: {sorted(unknown)}")
        if self.deck_size != NUM_SEATS * self.hand_size + self.nest_size:
            raise ValueError(
                f"{self.name}: deck of {self.deck_size} cards does not deal "
                f"{NUM_SEATS}x{self.hand_size} + nest {self.nest_size}"
            )
        if self.min_bid > self.total_points or (self.total_points - self.min_bid) % self.bid_step:
            raise ValueError(f"{self.name}: bids {self.min_bid}..{self.total_points} step {self.bid_step}")

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
