/* Double-dummy solver for Rook: team 0's points from a position to the end of the hand under
 * best play by all four seats, every card known. The contract and the Python face are in
 * agents/_solver.py; this file is the only implementation.
 *
 * Cards are renumbered inside: each effective suit (the trump suit holds the bird and the Red 1)
 * is one contiguous block of bits in ascending trick-taking power, so "higher card of the same
 * suit" is "higher bit", and a trick's winner is one comparison per card.
 *
 * Search: fail-soft alpha-beta over single card plays (seats 0/2 maximise); each root move is
 * valued exactly by null-window searches (MTD(f), the previous move's value as first guess), with
 *  - equivalent cards merged: cards of one hand adjacent among the live cards of their suit
 *    (in the hands or on the table) with equal points are one move (the any-time bird never);
 *  - partition search (Ginsberg 1996; DDS's "winning ranks"): a transposition table at trick
 *    starts whose entries hold bounds for a CLASS of positions, not one position. The search
 *    returns, with each value, the cards whose rank mattered (every trick's winner that beat
 *    another card of its suit); an entry fixes, per suit, the holders and points of the live
 *    cards down to the lowest such card, and beneath it only each hand's multiset of points per
 *    suit: which low card of a hand is which does not matter, since none of them won a trick
 *    in the proof. Positions that differ in such cards share the entry. Keys are 64-bit hashes
 *    (an additive hash of the point multisets, kept up to date move by move, and a hash of the
 *    fixed cards), so an unrelated position matches with probability about 2^-64 per probe.
 *    Once the trick bonus is decided (won, or out of reach) positions that differ only in team
 *    0's trick count share entries too, stored without the bonus;
 *  - point bounds at trick starts (nothing below 0, nothing above the points still live, the
 *    trick bonus when already won or out of reach, the points of the top trumps one team holds
 *    in sequence, which win whatever trick they fall on), and the last trick scored directly;
 *  - move ordering: the table's best lead, then sure winners, leads to partner's winners, high
 *    trumps, low cards; when following, cheapest winner first against an opponent, the biggest
 *    counter on a partner's winning card;
 *  - an optional horizon: at that trick a static estimate (which reads every card, so the
 *    table then keys on exact positions) replaces the search.
 *
 * Rule copies (held equal to the engine by tests/agents/test_rule_copies.py and the solver tests):
 * who wins a trick (beats()), which cards may follow (legal_moves()), and hand scoring as far as
 * the solver needs it (the nest to the last trick's winner, the trick bonus to the team with more
 * than half of the tricks: finish(), last_trick()).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define MAXC 64
#define MAXTRICKS 16
#define INF 1000000
#define NSEATS 4

/* ------------------------------------------------------------------ bits */
static inline int lowest(u64 x) { return __builtin_ctzll(x); }
static inline int highest(u64 x) { return 63 - __builtin_clzll(x); }
static inline int popc(u64 x) { return __builtin_popcountll(x); }

