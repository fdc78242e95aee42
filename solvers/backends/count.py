"""Counting solutions, for the Python API: `count(grid)` for one grid, `count_many(grids)`
for many in one call of the core.

Both count on the board (`solvers.core.board.Board.count`: DPLL in the C core) for every
geometry it takes (sides up to MAX_SIDE); a larger one is counted by the clause
engine's search on its rule formula.  The work budget is `Budget.work`, in the board's
units, and the search runs with the board's lookahead for the size
(`solvers.core.board.lookahead_for`): a count the budget stops is a lower bound and
says so (`over_budget`, `stopped`), never a wrong number.  A grid whose givens break a
rule has no solution, and `count` names the clash.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np

from encoder.errors import GridError
from encoder.geometry import Geometry, make_geometry
from encoder.grid_arrays import GridArray, line_rows
from encoder.grids import first_clash
from encoder.puzzle_files import Puzzle
from solvers.backends.solve import grid_values
from solvers.budgets import DEFAULT_BUDGET, Budget
from solvers.core.board import check_cap, lookahead_for
from solvers.core.extension import MAX_SIDE, STATUS_BAD, STATUS_BUDGET, STATUS_EXHAUSTED
from solvers.results import SolutionCount, Work


class ManyCounts(NamedTuple):
    """The counts of `count_many`, one entry per grid: `counts` (int64, up to the cap)
    and `stopped` (bool: the work budget stopped that count, a lower bound)."""

    counts: np.ndarray
    stopped: np.ndarray


def count(
    grid: str | Sequence[int] | Puzzle,
    cap: int | None = 2,
    geometry: Geometry | None = None,
    budget: Budget | None = None,
) -> SolutionCount:
    """Return the number of solutions of `grid` up to `cap` (None: all), as
    `solvers.solve` takes a grid: text, N*N values or a `Puzzle`.

    >>> from solvers import count
    >>> em = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
    >>> count(em).unique
    True
    >>> count("." * 16, cap=None).count   # every 4x4 Sudoku
    288
    """
    check_cap(cap)
    values, geometry = grid_values(grid, geometry)
    work = (budget or DEFAULT_BUDGET).work
    clash = first_clash(values, geometry)
    if clash:
        return SolutionCount(0, True, clash=clash)
    if geometry.size > MAX_SIDE:
        from solvers.core.rules import GridRules

        return GridRules(geometry).count(values, cap)
    result = _board(geometry).count([values], cap, budget=work, lookahead=lookahead_for(geometry))
    status = int(result.status[0])
    return SolutionCount(
        int(result.models[0]),
        status == STATUS_EXHAUSTED,
        Work(decisions=int(result.decisions[0])),
        over_budget=status == STATUS_BUDGET,
    )


def count_many(
    grids: Iterable[str] | np.ndarray | GridArray,
    cap: int | None = 2,
    geometry: Geometry | None = None,
    budget: Budget | None = None,
) -> ManyCounts:
    """Count the solutions of many grids up to `cap` in one call of the core: grid
    strings (one symbol or blank a cell), an int8 array of rows, or a file's
    `GridArray`.  Without a geometry, a GridArray's own, else classic Sudoku of the
    rows' size.  Givens that break a rule count 0.

    >>> from solvers import count_many
    >>> count_many(["." * 16, "12.." + "." * 12], cap=1000).counts.tolist()
    [288, 24]
    """
    check_cap(cap)
    rows, geometry = _rows(grids, geometry)
    if geometry.size > MAX_SIDE:
        raise GridError(
            f"count_many takes sides up to {MAX_SIDE}, not {geometry.size}: count each grid "
            "with count()",
            "<grids>",
        )
    work = (budget or DEFAULT_BUDGET).work
    result = _board(geometry).count(rows, cap, budget=work, lookahead=lookahead_for(geometry))
    bad = np.flatnonzero(result.status == STATUS_BAD)
    if bad.size:
        raise GridError(f"grid {bad[0]}: a value outside 0..{geometry.size}", "<grids>")
    return ManyCounts(result.models, result.status == STATUS_BUDGET)


def _rows(grids, geometry: Geometry | None) -> tuple[np.ndarray, Geometry]:
    if isinstance(grids, GridArray):
        return grids.values, geometry or grids.geometry
    if isinstance(grids, np.ndarray):
        if grids.ndim != 2:
            raise GridError(f"grids must be rows of N*N values, not shape {grids.shape}", "<grids>")
        return grids, geometry or _classic(grids.shape[1])
    lines = list(grids)
    if geometry is None:
        geometry = _classic(len(lines[0]) if lines else 81)
    rows = line_rows(lines, geometry)
    if rows is None:  # not plain strings: one by one, whose errors name the grid
        rows = np.array([grid_values(line, geometry)[0] for line in lines], np.int8)
    return rows.reshape(len(lines), geometry.num_cells), geometry


def _classic(cells: int) -> Geometry:
    side = math.isqrt(cells)
    if side * side != cells or side == 0:
        raise GridError(f"{cells} cells a grid: not N*N for any N", "<grids>")
    return make_geometry(side)


_BOARDS: dict[Geometry, object] = {}


def _board(geometry: Geometry):
    """The board of `geometry`, kept for the next call (a few geometries)."""
    from solvers.core.board import Board

    board = _BOARDS.get(geometry)
    if board is None:
        if len(_BOARDS) >= 8:
            _BOARDS.pop(next(iter(_BOARDS)))
        board = _BOARDS[geometry] = Board(geometry)
    return board
