/* The one vocabulary of outcomes: every kernel of the core (board, clauses, search,
 * length, BxB) says how a call or a grid ended with one of these, and Python reads
 * them from the extension (solvers.core.extension), so no value is written twice.
 *
 * The first six are a grid's outcome in a depth loop and keep the values Python has
 * always seen there (they are stored in int8 arrays).  A kernel whose return value
 * also carries a count or an index (a number of literals, a clause) returns
 * -status instead, so that every count stays >= 0.
 */
#ifndef SUDOKU_STATUS_H
#define SUDOKU_STATUS_H

typedef enum Status {
    STATUS_OPEN = 0,         /* at a fixpoint, no contradiction, nothing settled */
    STATUS_SAT = 1,          /* filled: every cell (variable) has its value */
    STATUS_CONFLICT = 2,     /* a contradiction: the closure (or the grid) is UNSAT */
    STATUS_BAD = 3,          /* a value or literal outside its range (a caller's error) */
    STATUS_TIME = 4,         /* the opt-in time limit passed (at a check point) */
    STATUS_BUDGET = 5,       /* the work budget ran out (at a check point) */
    STATUS_INTERRUPT = 6,    /* a signal handler raised (Ctrl-C): the exception is set */
    STATUS_FOUND = 7,        /* search: the models asked for were found */
    STATUS_EXHAUSTED = 8,    /* search: no (further) model */
    STATUS_DECISIONS = 9,    /* search: the decision budget ran out */
    STATUS_STUCK = 10,       /* length: no refutation within the bound, nothing eliminated */
    STATUS_PAUSED = 11,      /* length: a search stopped at its bound, to be resumed */
    STATUS_BAD_SOLUTION = 12 /* length: a grid's given solution is no solution */
} Status;

#define STATUS_COUNT 13

#endif
