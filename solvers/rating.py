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
from encoder.encodings import given_literals, rule_formula
from encoder.geometry import Geometry
from solvers.engine import Engine

Grid = tuple[int, ...]


@dataclass(frozen=True)
class Rating:
    """The depth a grid needs: `depth` is None when it exceeds `max_depth`."""

    depth: int | None
    status: str  # "solved", "unsat" (contradiction at `depth`) or "beyond"
    max_depth: int
    seconds: float
    solution: Grid = ()

    def depth_label(self) -> str:
        """Return '0', '1', ... , 'unsat@d' or '>D' as printed by `rate`."""
        if self.status == "beyond":
            return f">{self.max_depth}"
        if self.status == "unsat":
            return f"unsat@{self.depth}"
        return str(self.depth)


def closure(
    engine: Engine, assumptions: list[int], depth: int, polarity: str
) -> tuple[bool, list[int]]:
    """Return the depth-`depth` closure: plain unit propagation for depth 0."""
    if depth == 0:
        return engine.propagate(assumptions)
    return engine.probe(assumptions, depth=depth, polarity=polarity)


class Rater:
    """Rates grids of one geometry and encoding, reusing one engine."""

    def __init__(self, geometry: Geometry, encoding: str = "centrale", polarity: str = "both"):
        self.geometry = geometry
        self.polarity = polarity
        formula = rule_formula(geometry, encoding)
        self.engine = Engine(formula.clauses, formula.num_vars)

    def rate(self, grid: Grid, max_depth: int = 2) -> Rating:
        start = time.perf_counter()
        assumptions = given_literals(grid, self.geometry)
        for depth in range(max_depth + 1):
            ok, literals = closure(self.engine, assumptions, depth, self.polarity)
            if not ok:
                return Rating(depth, "unsat", max_depth, time.perf_counter() - start)
            solution = filled_grid(literals, self.geometry)
            if solution is not None:
                return Rating(depth, "solved", max_depth, time.perf_counter() - start, solution)
        return Rating(None, "beyond", max_depth, time.perf_counter() - start)
