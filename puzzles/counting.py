"""Counting a grid's solutions up to a cap: the counter interface, the PySAT counter,
and what uniqueness and minimality ask of a counter.

Two independent counters answer the same question (`SolutionCounter`: `count(grid,
cap) -> SolutionCount`) and the tests require them to agree:
- the home engine's DPLL search (`solvers.core.rules.GridRules.count`): the board's
  DPLL in the C core for the rules it computes (else `Engine.count`), which enumerates
  models by chronological backtracking;
- `PysatCounter`: PySAT (Minisat22 by default) with blocking clauses.  After each model
  the clause "not all of these cell values" is added; the blocking clauses of one call
  carry a fresh selector literal, assumed during the call and retired afterwards (unit
  ¬s), so one loaded solver serves a whole file.
"""

from __future__ import annotations

from typing import Protocol

from pysat.solvers import Solver

from encoder.encodings import given_literals, rule_formula
from encoder.geometry import Geometry
from encoder.numbering import Grid
from solvers.budgets import OVER_BUDGET
from solvers.limits import pysat_solve
from solvers.results import SolutionCount


class PysatCounter:
    """Counts solutions with a PySAT solver and blocking clauses over the cell variables."""

    def __init__(self, geometry: Geometry, name: str = "minisat22"):
        self.geometry = geometry
        formula = rule_formula(geometry, "centrale")
        self.solver = Solver(name=name, bootstrap_with=formula.clauses)
        self._cell_vars = geometry.size**3
        self._next_selector = formula.num_vars + 1

    def count(self, grid: Grid, cap: int = 2) -> SolutionCount:
        """Return the number of solutions of `grid`, stopping at `cap` (>= 1)."""
        if cap < 1:
            raise ValueError(f"cap must be >= 1, not {cap}")
        selector = self._next_selector
        self._next_selector += 1
        assumptions = [*given_literals(grid, self.geometry), selector]
        found = 0
        while found < cap and pysat_solve(self.solver, assumptions):
            found += 1
            model = self.solver.get_model()
            block = [-lit for lit in model if 0 < lit <= self._cell_vars]
            self.solver.add_clause([-selector, *block])
        self.solver.add_clause([-selector])  # retire this call's blocking clauses
        return SolutionCount(found, found < cap)

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> PysatCounter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def describe(count: SolutionCount) -> str:
    """Return 'unique', 'no solution' (and the clash of givens, if any), '3 solutions',
    '>= 2 solutions (cap)' or '>budget (>= 1 solution)'."""
    if count.over_budget:
        return f"{OVER_BUDGET} (>= {count.count} solution{'' if count.count == 1 else 's'})"
    if count.unique:
        return "unique"
    if count.count == 0 and count.complete:
        return f"no solution ({count.clash})" if count.clash else "no solution"
    if not count.complete:
        return f">= {count.count} solutions (cap)"
    return f"{count.count} solutions"


class SolutionCounter(Protocol):
    """Anything that counts the solutions of grids of one geometry up to a cap."""

    geometry: Geometry

    def count(self, grid: Grid, cap: int = 2) -> SolutionCount: ...


def necessary_givens(counter: SolutionCounter, grid: Grid) -> list[bool]:
    """Return, for each given in reading order, whether removing it alone leaves the
    puzzle with two or more solutions (the given is necessary)."""
    out = []
    for c, k in enumerate(grid):
        if k:
            out.append(counter.count((*grid[:c], 0, *grid[c + 1 :]), 2).count >= 2)
    return out


def is_minimal(counter: SolutionCounter, grid: Grid) -> bool:
    """Return True when `grid` has exactly one solution and every given is necessary."""
    return counter.count(grid, 2).unique and all(necessary_givens(counter, grid))
