"""One grid, one solver of the registry: its answer as a grid, for the Python API.

`solve(grid)` is what a notebook calls: the grid (text or values), its geometry (by
default classic Sudoku of the grid's size), a registry name, and the bounds of the
commands (a work budget, a time limit); back comes a `GridResult`
holding the solver's own `SolverResult` and the solution read from its model, checked
by the independent checker.  A notebook shows the result as a picture (`_repr_svg_`):
the givens dark, the values found blue.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from encoder.check import is_solution
from encoder.decode import grid_from_model
from encoder.encodings import given_literals, rule_formula
from encoder.errors import GridError
from encoder.geometry import Geometry, make_geometry
from encoder.grids import format_line
from encoder.numbering import Grid, num_cell_vars
from encoder.picture import grid_svg
from encoder.puzzle_files import Puzzle, read_puzzles
from encoder.status import Status
from solvers.backends.base import complete
from solvers.budgets import Budget
from solvers.core.extension import MAX_SECONDS
from solvers.results import SolverResult


@dataclass(frozen=True)
class GridResult:
    """A solver's answer on a grid: its record, and the solution (() when none)."""

    geometry: Geometry
    givens: Grid
    result: SolverResult
    solution: Grid = ()

    @property
    def status(self) -> Status:
        return self.result.status

    def __str__(self) -> str:
        shown = self.solution or self.givens
        return f"{self.result.solver} {self.status.name}: {format_line(shown, self.geometry)}"

    def _repr_svg_(self) -> str:
        return grid_svg(self.geometry, self.givens, self.solution or None)


def grid_values(
    grid: str | Sequence[int] | Puzzle, geometry: Geometry | None
) -> tuple[Grid, Geometry]:
    """Return (values, geometry) of a grid given as text (anything `read_puzzles` reads:
    one grid), as a `Puzzle` (its own geometry unless one is given) or as N*N values;
    without a geometry, the one the text says (its size, a file's variant), or classic
    Sudoku of the values' size."""
    if isinstance(grid, Puzzle):
        return grid_values(grid.grid, geometry or grid.geometry)
    if isinstance(grid, str):
        puzzles = list(read_puzzles(grid, geometry, allow_conflicts=True))
        if len(puzzles) != 1:
            raise GridError(f"{len(puzzles)} grids given, expected one", "<grid>")
        return puzzles[0].grid, puzzles[0].geometry
    values = tuple(grid)
    if geometry is None:
        side = math.isqrt(len(values))
        if side * side != len(values):
            raise GridError(f"{len(values)} values given: not N*N for any N", "<grid>")
        geometry = make_geometry(side)
    if len(values) != geometry.num_cells:
        raise GridError(f"{len(values)} values given, expected {geometry.num_cells}", "<grid>")
    for cell, value in enumerate(values):
        # exact integers only: a float or a bool would be read as another grid
        if isinstance(value, bool) or not isinstance(value, int | np.integer):
            raise GridError(f"cell {cell}: {value!r} is not an integer", "<grid>")
        if not 0 <= value <= geometry.size:
            raise GridError(
                f"cell {cell}: value {value} outside 0..{geometry.size} (0: empty)", "<grid>"
            )
    return tuple(int(value) for value in values), geometry


def _check_bounds(timeout: float | None, budget: Budget | None) -> None:
    """Refuse the bounds the commands refuse, with the same words: a time limit is a
    positive number of seconds up to MAX_SECONDS, a budget a `Budget`."""
    if timeout is not None:
        if isinstance(timeout, bool) or not isinstance(timeout, int | float):
            raise TypeError(f"timeout must be a number of seconds or None, not {timeout!r}")
        if not 0 < timeout <= MAX_SECONDS:
            raise ValueError(f"timeout must be in (0, {MAX_SECONDS:g}] seconds, not {timeout!r}")
    if budget is not None and not isinstance(budget, Budget):
        raise TypeError(
            f"budget must be a solvers.budgets.Budget (e.g. Budget(conflicts=1)), not {budget!r}"
        )


def solve(
    grid: str | Sequence[int],
    geometry: Geometry | None = None,
    solver: str = "dpll",
    encoding: str = "centrale",
    timeout: float | None = None,
    budget: Budget | None = None,
) -> GridResult:
    """Return what `solver` (a name of `SOLVERS`) answers on `grid`.

    `budget` (a `solvers.budgets.Budget`; None: the default one) bounds the call's work
    in the solver's own units, as the commands' `--budget KIND=N` does: work units for
    the home-grown solvers, conflicts for PySAT's (a solver binary has none).  Past it
    the answer is UNKNOWN with `result.over_budget` set, the same on every machine.
    `timeout` (seconds, None: none) adds a wall-clock limit; past it the answer is
    UNKNOWN with `result.timed_out` set, and depends on the machine.

    >>> from solvers import solve
    >>> easter_monster = (
    ...     "1.......2.9.4...5...6...7...5.9.3.......7......."
    ...     "85..4.7.....6...3...9.8...2.....1"
    ... )
    >>> answer = solve(easter_monster)
    >>> print(answer)
    dpll SAT: 174385962293467158586192734451923876928674315367851249719548623635219487842736591
    >>> solve(answer.givens, solver="fl").status  # the failed-literal rule stops short
    <Status.UNKNOWN: 0>
    >>> from solvers.budgets import Budget
    >>> stopped = solve(easter_monster, solver="minisat22", budget=Budget(conflicts=1))
    >>> stopped.status, stopped.result.over_budget, stopped.result.reason
    (<Status.UNKNOWN: 0>, True, 'work budget of 1 conflicts reached')
    """
    from solvers.backends.registry import make_backend  # PySAT and the core only when solving

    _check_bounds(timeout, budget)
    values, geometry = grid_values(grid, geometry)
    formula = rule_formula(geometry, encoding)
    with make_backend(solver, timeout=timeout, budget=budget) as backend:
        backend.load(formula.clauses, formula.num_vars, num_cell_vars(geometry.size))
        if _searches_on_the_board(backend, geometry, encoding):
            result = _board_search(backend, values, geometry, encoding, formula.num_vars)
        else:
            result = backend.solve(given_literals(values, geometry))
    solution: Grid = ()
    if result.status is Status.SAT:
        solution = grid_from_model(result.model, geometry)
        if not is_solution(solution, values, geometry):  # the independent check
            raise RuntimeError(f"{solver} returned a model that is no solution of the grid")
    return GridResult(geometry, values, result, solution)


def _searches_on_the_board(backend, geometry: Geometry, encoding: str) -> bool:
    """True for `dpll` on the rules of the `centrale` encoding, which the board's DPLL
    answers (`HomeBackend.solve_grids`)."""
    from solvers.backends.home import HomeBackend
    from solvers.core.board import applies

    return (
        isinstance(backend, HomeBackend) and backend.depth is None and applies(geometry, encoding)
    )


def _board_search(backend, values: Grid, geometry: Geometry, encoding: str, num_vars: int):
    """The board's answer on one grid as a SolverResult, its model the filled grid's
    cell literals (the centrale rules have no other variable)."""
    answers = backend.solve_grids(np.array([values], np.int8), geometry, encoding)
    result = answers.record(0)
    if result.status is not Status.SAT:
        return result
    filled = tuple(answers.solutions[0].tolist())
    return replace(result, model=complete(given_literals(filled, geometry), num_vars))
