/* The model check (clause_check.c): which clause an assignment falsifies. */
#ifndef SUDOKU_CLAUSE_CHECK_H
#define SUDOKU_CLAUSE_CHECK_H

#include <stdint.h>

/* The index of the first of the m clauses lits[offsets[c] .. offsets[c + 1]) (DIMACS
 * literals; the caller checked that offsets rise within lits) without a true literal
 * when variable v is true iff v <= ncols and row[v - 1] is nonzero, or -1.  `value` is
 * room for 2 * ncols + 1 bytes. */
int64_t first_falsified_row(const int32_t *lits, const int64_t *offsets,
                            int64_t m, const uint8_t *row, int64_t ncols, uint8_t *value);

#endif
