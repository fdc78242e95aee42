/* The board's kernels: unit propagation of the centrale encoding on one bit board per
 * value (board.h says the layout), the failed-literal closures nested to depth k, the
 * depth loop and the batch of givens.  This file is compiled once per instruction
 * set (board_base.c, board_sse41.c, board_avx2.c include it with VARIANT defined);
 * module.c picks one table of entry points at load time.
 *
 * Propagation.  A cell with one candidate that is not yet `solved` is a naked single:
 * its value leaves the cell's peers and closes the cell's full houses for the value
 * (one AND-NOT of the cell's peer mask over the value's board), and the cell becomes
 * solved.  Naked singles are found for all cells at once by bit-sliced counting over
 * the value boards (`ones`: some candidate, `twos`: two or more).  A value with one
 * place left in an open house is a hidden single: the other values leave that cell,
 * which then is a naked single.  Only the value boards that changed since their last
 * scan are scanned for hidden singles, and in them only the houses that may have
 * changed (`hd`, per value).  A cell with no
 * candidate, or an open full house in which a value has no place, is a contradiction.
 * These are exactly the unit steps of the centrale rule clauses (below), so the
 * fixpoint is clause unit propagation's.  The standard
 * 9x9 board (kind_of) has its own propagation, prop9s: the same steps in the same
 * order, with each value's hidden singles found in all 27 houses at once by band
 * arithmetic (std9_houses) instead of a record of the houses that changed.
 *
 * Closures.  clauses.c's frame stack, on this layout: frame d tests its
 * hypotheses on a copy of board d (boards[d + 1]) with the closure of depth
 * depth - d - 1; a hypothesis that fails is negated and propagated; a frame ends after
 * a full round over its open literals learns nothing.  The last frame (hypotheses
 * tested by propagation alone) tries them value by value, a word of cells at a time;
 * the others cell by cell (a cell's values gathered from the value boards, `column`),
 * an order in which fewer of the costly ones are tested.  Passing
 * hypotheses mark their closure's literals as passing (`passed`, per frame, polarity
 * and value); frames whose hypotheses are tested with a closure keep the passing
 * hypotheses' closures (witnesses) when they fit, and keep a mark across a learnt fact
 * when its witness's closure holds the fact; the last frame skips removals that
 * propagate nothing (quiet_removal).  The fixpoint is unique, so the order of
 * hypotheses changes no answer.
 *
 * Why the answers are the clause engine's.  The board applies only to the rule formula
 * of the `centrale` encoding (K1 L1 C1 B1 ... at least one, K2 L2 C2 B2 ... pairwise
 * at most one, the at-least-one of a house only when it has N cells, as
 * encoder.encodings writes it).  Read the board as the assignment "x(c, v) is false
 * when v is no longer a candidate of c, true when v is c's only candidate".  Each
 * board step is a sequence of unit-propagation steps on that formula: a naked single
 * is K1's clause becoming unit, then K2's and the houses' binary clauses removing v
 * from the peers; a hidden single is a house's at-least-one clause becoming unit, then
 * K2 emptying the cell of its other values; an empty cell is K1 falsified, a house
 * value with no place its at-least-one clause falsified.  Conversely, at the board's
 * fixpoint no clause is unit or falsified: every unit step of those clause kinds is
 * one of the board's rules.  Unit propagation has a unique result on any formula (its
 * set of implied literals only grows, and a conflict reached in one order is reached
 * in every order), so the board's fixpoint is exactly the literals clause propagation
 * implies, and a contradiction exactly a conflict.  The closures are the unique
 * fixpoints clauses.c describes, built from that same propagation, so they are equal
 * too: for x(c, v), "x true" is "cell c = v" and "x false" is "v removed from c".
 * Every other encoding and any DIMACS file stay on the clause engine.
 *
 * Work.  G->work counts cells placed and hypotheses tested: the clock of the per-grid
 * budget, which is read at hypothesis boundaries only, so a budget gives the same
 * answer on every machine.  The opt-in time limit of a depth loop's grids is read at
 * hypothesis boundaries too, but only where the poll reads the clock (core_poll_due:
 * a grid's first boundary, then every POLL_EVERY): no limit costs nothing, and a grid
 * stops within that many hypotheses of passing its limit.
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "board.h"
#include "depth_loop.h"
#include "log_layout.h"

#define CAT2(a, b) a##_##b
#define CAT(a, b) CAT2(a, b)
#define INLINE static inline __attribute__((always_inline))
#ifndef FEW_LOST
#define FEW_LOST 4 /* a value placed: the houses of at most this many cells losing it */
#endif

/* 9x9 (two words, one house word): the kernels compiled with its constants */
INLINE int is9(const Board *G) { return G->n == 9 && G->W == 2 && G->HW == 1; }
#if defined(__GNUC__) && !defined(__clang__)
/* gcc: 9x9 propagation, the hot loop, with its small loops unrolled (measured faster
 * than -O2 alone and than -O3) */
#define PROP9_OPT __attribute__((optimize("O2", "unroll-loops")))
#else
#define PROP9_OPT
#endif

INLINE int popc(word x) { return __builtin_popcountll(x); }
INLINE int ctz(word x) { return __builtin_ctzll(x); }

/* A hypothesis code is (2 * c + negative) * 64 + v: "cell c = v + 1", or "v + 1
 * removed from c" (64: decoded with shifts). */
INLINE int64_t code_of(int c, int v, int negative) { return (int64_t)(2 * c + negative) * 64 + v; }
INLINE int code_cell(int64_t code) { return (int)(code >> 7); }
INLINE int code_negative(int64_t code) { return (int)(code >> 6 & 1); }
INLINE int code_value(int64_t code) { return (int)(code & 63); }

/* The values of cell c in board b (or in any N x W set of value boards), as a word. */
INLINE word column(const word *b, int n, int W, int c) {
    const word *col = b + (c >> 6);
    const int sh = c & 63;
    word m = 0;
    for (int v = 0; v < n; v++) m |= (col[(size_t)v * W] >> sh & 1) << v;
    return m;
}

/* Board's tables, read into a local once by the propagation kernels: stores to the board
 * would make the compiler reload G's fields otherwise. */
typedef struct Tables {
    const word *cm, *peers, *hmask, *cellhouses, *allhouses;
    const int *hlo, *hhi;
} Tables;

/* Place a value in cell c: take it out of the peers of c on its board bv, and mark in
 * hd (the value's houses to scan) those of the cells that lost it, or every house when
 * scanning them all costs less. */
INLINE void place_w(const Tables *t, word *bv, word *hd, int c, const int W, const int HW) {
    const word *pm = t->peers + (size_t)c * W;
    word lostw[W];
    int lost = 0;
    for (int x = 0; x < W; x++) {
        lostw[x] = bv[x] & pm[x] & t->cm[x];
        lost += popc(lostw[x]);
        bv[x] &= ~pm[x];
    }
    if (lost > FEW_LOST) {
        for (int y = 0; y < HW; y++) hd[y] = t->allhouses[y];
    } else {
        for (int x = 0; x < W; x++)
            for (word m = lostw[x]; m; m &= m - 1) {
                const word *ch = t->cellhouses + (size_t)(x * 64 + ctz(m)) * HW;
                for (int y = 0; y < HW; y++) hd[y] |= ch[y];
            }
    }
}

/* The places left to a value (its board bv) in house h: their count, and when there are
 * some, a word of them (*one) and its index (*at), the last such word. */
