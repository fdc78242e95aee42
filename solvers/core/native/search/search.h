/* DPLL on the clause engine (search.c): complete search with unit propagation, or the
 * failed-literal closure of a depth at every node, for one model, the count of models
 * up to a limit, or the models one after the other (search.c says the order of
 * decisions).
 */
#ifndef SUDOKU_SEARCH_H
#define SUDOKU_SEARCH_H

#include "clauses.h"

/* A search's outcome: STATUS_FOUND (max_models models found: the trail holds the last
 * one), STATUS_EXHAUSTED (no further model above the base level), STATUS_DECISIONS (the
 * decision budget ran out), STATUS_BUDGET (the work budget ran out) or STATUS_TIME (the
 * deadline passed), both seen at the start of a node, or STATUS_INTERRUPT (a signal
 * handler raised: the exception is set). */

typedef struct Search {
    int8_t *flipped;     /* per level: its decision has been reversed already */
    /* search_branch's cursors: every literal below `binary` is assigned or in no open
     * binary clause, every variable below `free` is assigned.  Both only grow along a
     * branch (an assignment never opens a clause), so each level keeps the values it
     * had when its child level was opened, and backtracking restores them: a decision
     * then costs O(1) amortised, not a scan from the first variable. */
    int64_t binary, free;
    int64_t *saved;      /* per level: its (binary, free) when the next level opened */
    int32_t base;        /* the level the search runs above (the assumptions below) */
    int64_t decisions;   /* counters since the Search was made */
    int64_t backtracks;
} Search;

/* What one search asks: max_models (< 0: all), budget (decisions, < 0: none),
 * work_budget (the engine's work since the search began, < 0: none), deadline_ns
 * (core_now_ns(), < 0: none), probe_depth (0: unit propagation) and positive_only. */
typedef struct SearchAsk {
    int64_t max_models, budget, work_budget, deadline_ns;
    int probe_depth, positive_only;
} SearchAsk;

int search_init(Search *S, const Clauses *F);
void search_free(Search *S);
/* Enqueue the assumptions (DIMACS, checked by the caller) each at a level of its own as
 * MiniSat does, then open the base level: STATUS_OPEN or STATUS_CONFLICT (back at level 0). */
int search_start(Clauses *F, Search *S, const int64_t *lits, int64_t nlits);
/* Run DPLL above S->base (search_start first); with next_model, first backtrack from
 * the model the trail holds.  *models counts the models found by this call.  Until a
 * model is found, every conflict and every closed branch is written to F->log as a
 * lemma.  The trail is back at S->base unless the outcome is STATUS_FOUND. */
int search_run(Clauses *F, Search *S, const SearchAsk *ask, int next_model, int64_t *models,
               Poll *poll);
/* The lowest literal code of the first shortest clause not yet satisfied; -1 when every
 * variable is assigned (search.c says why).  Moves S's cursors. */
int32_t search_branch(const Clauses *F, Search *S);

#endif
