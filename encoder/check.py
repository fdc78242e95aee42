"""Independent checkers, used by every test and benchmark.

They deliberately share nothing with the encoders: a solution is checked against the
geometry's regions directly, and a model against the clauses literal by literal, so a
bug in an encoding cannot hide a bug in a solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from encoder.geometry import Geometry


def solution_problems(
    solution: Sequence[int], puzzle: Sequence[int], geometry: Geometry
) -> list[str]:
    """Return what is wrong with `solution` as an answer to `puzzle` (empty when valid)."""
    n = geometry.size
    problems = []
    if len(solution) != n * n:
        return [f"solution has {len(solution)} cells, expected {n * n}"]
    for c, k in enumerate(solution):
        if not 1 <= k <= n:
            problems.append(f"cell {geometry.cell(c)} holds {k}, not a value in 1..{n}")
        if puzzle[c] and puzzle[c] != k:
            problems.append(f"cell {geometry.cell(c)} was given {puzzle[c]}, solution has {k}")
    for region in geometry.regions:
        values = [solution[c] for c in region.cells]
        if len(set(values)) != len(values):
            k = next(k for k in values if values.count(k) > 1)
            at = ["({},{})".format(*geometry.cell(c)) for c in region.cells if solution[c] == k]
            more = f" and {len(at) - 2} more" if len(at) > 2 else ""
            problems.append(
                f"{region.name()} repeats a value: {k} in cells {at[0]} and {at[1]}{more} "
                "(0-based row,column)"
            )
    return problems


BIT_SIZES = 48  # grids up to 48x48 are checked on bit masks, larger ones by sorting


class SolutionCheck:
    """`solution_problems` for one geometry, vectorised for the usual answer, a valid
    solution: a few microseconds for 9x9, where the loop over the regions takes about
    fifty.  It reads the geometry's regions as one index array (every region the same
    size) and the values directly, as the loop does, and hands any solution it does not
    find valid to `solution_problems`, which says what is wrong."""

    def __init__(self, geometry: Geometry):
        self.geometry = geometry
        sizes = {len(region.cells) for region in geometry.regions}
        self.regions = (
            np.array([region.cells for region in geometry.regions], dtype=np.int64)
            if len(sizes) == 1
            else None
        )

    def problems(self, solution: Sequence[int], puzzle: Sequence[int]) -> list[str]:
        """Return what is wrong with `solution` as an answer to `puzzle` (empty when valid)."""
        n = self.geometry.size
        if self.regions is not None and len(solution) == n * n == len(puzzle):
            values = np.asarray(solution, dtype=np.int64)
            givens = np.asarray(puzzle, dtype=np.int64)
            if (
                values.min() >= 1
                and values.max() <= n
                and not np.any((givens != 0) & (givens != values))
                and np.all(np.diff(np.sort(values[self.regions], axis=1), axis=1))
            ):
                return []
        return solution_problems(solution, puzzle, self.geometry)

    def valid(self, solutions: np.ndarray, puzzles: np.ndarray) -> np.ndarray:
        """Return, for each row of `solutions` (grids of N*N values, one a row), whether
        it is a valid solution of the same row of `puzzles`, in one vectorised pass;
        False where it cannot tell (regions of unequal sizes): `problems` says."""
        n = self.geometry.size
        if self.regions is None or solutions.shape[1:] != (n * n,):
            return np.zeros(solutions.shape[0], dtype=bool)
        in_range = (solutions.min(axis=1, initial=n) >= 1) & (solutions.max(axis=1, initial=1) <= n)
        kept = ~np.any((puzzles != 0) & (puzzles != solutions), axis=1)
        if n <= BIT_SIZES:
            # A region's values are distinct when the sum of their bits equals their OR
            # (a repeated bit adds without changing the OR); a region of at most 64 cells
            # of values up to 48 sums below 2**63.  A third of the time of sorting them.
            bits = np.left_shift(np.int64(1), np.clip(solutions, 0, n).astype(np.int64))
            picked = bits[:, self.regions]
            distinct = np.all(np.bitwise_or.reduce(picked, axis=2) == picked.sum(axis=2), axis=1)
        else:
            distinct = np.all(
                np.diff(np.sort(solutions[:, self.regions], axis=2), axis=2), axis=(1, 2)
            )
        return in_range & kept & distinct


def is_solution(solution: Sequence[int], puzzle: Sequence[int], geometry: Geometry) -> bool:
    """Return True when `solution` is complete, obeys every region and keeps the givens."""
    return not solution_problems(solution, puzzle, geometry)


def unsatisfied_clause(
    model: Iterable[int], clauses: Iterable[Sequence[int]]
) -> Sequence[int] | None:
    """Return the first clause that `model` (a set of true literals) falsifies or leaves open."""
    true = set(model)
    for clause in clauses:
        if not any(lit in true for lit in clause):
            return clause
    return None


def satisfies(model: Iterable[int], clauses: Iterable[Sequence[int]]) -> bool:
    """Return True when every clause has a literal made true by `model`."""
    return unsatisfied_clause(model, clauses) is None
