"""Tiny CNF formulas on the edges of the format, with their status worked out by hand:
the one table that tests/solvers/test_engine.py (the home engine) and
tests/solvers/test_backends.py (every registered solver) both run.

A plain module in the tests' folder, imported by name (`from tiny_formulas import
TINY`), as tests/encoder/encoder_oracle.py is.
"""

from __future__ import annotations

from solvers.results import Status

# name, clauses, num_vars, expected status
TINY = [
    ("no_clauses", [], 0, Status.SAT),
    ("no_clauses_free_vars", [], 3, Status.SAT),
    ("empty_clause", [[]], 2, Status.UNSAT),
    ("empty_clause_among_others", [[1, 2], [], [-1]], 2, Status.UNSAT),
    ("unit", [[1]], 1, Status.SAT),
    ("units", [[1], [-2], [2, 3]], 3, Status.SAT),
    ("contradicting_units", [[1], [-1]], 1, Status.UNSAT),
    ("tautology_only", [[1, -1]], 1, Status.SAT),
    ("tautology_among_others", [[1, -1], [2, 3]], 3, Status.SAT),
    ("duplicate_literals", [[1, 1, 1], [-1, -1, 2, 2], [-2, -2]], 2, Status.UNSAT),
    ("duplicate_literal_units", [[1, 1], [-1, -1, 2], [-2, -2]], 2, Status.UNSAT),
    ("units_propagate_to_conflict", [[1], [-1, 2], [-2, 3], [-3, -1]], 3, Status.UNSAT),
    ("long_clause_conflict", [[1, 2, 3], [-1], [-2], [-3]], 3, Status.UNSAT),
    ("needs_a_decision", [[1, 2], [-1, 2], [1, -2, 3]], 3, Status.SAT),
    ("pigeons_3_in_2", [[1, 2], [3, 4], [5, 6], [-1, -3], [-1, -5], [-3, -5],
                        [-2, -4], [-2, -6], [-4, -6]], 6, Status.UNSAT),
    ("xor_chain_sat", [[1, 2], [-1, -2], [2, 3], [-2, -3], [3, 4, 5]], 5, Status.SAT),
]  # fmt: skip

TINY_IDS = [name for name, *_ in TINY]
