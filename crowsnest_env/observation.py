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
from typing import Any

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


class ObservationEncoder:
    """Holds all four seats' observations as rows of one buffer and updates them in place.

    ``obs`` is a ``(4, D)`` float32 numpy view (row = absolute seat) of a flat ``array('f')``
    that the updates write element by element: a Python ``array`` item write costs a third of
    a numpy scalar write, and a move touches only a dozen entries. ``reset(state)`` rebuilds
    everything; ``step(state, seat, action)`` applies one move.
    """

    _SEAT_PIECES = ("to_move", "dealer", "leader", "high_bidder", "declarer", "passed")

    def __init__(self, variant: Variant):
        self.variant = variant
        self.layout = observation_layout(variant)
        self.cards = tables_for(variant)
        self.actions = layout_for(variant)
        self.n = self.cards.deck_size
        self.size = D = self.layout.size
        self.buf = array("f", bytes(4 * NUM_SEATS * D))
        self._make_view()
        o = self.o = {p.name: p.offset for p in self.layout.pieces}
        n, nb = self.n, self.actions.num_bids

        def rel_bases(piece: str, block: int) -> list[tuple[int, ...]]:
            """Per absolute seat s: the flat index, in each viewer's row, of s's relative block."""
            return [tuple(v * D + o[piece] + ((s - v) % NUM_SEATS) * block for v in range(NUM_SEATS))
                    for s in range(NUM_SEATS)]

        self._played = rel_bases("played", n)
        self._trick = rel_bases("trick", n)
        self._bids = rel_bases("bids", nb)
        self._voids_at = rel_bases("voids", NUM_COLOURS)
        self._seat_at = {p: rel_bases(p, 1) for p in self._SEAT_PIECES}
        self._rows = tuple(v * D for v in range(NUM_SEATS))
        self._zero_trick = array("f", bytes(4 * NUM_SEATS * n))
        self._zero_bids = array("f", bytes(4 * nb))
        self._points_scale = 1.0 / variant.total_points
        self._tricks_scale = 1.0 / variant.num_tricks
        self._pub: dict[str, Any] = {}
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
        d = dict(self.__dict__)
        del d["obs"]  # a view of buf; pickled separately it would detach from the buffer
        d["buf"] = array("f", self.obs.reshape(-1).tobytes())  # a bound memoryview does not pickle
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self._make_view()

    # ----------------------------------------------------------------- events
    def reset(self, state: State) -> None:
        """Rebuild every row from any state (after a deal, or to check the incremental path)."""
        self.obs[:] = 0.0
        self._pub.clear()
        self._voids = [0] * NUM_SEATS
        buf = self.buf
        for s in range(NUM_SEATS):
            self._set_cards(s, "hand", state.hands[s], clear=False)
            for c in iter_cards(state.played[s]):
                for base in self._played[s]:
                    buf[base + c] = 1.0
        for i, c in enumerate(state.trick):
            for base in self._trick[(state.leader + i) % NUM_SEATS]:
                buf[base + c] = 1.0
        if state.declarer >= 0 and state.phase is not Phase.AUCTION and self.variant.nest_size:
            self._set_cards(state.declarer, "nest_seen", state.nest)
            self._set_cards(state.declarer, "discards", state.discards)
        for seat, a in state.auction:
            self._auction_event(seat, a)
        for seat in range(NUM_SEATS):
            if state.voids[seat]:
                self._write_voids(seat, state.voids[seat])
        self._public(state)

    def _set_cards(self, seat: int, piece: str, cards: int, clear: bool = True) -> None:
        start = self._rows[seat] + self.o[piece]
        if clear:
            self.obs.reshape(-1)[start:start + self.n] = 0.0
        for c in iter_cards(cards):
            self.buf[start + c] = 1.0

    def step(self, state: State, seat: int, action: int) -> None:
        """Update after ``seat`` took ``action`` (``state`` is the state after it)."""
        lay = self.actions
        if action >= lay.play_offset:
            if self._play_event(state, seat, action - lay.play_offset):
                self._set_seat("to_move", state.to_move)  # mid-trick: nothing else public moved
                return
        elif action >= lay.trump_offset:
            pass
        elif action >= lay.discard_offset:
            card = action - lay.discard_offset
            row = self._rows[seat]
            self.buf[row + self.o["hand"] + card] = 0.0
            self.buf[row + self.o["discards"] + card] = 1.0
            if state.phase is Phase.DISCARD:
                return  # the declarer discards again: nothing public moved
        else:
            self._auction_event(seat, action)
            if state.phase is not Phase.AUCTION and state.declarer >= 0 and self.variant.nest_size:
                self._set_cards(state.declarer, "hand", state.hands[state.declarer])
                self._set_cards(state.declarer, "nest_seen", state.nest)
        self._public(state)

    def _auction_event(self, seat: int, action: int) -> None:
        buf = self.buf
        if action == 0:
            for i in self._seat_at["passed"][seat]:
                buf[i] = 1.0
            return
        nb = len(self._zero_bids)
        k = action - self.actions.bid_offset
        for base in self._bids[seat]:
            buf[base:base + nb] = self._zero_bids
            buf[base + k] = 1.0

    def _play_event(self, state: State, seat: int, card: int) -> bool:
        """Record a played card; True if the trick is still in progress."""
        buf = self.buf
        buf[self._rows[seat] + self.o["hand"] + card] = 0.0
        for base in self._played[seat]:
            buf[base + card] = 1.0
        if state.trick:
            for base in self._trick[seat]:
                buf[base + card] = 1.0
        else:  # the trick just completed: clear it
            zero, size = self._zero_trick, len(self._zero_trick)
            for row in self._rows:
                start = row + self.o["trick"]
                buf[start:start + size] = zero
        if state.voids[seat] != self._voids[seat]:
            self._write_voids(seat, state.voids[seat])
        return bool(state.trick)

    def _write_voids(self, seat: int, voids: int) -> None:
        self._voids[seat] = voids
        buf = self.buf
        for base in self._voids_at[seat]:
            for s in range(NUM_COLOURS):
                buf[base + s] = float((voids >> s) & 1)

    # ---------------------------------------------------------- public pieces
    # A public piece is rewritten only when its value changed since the last sync: most
    # steps change just ``to_move``.
    def _set_seat(self, piece: str, seat: int) -> None:
        old = self._pub.get(piece, -1)
        if old == seat:
            return
        at, buf = self._seat_at[piece], self.buf
        if old >= 0:
            for i in at[old]:
                buf[i] = 0.0
        if seat >= 0:
            for i in at[seat]:
                buf[i] = 1.0
        self._pub[piece] = seat

    def _set_index(self, piece: str, k: int) -> None:
        """One-hot ``k`` (or nothing for -1) in a piece that is the same for every row."""
        old = self._pub.get(piece, -1)
        if old == k:
            return
        off, buf = self.o[piece], self.buf
        for row in self._rows:
            if old >= 0:
                buf[row + off + old] = 0.0
            if k >= 0:
                buf[row + off + k] = 1.0
        self._pub[piece] = k

    def _public(self, state: State) -> None:
        phase = state.phase
        key = (phase, state.leader, state.dealer, state.high_bidder, state.declarer, state.high_bid,
               state.trump, state.trick_no, state.hand_no, state.deal_no)
        if key == self._pub.get("key"):  # within a trick only the player to move changed
            self._set_seat("to_move", state.to_move)
            return
        self._pub["key"] = key
        deciding = phase <= Phase.PLAY
        self._set_index("phase", int(phase) if deciding else -1)
        self._set_seat("to_move", state.to_move if deciding else -1)
        self._set_seat("leader", state.leader if phase is Phase.PLAY else -1)
        self._set_seat("dealer", state.dealer)
        self._set_seat("high_bidder", state.high_bidder)
        self._set_seat("declarer", state.declarer)
        v = self.variant
        self._set_index("high_bid", (state.high_bid - v.min_bid) // v.bid_step if state.high_bid else -1)
        self._set_index("trump", state.trump)
        if self._pub.get("points") != state.captured or self._pub.get("tricks") != state.tricks_won:
            self._pub["points"], self._pub["tricks"] = state.captured[:], state.tricks_won[:]
            self._team_pair("points", state.captured, self._points_scale)
            self._team_pair("tricks", state.tricks_won, self._tricks_scale)
        if self._pub.get("scores") != state.scores:
            self._pub["scores"] = state.scores[:]
            target = 1.0 / v.target
            sc = [min(max(x * target, -SCORE_CLIP), SCORE_CLIP) for x in state.scores]
            self._team_pair("scores", sc, 1.0)

    def _team_pair(self, piece: str, values, scale: float) -> None:
        """(my team, other team): seats 0 and 2 see team 0 first, seats 1 and 3 team 1."""
        off, buf = self.o[piece], self.buf
        a, b = values[0] * scale, values[1] * scale
        for seat, row in enumerate(self._rows):
            first, second = (a, b) if seat % 2 == 0 else (b, a)
            buf[row + off] = first
            buf[row + off + 1] = second


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
