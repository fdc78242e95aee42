/* The depth loop of one grid, shared by the board's kernels (board_impl.h) and the
 * clause engine's (clauses.c): after the givens' propagation, the closures of depth 1,
 * 2, ... until the grid is filled, broken, or past the deepest depth asked.  Each
 * engine gives its two steps (is the grid filled, the closure of depth d) and keeps
 * the rest of the per-grid work (reading the givens, counters, clocks, the proof log).
 */
#ifndef SUDOKU_DEPTH_LOOP_H
#define SUDOKU_DEPTH_LOOP_H

#include "board.h"

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
 * and the depth reached in *depth, and STATUS_INTERRUPT when a signal stopped it (the
 * status then unwritten), STATUS_OPEN otherwise. */
static inline int depth_climb(const DepthSteps *s, int r, int max_depth, int8_t *solution,
                              int8_t *status, int16_t *depth) {
    int d = 0;
    for (;;) {
        if (r == STATUS_INTERRUPT) break;
        if (r == STATUS_BUDGET || r == s->timeout) {
            *status = (int8_t)(r == STATUS_BUDGET ? STATUS_BUDGET : s->timeout_status);
            break;
        }
        if (r != STATUS_OPEN) {
            *status = STATUS_CONFLICT;
            break;
        }
        if (s->filled(s->engine, solution)) {
            *status = STATUS_SAT;
            break;
        }
        if (d >= max_depth) {
            *status = STATUS_OPEN;
            break;
        }
        d++;
        r = s->closure(s->engine, d);
    }
    *depth = (int16_t)d;
    return r == STATUS_INTERRUPT ? STATUS_INTERRUPT : STATUS_OPEN;
}

#endif