static inline u64 mix64(u64 x) { /* splitmix64's finaliser */
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

/* --------------------------------------------------------------- tables */
#define MAXCLS 8

typedef struct {
    int n;                 /* cards in the deck */
    int ext[MAXC];         /* internal id -> engine card id */
    int in[MAXC];          /* engine card id -> internal id */
    int suit_of[MAXC];     /* internal id -> effective suit */
    int pts[MAXC];
    int cls[MAXC];         /* point class: index of the card's points among the deck's values; the any-time card its own */
    u64 suit[4];           /* internal mask of each effective suit */
    u64 plane[8];          /* bit b: cards whose points / unit have bit b set */
    int nplanes, unit;
    int trump;
    u64 anytime;
    int num_tricks, bonus;
    u64 z[NSEATS][4][MAXCLS];  /* additive hash terms of (holder, suit, point class) */
} Rules;

/* --------------------------------------------------- transposition table */
/* An entry holds bounds for a class of trick-start positions (partition search): the same
 * seat to lead (and team 0's trick count while a trick bonus is undecided), the same multiset of
 * point classes per hand and suit (the primary key), and, per suit, the same holders and
 * point classes of the top kvec[s] live cards (the relevant prefix, hashed in ph). Below the
 * prefix the cards are "small": in the search that proved the bound no such card won a trick,
 * so which small card of a hand is which does not matter, only their points. */
typedef struct {
    u64 primary, ph;
    uint16_t kvec;          /* 4 x 4 bits: relevant prefix length of each suit */
    int16_t lo, hi;
    uint8_t best;           /* internal id + 1 of the best lead found; 0 = none */
    uint8_t depth;          /* tricks left: deeper entries are kept first */
    uint16_t gen;
    uint16_t pad[3];
} Entry;

#define WAYS 16
#define TT_BITS_SMALL 16    /* buckets of WAYS entries (32 MB) for hands of up to 10 tricks */
#define TT_BITS_LARGE 18    /* and four times as many (128 MB) for longer hands, whose searches are larger */
static Entry *tt = NULL;
static int tt_bits = 0;     /* what is allocated */
static u64 tt_mask = 0;     /* what this search uses */
static uint16_t tt_gen = 0;

static int tt_new_generation(int num_tricks) {
    int bits = num_tricks > 10 ? TT_BITS_LARGE : TT_BITS_SMALL;
    if (bits > tt_bits) {
        free(tt);
        tt = (Entry *)calloc((size_t)WAYS << bits, sizeof(Entry));
        tt_bits = tt ? bits : 0;
        if (tt == NULL) return -1;
        tt_gen = 0;
    }
    tt_mask = (1ULL << bits) - 1;
    if (++tt_gen == 0) {
        memset(tt, 0, (sizeof(Entry) * WAYS) << tt_bits);
        tt_gen = 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- search */
typedef struct {
    const Rules *R;
    u64 h[NSEATS];
    u64 zsum;                    /* sum of the hash terms of every card in a hand */
    int8_t owner[MAXC];          /* who holds (or held) each card */
    int leader, trick_no, tricks0, stop;
    int tc[MAXTRICKS][NSEATS];   /* cards of each trick, from its leader */
    int nt;                      /* cards on the table in the current trick */
    int win, winoff;             /* current trick's winning card and its offset from the leader */
    int nest;
    int exact_keys;              /* 1: every card relevant (the horizon's estimate reads them all) */
    long long nodes, limit;
    int aborted;
} Search;


static int ab(Search *s, int alpha, int beta, u64 *rel);

/* Does card c beat the trick's current winner w (w is of the led suit or a trump)? */
static inline int beats(const Rules *R, int c, int w) {
    int sc = R->suit_of[c], sw = R->suit_of[w];
    return (sc == sw && c > w) || (sc == R->trump && sw != R->trump);
}

static inline u64 live_cards(const Search *s) {
    u64 live = s->h[0] | s->h[1] | s->h[2] | s->h[3];
    for (int i = 0; i < s->nt; i++) live |= 1ULL << s->tc[s->trick_no][i];
    return live;
}

/* Cards of ``hand`` that may follow the current trick. */
static inline u64 legal_moves(const Search *s, u64 hand) {
    if (s->nt == 0) return hand;
    const Rules *R = s->R;
    u64 follow = hand & R->suit[R->suit_of[s->tc[s->trick_no][0]]];
    return follow ? (follow | (hand & R->anytime)) : hand;
}

/* One representative per class of equivalent legal cards (the lowest of each run); rep[c] too;
 * *multi: the representatives of runs of two or more cards. */
static int merged(const Search *s, u64 legal, u64 live, int *moves, int *rep, u64 *multi) {
    const Rules *R = s->R;
    int n = 0, prev = -1, cur = -1;
    u64 m = 0;
    while (legal) {
        int c = lowest(legal);
        legal &= legal - 1;
        if (prev >= 0 && R->suit_of[c] == R->suit_of[prev] && R->pts[c] == R->pts[prev]
            && !((R->anytime >> c | R->anytime >> prev) & 1)) {
            u64 between = ((1ULL << c) - 1) & ~((2ULL << prev) - 1);
            if (!(live & between)) {
                prev = c;
                m |= 1ULL << cur;
                if (rep) rep[c] = cur;
                continue;
            }
        }
        moves[n++] = cur = prev = c;
        if (rep) rep[c] = c;
    }
    *multi = m;
    return n;
}

/* Sort moves by descending score (insertion sort: at most 16 moves). */
static inline void order_by(int *moves, int *score, int n) {
    for (int i = 1; i < n; i++) {
        int m = moves[i], sc = score[i], j = i - 1;
        while (j >= 0 && score[j] < sc) { moves[j + 1] = moves[j]; score[j + 1] = score[j]; j--; }
        moves[j + 1] = m; score[j + 1] = sc;
    }
}

/* Can the opponent who plays after ``seat`` in this trick beat card ``c`` (were it winning)? */
static int overtaken(const Search *s, int seat, int c) {
    const Rules *R = s->R;
    int led = R->suit_of[s->tc[s->trick_no][0]];
    u64 above = ~((2ULL << c) - 1) & R->suit[R->suit_of[c]];
    for (int k = s->nt + 1; k < NSEATS; k++) {
        int q = (s->leader + k) & 3;
        if ((q & 1) == (seat & 1)) continue;
        u64 h = s->h[q], follow = h & R->suit[led];
        if (follow ? (R->suit_of[c] == led && (follow & above)) || (h & R->anytime & above)
                   : (R->suit_of[c] == R->trump ? (h & above) != 0 : (h & R->suit[R->trump]) != 0))
            return 1;
    }
    return 0;
}

static void order_follow(const Search *s, int seat, int *moves, int n) {
    const Rules *R = s->R;
    int score[MAXC];
    int winner_seat = (s->leader + s->winoff) & 3;
    int partner_wins = (winner_seat & 1) == (seat & 1);
    int last = s->nt == 3;
    int threat = partner_wins && !last && overtaken(s, seat, s->win);
    for (int i = 0; i < n; i++) {
        int c = moves[i];
        int wins = beats(R, c, s->win);
        if (partner_wins && threat) {
            /* the opponent behind can beat partner's card: win it with a card that stands, else play low */
            score[i] = wins && !overtaken(s, seat, c) ? 2000 + R->pts[c] * 4 - c : 1000 - R->pts[c] * 16 - c;
        } else if (partner_wins) {
            /* keep partner's trick (no overtake) and give it points; a last hand knows it stands */
            score[i] = (wins ? 0 : 1000) + R->pts[c] * (last ? 16 : 4) - c;
        } else if (wins && (last || !overtaken(s, seat, c))) {
            /* cheapest winner that stands first; 4th hand wins with its biggest counter */
            score[i] = 2000 + (last ? R->pts[c] * 16 - c : -(R->suit_of[c] == R->trump) * 64 - c);
        } else if (wins) {
            score[i] = 500 - c;  /* a winner the opponent behind can beat: after the low cards */
        } else {
            score[i] = 1000 - R->pts[c] * 16 - c;
        }
    }
    order_by(moves, score, n);
}

static void order_lead(const Search *s, int seat, int *moves, int n, int best) {
    const Rules *R = s->R;
    int score[MAXC];
    int partner = (seat + 2) & 3, lho = (seat + 1) & 3, rho = (seat + 3) & 3;
    u64 others = s->h[lho] | s->h[partner] | s->h[rho];
    u64 trumps = R->suit[R->trump];
    for (int i = 0; i < n; i++) {
        int c = moves[i], su = R->suit_of[c];
        u64 suit = R->suit[su];
        u64 above = others & suit & ~((2ULL << c) - 1);
        /* can an opponent ruff this suit (void in it, holding a trump)? */
        int ruff = su != R->trump && ((!(s->h[lho] & suit) && (s->h[lho] & trumps))
                                      || (!(s->h[rho] & suit) && (s->h[rho] & trumps)));
        int sc;
        if (c == best) sc = 100000;
        else if (!above && !ruff) sc = 6000 + R->pts[c] * 8;   /* a sure winner: cash it */
        else if (!ruff && above && !(above & ~s->h[partner]) ) sc = 5000 + R->pts[c] * 8;  /* to partner's winners */
        else if (su != R->trump && !(s->h[partner] & suit) && (s->h[partner] & trumps)
                 && (s->h[lho] & suit || !(s->h[lho] & trumps))) sc = 4800 + R->pts[c] * 4;  /* for partner to ruff */
        else if (su == R->trump && !above) sc = 4500;
        else sc = 1000 - R->pts[c] * 16 - popc(above) * 2;   /* else low, pointless cards first */
        score[i] = sc;
    }
    order_by(moves, score, n);
}

/* Static guess of team 0's remaining points (share by top cards, trumps weigh double). */
static int estimate(const Search *s) {
    const Rules *R = s->R;
    u64 team0 = s->h[0] | s->h[2];
    u64 live = team0 | s->h[1] | s->h[3];
    int remaining = s->nest + R->bonus;
    double s0 = 0.0, s1 = 0.0;
    for (int su = 0; su < 4; su++) {
        u64 m = live & R->suit[su];
        if (!m) continue;
        double w = su == R->trump ? 2.0 : 1.0, st0 = 0.0, st1 = 0.0;
        int pts = 0;
        while (m) {
            int c = highest(m);
            m ^= 1ULL << c;
            pts += R->pts[c];
            if (team0 >> c & 1) st0 += w; else st1 += w;
            w *= 0.6;
        }
        remaining += pts;
        s0 += st0;
        s1 += st1;
    }
    double total = s0 + s1;
    return total != 0.0 ? (int)nearbyint((double)remaining * s0 / total) : 0;
}

/* The winning card of a complete trick matters by rank only if it beat another card of its own
 * effective suit; as the only card of its suit (a ruff, or a lead nobody followed) any card of
 * that suit would have won. */
static inline u64 winner_rel(const Rules *R, const int *t, int win) {
    int su = R->suit_of[win], same = 0;
    for (int i = 0; i < NSEATS; i++) same += R->suit_of[t[i]] == su;
    return same > 1 ? 1ULL << win : 0;
}

static int play(Search *s, int seat, int c, int alpha, int beta, u64 *rel);

/* All four cards are down: score the trick and go on. The winning card is relevant. */
static int finish(Search *s, int alpha, int beta, u64 *rel) {
    const Rules *R = s->R;
    int *t = s->tc[s->trick_no];
    int winner = (s->leader + s->winoff) & 3;
    int last = s->trick_no + 1 == R->num_tricks;
    int won0 = !(winner & 1);
    int gain = won0 ? R->pts[t[0]] + R->pts[t[1]] + R->pts[t[2]] + R->pts[t[3]] + (last ? s->nest : 0) : 0;
    if (last) {
        *rel = winner_rel(R, t, s->win);
        int tricks0 = s->tricks0 + won0;
        return gain + (2 * tricks0 > R->num_tricks ? R->bonus : 0);
    }
    int leader = s->leader, win = s->win, winoff = s->winoff;
    s->leader = winner;
    s->trick_no++;
    s->tricks0 += won0;
    s->nt = 0;
    int rest = ab(s, alpha - gain, beta - gain, rel);
    s->nt = 4;
    s->tricks0 -= won0;
    s->trick_no--;
    s->leader = leader; s->win = win; s->winoff = winoff;
    *rel |= winner_rel(R, t, win);
    return gain + rest;
}

static int play(Search *s, int seat, int c, int alpha, int beta, u64 *rel) {
    const Rules *R = s->R;
    u64 bit = 1ULL << c;
    int win = s->win, winoff = s->winoff;
    if (s->nt == 0) { s->win = c; s->winoff = 0; }
    else if (beats(R, c, s->win)) { s->win = c; s->winoff = s->nt; }
    s->h[seat] ^= bit;
    u64 z = R->z[seat][R->suit_of[c]][R->cls[c]];
    s->zsum -= z;
    s->tc[s->trick_no][s->nt++] = c;
    int v = s->nt == NSEATS ? finish(s, alpha, beta, rel) : ab(s, alpha, beta, rel);
    s->nt--;
    s->zsum += z;
    s->h[seat] ^= bit;
    s->win = win; s->winoff = winoff;
    return v;
}

/* The last trick: every hand holds one card, nothing to choose. */
static int last_trick(const Search *s, u64 *rel) {
    const Rules *R = s->R;
    int win = -1, winner = 0, gain = s->nest, t[NSEATS];
    for (int i = 0; i < NSEATS; i++) {
        int seat = (s->leader + i) & 3;
        int c = t[i] = lowest(s->h[seat]);
        gain += R->pts[c];
        if (i == 0 || beats(R, c, win)) { win = c; winner = seat; }
    }
    *rel = winner_rel(R, t, win);
    int won0 = !(winner & 1);
    int tricks0 = s->tricks0 + won0;
    return (won0 ? gain : 0) + (2 * tricks0 > R->num_tricks ? R->bonus : 0);
}

static int live_points(const Rules *R, u64 live) {
    int p = 0;
    for (int b = 0; b < R->nplanes; b++) p += popc(live & R->plane[b]) << b;
    return p * R->unit;
}

/* Minimax over the given moves. The relevant cards: the cutting move's at a cut, else all
 * moves' and, since the searched card of a run stands for the others, each run's card. */
static int search_moves(Search *s, int seat, int *moves, int n, int alpha, int beta, int *best_move,
                        u64 multi, u64 *rel) {
    int maximize = !(seat & 1);
    int best = maximize ? -INF : INF;
    u64 all = multi;
    *best_move = moves[0];
    for (int i = 0; i < n; i++) {
        u64 r = 0;
        int v = play(s, seat, moves[i], alpha, beta, &r);
        if (s->aborted) return 0;
        all |= r;
        if (maximize) {
            if (v > best) { best = v; *best_move = moves[i]; if (v > alpha) alpha = v; }
        } else if (v < best) {
            best = v; *best_move = moves[i]; if (v < beta) beta = v;
        }
        if (alpha >= beta) {
            *rel = r;
            return best;
        }
    }
    *rel = all;
    return best;
}

/* Per suit, the hash of the holders and point classes of its top j live cards, j = 0..len. */
static void prefix_hashes(const Search *s, u64 live, u64 ph[4][16], int len[4]) {
    const Rules *R = s->R;
    for (int su = 0; su < 4; su++) {
        u64 m = live & R->suit[su], h = 0x9e3779b97f4a7c15ULL * (u64)(su + 1);
        int j = 0;
        ph[su][0] = h;
        while (m && j < 15) {
            int c = highest(m);
            m ^= 1ULL << c;
            h = mix64(h ^ ((u64)(s->owner[c] << 3 | R->cls[c]) + 0x51ULL));
            ph[su][++j] = h;
        }
        len[su] = j;
    }
}

static inline u64 class_hash(u64 ph[4][16], unsigned kvec) {
    return ph[0][kvec & 15] ^ (ph[1][kvec >> 4 & 15] << 1) ^ (ph[2][kvec >> 8 & 15] << 2) ^ (ph[3][kvec >> 12 & 15] << 3);
}

/* The live cards of each suit's top kvec[s] (the cards an entry's class fixes). */
static u64 prefix_mask(const Rules *R, u64 live, unsigned kvec) {
    u64 out = 0;
    for (int su = 0; su < 4; su++) {
        u64 m = live & R->suit[su];
        for (int k = kvec >> (4 * su) & 15; k > 0 && m; k--) {
            int c = highest(m);
            m ^= 1ULL << c;
            out |= 1ULL << c;
        }
    }
    return out;
}

/* The prefix lengths that make every relevant card (and all above it in its suit) fixed. */
static unsigned kvec_of(const Rules *R, u64 live, u64 rel) {
    unsigned kvec = 0;
    for (int su = 0; su < 4; su++) {
        u64 m = live & R->suit[su], r = rel & m;
        if (!r) continue;
        int k = popc(m & ~((1ULL << lowest(r)) - 1));
        kvec |= (unsigned)(k > 15 ? 15 : k) << (4 * su);
    }
    return kvec;
}

static int trick_start(Search *s, int alpha, int beta, u64 *rel) {
    const Rules *R = s->R;
    u64 live = s->h[0] | s->h[1] | s->h[2] | s->h[3];
    if (s->trick_no >= s->stop) { *rel = live; return estimate(s); }
    int left = R->num_tricks - s->trick_no;
    if (left == 1) return last_trick(s, rel);
    *rel = 0;
    /* The trick bonus: already won (offset, the bonus, is part of every value from here), out of
     * reach, or open (the key then holds team 0's trick count, see below). */
    int offset = 0, open = 0;
    if (R->bonus) {
        if (2 * s->tricks0 > R->num_tricks) offset = R->bonus;
        else open = 2 * (s->tricks0 + left) > R->num_tricks;
    }
    int lo = offset, hi = live_points(R, live) + s->nest + offset + (open ? R->bonus : 0);
    if (hi <= alpha) return hi;
    if (lo >= beta) return lo;
    /* the top trumps held by one team win whatever trick they fall on: their points are that team's */
    u64 sure = 0;
    int sure_pts = 0, sure_team = -1;
    for (u64 m = live & R->suit[R->trump]; m;) {
        int c = highest(m);
        m ^= 1ULL << c;
        int team = s->owner[c] & 1;
        if (sure_team >= 0 && team != sure_team) break;
        sure_team = team;
        sure |= 1ULL << c;
        sure_pts += R->pts[c];
    }
    if (sure_pts) {
        if (sure_team == 0) lo += sure_pts; else hi -= sure_pts;
        if (hi <= alpha) { *rel = sure; return hi; }
        if (lo >= beta) { *rel = sure; return lo; }
    }
    const int lo0 = lo, hi0 = hi;

    /* Where the trick bonus is decided (won, or out of reach), the value is the points from here
     * plus offset, whatever team 0's trick count: those positions share entries, stored without
     * the offset (key 15, above any trick count). Where it is open the trick count is part of the key. */
    u64 tkey = R->bonus ? (open ? (u64)s->tricks0 : 15) : 0;
    u64 primary = mix64(s->zsum ^ ((u64)s->leader << 56) ^ (tkey << 60));
    Entry *bucket = &tt[(primary & tt_mask) * WAYS];
    u64 ph[4][16];
    int len[4], have_ph = 0, best_lead = -1;
    u64 used = 0;
    for (int w = 0; w < WAYS; w++) {
        Entry *e = &bucket[w];
        if (e->gen != tt_gen || e->primary != primary) continue;
        if (!have_ph) { prefix_hashes(s, live, ph, len); have_ph = 1; }
        if (class_hash(ph, e->kvec) != e->ph) continue;
        u64 mask = s->exact_keys ? live : prefix_mask(R, live, e->kvec);
        int elo = e->lo + offset, ehi = e->hi + offset;
        if (elo >= beta || elo == ehi) { *rel = mask; return elo; }
        if (ehi <= alpha) { *rel = mask; return ehi; }
        if (elo > lo) lo = elo, used |= mask;
        if (ehi < hi) hi = ehi, used |= mask;
        if (e->best && (s->h[s->leader] >> (e->best - 1) & 1)) best_lead = e->best - 1;
    }
    if (sure_pts) used |= sure;  /* lo and hi may rest on the sure trumps too */
    if (lo >= beta || lo == hi) { *rel = used; return lo; }
    if (hi <= alpha) { *rel = used; return hi; }
    int a = alpha > lo ? alpha : lo, b = beta < hi ? beta : hi;
    int seat = s->leader, moves[MAXC], bm;
    u64 multi, r = 0;
    int n = merged(s, s->h[seat], live, moves, NULL, &multi);
    order_lead(s, seat, moves, n, best_lead);
    int v = search_moves(s, seat, moves, n, a, b, &bm, multi, &r);
    if (s->aborted) return 0;
    if (s->exact_keys) r = live;
    r |= sure_pts ? sure : 0;  /* the stored bounds start from the sure points */
    *rel = r | ((a > alpha || b < beta) ? used : 0);

    /* store the bound this search proved, for the class its relevant cards define */
    int slo = lo0, shi = hi0;
    if (v <= a) shi = v;
    else if (v >= b) slo = v;
    else slo = shi = v;
    if (!have_ph) { prefix_hashes(s, live, ph, len); have_ph = 1; }
    unsigned kvec = kvec_of(R, live, r);
    u64 cph = class_hash(ph, kvec);
    Entry *slot = NULL;
    for (int w = 0; w < WAYS; w++) {
        Entry *e = &bucket[w];
        if (e->gen == tt_gen && e->primary == primary && e->kvec == kvec && e->ph == cph) {
            if (e->lo + offset > slo) slo = e->lo + offset;
            if (e->hi + offset < shi) shi = e->hi + offset;
            slot = e;
            break;
        }
    }
    if (!slot) {
        slot = &bucket[0];
        for (int w = 1; w < WAYS && slot->gen == tt_gen; w++) {
            Entry *e = &bucket[w];
            if (e->gen != tt_gen || e->depth < slot->depth) slot = e;
        }
    }
    slot->primary = primary; slot->ph = cph; slot->kvec = (uint16_t)kvec;
    slot->lo = (int16_t)(slo - offset); slot->hi = (int16_t)(shi - offset); slot->gen = tt_gen;
    slot->depth = (uint8_t)left; slot->best = (uint8_t)(bm + 1);
    return v;
}

static int ab(Search *s, int alpha, int beta, u64 *rel) {
    if (++s->nodes > s->limit) { s->aborted = 1; *rel = 0; return 0; }
    if (s->nt == 0) return trick_start(s, alpha, beta, rel);
    int seat = (s->leader + s->nt) & 3, moves[MAXC], bm;
    u64 legal = legal_moves(s, s->h[seat]), multi;
    int n = merged(s, legal, live_cards(s), moves, NULL, &multi);
    if (n > 1) order_follow(s, seat, moves, n);
    return search_moves(s, seat, moves, n, alpha, beta, &bm, multi, rel);
}

/* ------------------------------------------------------------ Python face */
typedef struct {
    PyObject_HEAD
    Rules R;
    long long nodes;
} SolverObject;

static int parse_hands(SolverObject *self, PyObject *hands, u64 *out, int8_t *owner_out) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence of four card sets");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != NSEATS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "hands must hold four card sets");
        return -1;
    }
    u64 seen = 0;
    for (int k = 0; k < NSEATS; k++) {
        u64 ext = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, k));
        if (ext == (u64)-1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (self->R.n < 64 && ext >> self->R.n) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "hand %d holds a card id outside the deck of %d", k, self->R.n);
            return -1;
        }
        u64 h = 0;
        while (ext) { int c = lowest(ext); ext &= ext - 1; h |= 1ULL << self->R.in[c]; }
        for (u64 m = h; m; m &= m - 1) owner_out[lowest(m)] = (int8_t)k;
        if (h & seen) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "a card is in two hands"); return -1; }
        seen |= h;
        out[k] = h;
    }
    Py_DECREF(seq);
    return 0;
}

