/* Intersections (locked candidates) on the board, for the search (included by
 * board_impl.h, once per instruction set, before board_search.h).
 *
 * Two full houses a and b sharing two cells or more: when a value's places in a all lie
 * in b, the value leaves b's other cells (it is in a ∩ b, so nowhere else in b).  Each
 * such removal is a failed literal of depth 1: "v in c", for c in b outside a, empties
 * house a of v by one propagation step.  So the search's tree shrinks with the same
 * deductions its depth-1 lookahead would make, found for a whole house pair at once
 * instead of a hypothesis at a time; its models, and so every count, stay the same.  It
 * is not clause unit propagation: a proof log (whose lemmas must be RUP) and the
 * closures that rate grids never use it.
 *
 * The geometry's pairs (G->pair_house: a; pair_lo, pair_hi: the words holding a and b;
 * pair_src, pair_dst: the cells of a outside b and of b outside a) serve every board.  The standard 9x9 board reads a value's board as three bands and
 * three stacks instead: in a band, the value takes one triad (the three cells of a row
 * in a box) in each of its rows and boxes, and a triad in no such choice of three is
 * removed.  On a 3 x 3 matrix of triads that is exactly what the pair rule's
 * fixpoint removes (a row or box with one triad left claims it; two rows restricted to
 * two boxes leave the third box one row), so both give the same fixpoint, which the
 * tests check by counting on a 9x9 board whose houses the kernels cannot recognise.
 *
 * Opt-in (CountRun's and MinimalRun's `intersections`).  Measured by `benchmarks speed`
 * (question 14): on 9x9 it removes a quarter of the decisions on the hardest lists but
 * costs more than that a node, so it pays on easy grids alone; with the depth-1
 * lookahead it adds nothing (the lookahead finds every removal it makes).
 */

/* The values of `check` on board b whose places a pair rule removed (b at its singles
 * fixpoint): one pass over the geometry's pairs. */
INLINE word intersect_k(const Board *G, word *b, word check, const int NN) {
    const int W = NN ? 2 : G->W, cells = NN ? 81 : G->cells;
    const int np = G->npairs;
    const int32_t *house = G->pair_house, *lo = G->pair_lo, *hi = G->pair_hi;
    const word *src = G->pair_src, *dst = G->pair_dst;
    word changed = 0;
    for (; check; check &= check - 1) {
        const int v = ctz(check);
        word *bv = b + (size_t)v * W;
        word hit = 0;
        for (int p = 0; p < np; p++) {
            const int open = cells + house[p]; /* v not yet placed in a */
            if (!(bv[open >> 6] >> (open & 63) & 1)) continue;
            const word *s = src + (size_t)p * W, *d = dst + (size_t)p * W;
            word out = 0;
            for (int y = lo[p]; y < hi[p]; y++) out |= bv[y] & s[y];
            if (out) continue;
            for (int y = lo[p]; y < hi[p]; y++) {
                hit |= bv[y] & d[y];
                bv[y] &= ~d[y];
            }
        }
        changed |= (word)(hit != 0) << v;
    }
    return changed;
}

/* The triads of 3 x 3 matrices t (bit 3 * line + box, one matrix a lane) that lie in
 * some choice of one triad a line and a box: the union of the permutation matrices
 * within t. */
INLINE wordv band_keep(wordv t) {
    static const word PERMS[6] = {0x111, 0xA1, 0x10A, 0x62, 0x8C, 0x54};
    wordv keep = t & 0;
    for (int i = 0; i < 6; i++) keep |= PERMS[i] & (wordv)((t & PERMS[i]) == PERMS[i]);
    return keep;
}

/* Bits 0, 3, 6, ..., 24 of x to bits 0..8, and back (spread3: each to a whole triad). */
INLINE wordv compact3(wordv x) {
    x &= 0x09249249;
    x = (x | x >> 2) & 0x030C30C3;
    x = (x | x >> 4) & 0x0300F00F;
    x = (x | x >> 8) & 0x030000FF;
    return (x | x >> 16) & 0x1FF;
}
INLINE wordv spread3(wordv x) {
    x = (x | x << 16) & 0x030000FF;
    x = (x | x << 8) & 0x0300F00F;
    x = (x | x << 4) & 0x030C30C3;
    x = (x | x << 2) & 0x09249249;
    return x | x << 1 | x << 2;
}
/* Bits 0, 1, 2 to bits 0, 3, 6. */
INLINE wordv spread3small(wordv x) { return (x & 1) | (x & 2) << 2 | (x & 4) << 4; }

