"""Double-dummy solver: minimax of team 0's points over the remaining tricks, all hands known.

Alpha-beta over single card plays (seats 0/2 maximise team 0's points, 1/3 minimise), with

- equivalent-card merging: two cards of one hand in the same effective suit, adjacent
  among the cards still live (in any hand or on the table) and worth the same points, are
  interchangeable, so only one is searched (the bird, playable any time, is never merged);
- move ordering: cheapest winning card first when an opponent holds the trick, biggest
  counter first when partner holds it, high cards first on the lead;
- a transposition table at trick starts keyed on (four hands, leader, team 0's tricks)
  holding lower/upper bounds;
- an optional trick horizon: at that trick a static estimate (:meth:`DoubleDummy.estimate`)
  replaces the search, which keeps early decisions within a time budget.

The value counts trick points, the nest to the last trick's winner and the trick bonus.

For speed the solver keeps specialised copies of two engine rules, on its precomputed
per-trump tables: who wins a trick (:meth:`DoubleDummy.trick_winner`, the engine's
``trick_winner_offset``) and which cards may follow (:meth:`DoubleDummy.legal`, the engine's
``legal_cards``). ``tests/agents/test_rule_copies.py`` holds both equal to the engine's over
random positions in every variant.
Any monotone score (made/set against the bid) is a function of this value, so minimax of
points followed by the score mapping equals minimax of the score itself.
"""

from __future__ import annotations

from crowsnest_env.rules import NUM_COLOURS, NUM_SEATS, CardSet, CardTables, iter_cards

INF = 10**9


class SearchAborted(Exception):
    """Raised inside a search that ran past its node limit."""