/* Set up a search from the arguments (hands, leader, trick, trick_no, tricks0, nest). */
static int setup(SolverObject *self, PyObject *args, Search *s, long long *budget) {
    PyObject *hands, *trick;
    int leader, trick_no, tricks0, nest, horizon = 99, exact = 0;
    long long limit = -1;
    if (!PyArg_ParseTuple(args, "OiOiii|iLp", &hands, &leader, &trick, &trick_no, &tricks0, &nest, &horizon, &limit,
                          &exact))
        return -1;
    memset(s, 0, sizeof(*s));
    s->R = &self->R;
    if (parse_hands(self, hands, s->h, s->owner) < 0) return -1;
    if (leader < 0 || leader > 3) { PyErr_SetString(PyExc_ValueError, "leader must be a seat 0..3"); return -1; }
    if (trick_no < 0 || trick_no >= self->R.num_tricks) {
        PyErr_Format(PyExc_ValueError, "trick_no must be 0..%d", self->R.num_tricks - 1);
        return -1;
    }
    if (tricks0 < 0 || tricks0 > trick_no) {
        PyErr_Format(PyExc_ValueError, "tricks0 must be 0..trick_no (%d), got %d", trick_no, tricks0);
        return -1;
    }
    if (nest < 0 || nest > 100000) { PyErr_SetString(PyExc_ValueError, "nest points must be 0..100000"); return -1; }
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of card ids");
    if (!seq) return -1;
    Py_ssize_t nt = PySequence_Fast_GET_SIZE(seq);
    if (nt > 3) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "a trick in progress holds 0..3 cards"); return -1; }
    u64 held = s->h[0] | s->h[1] | s->h[2] | s->h[3];
    for (Py_ssize_t i = 0; i < nt; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c == -1 && PyErr_Occurred()) { Py_DECREF(seq); return -1; }
        if (c < 0 || c >= self->R.n || (held >> self->R.in[c] & 1)) {
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "trick card %ld is not a card of the deck outside the hands", c);
            return -1;
        }
        int ic = self->R.in[c];
        held |= 1ULL << ic;
        s->tc[trick_no][i] = ic;
        if (i == 0 || beats(&self->R, ic, s->win)) { s->win = ic; s->winoff = (int)i; }
    }
    Py_DECREF(seq);
    s->nt = (int)nt;
    int left = self->R.num_tricks - trick_no;
    for (int k = 0; k < NSEATS; k++) {
        int seat = (leader + k) & 3, want = left - (k < nt ? 1 : 0);
        if (popc(s->h[seat]) != want) {
            PyErr_Format(PyExc_ValueError, "seat %d holds %d cards; %d expected at trick %d with %d on the table",
                         seat, popc(s->h[seat]), want, trick_no, (int)nt);
            return -1;
        }
    }
    s->leader = leader; s->trick_no = trick_no; s->tricks0 = tricks0; s->nest = nest;
    s->stop = horizon >= self->R.num_tricks ? self->R.num_tricks : trick_no + 1 + horizon;
    if (s->stop > self->R.num_tricks) s->stop = self->R.num_tricks;
    s->limit = limit < 0 ? (long long)1 << 62 : limit;
    s->exact_keys = exact || s->stop < self->R.num_tricks;
    for (int k = 0; k < NSEATS; k++)
        for (u64 m = s->h[k]; m; m &= m - 1) {
            int c = lowest(m);
            s->zsum += self->R.z[k][self->R.suit_of[c]][self->R.cls[c]];
        }
    if (budget) *budget = limit;
    if (tt_new_generation(self->R.num_tricks) < 0) { PyErr_NoMemory(); return -1; }
    return 0;
}

