/* The length rating's formula built from DIMACS clauses (length_build): the arrays that
 * length_module.c's Formula copies, laid out as the clause engine lays out its clauses.
 *
 * Each clause's literals become codes (2*v + sign for the 0-based variable v, sign 1 for
 * a negation), sorted, so that equal literals and a literal and its negation (2v, 2v+1)
 * are adjacent: duplicates merge and a tautology is dropped.  What is left splits by
 * size: an empty clause is remembered (the first one), a unit is a root fact (`units`,
 * its clause in `unit_idx`), a binary clause (x or y) two links, "not x implies y" and
 * "not y implies x" (bimp[bstart[l] .. bstart[l + 1]] are implied when l is true, their
 * clause in `bcls`), and a longer one a constraint (lits[cstart[c] .. cstart[c + 1]],
 * its input clause corig[c]).  The links of each literal are sorted by implied literal
 * and then clause, and a literal implied twice (the Sudoku box and row at-most-one
 * clauses overlap) keeps its first clause as the reason.  Watch-list convention: wlist[
 * wstart[l] .. wstart[l] + wcount[l]] are the constraints in which l is one of the two
 * watched literals (their positions 0 and 1), with the other watch as blocker in wblock;
 * each list has room for every constraint holding l.
 *
 * These are the arrays the clause engine's first, JIT-compiled build (solvers/propagate.py
 * in the history, without exactly-one groups) made, in its order, so a formula built
 * here gives the ratings recorded before; its statements are ported one for one, but for
 * its sort of each literal's links, here two counting sorts of all links (linear time).
 * It allocates and does not touch Python: the boundary (length_module.c) checks the
 * input first (offsets rising from 0, literals in 1 .. nv) and copies the arrays out.
 */
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "length.h"

static void *new_ints(int64_t n, size_t size) {
    return malloc(size * (size_t)(n > 0 ? n : 1));
}

void length_built_free(LBuilt *b) {
    int32_t **arrays[] = {&b->lits,  &b->cstart, &b->corig, &b->wstart, &b->wcount,
                          &b->wlist, &b->wblock, &b->bstart, &b->bimp,  &b->bcls,
                          &b->units, &b->unit_idx};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        free(*arrays[i]);
        *arrays[i] = NULL;
    }
}