INLINE int in_house_w(const Tables *t, const word *bv, int h, int *at, word *one, const int W) {
    const word *hm = t->hmask + (size_t)h * W;
    if (W == 1) {
        *one = bv[0] & hm[0];
        return popc(*one);
    }
    if (W == 2) { /* both words, without branches */
        word t0 = bv[0] & hm[0], t1 = bv[1] & hm[1];
        *at = t1 != 0;
        *one = t1 ? t1 : t0;
        return popc(t0) + popc(t1);
    }
    int count = 0;
    for (int y = t->hlo[h]; y < t->hhi[h]; y++) {
        word w = bv[y] & hm[y];
        if (w) {
            count += popc(w);
            *at = y;
            *one = w;
        }
    }
    return count;
}

/* Run naked and hidden singles on board b to the fixpoint.  The values in `all_dirty`
 * changed anywhere since the board was last at its fixpoint, those in `cell_dirty` only
 * in cell `cell`: their houses are scanned for hidden singles.  Return STATUS_OPEN or
 * STATUS_CONFLICT (the board is then left half-propagated, for the caller to drop).
 *
 * hd[v] are the houses to scan for value v: all of them once v was placed somewhere (its
 * peers lost it: scanning every open house costs less than finding theirs), else the
 * houses of the cells that lost v since its last scan (hidden singles, hypotheses). */
INLINE int prop_w(Board *G, word *b, word all_dirty, int cell, word cell_dirty, const int W,
                  const int NN, const int HWC) {
    /* NN, HWC: the side and house words when known at compile time (0: read G) */
    const int n = NN ? 9 : G->n, cells = NN ? 81 : G->cells, HW = HWC ? HWC : G->HW;
    word *solved = b + (size_t)n * W;
    /* the tables in locals: stores to the board would make the compiler reload G's
     * fields otherwise */
    const Tables t = {G->cellmask, G->peers, G->hmask, G->cellhouses, G->allhouses,
                      G->hlo,      G->hhi};
    const word *const cm = t.cm, *const cellhouses = t.cellhouses, *const allhouses = t.allhouses;
    uint64_t placed = 0;
    int result = STATUS_OPEN;
    word hd[n * HW];
    word kept[W]; /* the cells a hidden single reduced, in this scan */
    for (int v = 0; v < n; v++)
        for (int x = 0; x < HW; x++) {
            word h = (all_dirty >> v & 1) ? allhouses[x] : 0;
            if (cell_dirty >> v & 1) h |= cellhouses[(size_t)cell * HW + x];
            hd[v * HW + x] = h;
        }
    word dirty = all_dirty | cell_dirty;
    for (;;) {
        for (;;) { /* naked singles */
            word ones[W], twos[W];
            for (int w = 0; w < W; w++) ones[w] = twos[w] = 0;
            for (int v = 0; v < n; v++) {
                const word *bv = b + (size_t)v * W;
                for (int w = 0; w < W; w++) {
                    twos[w] |= ones[w] & bv[w];
                    ones[w] |= bv[w];
                }
            }
            word any = 0, empty = 0;
            for (int w = 0; w < W; w++) {
                empty |= cm[w] & ~ones[w];
                ones[w] &= ~twos[w] & ~solved[w] & cm[w];
                any |= ones[w];
            }
            if (empty) {
                result = STATUS_CONFLICT; /* a cell with no candidate */
                goto done;
            }
            if (!any) break;
            for (int w = 0; w < W; w++) { /* each single cell, then its value */
                for (word s = ones[w]; s; s &= s - 1) {
                    int bit = ctz(s);
                    int v = 0;
                    while (v < n && !(b[(size_t)v * W + w] >> bit & 1)) v++;
                    if (v == n) {
                        result = STATUS_CONFLICT; /* a peer placed its value first */
                        goto done;
                    }
                    dirty |= (word)1 << v;
                    place_w(&t, b + (size_t)v * W, hd + v * HW, w * 64 + bit, W, HW);
                    solved[w] |= (word)1 << bit;
                    placed++;
                }
            }
        }
        /* hidden singles in the open houses to scan */
        word reduced = 0;
        for (int x = 0; x < W; x++) kept[x] = 0;
        while (dirty) {
            int v = ctz(dirty);
            dirty &= dirty - 1;
            word *bv = b + (size_t)v * W;
            for (int x = 0; x < HW; x++) {
                /* the open houses of v, h = 64x .. 64x + 63: bits cells + h of bv */
                int first = cells + 64 * x, sh = first & 63;
                word open = bv[first >> 6] >> sh;
                if (sh && (first >> 6) + 1 < W) open |= bv[(first >> 6) + 1] << (64 - sh);
                word scan = hd[v * HW + x] & open;
                hd[v * HW + x] = 0;
                while (scan) {
                    int h = x * 64 + ctz(scan);
                    scan &= scan - 1;
                    int at = 0;
                    word one = 0;
                    const int count = in_house_w(&t, bv, h, &at, &one, W);
                    if (count == 0) {
                        result = STATUS_CONFLICT; /* the value has no place in house h */
                        goto done;
                    }
                    if (count == 1 && !(kept[at] & one)) { /* not reduced to v already */
                        kept[at] |= one;
                        const word *ch = cellhouses + (size_t)(at * 64 + ctz(one)) * HW;
                        for (int u = 0; u < n; u++) { /* without branches */
                            word *bu = b + (size_t)u * W + at;
                            word had = *bu & one & -(word)(u != v);
                            word flag = -(word)(had != 0);
                            *bu ^= had;
                            reduced |= flag & ((word)1 << u);
                            for (int y = 0; y < HW; y++) hd[u * HW + y] |= ch[y] & flag;
                        }
                    }
                }
            }
        }
        if (!reduced) break;
        dirty = reduced;
    }
done:
    G->work += placed;
    return result;
}

/* 9x9: its loops unrolled, one copy for every caller */
static __attribute__((noinline)) PROP9_OPT int prop9(Board *G, word *b, word all_dirty, int cell,
                                           word cell_dirty) {
    return prop_w(G, b, all_dirty, cell, cell_dirty, 2, 9, 1);
}

static int prop(Board *G, word *b, word all_dirty, int cell, word cell_dirty) {
    if (is9(G)) return prop9(G, b, all_dirty, cell, cell_dirty);
    switch (G->W) {
    case 1: return prop_w(G, b, all_dirty, cell, cell_dirty, 1, 0, 0);
    case 2: return prop_w(G, b, all_dirty, cell, cell_dirty, 2, 0, 0);
    case 3: return prop_w(G, b, all_dirty, cell, cell_dirty, 3, 0, 0);
    case 5: return prop_w(G, b, all_dirty, cell, cell_dirty, 5, 0, 0);
    default: return prop_w(G, b, all_dirty, cell, cell_dirty, G->W, 0, 0);
    }
}

/* The standard 9x9 board (rows, columns, then boxes, as solvers.core numbers them):
 * its houses' cells, to recognise it (kind_of), and its hidden singles found for all 27
 * houses of a value at once, without a loop over houses.
 *
 * A value's board is read as three bands of 27 cells (three rows each): bands 0 and 1
 * side by side in one word (lanes at bits 0 and 32), band 2 in another.  Within a band
 * the three rows, 9 bits each, are OR-ed and counted bit-sliced (`o`: one place or
 * more, `t`: two or more) into each column's count in the band; the bands' counts
 * combine into the columns', and three adjacent columns' into each box's.  A row's
 * count comes from lane arithmetic: with 16-bit lanes, adding 0x1FF sets bit 9 of a
 * lane holding a nonzero row, and r & (r - 1) clears its lowest bit (bit 9 set first
 * keeps a borrow inside the lane). */
