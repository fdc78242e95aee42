"""Literal codes: the one place the kernels' literals and DIMACS ints are converted.

Outside the kernels a literal is a DIMACS int (25 is x25, -25 its negation).  Inside
them (`propagate`, `probe`, `search`, `length_kernels`) it is a code `2*v + sign` for
the 0-based variable v (DIMACS variable v+1), sign 1 for a negation, so `code ^ 1` is
the negation and `value[code]` reads a literal's value directly.  The functions here
are compiled with numba, so kernels call them as they would an inline expression, and
Python calls them too (each call then pays numba's dispatch, a microsecond).

The numbering of the cell variables (cell c holds value k) stays
`encoder.numbering`'s: `cell_var` and `cell_value` below are those same functions
compiled for the kernels, not a second copy of the arithmetic.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from encoder import numbering

cell_var = njit(cache=True)(numbering.cell_var)  # for kernels: see encoder.numbering
cell_value = njit(cache=True)(numbering.cell_value)


@njit(cache=True)
def to_code(dimacs):
    """Return the literal code of a nonzero DIMACS literal."""
    if dimacs > 0:
        return 2 * (dimacs - 1)
    return 2 * (-dimacs - 1) + 1


@njit(cache=True)
def to_dimacs(code):
    """Return the DIMACS literal of a literal code."""
    v = (code >> 1) + 1
    return -v if code & 1 else v


@njit(cache=True)
def to_codes(dimacs):
    """Return the literal codes (int32) of an array of nonzero DIMACS literals."""
    codes = np.empty(dimacs.shape[0], np.int32)
    for i in range(dimacs.shape[0]):
        codes[i] = to_code(dimacs[i])
    return codes
