"""The game state and its transitions: deal, auction, nest, trump, tricks, scoring, game end.

``State.apply(action)`` advances in place (the environment's hot path); ``step(state, a)``
is the pure form that returns a new state and leaves its input untouched (search agents
branch with it or with ``State.clone()``, which copies a handful of small lists).

Chance is explicit: when a deal is needed the state sits in phase ``DEAL`` and the driver
calls ``deal_random(rng)`` (a seeded ``random.Random``) or ``deal_given(hands, nest)``.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass
from functools import cache

from .actions import PASS, ActionLayout, layout_for
from .cards import CardSet, CardTables, card_list
from .quote import quote
from .variants import NUM_COLOURS, NUM_SEATS, MadeScore, Variant, get_variant


class Phase(enum.IntEnum):
    AUCTION = 0
    DISCARD = 1
    TRUMP = 2
    PLAY = 3
    DEAL = 4  # chance node: a (re)deal is due
    GAME_OVER = 5


DECISION_PHASES = (Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY)
# The members as module globals for the hot paths: in Python 3.11 reading ``Phase.PLAY`` goes
# through the enum's descriptor and costs 8x a global read (~150 ns, at every decision).
_AUCTION, _DISCARD, _TRUMP, _PLAY, _DEAL, _GAME_OVER = (Phase.AUCTION, Phase.DISCARD, Phase.TRUMP, Phase.PLAY,
                                                        Phase.DEAL, Phase.GAME_OVER)
MAX_SCORE = 10**6
"""bound on a team's game score given to a new state (a game ends at its target, at most 100,000)"""


def check_scores(scores: object) -> tuple[int, int]:
    """``scores`` as two ints within +-MAX_SCORE; ValueError naming the bad value otherwise."""
    if (not isinstance(scores, (tuple, list)) or len(scores) != 2
            or not all(isinstance(x, int) and not isinstance(x, bool) and -MAX_SCORE <= x <= MAX_SCORE
                       for x in scores)):
        raise ValueError(f"scores must be [team0, team1] integers within +-{MAX_SCORE:,}, got {quote(scores)}")
    return scores[0], scores[1]


class IllegalActionError(ValueError):
    """An action that is not legal for the player to move in the current phase."""

    def __init__(self, action: object, phase: Phase, seat: int, reason: str, name: str, game: int | None = None):
        self.action, self.phase, self.seat = action, phase, seat
        self.reason, self.name, self.game = reason, name, game
        where = "" if game is None else f"game {game}: "
        super().__init__(f"{where}illegal action {quote(action)} ({name}) by seat {seat} in phase {phase.name}: "
                         f"{reason}")


@dataclass(frozen=True)
class HandResult:
    """The outcome of one scored hand; team data indexed by team (0 = seats 0 and 2)."""

    hand_no: int
    dealer: int
    declarer: int
    bid: int
    trump: int
    points: tuple[int, int]  # captured, nest and trick bonus included
    tricks: tuple[int, int]
    nest_points: int
    trick_bonus: tuple[int, int]
    made: bool
    score_change: tuple[int, int]
    discards: CardSet


