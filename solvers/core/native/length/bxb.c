/* Berthier's BxB of depth-2 grids: T&E(B_p) over the refutation-length kernels
 * (solvers.ratings.bxb says what it computes and why one growing state serves p = 1, 2,
 * ...).  B_p eliminates every candidate with a refutation of length <= p, round and
 * round the candidates until a whole turn eliminates nothing (bxb_braid_closure);
 * T&E(B_p) tries each open candidate as a hypothesis in a workspace state and eliminates
 * it when B_p under it reaches a contradiction (bxb_trial_and_error).  The searches run
 * in a fixed order (candidates by number, hypotheses by closeness), so the ratings and
 * the work counts are reproducible.
 *
 * Budget and clock: a search past work[W_BUDGET] stops at a hypothesis boundary
 * (-STATUS_BUDGET), the deadline (the opt-in time limit) is read every CLOCK_EVERY
 * searches (-STATUS_TIME), and every search polls for signals (Ctrl-C).
 */
#include <stdlib.h>
#include <string.h>

#include "length.h"

int64_t bxb_braid_closure(LCall *k, const LTrial *t, LState *T, int64_t *next) {
    LScratch *X = t->X;
    int64_t *work = t->work;
    const int64_t ncand = t->ncand, limit = t->limit, deadline_ns = t->deadline_ns;
    const int64_t unbounded = k->f->m; /* no refutation is longer than all constraints */
    /* Round and round the candidates until a whole turn since the last elimination
     * eliminated nothing; the lengths found in that quiet turn are those of the final
     * state (a search bounded by `limit` says limit + 1 for longer ones). */
    int64_t quiet = 0, shortest_left = unbounded + 1, v = 0;
    while (quiet < ncand) {
        quiet++;
        if (T->value[2 * v] == 0) {
            *next = shortest_left;
            if (work[W_SEARCHES] >= work[W_BUDGET]) return -STATUS_BUDGET;
            if (work[W_SEARCHES] % CLOCK_EVERY == 0 && deadline_ns != NO_DEADLINE &&
                core_now_ns() >= deadline_ns)
                return -STATUS_TIME;
            if (k->poll && core_poll(k->poll)) k->stop = 1;
            if (k->stop) return -STATUS_STUCK;
            work[W_SEARCHES]++;
            int64_t length = length_shortest(k, T, X, (int32_t)(2 * v), limit);
            if (k->bad) return -STATUS_STUCK;
            if (length <= limit) {
                work[W_ELIMINATED]++;
                if (length_eliminate(k, T, (int32_t)(2 * v + 1)) != NO_CONFLICT)
                    return -STATUS_CONFLICT;
                if (k->bad) return -STATUS_STUCK;
                quiet = 0;
                shortest_left = unbounded + 1;
            } else if (length < shortest_left) {
                shortest_left = length;
            }
        }
        v = v + 1 < ncand ? v + 1 : 0;
    }
    *next = shortest_left;
    return length_solved(T, ncand) ? -STATUS_SAT : -STATUS_STUCK;
}

/* Make the facts of U those of T, with no cones (U's pool and TRACK stay). */
static void copy_facts(const LFormula *f, const LState *T, LState *U) {
    int64_t n = T->st[ST_TRAIL_SIZE];
    memcpy(U->value, T->value, (size_t)f->nlits);
    memcpy(U->level, T->level, sizeof(int32_t) * (size_t)f->nv);
    memcpy(U->reason, T->reason, sizeof(int32_t) * (size_t)f->nv);
    memcpy(U->trail, T->trail, sizeof(int32_t) * (size_t)n);
    memcpy(U->st, T->st, sizeof(int64_t) * ST_PROPAGATE_SLOTS);
    memset(U->cone, 0, sizeof(int32_t) * (size_t)f->nlits);
    memcpy(U->nfalse, T->nfalse, sizeof(int32_t) * (size_t)f->m);
    memcpy(U->ntrue, T->ntrue, sizeof(int32_t) * (size_t)f->m);
}

/* True when every fact of T is a fact of the saved values. */
static int within(const LState *T, const int8_t *saved, int32_t nlits) {
    for (int32_t lit = 0; lit < nlits; lit++)
        if (T->value[lit] == 1 && saved[lit] != 1) return 0;
    return 1;
}

