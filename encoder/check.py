"""Independent checkers, used by every test and benchmark.

They deliberately share nothing with the encoders: a solution is checked against the
geometry's regions directly, and a model against the clauses literal by literal, so a
bug in an encoding cannot hide a bug in a solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from encoder.geometry import Geometry

Grid = tuple[int, ...]


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