class State:
    """Full game state (all hands). Seat data is indexed by seat, team data by team."""

    __slots__ = (
        "variant", "cards", "layout", "phase", "dealer", "to_move", "scores", "hands", "nest",
        "discards", "passed", "high_bid", "high_bidder", "auction", "declarer", "bid", "trump",
        "leader", "trick", "trick_no", "played", "tricks", "captured", "tricks_won", "voids",
        "hand_no", "deal_no", "results", "winner", "_legal",
    )

    def __init__(self, variant: Variant, dealer: int = 0, scores: tuple[int, int] = (0, 0)):
        if dealer not in range(NUM_SEATS):
            raise ValueError(f"dealer must be a seat 0..3, got {dealer!r}")
        self.variant = variant
        self.layout: ActionLayout = layout_for(variant)
        self.cards: CardTables = self.layout.cards
        self.scores = list(check_scores(scores))
        self.dealer = dealer
        self.hand_no = 0
        self.deal_no = 0
        self.results: list[HandResult] = []
        self.winner = -1
        self._clear_hand()
        self.phase = _DEAL

    # ----------------------------------------------------------------- dealing
    def _clear_hand(self) -> None:
        self.phase = _DEAL
        self.to_move = -1
        self.hands = [0, 0, 0, 0]
        self.nest = self.discards = 0
        self.passed = 0
        self.high_bid, self.high_bidder = 0, -1
        self.auction: list[tuple[int, int]] = []
        self.declarer = self.bid = self.trump = -1
        self.leader, self.trick_no = -1, 0
        self.trick: list[int] = []
        self.played = [0, 0, 0, 0]
        self.tricks: list[tuple[int, int, tuple[int, ...]]] = []  # (leader, winner, cards)
        self.captured = [0, 0]
        self.tricks_won = [0, 0]
        self.voids = [0, 0, 0, 0]  # bit s: seat showed it has no card of effective suit s
        self._legal = -1

    def deal_random(self, rng: random.Random) -> None:
        """Shuffle and deal with an explicit generator."""
        # a uniform shuffle: sorting by independent uniform keys (ties have probability ~2**-43);
        # random.shuffle's per-card Python loop costs five times as much
        keys = [rng.random() for _ in range(self.cards.deck_size)]
        deck = sorted(range(self.cards.deck_size), key=keys.__getitem__)
        h = self.variant.hand_size
        hands = [sum(1 << c for c in deck[i * h:(i + 1) * h]) for i in range(NUM_SEATS)]
        # a split of the shuffled deck is a valid deal: no need to check it as a given one
        self._deal(hands, sum(1 << c for c in deck[NUM_SEATS * h:]), check=False)

    def deal_given(self, hands: list[CardSet], nest: CardSet) -> None:
        """Deal exact hands (bitmasks) and nest; validates sizes and that the deck is used once."""
        self._deal(hands, nest, check=True)

    def _deal(self, hands: list[CardSet], nest: CardSet, check: bool) -> None:
        if self.phase is not _DEAL:
            raise ValueError(f"cannot deal in phase {self.phase.name}")
        if check:
            _check_deal(self.variant, self.cards, hands, nest)
        self._clear_hand()
        self.hands = list(hands)
        self.nest = nest
        self.deal_no += 1
        self.phase = _AUCTION
        self.to_move = (self.dealer + 1) % NUM_SEATS

    # --------------------------------------------------------------- legality
    def legal_mask(self) -> int:
        """Legal action ids as a bitmask (bit a set = action a legal); 0 if nobody is to move."""
        if self._legal < 0:
            self._legal = self._compute_legal()
        return self._legal

    def legal_actions(self) -> list[int]:
        return card_list(self.legal_mask())

    def legal_cards(self) -> CardSet:
        """Cards the player to move may play (trick phase)."""
        return legal_cards(self.cards, self.trump, self.hands[self.to_move], self.trick)

    def _compute_legal(self) -> int:
        phase, lay = self.phase, self.layout
        if phase is _PLAY:
            return legal_cards(self.cards, self.trump, self.hands[self.to_move], self.trick) << lay.play_offset
        if phase is _AUCTION:
            first = 0 if self.high_bid == 0 else (self.high_bid - self.variant.min_bid) // self.variant.bid_step + 1
            bids = ((1 << lay.num_bids) - 1) >> first << first
            return (bids << lay.bid_offset) | 1
        if phase is _DISCARD:
            return self.hands[self.to_move] << lay.discard_offset
        if phase is _TRUMP:
            return 0b1111 << lay.trump_offset
        return 0

    # ---------------------------------------------------------------- actions
    def apply(self, action: int) -> None:
        """Advance in place by one decision; raises IllegalActionError for an illegal one."""
        a = int(action)
        self.check(a)
        self.advance(a)

    def check(self, a: int) -> None:
        """Raise IllegalActionError (naming the action, seat, phase and reason) unless ``a`` (an
        int) is legal now."""
        if a < 0 or not (self.legal_mask() >> a) & 1:
            raise self._illegal(a)

    def advance(self, a: int) -> None:
        """:meth:`apply` without its legality test, for a caller that tested ``a`` (an int) against
        :meth:`legal_mask` itself (``VectorEnv`` tests a whole batch at once in numpy)."""
        self._legal = -1
        lay = self.layout
        if a >= lay.play_offset:
            self._play(a - lay.play_offset)
        elif a >= lay.trump_offset:
            self._name_trump(a - lay.trump_offset)
        elif a >= lay.discard_offset:
            self._discard(a - lay.discard_offset)
        else:
            self._auction(a)

    def _illegal(self, a: int) -> IllegalActionError:
        lay = self.layout
        name = lay.name(a) if 0 <= a < lay.num_actions else "out of range"
        if self.phase not in DECISION_PHASES:
            reason = "no decision is due"
        elif not 0 <= a < lay.num_actions:
            reason = f"ids are 0..{lay.num_actions - 1}"
        else:
            reason = "not among the legal actions"
        return IllegalActionError(a, self.phase, self.to_move, reason, name)

    def _auction(self, a: int) -> None:
        seat = self.to_move
        self.auction.append((seat, a))
        if a == PASS:
            self.passed |= 1 << seat
        else:
            self.high_bid, self.high_bidder = self.layout.bid_value(a), seat
            if self.high_bid == self.variant.max_bid:
                self.passed = 0b1111 ^ (1 << seat)
        n_passed = self.passed.bit_count()
        if n_passed == NUM_SEATS:
            self._clear_hand()  # all passed: same dealer redeals, scores untouched
        elif n_passed == NUM_SEATS - 1 and self.high_bidder >= 0:
            self._win_auction()
        else:
            nxt = (seat + 1) % NUM_SEATS
            while (self.passed >> nxt) & 1:
                nxt = (nxt + 1) % NUM_SEATS
            self.to_move = nxt

    def _win_auction(self) -> None:
        d = self.declarer = self.to_move = self.high_bidder
        self.bid = self.high_bid
        if self.variant.nest_size:
            self.hands[d] |= self.nest
            self.phase = _DISCARD
        else:
            self.phase = _TRUMP

    def _discard(self, card: int) -> None:
        self.hands[self.declarer] ^= 1 << card
        self.discards |= 1 << card
        if self.discards.bit_count() == self.variant.nest_size:
            self.phase = _TRUMP

    def _name_trump(self, colour: int) -> None:
        self.trump = colour
        self.phase = _PLAY
        self.leader = self.to_move = opening_leader(self.dealer)

    def _play(self, card: int) -> None:
        seat, bit = self.to_move, 1 << card
        trick = self.trick
        if trick:
            eff = self.cards.eff_suit[self.trump]
            led = eff[trick[0]]
            if eff[card] != led and not bit & self.cards.anytime:
                self.voids[seat] |= 1 << led
        self.hands[seat] ^= bit
        self.played[seat] |= bit
        trick.append(card)
        if len(trick) < NUM_SEATS:
            self.to_move = (seat + 1) % NUM_SEATS
        else:
            self._finish_trick()

    def _finish_trick(self) -> None:
        winner = (self.leader + trick_winner_offset(self.cards, self.trump, self.trick)) % NUM_SEATS
        team = winner % 2
        pts = self.cards.points
        self.captured[team] += sum(pts[c] for c in self.trick)
        self.tricks_won[team] += 1
        self.tricks.append((self.leader, winner, tuple(self.trick)))
        self.trick = []
        self.trick_no += 1
        self.leader = self.to_move = winner
        if self.trick_no == self.variant.num_tricks:
            self._score_hand(team)

    # ---------------------------------------------------------------- scoring
    def _score_hand(self, last_team: int) -> None:
        nest_points = self.cards.count_points(self.discards)
        self.captured[last_team] += nest_points
        points, bonus = hand_points(self.variant, self.captured, self.tricks_won)
        made, change = score_change(self.variant, points, self.declarer % 2, self.bid)
        self.scores = [self.scores[0] + change[0], self.scores[1] + change[1]]
        self.results.append(HandResult(
            hand_no=self.hand_no, dealer=self.dealer, declarer=self.declarer, bid=self.bid,
            trump=self.trump, points=points, tricks=(self.tricks_won[0], self.tricks_won[1]),
            nest_points=nest_points, trick_bonus=bonus, made=made,
            score_change=change, discards=self.discards,
        ))
        self.hand_no += 1
        self.to_move = -1
        self._check_game_end()

    def _check_game_end(self) -> None:
        s0, s1 = self.scores
        target = self.variant.target
        if max(s0, s1) >= target and s0 != s1:
            self.winner = 0 if s0 > s1 else 1
            self.phase = _GAME_OVER
        else:  # not over, or both past the target and tied: another whole hand (R8)
            self.dealer = (self.dealer + 1) % NUM_SEATS
            self.phase = _DEAL

    # ------------------------------------------------------------------ misc
    def clone(self) -> State:
        """A copy that shares nothing mutable with this state."""
        new = State.__new__(State)
        for name in State.__slots__:
            setattr(new, name, getattr(self, name))
        new.scores, new.hands, new.played = self.scores[:], self.hands[:], self.played[:]
        new.auction, new.trick, new.tricks = self.auction[:], self.trick[:], self.tricks[:]
        new.captured, new.tricks_won, new.voids = self.captured[:], self.tricks_won[:], self.voids[:]
        new.results = self.results[:]
        return new

    _DERIVED = ("cards", "layout", "_legal")  # rebuilt from the variant, not compared or pickled

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in State.__slots__ if n not in State._DERIVED)

    __hash__ = None  # type: ignore[assignment]

    def __getstate__(self) -> dict:
        return {n: getattr(self, n) for n in State.__slots__ if n not in State._DERIVED}

    def __setstate__(self, d: dict) -> None:
        for n, val in d.items():
            setattr(self, n, val)
        self.layout = layout_for(self.variant)
        self.cards = self.layout.cards
        self._legal = -1


