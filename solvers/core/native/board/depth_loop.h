/* The depth loop of one grid, shared by the board's kernels (board_impl.h) and the
 * clause engine's (clauses.c): after the givens' propagation, the closures of depth 1,
 * 2, ... until the grid is filled, broken, or past the deepest depth asked.  Each
 * engine gives its two steps (is the grid filled, the closure of depth d) and keeps
 * the rest of the per-grid work (reading the givens, counters, clocks, the proof log).
 */
#ifndef SUDOKU_DEPTH_LOOP_H
#define SUDOKU_DEPTH_LOOP_H

#include "core.h"

/* An engine's two steps: filled writes the solution and returns 1 when every cell is
 * placed; closure closes the current level at depth d and returns its outcome. */
typedef struct DepthSteps {
    int (*filled)(void *engine, int8_t *solution);
    int (*closure)(void *engine, int depth);
    void *engine;
    /* the closure's outcome for a grid's time limit (-1: it has none), and the grid's
     * status then */
    int timeout, timeout_status;
} DepthSteps;

/* Climb from r, the outcome of the givens' propagation: the grid's status in *status
 * and the depth reached in *depth, and CORE_INTERRUPT when a signal stopped it (the
 * status then unwritten), CORE_OK otherwise. */
static inline int depth_climb(const DepthSteps *s, int r, int max_depth, int8_t *solution,
                              int8_t *status, int16_t *depth) {
    int d = 0;
    for (;;) {
        if (r == CORE_INTERRUPT) break;
        if (r == CORE_BUDGET || r == s->timeout) {
            *status = (int8_t)(r == CORE_BUDGET ? DEPTH_BUDGET : s->timeout_status);
            break;
        }
        if (r != CORE_OK) {
            *status = DEPTH_UNSAT;
            break;
        }
        if (s->filled(s->engine, solution)) {
            *status = DEPTH_SAT;
            break;
        }
        if (d >= max_depth) {
            *status = DEPTH_OPEN;
            break;
        }
        d++;
        r = s->closure(s->engine, d);
    }
    *depth = (int16_t)d;
    return r == CORE_INTERRUPT ? CORE_INTERRUPT : CORE_OK;
}

#endif
