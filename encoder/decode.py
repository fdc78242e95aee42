"""Turning a solver's model back into a grid.

A model is a set of true literals.  Each cell must have exactly one true cell variable
x(i,j,k) among 1..N³ (auxiliary variables of other encodings are ignored); a model that
leaves a cell empty or gives it two values is refused with the cell named.
"""

from __future__ import annotations

from collections.abc import Iterable

from encoder.errors import InputError
from encoder.geometry import Geometry

Grid = tuple[int, ...]


class ModelError(InputError):
    """A model that does not describe one filled grid."""


def grid_from_model(model: Iterable[int], geometry: Geometry) -> Grid:
    """Return the grid a model describes, or raise ModelError naming the bad cell."""
    n = geometry.size
    cells = [0] * (n * n)
    for lit in model:
        if lit <= 0 or lit > n**3:
            continue
        c, k0 = divmod(lit - 1, n)
        if cells[c]:
            i, j = divmod(c, n)
            raise ModelError(f"cell ({i},{j}) holds two values: {cells[c]} and {k0 + 1}")
        cells[c] = k0 + 1
    empty = [c for c, k in enumerate(cells) if not k]
    if empty:
        i, j = divmod(empty[0], n)
        raise ModelError(f"incomplete model: {len(empty)} cells have no value, first ({i},{j})")
    return tuple(cells)
