/* Shortest refutations: the kernels of the refutation-length rating (solvers.ratings.length).
 *
 * A hypothesis refuted by unit propagation is one of Berthier's braids; its length is the
 * number of constraints (long clauses) the refutation uses, links (binary clauses) being
 * free.  The cone of a literal derived under the hypothesis is the set of constraints its
 * derivation uses (a bit set, `words` 64-bit words); the search propagates in order of
 * cone size, like Dijkstra's algorithm with "size of the union" as distance, and a
 * literal keeps the cone of its first derivation.  refutation_with_alternatives keeps up
 * to CONES_PER_LITERAL cones a literal, none a superset of another, and combines them
 * where a constraint forces a value.  solvers.core.length's docstring says all of it in
 * full.  The order of the searches is part of the answer: a literal keeps the cone of
 * its first derivation, so the same searches in the same order give the same lengths,
 * and so the ratings the golden files hold.
 *
 * The facts of the state propagate with their cones too (assert_facts, eliminate): the
 * nested rating runs these kernels on states whose facts rest on an outer hypothesis.
 *
 * Safety: length_module.c checks every array's size against the formula and every index
 * the state holds before a kernel runs; what a kernel makes itself (pool rows, entries,
 * trail slots) is checked against the array's end where it is made, and an overflow
 * (a state no kernel made) sets k->bad instead of writing: the call raises ValueError.
 */
#include "length.h"

/* The formula's arrays as local constants: the compiler then keeps them in registers
 * across the kernels' stores (the core builds with -fno-strict-aliasing, so a store
 * through any pointer could otherwise change f's fields). */
#define FORMULA_ARRAYS(f)                                                                 \
    const int32_t *const bstart = (f)->bstart, *const bimp = (f)->bimp;                   \
    const int32_t *const wstart = (f)->wstart, *const occ = (f)->occ;                     \
    const int32_t *const cstart = (f)->cstart, *const lits = (f)->lits

#include <stdlib.h>
#include <string.h>

/* The searches count cone sizes all the time: compiled twice, with the popcnt
 * instruction and without (the baseline has none), the processor's pick made at load
 * time (GCC's target_clones, an ifunc); 13% less time a search, measured on royle17. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__)
#define POPCNT_CLONES __attribute__((target_clones("popcnt", "default")))
#else
#define POPCNT_CLONES
#endif

static inline int popcount(const uint64_t *words, int n) {
    int total = 0;
    for (int w = 0; w < n; w++) total += __builtin_popcountll(words[w]);
    return total;
}

static inline void set_bit(uint64_t *words, int32_t c) { words[c >> 6] |= UINT64_C(1) << (c & 63); }

/* Poll for signals at a hypothesis boundary; nonzero when the call must stop. */
static inline int stopped(LCall *k) {
    if (k->stop) return 1;
    if (k->poll && core_poll(k->poll)) k->stop = 1;
    return k->stop;
}

/* ---- facts of the state: unit propagation that records cones ---------------------- */

/* Assign lit true with reason `why` at the current level; 0 if the trail is full. */
static int implied(LCall *k, LState *S, int32_t lit, int32_t why) {
    int64_t size = S->st[ST_TRAIL_SIZE];
    if (size >= k->f->nv) {
        k->bad = 1;
        return 0;
    }
    S->value[lit] = 1;
    S->value[lit ^ 1] = -1;
    S->level[lit >> 1] = (int32_t)S->st[ST_DLEVEL];
    S->reason[lit >> 1] = why;
    S->trail[size] = lit;
    S->st[ST_TRAIL_SIZE] = size + 1;
    return 1;
}

/* Record the cone of lit, just made true, and count it in its constraints. */
static void count(const LFormula *f, LState *S, int32_t lit, int32_t cone) {
    const int32_t *wstart = f->wstart, *occ = f->occ; /* (read once: see shortest) */
    int32_t *ntrue = S->ntrue, *nfalse = S->nfalse;
    S->cone[lit] = cone;
    for (int32_t i = wstart[lit], end = wstart[lit + 1]; i < end; i++) ntrue[occ[i]]++;
    int32_t neg = lit ^ 1;
    for (int32_t i = wstart[neg], end = wstart[neg + 1]; i < end; i++) nfalse[occ[i]]++;
}

static int32_t new_cone(LCall *k, LState *S) {
    int64_t row = S->st[ST_POOL_SIZE];
    if (row >= S->rows) {
        k->bad = 1;
        return -1;
    }
    S->st[ST_POOL_SIZE] = row + 1;
    memset(S->pool + row * k->f->words, 0, sizeof(uint64_t) * (size_t)k->f->words);
    return (int32_t)row;
}

static int64_t conflict_pair(LCall *k, LState *S, int32_t a, int32_t b) {
    if (S->st[ST_TRACK] == 0) return EMPTY;
    int32_t row = new_cone(k, S);
    if (row < 0) return EMPTY;
    int W = k->f->words;
    for (int w = 0; w < W; w++) S->pool[row * W + w] = S->pool[a * W + w] | S->pool[b * W + w];
    return row;
}

/* A new pool row: constraint c and the cones of its false literals. */
static int32_t clause_cone(LCall *k, LState *S, int32_t c) {
    if (S->st[ST_TRACK] == 0) return EMPTY;
    const LFormula *f = k->f;
    int32_t row = new_cone(k, S);
    if (row < 0) return EMPTY;
    int W = f->words;
    uint64_t *out = S->pool + (int64_t)row * W;
    for (int32_t p = f->cstart[c]; p < f->cstart[c + 1]; p++) {
        int32_t lit = f->lits[p];
        if (S->value[lit] == -1) {
            const uint64_t *in = S->pool + (int64_t)S->cone[lit ^ 1] * W;
            for (int w = 0; w < W; w++) out[w] |= in[w];
        }
    }
    set_bit(out, c);
    return row;
}

/* Propagate the trail from qhead, links first for each fact, then the constraints that
 * lose a literal; return NO_CONFLICT or the contradiction's pool row. */
static int64_t propagate_facts(LCall *k, LState *S) {
    const LFormula *f = k->f;
    const int32_t *bstart = f->bstart, *bimp = f->bimp, *wstart = f->wstart, *occ = f->occ;
    const int32_t *cstart = f->cstart, *lits = f->lits; /* (read once: see shortest) */
    int8_t *value = S->value;
    int32_t *nfalse = S->nfalse, *ntrue = S->ntrue;
    while (S->st[ST_QHEAD] < S->st[ST_TRAIL_SIZE]) {
        int32_t lit = S->trail[S->st[ST_QHEAD]++];
        for (int32_t i = bstart[lit], end = bstart[lit + 1]; i < end; i++) {
            int32_t q = bimp[i];
            if (value[q] == 1) continue;
            if (value[q] == -1) return conflict_pair(k, S, S->cone[lit], S->cone[q ^ 1]);
            if (!implied(k, S, q, BINARY_REASON - i)) return NO_CONFLICT;
            count(f, S, q, S->cone[lit]);
        }
        int32_t neg = lit ^ 1;
        for (int32_t i = wstart[neg], end = wstart[neg + 1]; i < end; i++) {
            int32_t c = occ[i];
            if (ntrue[c] > 0) continue;
            int32_t width = cstart[c + 1] - cstart[c];
            if (nfalse[c] == width) return clause_cone(k, S, c);
            if (nfalse[c] == width - 1) {
                for (int32_t p = cstart[c]; p < cstart[c + 1]; p++) {
                    int32_t r = lits[p];
                    if (value[r] == 0) {
                        int32_t cone = clause_cone(k, S, c);
                        if (!implied(k, S, r, c)) return NO_CONFLICT;
                        count(f, S, r, cone);
                        break;
                    }
                }
            }
            if (k->bad) return NO_CONFLICT;
        }
    }
    return NO_CONFLICT;
}

