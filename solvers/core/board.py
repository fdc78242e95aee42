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

Search (native/board/board_search.h): DPLL on the board counts, finds and enumerates
solutions, and empties puzzles down to minimal ones, many grids a call; its budget is
in the same units (cells placed and decisions), read at each node.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from encoder.geometry import Geometry
from solvers.budgets import BudgetExhausted
from solvers.core.boundary import ClosureFace, budget_units, depth_arrays, grid_rows, limit_ns
from solvers.core.extension import (
    MAX_COUNT,
    MAX_DEPTH,
    MAX_SIDE,
    STATUS_FOUND,
    GridClosures,
    GridCounts,
    _core,
)

ENUMERATE_ROOM = 4096  # solutions an enumeration asks of the kernel a call

# The side from which a search closes each node under the failed-literal rule (depth 1)
# before branching.  Measured on uniqueness tests of minimal-puzzle generation (AMD EPYC,
# 2026-12-02): on 9x9 and 16x16 it costs more than it prunes (16x16: 0.49 s a puzzle
# against 0.044 s); on 25x25, near-minimal tests take 3 to 10 times less time with it.
LOOKAHEAD_FROM = 25


def lookahead_for(geometry: Geometry) -> int:
    """The lookahead a search of `geometry` runs with (LOOKAHEAD_FROM)."""
    return 1 if geometry.size >= LOOKAHEAD_FROM else 0


BOARD_ENCODING = "centrale"  # the one rule formula whose propagation the board computes


def applies(geometry: Geometry, encoding: str) -> bool:
    """Return True when the board computes the clause engine's answers for rules of
    `geometry` in `encoding`: the exam's complete encoding (pairwise, by that exact
    name) and a side of at most MAX_SIDE.  Decided from the names the caller loads the
    rules by, never from clauses."""
    return encoding == BOARD_ENCODING and 1 <= geometry.size <= MAX_SIDE


def check_cap(cap: int | None) -> int:
    """A count's cap for the core: None (no cap: -1) or 1..MAX_COUNT; anything else is
    refused with a one-line ValueError or TypeError."""
    if cap is None:
        return -1
    if isinstance(cap, bool) or not isinstance(cap, int | np.integer):
        raise TypeError(f"a cap must be an integer or None, not {cap!r}")
    if not 1 <= cap <= MAX_COUNT:
        raise ValueError(f"a cap must be in 1..{MAX_COUNT:,}, not {cap:,}")
    return int(cap)


