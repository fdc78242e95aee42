"""The bit board of the exam's formula (native/board): for any side up to MAX_SIDE, one
bit board per value over all cells plus a bit per full house still open for the value
(fsss2's layout).  It answers what the clause engine answers on the `centrale` rule
formula (unit propagation, the failed-literal closures nested to depth k, the depth
loop; board_impl.h says why they are equal).  Arrays go in and come out as numpy
arrays, one call for many grids; the kernels run without the GIL, and Ctrl-C raises
KeyboardInterrupt within a few tens of milliseconds.

Work budgets.  Each kernel counts its work (cells placed and hypotheses tested); a
depth loop given `budget` gives a grid up (DEPTH_BUDGET, at the depth it was working
on) at the first hypothesis boundary where the work spent on that grid exceeds the
budget, so the same grids and budget give the same answers on every machine.  The
opt-in `time_limit` of a depth loop is the clause engine's (DEPTH_TIMEOUT), read where
the signal poll reads the clock, every few dozen hypotheses.
"""

from __future__ import annotations

import numpy as np

from encoder.geometry import Geometry
from solvers.core.boundary import ClosureFace, budget_units, depth_arrays, grid_rows, limit_ns
from solvers.core.extension import MAX_SIDE, GridClosures, _core

BOARD_ENCODING = "centrale"  # the one rule formula whose propagation the board computes


def applies(geometry: Geometry, encoding: str) -> bool:
    """Return True when the board computes the clause engine's answers for rules of
    `geometry` in `encoding`: the exam's complete encoding (pairwise, by that exact
    name) and a side of at most MAX_SIDE.  Decided from the names the caller loads the
    rules by, never from clauses."""
    return encoding == BOARD_ENCODING and 1 <= geometry.size <= MAX_SIDE


class Board(ClosureFace):
    """The bit boards of one geometry (side up to MAX_SIDE) and their work arrays; one
    kernel at a time.  `probe`, `propagate` and `depths` (ClosureFace): those of the
    clause engine on the `centrale` rule formula, time limit included, but no proof
    log."""

    def __init__(self, geometry: Geometry):
        n = geometry.size
        if not 1 <= n <= MAX_SIDE:
            raise ValueError(f"the board takes sides 1..{MAX_SIDE}, not {n}")
        self.geometry = geometry
        self.cells = n * n
        full = [region.cells for region in geometry.regions if len(region.cells) == n]
        houses = np.array(full, np.int32).reshape(len(full), n)
        most = max((len(p) for p in geometry.peers), default=0)
        peers = np.full((self.cells, most), -1, np.int32)
        for c, row in enumerate(geometry.peers):
            peers[c, : len(row)] = row
        self._board = self._native = _core.Board(n, houses, peers)
        self._out = np.empty(n * self.cells, np.int64)

    def propagate_batch(self, grids) -> tuple[np.ndarray, np.ndarray]:
        """Propagate the givens of each row of `grids` (N*N values, 0 for a blank): return
        (ok, values), ok[g] 1 at a fixpoint, 0 on a contradiction, -1 for a value outside
        0..N, and values[g] each cell's value at the fixpoint (0 when open)."""
        grids = grid_rows(grids, self.cells)
        ok = np.empty(grids.shape[0], np.int8)
        values = np.empty_like(grids)
        self._board.batch(grids, ok, values)
        return ok, values

    def closures(
        self, grids, depth: int, budget: int | None = None, time_limit: float | None = None
    ) -> GridClosures:
        """The closure of depth `depth` of each grid (a row of N*N values, 0 for a blank)
        in one call: the harness's closure solvers `up`, `fl`, `fl2`, ... over a chunk.
        The depth loop computes it, closing depth 1, then 2, ... up to `depth`: the
        closure of depth d contains that of every depth below, so it reaches the same
        fixpoint as closing at `depth` at once (the clause engine's `closures`), at less
        cost.  `budget` and `time_limit` as in `depths`."""
        grids = grid_rows(grids, self.cells)
        arrays = depth_arrays(grids)
        count = grids.shape[0]
        open_vars, conflicts = np.zeros(count, np.int64), np.zeros(count, np.int64)
        limit = budget_units(budget)
        self._board.depths(
            grids, int(depth), False, limit, *arrays, limit_ns(time_limit), open_vars, conflicts
        )
        status, depths, solutions, work, ns = arrays
        return GridClosures(status, depths, solutions, open_vars, conflicts, work, ns / 1e9)

    def _grid_rows(self, grids) -> np.ndarray:
        return grid_rows(grids, self.cells)

    def _depth_loop(self, grids, max_depth, flag, limit, arrays, log, log_at, time_limit):
        if log is not None or log_at is not None:
            raise ValueError(
                "the board keeps no proof log: rate on the clause engine "
                "(solvers.core.board_or_clauses with proofs)"
            )
        self._board.depths(grids, max_depth, flag, limit, *arrays, limit_ns(time_limit))