static void make_true(LCall *k, LState *S, int32_t lit, int32_t cone, int32_t why) {
    if (implied(k, S, lit, why)) count(k->f, S, lit, cone);
}

int64_t length_assert_facts(LCall *k, LState *S, const int32_t *lits, const int32_t *cones,
                            int64_t n, int32_t why) {
    for (int64_t i = 0; i < n; i++) {
        int32_t lit = lits[i];
        if (S->value[lit] == 1) continue;
        if (S->value[lit] == -1) return conflict_pair(k, S, cones[i], S->cone[lit ^ 1]);
        make_true(k, S, lit, cones[i], why);
        if (k->bad) return NO_CONFLICT;
    }
    return propagate_facts(k, S);
}

int64_t length_restart(LCall *k, LState *S, const int32_t *units, int64_t nunits,
                       const int32_t *givens, int64_t ngivens) {
    const LFormula *f = k->f;
    memset(S->value, 0, (size_t)f->nlits);
    memset(S->cone, 0, sizeof(int32_t) * (size_t)f->nlits);
    memset(S->nfalse, 0, sizeof(int32_t) * (size_t)f->m);
    memset(S->ntrue, 0, sizeof(int32_t) * (size_t)f->m);
    const int64_t track = S->st[ST_TRACK]; /* (the State's own, kept) */
    memset(S->st, 0, sizeof(int64_t) * ST_NUM_SLOTS);
    S->st[ST_POOL_SIZE] = 1;
    S->st[ST_TRACK] = track;
    int64_t most = nunits > ngivens ? nunits : ngivens;
    int32_t *no_cones = calloc((size_t)(most > 0 ? most : 1), sizeof(int32_t)); /* all EMPTY */
    if (!no_cones) {
        k->bad = 2;
        return NO_CONFLICT;
    }
    int64_t conflict = length_assert_facts(k, S, units, no_cones, nunits, REASON_UNIT);
    if (conflict == NO_CONFLICT && !k->bad)
        conflict = length_assert_facts(k, S, givens, no_cones, ngivens, REASON_DECISION);
    free(no_cones);
    return conflict;
}

int64_t length_eliminate(LCall *k, LState *S, int32_t lit) {
    if (S->value[lit] == 1) return NO_CONFLICT;
    if (S->value[lit] == -1) return conflict_pair(k, S, EMPTY, S->cone[lit ^ 1]);
    make_true(k, S, lit, EMPTY, REASON_PROBE);
    if (k->bad) return NO_CONFLICT;
    return propagate_facts(k, S);
}

/* ---- one hypothesis: the shortest refutation ---------------------------------------- */

/* A contradiction of cone `work` (`size` constraints): the best so far when smaller,
 * else perhaps the least size past it (*above). */
static inline __attribute__((always_inline)) void contradiction(int64_t size,
                                                                const uint64_t *work,
                                                                uint64_t *best_cone, int64_t *best,
                                                                int64_t *above, const int W) {
    if (size < *best) {
        *best = size;
        memcpy(best_cone, work, sizeof(uint64_t) * (size_t)W);
    } else if (size < *above) {
        *above = size;
    }
}

/* OR into cone the cones of the facts of S that make literals of constraint c false
 * (a tracked state's facts rest on an outer hypothesis: its refutation counts them). */
static inline __attribute__((always_inline)) void or_fact_cones(const LFormula *f,
                                                                const LState *S, int32_t c,
                                                                uint64_t *cone, const int W) {
    const int32_t *const lits = f->lits, *const scone = S->cone;
    const int8_t *const value = S->value;
    const uint64_t *const spool = S->pool;
    for (int32_t p = f->cstart[c], end = f->cstart[c + 1]; p < end; p++) {
        int32_t lit = lits[p];
        if (value[lit] == -1) {
            const uint64_t *in = spool + (int64_t)scone[lit ^ 1] * W;
            for (int w = 0; w < W; w++) cone[w] |= in[w];
        }
    }
}

/* Open again the literals of a hypothesis's trail. */
static inline void undo_trail(int8_t *hvalue, const int32_t *htrail, int64_t trail_size) {
    for (int64_t t = 0; t < trail_size; t++) {
        hvalue[htrail[t]] = 0;
        hvalue[htrail[t] ^ 1] = 0;
    }
}

/* shortest's queue: literal lit with cone `row` of `size` constraints (none past the
 * limit), read and written through shortest's locals. */
#define PUSH(lit, row, size)                                                                   \
    do {                                                                                       \
        if ((size) > limit) break;                                                             \
        if (nentries >= entries) {                                                             \
            bad = 1;                                                                           \
            break;                                                                             \
        }                                                                                      \
        entry_lit[nentries] = (lit);                                                           \
        entry_cone[nentries] = (row);                                                          \
        entry_next[nentries] = bucket[size];                                                   \
        bucket[size] = (int32_t)nentries++;                                                    \
    } while (0)

/* The search of length_shortest for cones of W words: inlined into each W the dispatch
 * below names, so that the cone loops (OR, copy, popcount: much of a search's work) have
 * a constant count the compiler unrolls, and once more for any other W.  The arrays and
 * the counters of the records are read into locals once (the build has
 * -fno-strict-aliasing: read through the records, every store would reload them), the
 * counters written back at the end. */
