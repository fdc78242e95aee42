/* Literal codes, the core's one conversion of DIMACS literals: the code of the 0-based
 * variable v (DIMACS v + 1) is 2 * v, of its negation 2 * v + 1, so `code ^ 1` is the
 * negation; and the one normal form of a clause that the core's formula builders read
 * (codes.c), so that they merge duplicates and drop tautologies alike. */
#ifndef SUDOKU_CODES_H
#define SUDOKU_CODES_H

#include <stdint.h>

/* Whether lit is a DIMACS literal of the variables 1..nvars: the one range check, for
 * the boundary (boundary.c) and the kernels that check a batch's sets themselves. */
static inline int dimacs_in_range(int64_t lit, int64_t nvars) {
    return lit != 0 && lit <= nvars && lit >= -nvars;
}

static inline int32_t lit_code(int64_t lit) {
    return lit > 0 ? (int32_t)(2 * (lit - 1)) : (int32_t)(2 * (-lit - 1) + 1);
}

static inline int64_t code_lit(int32_t code) {
    return code & 1 ? -(int64_t)(code / 2 + 1) : (int64_t)(code / 2 + 1);
}

/* Put a clause's codes codes[0 .. n) in normal form, in place: sorted, duplicates merged;
 * return how many are left, or -1 for a tautology (a literal and its negation). */
int64_t normal_clause(int32_t *codes, int64_t n);

#endif
