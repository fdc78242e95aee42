"""Shared fixtures for the engine tests: the Sudoku rule formula, puzzle lines, oracles,
and `variant` (each compiled variant of the board's kernels in turn).

The oracles share nothing with the engine: `satisfies` checks a model clause by clause
in plain Python, and `pysat_models` is the tests' one enumeration oracle
(tests/pysat_enumeration.py: PySAT's Minisat22 and blocking clauses).  Helpers are
handed out as session fixtures (tests never import a conftest module by name); public
puzzle sets come from the `public` fixture of tests/conftest.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pysat_enumeration
import pytest
from pysat.solvers import Minisat22

from encoder.encodings import given_literals, rule_formula
from encoder.geometry import standard
from encoder.grids import parse_cells
from solvers import core

GEOMETRY = standard(9)


def _grid(line: str) -> tuple[int, ...]:
    return parse_cells(line, GEOMETRY)


def _givens(line: str) -> list[int]:
    """Return the assumptions stating a puzzle: one positive literal per given."""
    return given_literals(_grid(line), GEOMETRY)


def _satisfies(model: Sequence[int], clauses: Sequence[Sequence[int]]) -> bool:
    """Return True when every clause has a literal that the model makes true."""
    true = set(model)
    return all(any(lit in true for lit in clause) for clause in clauses)


def _solved_cells(literals: Sequence[int]) -> int:
    """Return how many cell variables are true among the literals (81 = grid solved)."""
    return sum(1 for lit in literals if lit > 0)


def _random_cnf(
    rng: random.Random, num_vars: int, num_clauses: int, width: int = 3
) -> list[list[int]]:
    """Return a random CNF with clauses of `width` distinct variables, random signs."""
    return [
        [v if rng.random() < 0.5 else -v for v in rng.sample(range(1, num_vars + 1), width)]
        for _ in range(num_clauses)
    ]


EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"


@pytest.fixture(scope="session")
def easter_monster():
    """Easter Monster (T&E(2)) explained once for the session, to depth 2: (grid, the
    Explainer, its steps).  The explanation costs seconds and several tests read it."""
    from solvers.explain.steps import Explainer

    grid = _grid(EASTER_MONSTER)
    explainer = Explainer(GEOMETRY)
    return grid, explainer, list(explainer.steps(grid, 2))


@pytest.fixture(scope="session")
def givens():
    """givens(line): one positive literal per given of an 81-character puzzle line."""
    return _givens


@pytest.fixture(scope="session")
def grid():
    """grid(line): the puzzle as a tuple of 81 values, 0 for a blank."""
    return _grid


@pytest.fixture(scope="session")
def satisfies():
    """satisfies(model, clauses): the independent model checker."""
    return _satisfies


@pytest.fixture(scope="session")
def solved_cells():
    """solved_cells(literals): how many cells the literals fill (81 = solved)."""
    return _solved_cells


@pytest.fixture(scope="session")
def random_cnf():
    """random_cnf(rng, num_vars, num_clauses, width=3): a random CNF."""
    return _random_cnf


@pytest.fixture(scope="session")
def pysat_models():
    """pysat_models(clauses, num_vars, *, assumptions=(), limit=None): the models, no two
    alike on 1..num_vars, by Minisat22 and blocking clauses (tests/pysat_enumeration.py)."""
    return pysat_enumeration.pysat_models


@pytest.fixture(scope="session")
def sudoku_formula():
    """The exam's 9x9 rule formula (11,988 clauses over 729 variables)."""
    formula = rule_formula(GEOMETRY)
    assert formula.num_clauses == 11_988
    return formula


@pytest.fixture(scope="session")
def sudoku_engine(sudoku_formula):
    """One engine for the rule formula, shared: every query restores its state."""
    from solvers.core.engine import Engine

    return Engine(sudoku_formula.clauses, sudoku_formula.num_vars)


@pytest.fixture(scope="session")
def sudoku_minisat(sudoku_formula):
    solver = Minisat22(bootstrap_with=sudoku_formula.clauses)
    yield solver
    solver.delete()


@pytest.fixture(params=core.variants())
def variant(request):
    """Run the test on one compiled variant of the board's kernels, then go back to the
    best one."""
    best = core.variant()
    core.use_variant(request.param)
    yield request.param
    core.use_variant(best)
