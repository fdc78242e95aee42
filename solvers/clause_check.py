"""Which clause a full assignment falsifies, compiled: the backends' check of every
model they return (`solvers.backends._ClauseCheck`).

It reads the flat clause arrays of `encoder.dimacs.Cnf` literal by literal and shares
no code with the engine's propagation, so it stays an independent check of the
engine's closures as well as of PySAT's and the binaries' models.  Compiled, it takes
a few microseconds on the 9x9 rule formula, where numpy's whole-formula pass took
about 50 and dominated the harness's time per answer.  `falsified_rows` checks many
assignments in one call (the harness's closures over a chunk of grids).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def first_falsified(literals, offsets, model, num_vars):
    """Return the index of the first clause without a true literal under `model` (DIMACS
    literals; variables it leaves out and those beyond num_vars are false), or -1."""
    true = np.zeros(num_vars + 1, np.bool_)
    for i in range(model.shape[0]):
        lit = model[i]
        if 0 < lit <= num_vars:
            true[lit] = True
    for c in range(offsets.shape[0] - 1):
        satisfied = False
        for p in range(offsets[c], offsets[c + 1]):
            lit = literals[p]
            if (lit > 0 and true[lit]) or (lit < 0 and not true[-lit]):
                satisfied = True
                break
        if not satisfied:
            return c
    return -1


@njit(cache=True)
def falsified_rows(literals, offsets, true):
    """`first_falsified` of many assignments in one call: row r of `true` says which
    variables are true (column v-1 for variable v, the others false); return the index
    of the first clause each row leaves without a true literal, or -1."""
    out = np.full(true.shape[0], -1, np.int64)
    for r in range(true.shape[0]):
        row = true[r]
        for c in range(offsets.shape[0] - 1):
            satisfied = False
            for p in range(offsets[c], offsets[c + 1]):
                lit = literals[p]
                if (lit > 0 and row[lit - 1]) or (lit < 0 and not row[-lit - 1]):
                    satisfied = True
                    break
            if not satisfied:
                out[r] = c
                break
    return out
