/* The clause engine: unit propagation with two watched literals on any CNF, the
 * failed-literal closures nested to depth k, the depth loop of grids and batches of
 * assumption sets (clauses.c).
 *
 * Literals are codes 2 * v + sign for the 0-based variable v (DIMACS v + 1), so
 * `lit ^ 1` is the negation; DIMACS ints are converted only at the entry points.  The
 * state is MiniSat's: value (per literal code: 1 true, -1 false, 0 unassigned), trail
 * (assignments in order), trail_lim (where each decision level starts), qhead (next
 * trail index to propagate).  Level 0 holds the formula's unit clauses and what they
 * imply; every query starts and ends there.
 */
#ifndef SUDOKU_CLAUSES_H
#define SUDOKU_CLAUSES_H

#include "depth_run.h"
#include "poll.h"
#include "status.h"

/* A watch: where a long clause's literals start in Clauses.lits (so propagation reads the
 * clause without an index table) and a blocker, one of its literals: while the blocker
 * is true the clause is satisfied and left unread.  Both in one word, the blocker in the
 * high half: one load a visit, and a plain integer (a struct of two ints was kept in
 * vector registers by gcc, at a cost). */
typedef uint64_t Watch;
static inline Watch watch_of(int32_t cref, int32_t blocker) {
    return (uint64_t)(uint32_t)blocker << 32 | (uint32_t)cref;
}
static inline int32_t watch_cref(Watch w) { return (int32_t)(uint32_t)w; }
static inline int32_t watch_blocker(Watch w) { return (int32_t)(w >> 32); }

/* What propagation visits when literal p becomes true, side by side (one cache line a
 * literal, not three): p's implications bimp[imp_start .. imp_end) and the watches of
 * the long clauses in which not-p is watched, watches[start .. start + count). */
typedef struct WatchList {
    int32_t imp_start, imp_end;
    int32_t start, count;
} WatchList;

typedef struct Clauses {
    int32_t nvars;
    int root_conflict; /* the formula's units (or an empty clause) are contradictory */
    /* long clauses (3 literals or more), flat, each after its size: clause c is
     * lits[cstart[c] .. cstart[c] + lits[cstart[c] - 1]); positions 0 and 1 are watched */
    int32_t *lits;
    int64_t *cstart; /* nlong */
    int64_t nlong;
    /* what propagation visits when l becomes true: wl[l] (WatchList), the long clauses
     * in which l ^ 1 is watched among them */
    WatchList *wl;
    Watch *watches;
    /* binary clauses as implications: when l becomes true, bimp[bstart[l] .. bstart[l+1])
     * become true */
    int64_t *bstart;
    int32_t *bimp;
    /* state */
    int8_t *value;
    int32_t *trail;
    int32_t *trail_lim;
    int64_t trail_size, qhead;
    int32_t dlevel;
    /* closures: room frames, marks room x 2 nvars stamps */
    int room;
    int64_t *frames; /* room x C_COLUMNS */
    int64_t *marks;
    int64_t stamp;
    /* counters */
    uint64_t work; /* literals propagated + hypotheses tested: the budget's clock */
    uint64_t hypotheses;
    uint64_t conflicts; /* failed hypotheses and contradictory frames */
    /* the proof log the closures write their lemmas to (proof_log.h; NULL: none) */
    int64_t *log;
    int64_t log_len;
    int64_t *log_at; /* a depth loop's grid g's lemmas: log[log_at[g] .. log_at[g+1]) (or NULL) */
    /* the opt-in wall-clock limit of each grid of a depth loop or closures (0: none), read
     * at the closures' hypothesis boundaries, and when the grid began (core_now_ns) */
    int64_t limit_ns, grid_t0;
} Clauses;

enum { C_LEVEL = 0, C_POS = 1, C_QUIET = 2, C_STAMP = 3, C_HYP = 4, C_COLUMNS = 5 };

