/* The refutation-length kernels' records (length.c, bxb.c): the formula (links and
 * constraints, copied and checked once), the state of the facts (State), one hypothesis's
 * scratch (Scratch) and the alternative cones' search (Alternatives), each an array block
 * the core owns (python/length_records.c) and only these kernels write; and the contexts
 * a rating's and a T&E's kernels share.  The words are solvers.core.length's
 * (and MiniSat's: value, trail, reason, level, qhead).  Outcomes are status.h's Status,
 * negated (the kernels' other return values are lengths, counts and rows, all >= 0).
 */
#ifndef SUDOKU_LENGTH_H
#define SUDOKU_LENGTH_H

#include <stdint.h>

#include "poll.h"
#include "status.h"

/* Slots of State.st: the assignment's (the first ST_PROPAGATE_SLOTS), then the cones'. */
enum {
    ST_TRAIL_SIZE = 0,
    ST_QHEAD = 1,
    ST_DLEVEL = 2,
    ST_PROPAGATE_SLOTS = 3,
    ST_POOL_SIZE = 3,
    ST_TRACK = 4,
    ST_NUM_SLOTS = 5,
};
/* Slots of Scratch.st and Alternatives.st. */
enum { X_STAMP = 0, X_POOL_SIZE = 1, X_ENTRIES = 2, X_TRAIL_SIZE = 3, X_NUM_SLOTS = 4 };
enum { A_POOL_SIZE = 0, A_ENTRIES = 1, A_OVERFLOW = 2, A_NUM_SLOTS = 3 };
enum { CONES_PER_LITERAL = 4, EMPTY = 0 };
/* The cap of Alternatives' pool (in words) and entries: 32 MB of cones. */
enum { ALTERNATIVE_WORDS = 1 << 22 };
/* The sentinels of a propagation's result (no contradiction) and of a fact's reason:
 * their one definition (solvers.core.length reads them).  They are no outcomes. */
enum {
    NO_CONFLICT = -1,
    REASON_DECISION = -1,
    REASON_PROBE = -2,
    REASON_UNIT = -3,
    BINARY_REASON = -4,
};
#define NEVER ((INT64_C(1) << 62) - 1)

/* The formula: links (bimp[bstart[l]:bstart[l + 1]], implied when l is true) and
 * constraints (lits[cstart[c]:cstart[c + 1]]); occ[wstart[l]:wstart[l + 1]] are l's
 * constraints, rimp[rstart[l]:rstart[l + 1]] the literals with a link to l.  `shallow`:
 * no literal a link implies has links of its own (the exam's formula: its links all
 * imply negations), so a hypothesis's links reach in one hop.  Every index in it was
 * checked when it was made. */
typedef struct {
    int32_t nv, nlits, m, words, width; /* width: the longest constraint */
    int32_t *lits, *cstart, *bstart, *bimp, *wstart, *occ, *rstart, *rimp;
    int64_t nbimp;
    int shallow;
    int negative; /* every link implies a negative literal (the at-most-one clauses') */
} LFormula;

typedef struct {
    int8_t *value;
    int32_t *level, *reason, *trail;
    int64_t *st;
    int32_t *cone, *nfalse, *ntrue;
    uint64_t *pool;
    int64_t rows; /* rows of pool */
} LState;

typedef struct {
    int8_t *value;
    int32_t *cone, *trail;
    int64_t *stamp;
    int32_t *nfalse;
    uint64_t *false_cones, *pool;
    int32_t *bucket, *entry_next, *entry_lit, *entry_cone;
    uint64_t *best_cone, *work;
    int64_t *st;
    int64_t rows, entries; /* rows of pool, length of the entry arrays */
} LScratch;

typedef struct {
    int32_t *ncones, *cones;
    uint64_t *pool;
    int32_t *bucket, *entry_next, *entry_lit, *entry_cone, *others, *choice;
    uint64_t *partial;
    int64_t *st;
    int64_t rows, entries;
} LAlternatives;

/* One call's context: `bad` is set when an array would overflow (the state was not one
 * the kernels made: the call raises), `stop` when the poll saw a signal handler raise. */
typedef struct {
    const LFormula *f;
    Poll *poll; /* NULL: the GIL is held, nothing polls */
    int bad, stop;
    /* Candidates true in a solution of the state's facts (NULL: none known): unit
     * propagation is sound, so none of them has a refutation, and a step's searches
     * pass them by (length_simplest_first's `known_true`). */
    const int8_t *known_true;
} LCall;

int64_t length_assert_facts(LCall *k, LState *S, const int32_t *lits, const int32_t *cones,
                            int64_t n, int32_t why);
int64_t length_restart(LCall *k, LState *S, const int32_t *units, int64_t nunits,
                       const int32_t *givens, int64_t ngivens);
int64_t length_eliminate(LCall *k, LState *S, int32_t lit);
int64_t length_shortest(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit);
int64_t length_with_alternatives(LCall *k, LState *S, LScratch *X, LAlternatives *A, int32_t z,
                                 int64_t limit);
int64_t length_candidates(LCall *k, LState *S, LScratch *X, int64_t ncand, int64_t limit,
                          int64_t *lengths);
int64_t length_shorter(LCall *k, LState *S, LScratch *X, LAlternatives *A, int64_t ncand,
                       int64_t limit, int64_t *lengths);
int length_solved(const LState *S, int64_t ncand);
/* mask[v] = whether x_{v+1} is among `codes` (positive literal codes), for every
 * variable; 1 when that assignment (those true, every other variable false) satisfies
 * every link and constraint of the formula and agrees with every fact of S, 0 when not:
 * then no candidate of the mask has a refutation in S (known_true may hold it). */
int length_model_mask(const LFormula *f, const LState *S, const int32_t *codes, int64_t ncodes,
                      int8_t *mask);
