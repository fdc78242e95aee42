/* The clause engine's formula from the boundary's arrays (clause_arrays.c): the one
 * builder behind every Python type that holds a formula. */
#ifndef SUDOKU_CLAUSE_ARRAYS_H
#define SUDOKU_CLAUSE_ARRAYS_H

#include "boundary.h"
#include "clauses.h"

/* Build F from the DIMACS clauses flat[offsets[i] .. offsets[i+1]) (int64 arrays) over
 * nvars variables (1 .. 2^30), every value checked first (get_clause_arrays), the GIL released
 * while it builds: 0, or -1 with a Python exception set. */
int clauses_from_arrays(Clauses *F, PyObject *flat, PyObject *offsets, long long nvars);

#endif
