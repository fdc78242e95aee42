/* Unit propagation with reasons, for explanations: the arrays a clause object builds at
 * its first trace (solvers.core.Clauses.trace, Engine.trace).
 *
 * A trace answers "which clause put each literal on the trail, and which clause was
 * falsified".  It is not the clause engine's watched propagation (clauses.c) on
 * purpose: it visits every clause of a literal that becomes false, in the formula's
 * order, so the clause named as a reason depends on the formula and the question
 * alone, never on where earlier queries left the watches, and the hot loop of the
 * clause engine carries no reason bookkeeping.  Explanations ask a few hundred traces
 * of a grid; on the exam's 9x9 formula a trace visits about 40,000 clause slots.
 *
 * Clauses are kept as given but for their duplicate literals (merged) and tautologies
 * (dropped: always satisfied); each keeps its input index, which is what a reason is.
 * The root level (the unit clauses and what they imply) is propagated once and never
 * listed; each trace starts from it and returns to it.
 */
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "trace.h"

void trace_free(Trace *T) {
    void *arrays[] = {T->lits, T->cstart, T->orig, T->ostart, T->occ, T->value, T->trail,
                      T->reason};
    for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) free(arrays[i]);
    memset(T, 0, sizeof *T); /* every array NULL: freed again, nothing happens */
}

static void assign(Trace *T, int64_t *size, int32_t lit, int64_t why) {
    T->value[lit] = 1;
    T->value[lit ^ 1] = -1;
    T->reason[lit >> 1] = why;
    T->trail[(*size)++] = lit;
}

/* Propagate the trail from `head`: -1, or the input index of a falsified clause. */
static int64_t propagate(Trace *T, int64_t head, int64_t *size) {
    const int8_t *value = T->value;
    while (head < *size) {
        int32_t false_lit = T->trail[head++] ^ 1;
        for (int64_t o = T->ostart[false_lit]; o < T->ostart[false_lit + 1]; o++) {
            int32_t c = T->occ[o], open = -1, unassigned = 0, satisfied = 0;
            for (int64_t k = T->cstart[c]; k < T->cstart[c + 1] && !satisfied; k++) {
                int32_t lit = T->lits[k];
                if (value[lit] == 1)
                    satisfied = 1;
                else if (value[lit] == 0) {
                    open = lit;
                    unassigned++;
                }
            }
            if (satisfied || unassigned > 1) continue;
            if (unassigned == 0) return T->orig[c];
            assign(T, size, open, T->orig[c]);
        }
    }
    return -1;
}

static void undo(Trace *T, int64_t size) {
    for (int64_t i = T->root; i < size; i++) {
        int32_t lit = T->trail[i];
        T->value[lit] = T->value[lit ^ 1] = 0;
    }
}

int trace_build(Trace *T, const int64_t *flat, const int64_t *offsets,
                       int64_t count, int32_t nvars) {
    int64_t total = offsets[count], nlits = 2 * (int64_t)nvars;
    T->nvars = nvars;
    T->root_conflict = -1;
    T->lits = malloc(sizeof(int32_t) * (size_t)(total + 1));
    T->cstart = malloc(sizeof(int64_t) * (size_t)(count + 1));
    T->orig = malloc(sizeof(int64_t) * (size_t)(count + 1));
    T->ostart = calloc((size_t)nlits + 2, sizeof(int64_t));
    T->occ = malloc(sizeof(int32_t) * (size_t)(total + 1));
    T->value = calloc((size_t)nlits + 1, 1);
    T->trail = malloc(sizeof(int32_t) * (size_t)(nvars + 1));
    T->reason = malloc(sizeof(int64_t) * (size_t)(nvars + 1));
    if (!T->lits || !T->cstart || !T->orig || !T->ostart || !T->occ || !T->value || !T->trail ||
        !T->reason)
        return -1;
    int64_t kept = 0, q = 0;
    T->cstart[0] = 0;
    for (int64_t i = 0; i < count; i++) {
        int64_t a = offsets[i], b = offsets[i + 1], start = q;
        for (int64_t p = a; p < b; p++) T->lits[q++] = lit_code(flat[p]);
        int64_t size = normal_clause(T->lits + start, q - start);
        q = size < 0 ? start : start + size;
        if (size < 0) continue;                                        /* a tautology */
        if (size == 0 && T->root_conflict < 0) T->root_conflict = i; /* an empty clause */
        T->orig[kept++] = i;
        T->cstart[kept] = q;
    }
    for (int64_t p = 0; p < q; p++) T->ostart[T->lits[p] + 1]++;
    for (int64_t x = 0; x < nlits; x++) T->ostart[x + 1] += T->ostart[x];
    int64_t *fill = malloc(sizeof(int64_t) * (size_t)(nlits + 1));
    if (!fill) return -1;
    memcpy(fill, T->ostart, sizeof(int64_t) * (size_t)(nlits + 1));
    for (int64_t c = 0; c < kept; c++) /* in the formula's order: the reasons' order */
        for (int64_t p = T->cstart[c]; p < T->cstart[c + 1]; p++)
            T->occ[fill[T->lits[p]]++] = (int32_t)c;
    free(fill);
    int64_t size = 0;
    for (int64_t c = 0; c < kept && T->root_conflict < 0; c++) {
        if (T->cstart[c + 1] - T->cstart[c] != 1) continue;
        int32_t unit = T->lits[T->cstart[c]];
        if (T->value[unit] == -1) {
            T->root_conflict = T->orig[c];
        } else if (T->value[unit] == 0) {
            int64_t head = size;
            assign(T, &size, unit, T->orig[c]);
            T->root_conflict = propagate(T, head, &size);
        }
    }
    T->root = size;
    return 0;
}

int64_t trace_assume(Trace *T, const int32_t *codes, int64_t n, int64_t *size, int *ok) {
    int64_t conflict = -1;
    *size = T->root;
    *ok = 1;
    for (int64_t i = 0; i < n && *ok; i++) {
        int8_t v = T->value[codes[i]];
        if (v == 1) continue; /* already true: nothing new */
        if (v == -1) {        /* already false: no clause to blame */
            *ok = 0;
            break;
        }
        int64_t head = *size;
        assign(T, size, codes[i], -1);
        conflict = propagate(T, head, size);
        *ok = conflict < 0;
    }
    return conflict;
}

void trace_undo(Trace *T, int64_t size) { undo(T, size); }
