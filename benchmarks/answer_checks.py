"""The independent check of every answer a benchmark's solvers give: a model must decode to
a grid that keeps the givens and obeys every region (`encoder.check`, which shares no code
with the encoders), and no solver may answer UNSAT for a grid that has a checked solution.

`check_answers` checks one solver's answers on a chunk (`solvers.results.Answers`: the
grids it answered, or its models decoded), those of each geometry in one vectorised
pass (`SolutionChecks`; `check_solutions` for grids); `check_model` and `check_grid`
check one; a wrong answer is a
`WrongAnswer` naming the grid's source and drawing the grid.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from benchmarks.geometry_runs import GeometryRun
from encoder.check import SolutionCheck, solution_problems
from encoder.decode import ModelError, grid_from_model, grids_from_models
from encoder.geometry import Geometry
from encoder.grids import format_pretty
from encoder.puzzle_files import Puzzle
from solvers.results import Answers, Status


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


def check_model(checks: SolutionChecks, puzzle: Puzzle, model: Sequence[int], who: str) -> None:
    """Check the grid a model describes against the puzzle; raise WrongAnswer if wrong."""
    try:
        solution = grid_from_model(model, puzzle.geometry)
    except ModelError as error:
        problems = [error.message]
    else:
        problems = checks.problems(puzzle, solution)
    _refuse(puzzle, who, problems)


def check_answers(
    checks: SolutionChecks,
    puzzles: Sequence[Puzzle],
    runs: Sequence[GeometryRun],
    answers: Answers,
    who: str,
) -> np.ndarray:
    """Check every SAT answer of one solver on a chunk (`runs`: its grids by geometry),
    those of each geometry checked in one vectorised pass: the grids it answered
    (`answers.solutions`), or the grids its models decode to (`grids_from_models`),
    against the givens (`SolutionCheck.valid`); a row the pass does not find valid goes
    through `check_grid` or `check_model`, which say what is wrong.  Return the rows
    answered SAT (each now checked)."""
    sat = answers.status == Status.SAT.value
    for run in runs:
        mine = np.flatnonzero(sat[run.rows.start : run.rows.stop])
        if not mine.size:
            continue
        rows = (mine + run.rows.start).tolist()
        if answers.solutions is not None:
            check_solutions(checks, [puzzles[i] for i in rows], answers.solutions[rows], who,
                            run.grids[mine])  # fmt: skip
            continue
        models = [answers.models[i] for i in rows]
        good = np.zeros(len(rows), dtype=bool)
        if len({len(model) for model in models}) == 1:
            grids, good = grids_from_models(np.array(models, dtype=np.int64), run.geometry.size)
            good &= checks.of(run.geometry).valid(grids, run.grids[mine].astype(np.int64))
        for j in np.flatnonzero(~good).tolist():
            check_model(checks, puzzles[rows[j]], models[j], who)
    return sat


def check_solutions(
    checks: SolutionChecks,
    puzzles: Sequence[Puzzle],
    grids: np.ndarray,
    who: str,
    givens: np.ndarray | None = None,
) -> None:
    """Check filled grids (a row per puzzle, all of one geometry) against their puzzles
    (`givens`: their grids as rows, when the caller has them) in one vectorised pass; a
    row it does not find valid goes through `check_grid`, which says what is wrong."""
    grids = np.asarray(grids, dtype=np.int64)
    if givens is None:
        givens = np.array([p.grid for p in puzzles], dtype=np.int64)
    good = checks.of(puzzles[0].geometry).valid(grids, givens)
    for j in np.flatnonzero(~good).tolist():
        check_grid(puzzles[j], tuple(grids[j].tolist()), who)


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