/* The value boards x0, x1 (one a lane) with intersections' rule applied once, by bands
 * (rows and boxes) then stacks (columns and boxes); *y1 the second word. */
INLINE wordv intersect9_v(wordv x0, wordv x1, wordv *y1) {
    const word M27 = ((word)1 << 27) - 1;
    wordv band[3] = {x0 & M27, x0 >> 27 & M27, x0 >> 54 | (x1 & 0x1FFFF) << 10};
    for (int j = 0; j < 3; j++)
        band[j] &= spread3(band_keep(compact3(band[j] | band[j] >> 1 | band[j] >> 2)));
    wordv po[3], allow[3];
    for (int j = 0; j < 3; j++) {
        po[j] = (band[j] | band[j] >> 9 | band[j] >> 18) & 0x1FF;
        allow[j] = x0 & 0;
    }
    for (int k = 0; k < 3; k++) {
        const wordv u = spread3small(po[0] >> 3 * k & 7) | spread3small(po[1] >> 3 * k & 7) << 1 |
                        spread3small(po[2] >> 3 * k & 7) << 2;
        const wordv keep = band_keep(u);
        for (int j = 0; j < 3; j++) allow[j] |= STD9_BOXES(keep >> j & 0x49) << 3 * k;
    }
    for (int j = 0; j < 3; j++) band[j] &= allow[j] | allow[j] << 9 | allow[j] << 18;
    *y1 = (x1 & ~(word)0x1FFFF) | band[2] >> 10;
    return band[0] | band[1] << 27 | (band[2] & 0x3FF) << 54;
}

/* intersect_k on the standard 9x9 board: LANES values at a time. */
INLINE word intersect9(word *b, word check) {
    word changed = 0;
    for (int v0 = 0; v0 < 9; v0 += LANES) {
        if (!(check >> v0 & (((word)1 << LANES) - 1))) continue;
        wordv x0, x1, y1;
        for (int i = 0; i < LANES; i++) {
            const int v = v0 + i < 9 ? v0 + i : 8; /* past the last value: the last again */
            x0[i] = b[2 * v], x1[i] = b[2 * v + 1];
        }
        const wordv y0 = intersect9_v(x0, x1, &y1);
        for (int i = 0; i < LANES && v0 + i < 9; i++)
            if (y0[i] != x0[i] || y1[i] != x1[i]) {
                b[2 * (v0 + i)] = y0[i], b[2 * (v0 + i) + 1] = y1[i];
                changed |= (word)1 << (v0 + i);
            }
    }
    return changed;
}

/* The values whose boards differ between b and a. */
INLINE word changed_values_k(const Board *G, const word *b, const word *a, const int NN) {
    const int n = NN ? 9 : G->n, W = NN ? 2 : G->W;
    word changed = 0;
    for (int v = 0; v < n; v++) {
        word d = 0;
        for (int y = 0; y < W; y++) d |= b[(size_t)v * W + y] ^ a[(size_t)v * W + y];
        changed |= (word)(d != 0) << v;
    }
    return changed;
}

/* Board b (at its singles fixpoint) taken to the fixpoint of singles and intersections:
 * STATUS_OPEN or STATUS_CONFLICT.  `before` (NULL: none) is a board at that fixpoint
 * from which b was propagated: only the values that changed since are looked at first,
 * and after each propagation those it changed (G->boards holds the board before it). */
INLINE int settle_k(Board *G, word *b, const word *before, const int NN) {
    const int n = NN ? 9 : G->n, BW = NN ? 20 : G->BW;
    word check = before ? changed_values_k(G, b, before, NN) : all_values(n);
    word *scratch = G->boards;
    for (;;) {
        const word changed = NN == STD9 ? intersect9(b, check) : intersect_k(G, b, check, NN);
        if (!changed) return STATUS_OPEN;
        memcpy(scratch, b, sizeof(word) * BW);
        if (propk(G, NN, b, changed, -1, 0) != STATUS_OPEN) return STATUS_CONFLICT;
        check = changed | changed_values_k(G, b, scratch, NN);
    }
}

static int settle_kind(Board *G, int kind, word *b) {
    if (kind == STD9) return settle_k(G, b, NULL, STD9);
    return kind ? settle_k(G, b, NULL, 9) : settle_k(G, b, NULL, 0);
}