static const word STD9_HOUSES[27][2] = {
    {0x1ff, 0x0}, {0x3fe00, 0x0}, {0x7fc0000, 0x0},
    {0xff8000000, 0x0}, {0x1ff000000000, 0x0}, {0x3fe00000000000, 0x0},
    {0x7fc0000000000000, 0x0}, {0x8000000000000000, 0xff}, {0x0, 0x1ff00},
    {0x8040201008040201, 0x100}, {0x80402010080402, 0x201}, {0x100804020100804, 0x402},
    {0x201008040201008, 0x804}, {0x402010080402010, 0x1008}, {0x804020100804020, 0x2010},
    {0x1008040201008040, 0x4020}, {0x2010080402010080, 0x8040}, {0x4020100804020100, 0x10080},
    {0x1c0e07, 0x0}, {0xe07038, 0x0}, {0x70381c0, 0x0},
    {0xe07038000000, 0x0}, {0x70381c0000000, 0x0}, {0x381c0e00000000, 0x0},
    {0x81c0000000000000, 0x703}, {0xe00000000000000, 0x381c}, {0x7000000000000000, 0x1c0e0},
};
#define STD9 90 /* NN for the standard 9x9 board (9x9's constants, and std9_houses) */

/* Bits 0, 3, 6 of s to bits 0, 1, 2 (a band's three boxes). */
#define STD9_BOXES(s) (((s) | (s) >> 2 | (s) >> 4) & 7)
#define STD9_ROWS(s) (((s) >> 9 & 7) | ((s) >> 41 & 7) << 3 | ((s) >> 25 & 7) << 6)

/* The houses of a value board (x0, x1: cells 0..63, then 64..80) with exactly one
 * place, as a mask of house numbers; *none: those with no place.  T is a word, or a
 * vector of words: several values' boards at once, one a lane (the same expressions). */
#define STD9_HOUSES(NAME, T)                                                              \
    INLINE T NAME(T x0, T x1, T *none) {                                                  \
    const word M27 = ((word)1 << 27) - 1, R = 0x1FF | (word)0x1FF << 32;                  \
    const word L = 1 | (word)1 << 16 | (word)1 << 32, K = 0x1FF * L, G9 = L << 9;         \
    const word B = 0x49 | (word)0x49 << 32; /* the boxes' first columns, in both lanes */ \
    T P = (x0 & M27) | (x0 >> 27 & M27) << 32; /* bands 0 and 1 */                        \
    T Q = x0 >> 54 | (x1 & 0x1FFFF) << 10;      /* band 2 */                              \
    T pa = P & R, pb = P >> 9 & R, pc = P >> 18 & R; /* each band's three rows */         \
    T qa = Q & 0x1FF, qb = Q >> 9 & 0x1FF, qc = Q >> 18 & 0x1FF;                          \
    T po = pa | pb | pc, pt = (pa & pb) | (pc & (pa | pb)); /* columns within bands */    \
    T qo = qa | qb | qc, qt = (qa & qb) | (qc & (qa | qb));                               \
    T lo = po & 0x1FF, hi = po >> 32;                                                     \
    T co = lo | hi | qo; /* columns */                                                    \
    T ct = (pt & 0x1FF) | pt >> 32 | qt | (lo & hi) | (qo & (lo | hi));                   \
    T pbo = po | po >> 1 | po >> 2; /* boxes, at bits 0, 3, 6 of each lane */             \
    T pbt = pt | pt >> 1 | pt >> 2 | (po & po >> 1) | (po >> 2 & (po | po >> 1));         \
    T qbo = qo | qo >> 1 | qo >> 2;                                                       \
    T qbt = qt | qt >> 1 | qt >> 2 | (qo & qo >> 1) | (qo >> 2 & (qo | qo >> 1));         \
    T ps = pbo & ~pbt & B, qs = qbo & ~qbt & B, pe = ~pbo & B, qe = ~qbo & B;             \
    /* rows: lanes 0, 16, 32 hold rows 0-2, 6-8 and 3-5 of words ra, rb, rc */            \
    T ra = pa | qa << 16, rb = pb | qb << 16, rc = pc | qc << 16;                         \
    T na = (ra + K) & G9, nb = (rb + K) & G9, nc = (rc + K) & G9;                         \
    T ta = ((((ra | G9) - L) & ra) + K) & G9, tb = ((((rb | G9) - L) & rb) + K) & G9,     \
         tc = ((((rc | G9) - L) & rc) + K) & G9;                                          \
    T rs = (na & ~ta) | (nb & ~tb) << 1 | (nc & ~tc) << 2;                                \
    T re = (~na & G9) | (~nb & G9) << 1 | (~nc & G9) << 2;                                \
    *none = (T)(STD9_ROWS(re) | (~co & 0x1FF) << 9 |                                      \
            (STD9_BOXES(pe) | STD9_BOXES(pe >> 32) << 3 | STD9_BOXES(qe) << 6) << 18);    \
    return STD9_ROWS(rs) | (co & ~ct) << 9 |                                              \
           (STD9_BOXES(ps) | STD9_BOXES(ps >> 32) << 3 | STD9_BOXES(qs) << 6) << 18;      \
    }
/* Several values' words, one a lane: four with AVX2, else two (SSE2 is x86-64's
 * baseline; GCC lowers the same code to plain words elsewhere). */
#ifdef __AVX2__
#define LANES 4
#else
#define LANES 2
#endif
typedef word wordv __attribute__((vector_size(8 * LANES)));
STD9_HOUSES(std9_houses, word)
STD9_HOUSES(std9_houses_v, wordv)

/* std9_houses of values v0 .. v0 + 3 of board b, into one[v0 ..] and none[v0 ..]. */
INLINE void std9_four(const word *b, int v0, word *one, word *none) {
    for (int k = v0; k < v0 + 4; k += LANES) {
        wordv x0, x1, o, n;
        for (int i = 0; i < LANES; i++) x0[i] = b[2 * (k + i)], x1[i] = b[2 * (k + i) + 1];
        o = std9_houses_v(x0, x1, &n);
        memcpy(one + k, &o, sizeof o);
        memcpy(none + k, &n, sizeof n);
    }
}

/* After cell c left value board bv: its std9_houses `one` and `none` (for the board
 * before) brought up to date, in c's row, column and box, the only houses that changed. */