/* The exact value of one move by null-window searches (MTD(f)) from a guess. */
static int mtdf(Search *s, int seat, int c, int guess) {
    int lo = -INF, hi = INF;
    int g = guess == -INF ? 0 : guess;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        u64 rel;
        g = play(s, seat, c, beta - 1, beta, &rel);
        if (s->aborted) return 0;
        if (g < beta) hi = g; else lo = g;
    }
    return g;
}

/* Values of every legal card of the seat to move (equivalent cards share their class's value). */
static int root_values(Search *s, int *cards, int *vals, int *count) {
    int seat = (s->leader + s->nt) & 3, moves[MAXC], rep[MAXC], repval[MAXC];
    u64 legal = legal_moves(s, s->h[seat]), multi;
    int n = merged(s, legal, live_cards(s), moves, rep, &multi);
    int guess = -INF;
    for (int i = 0; i < n; i++) {
        s->nodes++;
        int v = mtdf(s, seat, moves[i], guess);
        if (s->aborted) return -1;
        repval[moves[i]] = guess = v;
    }
    int k = 0;
    for (u64 m = legal; m; m &= m - 1) {
        int c = lowest(m);
        cards[k] = c;
        vals[k++] = repval[rep[c]];
    }
    *count = k;
    return 0;
}

static PyObject *values_dict(SolverObject *self, int *cards, int *vals, int n) {
    PyObject *d = PyDict_New();
    if (!d) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *k = PyLong_FromLong(self->R.ext[cards[i]]), *v = PyLong_FromLong(vals[i]);
        if (!k || !v || PyDict_SetItem(d, k, v) < 0) { Py_XDECREF(k); Py_XDECREF(v); Py_DECREF(d); return NULL; }
        Py_DECREF(k); Py_DECREF(v);
    }
    return d;
}

