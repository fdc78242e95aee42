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
budget, so the same grids and budget give the same answers on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from encoder.geometry import Geometry
from solvers.core.boundary import budget_units, depth_arrays, grid_rows, polarity_flag
from solvers.core.extension import MAX_SIDE, Depths, _core

BOARD_ENCODING = "centrale"  # the one rule formula whose propagation the board computes


def applies(geometry: Geometry, encoding: str) -> bool:
    """Return True when the board computes the clause engine's answers for rules of
    `geometry` in `encoding`: the exam's complete encoding (pairwise, by that exact
    name) and a side of at most MAX_SIDE.  Decided from the names the caller loads the
    rules by, never from clauses."""
    return encoding == BOARD_ENCODING and 1 <= geometry.size <= MAX_SIDE


class Board:
    """The bit boards of one geometry (side up to MAX_SIDE) and their work arrays; one
    kernel at a time."""

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
        self._board = _core.Board(n, houses, peers)
        self._out = np.empty(n * self.cells, np.int64)

    @property
    def work(self) -> int:
        """Work units spent by this board so far (cells placed, hypotheses tested)."""
        return self._board.counters()[0]

    @property
    def hypotheses(self) -> int:
        """Hypotheses tested by this board so far."""
        return self._board.counters()[1]

    def propagate_batch(self, grids) -> tuple[np.ndarray, np.ndarray]:
        """Propagate the givens of each row of `grids` (N*N values, 0 for a blank): return
        (ok, values), ok[g] 1 at a fixpoint, 0 on a contradiction, -1 for a value outside
        0..N, and values[g] each cell's value at the fixpoint (0 when open)."""
        grids = grid_rows(grids, self.cells)
        ok = np.empty(grids.shape[0], np.int8)
        values = np.empty_like(grids)
        self._board.batch(grids, ok, values)
        return ok, values

    def probe(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
    ):
        """Return (True, every cell literal the closure of depth `depth` of the
        assumptions holds) or (False, []), as Clauses.probe; `as_array`: the
        literals as an int64 array."""
        if not as_array:  # read and answered by the extension, no array made
            return self._board.probe_list(assumptions, depth, polarity_flag(polarity))
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        count = self._board.probe(lits, int(depth), polarity_flag(polarity), self._out)
        if count < 0:
            return False, np.empty(0, np.int64) if as_array else []
        out = self._out[:count].copy()
        return True, out if as_array else out.tolist()

    def propagate(self, assumptions: Sequence[int] | np.ndarray = (), as_array: bool = False):
        """Return probe's answer at depth 0: unit propagation alone."""
        if not as_array:  # probe's path without its checks of depth and polarity
            return self._board.probe_list(assumptions, 0, False)
        return self.probe(assumptions, 0, as_array=True)

    def depths(
        self,
        grids,
        max_depth: int,
        polarity: str = "both",
        budget: int | None = None,
        log: np.ndarray | None = None,
        log_at: np.ndarray | None = None,
        time_limit: float | None = None,
    ) -> Depths:
        """Rate each grid at the first depth whose closure fills it (SAT) or contradicts
        (UNSAT), else OPEN at max_depth; `budget` (work units, None: none) bounds each
        grid's work.  The board keeps no proof log and no clock: `log` and `time_limit`
        are Clauses.depths' (`board_or_clauses` gives the clause engine when they are asked)."""
        if log is not None or log_at is not None or time_limit is not None:
            raise ValueError(
                "the board keeps no proof log and no clock: rate on the clause engine "
                "(solvers.core.board_or_clauses with proofs or a time limit)"
            )
        grids = grid_rows(grids, self.cells)
        limit = budget_units(budget)
        status, depth, solutions, work, ns = depth_arrays(grids)
        self._board.depths(
            grids,
            int(max_depth),
            polarity_flag(polarity),
            limit,
            status,
            depth,
            solutions,
            work,
            ns,
        )
        return Depths(status, depth, solutions, ns / 1e9, work)
