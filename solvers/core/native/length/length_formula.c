/* The length rating's formula built from DIMACS clauses (length_build): the arrays that
 * length_module.c's Formula copies, laid out as the clause engine lays out its clauses.
 *
 * Each clause's literals become codes (2*v + sign for the 0-based variable v, sign 1 for
 * a negation), sorted, so that equal literals and a literal and its negation (2v, 2v+1)
 * are adjacent: duplicates merge and a tautology is dropped.  What is left splits by
 * size: an empty clause is remembered (the first one), a unit is a root fact (`units`,
 * its clause in `unit_idx`), a binary clause (x or y) two links, "not x implies y" and
 * "not y implies x" (bimp[bstart[l] .. bstart[l + 1]] are implied when l is true), and a
 * longer one a constraint (lits[cstart[c] .. cstart[c + 1]], its input clause
 * corig[c]).  The links of each literal
 * are sorted by implied literal, then by clause, and a literal implied twice (the Sudoku
 * box and row at-most-one clauses overlap) is kept once.  wstart[l] .. wstart[l + 1] is
 * the room for the constraints holding l (Formula fills it with them: occ).
 *
 * The order of the arrays is part of the answer: the searches meet the links and the
 * constraints in it, and a literal keeps the cone of its first derivation, so the
 * ratings the golden files hold come from this layout (test_length_formula.py checks it
 * against their recorded digests).  Sorting each literal's links takes two counting
 * sorts of all links (linear time).  It allocates and does not touch Python: the boundary
 * (length_module.c) checks the input first (offsets rising from 0, literals in 1 .. nv)
 * and copies the arrays out.
 */
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "length.h"

static void *new_ints(int64_t n, size_t size) {
    return malloc(size * (size_t)(n > 0 ? n : 1));
}

void length_built_free(LBuilt *b) {
    int32_t **arrays[] = {&b->lits, &b->cstart, &b->corig,  &b->wstart,
                          &b->bstart, &b->bimp, &b->units, &b->unit_idx};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
        free(*arrays[i]);
        *arrays[i] = NULL;
    }
}

/* A build's work arrays beside its output. */
typedef struct {
    const int64_t *offsets;
    int64_t m, nlits;
    int32_t *codes;  /* each clause's literal codes, sorted and merged in place */
    int32_t *size;   /* each clause's size after merging; -1: a tautology */
    int32_t *occ;    /* each literal's constraints */
    int32_t *bcount; /* each literal's links */
    int32_t *fill;
    int32_t *by_imp; /* the links sorted by implied literal: (literal, implied) pairs */
} Build;

/* Codes, merged clauses and their sizes; the counts of units, constraints and their
 * literals; the first empty clause. */
static void normalize(Build *w, const int32_t *flat, LBuilt *out) {
    out->first_empty = -1;
    out->nunits = out->nlong = out->nlong_lits = 0;
    for (int64_t i = 0; i < w->m; i++) {
        int64_t a = w->offsets[i], b = w->offsets[i + 1];
        for (int64_t p = a; p < b; p++) w->codes[p] = lit_code(flat[p]);
        int64_t merged = normal_clause(w->codes + a, b - a);
        w->size[i] = merged < 0 ? -1 : (int32_t)merged;
        if (merged < 0) continue;
        if (merged == 0) {
            if (out->first_empty < 0) out->first_empty = i;
        } else if (merged == 1) {
            out->nunits++;
        } else if (merged > 2) {
            out->nlong++;
            out->nlong_lits += merged;
        }
    }
}

/* The units and the constraints in clause order; each literal's links and constraints
 * counted.  0, or -1 when memory ran out. */
static int place_clauses(Build *w, LBuilt *out) {
    out->units = new_ints(out->nunits, sizeof(int32_t));
    out->unit_idx = new_ints(out->nunits, sizeof(int32_t));
    out->lits = new_ints(out->nlong_lits, sizeof(int32_t));
    out->cstart = new_ints(out->nlong + 1, sizeof(int32_t));
    out->corig = new_ints(out->nlong, sizeof(int32_t));
    if (!out->units || !out->unit_idx || !out->lits || !out->cstart || !out->corig) return -1;
    const int32_t *codes = w->codes;
    int64_t u = 0, c = 0, q = 0;
    out->cstart[0] = 0;
    for (int64_t i = 0; i < w->m; i++) {
        int64_t a = w->offsets[i];
        int32_t s = w->size[i];
        if (s == 1) {
            out->units[u] = codes[a];
            out->unit_idx[u++] = (int32_t)i;
        } else if (s == 2) {
            w->bcount[codes[a] ^ 1]++;     /* not x implies y ... */
            w->bcount[codes[a + 1] ^ 1]++; /* ... and not y implies x */
        } else if (s >= 3) {
            for (int64_t p = a; p < a + s; p++) {
                out->lits[q++] = codes[p];
                w->occ[codes[p]]++;
            }
            out->corig[c++] = (int32_t)i;
            out->cstart[c] = (int32_t)q;
        }
    }
    return 0;
}

