/* DPLL on the clause engine: the exam's closing remark taken to its end, hypotheses
 * nested until every variable is decided.  Chronological backtracking over the
 * engine's trail, no clause learning, no restarts, because what the project measures
 * is how much guessing a grid needs, and DPLL's decisions and backtracks are easy to
 * interpret.  At each node the trail is propagated, or closed under the failed-literal
 * rule of the asked depth (clauses.c), so a search with probing measures how many
 * guesses remain once depth-k reasoning is used.
 *
 * Branching (search_branch): the lowest unassigned literal of the first shortest clause
 * that is not yet satisfied (for Sudoku: the cell, or the row, column or box place of a
 * value, with the fewest candidates), tried true first; when only binary clauses or
 * free variables are left, the lowest variable, tried false first, as MiniSat does.
 * Propagation reorders literals inside clauses, so the choice never depends on
 * positions: the same question gets the same decisions whatever the engine answered
 * before.
 *
 * The decision stack is trail_lim; flipped[d] says whether level d's decision has
 * already been reversed, which is all chronological backtracking needs.  The trail
 * holds a model when a search returns STATUS_FOUND, so the next call with next_model
 * backtracks from it: enumeration without blocking clauses.  Work budgets and the
 * deadline are checked at the start of a node only (and inside the closures, at their
 * hypothesis boundaries), so a search stopped by its budget stops at the same node on
 * every machine.
 */
#include "search.h"

#include <stdlib.h>

#include "codes.h"
#include "proof_log.h"

int search_init(Search *S, const Clauses *F) {
    S->flipped = calloc((size_t)F->nvars + 8, sizeof(int8_t)); /* a level per decision */
    S->saved = calloc(2 * ((size_t)F->nvars + 8), sizeof(int64_t));
    S->base = 0;
    S->binary = S->free = 0;
    S->decisions = S->backtracks = 0;
    return S->flipped && S->saved ? 0 : -1;
}

void search_free(Search *S) {
    free(S->flipped);
    free(S->saved);
    S->flipped = NULL;
    S->saved = NULL;
}

int search_start(Clauses *F, Search *S, const int64_t *lits, int64_t nlits) {
    clauses_cancel_until(F, 0);
    if (F->root_conflict) return STATUS_CONFLICT;
    for (int64_t i = 0; i < nlits; i++) {
        int32_t code = lit_code(lits[i]);
        if (F->value[code] == 1) continue;
        if (F->value[code] == -1 || (clauses_new_level(F), clauses_enqueue(F, code), clauses_propagate(F)) != STATUS_OPEN) {
            clauses_cancel_until(F, 0);
            return STATUS_CONFLICT;
        }
    }
    clauses_new_level(F); /* an empty level: facts derived by probing sit above the assumptions */
    S->base = F->dlevel;
    S->binary = S->free = 0;
    return STATUS_OPEN;
}

int32_t search_branch(const Clauses *F, Search *S) {
    const int8_t *value = F->value;
    int32_t best = -1;
    int64_t best_size = INT64_MAX;
    for (int64_t c = 0; c < F->nlong; c++) {
        int64_t size = 0;
        int32_t first = -1;
        int satisfied = 0;
        for (int64_t k = F->cstart[c], end = k + F->lits[k - 1]; k < end; k++) {
            int32_t lit = F->lits[k];
            if (value[lit] == 1) {
                satisfied = 1;
                break;
            }
            if (value[lit] == 0) {
                size++;
                if (first < 0 || lit < first) first = lit;
            }
        }
        if (!satisfied && size < best_size) {
            best = first;
            best_size = size;
            if (size <= 2) break; /* after propagation no open clause is shorter */
        }
    }
    if (best >= 0) return best;
    int64_t nlit = 2 * (int64_t)F->nvars;
    for (; S->binary < nlit; S->binary++) { /* an open binary clause (¬lit ∨ q): ¬lit first */
        int64_t lit = S->binary;
        if (value[lit] == 0)
            for (int64_t i = F->bstart[lit]; i < F->bstart[lit + 1]; i++)
                if (value[F->bimp[i]] == 0) return (int32_t)lit ^ 1;
    }
    for (; S->free < F->nvars; S->free++) /* free variables, false first */
        if (value[2 * S->free] == 0) return (int32_t)(2 * S->free + 1);
    return -1;
}