static inline __attribute__((always_inline)) int64_t shortest(LCall *k, LState *S, LScratch *X,
                                                              int32_t z, int64_t limit,
                                                              int64_t *beyond, const int W) {
    const LFormula *f = k->f;
    FORMULA_ARRAYS(f);
    const int8_t *const value = S->value;
    const int32_t *const nfalse = S->nfalse, *const ntrue = S->ntrue;
    int8_t *const hvalue = X->value;
    int32_t *const hcone = X->cone, *const htrail = X->trail, *const hfalse = X->nfalse;
    int64_t *const stamp = X->stamp, *const xst = X->st;
    uint64_t *const false_cones = X->false_cones, *const hpool = X->pool;
    int32_t *const bucket = X->bucket, *const entry_next = X->entry_next;
    int32_t *const entry_lit = X->entry_lit, *const entry_cone = X->entry_cone;
    uint64_t *const best_cone = X->best_cone, *const work = X->work;
    const int64_t rows = X->rows, entries = X->entries;
    const int track = S->st[ST_TRACK] == 1;
    const uint64_t *const spool = S->pool;
    const int32_t *const scone = S->cone;
    if (limit > f->m) limit = f->m; /* no cone is larger than all constraints */
    const int64_t current = xst[X_STAMP] + 1;
    xst[X_STAMP] = current;
    int64_t pool_size = 1; /* row 0 is the empty cone */
    int64_t nentries = 0, trail_size = 0;
    int bad = k->bad;
    memset(hpool, 0, sizeof(uint64_t) * (size_t)W);
    for (int64_t s = 0; s < limit + 2; s++) bucket[s] = -1;
    int64_t best = limit + 1;
    /* The smallest size past the limit that a queued value or a contradiction had: no
     * refutation is shorter when none is found within the limit (see length_candidates). */
    int64_t above = NEVER;
    PUSH(z, 0, 0);
    int64_t size_now = 0; /* the cone size whose bucket is being emptied */
    while (size_now < best && size_now <= limit && !bad) {
        int32_t e = bucket[size_now];
        if (e < 0) {
            size_now++;
            continue;
        }
        bucket[size_now] = entry_next[e];
        int32_t r = entry_lit[e];
        int32_t row = entry_cone[e];
        const uint64_t *rcone = hpool + (int64_t)row * W;
        if (hvalue[r] == 1 || value[r] == 1) continue;
        if (hvalue[r] == -1 || value[r] == -1) { /* two derivations disagree */
            const uint64_t *other = NULL;
            if (hvalue[r] == -1)
                other = hpool + (int64_t)hcone[r ^ 1] * W;
            else if (track)
                other = spool + (int64_t)scone[r ^ 1] * W;
            for (int w = 0; w < W; w++) work[w] = rcone[w] | (other ? other[w] : 0);
            contradiction(popcount(work, W), work, best_cone, &best, &above, W);
            continue;
        }
        hvalue[r] = 1;
        hvalue[r ^ 1] = -1;
        hcone[r] = row;
        htrail[trail_size++] = r;
        for (int32_t i = bstart[r], end = bstart[r + 1]; i < end; i++) {
            int32_t q = bimp[i];
            if (hvalue[q] == 1 || value[q] == 1) continue;
            PUSH(q, row, size_now);
        }
        int32_t neg = r ^ 1;
        for (int32_t i = wstart[neg], end = wstart[neg + 1]; i < end; i++) {
            int32_t c = occ[i];
            if (ntrue[c] > 0) continue;
            uint64_t *fc = false_cones + (int64_t)c * W;
            if (stamp[c] != current) {
                stamp[c] = current;
                hfalse[c] = nfalse[c];
                memcpy(fc, rcone, sizeof(uint64_t) * (size_t)W); /* (no memset, then OR) */
                if (track) or_fact_cones(f, S, c, fc, W);
            } else {
                for (int w = 0; w < W; w++) fc[w] |= rcone[w];
            }
            int32_t false_now = ++hfalse[c];
            const int32_t first = cstart[c], last = cstart[c + 1];
            int32_t size = last - first;
            if (false_now < size - 1) continue;
            memcpy(work, fc, sizeof(uint64_t) * (size_t)W);
            set_bit(work, c);
            int64_t cone_size = popcount(work, W);
            if (false_now == size) {
                contradiction(cone_size, work, best_cone, &best, &above, W);
                continue;
            }
            if (cone_size >= best) {
                if (cone_size < above) above = cone_size; /* (a bound: c may be satisfied) */
                continue;
            }
            for (int32_t p = first; p < last; p++) {
                int32_t lit = lits[p]; /* the one literal of c not false */
                if (hvalue[lit] != -1 && value[lit] != -1) {
                    if (hvalue[lit] == 0) { /* (1: c is satisfied under the hypothesis) */
                        if (pool_size >= rows) {
                            bad = 1;
                            break;
                        }
                        int64_t fresh = pool_size++;
                        memcpy(hpool + fresh * W, work, sizeof(uint64_t) * (size_t)W);
                        PUSH(lit, (int32_t)fresh, cone_size);
                    }
                    break;
                }
            }
        }
    }
    undo_trail(hvalue, htrail, trail_size);
    xst[X_POOL_SIZE] = pool_size;
    xst[X_ENTRIES] = nentries;
    xst[X_TRAIL_SIZE] = trail_size;
    k->bad = bad;
    *beyond = above;
    return best;
}
#undef PUSH

POPCNT_CLONES
static int64_t shortest_beyond(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit,
                               int64_t *beyond) {
    switch (k->f->words) { /* 1: 4x4, 3: 6x6, 6: 9x9 and its variants */
    case 1: return shortest(k, S, X, z, limit, beyond, 1);
    case 2: return shortest(k, S, X, z, limit, beyond, 2);
    case 3: return shortest(k, S, X, z, limit, beyond, 3);
    case 4: return shortest(k, S, X, z, limit, beyond, 4);
    case 5: return shortest(k, S, X, z, limit, beyond, 5);
    case 6: return shortest(k, S, X, z, limit, beyond, 6);
    case 7: return shortest(k, S, X, z, limit, beyond, 7);
    case 8: return shortest(k, S, X, z, limit, beyond, 8);
    default: return shortest(k, S, X, z, limit, beyond, k->f->words);
    }
}

int64_t length_shortest(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit) {
    int64_t beyond;
    return shortest_beyond(k, S, X, z, limit, &beyond);
}

/* ---- alternative cones -------------------------------------------------------------- */

/* True when literal lit keeps a cone that is a subset of pool row `row`. */
static inline int dominated(const LAlternatives *A, int W, int32_t lit, int64_t row) {
    const uint64_t *b = A->pool + row * W;
    for (int32_t i = 0; i < A->ncones[lit]; i++) {
        const uint64_t *a = A->pool + (int64_t)A->cones[lit * CONES_PER_LITERAL + i] * W;
        int subset = 1;
        for (int w = 0; w < W; w++)
            if (a[w] & ~b[w]) {
                subset = 0;
                break;
            }
        if (subset) return 1;
    }
    return 0;
}

static void push_alternative(LAlternatives *A, int32_t lit, int64_t row, int64_t size) {
    int64_t e = A->st[A_ENTRIES];
    if (e >= A->entries) {
        A->st[A_OVERFLOW] = 1;
        return;
    }
    A->st[A_ENTRIES] = e + 1;
    A->entry_lit[e] = lit;
    A->entry_cone[e] = (int32_t)row;
    A->entry_next[e] = A->bucket[size];
    A->bucket[size] = (int32_t)e;
}

/* Make work the best contradiction if it is smaller; return the best size. */
static inline int64_t better(uint64_t *best_cone, const uint64_t *work, int W, int64_t best) {
    int64_t size = popcount(work, W);
    if (size < best) {
        memcpy(best_cone, work, sizeof(uint64_t) * (size_t)W);
        return size;
    }
    return best;
}

/* A constraint forcing its last literal `left` (-1: none, a contradiction), its cone in
 * A->partial[0] and the cones of the n_others literals the hypothesis removed in
 * A->others: each combination of one cone a literal, depth first (a partial union
 * already too large cuts all its completions), a cone of `left` (or a contradiction,
 * into best_cone).  Return the least contradiction's size (best when none is less). */
static inline __attribute__((always_inline)) int64_t combine(LScratch *X, LAlternatives *A,
                                                             int32_t n_others, int32_t left,
                                                             int64_t limit, int64_t best,
                                                             const int W) {
    const int32_t *ncones = A->ncones, *cones = A->cones, *others = A->others;
    int32_t *choice = A->choice;
    uint64_t *pool = A->pool, *partial = A->partial, *work = X->work;
    int64_t *ast = A->st;
    int64_t cut = limit + 1;
    int32_t j = 0;
    choice[0] = 0;
    while (j >= 0) {
        if (j < n_others && choice[j] == ncones[others[j]]) {
            j -= 1; /* every cone of others[j] tried: back to the one before */
            if (j >= 0) choice[j] += 1;
            continue;
        }
        if (j < n_others) {
            const uint64_t *a = pool + (int64_t)cones[others[j] * CONES_PER_LITERAL + choice[j]] * W;
            uint64_t *next = partial + (int64_t)(j + 1) * W;
            const uint64_t *prev = partial + (int64_t)j * W;
            for (int w = 0; w < W; w++) next[w] = prev[w] | a[w];
            if (popcount(next, W) >= (cut < best ? cut : best)) {
                choice[j] += 1;
                continue;
            }
            j += 1;
            if (j < n_others) choice[j] = 0;
            continue;
        }
        memcpy(work, partial + (int64_t)n_others * W, sizeof(uint64_t) * (size_t)W);
        if (left < 0) {
            best = better(X->best_cone, work, W, best);
        } else {
            int64_t fresh = ast[A_POOL_SIZE];
            if (fresh == A->rows) {
                ast[A_OVERFLOW] = 1;
            } else {
                memcpy(pool + fresh * W, work, sizeof(uint64_t) * (size_t)W);
                if (!(X->value[left] == 1 && dominated(A, W, left, fresh))) {
                    ast[A_POOL_SIZE] += 1;
                    push_alternative(A, left, fresh, popcount(work, W));
                }
            }
        }
        j -= 1;
        if (j >= 0) choice[j] += 1;
    }
    return best;
}