/* Each literal's links sorted by (implied literal, clause): two stable counting sorts
 * of the links taken in clause order, by implied literal (into by_imp), then by
 * literal (into bimp).  0, or -1 when memory ran out. */
static int sort_links(Build *w, LBuilt *out) {
    const int64_t nlits = w->nlits;
    out->bstart = new_ints(nlits + 1, sizeof(int32_t));
    if (!out->bstart) return -1;
    int32_t *bstart = out->bstart;
    bstart[0] = 0;
    for (int64_t lit = 0; lit < nlits; lit++) bstart[lit + 1] = bstart[lit] + w->bcount[lit];
    int64_t nbin = bstart[nlits];
    out->bimp = new_ints(nbin, sizeof(int32_t));
    w->by_imp = new_ints(2 * nbin, sizeof(int32_t));
    if (!out->bimp || !w->by_imp) return -1;
    int64_t at = 0;
    for (int64_t lit = 0; lit < nlits; lit++) {
        w->fill[lit] = (int32_t)at;
        at += w->bcount[lit ^ 1]; /* lit is implied once by each binary clause holding it */
    }
    for (int64_t i = 0; i < w->m; i++) {
        if (w->size[i] != 2) continue;
        int32_t x = w->codes[w->offsets[i]], y = w->codes[w->offsets[i] + 1];
        int32_t *link = w->by_imp + 2 * (int64_t)w->fill[y]++;
        link[0] = x ^ 1, link[1] = y; /* not x implies y ... */
        link = w->by_imp + 2 * (int64_t)w->fill[x]++;
        link[0] = y ^ 1, link[1] = x; /* ... and not y implies x */
    }
    memcpy(w->fill, bstart, sizeof(int32_t) * (size_t)nlits);
    for (int64_t p = 0; p < nbin; p++) {
        const int32_t *link = w->by_imp + 2 * p;
        out->bimp[w->fill[link[0]]++] = link[1];
    }
    return 0;
}

/* Merge duplicate links (the Sudoku box and row at-most-one clauses overlap): writing
 * at k <= p never overtakes the reading. */
static void merge_links(int64_t nlits, LBuilt *out) {
    int32_t *bstart = out->bstart, *bimp = out->bimp;
    int64_t k = 0;
    for (int64_t lit = 0; lit < nlits; lit++) {
        int64_t a = bstart[lit], b = bstart[lit + 1];
        bstart[lit] = (int32_t)k;
        for (int64_t p = a; p < b; p++) {
            if (p > a && bimp[p] == bimp[k - 1]) continue;
            bimp[k++] = bimp[p];
        }
    }
    bstart[nlits] = (int32_t)k;
    out->nbimp = k;
}

int length_build(LBuilt *out, const int32_t *flat, const int64_t *offsets, int64_t m, int32_t nv) {
    memset(out, 0, sizeof *out);
    const int64_t nlits = 2 * (int64_t)nv;
    Build w = {offsets, m, nlits};
    w.codes = new_ints(offsets[m], sizeof(int32_t));
    w.size = new_ints(m, sizeof(int32_t));
    w.occ = calloc((size_t)nlits, sizeof(int32_t));
    w.bcount = calloc((size_t)nlits, sizeof(int32_t));
    w.fill = new_ints(nlits, sizeof(int32_t));
    int failed = !w.codes || !w.size || !w.occ || !w.bcount || !w.fill;
    if (!failed) normalize(&w, flat, out);
    failed = failed || place_clauses(&w, out) < 0 || sort_links(&w, out) < 0;
    if (!failed) {
        merge_links(nlits, out);
        out->wstart = new_ints(nlits + 1, sizeof(int32_t));
        failed = !out->wstart;
    }
    if (!failed) {
        out->wstart[0] = 0;
        for (int64_t lit = 0; lit < nlits; lit++)
            out->wstart[lit + 1] = out->wstart[lit] + w.occ[lit];
    }
    free(w.codes), free(w.size), free(w.occ), free(w.bcount), free(w.fill), free(w.by_imp);
    if (failed) length_built_free(out);
    return failed ? -1 : 0;
}