/* The searches' necessary conditions (length.c says why each holds): the round of the
 * first contradiction of unit propagation from z (limit + 1: none within limit; NEVER:
 * none at all), and whether z may have a refutation of two constraints or fewer (-1
 * where that test does not apply). */
int64_t length_conflict_round(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit);
int length_may_refute_within_two(LCall *k, LState *S, LScratch *X, int32_t z);

/* A rating's records and what its steps write: the state S of the facts, the scratch X,
 * the alternatives A; ncand candidates (the first variables), searches bounded by
 * `limit`; lengths[v], each candidate's length in the last step; step_lengths[i], the
 * length of step i's refutations (the first `room` steps). */
typedef struct {
    LState *S;
    LScratch *X;
    LAlternatives *A;
    int64_t ncand, limit;
    int64_t *lengths, *step_lengths;
    int64_t room;
} LRating;

/* The simplest-first rating's steps, at most `budget` of them (-STATUS_PAUSED past it).
 * searches: [spent, allowed] (NULL: no budget): each step first adds its open candidates
 * to spent, and -STATUS_BUDGET stops the call once spent passes allowed.  longest and
 * steps: the longest step's length and the steps made. */
int64_t length_simplest_first(LCall *k, const LRating *r, int64_t budget, int64_t *searches,
                              int64_t *longest, int64_t *steps);
int64_t length_failed_closure(LCall *k, LState *S, LScratch *X, int64_t ncand);

/* Many grids of side n for length_rate_many: the givens (values: ngrids rows of n * n
 * cells, 0 where open; cell c holding k is the variable n * c + k), the formula's units,
 * each grid's solution (solutions: NULL, none; a row of zeros, not known), the searches
 * budget `allowed` of each grid; mask (nv bytes) and codes (n * n ints) are scratch. */
typedef struct {
    const int32_t *units;
    int64_t nunits;
    const int8_t *values, *solutions;
    int64_t ngrids, allowed;
    int32_t n;
    int8_t *mask;
    int32_t *codes;
} LGrids;

/* The refutation-length rating of many grids, one after the other in r->S, as
 * solvers.ratings.length rates one: the givens and the formula's units propagated, then
 * simplest_first one step a call (every step above 2 gets its alternative cones) until
 * it stops.  A grid's known solution spares its candidates any search once model_mask
 * accepts it (-STATUS_BAD_SOLUTION when not).  out, 5 per grid: the negated status
 * (SAT, CONFLICT, BUDGET, STUCK, BAD_SOLUTION), longest, steps, searches spent,
 * nanoseconds.  Return the grids done (fewer when a signal or a bad state stopped it). */
int64_t length_rate_many(LCall *k, const LRating *r, const LGrids *g, int64_t *out);
/* ---- BxB (bxb.c): T&E(B_p) over these kernels ---- */

/* Slots of BxB's work counters (solvers.ratings.bxb); the deadline is read every
 * CLOCK_EVERY searches. */
enum { W_SEARCHES = 0, W_HYPOTHESES = 1, W_SKIPPED = 2, W_ELIMINATED = 3, W_BUDGET = 4,
       W_NUM_COUNTERS = 5 };
enum { CLOCK_EVERY = 8 };
#define NO_DEADLINE INT64_MAX

/* Each hypothesis's last state (rows 0: none kept): its values, the limit at which it
 * moves again, whether it has one. */
typedef struct {
    int8_t *saved;
    int64_t *next_limit;
    int8_t *has_saved;
    int64_t rows;
} LMemo;

/* A T&E's records: the state T, the workspace U of a hypothesis, the scratch X, ncand
 * candidates, B_limit, the deadline (core_now_ns() time, NO_DEADLINE: none), the memo
 * and the work counters (W_*). */
typedef struct {
    LState *T, *U;
    LScratch *X;
    int64_t ncand, limit, deadline_ns;
    LMemo *memo;
    int64_t *work;
} LTrial;

/* B_limit on S (t->T, or t->U under a hypothesis); *next: the least length left. */
int64_t bxb_braid_closure(LCall *k, const LTrial *t, LState *S, int64_t *next);
/* T&E's hypothesis v in t->U; codes and cones: scratch of nlits ints (cones all EMPTY). */
int64_t bxb_try_hypothesis(LCall *k, const LTrial *t, int64_t v, int32_t *codes,
                           const int32_t *cones, int64_t *next);
int64_t bxb_trial_and_error(LCall *k, const LTrial *t, const int8_t *true_somewhere,
                            int64_t *next);

/* ---- the formula's arrays (length_formula.c), before Formula copies them ---- */

/* Built from DIMACS clauses in the clause engine's layout (without groups): constraints
 * (lits, cstart, corig: the input clause of each), each literal's room for its constraints (wstart), links (bstart,
 * bimp), units and their clauses (unit_idx), the first empty clause (-1: none). */
typedef struct {
    int32_t *lits, *cstart, *corig, *wstart, *bstart, *bimp;
    int32_t *units, *unit_idx;
    int64_t nlong_lits, nlong, nbimp, nunits, first_empty;
} LBuilt;

/* Build from flat[offsets[i] .. offsets[i + 1]) (i < m), whose literals the caller
 * checked to lie in 1 .. nv (offsets rising from 0, every count below 2^31): 0, or -1
 * when memory ran out (nothing left allocated). */
int length_build(LBuilt *out, const int32_t *flat, const int64_t *offsets, int64_t m, int32_t nv);
void length_built_free(LBuilt *b);

int length_chain(const LFormula *f, const LState *S, const uint64_t *cone, int32_t hypothesis,
                 int64_t *out_lits, int64_t *out_constraints, int64_t room, int64_t result[4]);

#endif
