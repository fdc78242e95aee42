"""Literal codes: the one place the kernels' literals and DIMACS ints are converted.

Outside the kernels a literal is a DIMACS int (25 is x25, -25 its negation).  Inside
them (the C core's clause engine and length kernels) it is a code `2*v + sign` for the
0-based variable v (DIMACS variable v+1), sign 1 for a negation, so `code ^ 1` is the
negation and `value[code]` reads a literal's value directly.  Python hands codes to the
kernels and reads theirs back through these functions; `to_codes` converts a whole
array at once.  (The numbering of the cell variables is `encoder.numbering`'s.)
"""

from __future__ import annotations

import numpy as np

from encoder.numbering import cell_value, cell_var  # noqa: F401  (tests/solvers/test_literals.py)


def to_code(dimacs: int) -> int:
    """Return the literal code of a nonzero DIMACS literal."""
    dimacs = int(dimacs)
    return 2 * (dimacs - 1) if dimacs > 0 else 2 * (-dimacs - 1) + 1


def to_dimacs(code: int) -> int:
    """Return the DIMACS literal of a literal code."""
    code = int(code)
    v = (code >> 1) + 1
    return -v if code & 1 else v


def to_codes(dimacs: np.ndarray) -> np.ndarray:
    """Return the literal codes (int32) of an array of nonzero DIMACS literals."""
    lits = np.asarray(dimacs, np.int64)
    return (2 * np.abs(lits) - 2 + (lits < 0)).astype(np.int32)
