"""DRUP lemmas to LRAT (native/proof/lrat_write.c): each lemma's hints, the ids of the
clauses that unit propagation uses to refute its negation, found by a forward pass over
the formula and the lemmas before it; the proof trimmed to the lemmas the empty clause
rests on, each deleted after its last use, so that a checker's memory stays small.

The formula's clauses are numbered 1..m in the order of the CNF written beside the
proof (solvers.proofs.beside), the lemmas m + 1 on.  What it writes is the text LRAT
checkers read: `ID LITERALS 0 HINTS 0` a lemma, `ID d IDS 0` a deletion, and nothing
else: cake_lpr (the verified checker) refuses any comment line, so the claim a proof
makes is said by the comment lines of the CNF beside it.
"""

from __future__ import annotations

import numpy as np

from encoder.dimacs import Cnf, renamed
from solvers.core.extension import _core


def lrat_lines(cnf: Cnf, lemmas: np.ndarray) -> str:
    """Return the LRAT lines of the refutation of `cnf` by `lemmas` (flat DIMACS
    literals, each lemma closed by 0, the empty clause among them); ValueError when a
    lemma does not follow by unit propagation or none is the empty clause."""
    flat = np.ascontiguousarray(lemmas, np.int64)
    return _core.lrat_text(cnf.literals, cnf.offsets, cnf.num_vars, flat)


def lrat_of_drup(cnf: Cnf, text: str) -> str:
    """Return a DRUP refutation of `cnf` (a proof's text: comments, lemmas, `d` lines) in
    LRAT: every lemma with its hints, without the comments.  Its deletions are left out:
    each lemma then follows from more clauses, never fewer, and the writer deletes each
    clause after its last use itself.  ValueError when a lemma is not RUP (a RAT step) or
    the proof has no empty clause."""
    body = [line for line in text.splitlines() if line.strip() and line[0] not in "cd"]
    return lrat_lines(cnf, np.array(" ".join(body).split(), np.int64))


def renamed_lrat(text: str, names: np.ndarray) -> str:
    """Return LRAT lines of a renumbered formula (`encoder.dimacs.Cnf.compact`) under the
    file's own variables: each lemma's literals renamed, its id and hints kept (clause
    ids do not change with the variables' names)."""
    out = []
    for line in text.splitlines():
        parts = line.split()
        if parts[1] == "d":
            out.append(line)
            continue
        end = parts.index("0", 1)
        moved = renamed(list(map(int, parts[1:end])), names)
        out.append(" ".join([parts[0], *map(str, moved), *parts[end:]]))
    return "\n".join(out) + "\n"