static const uint8_t STD9_CELL_HOUSES[81][3] = { /* each cell's row, column and box */
    {0, 9, 18}, {0, 10, 18}, {0, 11, 18}, {0, 12, 19}, {0, 13, 19}, {0, 14, 19}, {0, 15, 20}, {0, 16, 20}, {0, 17, 20},
    {1, 9, 18}, {1, 10, 18}, {1, 11, 18}, {1, 12, 19}, {1, 13, 19}, {1, 14, 19}, {1, 15, 20}, {1, 16, 20}, {1, 17, 20},
    {2, 9, 18}, {2, 10, 18}, {2, 11, 18}, {2, 12, 19}, {2, 13, 19}, {2, 14, 19}, {2, 15, 20}, {2, 16, 20}, {2, 17, 20},
    {3, 9, 21}, {3, 10, 21}, {3, 11, 21}, {3, 12, 22}, {3, 13, 22}, {3, 14, 22}, {3, 15, 23}, {3, 16, 23}, {3, 17, 23},
    {4, 9, 21}, {4, 10, 21}, {4, 11, 21}, {4, 12, 22}, {4, 13, 22}, {4, 14, 22}, {4, 15, 23}, {4, 16, 23}, {4, 17, 23},
    {5, 9, 21}, {5, 10, 21}, {5, 11, 21}, {5, 12, 22}, {5, 13, 22}, {5, 14, 22}, {5, 15, 23}, {5, 16, 23}, {5, 17, 23},
    {6, 9, 24}, {6, 10, 24}, {6, 11, 24}, {6, 12, 25}, {6, 13, 25}, {6, 14, 25}, {6, 15, 26}, {6, 16, 26}, {6, 17, 26},
    {7, 9, 24}, {7, 10, 24}, {7, 11, 24}, {7, 12, 25}, {7, 13, 25}, {7, 14, 25}, {7, 15, 26}, {7, 16, 26}, {7, 17, 26},
    {8, 9, 24}, {8, 10, 24}, {8, 11, 24}, {8, 12, 25}, {8, 13, 25}, {8, 14, 25}, {8, 15, 26}, {8, 16, 26}, {8, 17, 26},
};
INLINE void std9_update(const word *bv, int c, word *one, word *none) {
    const uint8_t *hs = STD9_CELL_HOUSES[c];
    for (int j = 0; j < 3; j++) {
        const word *hm = STD9_HOUSES[hs[j]], bit = (word)1 << hs[j];
        const int count = popc(bv[0] & hm[0]) + popc(bv[1] & hm[1]);
        *one = (*one & ~bit) | (bit & -(word)(count == 1));
        *none = (*none & ~bit) | (bit & -(word)(count == 0));
    }
}

/* prop9s's naked singles on the standard 9x9 board b, to their fixpoint: STATUS_OPEN, or
 * STATUS_CONFLICT; the values placed join *dirty and leave *few, *placed counts the
 * cells. */
INLINE int naked9(const word *peers, word *b, word *dirty, word *few, uint64_t *placed) {
    word *solved = b + 18;
    const word cm1 = 0x1FFFF;
    for (;;) {
        word o0 = 0, o1 = 0, t0 = 0, t1 = 0;
        for (int v = 0; v < 9; v++) {
            t0 |= o0 & b[2 * v], t1 |= o1 & b[2 * v + 1];
            o0 |= b[2 * v], o1 |= b[2 * v + 1];
        }
        if (~o0 | (cm1 & ~o1)) return STATUS_CONFLICT; /* a cell with no candidate */
        const word s0 = o0 & ~t0 & ~solved[0], s1 = o1 & ~t1 & ~solved[1] & cm1;
        if (!(s0 | s1)) return STATUS_OPEN;
        /* Value by value: a single whose value a peer single of lower index took
         * first is `lost`; prop_w, cell by cell, stops at the first of them, having
         * placed the singles below it. */
        word lost0 = 0, lost1 = 0;
        for (int v = 0; v < 9; v++) {
            word *bv = b + 2 * v;
            const word m0 = bv[0] & s0, m1 = bv[1] & s1;
            if (!(m0 | m1)) continue;
            *dirty |= (word)1 << v;
            *few &= ~((word)1 << v);
            for (word m = m0; m; m &= m - 1) {
                const word bit = m & -m;
                if (!(bv[0] & bit)) {
                    lost0 |= bit;
                    continue;
                }
                const word *pm = peers + (size_t)ctz(m) * 2;
                bv[0] &= ~pm[0];
                bv[1] &= ~pm[1];
            }
            for (word m = m1; m; m &= m - 1) {
                const word bit = m & -m;
                if (!(bv[1] & bit)) {
                    lost1 |= bit;
                    continue;
                }
                const word *pm = peers + (size_t)(64 + ctz(m)) * 2;
                bv[0] &= ~pm[0];
                bv[1] &= ~pm[1];
            }
        }
        if (lost0 | lost1) { /* the singles below the first lost one were placed */
            *placed += lost0 ? popc(s0 & ((lost0 & -lost0) - 1))
                             : popc(s0) + popc(s1 & ((lost1 & -lost1) - 1));
            return STATUS_CONFLICT;
        }
        solved[0] |= s0;
        solved[1] |= s1;
        *placed += popc(s0) + popc(s1);
    }
}

/* prop_w on the standard 9x9 board: the same steps in the same order (so the same
 * fixpoint, and the same cells placed before a contradiction), but each dirty value's
 * hidden singles found in all its open houses at once (std9_houses), which needs no
 * record of the houses that changed.  `dirty`: the values changed since the board was
 * last at its fixpoint. */
static __attribute__((noinline)) PROP9_OPT int prop9s(Board *G, word *b, word all_dirty, int cell,
                                                     word cell_dirty) {
    word dirty = all_dirty | cell_dirty;
    /* the values changed only in `cell`: until they change elsewhere, only its three
     * houses can hold a hidden single of theirs, checked one by one (cheaper) */
    word few = cell >= 0 ? cell_dirty & ~all_dirty : 0;
    int houses[3] = {0, 0, 0};
    if (cell >= 0) {
        int row = cell / 9, col = cell - 9 * row;
        houses[0] = row, houses[1] = 9 + col, houses[2] = 18 + row / 3 * 3 + col / 3;
    }
    const word *const peers = G->peers, *const hmask = G->hmask;
    const word open_bits = ((word)1 << 27) - 1;
    uint64_t placed = 0;
    int result = STATUS_OPEN;
    for (;;) {
        if (naked9(peers, b, &dirty, &few, &placed) != STATUS_OPEN) {
            result = STATUS_CONFLICT;
            goto done;
        }
        word reduced = 0, kept[2] = {0, 0}; /* the cells a hidden single reduced */
        /* std9_houses four values at a time when most of them are to be scanned; when
         * a hidden single of a value before it reduces a value still to scan, its
         * counts are brought up to date in the reduced cell's three houses alone
         * (std9_update), which gives what recomputing them would */
        word pre_one[8], pre_none[8], fresh = 0;
        const word wide = dirty & ~few;
        if (popc(wide & 0x0F) >= 2) std9_four(b, 0, pre_one, pre_none), fresh |= 0x0F;
        if (popc(wide & 0xF0) >= 2) std9_four(b, 4, pre_one, pre_none), fresh |= 0xF0;
        while (dirty) { /* hidden singles */
            int v = ctz(dirty);
            dirty &= dirty - 1;
            const word x0 = b[2 * v], x1 = b[2 * v + 1], open = x1 >> 17 & open_bits;
            word single = 0;
            if ((few & ~reduced) >> v & 1) { /* changed in `cell` alone: its houses */
                for (int j = 0; j < 3; j++) {
                    const word *hm = hmask + (size_t)houses[j] * 2;
                    int count = popc(x0 & hm[0]) + popc(x1 & hm[1]);
                    if (!(open >> houses[j] & 1)) continue;
                    if (count == 0) {
                        result = STATUS_CONFLICT; /* the value has no place in house */
                        goto done;
                    }
                    single |= (word)(count == 1) << houses[j];
                }
            } else {
                word none;
                if (fresh >> v & 1)
                    single = pre_one[v], none = pre_none[v];
                else
                    single = std9_houses(x0, x1, &none);
                single &= open;
                if (none & open) {
                    result = STATUS_CONFLICT; /* the value has no place in an open house */
                    goto done;
                }
            }
            for (; single; single &= single - 1) {
                const word *hm = hmask + (size_t)ctz(single) * 2;
                word t0 = x0 & hm[0], t1 = x1 & hm[1];
                int at = t1 != 0;
                word one = at ? t1 : t0;
                if (kept[at] & one) continue; /* reduced to v already */
                kept[at] |= one;
                word hit = 0;
                for (int u = 0; u < 9; u++) { /* without branches; v's bit put back after */
                    word *bu = b + 2 * u + at;
                    hit |= (word)((*bu & one) != 0) << u;
                    *bu &= ~one;
                }
                b[2 * v + at] |= one; /* the single's own value stays */
                hit &= ~((word)1 << v);
                reduced |= hit;
                for (word m = hit & fresh & dirty; m; m &= m - 1) /* still to scan */
                    std9_update(b + 2 * ctz(m), at * 64 + ctz(one), pre_one + ctz(m),
                                pre_none + ctz(m));
            }
        }
        if (!reduced) break;
        dirty = reduced;
        few = 0;
    }
done:
    G->work += placed;
    return result;
}