class Board(ClosureFace):
    """The bit boards of one geometry (side up to MAX_SIDE) and their work arrays; one
    kernel at a time.  `probe`, `propagate` and `depths` (ClosureFace): those of the
    clause engine on the `centrale` rule formula, time limit included; `depths` writes
    the proof log too (`probe` does not)."""

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
        self._tables = n, houses, peers  # a second board's, for an enumeration
        self._board = self._native = _core.Board(n, houses, peers)
        self._out = np.empty(n * self.cells, np.int64)

    def count(
        self,
        grids,
        cap: int | None = 2,
        budget: int | None = None,
        time_limit: float | None = None,
        lookahead: int = 0,
        intersections: bool = False,
        solutions: bool = False,
        exclude=None,
        log: np.ndarray | None = None,
        log_at: np.ndarray | None = None,
    ) -> GridCounts:
        """Count the solutions of each grid (a row of N*N values, 0 for a blank) up to
        `cap` (None: all of them) by DPLL on the board, in one call.  `budget`: work
        units a grid (None: none); `time_limit`: seconds a grid, opt-in; `lookahead`:
        the depth of the failed-literal closure run at each node (0: propagation
        alone); `intersections`: each node also at the fixpoint of locked candidates
        (a value's places in a house all within another house leave the rest of that
        one: failed literals of depth 1, so the counts stay the same; not with `log`);
        `solutions`: keep each grid's first solution; `exclude` (None, or per
        grid a (cell, value) pair, a row of an N x 2 array, cell -1 for none): count the
        solutions that do not put that value in that cell.  `log` and `log_at` (one
        entry per grid and one more): where the search writes its lemmas, grid g's from
        log_at[g] (`solvers.core.proof_log`; lookahead 0, no intersections): a count of
        one model is then a refutation of the grid's formula with the clause excluding
        that model."""
        grids = grid_rows(grids, self.cells)
        count = grids.shape[0]
        cap_units = check_cap(cap)
        if not 0 <= lookahead <= MAX_DEPTH:
            raise ValueError(f"lookahead must be in 0..{MAX_DEPTH}, not {lookahead}")
        models, status = np.zeros(count, np.int64), np.zeros(count, np.int8)
        decisions, conflicts, work, ns = (np.zeros(count, np.int64) for _ in range(4))
        first = np.zeros_like(grids) if solutions else None
        codes = None
        if exclude is not None:
            pairs = np.asarray(exclude, np.int64).reshape(count, 2)
            codes = np.where(pairs[:, 0] < 0, -1, pairs[:, 0] * 64 + pairs[:, 1] - 1)
            codes = codes.astype(np.int32)  # the core refuses what is no candidate
        self._board.count(grids, cap_units, budget_units(budget), limit_ns(time_limit),
                          int(lookahead), bool(intersections), False, models, status,
                          decisions, conflicts, work,
                          ns, first, None, codes, log, log_at)  # fmt: skip
        return GridCounts(models, status, decisions, conflicts, work, ns / 1e9, first)

    def minimal(
        self,
        grids,
        orders,
        budget: int | None = None,
        lookahead: int = 0,
        intersections: bool = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Empty the cells of each grid (a full grid, or a puzzle with one solution) in
        the order of its row of `orders` (a permutation of the cells), each while the
        puzzle keeps exactly one solution, so every remaining given is necessary: return
        (puzzles, tests, over), the counts made a grid and those `budget` (work units a
        count, None: none) stopped, whose given was then kept.  `lookahead` and
        `intersections`: as in `count`."""
        grids = grid_rows(grids, self.cells)
        orders = np.ascontiguousarray(orders, np.int32)
        count = grids.shape[0]
        out = np.zeros_like(grids)
        tests, over = np.zeros(count, np.int64), np.zeros(count, np.int64)
        if not 0 <= lookahead <= MAX_DEPTH:
            raise ValueError(f"lookahead must be in 0..{MAX_DEPTH}, not {lookahead}")
        self._board.minimal(grids, orders, budget_units(budget), int(lookahead),
                            bool(intersections), out, tests, over)  # fmt: skip
        return out, tests, over

    def models(
        self, grid, limit: int | None = None, budget: int | None = None
    ) -> Iterator[np.ndarray]:
        """Yield the solutions of `grid` (N*N values), each an int8 array, at most
        `limit` (None: all), in the search's order.  The generator searches on a board of
        its own, so this one can be used while it is suspended; `budget` bounds the work
        of each batch of ENUMERATE_ROOM solutions (past it, BudgetExhausted)."""
        row = grid_rows([grid] if np.ndim(grid) == 1 else grid, self.cells)
        if row.shape[0] != 1:
            raise ValueError("models takes one grid")
        check_cap(limit)
        budget_units(budget)
        return self._models(row, limit, budget)

    def _models(self, row: np.ndarray, limit: int | None, budget: int | None):
        board = _core.Board(*self._tables)
        found, resume = 0, False
        out = np.zeros((ENUMERATE_ROOM, self.cells), np.int8)
        models, status = np.zeros(1, np.int64), np.zeros(1, np.int8)
        while limit is None or found < limit:
            room = ENUMERATE_ROOM if limit is None else min(ENUMERATE_ROOM, limit - found)
            board.count(row, room, budget_units(budget), 0, 0, False, resume, models, status,
                        None, None, None, None, None, out)  # fmt: skip
            got = int(models[0])
            for i in range(got):
                yield out[i].copy()
            found += got
            if status[0] != STATUS_FOUND:
                if status[0] == _core.STATUS_BUDGET:
                    raise BudgetExhausted("work", budget)
                if status[0] == _core.STATUS_BAD:
                    raise ValueError("grid values must lie in 0..N")
                return
            resume = True

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
        # the closures' lemmas as the clause engine writes them (board_impl.h says why
        # each is RUP on the `centrale` formula)
        self._board.depths(grids, max_depth, flag, limit, *arrays, limit_ns(time_limit),
                           None, None, log, log_at)  # fmt: skip