static PyObject *Solver_values(SolverObject *self, PyObject *args) {
    Search s;
    if (setup(self, args, &s, NULL) < 0) return NULL;
    int cards[MAXC], vals[MAXC], n;
    int rc = root_values(&s, cards, vals, &n);
    self->nodes = s.nodes;
    if (rc < 0) Py_RETURN_NONE;  /* ran past the node limit */
    return values_dict(self, cards, vals, n);
}

static PyObject *Solver_solve(SolverObject *self, PyObject *args) {
    Search s;
    if (setup(self, args, &s, NULL) < 0) return NULL;
    u64 rel;
    int v = ab(&s, -INF, INF, &rel);
    self->nodes = s.nodes;
    if (s.aborted) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

/* values() at the deepest horizon that completes within the node budget (the first always does). */
static PyObject *Solver_deepening(SolverObject *self, PyObject *args) {
    PyObject *hands, *trick;
    int leader, trick_no, tricks0, nest;
    long long budget;
    if (!PyArg_ParseTuple(args, "OiOiiiL", &hands, &leader, &trick, &trick_no, &tricks0, &nest, &budget)) return NULL;
    int best_cards[MAXC], best_vals[MAXC], best_n = -1;
    long long total = 0;
    int remaining = self->R.num_tricks - trick_no - 1;
    for (int horizon = 0; horizon <= remaining; horizon++) {
        PyObject *a = Py_BuildValue("(OiOiiiiL)", hands, leader, trick, trick_no, tricks0, nest, horizon,
                                    best_n < 0 ? (long long)-1 : budget);
        if (!a) return NULL;
        Search s;
        int rc = setup(self, a, &s, NULL);
        Py_DECREF(a);
        if (rc < 0) return NULL;
        int cards[MAXC], vals[MAXC], n;
        rc = root_values(&s, cards, vals, &n);
        total += s.nodes;
        if (rc < 0) break;
        memcpy(best_cards, cards, sizeof(int) * n);
        memcpy(best_vals, vals, sizeof(int) * n);
        best_n = n;
        budget -= s.nodes;
        if (budget <= 0) break;
    }
    self->nodes = total;
    return values_dict(self, best_cards, best_vals, best_n);
}

static PyObject *Solver_estimate(SolverObject *self, PyObject *args) {
    PyObject *hands;
    int nest;
    Search s;
    if (!PyArg_ParseTuple(args, "Oi", &hands, &nest)) return NULL;
    memset(&s, 0, sizeof(s));
    s.R = &self->R;
    if (parse_hands(self, hands, s.h, s.owner) < 0) return NULL;
    s.nest = nest;
    return PyLong_FromLong(estimate(&s));
}

static PyObject *Solver_trick_winner(SolverObject *self, PyObject *args) {
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "O", &trick)) return NULL;
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of card ids");
    if (!seq) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int win = -1, off = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c < 0 || c >= self->R.n) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "card id outside the deck"); return NULL; }
        int ic = self->R.in[c];
        if (i == 0 || beats(&self->R, ic, win)) { win = ic; off = (int)i; }
    }
    Py_DECREF(seq);
    return PyLong_FromLong(off);
}