/* STD9 when G is the standard 9x9 board, 9 for another 9x9 (X, windoku, jigsaw), else 0:
 * the NN the kernels below are compiled with.  The entry points ask once a call. */
static int kind_of(const Board *G) {
    if (!is9(G)) return 0;
    if (G->nh != 27) return 9;
    for (int h = 0; h < 27; h++)
        if (G->hmask[2 * h] != STD9_HOUSES[h][0] || G->hmask[2 * h + 1] != STD9_HOUSES[h][1])
            return 9;
    return STD9;
}

/* prop with 9x9's constants when NN is 9 or STD9 (the caller checked kind_of) */
INLINE int propk(Board *G, const int NN, word *b, word all_dirty, int cell, word cell_dirty) {
    if (NN == STD9) return prop9s(G, b, all_dirty, cell, cell_dirty);
    if (NN == 9) return prop9(G, b, all_dirty, cell, cell_dirty);
    return prop(G, b, all_dirty, cell, cell_dirty);
}

static word all_values(int n) { return n == 64 ? ~(word)0 : ((word)1 << n) - 1; }

/* Every value possible everywhere, every house open, nothing solved. */
static void blank_board(const Board *G, word *b) {
    const int W = G->W, n = G->n;
    for (int x = 0; x < W; x++) {
        word all = G->cellmask[x];
        int lo = x * 64, hi = lo + 64; /* house bits cells .. cells + nh - 1 */
        int from = G->cells > lo ? G->cells : lo, to = G->cells + G->nh < hi ? G->cells + G->nh : hi;
        for (int i = from; i < to; i++) all |= (word)1 << (i - lo);
        for (int v = 0; v < n; v++) b[(size_t)v * W + x] = all;
        b[(size_t)n * W + x] = 0;
    }
}

/* Keep only value v in cell c; return the values removed (as dirty bits). */
INLINE word restrict_cell_k(const Board *G, word *b, int c, int v, const int NN) {
    const int W = (NN ? 2 : G->W);
    const word bit = (word)1 << (c & 63);
    word changed = 0;
    word *col = b + (c >> 6);
    if (NN) { /* without branches */
        for (int u = 0; u < 9; u++) {
            word had = col[2 * u] & bit & -(word)(u != v);
            col[2 * u] ^= had;
            changed |= (word)(had != 0) << u;
        }
        return changed;
    }
    for (int u = 0; u < (NN ? 9 : G->n); u++) {
        if (u != v && (col[(size_t)u * W] & bit)) {
            col[(size_t)u * W] &= ~bit;
            changed |= (word)1 << u;
        }
    }
    return changed;
}

/* Set b to the givens of grid (cells values, 0 blank) and propagate: 1 at a fixpoint,
 * 0 on a contradiction, -1 for a value outside 0..N. */
INLINE int start_board_k(Board *G, word *b, const int8_t *grid, const int NN) {
    const int n = (NN ? 9 : G->n), W = (NN ? 2 : G->W);
    if (NN == STD9) { /* every value everywhere, the 27 houses open, nothing solved */
        for (int v = 0; v < 9; v++) b[2 * v] = ~(word)0, b[2 * v + 1] = ((word)1 << 44) - 1;
        b[18] = b[19] = 0;
    } else {
        blank_board(G, b);
    }
    if (NN) { /* without branches: the givens' cells, and those of each value */
        word given[2] = {0, 0}, has[10][2] = {{0}};
        unsigned bad = 0;
#ifdef __SSE2__
        /* each value's cells by byte compares, 16 cells at a time (cell 80 alone) */
        __m128i g[5], top = _mm_set1_epi8(9);
        for (int i = 0; i < 5; i++) {
            g[i] = _mm_loadu_si128((const __m128i *)(grid + 16 * i));
            bad |= _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(g[i], top), top)) ^ 0xFFFF;
        }
        for (int k = 0; k < 10; k++) {
            __m128i key = _mm_set1_epi8((char)k);
            word m[5];
            for (int i = 0; i < 5; i++)
                m[i] = (word)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(g[i], key));
            has[k][0] = m[0] | m[1] << 16 | m[2] << 32 | m[3] << 48;
            has[k][1] = m[4] | (word)(grid[80] == k) << 16;
        }
        bad |= (unsigned)(uint8_t)grid[80] > 9;
        given[0] = ~has[0][0], given[1] = ~has[0][1] & 0x1FFFF;
#else
        for (int c = 0; c < 81; c++) {
            unsigned k = (unsigned)(int)grid[c];
            bad |= k > 9;
            word bit = (word)(k != 0) << (c & 63);
            given[c >> 6] |= bit;
            has[k > 9 ? 0 : k][c >> 6] |= bit;
        }
#endif
        if (bad) return -1;
        for (int v = 0; v < 9; v++)
            for (int w = 0; w < 2; w++) b[v * 2 + w] &= ~(given[w] & ~has[v + 1][w]);
        return propk(G, NN, b, all_values(n), -1, 0) == STATUS_OPEN;
    }
    for (int c = 0; c < (NN ? 81 : G->cells); c++) {
        int k = grid[c];
        if (k == 0) continue;
        if (k < 0 || k > n) return -1;
        word bit = (word)1 << (c & 63);
        word *col = b + (c >> 6);
        for (int u = 0; u < n; u++)
            if (u != k - 1) col[(size_t)u * W] &= ~bit;
    }
    return propk(G, NN, b, all_values(n), -1, 0) == STATUS_OPEN;
}

/* Apply the hypothesis "cell c = v + 1" (or, negative, "v + 1 removed from c") to board
 * b (at its fixpoint) and propagate. */
INLINE int test_k(Board *G, word *b, int c, int v, int negative, const int NN) {
    const int W = (NN ? 2 : G->W);
    word bit = (word)1 << (c & 63);
    word *bv = b + (size_t)v * W + (c >> 6);
    if (!(*bv & bit)) return STATUS_CONFLICT;
    if (negative) { /* "v removed from c" */
        *bv &= ~bit;
        return propk(G, NN, b, 0, c, (word)1 << v);
    }
    return propk(G, NN, b, 0, c, restrict_cell_k(G, b, c, v, NN));
}