int64_t bxb_try_hypothesis(LCall *k, const LTrial *t, int64_t v, int32_t *codes,
                           const int32_t *cones, int64_t *next) {
    LState *T = t->T, *U = t->U;
    LMemo *memo = t->memo;
    const int64_t limit = t->limit;
    const int32_t nlits = k->f->nlits;
    const int resume = memo->rows > 0;
    int8_t *saved = resume ? memo->saved + v * nlits : NULL;
    /* The saved state's facts follow from T and v too, and B_limit is confluent: when T
     * has no fact it lacks and it moves only beyond `limit`, nothing is tried. */
    if (resume && memo->has_saved[v] && memo->next_limit[v] > limit && within(T, saved, nlits)) {
        t->work[W_SKIPPED]++;
        *next = memo->next_limit[v];
        return -STATUS_STUCK;
    }
    t->work[W_HYPOTHESES]++;
    copy_facts(k->f, T, U);
    codes[0] = (int32_t)(2 * v);
    int64_t n = 1;
    if (resume && memo->has_saved[v])
        for (int32_t lit = 0; lit < nlits; lit++)
            if (saved[lit] == 1 && T->value[lit] == 0 && lit != 2 * v) codes[n++] = lit;
    if (length_assert_facts(k, U, codes, cones, n, REASON_DECISION) != NO_CONFLICT) {
        *next = 0;
        return -STATUS_CONFLICT;
    }
    if (k->bad) return -STATUS_STUCK;
    int64_t shortest_left;
    int64_t status = bxb_braid_closure(k, t, U, &shortest_left);
    if (k->bad || k->stop) return -STATUS_STUCK;
    if (resume && (status == -STATUS_STUCK || status == -STATUS_SAT)) {
        memcpy(saved, U->value, (size_t)nlits);
        memo->next_limit[v] = shortest_left;
        memo->has_saved[v] = 1;
    }
    *next = shortest_left;
    return status;
}

int64_t bxb_trial_and_error(LCall *k, const LTrial *t, const int8_t *true_somewhere,
                            int64_t *next) {
    const int32_t nlits = k->f->nlits;
    const int64_t ncand = t->ncand;
    LState *T = t->T;
    const LMemo *memo = t->memo;
    int64_t outer_next;
    int64_t status = bxb_braid_closure(k, t, T, &outer_next);
    *next = outer_next;
    if (status != -STATUS_STUCK || k->stop || k->bad) return status;
    int64_t quiet = 0, shortest_left = outer_next, at = 0;
    int32_t *codes = malloc(sizeof(int32_t) * (size_t)nlits);
    int32_t *cones = calloc((size_t)nlits, sizeof(int32_t)); /* all EMPTY */
    int64_t *closeness = calloc((size_t)ncand + 1, sizeof(int64_t));
    int64_t *order = malloc(sizeof(int64_t) * ((size_t)ncand + 1));
    int64_t *first = calloc((size_t)ncand + 2, sizeof(int64_t));
    if (!codes || !cones || !closeness || !order || !first) {
        k->bad = 2;
        status = -STATUS_STUCK;
        goto done;
    }
    /* Hypotheses whose saved state is closest to moving first (its open candidates
     * fewest), in a stable order: numpy's mergesort argsort, as a counting sort. */
    if (memo->rows > 0)
        for (int64_t v = 0; v < ncand; v++)
            if (memo->has_saved[v])
                for (int64_t y = 0; y < ncand; y++)
                    closeness[v] += memo->saved[v * nlits + 2 * y] == 0;
    for (int64_t v = 0; v < ncand; v++) first[closeness[v] + 1]++;
    for (int64_t c = 0; c <= ncand; c++) first[c + 1] += first[c];
    for (int64_t v = 0; v < ncand; v++) order[first[closeness[v]]++] = v;
    status = -STATUS_STUCK;
    while (quiet < ncand) {
        quiet++;
        int64_t v = order[at];
        at = at + 1 < ncand ? at + 1 : 0;
        if (T->value[2 * v] != 0 || true_somewhere[v]) continue;
        int64_t inner_next;
        int64_t inner = bxb_try_hypothesis(k, t, v, codes, cones, &inner_next);
        if (k->bad || k->stop) goto done;
        if (inner == -STATUS_TIME || inner == -STATUS_BUDGET) {
            status = inner;
            goto done;
        }
        if (inner == -STATUS_CONFLICT) {
            if (length_eliminate(k, T, (int32_t)(2 * v + 1)) != NO_CONFLICT) {
                status = -STATUS_CONFLICT;
                goto done;
            }
            if (k->bad) goto done;
            status = bxb_braid_closure(k, t, T, &outer_next);
            if (status != -STATUS_STUCK || k->stop || k->bad) {
                shortest_left = outer_next;
                goto done;
            }
            quiet = 0;
            shortest_left = outer_next;
        } else if (inner_next < shortest_left) {
            shortest_left = inner_next;
        }
    }
    status = -STATUS_STUCK;
done:
    *next = shortest_left;
    free(codes);
    free(cones);
    free(closeness);
    free(order);
    free(first);
    return status;
}
