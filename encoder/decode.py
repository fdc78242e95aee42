"""Turning literals back into a grid: the one decoder of the project.

`grid_from_model` reads a solver's model: each cell must have exactly one true cell
variable x(i,j,k) among 1..N³ (auxiliary variables of other encodings are ignored); a
model that leaves a cell empty or gives it two values is refused with the cell named.
`known_values` reads what a partial assignment (a propagation, a closure) fixes, 0 for
a cell it leaves open; `filled_grid` is that grid when no cell is open.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from encoder.errors import InputError
from encoder.geometry import Geometry
from encoder.numbering import Grid, cell_value, num_cell_vars


class ModelError(InputError):
    """A model that does not describe one filled grid."""


def grid_from_model(model: Sequence[int], geometry: Geometry) -> Grid:
    """Return the grid a model describes, or raise ModelError naming the bad cell."""
    n = geometry.size
    fast = _one_value_per_cell(model, n)
    if fast is not None:
        return fast
    cells = [0] * (n * n)
    for lit in model:
        if lit <= 0 or lit > num_cell_vars(n):
            continue
        c, k = cell_value(lit, n)
        if cells[c]:
            i, j = divmod(c, n)
            raise ModelError(f"cell ({i},{j}) holds two values: {cells[c]} and {k}")
        cells[c] = k
    empty = [c for c, k in enumerate(cells) if not k]
    if empty:
        i, j = divmod(empty[0], n)
        raise ModelError(f"incomplete model: {len(empty)} cells have no value, first ({i},{j})")
    return tuple(cells)


def _one_value_per_cell(model: Sequence[int], n: int) -> Grid | None:
    """Return the grid of a model with exactly one true cell variable per cell, else
    None (the vectorised fast path; the loop above then says what is wrong)."""
    lits = np.asarray(model, dtype=np.int64)
    cell_lits = lits[(lits > 0) & (lits <= num_cell_vars(n))]
    cells, values = cell_value(cell_lits, n)  # arrays in, arrays out
    if cells.size != n * n or np.unique(cells).size != n * n:
        return None
    grid = np.zeros(n * n, dtype=np.int64)
    grid[cells] = values
    return tuple(grid.tolist())


def grids_from_models(models: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return (grids, good) for the rows of a matrix of models (DIMACS literals, one
    model a row): grids[r] is the grid of row r when good[r], i.e. when the row has
    exactly one true cell variable per cell (`grid_from_model` says what is wrong with
    the others)."""
    rows, cells = models.shape[0], n * n
    where = np.nonzero((models > 0) & (models <= num_cell_vars(n)))
    c, k = cell_value(models[where], n)
    at = where[0] * cells + c
    good = (np.bincount(at, minlength=rows * cells).reshape(rows, cells) == 1).all(axis=1)
    grids = np.zeros(rows * cells, dtype=np.int64)
    grids[at] = k
    return grids.reshape(rows, cells), good


def known_values(literals: Iterable[int], geometry: Geometry) -> Grid:
    """Return the values the true cell literals fix, 0 where a cell has none."""
    n = geometry.size
    cells = [0] * (n * n)
    for lit in literals:
        if 0 < lit <= num_cell_vars(n):
            c, k = cell_value(lit, n)
            cells[c] = k
    return tuple(cells)


def filled_grid(literals: Iterable[int], geometry: Geometry) -> Grid | None:
    """Return the grid the literals fix when every cell has a value, else None."""
    grid = known_values(literals, geometry)
    return None if 0 in grid else grid
