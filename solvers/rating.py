"""Depth rating: how many nested hypotheses a grid needs.

Depth 0 means unit propagation of the givens fills every cell (the exam's
`propagation`); depth 1 means the failed-literal rule is needed (`propagation2`);
depth k means hypotheses tested with the depth k-1 closure, the same idea as Berthier's
T&E(k).  A grid whose closure reaches a contradiction is UNSAT at that depth.  The
rules are loaded once per geometry and the givens are passed as assumptions, so rating
a file of grids builds one engine.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from encoder.decode import filled_grid
from encoder.encodings import given_literals
from encoder.geometry import Geometry
from encoder.status import Status
from solvers.engine import Engine
from solvers.grid_engine import GridEngine
from solvers.limits import TimeLimitReached
from solvers.results import depth_bucket

Grid = tuple[int, ...]


@dataclass(frozen=True)
class Rating:
    """The depth a grid needs: SAT when the closure of `depth` fills the grid, UNSAT when
    it reaches a contradiction, UNKNOWN (depth None) when no depth up to `max_depth`
    settles it, or UNKNOWN and `timed_out` when the time limit stopped the closure of
    `depth` (the grid needs at least that depth)."""

    depth: int | None
    status: Status
    max_depth: int
    seconds: float
    solution: Grid = ()
    timed_out: bool = False

    def depth_label(self) -> str:
        """Return '0', '1', ... , 'unsat@d', '>D' or 'timeout@d' as printed by `rate`."""
        if self.timed_out:
            return f"timeout@{self.depth}"
        if self.status is Status.UNKNOWN:
            return f">{self.max_depth}"
        if self.status is Status.UNSAT:
            return f"unsat@{self.depth}"
        return str(self.depth)

    def bucket(self) -> str:
        """Return the harness's depth bucket (see DEPTH_BUCKETS)."""
        return depth_bucket(self.status, self.depth, self.timed_out)


def closure(
    engine: Engine, assumptions: list[int], depth: int, polarity: str
) -> tuple[bool, list[int]]:
    """Return the depth-`depth` closure: plain unit propagation for depth 0."""
    if depth == 0:
        return engine.propagate(assumptions)
    return engine.probe(assumptions, depth=depth, polarity=polarity)


class Rater:
    """Rates grids of one geometry and encoding, reusing one engine; `time_limit`
    (seconds, None: none) bounds the rating of each grid."""

    def __init__(
        self,
        geometry: Geometry,
        encoding: str = "centrale",
        polarity: str = "both",
        time_limit: float | None = None,
    ):
        self.geometry = geometry
        self.polarity = polarity
        self.time_limit = time_limit
        self.engine = GridEngine(geometry, encoding).engine

    def rate(self, grid: Grid, max_depth: int = 2) -> Rating:
        start = time.perf_counter()
        assumptions = given_literals(grid, self.geometry)
        depth = 0
        try:
            with self.engine.limited(self.time_limit):
                for depth in range(max_depth + 1):
                    ok, literals = closure(self.engine, assumptions, depth, self.polarity)
                    if not ok:
                        seconds = time.perf_counter() - start
                        return Rating(depth, Status.UNSAT, max_depth, seconds)
                    solution = filled_grid(literals, self.geometry)
                    if solution is not None:
                        seconds = time.perf_counter() - start
                        return Rating(depth, Status.SAT, max_depth, seconds, solution)
        except TimeLimitReached:
            seconds = time.perf_counter() - start
            return Rating(depth, Status.UNKNOWN, max_depth, seconds, timed_out=True)
        return Rating(None, Status.UNKNOWN, max_depth, time.perf_counter() - start)
