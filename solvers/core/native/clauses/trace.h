/* Unit propagation with reasons, for explanations (trace.c): arrays of their own beside
 * the clause engine's, built by the clause object at its first trace (module.c). */
#ifndef SUDOKU_TRACE_H
#define SUDOKU_TRACE_H

#include <stdint.h>

typedef struct Trace {
    int32_t nvars;
    int32_t *lits;   /* the kept clauses' literal codes, flat */
    int64_t *cstart; /* nclauses + 1 */
    int64_t *orig;   /* each kept clause's input index */
    int64_t *ostart; /* occ[ostart[x] .. ostart[x + 1]): the kept clauses holding code x */
    int32_t *occ;
    int8_t *value;   /* per code: 1 true, -1 false, 0 unassigned */
    int32_t *trail;
    int64_t *reason; /* per variable: the input index of the clause that implied it, -1 */
    int64_t root;    /* the trail's size at the root level */
    int64_t root_conflict; /* the clause refuting the formula at the root, or -1 */
} Trace;

/* Keep the clauses flat[offsets[i] .. offsets[i+1]) (checked by the caller) but
 * tautologies, their literals merged; index the occurrences; propagate the root.  0, or
 * -1 when out of memory (trace_free then frees what was made). */
int trace_build(Trace *T, const int64_t *flat, const int64_t *offsets, int64_t count,
                int32_t nvars);
void trace_free(Trace *T);
/* Assign the literal codes in turn from the root, each propagated: the trail then holds
 * T->trail[T->root .. *size) with their reasons; *ok is 0 on a conflict; the return is
 * the input index of the falsified clause, or -1 (none, or an assumption already false).
 * trace_undo(T, *size) goes back to the root. */
int64_t trace_assume(Trace *T, const int32_t *codes, int64_t n, int64_t *size, int *ok);
void trace_undo(Trace *T, int64_t size);

#endif