static PyObject *Solver_legal(SolverObject *self, PyObject *args) {
    PyObject *hand_obj, *trick;
    if (!PyArg_ParseTuple(args, "OO", &hand_obj, &trick)) return NULL;
    PyObject *hands = PyTuple_Pack(4, hand_obj, PyLong_FromLong(0), PyLong_FromLong(0), PyLong_FromLong(0));
    if (!hands) return NULL;
    Search s;
    memset(&s, 0, sizeof(s));
    s.R = &self->R;
    int rc = parse_hands(self, hands, s.h, s.owner);
    Py_DECREF(hands);
    if (rc < 0) return NULL;
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence of card ids");
    if (!seq) return NULL;
    s.nt = (int)PySequence_Fast_GET_SIZE(seq);
    for (int i = 0; i < s.nt && i < NSEATS; i++) s.tc[0][i] = self->R.in[PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i))];
    Py_DECREF(seq);
    u64 legal = legal_moves(&s, s.h[0]), ext = 0;
    for (; legal; legal &= legal - 1) ext |= 1ULL << self->R.ext[lowest(legal)];
    return PyLong_FromUnsignedLongLong(ext);
}

static PyObject *Solver_get_nodes(SolverObject *self, void *closure) { return PyLong_FromLongLong(self->nodes); }

