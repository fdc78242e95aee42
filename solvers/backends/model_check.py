"""Which clause a full assignment falsifies, in C: the backends' check of every model
they return (`solvers.backends.base._ClauseCheck`).

It reads the flat clause arrays of `encoder.dimacs.Cnf` literal by literal and shares
no code with the engine's propagation (solvers/core/native/proof/clause_check.c), so it stays an
independent check of the engine's closures as well as of PySAT's and the binaries'
models.  Compiled, it takes a few microseconds on the 9x9 rule formula, where numpy's
whole-formula pass took about 50 and dominated the harness's time per answer.
`falsified_rows` checks many assignments in one call (the harness's closures over a
chunk of grids).  Bad arrays are a ValueError.
"""

from __future__ import annotations

import numpy as np

from solvers.core.extension import load_extension

_check = load_extension("_check")


def first_falsified(
    literals: np.ndarray, offsets: np.ndarray, model: np.ndarray, num_vars: int
) -> int:
    """Return the index of the first clause without a true literal under `model` (int64
    DIMACS literals; variables it leaves out and those beyond num_vars are false), or -1.
    `literals` (int32) and `offsets` (int64) are a Cnf's."""
    return _check.first_falsified(literals, offsets, model, num_vars)


def falsified_rows(literals: np.ndarray, offsets: np.ndarray, true: np.ndarray) -> np.ndarray:
    """`first_falsified` of many assignments in one call: row r of `true` (booleans) says
    which variables are true (column v-1 for variable v, the others false); return the
    index of the first clause each row leaves without a true literal, or -1 (int64)."""
    return np.frombuffer(_check.falsified_rows(literals, offsets, true), np.int64)