/* The search of length_with_alternatives for cones of W words, inlined for each W as
 * shortest is (see there). */
static inline __attribute__((always_inline)) int64_t alternatives(LCall *k, LState *S,
                                                                  LScratch *X, LAlternatives *A,
                                                                  int32_t z, int64_t limit,
                                                                  const int W) {
    const LFormula *f = k->f;
    const int8_t *value = S->value;
    const int32_t *ntrue = S->ntrue;
    int8_t *hvalue = X->value;
    int32_t *htrail = X->trail, *hfalse = X->nfalse;
    int64_t *stamp = X->stamp, *xst = X->st;
    uint64_t *state_cones = X->false_cones, *best_cone = X->best_cone, *work = X->work;
    int32_t *ncones = A->ncones, *cones = A->cones, *bucket = A->bucket;
    int32_t *others = A->others;
    uint64_t *pool = A->pool, *partial = A->partial;
    int64_t *ast = A->st;
    const int track = S->st[ST_TRACK] == 1;
    const uint64_t *spool = S->pool;
    const int32_t *scone = S->cone;
    if (limit > f->m) limit = f->m;
    xst[X_STAMP] += 1;
    int64_t current = xst[X_STAMP];
    xst[X_TRAIL_SIZE] = 0;
    ast[A_POOL_SIZE] = 1; /* row 0: the empty cone */
    ast[A_ENTRIES] = 0;
    ast[A_OVERFLOW] = 0;
    memset(pool, 0, sizeof(uint64_t) * (size_t)W);
    for (int64_t s = 0; s < limit + 2; s++) bucket[s] = -1;
    int64_t best = limit + 1;
    push_alternative(A, z, 0, 0);
    int64_t size_now = 0;
    while (size_now < best && size_now <= limit) {
        int32_t e = bucket[size_now];
        if (e < 0) {
            size_now++;
            continue;
        }
        bucket[size_now] = A->entry_next[e];
        int32_t r = A->entry_lit[e];
        int32_t row = A->entry_cone[e];
        const uint64_t *rcone = pool + (int64_t)row * W;
        if (value[r] == 1) continue;
        if (value[r] == -1) { /* a fact of the state removes it: a contradiction */
            const uint64_t *other = track ? spool + (int64_t)scone[r ^ 1] * W : NULL;
            for (int w = 0; w < W; w++) work[w] = rcone[w] | (other ? other[w] : 0);
            best = better(best_cone, work, W, best);
            continue;
        }
        if (hvalue[r] == -1) { /* its negation holds: a contradiction with each of its cones */
            for (int32_t i = 0; i < ncones[r ^ 1]; i++) {
                const uint64_t *a = pool + (int64_t)cones[(r ^ 1) * CONES_PER_LITERAL + i] * W;
                for (int w = 0; w < W; w++) work[w] = rcone[w] | a[w];
                best = better(best_cone, work, W, best);
            }
            continue;
        }
        /* Cones come out by size, so a subset of this one came out before it. */
        if (ncones[r] == CONES_PER_LITERAL || dominated(A, W, r, row)) continue;
        if (hvalue[r] == 0) {
            hvalue[r] = 1;
            hvalue[r ^ 1] = -1;
            htrail[xst[X_TRAIL_SIZE]++] = r;
        }
        int first = ncones[r] == 0;
        cones[r * CONES_PER_LITERAL + ncones[r]] = row;
        ncones[r] += 1;
        for (int32_t i = f->bstart[r]; i < f->bstart[r + 1]; i++) {
            int32_t q = f->bimp[i];
            if (value[q] == 1 || ncones[q] == CONES_PER_LITERAL) continue;
            if (hvalue[q] == 1 && dominated(A, W, q, row)) continue;
            push_alternative(A, q, row, size_now);
        }
        int32_t neg = r ^ 1;
        for (int32_t i = f->wstart[neg]; i < f->wstart[neg + 1]; i++) {
            int32_t c = f->occ[i];
            if (ntrue[c] > 0) continue;
            uint64_t *sc = state_cones + (int64_t)c * W;
            if (stamp[c] != current) {
                stamp[c] = current;
                hfalse[c] = S->nfalse[c];
                memset(sc, 0, sizeof(uint64_t) * (size_t)W);
                if (track) or_fact_cones(f, S, c, sc, W);
            }
            if (first) hfalse[c] += 1;
            if (hfalse[c] < f->cstart[c + 1] - f->cstart[c] - 1) continue;
            /* c forces its last literal (or breaks): its cone is c, this cone of f's
             * negation and one cone of each other literal the hypothesis removed; the
             * new combinations are those with this cone. */
            int32_t n_others = 0;
            int32_t left = -1;
            for (int32_t p = f->cstart[c]; p < f->cstart[c + 1]; p++) {
                int32_t lit = f->lits[p];
                if (lit == neg || value[lit] == -1) continue;
                if (hvalue[lit] == -1)
                    others[n_others++] = lit ^ 1;
                else
                    left = lit;
            }
            if (left >= 0 && ncones[left] == CONES_PER_LITERAL) continue;
            for (int w = 0; w < W; w++) partial[w] = sc[w] | rcone[w];
            set_bit(partial, c);
            best = combine(X, A, n_others, left, limit, best, W);
        }
    }
    for (int64_t t = 0; t < xst[X_TRAIL_SIZE]; t++) {
        int32_t lit = htrail[t];
        hvalue[lit] = 0;
        hvalue[lit ^ 1] = 0;
        ncones[lit] = 0;
    }
    return best;
}

POPCNT_CLONES
static int64_t search_alternatives(LCall *k, LState *S, LScratch *X, LAlternatives *A,
                                   int32_t z, int64_t limit) {
    switch (k->f->words) { /* as length_shortest's */
    case 1: return alternatives(k, S, X, A, z, limit, 1);
    case 2: return alternatives(k, S, X, A, z, limit, 2);
    case 3: return alternatives(k, S, X, A, z, limit, 3);
    case 4: return alternatives(k, S, X, A, z, limit, 4);
    case 5: return alternatives(k, S, X, A, z, limit, 5);
    case 6: return alternatives(k, S, X, A, z, limit, 6);
    case 7: return alternatives(k, S, X, A, z, limit, 7);
    case 8: return alternatives(k, S, X, A, z, limit, 8);
    default: return alternatives(k, S, X, A, z, limit, k->f->words);
    }
}

int64_t length_with_alternatives(LCall *k, LState *S, LScratch *X, LAlternatives *A, int32_t z,
                                 int64_t limit) {
    int64_t found = search_alternatives(k, S, X, A, z, limit);
    if (A->st[A_OVERFLOW]) return length_shortest(k, S, X, z, limit); /* the plain search alone */
    int64_t plain = length_shortest(k, S, X, z, limit < found - 1 ? limit : found - 1);
    return found < plain ? found : plain;
}

/* ---- candidates and the resolution ------------------------------------------------- */

/* Whether unit propagation has nothing left to do in S (first_hop's premise, with the
 * links' shallowness: a fact's contrapositives have removed every candidate a link
 * would take to a false fact).  Every fact before the last one on the trail has been
 * propagated in full; a contradiction can stop the last one midway, so its links and
 * constraints are looked at. */
static int closed(const LFormula *f, const LState *S) {
    int64_t size = S->st[ST_TRAIL_SIZE];
    if (S->st[ST_QHEAD] != size) return 0;
    if (size == 0) return 1;
    int32_t lit = S->trail[size - 1];
    for (int32_t i = f->bstart[lit]; i < f->bstart[lit + 1]; i++)
        if (S->value[f->bimp[i]] != 1) return 0;
    for (int32_t i = f->wstart[lit ^ 1]; i < f->wstart[(lit ^ 1) + 1]; i++) {
        int32_t c = f->occ[i];
        if (S->ntrue[c] == 0 && f->cstart[c + 1] - f->cstart[c] - S->nfalse[c] < 2) return 0;
    }
    return 1;
}