/* True when removing v from c (b at its fixpoint) propagates nothing: c keeps two
 * candidates or more, and v two other places or more in each full house of c. */
INLINE int quiet_removal_k(const Board *G, const word *b, int c, int v, const int NN) {
    const int W = (NN ? 2 : G->W);
    const word bit = (word)1 << (c & 63);
    const word *col = b + (c >> 6);
    const word *bv = b + (size_t)v * W;
    if (NN == STD9) { /* its three houses, without the geometry's tables */
        int left = 0;
        for (int u = 0; u < 9; u++) left += (col[2 * u] & bit) != 0;
        if (left < 3) return 0;
        const int row = c / 9, column = c - 9 * row;
        const int hs[3] = {row, 9 + column, 18 + row / 3 * 3 + column / 3};
        for (int j = 0; j < 3; j++) {
            const word *hm = STD9_HOUSES[hs[j]];
            if (popc(bv[0] & hm[0]) + popc(bv[1] & hm[1]) < 3) return 0;
        }
        return 1;
    }
    int left = 0;
    for (int u = 0; u < (NN ? 9 : G->n) && left < 3; u++) left += (col[(size_t)u * W] & bit) != 0;
    if (left < 3) return 0;
    for (int j = 0; j < G->nch[c]; j++) {
        int h = G->chouse[(size_t)c * G->maxch + j];
        const word *hm = G->hmask + (size_t)h * W;
        int places = 0;
        for (int y = G->hlo[h]; y < G->hhi[h]; y++) places += popc(bv[y] & hm[y]);
        if (places < 3) return 0;
    }
    return 1;
}

/* Mark as passing every literal of the closure `after` of a hypothesis that passed on
 * `before`: the values placed, and the values removed. */
INLINE void mark_passed_k(const Board *G, word *pass, const word *before, const word *after, const int NN) {
    const int n = (NN ? 9 : G->n), W = (NN ? 2 : G->W);
    const word *solved = after + (size_t)n * W;
    word *neg = pass + (size_t)n * W;
    for (int v = 0; v < n; v++)
        for (int x = 0; x < W; x++) {
            size_t i = (size_t)v * W + x;
            pass[i] |= after[i] & solved[x] & G->cellmask[x];
            neg[i] |= before[i] & ~after[i] & G->cellmask[x];
        }
}

static word *frame_passed(Board *G, int d) { return G->passed + (size_t)d * 2 * G->n * G->W; }

static void open_frame(Board *G, int d) {
    int64_t *fr = G->frames + (size_t)d * NUM_COLUMNS;
    fr[F_POS] = fr[F_QUIET] = fr[F_WIT] = 0;
    memset(frame_passed(G, d), 0, sizeof(word) * 2 * G->n * G->W);
}

/* After frame d learnt facts (its board is now `board`), keep the witnesses whose
 * closure holds every fact of `board` and rebuild the frame's marks from them. */
INLINE void keep_witnessed_k(Board *G, int d, const word *board, const int NN) {
    const int BW = (NN ? 20 : G->BW), W = (NN ? 2 : G->W), n = (NN ? 9 : G->n);
    word *pass = frame_passed(G, d);
    memset(pass, 0, sizeof(word) * 2 * n * W);
    int64_t *fr = G->frames + (size_t)d * NUM_COLUMNS;
    word *wit = G->wit + (size_t)d * G->keep * BW;
    int32_t *codes = G->witcode + (size_t)d * G->keep;
    int64_t kept = 0;
    for (int64_t i = 0; i < fr[F_WIT]; i++) {
        const word *cw = wit + (size_t)i * BW;
        int holds = 1;
        for (int v = 0; v < n && holds; v++)
            for (int x = 0; x < W; x++)
                if (cw[(size_t)v * W + x] & ~board[(size_t)v * W + x] & G->cellmask[x]) {
                    holds = 0;
                    break;
                }
        if (!holds) continue;
        if (kept != i) {
            memcpy(wit + (size_t)kept * BW, cw, sizeof(word) * BW);
            codes[kept] = codes[i];
        }
        mark_passed_k(G, pass, board, wit + (size_t)kept * BW, NN);
        kept++;
    }
    fr[F_WIT] = kept;
}

/* The next hypothesis of a closure's last frame, whose hypotheses propagation tests:
 * value by value from fr[F_POS], the next open literal of `board` not known to pass
 * (`pass`), its code, or -1 when a full round (fr[F_QUIET]) found none. */
INLINE int64_t next_by_value_k(const Board *G, const word *board, const word *pass, int64_t *fr,
                               int positive_only, const int NN) {
    const int n = (NN ? 9 : G->n), W = (NN ? 2 : G->W), cells = (NN ? 81 : G->cells);
    const int64_t ncand = 2 * (int64_t)n * cells;
    const word *const cm = G->cellmask;
    const word *solved = board + (size_t)n * W;
    while (fr[F_QUIET] < ncand) { /* the next open literal not known to pass */
        int64_t k = fr[F_POS];
        int s = (int)(k / cells), c = (int)(k - (int64_t)s * cells);
        int64_t next;
        if ((s & 1) && positive_only) {
            next = (int64_t)(s + 1) * cells;
        } else {
            int w = c >> 6, v = s >> 1;
            word m = board[(size_t)v * W + w] & ~solved[w] & cm[w] &
                     ~pass[((size_t)(s & 1) * n + v) * W + w] & (~(word)0 << (c & 63));
            if (m) {
                int cc = w * 64 + ctz(m);
                int64_t p = (int64_t)s * cells + cc; /* its value-major position */
                fr[F_QUIET] += p + 1 - k;
                fr[F_POS] = p + 1 < ncand ? p + 1 : 0;
                return code_of(cc, v, s & 1);
            }
            int end = (w + 1) * 64 < cells ? (w + 1) * 64 : cells;
            next = (int64_t)s * cells + end;
        }
        fr[F_QUIET] += next - k;
        fr[F_POS] = next < ncand ? next : 0;
    }
    return -1;
}

/* The next hypothesis of a frame whose hypotheses closures test: cell by cell (fewer of
 * them), as next_by_value_k. */
INLINE int64_t next_by_cell_k(const Board *G, const word *board, const word *pass, int64_t *fr,
                              int positive_only, const int NN) {
    const int n = (NN ? 9 : G->n), W = (NN ? 2 : G->W), cells = (NN ? 81 : G->cells);
    const int64_t ncand = 2 * (int64_t)n * cells;
    const word *solved = board + (size_t)n * W;
    while (fr[F_QUIET] < ncand) {
        int64_t k = fr[F_POS];
        int slot = (int)(k / n), c = slot >> 1, neg = slot & 1;
        int64_t next;
        if (solved[c >> 6] >> (c & 63) & 1) {
            next = (int64_t)(slot + 2 - neg) * n; /* the next cell */
        } else if (neg && positive_only) {
            next = (int64_t)(slot + 1) * n;
        } else {
            word m = column(board, n, W, c) & (~(word)0 << (k - (int64_t)slot * n));
            const word *pc = pass + (size_t)neg * n * W + (c >> 6);
            while (m && pc[(size_t)ctz(m) * W] >> (c & 63) & 1) m &= m - 1; /* passes */
            if (m) {
                int64_t p = (int64_t)slot * n + ctz(m); /* its cell-major position */
                fr[F_QUIET] += p + 1 - k;
                fr[F_POS] = p + 1 < ncand ? p + 1 : 0;
                return code_of(c, ctz(m), neg);
            }
            next = (int64_t)(slot + 1) * n;
        }
        fr[F_QUIET] += next - k;
        fr[F_POS] = next < ncand ? next : 0;
    }
    return -1;
}

