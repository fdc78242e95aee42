/* Every bound the core's boundary enforces, defined once: the front ends' flags and the
 * Python faces read them from the extension (solvers.core.extension), never a copy. */
#ifndef SUDOKU_BOUNDS_H
#define SUDOKU_BOUNDS_H

#include <stdint.h>

#define MAX_DEPTH 100                   /* nesting of hypotheses: frames kept per depth */
#define MAX_SIDE 64                     /* the board: one bit per value in a 64-bit word */
#define MAX_COUNT (INT64_C(1) << 62)    /* counts and work budgets: room in int64 sums */
#define MAX_SECONDS 1000000             /* time limits: nanosecond deadlines fit int64 */

#endif
