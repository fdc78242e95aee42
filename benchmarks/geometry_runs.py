"""A chunk's grids by geometry: its puzzles cut into runs of consecutive grids of one
geometry (a whole chunk for an ordinary set, one grid for each jigsaw map), each with
its grids as one int8 array, made once per chunk for every solver, check and rating."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from encoder.geometry import Geometry
from encoder.puzzle_files import Puzzle


@dataclass(frozen=True, eq=False)
class GeometryRun:
    """Consecutive grids of one geometry: their positions in the chunk (`rows`, a range)
    and the grids, a row of N*N values each (0 for a blank)."""

    geometry: Geometry
    rows: range
    grids: np.ndarray  # int8


def runs_by_geometry(
    puzzles: Sequence[Puzzle], grids: np.ndarray | None = None
) -> list[GeometryRun]:
    """Cut a chunk's puzzles into runs of one geometry (found by identity: hashing a
    jigsaw's regions costs more); `grids`, the puzzles' grids as int8 rows when the
    chunk was read as arrays, are taken as they are for a chunk of one geometry."""
    if grids is not None and puzzles and all(p.geometry is puzzles[0].geometry for p in puzzles):
        return [GeometryRun(puzzles[0].geometry, range(len(puzzles)), grids)]
    runs, start = [], 0
    for end in range(1, len(puzzles) + 1):
        if end == len(puzzles) or puzzles[end].geometry is not puzzles[start].geometry:
            grids = np.array([p.grid for p in puzzles[start:end]], dtype=np.int8)
            runs.append(GeometryRun(puzzles[start].geometry, range(start, end), grids))
            start = end
    return runs
