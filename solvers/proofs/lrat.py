"""DRUP lemmas to LRAT (native/proof/lrat_write.c): each lemma's hints, the ids of the
clauses that unit propagation uses to refute its negation, found by a forward pass over
the formula and the lemmas before it; the proof trimmed to the lemmas the empty clause
rests on, each deleted after its last use, so that a checker's memory stays small.

The formula's clauses are numbered 1..m in the order of the CNF written beside the
proof (solvers.proofs.beside), the lemmas m + 1 on.  What it writes is the text LRAT
checkers read: `ID LITERALS 0 HINTS 0` a lemma, `ID d IDS 0` a deletion.
"""

from __future__ import annotations

import numpy as np

from encoder.dimacs import Cnf
from solvers.core.extension import _core


def lrat_lines(cnf: Cnf, lemmas: np.ndarray) -> str:
    """Return the LRAT lines of the refutation of `cnf` by `lemmas` (flat DIMACS
    literals, each lemma closed by 0, the empty clause among them); ValueError when a
    lemma does not follow by unit propagation or none is the empty clause."""
    flat = np.ascontiguousarray(lemmas, np.int64)
    return _core.lrat_text(cnf.literals, cnf.offsets, cnf.num_vars, flat)
