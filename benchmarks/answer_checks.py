"""The independent check of every answer a benchmark's solvers give: a model must decode to
a grid that keeps the givens and obeys every region (`encoder.check`, which shares no code
with the encoders), and no solver may answer UNSAT for a grid that has a checked solution.

`check_answers` checks one solver's models on a chunk, those of each geometry decoded and
checked in one vectorised pass (`SolutionChecks`); `check_model` and `check_grid` check
one; a wrong answer is a `WrongAnswer` naming the grid's source and drawing the grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from encoder.check import SolutionCheck, solution_problems
from encoder.decode import ModelError, grid_from_model, grids_from_models
from encoder.geometry import Geometry
from encoder.grids import format_pretty
from encoder.puzzle_files import Puzzle
from solvers.ratings.per_geometry import geometry_runs
from solvers.results import SolverResult, Status


class WrongAnswer(Exception):
    """A solver's answer that the independent checker refutes."""

    def __init__(self, source: str, message: str):
        super().__init__(message)
        self.source = source
        self.message = message


class SolutionChecks:
    """The independent solution check of each geometry of a chunk (`SolutionCheck`,
    vectorised), found by the geometry's identity: hashing its regions costs more."""

    def __init__(self) -> None:
        self.by_id: dict[int, SolutionCheck] = {}

    def of(self, geometry: Geometry) -> SolutionCheck:
        check = self.by_id.get(id(geometry))
        if check is None or check.geometry is not geometry:
            check = self.by_id[id(geometry)] = SolutionCheck(geometry)
        return check

    def problems(self, puzzle: Puzzle, solution: tuple[int, ...]) -> list[str]:
        return self.of(puzzle.geometry).problems(solution, puzzle.grid)


def check_model(
    checks: SolutionChecks,
    puzzle: Puzzle,
    model: Sequence[int],
    who: str,
    known: tuple[int, ...] | None = None,
) -> tuple[int, ...]:
    """Return the grid a model describes after checking it against the puzzle (skipped
    when it equals `known`, a solution checked before); raise WrongAnswer if wrong."""
    try:
        solution = grid_from_model(model, puzzle.geometry)
    except ModelError as error:
        solution, problems = None, [error.message]
    else:
        if solution == known:
            return solution
        problems = checks.problems(puzzle, solution)
    _refuse(puzzle, who, problems)
    return solution


def check_answers(
    checks: SolutionChecks,
    puzzles: Sequence[Puzzle],
    records: Sequence[SolverResult],
    who: str,
    solved: list[tuple[int, ...] | None],
    checked: list[tuple[int, ...]],
) -> None:
    """Check every model of one solver's answers on a chunk (skipping a model equal to
    the one checked before for its grid), the models of each geometry decoded and
    checked in one vectorised pass (`grids_from_models`, `SolutionCheck.valid`); a row
    the pass does not find valid goes through `_checked`, which says what is wrong.
    Record each grid's checked solution in `solved` and its model in `checked`."""
    todo = [
        i
        for i, result in enumerate(records)
        if result.status is Status.SAT and result.model != checked[i]
    ]
    for run in geometry_runs(todo, lambda i: id(puzzles[i].geometry)):
        geometry = puzzles[run[0]].geometry
        models = [records[i].model for i in run]
        good = np.zeros(len(run), dtype=bool)
        if len({len(model) for model in models}) == 1:
            grids, good = grids_from_models(np.array(models, dtype=np.int64), geometry.size)
            givens = np.array([puzzles[i].grid for i in run], dtype=np.int64)
            good &= checks.of(geometry).valid(grids, givens)
        for j, i in enumerate(run):
            if good[j]:
                solved[i] = tuple(grids[j].tolist())
            else:
                solved[i] = check_model(checks, puzzles[i], models[j], who, solved[i])
            checked[i] = models[j]


def check_grid(puzzle: Puzzle, solution: tuple[int, ...], who: str) -> None:
    """Raise WrongAnswer unless `solution` keeps the puzzle's givens and obeys its rules."""
    _refuse(puzzle, who, solution_problems(solution, puzzle.grid, puzzle.geometry))


def _refuse(puzzle: Puzzle, who: str, problems: list[str]) -> None:
    """Raise WrongAnswer when the independent checker found problems."""
    if problems:
        raise WrongAnswer(
            puzzle.source,
            f"{who} returned a wrong solution: {problems[0]}\n"
            f"{format_pretty(puzzle.grid, puzzle.geometry)}",
        )


def unsat_refuted(puzzle: Puzzle, who: str) -> WrongAnswer:
    """Return the error of an UNSAT answer for a grid that has a checked solution."""
    return WrongAnswer(
        puzzle.source,
        f"{who} answered UNSAT but the grid has a checked solution\n"
        f"{format_pretty(puzzle.grid, puzzle.geometry)}",
    )
