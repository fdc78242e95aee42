"""A rating proof and the formula it refutes, written side by side: `rate --proof DIR`
writes N.cnf and N.drup (or N.lrat) for grid N, and a one-grid run given a file P
writes P and P.cnf.

The formula is the grid's CNF as `python -m encoder GRID --givens units` writes its
clauses (the rating's geometry and encoding), and, when the rating filled the grid,
one more clause last: the one that excludes its solution (the negation of every
cell's value).  "Exactly one solution" is then "this formula is unsatisfiable", and
"no solution" is the grid's formula unsatisfiable as it is.  The proof is the
rating's lemmas, ended by the empty clause: once the lemmas propagate the solution,
the excluding clause is false.  So every such proof is a refutation that any DRUP
checker (or, in LRAT, any LRAT checker) verifies against the CNF beside it.  Comment
lines at the top of the CNF say the claim, and at the top of a DRUP proof too; an LRAT
proof has none, since cake_lpr's reader takes none (solvers.proofs.lrat).
"""

from __future__ import annotations

import functools

import numpy as np

from encoder.dimacs import Cnf, parse_cnf
from encoder.emit import encode_dimacs
from encoder.geometry import Geometry
from encoder.grids import format_line
from encoder.numbering import Grid, cell_var

FORMATS = ("drup", "lrat")  # --proof-format, and each proof file's extension


def excluding_clause(solution: Grid, geometry: Geometry) -> np.ndarray:
    """The clause no assignment with `solution`'s values satisfies: the negation of
    every cell's variable."""
    values = np.asarray(solution, np.int64)
    return -cell_var(np.arange(values.size), values, geometry.size)


@functools.lru_cache(maxsize=16)
def _rules(geometry: Geometry, encoding: str) -> tuple[int, str, Cnf]:
    """The rule formula of a geometry, encoded once: (variables, clause lines, the same
    clauses held flat)."""
    text = encode_dimacs(None, geometry, encoding)
    _, _, body = text.partition("\np cnf ")
    num_vars, rest = body.split(" ", 1)
    return int(num_vars), rest.split("\n", 1)[1], parse_cnf(text)


def _added(grid: Grid, geometry: Geometry, solution: Grid | None) -> list[np.ndarray]:
    """The clauses after the rules: one unit a given, then the clause excluding
    `solution` (None: none)."""
    values = np.asarray(grid, np.int64)
    cells = np.flatnonzero(values)
    added = [np.array([lit]) for lit in cell_var(cells, values[cells], geometry.size)]
    return added + ([] if solution is None else [excluding_clause(solution, geometry)])


def formula_beside(grid: Grid, geometry: Geometry, encoding: str, solution: Grid | None) -> str:
    """Return the DIMACS text of the formula a rating proof refutes: the grid's formula
    as `python -m encoder GRID --givens units` writes its clauses (the rules, then one
    unit a given), with the clause excluding `solution` last (None: the grid has no
    solution).  The rules are encoded once a geometry: a proof a grid costs a copy of
    their text, not their encoding."""
    num_vars, rules, cnf = _rules(geometry, encoding)
    added = _added(grid, geometry, solution)
    if solution is None:
        claim = "no solution: the grid's formula is unsatisfiable"
    else:
        claim = (
            "exactly one solution: the grid's formula with the clause excluding its "
            "solution (the last clause) is unsatisfiable"
        )
    head = (
        f"c sudoku-sat refuted formula: {claim}\n"
        f"c grid: {format_line(tuple(np.asarray(grid).tolist()), geometry)}\n"
        f"c clauses: the rules ({encoding}), then one unit a given, as `python -m encoder "
        "GRID --givens units` writes them (same geometry flags)"
        + (", then the clause excluding the solution\n" if solution is not None else "\n")
    )
    tail = "".join(" ".join(map(str, clause.tolist())) + " 0\n" for clause in added)
    return head + f"p cnf {num_vars} {len(cnf) + len(added)}\n" + rules + tail


def formula_cnf(grid: Grid, geometry: Geometry, encoding: str, solution: Grid | None) -> Cnf:
    """formula_beside's clauses held flat (what the LRAT writer numbers), built from the
    rules parsed once a geometry rather than by parsing a grid's text."""
    _, _, rules = _rules(geometry, encoding)
    added = _added(grid, geometry, solution)
    lengths = np.fromiter(map(len, added), np.int64, len(added))
    tail = np.cumsum(lengths) + rules.offsets[-1]
    literals = np.concatenate([rules.literals, *added]).astype(np.int32)
    return Cnf(rules.num_vars, literals, np.concatenate([rules.offsets, tail]))


def refutation(proof: str, formula: Cnf | None, proof_format: str, solved: bool) -> str:
    """Return the text of a rating proof (`solvers.proofs.write.rating_proofs`) as a
    refutation of `formula` (formula_cnf's clauses; LRAT only, None for DRUP) in `proof_format`:
    the empty clause appended to a proof of a filled grid, and in LRAT each lemma with its
    hints."""
    lines = proof.splitlines()
    body = [line for line in lines if line and not line.startswith("c")]
    if solved:
        body.append("0")
    if proof_format == "lrat":  # no comment: the CNF beside it says the claim (lrat.py)
        from solvers.proofs.lrat import lrat_of_drup

        return lrat_of_drup(formula, "\n".join(body))
    head = (
        f"{lines[0]}\nc it refutes the CNF written beside it (N.cnf for N.drup, P.cnf for "
        "P): check it with `python -m solvers check CNF PROOF`\n"
    )
    return head + "\n".join(body) + "\n"