# ------------------------------------------------------------------------------------------
# The rules as functions: State and the agents share these (a search agent that keeps a
# specialised copy for speed says so, and a test holds it equal to these).
def legal_cards(cards: CardTables, trump: int, hand: CardSet, trick: list[int] | tuple[int, ...]) -> CardSet:
    """Cards of ``hand`` that may be played on ``trick`` (follow the led effective suit if able;
    the bird, where the variant lets it, at any time)."""
    if not trick:
        return hand
    follow = hand & cards.suit_mask[trump][cards.eff_suit[trump][trick[0]]]
    return (follow | (hand & cards.anytime)) if follow else hand


def hand_points(variant: Variant, captured: list[int] | tuple[int, int],
                tricks_won: list[int] | tuple[int, int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(points per team, trick bonus per team) of a finished hand; ``captured`` includes the nest."""
    b0, b1 = (variant.trick_bonus if 2 * w > variant.num_tricks else 0 for w in tricks_won)
    return (captured[0] + b0, captured[1] + b1), (b0, b1)


def opening_leader(dealer: int) -> int:
    """The seat that leads the first trick of a hand: the dealer's left (whoever declared)."""
    return (dealer + 1) % NUM_SEATS


def score_change(variant: Variant, points: tuple[int, int], declaring_team: int,
                 bid: int) -> tuple[bool, tuple[int, int]]:
    """(made, each team's score change) of a hand: defenders add their points; the declarers
    add the bid or their points when made (the variant's ``made_score``), lose the bid when set."""
    made = points[declaring_team] >= bid
    change = list(points)
    if not made:
        change[declaring_team] = -bid
    elif variant.made_score is MadeScore.BID:
        change[declaring_team] = bid
    return made, (change[0], change[1])


def trick_key(cards: CardTables, trump: int, card: int, led: int) -> int:
    """Trick-taking strength of ``card`` when effective suit ``led`` was led: any trump beats
    the led suit, which beats the rest (0); the highest key wins the trick."""
    tp = cards.trump_power[trump][card]
    if tp:
        return 100 + tp
    return cards.plain_power[card] if cards.eff_suit[trump][card] == led else 0


def trick_winner_offset(cards: CardTables, trump: int, trick: list[int] | tuple[int, ...]) -> int:
    """Index (from the leader) of the card that wins a complete or partial trick."""
    keys = _trick_keys(cards)[trump][cards.eff_suit[trump][trick[0]]]
    best, best_i = -1, 0
    for i, c in enumerate(trick):
        key = keys[c]
        if key > best:
            best, best_i = key, i
    return best_i


@cache
def _trick_keys(cards: CardTables) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``trick_key`` of every card, indexed [trump][led suit][card]: computed once per variant
    (a lookup instead of a call per card of every trick)."""
    return tuple(tuple(tuple(trick_key(cards, trump, c, led) for c in range(cards.deck_size))
                       for led in range(NUM_COLOURS)) for trump in range(NUM_COLOURS))


def _check_deal(v: Variant, cards: CardTables, hands: list[CardSet], nest: CardSet) -> None:
    if len(hands) != NUM_SEATS:
        raise ValueError(f"a deal needs {NUM_SEATS} hands, got {len(hands)}")
    seen = 0
    for seat, h in enumerate(hands):
        if h.bit_count() != v.hand_size:
            raise ValueError(f"hand {seat} has {h.bit_count()} cards; {v.name} deals {v.hand_size}")
        if seen & h:
            raise ValueError(f"hand {seat} repeats cards dealt to another hand: {cards.names_of(seen & h)}")
        seen |= h
    if nest.bit_count() != v.nest_size:
        raise ValueError(f"nest has {nest.bit_count()} cards; {v.name} needs {v.nest_size}")
    if seen & nest or (seen | nest) != cards.full_deck:
        raise ValueError("hands and nest must use every card of the deck exactly once")


def new_game(
    variant: str | Variant = "crowsnest", *, crow: bool = True, dealer: int = 0,
    scores: tuple[int, int] = (0, 0), rng: random.Random | None = None,
) -> State:
    """A state at the start of a game; dealt at random when ``rng`` is given."""
    v = variant if isinstance(variant, Variant) else get_variant(variant, crow)
    state = State(v, dealer=dealer, scores=scores)
    if rng is not None:
        state.deal_random(rng)
    return state


def step(state: State, action: int) -> State:
    """Pure transition: a new state after ``action``; ``state`` is left as it was."""
    new = state.clone()
    new.apply(action)
    return new
