"""The engine's proof log: where the native core's kernels write the lemmas they learn.

A lemma is a clause the formula implies and that unit propagation proves at once
(reverse unit propagation, RUP: assume its negation, propagate, meet a conflict), in
the order the engine learns it.  Every fact the engine learns is such a lemma once it
is written as a clause over the hypotheses it was learnt under:

- a failed literal l found at the bottom frame of a closure is the unit lemma (¬l);
- a failed literal m found under the hypotheses h1 .. hk (nested frames of a deeper
  closure, or search decisions) is the lemma (¬h1 ∨ .. ∨ ¬hk ∨ ¬m): under h1 .. hk,
  the earlier lemmas propagate everything the engine had on its trail, so m fails by
  propagation again;
- a conflict of DPLL under decisions d1 .. dk is the lemma (¬d1 ∨ .. ∨ ¬dk), and once
  both branches of dk failed, (¬d1 ∨ .. ∨ ¬dk-1) follows by propagation from the two.

Only what the answer rests on is kept.  A deeper closure tests hundreds of hypotheses
that do not fail, and the lemmas learnt under one of them prove nothing the answer
needs: when a hypothesis passes, the log is cut back to where it stood when the
hypothesis was made (log[MARK + frame]), so a depth-2 proof holds the inner lemmas of
the failed hypotheses only.

The log is a flat int64 array the caller owns: log[HEAD] is the next free slot,
log[BASE] the decision level above which levels are hypotheses or decisions (the
levels at and below it hold assumptions, which must be unit clauses of the formula the
proof is checked against: the givens), log[MARK + d] where frame d's hypothesis began,
and from FIRST on the lemmas as DIMACS literals, each closed by 0, as a DRUP proof
writes them.  A log of length 0 records nothing (the
kernels' default: one length test per learnt fact, nothing in the propagation loop).
A full log keeps counting in log[HEAD] without writing: the caller sees HEAD beyond
the array, and asks again with a bigger one (the answers do not change).

The kernels that write it are C (solvers/core/native/proof/proof_log.h: log_lemma, log_mark,
log_forget, the layout's slots as LOG_HEAD, LOG_BASE, LOG_MARK, LOG_FIRST); this module
holds the layout for Python, which makes logs and reads them.
"""

from __future__ import annotations

import numpy as np

from solvers.core.extension import _core

# The layout's slots: proof_log.h's, read from the extension (one definition).
HEAD = _core.LOG_HEAD  # next free slot of the log
BASE = _core.LOG_BASE  # lemmas hold the hypotheses of levels BASE+1 .. (above the assumptions)
MARK = _core.LOG_MARK  # MARK + d: the head when frame d made its hypothesis
MARKED_FRAMES = _core.LOG_MARKED_FRAMES  # frames deeper keep their passed hypotheses' lemmas
FIRST = _core.LOG_FIRST  # the first lemma's slot

NO_LOG = np.zeros(0, np.int64)  # the kernels' "record nothing"


def new_log(capacity: int) -> np.ndarray:
    """Return an empty log with room for `capacity` literals and terminators."""
    log = np.empty(FIRST + capacity, np.int64)  # only the header is read before written
    log[:FIRST] = 0
    log[HEAD] = FIRST
    return log