/* Build the formula from DIMACS literals (checked by the caller: 1 <= |lit| <= nvars),
 * clause i being flat[offsets[i] .. offsets[i+1]); 0, or -1 when out of memory. */
int clauses_build(Clauses *F, const int64_t *flat, const int64_t *offsets, int64_t nclauses,
              int32_t nvars);
void clauses_free(Clauses *F);
int clauses_room(Clauses *F, int depth);

/* Closure of depth `depth` of the assumptions lits (DIMACS, checked): STATUS_OPEN with the
 * literals above the root level in out[0 .. *nout), STATUS_CONFLICT, STATUS_INTERRUPT,
 * STATUS_BUDGET (the query's work past `budget`, -1: none, seen at a hypothesis boundary)
 * or STATUS_TIME (F->limit_ns past F->grid_t0, when set). */
typedef struct Probe {
    const int64_t *lits;
    int64_t nlits;
    int depth, positive_only;
    int64_t budget;
} Probe;
int clauses_probe(Clauses *F, const Probe *q, int64_t *out, int64_t *nout, Poll *poll);
/* clauses_probe in two steps, for a caller that reads the answer off the trail itself:
 * the closure (STATUS_OPEN with the literals above the root level on the trail, from
 * trail[trail_lim[0]] to trail[trail_size - 1], or clauses_probe's other outcomes), then
 * back to the root level (always, whatever the closure returned). */
int clauses_probe_trail(Clauses *F, const int64_t *lits, int64_t nlits, int depth, int positive_only,
                    Poll *poll, int64_t budget);
void clauses_probe_done(Clauses *F);
/* Rate a DepthRun's grids of side n (cell c holding k is variable n * c + k): STATUS_OPEN,
 * STATUS_INTERRUPT, or -1 when out of memory. */
int clauses_depths(Clauses *F, const DepthRun *run, int n, Poll *poll);
/* Propagate each assumption set (DIMACS, checked) flat[offsets[g] .. offsets[g+1]):
 * ok[g] 1 or 0 on a conflict; values[g] (nvars each) 1 / -1 / 0 per variable, root
 * level included. */
int clauses_batch(Clauses *F, const int64_t *flat, const int64_t *offsets, int64_t count, int8_t *ok,
              int8_t *values, Poll *poll);

/* The closure of depth `depth` of each assumption set (DIMACS) flat[offsets[g] ..
 * offsets[g+1]), for solvers.core.Clauses.closures: status (STATUS_SAT when the
 * closure assigns each of the first cell_vars variables, STATUS_OPEN, STATUS_CONFLICT,
 * STATUS_BAD for a literal beyond the formula, STATUS_BUDGET), assigned (of those
 * variables, root level included), conflicts, work and ns per set, and true[g]
 * (nvars each) the variables true in the closure when SAT. */
typedef struct ClosureRun {
    const int64_t *flat, *offsets;
    int64_t count;
    int depth, positive_only;
    int64_t cell_vars, budget;
    int8_t *status;
    int64_t *assigned, *conflicts, *work, *ns;
    int8_t *truth;
} ClosureRun;
int clauses_closures(Clauses *F, const ClosureRun *run, Poll *poll);

/* The engine's steps, for the other kernels built on it (search.c). */
void clauses_enqueue(Clauses *F, int32_t lit);
void clauses_new_level(Clauses *F);
void clauses_cancel_until(Clauses *F, int32_t level);
int clauses_propagate(Clauses *F);
/* Close the current level under the failed-literal rule of depth `depth` (the trail
 * propagated): STATUS_OPEN, STATUS_CONFLICT, STATUS_BUDGET (the work since work0 is past
 * `budget`, checked at hypothesis boundaries; budget < 0: none) or STATUS_INTERRUPT. */
int clauses_closure(Clauses *F, int depth, int positive_only, Poll *poll, uint64_t work0,
                int64_t budget);

#endif