/* One more literal of constraint c made false beside the state: its count in hfalse,
 * started from the state's nfalse the first time c is met under stamp `current`.
 * Return the count. */
static inline int32_t one_more_false(LScratch *X, const LState *S, int32_t c, int64_t current) {
    if (X->stamp[c] != current) {
        X->stamp[c] = current;
        X->nfalse[c] = S->nfalse[c];
    }
    return ++X->nfalse[c];
}

/* The closure of hypothesis z over its links, beside the state: hvalue marks it (its
 * literals in htrail, *n of them), and each constraint it touches gets its false
 * literals counted in hfalse under stamp current.  Return 0 when the closure holds a
 * literal and its negation or a false fact, 1 when it empties a constraint no fact
 * satisfies (counting stops there: only a contradiction of length 0 is left to see),
 * 2 otherwise.  With near, the constraints left one literal are listed there (up to
 * NEAR_ROOM; *nnear counts them all).  The caller clears hvalue over htrail. */
enum { NEAR_ROOM = 64 };

static inline int64_t hop_closure(const LFormula *f, const LState *S, LScratch *X,
                                  int32_t z, int64_t current, int32_t *n, int32_t *near,
                                  int32_t *nnear) {
    const int32_t *const bstart = f->bstart, *const bimp = f->bimp;
    const int32_t *const wstart = f->wstart, *const occ = f->occ, *const cstart = f->cstart;
    const int8_t *const value = S->value;
    const int32_t *const ntrue = S->ntrue;
    int8_t *const hvalue = X->value;
    int32_t *const htrail = X->trail;
    int64_t length = 2;
    for (int32_t i = bstart[z] - 1; i < bstart[z + 1]; i++) {
        int32_t r = i < bstart[z] ? z : bimp[i];
        if (value[r] == 1 || hvalue[r] == 1) continue;
        if (value[r] == -1 || hvalue[r] == -1) return 0;
        hvalue[r] = 1;
        hvalue[r ^ 1] = -1;
        htrail[(*n)++] = r;
        if (length == 1) continue;
        for (int32_t j = wstart[r ^ 1], end = wstart[(r ^ 1) + 1]; j < end; j++) {
            int32_t c = occ[j];
            if (ntrue[c] > 0) continue;
            int32_t false_now = one_more_false(X, S, c, current);
            int32_t width = cstart[c + 1] - cstart[c];
            if (false_now == width) length = 1;
            if (near && false_now == width - 1) {
                if (*nnear < NEAR_ROOM) near[*nnear] = c;
                (*nnear)++;
            }
        }
    }
    return length;
}

/* Bound 1 for every open candidate of an untracked state (every fact's cone empty) closed
 * under unit propagation, of a formula with shallow links (length_module.c's
 * reverse_links says what that takes), without cones.  A search bounded by 1 then
 * answers from its first hop alone: the hypothesis z and the literals its links imply
 * (its closure) come out first, with empty cones, and a contradiction among them or
 * with a false fact has length 0; a constraint they and the facts falsify has length 1;
 * a value that a constraint forces comes out with that constraint as its cone, and
 * whatever it meets adds a second constraint (shallow links cannot take it back to the
 * closure or to a false fact in one hop).  So the search's answer within 1 is read off the closure:
 * 0 when it holds a literal and its negation or a false fact, 1 when it empties a
 * constraint no fact satisfies, counted as shortest counts (stamp, nfalse), and past 1
 * otherwise, or nowhere when z forces no value (NEVER).  Return the least length found
 * (0 or 1), 2 when none; lengths[v] is set for the open candidates: the length where
 * found, else 2 (a lower bound) or NEVER. */
static int64_t first_hop(LCall *k, LState *S, LScratch *X, int64_t ncand, int64_t *lengths) {
    const LFormula *f = k->f;
    const int32_t *const cstart = f->cstart;
    const int8_t *const value = S->value;
    int8_t *const hvalue = X->value;
    const int32_t *const hfalse = X->nfalse, *const htrail = X->trail;
    int64_t found = 2;
    for (int64_t v = 0; v < ncand; v++) {
        if (value[2 * v] != 0 || lengths[v] == NEVER) continue; /* (NEVER: known true) */
        int32_t z = (int32_t)(2 * v);
        int32_t n = 0, nnear = 0, near[NEAR_ROOM]; /* constraints left one literal */
        int64_t length = hop_closure(f, S, X, z, ++X->st[X_STAMP], &n, near, &nnear);
        /* No single under z (every constraint left one literal is satisfied by the
         * closure): unit propagation from z stops at its closure, so z has no
         * refutation at all.  (More constraints than NEAR_ROOM: not looked at.) */
        if (length == 2 && nnear <= NEAR_ROOM) {
            int single = 0;
            for (int32_t i = 0; i < nnear && !single; i++) {
                int32_t c = near[i];
                if (hfalse[c] != cstart[c + 1] - cstart[c] - 1) continue;
                for (int32_t p = cstart[c]; p < cstart[c + 1]; p++) {
                    int32_t lit = f->lits[p];
                    if (value[lit] != -1 && hvalue[lit] != -1) {
                        single = hvalue[lit] == 0;
                        break;
                    }
                }
            }
            if (!single) length = NEVER;
        }
        for (int32_t t = 0; t < n; t++) {
            hvalue[htrail[t]] = 0;
            hvalue[htrail[t] ^ 1] = 0;
        }
        lengths[v] = length;
        if (length < found) found = length;
    }
    return found;
}

/* The least depth, up to `limit`, at which unit propagation from hypothesis z reaches a
 * contradiction, counted in rounds: z and what its links imply are round 0, a value a
 * constraint forces comes one round after the last of the values that left it one
 * literal, links keep the round.  limit + 1 when there is none within `limit`.  No cone
 * is counted, so it costs a fraction of a search, and it bounds every search: a cone
 * holds the constraints of one derivation, each forcing one value, so a literal's cone
 * is never smaller than its round, and a contradiction of length L shows here by round
 * L.  A candidate that has none within the bound L has no refutation of length L or
 * less, plain or with alternative cones, and need not be searched within L. */
static int64_t conflict_round(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit) {
    const LFormula *f = k->f;
    FORMULA_ARRAYS(f);
    const int8_t *const value = S->value;
    const int32_t *const ntrue = S->ntrue;
    int8_t *const hvalue = X->value;
    int32_t *const htrail = X->trail;
    int32_t *const now = X->entry_next, *const next = X->entry_cone; /* this round, the next */
    const int64_t current = ++X->st[X_STAMP];
    int64_t round = 0, found = limit + 1, nnow = 0, nnext = 0, ntrail = 0;
    now[nnow++] = z;
    while (nnow > 0 && found > limit) {
        while (nnow > 0 && found > limit) {
            int32_t r = now[--nnow];
            if (value[r] == 1 || hvalue[r] == 1) continue;
            if (value[r] == -1 || hvalue[r] == -1) {
                found = round;
                break;
            }
            hvalue[r] = 1;
            hvalue[r ^ 1] = -1;
            htrail[ntrail++] = r;
            for (int32_t i = bstart[r], end = bstart[r + 1]; i < end; i++) {
                int32_t q = bimp[i];
                if (value[q] != 1 && hvalue[q] != 1) now[nnow++] = q;
            }
            for (int32_t i = wstart[r ^ 1], end = wstart[(r ^ 1) + 1]; i < end; i++) {
                int32_t c = occ[i];
                if (ntrue[c] > 0) continue;
                int32_t false_now = one_more_false(X, S, c, current);
                int32_t width = cstart[c + 1] - cstart[c];
                if (false_now == width) {
                    found = round;
                    break;
                }
                if (false_now < width - 1 || round + 1 > limit) continue;
                for (int32_t p = cstart[c]; p < cstart[c + 1]; p++) {
                    int32_t lit = lits[p];
                    if (hvalue[lit] != -1 && value[lit] != -1) {
                        if (hvalue[lit] == 0) next[nnext++] = lit;
                        break;
                    }
                }
            }
        }
        round++;
        for (int64_t i = 0; i < nnext; i++) now[i] = next[i];
        nnow = nnext;
        nnext = 0;
    }
    for (int64_t t = 0; t < ntrail; t++) {
        hvalue[htrail[t]] = 0;
        hvalue[htrail[t] ^ 1] = 0;
    }
    return found;
}

