"""Seat-relative observation encoding, kept up to date incrementally as cards move.

The observation of a seat is one flat float32 vector made of named pieces (OpenSpiel's
observer style). Relative seat ``r`` of a viewer ``v`` is absolute seat ``(v + r) % 4``:
0 = me, 1 = left, 2 = partner, 3 = right. ``N`` = deck size, ``B`` = number of bid levels.

| piece        | size   | meaning                                                          |
|--------------|--------|------------------------------------------------------------------|
| hand         | N      | 1 for each card I hold (the nest's cards too while I discard)   |
| nest_seen    | N      | the nest as I picked it up (declarer only; zeros otherwise)     |
| discards     | N      | the cards I put back into the nest (declarer only)               |
| played       | 4 x N  | cards each relative seat has played this hand (tricks + current) |
| trick        | 4 x N  | the card each relative seat has put on the current trick        |
| phase        | 4      | one-hot: auction, discard, trump, play                           |
| to_move      | 4      | one-hot relative seat to act (zeros when nobody is)              |
| dealer       | 4      | one-hot relative dealer                                          |
| leader       | 4      | one-hot relative leader of the current trick (play phase)        |
| bids         | 4 x B  | one-hot of each relative seat's latest bid this deal             |
| passed       | 4      | 1 if that relative seat has passed in this auction               |
| high_bid     | B      | one-hot of the highest bid so far (the contract once decided)   |
| high_bidder  | 4      | one-hot relative seat of the high bidder                         |
| declarer     | 4      | one-hot relative declarer (after the auction)                    |
| trump        | 4      | one-hot trump colour: Black, Green, Red, Yellow                  |
| voids        | 4 x 4  | relative seat x effective suit shown void by failing to follow  |
| points       | 2      | counters captured so far (my team, other team) / total points    |
| tricks       | 2      | tricks won (my team, other team) / tricks per hand               |
| scores       | 2      | game scores (my team, other team) / target, clipped to [-10, 10] |

Every piece depends only on what the seat may know (no other hand, no hidden nest card).

Two encoders make the same vector: :func:`encode_view` is the reference, a plain function of a
:class:`~crowsnest_env.rules.PlayerView` (what agents act on); :class:`ObservationEncoder` is its
incremental optimisation for drivers, which keeps all four rows up to date as cards move and is
tested equal to :func:`encode_view` on fixed seeds in every variant. :func:`action_mask` turns
a legal-action bitmask into the int8 mask (cached, shared, read-only).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from functools import cache

import numpy as np

from .rules import (
    NUM_COLOURS,
    NUM_SEATS,
    PASS,
    Phase,
    PlayerView,
    State,
    Variant,
    iter_cards,
    layout_for,
    tables_for,
)

SCORE_CLIP = 10.0
MASK_CACHE_SIZE = 8192
_BITS_TO_BYTES = bytes.maketrans(b"01", b"\x00\x01")
_MASKS: dict[tuple[int, int], np.ndarray] = {}


def action_mask(legal: int, num_actions: int) -> np.ndarray:
    """The int8 mask (length ``num_actions``) of a legal-action bitmask: shared and read-only
    (masks recur: auction, leads), so copy it before writing; ``mask.view(bool)`` is free."""
    key = (legal, num_actions)
    mask = _MASKS.get(key)
    if mask is None:
        # bit k of legal -> byte k: binary digits, lowest bit first, "0"/"1" translated to 0/1
        flags = format(legal, f"0{num_actions}b")[::-1].encode().translate(_BITS_TO_BYTES)
        mask = np.frombuffer(flags, dtype=np.int8)
        if len(_MASKS) >= MASK_CACHE_SIZE:
            _MASKS.clear()
        _MASKS[key] = mask
    return mask


@dataclass(frozen=True)
class Piece:
    """One named slice of the flat observation: ``obs[offset:offset+size]`` viewed as ``shape``."""

    name: str
    offset: int
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def slice(self) -> slice:
        return slice(self.offset, self.offset + self.size)


@dataclass(frozen=True, eq=False)
class ObservationLayout:
    """The list of pieces of a variant's observation and its total size."""

    variant: Variant
    pieces: tuple[Piece, ...]
    size: int

    def __getitem__(self, name: str) -> Piece:
        for p in self.pieces:
            if p.name == name:
                return p
        raise KeyError(f"no observation piece {name!r}; pieces: {[p.name for p in self.pieces]}")

    def split(self, obs: np.ndarray) -> dict[str, np.ndarray]:
        """Named views into a flat observation (no copy)."""
        return {p.name: obs[p.slice].reshape(p.shape) for p in self.pieces}

    def describe(self) -> list[tuple[str, int, tuple[int, ...]]]:
        """``(name, offset, shape)`` for each piece, as stored in checkpoints."""
        return [(p.name, p.offset, p.shape) for p in self.pieces]

    def bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of every entry, for observation spaces: [0, 1], the scores [-SCORE_CLIP, SCORE_CLIP]."""
        low, high = np.zeros(self.size, np.float32), np.ones(self.size, np.float32)
        scores = self["scores"].slice
        low[scores], high[scores] = -SCORE_CLIP, SCORE_CLIP
        return low, high


@cache
def observation_layout(variant: Variant) -> ObservationLayout:
    n = tables_for(variant).deck_size
    nb = layout_for(variant).num_bids
    shapes = [
        ("hand", (n,)), ("nest_seen", (n,)), ("discards", (n,)), ("played", (4, n)),
        ("trick", (4, n)), ("phase", (4,)), ("to_move", (4,)), ("dealer", (4,)),
        ("leader", (4,)), ("bids", (4, nb)), ("passed", (4,)), ("high_bid", (nb,)),
        ("high_bidder", (4,)), ("declarer", (4,)), ("trump", (NUM_COLOURS,)),
        ("voids", (4, NUM_COLOURS)), ("points", (2,)), ("tricks", (2,)), ("scores", (2,)),
    ]
    pieces, off = [], 0
    for name, shape in shapes:
        pieces.append(Piece(name, off, shape))
        off += int(np.prod(shape))
    return ObservationLayout(variant, tuple(pieces), off)


# The public pieces an encoder keeps in sync, as indices into its ``_last`` values.
_TO_MOVE, _DEALER, _LEADER, _HIGH_BIDDER, _DECLARER, _PHASE_PIECE, _HIGH_BID, _TRUMP_PIECE = range(8)
_SEAT_PIECES = {_TO_MOVE: "to_move", _DEALER: "dealer", _LEADER: "leader", _HIGH_BIDDER: "high_bidder",
                _DECLARER: "declarer"}
_INDEX_PIECES = {_PHASE_PIECE: "phase", _HIGH_BID: "high_bid", _TRUMP_PIECE: "trump"}
_AUCTION, _DISCARD, _PLAY = Phase.AUCTION, Phase.DISCARD, Phase.PLAY  # a global is 8x faster to read in 3.11


@dataclass(frozen=True, eq=False)
class _Writes:
    """Where an encoder writes: flat indices into its four rows (row = absolute seat, ``D`` floats
    each), computed once per variant and shared by every encoder of it, so that a batch of N
    games keeps one copy in cache rather than N."""

    offsets: dict[str, int]
    hand: tuple[int, ...]  # [seat] start of the hand piece in its own row
    nest_seen: tuple[int, ...]
    discards: tuple[int, ...]
    played: tuple[tuple[tuple[int, ...], ...], ...]  # [seat][card] the card's index in each viewer's row
    trick: tuple[tuple[tuple[int, ...], ...], ...]
    played_trick: tuple[tuple[tuple[int, ...], ...], ...]  # [seat][card] played's four, then trick's
    bids: tuple[tuple[int, ...], ...]  # [seat] start of that seat's block in each viewer's row
    voids: tuple[tuple[int, ...], ...]
    passed: tuple[tuple[int, ...], ...]  # [seat] its flag in each viewer's row
    seat_at: tuple[tuple[tuple[int, ...], ...], ...]  # [seat piece id][seat] index in each viewer's row
    index_at: tuple[tuple[int, ...], ...]  # [index piece id] start of the piece in each row
    points_at: tuple[int, ...]  # [viewer] start of the piece in its row
    tricks_at: tuple[int, ...]
    scores_at: tuple[int, ...]
    trick_starts: tuple[int, ...]
    zero_trick: array
    zero_bids: array


@cache
def _writes(variant: Variant) -> _Writes:
    layout = observation_layout(variant)
    D, n, nb = layout.size, tables_for(variant).deck_size, layout_for(variant).num_bids
    o = {p.name: p.offset for p in layout.pieces}
    seats = range(NUM_SEATS)

    def rel_bases(piece: str, block: int) -> tuple[tuple[int, ...], ...]:
        """Per absolute seat s: the flat index, in each viewer's row, of s's relative block."""
        return tuple(tuple(v * D + o[piece] + ((s - v) % NUM_SEATS) * block for v in seats) for s in seats)

    def per_card(bases: tuple[tuple[int, ...], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
        return tuple(tuple(tuple(b + c for b in bases[s]) for c in range(n)) for s in seats)

    def starts(piece: str) -> tuple[int, ...]:
        return tuple(v * D + o[piece] for v in seats)

    played, trick = per_card(rel_bases("played", n)), per_card(rel_bases("trick", n))
    seat_pieces = [rel_bases(_SEAT_PIECES[k], 1) if k in _SEAT_PIECES else () for k in range(len(_SEAT_PIECES))]
    index_pieces = [starts(_INDEX_PIECES[k]) if k in _INDEX_PIECES else () for k in range(_TRUMP_PIECE + 1)]
    return _Writes(
        offsets=o, hand=starts("hand"), nest_seen=starts("nest_seen"), discards=starts("discards"),
        played=played, trick=trick,
        played_trick=tuple(tuple(p + t for p, t in zip(played[s], trick[s])) for s in seats),
        bids=rel_bases("bids", nb), voids=rel_bases("voids", NUM_COLOURS), passed=rel_bases("passed", 1),
        seat_at=tuple(seat_pieces), index_at=tuple(index_pieces),
        points_at=starts("points"), tricks_at=starts("tricks"), scores_at=starts("scores"),
        trick_starts=starts("trick"),
        zero_trick=array("f", bytes(4 * NUM_SEATS * n)), zero_bids=array("f", bytes(4 * nb)),
    )


class ObservationEncoder:
    """Holds all four seats' observations as rows of one buffer and updates them in place.

    ``obs`` is a ``(4, D)`` float32 numpy view (row = absolute seat) of a flat ``array('f')``
    that the updates write element by element: a Python ``array`` item write costs a third of
    a numpy scalar write, and a move touches only a dozen entries. ``reset(state)`` rebuilds
    everything; ``step(state, seat, action)`` applies one move. Where to write comes from
    per-variant tables that all encoders share; an encoder's own data is its rows and the last
    values of the public pieces.
    """

    __slots__ = ("variant", "layout", "cards", "actions", "n", "size", "buf", "obs", "o", "_w", "_nbytes", "_hand",
                 "_points_scale", "_tricks_scale", "_last", "_high_bid", "_points", "_tricks", "_scores", "_voids")

    def __init__(self, variant: Variant):
        self.variant = variant
        self.layout = observation_layout(variant)
        self.cards = tables_for(variant)
        self.actions = layout_for(variant)
        self.n = self.cards.deck_size
        self.size = self.layout.size
        self.buf = array("f", bytes(4 * NUM_SEATS * self.size))
        self._make_view()
        self._w = _writes(variant)
        self.o = self._w.offsets
        self._nbytes = (self.n + 7) // 8  # of a card set as little-endian bytes
        self._hand = self.layout["hand"].slice
        self._points_scale = 1.0 / variant.total_points
        self._tricks_scale = 1.0 / variant.num_tricks
        self._forget()

    def _forget(self) -> None:
        """The last public values as all-zero rows encode them (no one-hot set, points, tricks and
        scores 0): call it with the rows zeroed, and the next ``_public`` writes what differs."""
        self._last = [-1] * (_TRUMP_PIECE + 1)
        self._high_bid = 0
        self._points, self._tricks, self._scores = [0, 0], [0, 0], [0, 0]
        self._voids = [0] * NUM_SEATS

    def _make_view(self) -> None:
        self.obs = np.frombuffer(self.buf, dtype=np.float32).reshape(NUM_SEATS, self.size)

    def bind(self, rows: np.ndarray) -> None:
        """Keep the four rows in ``rows`` (a C-contiguous writable float32 (4, D) array, e.g. one
        slot of a batch buffer) from now on: a batched driver then gathers observations with one
        numpy index instead of copying row by row."""
        if rows.shape != (NUM_SEATS, self.size) or rows.dtype != np.float32 or not rows.flags.c_contiguous:
            raise ValueError(f"bind needs a C-contiguous float32 array of shape (4, {self.size})")
        rows[:] = self.obs
        self.buf = memoryview(rows).cast("B").cast("f")  # type: ignore[arg-type,assignment]  # as fast as array's
        self.obs = rows

    def __getstate__(self) -> dict:
        d = {name: getattr(self, name) for name in self.__slots__}
        del d["obs"]  # a view of buf; pickled separately it would detach from the buffer
        del d["_w"], d["o"]  # the shared per-variant tables: looked up again on unpickling
        d["buf"] = array("f", self.obs.reshape(-1).tobytes())  # a bound memoryview does not pickle
        return d

    def __setstate__(self, d: dict) -> None:
        for name, value in d.items():
            setattr(self, name, value)
        self._w = _writes(self.variant)
        self.o = self._w.offsets
        self._make_view()

    # ----------------------------------------------------------------- events
    def reset(self, state: State) -> None:
        """Rebuild every row from any state (after a deal, or to check the incremental path)."""
        self.obs[:] = 0.0
        self._forget()
        buf, w = self.buf, self._w
        # the four hands in one unpack (each into its own row's hand piece)
        hands = np.frombuffer(b"".join([h.to_bytes(self._nbytes, "little") for h in state.hands]), np.uint8)
        self.obs[:, self._hand] = np.unpackbits(hands.reshape(NUM_SEATS, self._nbytes), axis=1, count=self.n,
                                          bitorder="little")
        for s in range(NUM_SEATS):
            if state.played[s]:  # none after a deal, the usual reset
                played = w.played[s]
                for c in iter_cards(state.played[s]):
                    for i in played[c]:
                        buf[i] = 1.0
        for k, c in enumerate(state.trick):
            for i in w.trick[(state.leader + k) % NUM_SEATS][c]:
                buf[i] = 1.0
        if state.declarer >= 0 and state.phase is not _AUCTION and self.variant.nest_size:
            self._set_cards(w.nest_seen[state.declarer], state.nest)
            self._set_cards(w.discards[state.declarer], state.discards)
        for seat, a in state.auction:
            self._auction_event(seat, a)
        for seat in range(NUM_SEATS):
            if state.voids[seat]:
                self._add_voids(seat, state.voids[seat])
        self._public(state)

    def _set_cards(self, start: int, cards: int, clear: bool = True) -> None:
        """Write a card set as 0/1 flags into the ``n`` entries from flat index ``start``."""
        if clear:
            self.obs.reshape(-1)[start:start + self.n] = 0.0
        buf = self.buf
        while cards:  # iter_cards, inlined: a generator's resume costs more than the write
            low = cards & -cards
            buf[start + low.bit_length() - 1] = 1.0
            cards ^= low

    def step(self, state: State, seat: int, action: int) -> None:
        """Update after ``seat`` took ``action`` (``state`` is the state after it)."""
        lay = self.actions
        if action >= lay.play_offset:
            card = action - lay.play_offset
            if state.trick:  # mid-trick, most moves: the card is played and on the trick, the turn passes
                buf = self.buf
                buf[self._w.hand[seat] + card] = 0.0
                r0, r1, r2, r3, r4, r5, r6, r7 = self._w.played_trick[seat][card]
                buf[r0] = buf[r1] = buf[r2] = buf[r3] = buf[r4] = buf[r5] = buf[r6] = buf[r7] = 1.0
                if state.voids[seat] != self._voids[seat]:
                    self._add_voids(seat, state.voids[seat] & ~self._voids[seat])
                self._set_seat(_TO_MOVE, state.to_move)  # nothing else public moved
                return
            self._trick_done(state, seat, card)
            if state.phase is _PLAY:  # a trick was won, the hand goes on: the winner leads
                self._set_seat(_TO_MOVE, state.to_move)
                self._set_seat(_LEADER, state.leader)
                self._counts(state)
                return
        elif action >= lay.trump_offset:
            pass
        elif action >= lay.discard_offset:
            card = action - lay.discard_offset
            buf, w = self.buf, self._w
            buf[w.hand[seat] + card] = 0.0
            buf[w.discards[seat] + card] = 1.0
            if state.phase is _DISCARD:
                return  # the declarer discards again: nothing public moved
        else:
            self._auction_event(seat, action)
            if state.phase is _AUCTION:  # the bidding goes on: only the mover and the high bid moved
                self._set_seat(_TO_MOVE, state.to_move)
                self._set_seat(_HIGH_BIDDER, state.high_bidder)
                self._set_high_bid(state.high_bid)
                return
            if state.declarer >= 0 and self.variant.nest_size:
                d = state.declarer
                self._set_cards(self._w.hand[d], state.hands[d])
                self._set_cards(self._w.nest_seen[d], state.nest)
        self._public(state)

    def _auction_event(self, seat: int, action: int) -> None:
        buf, w = self.buf, self._w
        if action == 0:
            for i in w.passed[seat]:
                buf[i] = 1.0
            return
        zero = w.zero_bids
        nb = len(zero)
        k = action - self.actions.bid_offset
        for base in w.bids[seat]:
            buf[base:base + nb] = zero
            buf[base + k] = 1.0

    def _trick_done(self, state: State, seat: int, card: int) -> None:
        """The card that completed a trick: played, and the trick cleared for the next one."""
        # a seat-relative flag is one index per viewer's row: four rows, four targets per write
        buf, w = self.buf, self._w
        buf[w.hand[seat] + card] = 0.0
        r0, r1, r2, r3 = w.played[seat][card]
        buf[r0] = buf[r1] = buf[r2] = buf[r3] = 1.0
        zero = w.zero_trick
        size = len(zero)
        for start in w.trick_starts:
            buf[start:start + size] = zero
        if state.voids[seat] != self._voids[seat]:
            self._add_voids(seat, state.voids[seat] & ~self._voids[seat])

    def _add_voids(self, seat: int, new: int) -> None:
        """``seat`` has shown the effective suits in ``new`` void (voids only grow within a deal)."""
        self._voids[seat] |= new
        buf = self.buf
        for suit in iter_cards(new):
            for base in self._w.voids[seat]:
                buf[base + suit] = 1.0

    # ---------------------------------------------------------- public pieces
    # A public piece is rewritten only when its value changed since the last sync (``_last``,
    # indexed by the piece ids below): most steps change just ``to_move``.
    def _set_seat(self, piece: int, seat: int) -> None:
        """One-hot relative seat of ``seat`` (or nothing for -1) in every row's ``piece``."""
        last = self._last
        old = last[piece]
        if old == seat:
            return
        at, buf = self._w.seat_at[piece], self.buf
        if old >= 0:
            r0, r1, r2, r3 = at[old]
            buf[r0] = buf[r1] = buf[r2] = buf[r3] = 0.0
        if seat >= 0:
            r0, r1, r2, r3 = at[seat]
            buf[r0] = buf[r1] = buf[r2] = buf[r3] = 1.0
        last[piece] = seat

    def _set_index(self, piece: int, k: int) -> None:
        """One-hot ``k`` (or nothing for -1) in a piece that is the same for every row."""
        last = self._last
        old = last[piece]
        if old == k:
            return
        buf = self.buf
        r0, r1, r2, r3 = self._w.index_at[piece]
        if old >= 0:
            buf[r0 + old] = buf[r1 + old] = buf[r2 + old] = buf[r3 + old] = 0.0
        if k >= 0:
            buf[r0 + k] = buf[r1 + k] = buf[r2 + k] = buf[r3 + k] = 1.0
        last[piece] = k

    def _public(self, state: State) -> None:
        last, phase = self._last, state.phase
        deciding = phase <= _PLAY
        k = phase if deciding else -1  # an IntEnum: equal to its index
        if k != last[_PHASE_PIECE]:
            self._set_index(_PHASE_PIECE, int(k))
        seat = state.to_move if deciding else -1
        if seat != last[_TO_MOVE]:
            self._set_seat(_TO_MOVE, seat)
        seat = state.leader if phase is _PLAY else -1
        if seat != last[_LEADER]:
            self._set_seat(_LEADER, seat)
        if state.dealer != last[_DEALER]:
            self._set_seat(_DEALER, state.dealer)
        if state.high_bidder != last[_HIGH_BIDDER]:
            self._set_seat(_HIGH_BIDDER, state.high_bidder)
        if state.declarer != last[_DECLARER]:
            self._set_seat(_DECLARER, state.declarer)
        self._set_high_bid(state.high_bid)
        if state.trump != last[_TRUMP_PIECE]:
            self._set_index(_TRUMP_PIECE, state.trump)
        self._counts(state)
        if self._scores != state.scores:
            self._scores = state.scores[:]
            target = 1.0 / self.variant.target
            sc = [min(max(x * target, -SCORE_CLIP), SCORE_CLIP) for x in state.scores]
            self._team_pair(self._w.scores_at, sc[0], sc[1])

    def _set_high_bid(self, high_bid: int) -> None:
        if high_bid != self._high_bid:
            self._high_bid = high_bid
            v = self.variant
            self._set_index(_HIGH_BID, (high_bid - v.min_bid) // v.bid_step if high_bid else -1)

    def _counts(self, state: State) -> None:
        """The points and tricks each team has taken this hand."""
        if self._points != state.captured or self._tricks != state.tricks_won:
            self._points, self._tricks = captured, won = state.captured[:], state.tricks_won[:]
            w = self._w
            scale = self._points_scale
            self._team_pair(w.points_at, captured[0] * scale, captured[1] * scale)
            scale = self._tricks_scale
            self._team_pair(w.tricks_at, won[0] * scale, won[1] * scale)

    def _team_pair(self, at: tuple[int, ...], team0: float, team1: float) -> None:
        """(my team, other team) at each row's ``at``: seats 0 and 2 see team 0 first, 1 and 3 team 1."""
        buf = self.buf
        r0, r1, r2, r3 = at
        buf[r0] = buf[r1 + 1] = buf[r2] = buf[r3 + 1] = team0
        buf[r0 + 1] = buf[r1] = buf[r2 + 1] = buf[r3] = team1


# ------------------------------------------------------------------------ reference encoder
def _bits(cards: int, n: int) -> np.ndarray:
    raw = np.frombuffer(cards.to_bytes((n + 7) // 8, "little"), dtype=np.uint8)
    return np.unpackbits(raw, count=n, bitorder="little")


def encode_view(view: PlayerView) -> np.ndarray:
    """The reference encoder: ``view.seat``'s float32 observation from its view alone."""
    v, me = view.variant, view.seat
    layout = observation_layout(v)
    o = {p.name: p.offset for p in layout.pieces}
    n, nb = tables_for(v).deck_size, layout_for(v).num_bids
    bid_offset = layout_for(v).bid_offset
    obs = np.zeros(layout.size, dtype=np.float32)
    obs[o["hand"]:o["hand"] + n] = _bits(view.hand, n)
    if view.nest_seen and view.phase is not Phase.AUCTION:
        obs[o["nest_seen"]:o["nest_seen"] + n] = _bits(view.nest_seen, n)
    if view.discards:
        obs[o["discards"]:o["discards"] + n] = _bits(view.discards, n)
    for s in range(NUM_SEATS):
        if view.played[s]:
            off = o["played"] + ((s - me) % NUM_SEATS) * n
            obs[off:off + n] = _bits(view.played[s], n)
    for i, c in enumerate(view.trick):
        obs[o["trick"] + ((view.leader + i - me) % NUM_SEATS) * n + c] = 1.0
    if view.phase <= Phase.PLAY:
        obs[o["phase"] + int(view.phase)] = 1.0
        if view.to_move >= 0:
            obs[o["to_move"] + (view.to_move - me) % NUM_SEATS] = 1.0
    obs[o["dealer"] + (view.dealer - me) % NUM_SEATS] = 1.0
    if view.phase is Phase.PLAY and view.leader >= 0:
        obs[o["leader"] + (view.leader - me) % NUM_SEATS] = 1.0
    for seat, a in view.auction:
        rel = (seat - me) % NUM_SEATS
        if a == PASS:
            obs[o["passed"] + rel] = 1.0
        else:
            blk = o["bids"] + rel * nb
            obs[blk:blk + nb] = 0.0
            obs[blk + a - bid_offset] = 1.0
    if view.high_bid:
        obs[o["high_bid"] + (view.high_bid - v.min_bid) // v.bid_step] = 1.0
    for piece, seat in (("high_bidder", view.high_bidder), ("declarer", view.declarer)):
        if seat >= 0:
            obs[o[piece] + (seat - me) % NUM_SEATS] = 1.0
    if view.trump >= 0:
        obs[o["trump"] + view.trump] = 1.0
    for s in range(NUM_SEATS):
        if view.voids[s]:
            blk = o["voids"] + ((s - me) % NUM_SEATS) * NUM_COLOURS
            for k in range(NUM_COLOURS):
                obs[blk + k] = (view.voids[s] >> k) & 1
    t = me % 2
    for piece, values, scale in (("points", view.captured, 1.0 / v.total_points),
                                 ("tricks", view.tricks_won, 1.0 / v.num_tricks)):
        obs[o[piece]], obs[o[piece] + 1] = values[t] * scale, values[t ^ 1] * scale
    target = 1.0 / v.target
    sc = [min(max(x * target, -SCORE_CLIP), SCORE_CLIP) for x in view.scores]
    obs[o["scores"]], obs[o["scores"] + 1] = sc[t], sc[t ^ 1]
    return obs
