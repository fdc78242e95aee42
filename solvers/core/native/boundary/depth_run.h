/* The record of a depth loop, the board's and the clause engine's alike: the grids it
 * rates and the arrays it answers in.
 */
#ifndef SUDOKU_DEPTH_RUN_H
#define SUDOKU_DEPTH_RUN_H

#include <stdint.h>

/* A depth loop's grids (cells int8 each) and its answers, one entry a grid: status,
 * depth, solutions (cells int8 a grid), work and ns; budget < 0: none; limit_ns, each
 * grid's opt-in time limit (0: none; the board's, the clause engine keeps its own in
 * Clauses).  The board's alone, when not NULL: open, the cell variables its closure
 * leaves open (a candidate of a cell not placed is one), and conflicts, as the clause
 * engine's closures count them (the harness's closure solvers report both). */
typedef struct DepthRun {
    const int8_t *grids;
    int64_t count;
    int max_depth, positive_only;
    int64_t budget;
    int8_t *status;
    int16_t *depth;
    int8_t *solutions;
    int64_t *work, *ns;
    int64_t limit_ns;
    int64_t *open, *conflicts;
} DepthRun;

#endif