/* The step's candidates, searched by deepening: every open candidate with the bound 1
 * first (first_hop where it applies), then again with higher bounds.  A search that
 * finds nothing within its bound gives the least size past the bound that it met
 * (shortest's `beyond`): the candidate's length is at least that, so the next bound is
 * the least of those, and only the candidates it reaches are searched again.  At the
 * first bound where a search succeeds, every candidate of the least length has been
 * searched with a bound at least that length, and a bounded search is the unbounded one
 * cut off at its bound (shortest takes values in order of cone size), so the step's
 * best and the candidates of that length are those of searching each candidate with no
 * bound, for much less work: most candidates are never refuted, and a search that can
 * go as far as all constraints explores every derivation.  lengths[v] ends as the
 * length of v where it is the step's best, a larger number elsewhere. */
int64_t length_candidates(LCall *k, LState *S, LScratch *X, int64_t ncand, int64_t limit,
                          int64_t *lengths) {
    if (limit > k->f->m) limit = k->f->m;
    int64_t level = limit < 1 ? limit : 1;
    const int8_t *known_true = k->known_true;
    for (int64_t v = 0; v < ncand; v++)
        lengths[v] = S->value[2 * v] != 0            ? limit + 1
                     : known_true && known_true[v] ? NEVER /* (no refutation) */
                                                   : level;
    if (level == 1 && k->f->shallow && S->st[ST_TRACK] == 0 && closed(k->f, S)) {
        if (stopped(k)) return limit + 1;
        int64_t found = first_hop(k, S, X, ncand, lengths);
        if (found <= 1) return found;
        level = 2;
    }
    while (level <= limit && level >= 0) {
        int64_t found = limit + 1, next = NEVER;
        for (int64_t v = 0; v < ncand; v++) {
            if (S->value[2 * v] != 0 || lengths[v] > level) continue;
            if (stopped(k)) return limit + 1;
            int64_t beyond;
            int64_t length = shortest_beyond(k, S, X, (int32_t)(2 * v), level, &beyond);
            if (k->bad) return limit + 1;
            lengths[v] = length <= level ? length : beyond;
            if (length < found) found = length;
        }
        if (found <= level) return found;
        for (int64_t v = 0; v < ncand; v++)
            if (S->value[2 * v] == 0 && lengths[v] < next) next = lengths[v];
        level = next;
    }
    return limit + 1;
}

/* pair_refutable's scratch: a mark per literal (the single's closure), a count and a
 * stamp per constraint (what the single adds), the singles of the hypothesis. */
typedef struct {
    int32_t *mark, *extra, *single_lit;
    int64_t *stamp;
    int32_t tag;
    int64_t current;
} PairScratch;

static int pair_scratch(PairScratch *P, const LFormula *f) {
    P->mark = calloc((size_t)f->nlits, sizeof(int32_t));
    P->extra = calloc((size_t)f->m + 1, sizeof(int32_t));
    P->single_lit = calloc((size_t)f->m + 1, sizeof(int32_t));
    P->stamp = calloc((size_t)f->m + 1, sizeof(int64_t));
    P->tag = 0;
    P->current = 0;
    if (P->mark && P->extra && P->single_lit && P->stamp) return 0;
    free(P->mark), free(P->extra), free(P->single_lit), free(P->stamp);
    return -1;
}

static void pair_scratch_free(PairScratch *P) {
    free(P->mark), free(P->extra), free(P->single_lit), free(P->stamp);
}

/* Whether a link of r (forced by a second constraint) implies a literal that is false:
 * in the state, in the hypothesis's closure (hvalue) or in the single's (mark = tag). */
static inline int links_meet(const LFormula *f, const LState *S, const LScratch *X,
                             const PairScratch *P, int32_t r, int32_t tag) {
    for (int32_t i = f->bstart[r]; i < f->bstart[r + 1]; i++) {
        int32_t t = f->bimp[i];
        if (S->value[t] == -1 || X->value[t] == -1 || P->mark[t ^ 1] == tag) return 1;
    }
    return 0;
}

/* Whether hypothesis z may have a refutation that uses two constraints or fewer, with
 * or without alternative cones: where first_hop applies (see there), such a refutation
 * is unit propagation from z over the links and those constraints, so one of them fires
 * on z's closure alone (it empties, or forces a single r), the other, if any, fires on
 * z's closure and r's (it empties, or forces r3: with r's help, or another single of
 * z), and what r3's links imply meets a false literal.  Looked at for every single r
 * of z; 0 when none does, so that no search within 2 can succeed.  (Also 1 on whatever
 * shows a shorter refutation.) */
static int pair_refutable(LCall *k, LState *S, LScratch *X, PairScratch *P, int32_t z) {
    const LFormula *f = k->f;
    FORMULA_ARRAYS(f);
    const int8_t *const value = S->value;
    const int32_t *const nfalse = S->nfalse, *const ntrue = S->ntrue;
    int8_t *const hvalue = X->value;
    int32_t *const hfalse = X->nfalse, *const htrail = X->trail;
    int64_t *const stamp = X->stamp;
    const int64_t current = ++X->st[X_STAMP];
    int32_t n = 0, nsingles = 0;
    /* z's closure: hvalue, and its false literals counted in hfalse (first_hop's way) */
    int found = hop_closure(f, S, X, z, current, &n, NULL, NULL) < 2;
    /* the singles: constraints one literal short whose last literal is open */
    const int32_t seen = ++P->tag;
    for (int32_t t = 0; t < n && !found; t++) {
        int32_t r = htrail[t];
        for (int32_t j = wstart[r ^ 1], end = wstart[(r ^ 1) + 1]; j < end; j++) {
            int32_t c = occ[j];
            if (ntrue[c] > 0 || hfalse[c] != cstart[c + 1] - cstart[c] - 1) continue;
            for (int32_t p = cstart[c]; p < cstart[c + 1]; p++) {
                int32_t lit = lits[p];
                if (value[lit] != -1 && hvalue[lit] != -1) {
                    if (hvalue[lit] == 0 && P->mark[lit] != seen) { /* (each single once) */
                        P->mark[lit] = seen;
                        P->single_lit[nsingles++] = lit;
                    }
                    break;
                }
            }
            hfalse[c] = -1; /* (each constraint's single once) */
        }
    }
    /* each single r: its closure beside z's, then the constraints that fire on both */
    for (int32_t s = 0; s < nsingles && !found; s++) {
        int32_t r = P->single_lit[s];
        if (hvalue[r] != 0) continue; /* (a repeat) */
        int32_t tag = ++P->tag;
        int64_t now = ++P->current;
        for (int32_t i = bstart[r] - 1; i < bstart[r + 1] && !found; i++) {
            int32_t q = i < bstart[r] ? r : bimp[i];
            if (value[q] == 1 || hvalue[q] == 1 || P->mark[q] == tag) continue;
            if (value[q] == -1 || hvalue[q] == -1 || P->mark[q ^ 1] == tag) {
                found = 1;
                break;
            }
            P->mark[q] = tag;
        }
        for (int32_t i = bstart[r] - 1; i < bstart[r + 1] && !found; i++) {
            int32_t q = i < bstart[r] ? r : bimp[i];
            if (P->mark[q] != tag) continue;
            for (int32_t j = wstart[q ^ 1], end = wstart[(q ^ 1) + 1]; j < end && !found; j++) {
                int32_t c = occ[j];
                if (ntrue[c] > 0) continue;
                if (P->stamp[c] != now) {
                    P->stamp[c] = now;
                    P->extra[c] = 0;
                }
                int32_t base = stamp[c] == current ? hfalse[c] : nfalse[c];
                if (base < 0) base = cstart[c + 1] - cstart[c] - 1; /* (marked above) */
                int32_t false_now = base + ++P->extra[c], width = cstart[c + 1] - cstart[c];
                if (false_now < width - 1) continue;
                if (false_now >= width) {
                    found = 1;
                    break;
                }
                /* c forces its last literal r3 (unless it holds already): r3's links.
                 * Links that imply only negations cannot meet a false literal here: a
                 * false negation is a true literal of the closures, z or r, and a link
                 * to not z or not r would have falsified r3 (contrapositive). */
                if (f->negative) continue;
                int32_t r3 = -1;
                for (int32_t p = cstart[c]; p < cstart[c + 1]; p++) {
                    int32_t lit = lits[p];
                    if (value[lit] != -1 && hvalue[lit] != -1 && P->mark[lit ^ 1] != tag) {
                        r3 = lit;
                        break;
                    }
                }
                if (r3 < 0 || value[r3] == 1 || hvalue[r3] == 1 || P->mark[r3] == tag) continue;
                found = !f->negative && links_meet(f, S, X, P, r3, tag);
            }
        }
        /* the second constraint may be another single of z, forced without r's help:
         * its links against both closures (made false by r's, it empties: above) */
        for (int32_t s2 = 0; s2 < nsingles && !found && !f->negative; s2++) {
            int32_t r2 = P->single_lit[s2];
            if (r2 != r && P->mark[r2] != tag && P->mark[r2 ^ 1] != tag)
                found = links_meet(f, S, X, P, r2, tag);
        }
    }
    for (int32_t t = 0; t < n; t++) {
        hvalue[htrail[t]] = 0;
        hvalue[htrail[t] ^ 1] = 0;
    }
    return found;
}

