"""Depth rating: how many nested hypotheses a grid needs.

Depth 0 means unit propagation of the givens fills every cell (the exam's
`propagation`); depth 1 means the failed-literal rule is needed (`propagation2`);
depth k means hypotheses tested with the depth k-1 closure, the same idea as Berthier's
T&E(k).  A grid whose closure reaches a contradiction is UNSAT at that depth.  The
rules are loaded once per geometry and the givens are passed as assumptions, so rating
a file of grids builds one engine.  The native core rates (`solvers.core`): on the
exam's complete encoding (`centrale`) its bit-parallel board, whose closures are the
clause engine's (solvers/core/native/board/board_impl.h says why) at a fraction of the cost, and
every other encoding on its clause engine, both under the opt-in time limit too.  The
proofs (`depth_proofs`, which log each closure's lemmas) run on the core's clause
engine.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from encoder.geometry import Geometry
from encoder.numbering import Grid
from encoder.status import Status
from solvers import core
from solvers.budgets import DEFAULT_BUDGET, Budget
from solvers.core import (
    DEPTH_BAD,
    DEPTH_BUDGET,
    DEPTH_OPEN,
    DEPTH_SAT,
    DEPTH_TIMEOUT,
    DEPTH_UNSAT,
    Depths,
)
from solvers.results import depth_bucket, rating_label


@dataclass(frozen=True)
class Rating:
    """The depth a grid needs: SAT when the closure of `depth` fills the grid, UNSAT when
    it reaches a contradiction, UNKNOWN (depth None) when no depth up to `max_depth`
    settles it, or UNKNOWN and `over_budget` (`timed_out`) when the work budget (the
    time limit) stopped the closure of `depth` (the grid needs at least that depth)."""

    depth: int | None
    status: Status
    max_depth: int
    seconds: float
    solution: Grid = ()
    timed_out: bool = False
    over_budget: bool = False

    def depth_label(self) -> str:
        """Return '0', '1', ... , 'unsat@d', '>D', '>budget@d' or 'timeout@d' as printed
        by `rate`."""
        return rating_label(
            self.status, self.depth, self.max_depth, self.timed_out, self.depth, self.over_budget
        )

    def bucket(self) -> str:
        """Return the harness's depth bucket (see DEPTH_BUCKETS)."""
        return depth_bucket(self.depth_label())


def depth_labels(out: Depths, max_depth: int) -> list[str]:
    """Return the depth label of each grid of a depth loop, as `Rating.depth_label` does."""
    labels, known = [], {}  # a label depends on (status, depth) alone: made once each
    for key in zip(out.status.tolist(), out.depth.tolist(), strict=True):
        label = known.get(key)
        if label is None:
            code, depth = key
            timed_out, over = code == DEPTH_TIMEOUT, code == DEPTH_BUDGET
            label = rating_label(_LADDER_STATUS[code], depth, max_depth, timed_out, depth, over)
            known[key] = label
        labels.append(label)
    return labels


_LADDER_STATUS = {
    DEPTH_OPEN: Status.UNKNOWN,
    DEPTH_SAT: Status.SAT,
    DEPTH_UNSAT: Status.UNSAT,
    DEPTH_TIMEOUT: Status.UNKNOWN,
    DEPTH_BUDGET: Status.UNKNOWN,
}


class Rater:
    """Rates grids of one geometry and encoding, reusing one engine; `budget` (its
    `work`: the engine's or the board's work units) and `time_limit` (seconds, None:
    none) bound the rating of each grid."""

    def __init__(
        self,
        geometry: Geometry,
        encoding: str = "centrale",
        polarity: str = "both",
        time_limit: float | None = None,
        budget: Budget = DEFAULT_BUDGET,
    ):
        self.geometry = geometry
        self.polarity = polarity
        self.time_limit = time_limit
        self.budget = budget
        self.encoding = encoding
        # The core's engine for these rules (the board where it applies, else the clause
        # engine: solvers.core.board_or_clauses), built now so that unknown encodings fail
        # here.
        self.engine = core.board_or_clauses(geometry, encoding)
        self._log_capacity = 0  # what the proofs of the last depth loop needed (depth_proofs)

    def rate(self, grid: Grid, max_depth: int = 2) -> Rating:
        """Return the rating of one grid; `seconds` is the wall time of this call."""
        start = time.perf_counter()
        [rating] = self.rate_many([grid], max_depth)
        return replace(rating, seconds=time.perf_counter() - start)

    def _rows(self, grids: Sequence[Grid] | np.ndarray) -> np.ndarray:
        """The grids as the core's int8 rows, checked before any cast: a value that int8
        would wrap (257 becomes 1) or truncate (1.9 becomes 1) is refused, not rated as
        another grid.  One flat array of whole grids is read as its rows."""
        cells = self.geometry.num_cells
        rows = np.asarray(grids)
        if rows.ndim == 1 and rows.size and rows.size % cells == 0:
            rows = rows.reshape(-1, cells)
        return core.grid_rows(rows, cells)

    def depths(self, grids: Sequence[Grid] | np.ndarray, max_depth: int = 2) -> Depths:
        """Return the ratings of many grids as arrays (`solvers.core.Depths`), rated in
        one call of the core."""
        values = self._rows(grids)
        return self.engine.depths(
            values, max_depth, self.polarity, self.budget.work, time_limit=self.time_limit
        )

    def depth_proofs(self, grids: Sequence[Grid], max_depth: int = 2) -> tuple[Depths, list[str]]:
        """Return `depths` and each grid's proof (`solvers.proofs.write.rating_proofs`: "" for a
        grid the rating did not settle)."""
        from solvers.proofs.write import depth_lemmas, rating_proofs

        values = self._rows(grids)
        out, lemmas, self._log_capacity = depth_lemmas(
            self.engine, values, max_depth, self.polarity, self.time_limit,
            self._log_capacity, self.budget.work,
        )  # fmt: skip
        return out, rating_proofs(out, lemmas, values, self.geometry)

    def rate_many(self, grids: Sequence[Grid] | np.ndarray, max_depth: int = 2) -> list[Rating]:
        """Return the rating of each grid; `seconds` is the kernel's time on the grid."""
        out = self.depths(grids, max_depth)
        ratings = []
        for i, (code, depth, seconds) in enumerate(
            zip(out.status.tolist(), out.depth.tolist(), out.seconds.tolist(), strict=True)
        ):
            if code == DEPTH_BAD:
                raise ValueError(f"grid {i}: values must be in 0..{self.geometry.size}")
            status = _LADDER_STATUS[code]
            solution = tuple(out.solutions[i].tolist()) if status is Status.SAT else ()
            timed_out, over = code == DEPTH_TIMEOUT, code == DEPTH_BUDGET
            settled = status is not Status.UNKNOWN or timed_out or over
            depth = depth if settled else None
            ratings.append(Rating(depth, status, max_depth, seconds, solution, timed_out, over))
        return ratings