/* The proof log (log_layout.h), as the clause engine writes it (proof_log.h): a
 * hypothesis that fails in frame `top` is the lemma of the negated hypotheses of
 * frames 0 .. top, each the cell variable x(c, v) = N * c + v + 1 ("c = v + 1" is x,
 * "v + 1 removed from c" is -x).  It is RUP: under the hypotheses of the frames below,
 * the earlier lemmas and the formula propagate the frame's board (board propagation
 * is unit propagation, see the top of this file), and the hypothesis then fails by
 * propagation.  A frame's hypothesis that passes drops the lemmas found under it. */
INLINE int64_t hyp_negation(const Board *G, int64_t code) {
    int64_t var = (int64_t)G->n * code_cell(code) + code_value(code) + 1;
    return code_negative(code) ? var : -var;
}

INLINE void board_log_put(Board *G, int64_t *head, int64_t value) {
    if (*head >= 0 && *head < G->log_len) G->log[*head] = value;
    (*head)++;
}

static void board_log_lemma(Board *G, int top, int64_t code) {
    int64_t head = G->log[LOG_HEAD];
    for (int d = 0; d < top; d++)
        board_log_put(G, &head, hyp_negation(G, G->frames[(size_t)d * NUM_COLUMNS + F_HYP]));
    board_log_put(G, &head, hyp_negation(G, code));
    board_log_put(G, &head, 0);
    G->log[LOG_HEAD] = head;
}

INLINE void board_log_mark(Board *G, int frame) {
    if (G->log && frame < LOG_MARKED_FRAMES) G->log[LOG_MARK + frame] = G->log[LOG_HEAD];
}

INLINE void board_log_forget(Board *G, int frame) {
    if (G->log && frame < LOG_MARKED_FRAMES) G->log[LOG_HEAD] = G->log[LOG_MARK + frame];
}

/* Close boards[0] (at its fixpoint) under the failed-literal rule of depth `depth`.
 * Return STATUS_OPEN with the closure in boards[0], STATUS_CONFLICT, STATUS_BUDGET (the work
 * since work0 exceeded budget >= 0 at a hypothesis boundary), STATUS_TIME (the clock
 * past deadline_ns >= 0 where the poll looks at it) or STATUS_INTERRUPT. */
INLINE int closure_k(Board *G, int depth, int positive_only, Poll *poll, uint64_t work0,
                   int64_t budget, int64_t deadline_ns, const int NN) {
    if (depth <= 0) return STATUS_OPEN;
    const int n = (NN ? 9 : G->n), W = (NN ? 2 : G->W), BW = (NN ? 20 : G->BW);
    int top = 0;
    open_frame(G, 0);
    for (;;) {
        const int clock_due = deadline_ns >= 0 && core_poll_due(poll);
        if (core_poll(poll)) return STATUS_INTERRUPT;
        if (budget >= 0 && G->work - work0 > (uint64_t)budget) return STATUS_BUDGET;
        if (clock_due && core_now_ns() > deadline_ns) return STATUS_TIME;
        word *board = G->boards + (size_t)top * BW;
        word *pass = frame_passed(G, top);
        int64_t *fr = G->frames + (size_t)top * NUM_COLUMNS;
        const int64_t code = top + 1 == depth
                                 ? next_by_value_k(G, board, pass, fr, positive_only, NN)
                                 : next_by_cell_k(G, board, pass, fr, positive_only, NN);
        int ok;
        if (code < 0) { /* a full round learnt nothing: frame `top` is at its fixpoint */
            if (top == 0) return STATUS_OPEN;
            top--;
            ok = 1; /* ... so the hypothesis of the frame below passes */
        } else {
            const int hc = code_cell(code), hv = code_value(code), hneg = code_negative(code);
            G->hypotheses++;
            G->work++;
            if (top + 1 == depth && hneg && quiet_removal_k(G, board, hc, hv, NN)) {
                pass[((size_t)n + hv) * W + (hc >> 6)] |= (word)1 << (hc & 63);
                continue; /* passes, and its closure is itself */
            }
            fr[F_HYP] = code;
            board_log_mark(G, top);
            word *next = board + BW;
            memcpy(next, board, sizeof(word) * BW);
            if (test_k(G, next, hc, hv, hneg, NN) != STATUS_OPEN) {
                G->conflicts++; /* a failed hypothesis */
                ok = 0;
            } else if (top + 1 == depth) {
                ok = 1; /* the last frame tests hypotheses with propagation alone */
            } else {
                top++;
                open_frame(G, top);
                continue;
            }
        }
        for (;;) { /* the hypothesis of frame `top` is decided; a failure may cascade */
            word *board_t = G->boards + (size_t)top * BW;
            int64_t *fr_t = G->frames + (size_t)top * NUM_COLUMNS;
            int witnessing = G->keep > 0 && top + 1 < depth;
            if (ok) {
                mark_passed_k(G, frame_passed(G, top), board_t, board_t + BW, NN);
                if (witnessing && fr_t[F_WIT] < G->keep) {
                    int64_t i = fr_t[F_WIT]++;
                    memcpy(G->wit + ((size_t)top * G->keep + i) * BW, board_t + BW,
                           sizeof(word) * BW);
                    G->witcode[(size_t)top * G->keep + i] = (int32_t)fr_t[F_HYP];
                }
                board_log_forget(G, top);
                break;
            }
            fr_t[F_QUIET] = 0;
            int64_t h = fr_t[F_HYP];
            if (G->log) board_log_lemma(G, top, h);
            if (test_k(G, board_t, code_cell(h), code_value(h), !code_negative(h), NN) == STATUS_OPEN) {
                if (witnessing)
                    keep_witnessed_k(G, top, board_t, NN);
                else /* the facts grew: earlier passes prove nothing now */
                    memset(frame_passed(G, top), 0, sizeof(word) * 2 * n * W);
                break;
            }
            G->conflicts++; /* the frame itself is contradictory */
            if (top == 0) return STATUS_CONFLICT;
            top--; /* ... so the hypothesis of the frame below fails */
        }
    }
}

/* The entry points of the kernels above, compiled with the constants of G's kind
 * (kind_of: the standard 9x9 board, another 9x9, or the geometry's). */
static word restrict_cell(const Board *G, word *b, int c, int v) {
    return is9(G) ? restrict_cell_k(G, b, c, v, 9) : restrict_cell_k(G, b, c, v, 0);
}
static int start_board(Board *G, int kind, word *b, const int8_t *grid) {
    if (kind == STD9) return start_board_k(G, b, grid, STD9);
    return kind ? start_board_k(G, b, grid, 9) : start_board_k(G, b, grid, 0);
}
static int prop_kind(Board *G, int kind, word *b, word dirty) {
    if (kind == STD9) return propk(G, STD9, b, dirty, -1, 0);
    return propk(G, kind ? 9 : 0, b, dirty, -1, 0);
}
static int closure(Board *G, int kind, int depth, int positive_only, Poll *poll, uint64_t work0,
                   int64_t budget, int64_t deadline_ns) {
    if (kind == STD9)
        return closure_k(G, depth, positive_only, poll, work0, budget, deadline_ns, STD9);
    if (kind) return closure_k(G, depth, positive_only, poll, work0, budget, deadline_ns, 9);
    return closure_k(G, depth, positive_only, poll, work0, budget, deadline_ns, 0);
}