int length_build(LBuilt *out, const int32_t *flat, const int64_t *offsets, int64_t m, int32_t nv) {
    memset(out, 0, sizeof *out);
    int64_t nlits = 2 * (int64_t)nv, nflat = offsets[m];
    int32_t *codes = new_ints(nflat, sizeof(int32_t));
    int32_t *size = new_ints(m, sizeof(int32_t)); /* after merging; -1: a tautology */
    int32_t *occ = calloc((size_t)nlits, sizeof(int32_t)); /* each watch list's room */
    int32_t *bcount = calloc((size_t)nlits, sizeof(int32_t));
    int32_t *fill = new_ints(nlits, sizeof(int32_t));
    int32_t *by_imp = NULL;
    if (!codes || !size || !occ || !bcount || !fill) goto fail;
    out->first_empty = -1;
    int64_t n_long = 0, n_long_lits = 0, n_unit = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t a = offsets[i], b = offsets[i + 1];
        for (int64_t p = a; p < b; p++) codes[p] = lit_code(flat[p]);
        int64_t merged = normal_clause(codes + a, b - a);
        if (merged < 0) {
            size[i] = -1;
            continue;
        }
        int64_t k = a + merged;
        size[i] = (int32_t)merged;
        if (k == a) {
            if (out->first_empty < 0) out->first_empty = i;
        } else if (k - a == 1) {
            n_unit++;
        } else if (k - a > 2) {
            n_long++;
            n_long_lits += k - a;
        }
    }

    out->nunits = n_unit, out->nlong = n_long, out->nlong_lits = n_long_lits;
    out->units = new_ints(n_unit, sizeof(int32_t));
    out->unit_idx = new_ints(n_unit, sizeof(int32_t));
    out->lits = new_ints(n_long_lits, sizeof(int32_t));
    out->cstart = new_ints(n_long + 1, sizeof(int32_t));
    out->corig = new_ints(n_long, sizeof(int32_t));
    out->bstart = new_ints(nlits + 1, sizeof(int32_t));
    out->wstart = new_ints(nlits + 1, sizeof(int32_t));
    out->wcount = calloc((size_t)(nlits > 0 ? nlits : 1), sizeof(int32_t));
    if (!out->units || !out->unit_idx || !out->lits || !out->cstart || !out->corig ||
        !out->bstart || !out->wstart || !out->wcount)
        goto fail;
    int64_t u = 0, c = 0, q = 0;
    out->cstart[0] = 0;
    for (int64_t i = 0; i < m; i++) {
        int64_t a = offsets[i];
        int32_t s = size[i];
        if (s == 1) {
            out->units[u] = codes[a];
            out->unit_idx[u++] = (int32_t)i;
        } else if (s == 2) {
            bcount[codes[a] ^ 1]++;     /* not x implies y ... */
            bcount[codes[a + 1] ^ 1]++; /* ... and not y implies x */
        } else if (s >= 3) {
            for (int64_t p = a; p < a + s; p++) {
                out->lits[q++] = codes[p];
                occ[codes[p]]++;
            }
            out->corig[c++] = (int32_t)i;
            out->cstart[c] = (int32_t)q;
        }
    }

    int32_t *bstart = out->bstart;
    bstart[0] = 0;
    for (int64_t lit = 0; lit < nlits; lit++) bstart[lit + 1] = bstart[lit] + bcount[lit];
    int64_t nbin = bstart[nlits];
    out->bimp = new_ints(nbin, sizeof(int32_t));
    out->bcls = new_ints(nbin, sizeof(int32_t));
    by_imp = new_ints(3 * nbin, sizeof(int32_t));
    if (!out->bimp || !out->bcls || !by_imp) goto fail;

    /* Each literal's links sorted by (implied literal, clause), as the first build's sort
     * of each list left them: two stable counting sorts of the links taken in clause
     * order, by implied literal (by_imp: literal, implied, clause), then by literal. */
    int64_t at = 0;
    for (int64_t lit = 0; lit < nlits; lit++) {
        fill[lit] = (int32_t)at;
        at += bcount[lit ^ 1]; /* lit is implied once by each binary clause holding it */
    }
    for (int64_t i = 0; i < m; i++) {
        if (size[i] != 2) continue;
        int32_t x = codes[offsets[i]], y = codes[offsets[i] + 1];
        int32_t *link = by_imp + 3 * (int64_t)fill[y]++;
        link[0] = x ^ 1, link[1] = y, link[2] = (int32_t)i; /* not x implies y ... */
        link = by_imp + 3 * (int64_t)fill[x]++;
        link[0] = y ^ 1, link[1] = x, link[2] = (int32_t)i; /* ... and not y implies x */
    }
    memcpy(fill, bstart, sizeof(int32_t) * (size_t)nlits);
    for (int64_t p = 0; p < nbin; p++) {
        const int32_t *link = by_imp + 3 * p;
        int32_t slot = fill[link[0]]++;
        out->bimp[slot] = link[1];
        out->bcls[slot] = link[2];
    }

    /* Merge duplicate implications (the Sudoku box and row at-most-one clauses overlap),
     * keeping the first clause as the reason.  Writing at k <= p never overtakes the
     * reading. */
    int64_t k = 0;
    for (int64_t lit = 0; lit < nlits; lit++) {
        int64_t a = bstart[lit], b = bstart[lit + 1];
        bstart[lit] = (int32_t)k;
        for (int64_t p = a; p < b; p++) {
            if (p > a && out->bimp[p] == out->bimp[k - 1]) continue;
            out->bimp[k] = out->bimp[p];
            out->bcls[k++] = out->bcls[p];
        }
    }
    bstart[nlits] = (int32_t)k;
    out->nbimp = k;

    int32_t *wstart = out->wstart;
    wstart[0] = 0;
    for (int64_t lit = 0; lit < nlits; lit++) wstart[lit + 1] = wstart[lit] + occ[lit];
    /* A list's room beyond its two-watch entries is zero (the first build left it
     * unwritten: nobody reads it). */
    out->wlist = calloc((size_t)(wstart[nlits] > 0 ? wstart[nlits] : 1), sizeof(int32_t));
    out->wblock = calloc((size_t)(wstart[nlits] > 0 ? wstart[nlits] : 1), sizeof(int32_t));
    if (!out->wlist || !out->wblock) goto fail;
    for (int64_t cl = 0; cl < n_long; cl++) {
        int32_t s = out->cstart[cl];
        for (int w = 0; w < 2; w++) {
            int32_t lit = out->lits[s + w];
            int32_t slot = wstart[lit] + out->wcount[lit]++;
            out->wlist[slot] = (int32_t)cl;
            out->wblock[slot] = out->lits[s + 1 - w]; /* the other watch: "satisfied?" */
        }
    }
    free(codes), free(size), free(occ), free(bcount), free(fill), free(by_imp);
    return 0;
fail:
    free(codes), free(size), free(occ), free(bcount), free(fill), free(by_imp);
    length_built_free(out);
    return -1;
}