/* Solver(eff, power, points, anytime, trump, num_tricks, bonus): per-card effective suit, power
 * within it (higher wins), points; the any-time card set (engine ids); the trump colour. */
static int Solver_init(SolverObject *self, PyObject *args, PyObject *kw) {
    PyObject *eff, *power, *points;
    unsigned long long anytime;
    int trump, num_tricks, bonus;
    if (!PyArg_ParseTuple(args, "OOOKiii", &eff, &power, &points, &anytime, &trump, &num_tricks, &bonus)) return -1;
    Rules *R = &self->R;
    memset(R, 0, sizeof(*R));
    Py_ssize_t n = PySequence_Length(eff);
    if (n <= 0 || n > MAXC || PySequence_Length(power) != n || PySequence_Length(points) != n) {
        PyErr_SetString(PyExc_ValueError, "eff, power and points must be sequences of one length 1..64");
        return -1;
    }
    if (num_tricks < 1 || num_tricks > MAXTRICKS || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "num_tricks must be 1..16 and trump a colour 0..3");
        return -1;
    }
    int e[MAXC], p[MAXC], pt[MAXC];
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PySequence_GetItem(eff, i), *b = PySequence_GetItem(power, i), *c = PySequence_GetItem(points, i);
        e[i] = a ? (int)PyLong_AsLong(a) : -1; p[i] = b ? (int)PyLong_AsLong(b) : -1; pt[i] = c ? (int)PyLong_AsLong(c) : -1;
        Py_XDECREF(a); Py_XDECREF(b); Py_XDECREF(c);
        if (PyErr_Occurred()) return -1;
        if (e[i] < 0 || e[i] > 3 || pt[i] < 0 || pt[i] > 10000) {
            PyErr_SetString(PyExc_ValueError, "effective suits must be 0..3 and points 0..10000");
            return -1;
        }
    }
    /* internal order: suit by suit, ascending power */
    int k = 0, unit = 0;
    for (int su = 0; su < 4; su++) {
        int base = k;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (e[i] != su) continue;
            int j = k++;
            while (j > base && p[R->ext[j - 1]] > p[i]) { R->ext[j] = R->ext[j - 1]; j--; }
            R->ext[j] = (int)i;
        }
        for (int j = base; j < k; j++) R->suit[su] |= 1ULL << j;
    }
    R->n = (int)n;
    for (int j = 0; j < R->n; j++) {
        int c = R->ext[j];
        R->in[c] = j;
        R->suit_of[j] = e[c];
        R->pts[j] = pt[c];
        if (anytime >> c & 1) R->anytime |= 1ULL << j;
        unit = pt[c] ? (unit ? (int)(unit < pt[c] ? unit : pt[c]) : pt[c]) : unit;
    }
    /* the points' greatest common unit, for the bit planes of the table key */
    for (int changed = 1; changed;) {
        changed = 0;
        for (int j = 0; j < R->n && unit > 1; j++)
            if (R->pts[j] % unit) { int a = unit, b = R->pts[j] % unit; while (b) { int t = a % b; a = b; b = t; } unit = a; changed = 1; }
    }
    R->unit = unit ? unit : 1;
    int maxv = 0;
    for (int j = 0; j < R->n; j++) if (R->pts[j] / R->unit > maxv) maxv = R->pts[j] / R->unit;
    while (maxv >> R->nplanes) R->nplanes++;
    if (R->nplanes > 8) { PyErr_SetString(PyExc_ValueError, "card points span too many values"); return -1; }
    for (int j = 0; j < R->n; j++)
        for (int b = 0; b < R->nplanes; b++)
            if ((R->pts[j] / R->unit) >> b & 1) R->plane[b] |= 1ULL << j;
    for (int su = 0; su < 4; su++)
        if (popc(R->suit[su]) > 15) { PyErr_SetString(PyExc_ValueError, "an effective suit holds more than 15 cards"); return -1; }
    /* point classes: the distinct point values, the any-time card a class of its own */
    int values[MAXC], nvals = 0;
    for (int j = 0; j < R->n; j++) {
        if (R->anytime >> j & 1) continue;
        int v = R->pts[j], i = 0;
        while (i < nvals && values[i] != v) i++;
        if (i == nvals) values[nvals++] = v;
        R->cls[j] = i;
    }
    if (nvals + 1 > MAXCLS) { PyErr_SetString(PyExc_ValueError, "card points take too many distinct values"); return -1; }
    for (int j = 0; j < R->n; j++) if (R->anytime >> j & 1) R->cls[j] = nvals;
    u64 seed = 0x2545f4914f6cdd1dULL;
    for (int a = 0; a < NSEATS; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < MAXCLS; c++) { seed += 0x9e3779b97f4a7c15ULL; R->z[a][b][c] = mix64(seed); }
    R->trump = trump;
    R->num_tricks = num_tricks;
    R->bonus = bonus;
    self->nodes = 0;
    return 0;
}

