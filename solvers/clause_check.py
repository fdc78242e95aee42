"""Which clause a full assignment falsifies, compiled: the backends' check of every
model they return (`solvers.backends._ClauseCheck`).

It reads the flat clause arrays of `encoder.dimacs.Cnf` literal by literal and shares
no code with the engine's propagation, so it stays an independent check of the
engine's closures as well as of PySAT's and the binaries' models.  Compiled, it takes
a few microseconds on the 9x9 rule formula, where numpy's whole-formula pass took
about 50 and dominated the harness's time per answer.
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