int64_t length_conflict_round(LCall *k, LState *S, LScratch *X, int32_t z, int64_t limit) {
    return conflict_round(k, S, X, z, limit);
}

int length_may_refute_within_two(LCall *k, LState *S, LScratch *X, int32_t z) {
    if (!k->f->shallow || S->st[ST_TRACK] != 0 || !closed(k->f, S)) return -1;
    PairScratch P = {0};
    if (pair_scratch(&P, k->f) < 0) {
        k->bad = 2;
        return -1;
    }
    int r = pair_refutable(k, S, X, &P, z);
    pair_scratch_free(&P);
    return r;
}

/* Each open candidate's shortest refutation with alternative cones, within `limit`, the
 * least of them lowering `limit` as it goes; lengths[v] is set where it is within.  When
 * no plain refutation is within `limit` (length_simplest_first's case: `limit` is one
 * less than length_candidates' least), the plain search that length_with_alternatives
 * adds cannot find one, and `alternatives_only` skips it: a candidate whose alternative
 * search overflowed then keeps its plain length, as there. */
static int64_t shorter(LCall *k, LState *S, LScratch *X, LAlternatives *A, int64_t ncand,
                       int64_t limit, int64_t *lengths, int alternatives_only) {
    int64_t best = limit, found = limit + 1;
    PairScratch P = {0};
    int pairs = alternatives_only && k->f->shallow && S->st[ST_TRACK] == 0 && closed(k->f, S) &&
                pair_scratch(&P, k->f) == 0;
    for (int64_t v = 0; v < ncand; v++) {
        if (S->value[2 * v] != 0 || (k->known_true && k->known_true[v])) continue;
        if (stopped(k)) break;
        int64_t length;
        if (alternatives_only) {
            if (lengths[v] == NEVER) continue; /* (the step's searches: no refutation) */
            if (pairs && best <= 2 ? !pair_refutable(k, S, X, &P, (int32_t)(2 * v))
                                   : conflict_round(k, S, X, (int32_t)(2 * v), best) > best)
                continue;
            length = search_alternatives(k, S, X, A, (int32_t)(2 * v), best);
            if (A->st[A_OVERFLOW]) continue;
        } else {
            length = length_with_alternatives(k, S, X, A, (int32_t)(2 * v), best);
        }
        if (k->bad) break;
        if (length <= best) {
            lengths[v] = length;
            best = found = length;
        }
    }
    if (pairs) pair_scratch_free(&P);
    return found;
}

int64_t length_shorter(LCall *k, LState *S, LScratch *X, LAlternatives *A, int64_t ncand,
                       int64_t limit, int64_t *lengths) {
    return shorter(k, S, X, A, ncand, limit, lengths, 0);
}

int length_model_mask(const LFormula *f, const LState *S, const int32_t *codes, int64_t ncodes,
                      int8_t *mask) {
    if (f->nv * 2 != f->nlits) return 0; /* (never) */
    memset(mask, 0, (size_t)f->nv);
    for (int64_t i = 0; i < ncodes; i++) {
        if (codes[i] < 0 || codes[i] >= f->nlits || (codes[i] & 1)) return 0;
        mask[codes[i] >> 1] = 1;
    }
    /* the facts: each one's literal must hold in the assignment */
    for (int32_t v = 0; v < f->nv; v++)
        if ((S->value[2 * v] == 1 && !mask[v]) || (S->value[2 * v] == -1 && mask[v])) return 0;
    /* the links: a true literal's implied ones true; the constraints: one literal true */
    for (int32_t lit = 0; lit < f->nlits; lit++) {
        if (mask[lit >> 1] != !(lit & 1)) continue; /* (lit false) */
        for (int32_t i = f->bstart[lit]; i < f->bstart[lit + 1]; i++) {
            int32_t q = f->bimp[i];
            if (mask[q >> 1] != !(q & 1)) return 0;
        }
    }
    for (int32_t c = 0; c < f->m; c++) {
        int holds = 0;
        for (int32_t p = f->cstart[c]; p < f->cstart[c + 1] && !holds; p++)
            holds = mask[f->lits[p] >> 1] == !(f->lits[p] & 1);
        if (!holds) return 0;
    }
    return 1;
}

int length_solved(const LState *S, int64_t ncand) {
    for (int64_t v = 0; v < ncand; v++)
        if (S->value[2 * v] == 0) return 0;
    return 1;
}

int64_t length_simplest_first(LCall *k, const LRating *r, int64_t budget, int64_t *searches,
                              int64_t *longest, int64_t *steps) {
    LState *S = r->S;
    const int64_t ncand = r->ncand, limit = r->limit > k->f->m ? k->f->m : r->limit;
    int64_t *lengths = r->lengths;
    *longest = 0;
    *steps = 0;
    while (!length_solved(S, ncand)) {
        if (*steps == budget) return -STATUS_PAUSED;
        if (searches) { /* the step's searches, counted before it runs */
            for (int64_t v = 0; v < ncand; v++) searches[0] += S->value[2 * v] == 0;
            if (searches[0] > searches[1]) return -STATUS_BUDGET;
        }
        int64_t best = length_candidates(k, S, r->X, ncand, limit, lengths);
        if (k->bad || k->stop) return -STATUS_STUCK;
        if (best > limit) return -STATUS_STUCK;
        if (best > (*longest > 2 ? *longest : 2)) {
            /* This step would raise the rating: look for shorter refutations the first
             * derivations missed (solvers.core.length.simplest_first says why only these
             * steps can change the rating). */
            int64_t shorter_length = shorter(k, S, r->X, r->A, ncand, best - 1, lengths, 1);
            if (k->bad || k->stop) return -STATUS_STUCK;
            if (shorter_length < best) best = shorter_length;
        }
        if (*steps < r->room) r->step_lengths[*steps] = best;
        *steps += 1;
        if (best > *longest) *longest = best;
        for (int64_t v = 0; v < ncand; v++) {
            /* (a candidate made true by an earlier elimination: a contradiction) */
            if (lengths[v] == best && length_eliminate(k, S, (int32_t)(2 * v + 1)) != NO_CONFLICT)
                return -STATUS_CONFLICT;
            if (k->bad) return -STATUS_STUCK;
        }
    }
    return -STATUS_SAT;
}

