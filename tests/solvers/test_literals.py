"""The kernels' literal codes and their cell numbering (solvers.core.literals).

The codes must round-trip with DIMACS literals, and the compiled cell numbering must be
`encoder.numbering`'s to the last variable: a kernel that reads a solution or assumes
the givens relies on both.
"""

from __future__ import annotations

import numpy as np

from encoder import numbering
from solvers.core import literals


def test_codes_round_trip_and_pair_a_literal_with_its_negation():
    dimacs = np.array([v * sign for v in range(1, 2000) for sign in (1, -1)], np.int64)
    codes = literals.to_codes(dimacs)
    assert codes.tolist() == list(range(2 * 1999))  # 2v for x_{v+1}, 2v + 1 for its negation
    assert [literals.to_dimacs(int(code)) for code in codes] == dimacs.tolist()
    assert all(literals.to_code(-lit) == literals.to_code(lit) ^ 1 for lit in (1, 7, 729))


def test_compiled_cell_numbering_is_the_encoders_for_every_variable():
    for n in (4, 9, 16):
        for v in range(1, n**3 + 1):
            c, k = literals.cell_value(v, n)
            assert (c, k) == numbering.cell_value(v, n)
            assert literals.cell_var(c, k, n) == v == numbering.cell_var(c, k, n)
