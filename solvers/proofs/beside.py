"""A rating proof and the formula it refutes, written side by side: `rate --proof DIR`
writes N.cnf and N.drup (or N.lrat) for grid N, and a one-grid run given a file P
writes P and P.cnf.

The formula is the grid's CNF as `python -m encoder GRID` writes it (the rating's
geometry and encoding), and, when the rating filled the grid, one more clause last:
the one that excludes its solution (the negation of every cell's value).  "Exactly one
solution" is then "this formula is unsatisfiable", and "no solution" is the grid's
formula unsatisfiable as it is.  The proof is the rating's lemmas, ended by the empty
clause: once the lemmas propagate the solution, the excluding clause is false.  So
every such proof is a refutation that any DRUP checker (or, in LRAT, any LRAT checker)
verifies against the CNF beside it, and a comment line at the top of both files says
the claim.
"""

from __future__ import annotations

import numpy as np

from encoder.dimacs import parse_cnf
from encoder.emit import encode_dimacs
from encoder.geometry import Geometry
from encoder.numbering import Grid, cell_var

FORMATS = ("drup", "lrat")  # --proof-format, and each proof file's extension


def excluding_clause(solution: Grid, geometry: Geometry) -> np.ndarray:
    """The clause no assignment with `solution`'s values satisfies: the negation of
    every cell's variable."""
    values = np.asarray(solution, np.int64)
    return -cell_var(np.arange(values.size), values, geometry.size)


def formula_beside(grid: Grid, geometry: Geometry, encoding: str, solution: Grid | None) -> str:
    """Return the DIMACS text of the formula a rating proof refutes: the grid's formula,
    with the clause excluding `solution` last (None: the grid has no solution)."""
    text = encode_dimacs(grid, geometry, encoding)
    if solution is None:
        claim = "no solution: the grid's formula is unsatisfiable"
        return f"c sudoku-sat refuted formula: {claim}\n{text}"
    claim = (
        "exactly one solution: the grid's formula with the clause excluding its solution "
        "(the last clause) is unsatisfiable"
    )
    head, _, body = text.partition("\np cnf ")
    num_vars, rest = body.split(" ", 1)
    count, clauses = rest.split("\n", 1)
    extra = " ".join(map(str, excluding_clause(solution, geometry).tolist())) + " 0\n"
    return (
        f"c sudoku-sat refuted formula: {claim}\n{head}\n"
        f"p cnf {num_vars} {int(count) + 1}\n{clauses}{extra}"
    )


def refutation(proof: str, formula: str, proof_format: str, solved: bool) -> str:
    """Return the text of a rating proof (`solvers.proofs.write.rating_proofs`) as a
    refutation of `formula` (formula_beside's text) in `proof_format`: the empty clause
    appended to a proof of a filled grid, and in LRAT each lemma with its hints."""
    lines = proof.splitlines()
    claim = lines[0].replace("(DRUP)", f"({proof_format.upper()})")  # the rating's claim
    head = (
        f"{claim}\nc it refutes the CNF written beside it (N.cnf for N.{proof_format}, P.cnf "
        f"for P): check it with `python -m solvers check CNF PROOF`\n"
    )
    body = [line for line in lines if line and not line.startswith("c")]
    if solved:
        body.append("0")
    if proof_format == "drup":
        return head + "\n".join(body) + "\n"
    from solvers.proofs.lrat import lrat_lines

    lemmas = np.array(" ".join(body).split(), np.int64)
    return head + lrat_lines(parse_cnf(formula), lemmas)
