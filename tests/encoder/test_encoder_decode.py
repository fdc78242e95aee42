"""The one numbering and the one decoder: cell-index variables, models and partial
assignments back to grids, and the errors that name the bad cell."""

from __future__ import annotations

import pytest

from encoder.decode import ModelError, filled_grid, grid_from_model, known_values
from encoder.geometry import standard
from encoder.numbering import cell_value, cell_var, var


@pytest.mark.parametrize("n", [4, 9, 16])
def test_cell_var_round_trips_and_agrees_with_the_exam_numbering(n):
    for c in range(n * n):
        for k in range(1, n + 1):
            v = cell_var(c, k, n)
            assert cell_value(v, n) == (c, k)
            assert v == var(c // n, c % n, k, n)
    assert sorted(cell_var(c, k, n) for c in range(n * n) for k in range(1, n + 1)) == list(
        range(1, n**3 + 1)
    )


GRID4 = (1, 2, 3, 4, 3, 4, 1, 2, 2, 1, 4, 3, 4, 3, 2, 1)


def model_of(grid, n=4):
    """Every cell variable, true for the grid's values: what a solver's model holds."""
    return [
        cell_var(c, k, n) * (1 if grid[c] == k else -1)
        for c in range(n * n)
        for k in range(1, n + 1)
    ]


def test_grid_from_model_reads_a_model_and_ignores_auxiliary_variables():
    geometry = standard(4)
    assert grid_from_model(model_of(GRID4), geometry) == GRID4
    assert grid_from_model([*model_of(GRID4), 65, -66], geometry) == GRID4  # aux vars


def test_grid_from_model_names_the_bad_cell():
    geometry = standard(4)
    two = [*model_of(GRID4), cell_var(5, 1, 4)]
    with pytest.raises(ModelError, match=r"cell \(1,1\) holds two values: 4 and 1"):
        grid_from_model(two, geometry)
    missing = [lit for lit in model_of(GRID4) if lit != cell_var(15, 1, 4)]
    with pytest.raises(ModelError, match=r"1 cells have no value, first \(3,3\)"):
        grid_from_model(missing, geometry)


def test_partial_assignments_give_known_values_and_a_grid_only_when_full():
    geometry = standard(4)
    some = [cell_var(0, 1, 4), -cell_var(1, 1, 4), cell_var(15, 1, 4)]
    assert known_values(some, geometry) == (1, *([0] * 14), 1)
    assert filled_grid(some, geometry) is None
    assert filled_grid(model_of(GRID4), geometry) == GRID4
