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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .rules import NUM_COLOURS, NUM_SEATS, Phase, State, Variant, iter_cards, layout_for, tables_for

SCORE_CLIP = 10.0
_VOID_BITS = [np.array([(m >> s) & 1 for s in range(NUM_COLOURS)], np.float32) for m in range(16)]


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


@lru_cache(maxsize=None)
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
    """Holds all four seats' observations as rows of one array and updates them in place.

    ``sync(state)`` after every transition; card pieces are updated from the action, the
    small public pieces are rewritten (a few slice writes).
    """

    def __init__(self, variant: Variant):
        self.variant = variant
        self.layout = observation_layout(variant)
        self.cards = tables_for(variant)
        self.actions = layout_for(variant)
        self.n = self.cards.deck_size
        self.obs = np.zeros((NUM_SEATS, self.layout.size), dtype=np.float32)
        self._voids = [0] * NUM_SEATS
        L = self.layout
        self.o = {p.name: p.offset for p in L.pieces}
        rows = np.arange(NUM_SEATS)
        # column offsets, for a move by absolute seat s, of the relative-seat block in each viewer row
        self._rel = [((s - rows) % NUM_SEATS) for s in range(NUM_SEATS)]
        self._rows = rows
        self._played_cols = [self.o["played"] + self._rel[s] * self.n for s in range(NUM_SEATS)]
        self._trick_cols = [self.o["trick"] + self._rel[s] * self.n for s in range(NUM_SEATS)]
        self._points_scale = 1.0 / variant.total_points
        self._tricks_scale = 1.0 / variant.num_tricks
        self._init_public()
        D = self.layout.size
        self._hand_idx = [s * D + self.o["hand"] for s in range(NUM_SEATS)]
        self._played_idx = [self._all_rows + self._played_cols[s] for s in range(NUM_SEATS)]
        self._played_trick_idx = [
            np.concatenate([self._played_idx[s], self._all_rows + self._trick_cols[s]]) for s in range(NUM_SEATS)
        ]

    def __getstate__(self) -> dict:
        d = dict(self.__dict__)
        del d["flat"]  # a view of obs; pickling would turn it into a detached copy
        return d

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self.flat = self.obs.reshape(-1)

    # ----------------------------------------------------------------- events
    def reset(self, state: State) -> None:
        """Rebuild every row from a freshly dealt (or any) state."""
        self.obs[:] = 0.0
        self._pub.clear()
        self._voids = [0] * NUM_SEATS
        for s in range(NUM_SEATS):
            self._set_cards(s, "hand", state.hands[s])
            for c in iter_cards(state.played[s]):
                self.obs[self._rows, self._played_cols[s] + c] = 1.0
        for i, c in enumerate(state.trick):
            s = (state.leader + i) % NUM_SEATS
            self.obs[self._rows, self._trick_cols[s] + c] = 1.0
        if state.declarer >= 0:
            d = state.declarer
            if state.phase is not Phase.AUCTION and self.variant.nest_size:
                self._set_cards(d, "nest_seen", state.nest)
            self._set_cards(d, "discards", state.discards)
        for seat, a in state.auction:
            self._auction_event(seat, a)
        if any(state.voids):
            self._write_voids(state)
        self._public(state)

    def _set_cards(self, seat: int, piece: str, cards: int) -> None:
        row, off = self.obs[seat], self.o[piece]
        row[off:off + self.n] = 0.0
        for c in iter_cards(cards):
            row[off + c] = 1.0

    def step(self, state: State, seat: int, action: int, prev_phase: Phase) -> None:
        """Update after ``seat`` took ``action`` (phase before it: ``prev_phase``)."""
        lay = self.actions
        if action >= lay.play_offset:
            self._play_event(state, seat, action - lay.play_offset)
        elif action >= lay.trump_offset:
            pass
        elif action >= lay.discard_offset:
            card = action - lay.discard_offset
            self.obs[seat, self.o["hand"] + card] = 0.0
            self.obs[seat, self.o["discards"] + card] = 1.0
        else:
            self._auction_event(seat, action)
            if state.phase is not Phase.AUCTION and state.declarer >= 0 and self.variant.nest_size:
                self._set_cards(state.declarer, "hand", state.hands[state.declarer])
                self._set_cards(state.declarer, "nest_seen", state.nest)
        self._public(state)

    def _auction_event(self, seat: int, action: int) -> None:
        rel = self._rel[seat]
        if action == 0:
            self.obs[self._rows, self.o["passed"] + rel] = 1.0
            return
        nb = self.actions.num_bids
        k = action - self.actions.bid_offset
        o_bids = self.o["bids"]
        for v in range(NUM_SEATS):
            blk = o_bids + int(rel[v]) * nb
            self.obs[v, blk:blk + nb] = 0.0
        self.obs[self._rows, o_bids + rel * nb + k] = 1.0

    def _play_event(self, state: State, seat: int, card: int) -> None:
        flat = self.flat
        flat[self._hand_idx[seat] + card] = 0.0
        if state.trick:
            flat[self._played_trick_idx[seat] + card] = 1.0
        else:  # the trick just completed: record the card as played and clear the trick
            flat[self._played_idx[seat] + card] = 1.0
            o = self.o["trick"]
            self.obs[:, o:o + NUM_SEATS * self.n] = 0.0
        if state.voids[seat] != self._voids[seat]:
            self._write_voids(state)

    def _write_voids(self, state: State) -> None:
        ov = self.o["voids"]
        for seat in range(NUM_SEATS):
            self._voids[seat] = state.voids[seat]
            bits = _VOID_BITS[state.voids[seat]]
            for v in range(NUM_SEATS):
                blk = ov + int(self._rel[seat][v]) * NUM_COLOURS
                self.obs[v, blk:blk + NUM_COLOURS] = bits

    # ---------------------------------------------------------- public pieces
    # Each public piece is rewritten only when its value changed since the last sync: most
    # steps change just ``to_move``. Seat one-hots use precomputed flat indices, one per row.
    _SEAT_PIECES = ("to_move", "dealer", "leader", "high_bidder", "declarer")

    def _init_public(self) -> None:
        D = self.layout.size
        self.flat = self.obs.reshape(-1)
        base = self._rows * D
        self._seat_idx = {
            p: [base + self.o[p] + self._rel[s] for s in range(NUM_SEATS)] for p in self._SEAT_PIECES
        }
        self._all_rows = base
        self._pub: dict[str, object] = {}

    def _set_seat(self, piece: str, seat: int) -> None:
        old = self._pub.get(piece, -1)
        if old == seat:
            return
        idx = self._seat_idx[piece]
        if old >= 0:
            self.flat[idx[old]] = 0.0
        if seat >= 0:
            self.flat[idx[seat]] = 1.0
        self._pub[piece] = seat

    def _set_index(self, piece: str, k: int) -> None:
        """One-hot ``k`` (or nothing for -1) in a piece that is the same for every row."""
        old = self._pub.get(piece, -1)
        if old == k:
            return
        off = self._all_rows + self.o[piece]
        if old >= 0:
            self.flat[off + old] = 0.0
        if k >= 0:
            self.flat[off + k] = 1.0
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
        if self._pub.get("tricks") != state.tricks_won or self._pub.get("points") != state.captured:
            self._pub["tricks"], self._pub["points"] = state.tricks_won[:], state.captured[:]
            self._team_pair("points", state.captured, self._points_scale)
            self._team_pair("tricks", state.tricks_won, self._tricks_scale)
        if self._pub.get("scores") != state.scores:
            self._pub["scores"] = state.scores[:]
            target = 1.0 / v.target
            sc = [min(max(x * target, -SCORE_CLIP), SCORE_CLIP) for x in state.scores]
            self._team_pair("scores", sc, 1.0)

    def _team_pair(self, piece: str, values, scale: float) -> None:
        off = self.o[piece]
        a, b = values[0] * scale, values[1] * scale
        self.obs[0::2, off:off + 2] = (a, b)
        self.obs[1::2, off:off + 2] = (b, a)