/* Grid i's givens as positive literal codes in g->codes; return how many. */
static int64_t grid_givens(const LGrids *g, int64_t i) {
    const int32_t n = g->n;
    const int64_t cells = (int64_t)n * n;
    const int8_t *row = g->values + i * cells;
    int64_t ngivens = 0;
    for (int64_t c = 0; c < cells; c++)
        if (row[c]) g->codes[ngivens++] = (int32_t)(2 * (n * c + row[c] - 1));
    return ngivens;
}

/* Whether grid i has a known solution (then g->mask holds it): 1; 0 when it has none;
 * -1 when the solution given is none of the state's. */
static int grid_solution(LCall *k, const LRating *r, const LGrids *g, int64_t i) {
    const int32_t n = g->n;
    const int64_t cells = (int64_t)n * n;
    const int8_t *solution = g->solutions ? g->solutions + i * cells : NULL;
    int known = 0, fits = 1;
    for (int64_t c = 0; solution && c < cells; c++) {
        known |= solution[c] != 0;
        if (solution[c] < 1 || solution[c] > n)
            fits = 0;
        else
            g->codes[c] = (int32_t)(2 * (n * c + solution[c] - 1));
    }
    if (!known) return 0;
    return fits && length_model_mask(k->f, r->S, g->codes, cells, g->mask) ? 1 : -1;
}

/* Rate grid i into o[0..3] (see length_rate_many): 0, or -1 when restarting it
 * overflowed the state (nothing written). */
static int rate_grid(LCall *k, const LRating *r, const LGrids *g, int64_t i, int64_t *o) {
    o[1] = o[2] = o[3] = 0;
    k->known_true = NULL;
    int64_t ngivens = grid_givens(g, i);
    int64_t conflict = length_restart(k, r->S, g->units, g->nunits, g->codes, ngivens);
    if (k->bad) return -1;
    if (conflict != NO_CONFLICT) {
        o[0] = -STATUS_CONFLICT;
        return 0;
    }
    int known = grid_solution(k, r, g, i);
    if (known < 0) {
        o[0] = -STATUS_BAD_SOLUTION;
        return 0;
    }
    k->known_true = known ? g->mask : NULL;
    int64_t searches[2] = {0, g->allowed}, status;
    do { /* one step a call: see the header */
        int64_t longest, steps;
        status = length_simplest_first(k, r, 1, searches, &longest, &steps);
        if (steps && longest > o[1]) o[1] = longest;
        o[2] += steps;
    } while (status == -STATUS_PAUSED);
    o[3] = searches[0];
    o[0] = status;
    return 0;
}

int64_t length_rate_many(LCall *k, const LRating *r, const LGrids *g, int64_t *out) {
    int64_t i = 0;
    for (; i < g->ngrids; i++) {
        if (stopped(k)) break;
        const int64_t begin = core_now_ns();
        int64_t *o = out + 5 * i;
        if (rate_grid(k, r, g, i, o) < 0) break;
        o[4] = core_now_ns() - begin;
        if (k->bad || k->stop) break;
    }
    k->known_true = NULL;
    return i;
}

int64_t length_failed_closure(LCall *k, LState *S, LScratch *X, int64_t ncand) {
    int64_t m = k->f->m;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int64_t v = 0; v < ncand; v++) {
            if (S->value[2 * v] != 0) continue;
            if (stopped(k)) return -STATUS_STUCK;
            int64_t length = length_shortest(k, S, X, (int32_t)(2 * v), m);
            if (k->bad) return -STATUS_STUCK;
            if (length <= m) {
                if (length_eliminate(k, S, (int32_t)(2 * v + 1)) != NO_CONFLICT)
                    return -STATUS_CONFLICT;
                if (k->bad) return -STATUS_STUCK;
                changed = 1;
            }
        }
    }
    return length_solved(S, ncand) ? -STATUS_SAT : -STATUS_STUCK;
}

/* ---- the chain of a refutation, read from its cone ---------------------------------- */

/* Read the chain of a refutation of `hypothesis` from its cone over the facts of S: links
 * first (as far as they go), then the lowest-numbered constraint of the cone that forces
 * a value or has none left, and again.  result: (steps, the constraint the contradiction
 * empties or -1, and else the two true literals that exclude each other), all -1 when
 * the cone does not refute the hypothesis.  Return 0, or -1 when out of memory, -2 when
 * out_* have too little room. */
int length_chain(const LFormula *f, const LState *S, const uint64_t *cone, int32_t hypothesis,
                 int64_t *out_lits, int64_t *out_constraints, int64_t room, int64_t result[4]) {
    int8_t *value = malloc((size_t)f->nlits);
    int32_t *members = malloc(sizeof(int32_t) * (size_t)(f->m > 0 ? f->m : 1));
    int32_t *stack = malloc(sizeof(int32_t) * (size_t)f->nlits);
    int status = 0;
    if (!value || !members || !stack) {
        status = -1;
        goto done;
    }
    memcpy(value, S->value, (size_t)f->nlits);
    int32_t nmembers = 0;
    for (int32_t c = 0; c < f->m; c++)
        if ((cone[c >> 6] >> (c & 63)) & 1) members[nmembers++] = c;
    value[hypothesis] = 1;
    value[hypothesis ^ 1] = -1;
    int32_t top = 0;
    stack[top++] = hypothesis;
    int64_t n = 0;
    for (;;) {
        while (top > 0) {
            int32_t x = stack[--top];
            for (int32_t i = f->bstart[x]; i < f->bstart[x + 1]; i++) {
                int32_t q = f->bimp[i];
                if (value[q] == -1) {
                    result[0] = n, result[1] = -1, result[2] = x, result[3] = q ^ 1;
                    goto done;
                }
                if (value[q] == 0) {
                    value[q] = 1;
                    value[q ^ 1] = -1;
                    stack[top++] = q; /* each literal once: the stack holds nlits at most */
                }
            }
        }
        int progress = 0;
        for (int32_t t = 0; t < nmembers; t++) {
            int32_t c = members[t], left = -1, open_lits = 0, satisfied = 0;
            for (int32_t p = f->cstart[c]; p < f->cstart[c + 1]; p++) {
                int32_t w = f->lits[p];
                if (value[w] == 1) {
                    satisfied = 1;
                    break;
                }
                if (value[w] == 0) {
                    open_lits++;
                    left = w;
                }
            }
            if (satisfied || open_lits > 1) continue;
            if (open_lits == 0) {
                result[0] = n, result[1] = c, result[2] = -1, result[3] = -1;
                goto done;
            }
            if (n >= room) {
                status = -2;
                goto done;
            }
            value[left] = 1;
            value[left ^ 1] = -1;
            out_lits[n] = left;
            out_constraints[n] = c;
            n++;
            stack[top++] = left;
            progress = 1;
            break; /* links first again */
        }
        if (!progress) {
            result[0] = result[1] = result[2] = result[3] = -1;
            goto done;
        }
    }
done:
    free(value);
    free(members);
    free(stack);
    return status;
}