class DoubleDummy:
    """Solver for one deck, trump and nest value; :meth:`values` scores the moves of a position."""

    def __init__(self, cards: CardTables, trump: int, nest_points: int, horizon: int = 99,
                 suit_memo: dict | None = None, merge_memo: dict | None = None):
        v = cards.variant
        self.eff = cards.eff_suit[trump]
        self.suit_mask = cards.suit_mask[trump]
        tp = cards.trump_power[trump]
        self.tkey = [100 + p if p else 0 for p in tp]
        self.power = [tp[c] or cards.plain_power[c] for c in range(cards.deck_size)]
        self.pts = cards.points
        self.anytime = cards.anytime
        self.order = [sorted(iter_cards(self.suit_mask[s]), key=self.power.__getitem__)
                      for s in range(NUM_COLOURS)]
        self.trump = trump
        self.nest_points = nest_points
        self.num_tricks = v.num_tricks
        self.bonus = v.trick_bonus
        self.horizon = horizon  # whole tricks searched after the current one, then estimate
        self.node_limit = INF  # the search raises SearchAborted past this many nodes
        self.tt: dict[tuple, tuple[int, int]] = {}
        self.leaves: dict[tuple, int] = {}  # estimate() memo: it depends on the hands only
        # estimate()'s per-suit parts; shareable between solvers of one deck and trump
        self.suit_memo: dict[tuple, tuple[int, float, float]] = {} if suit_memo is None else suit_memo
        self.merge_memo: dict[tuple, list[int]] = {} if merge_memo is None else merge_memo
        self.nodes = 0

    # ------------------------------------------------------------------ API
    def values(self, hands: list[CardSet], leader: int, trick: list[int], trick_no: int,
               tricks0: int) -> dict[int, int]:
        """Team 0's final-from-now points after each (merged) legal move of the seat to move.

        Equivalent moves share one entry per representative card; callers map a legal card
        to its representative with :meth:`representative`.
        """
        self._setup(hands, leader, trick, trick_no, tricks0)
        seat = (leader + len(trick)) % NUM_SEATS
        out = {}
        for c in self._moves(seat):
            out[c] = self._child(seat, c, -INF, INF)
        return out

    def deepening(self, hands: list[CardSet], leader: int, trick: list[int], trick_no: int,
                  tricks0: int, node_budget: int) -> dict[int, int]:
        """:meth:`values` at the deepest horizon that completes within ``node_budget`` nodes."""
        best: dict[int, int] = {}
        remaining = self.num_tricks - trick_no - 1
        for horizon in range(remaining + 1):
            self.horizon, self.tt, self.nodes = horizon, {}, 0
            self.node_limit = node_budget if best else INF
            try:
                best = self.values(hands, leader, trick, trick_no, tricks0)
            except SearchAborted:
                break
            node_budget -= self.nodes
            if node_budget <= 0:
                break
        self.node_limit = INF
        return best

    def solve(self, hands: list[CardSet], leader: int, trick: list[int], trick_no: int,
              tricks0: int) -> int:
        """Team 0's points from here to the end of the hand under best play by all seats."""
        self._setup(hands, leader, trick, trick_no, tricks0)
        return self._search(-INF, INF)

    def representative(self, hands: list[CardSet], seat: int, card: int, trick: list[int]) -> int:
        """The card that :meth:`values` reports for ``card`` (its equivalence class)."""
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            live |= 1 << c
        if self.anytime >> card & 1:
            return card
        rep = card
        for c in reversed(self.order[self.eff[card]]):  # high to low: merge down to lowest
            if self.power[c] >= self.power[card] or not live >> c & 1:
                continue
            if hands[seat] >> c & 1 and self.pts[c] == self.pts[rep] and not self.anytime >> c & 1:
                rep = c
            else:
                break
        return rep

    # ------------------------------------------------------------- internals
    def _setup(self, hands: list[CardSet], leader: int, trick: list[int], trick_no: int,
               tricks0: int) -> None:
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.trick_no = trick_no
        self.tricks0 = tricks0
        self.stop = trick_no + 1 + self.horizon

    def _child(self, seat: int, c: int, alpha: int, beta: int) -> int:
        self.hands[seat] ^= 1 << c
        self.trick.append(c)
        v = self._finish(alpha, beta) if len(self.trick) == NUM_SEATS else self._search(alpha, beta)
        self.trick.pop()
        self.hands[seat] ^= 1 << c
        return v

    def _search(self, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.node_limit:
            raise SearchAborted
        trick = self.trick
        if not trick:
            return self._trick_start(alpha, beta)
        seat = (self.leader + len(trick)) % NUM_SEATS
        return self._minimax(seat, alpha, beta)

    def _minimax(self, seat: int, alpha: int, beta: int) -> int:
        maximize = seat % 2 == 0
        best = -INF if maximize else INF
        for c in self._moves(seat):
            v = self._child(seat, c, alpha, beta)
            if maximize:
                if v > best:
                    best = v
                    alpha = max(alpha, v)
            elif v < best:
                best = v
                beta = min(beta, v)
            if alpha >= beta:
                break
        return best

    def _trick_start(self, alpha: int, beta: int) -> int:
        h = self.hands
        if self.trick_no >= self.stop:
            leaf = (h[0], h[1], h[2], h[3])
            v = self.leaves.get(leaf)
            if v is None:
                v = self.leaves[leaf] = self.estimate()
            return v
        key = (h[0], h[1], h[2], h[3], self.leader, self.tricks0)
        entry = self.tt.get(key)
        lo, hi = entry if entry else (0, INF)
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        a, b = max(alpha, lo), min(beta, hi)
        v = self._minimax(self.leader, a, b)
        if v <= a:
            hi = v
        elif v >= b:
            lo = v
        else:
            lo = hi = v
        self.tt[key] = (lo, hi)
        return v

    # ---------------------------------------------- specialised copies of engine rules
    def trick_winner(self, trick: list[int]) -> int:
        """Offset from the leader of the winning card (a fast copy of ``trick_winner_offset``)."""
        led = self.eff[trick[0]]
        best, off = -1, 0
        for i, c in enumerate(trick):
            k = self.tkey[c] or (self.power[c] if self.eff[c] == led else 0)
            if k > best:
                best, off = k, i
        return off

    def legal(self, hand: CardSet, trick: list[int]) -> CardSet:
        """Cards of ``hand`` that may follow ``trick`` (a fast copy of ``legal_cards``)."""
        if trick:
            follow = hand & self.suit_mask[self.eff[trick[0]]]
            return (follow | (hand & self.anytime)) if follow else hand
        return hand

    def _finish(self, alpha: int, beta: int) -> int:
        trick, leader = self.trick, self.leader
        winner = (leader + self.trick_winner(trick)) % NUM_SEATS
        pts = self.pts
        gain = pts[trick[0]] + pts[trick[1]] + pts[trick[2]] + pts[trick[3]]
        last = self.trick_no + 1 == self.num_tricks
        if last:
            gain += self.nest_points
        gain = gain if winner % 2 == 0 else 0
        won0 = 1 if winner % 2 == 0 else 0
        self.trick, self.leader = [], winner
        self.trick_no += 1
        self.tricks0 += won0
        if last:
            rest = self.bonus if 2 * self.tricks0 > self.num_tricks else 0
        else:
            rest = self._search(alpha - gain, beta - gain)
        self.tricks0 -= won0
        self.trick_no -= 1
        self.trick, self.leader = trick, leader
        return gain + rest

    def _moves(self, seat: int) -> list[int]:
        trick = self.trick
        legal = self.legal(self.hands[seat], trick)
        h = self.hands
        live = h[0] | h[1] | h[2] | h[3]
        for c in trick:
            live |= 1 << c
        key = (legal, live)
        moves = self.merge_memo.get(key)
        if moves is None:
            moves = self.merge_memo[key] = self._merge(legal, live)
        return self._ordered(seat, moves) if len(moves) > 1 else moves

    def _merge(self, legal: CardSet, live: CardSet) -> list[int]:
        out = []
        pts, anytime = self.pts, self.anytime
        for s in range(NUM_COLOURS):
            in_suit = legal & self.suit_mask[s]
            if not in_suit:
                continue
            if in_suit & (in_suit - 1) == 0:
                out.append(in_suit.bit_length() - 1)
                continue
            prev_mine, prev_pts = False, -1
            for c in self.order[s]:
                if not live >> c & 1:
                    continue
                if legal >> c & 1 and not anytime >> c & 1:
                    if not (prev_mine and pts[c] == prev_pts):
                        out.append(c)
                    prev_mine, prev_pts = True, pts[c]
                else:
                    if legal >> c & 1:
                        out.append(c)
                    prev_mine = False
        return out

    def _ordered(self, seat: int, moves: list[int]) -> list[int]:
        trick = self.trick
        power, pts = self.power, self.pts
        if not trick:
            return sorted(moves, key=lambda c: (-self.tkey[c], -power[c]))
        led = self.eff[trick[0]]
        best, off = -1, 0
        for i, c in enumerate(trick):
            k = self.tkey[c] or (power[c] if self.eff[c] == led else 0)
            if k > best:
                best, off = k, i
        if (self.leader + off) % 2 == seat % 2:
            return sorted(moves, key=lambda c: (-pts[c], self.tkey[c], power[c]))

        def rank(c: int) -> tuple[int, int, int]:
            k = self.tkey[c] or (power[c] if self.eff[c] == led else 0)
            return (0, k, -pts[c]) if k > best else (1, pts[c], power[c])

        return sorted(moves, key=rank)

    # --------------------------------------------------------------- leaf
    def estimate(self) -> int:
        """Static guess of team 0's remaining points: share by top cards, trumps weigh double.

        Each suit's (points, team 0's strength, team 1's strength) depends only on who holds
        which of its live cards, so it is memoised per suit (exact, just faster).
        """
        h = self.hands
        team0 = h[0] | h[2]
        live = team0 | h[1] | h[3]
        s0 = s1 = 0.0
        remaining = self.nest_points + self.bonus
        memo = self.suit_memo
        for s in range(NUM_COLOURS):
            m = live & self.suit_mask[s]
            if not m:
                continue
            key = (s, m, team0 & m)
            e = memo.get(key)
            if e is None:
                e = memo[key] = self._suit_strength(s, m, team0 & m)
            remaining += e[0]
            s0 += e[1]
            s1 += e[2]
        total = s0 + s1
        return round(remaining * s0 / total) if total else 0

    def _suit_strength(self, s: int, live: CardSet, team0: CardSet) -> tuple[int, float, float]:
        w = 2.0 if s == self.trump else 1.0
        pts, st0, st1 = 0, 0.0, 0.0
        for c in reversed(self.order[s]):
            if live >> c & 1:
                pts += self.pts[c]
                if team0 >> c & 1:
                    st0 += w
                else:
                    st1 += w
                w *= 0.6
        return pts, st0, st1