static PyMethodDef Solver_methods[] = {
    {"values", (PyCFunction)Solver_values, METH_VARARGS,
     "values(hands, leader, trick, trick_no, tricks0, nest[, horizon, node_limit]) -> {card: team 0's points from now}"},
    {"solve", (PyCFunction)Solver_solve, METH_VARARGS,
     "solve(hands, leader, trick, trick_no, tricks0, nest[, horizon, node_limit]) -> team 0's points from now"},
    {"deepening", (PyCFunction)Solver_deepening, METH_VARARGS,
     "deepening(hands, leader, trick, trick_no, tricks0, nest, node_budget) -> values at the deepest affordable horizon"},
    {"estimate", (PyCFunction)Solver_estimate, METH_VARARGS, "estimate(hands, nest) -> the static leaf guess"},
    {"trick_winner", (PyCFunction)Solver_trick_winner, METH_VARARGS, "trick_winner(cards) -> offset of the winner"},
    {"legal", (PyCFunction)Solver_legal, METH_VARARGS, "legal(hand, trick) -> the cards that may follow"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Solver_getset[] = {
    {"nodes", (getter)Solver_get_nodes, NULL, "nodes searched by the last call", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject SolverType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "agents._dds.Solver",
    .tp_basicsize = sizeof(SolverObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Double-dummy solver for one deck and trump (see agents/_solver.py).",
    .tp_methods = Solver_methods,
    .tp_getset = Solver_getset,
    .tp_init = (initproc)Solver_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_dds", "Rook double-dummy solver (C).", -1, NULL, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__dds(void) {
    if (PyType_Ready(&SolverType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&SolverType);
    if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) { Py_DECREF(&SolverType); Py_DECREF(m); return NULL; }
    PyModule_AddIntConstant(m, "TT_ENTRIES", WAYS << TT_BITS_SMALL);
    PyModule_AddIntConstant(m, "TT_ENTRIES_LARGE", WAYS << TT_BITS_LARGE);
    return m;
}