/* Open a level for `lit` as a decision (flipped: its second branch), the cursors of
 * the level below kept for the backtrack to it. */
static void decide(Clauses *F, Search *S, int32_t lit, int8_t flipped) {
    S->saved[2 * F->dlevel] = S->binary;
    S->saved[2 * F->dlevel + 1] = S->free;
    clauses_new_level(F);
    S->flipped[F->dlevel] = flipped;
    clauses_enqueue(F, lit);
}

int search_run(Clauses *F, Search *S, const SearchAsk *ask, int next_model, int64_t *models,
               Poll *poll) {
    const uint64_t work0 = F->work;
    int64_t found = 0, decisions = 0;
    int backtrack = next_model;
    int outcome = -1;
    for (;;) {
        if (!backtrack) {
            /* A node starts here with its literals enqueued: where the bounds are read. */
            if (core_poll(poll)) {
                outcome = STATUS_INTERRUPT;
                break;
            }
            if (ask->work_budget >= 0 && F->work - work0 > (uint64_t)ask->work_budget) {
                outcome = STATUS_BUDGET;
                break;
            }
            if (ask->deadline_ns >= 0 && core_now_ns() >= ask->deadline_ns) {
                outcome = STATUS_TIME;
                break;
            }
            int r = clauses_propagate(F);
            if (r == STATUS_OPEN && ask->probe_depth > 0)
                r = clauses_closure(F, ask->probe_depth, ask->positive_only, poll, work0,
                                ask->work_budget);
            if (r == STATUS_INTERRUPT) {
                outcome = STATUS_INTERRUPT;
                break;
            }
            if (r == STATUS_BUDGET) {
                outcome = STATUS_BUDGET;
                break;
            }
            if (r == STATUS_TIME) { /* a closure's own time limit (F->limit_ns): not a conflict */
                outcome = STATUS_TIME;
                break;
            }
            if (r != STATUS_OPEN) {
                F->conflicts++; /* as the closure's: one count of every contradiction */
                if (found == 0) log_lemma(F, F->dlevel, -1);
                backtrack = 1;
            } else {
                int32_t lit = search_branch(F, S);
                if (lit < 0) {
                    found++;
                    if (ask->max_models >= 0 && found >= ask->max_models) {
                        *models = found;
                        return STATUS_FOUND;
                    }
                    backtrack = 1; /* look for the next model */
                } else {
                    if (ask->budget >= 0 && decisions >= ask->budget) {
                        outcome = STATUS_DECISIONS;
                        break;
                    }
                    decisions++;
                    S->decisions++;
                    decide(F, S, lit, 0);
                    continue;
                }
            }
        }
        /* Chronological backtracking: reverse the deepest decision not yet reversed. */
        backtrack = 0;
        int32_t level = F->dlevel;
        while (level > S->base && S->flipped[level]) {
            if (found == 0) log_lemma(F, level - 1, -1); /* both branches of level failed */
            level--;
        }
        if (level <= S->base) {
            outcome = STATUS_EXHAUSTED;
            break;
        }
        int32_t decision = F->trail[F->trail_lim[level - 1]];
        clauses_cancel_until(F, level - 1);
        S->binary = S->saved[2 * (level - 1)];
        S->free = S->saved[2 * (level - 1) + 1];
        S->backtracks++;
        decide(F, S, decision ^ 1, 1);
    }
    clauses_cancel_until(F, S->base);
    *models = found;
    return outcome;
}