/* The cell variables board b leaves open: each candidate of a cell not placed. */
INLINE int64_t open_vars_k(const Board *G, const word *b, const int NN) {
    const int n = NN ? 9 : G->n, W = NN ? 2 : G->W;
    const word *solved = b + (size_t)n * W;
    int64_t count = 0;
    for (int v = 0; v < n; v++)
        for (int x = 0; x < W; x++)
            count += popc(b[(size_t)v * W + x] & ~solved[x] & G->cellmask[x]);
    return count;
}
static int64_t open_vars(const Board *G, int kind, const word *b) {
    return kind ? open_vars_k(G, b, 9) : open_vars_k(G, b, 0);
}

/* Write each cell's placed value into out (0 when open); return 1 when none is open. */
INLINE int filled_k(const Board *G, const word *b, int8_t *out, const int NN) {
    const int n = NN ? 9 : G->n, W = NN ? 2 : G->W;
    const word *solved = b + (size_t)n * W;
    memset(out, 0, (size_t)(NN ? 81 : G->cells));
    int full = 1;
    for (int x = 0; x < W; x++)
        if ((solved[x] & G->cellmask[x]) != G->cellmask[x]) full = 0;
    for (int v = 0; v < n; v++)
        for (int x = 0; x < W; x++) {
            word s = b[(size_t)v * W + x] & solved[x] & G->cellmask[x];
            while (s) {
                out[x * 64 + ctz(s)] = (int8_t)(v + 1);
                s &= s - 1;
            }
        }
    return full;
}
static int filled(const Board *G, int kind, const word *b, int8_t *out) {
    return kind ? filled_k(G, b, out, 9) : filled_k(G, b, out, 0);
}

static int batch(Board *G, const int8_t *grids, int64_t count, int8_t *ok, int8_t *values,
                 Poll *poll) {
    word *b = G->boards;
    const int kind = kind_of(G);
    for (int64_t g = 0; g < count; g++) {
        if (core_poll(poll)) return STATUS_INTERRUPT;
        const int8_t *grid = grids + (size_t)g * G->cells;
        int8_t *out = values + (size_t)g * G->cells;
        int r = start_board(G, kind, b, grid);
        ok[g] = (int8_t)r;
        if (r == 1)
            filled(G, kind, b, out);
        else
            memset(out, 0, (size_t)G->cells);
    }
    return STATUS_OPEN;
}

static int probe(Board *G, const int64_t *lits, int64_t nlits, int depth, int positive_only,
                 int64_t *out, int64_t *nout, Poll *poll) {
    const int n = G->n, W = G->W;
    word *b = G->boards;
    blank_board(G, b);
    word dirty = 0;
    *nout = 0;
    for (int64_t i = 0; i < nlits; i++) { /* checked by the caller: 1 <= |lit| <= n^3 */
        int64_t var = lits[i] > 0 ? lits[i] : -lits[i];
        int c = (int)((var - 1) / n), v = (int)((var - 1) % n);
        word bit = (word)1 << (c & 63), *bv = b + (size_t)v * W + (c >> 6);
        if (lits[i] > 0) {
            if (!(*bv & bit)) return STATUS_CONFLICT; /* an assumption already false */
            dirty |= restrict_cell(G, b, c, v) | ((word)1 << v);
        } else if (*bv & bit) {
            *bv &= ~bit;
            dirty |= (word)1 << v;
        }
    }
    const int kind = kind_of(G);
    if (prop_kind(G, kind, b, dirty | (nlits == 0 ? all_values(n) : 0)) != STATUS_OPEN)
        return STATUS_CONFLICT;
    int r = closure(G, kind, depth, positive_only, poll, G->work, -1, -1);
    if (r != STATUS_OPEN) return r;
    const word *solved = b + (size_t)n * W;
    int64_t m = 0;
    for (int c = 0; c < G->cells; c++) {
        word bit = (word)1 << (c & 63);
        int single = (solved[c >> 6] & bit) != 0;
        for (int v = 0; v < n; v++) {
            int64_t lit = (int64_t)n * c + v + 1;
            if (b[(size_t)v * W + (c >> 6)] & bit) {
                if (single) out[m++] = lit;
            } else {
                out[m++] = -lit;
            }
        }
    }
    *nout = m;
    return STATUS_OPEN;
}

/* The depth loop's steps on a board (depth_loop.h). */
typedef struct BoardClimb {
    Board *G;
    int kind;
    word *b;
    int positive_only;
    Poll *poll;
    uint64_t work0;
    int64_t budget;
    int64_t deadline_ns; /* the grid's time limit as a core_now_ns() time (-1: none) */
} BoardClimb;

static int climb_filled(void *engine, int8_t *solution) {
    const BoardClimb *c = engine;
    return filled(c->G, c->kind, c->b, solution);
}

static int climb_closure(void *engine, int depth) {
    const BoardClimb *c = engine;
    return closure(c->G, c->kind, depth, c->positive_only, c->poll, c->work0, c->budget,
                   c->deadline_ns);
}

static int depths(Board *G, const DepthRun *run, Poll *poll) {
    word *b = G->boards;
    const int kind = kind_of(G);
    BoardClimb c = {G, kind, b, run->positive_only, poll, 0, run->budget, -1};
    const DepthSteps steps = {climb_filled, climb_closure, &c, STATUS_TIME, STATUS_TIME};
    for (int64_t g = 0; g < run->count; g++) {
        if (core_poll(poll)) return STATUS_INTERRUPT;
        int64_t t0 = core_now_ns();
        uint64_t w0 = G->work, c0 = G->conflicts;
        c.work0 = w0;
        c.deadline_ns = -1;
        if (run->limit_ns > 0) { /* saturated: a limit beyond the clock's range never passes */
            c.deadline_ns = run->limit_ns > INT64_MAX - t0 ? INT64_MAX : t0 + run->limit_ns;
            core_poll_soon(poll); /* a grid's first hypothesis boundary looks at the clock */
        }
        int8_t *sol = run->solutions + (size_t)g * G->cells;
        if (G->log_at) G->log_at[g] = G->log[LOG_HEAD];
        int started = start_board(G, kind, b, run->grids + (size_t)g * G->cells);
        if (started < 0) {
            run->status[g] = STATUS_BAD;
            run->depth[g] = 0;
        } else if (depth_climb(&steps, started ? STATUS_OPEN : STATUS_CONFLICT, run->max_depth, sol,
                               &run->status[g], &run->depth[g]) == STATUS_INTERRUPT) {
            return STATUS_INTERRUPT;
        }
        if (G->log_at) G->log_at[g + 1] = G->log[LOG_HEAD];
        if (run->open) run->open[g] = run->status[g] == STATUS_OPEN ? open_vars(G, kind, b) : 0;
        if (run->conflicts) run->conflicts[g] = (int64_t)(G->conflicts - c0);
        run->work[g] = (int64_t)(G->work - w0);
        run->ns[g] = core_now_ns() - t0;
    }
    return STATUS_OPEN;
}

#include "intersections.h"
#include "board_search.h"

const BoardOps CAT(board_ops, VARIANT) = {
    .name = VARIANT_NAME,
    .batch = batch,
    .probe = probe,
    .depths = depths,
    .count = count,
    .minimal = minimal,
};
