"""The tests' one model-enumeration oracle: PySAT's Minisat22 with blocking clauses.

Every test that needs "all the models" or "the solutions, up to a cap" of a formula asks
`pysat_models`: the encoder tests (through `encoder_oracle.models`), the engine's count
and enumeration tests, the golden file's recount.  It imports nothing of the project:
in particular not `puzzles.counting` (whose PySAT counter is code under test) nor
`solvers`, so a bug there cannot hide in the oracle that judges it.

A plain module, not a conftest: tests import it by name (`from pysat_enumeration import
pysat_models`); pytest puts tests/ on the import path for tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from pysat.solvers import Minisat22


def pysat_models(
    clauses: Iterable[Sequence[int]],
    num_vars: int,
    *,
    assumptions: Sequence[int] = (),
    limit: int | None = None,
) -> Iterator[tuple[int, ...]]:
    """Yield models of `clauses` under `assumptions`, no two alike on the variables
    1..num_vars, until there is none left or `limit` were yielded.

    Minisat22 finds a model; a blocking clause (the negation of its literals on
    1..num_vars) rules those values out; and so on.  For a Sudoku formula, `num_vars`
    = N**3 (the cell variables) yields each solution grid once, whatever auxiliary
    variables the encoding has.  Each model is Minisat22's whole assignment as a tuple
    in variable order: every variable of the clauses, and every one of 1..num_vars even
    where no clause mentions it.
    """
    with Minisat22(bootstrap_with=[list(clause) for clause in clauses]) as solver:
        for v in range(1, num_vars + 1):
            solver.add_clause([v, -v])  # make every variable known to the solver
        assumed = list(assumptions)
        found = 0
        while (limit is None or found < limit) and solver.solve(assumptions=assumed):
            model = tuple(solver.get_model())
            assert [abs(lit) for lit in model[:num_vars]] == list(range(1, num_vars + 1))
            yield model
            found += 1
            solver.add_clause([-lit for lit in model[:num_vars]])
