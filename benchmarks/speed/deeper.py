"""Question 3: deeper closures.

The depth-2 median on the forum's hardest list (and against `Minisat22.solve`'s median
on the same grids) and the depth-3 median on mith's sample of T&E(3) grids, for the
closure of that depth alone (`Engine.probe`) and for the depth rating that reaches it
(the closures of depth 0, 1, ... each on top of the one below, `Rater.depths`).
"""

from __future__ import annotations

from collections import Counter

import numpy as np
from pysat.solvers import Minisat22

from benchmarks.speed.common import (
    GEOMETRY,
    board_values,
    minisat_solves,
    ms,
    per_grid,
    solved,
)
from benchmarks.speed.record import Record
from benchmarks.timing import median
from solvers.ratings.depth import Rater, depth_labels

# The targets of each depth: (the closure's, the closure's against Minisat22.solve,
# the depth rating's); None where the question has none.
TARGETS = {2: ("d2-closure", "d2-vs-solve", "d2-rating"), 3: ("d3-closure", None, "d3-rating")}


def deeper(engine, grids, depth: int, source: str, number: str, quiet: bool, record: Record,
           solver: Minisat22 | None = None) -> None:  # fmt: skip
    """Question 3: the median time per grid of the depth-`depth` closure, and of the
    depth rating (closures of depth 0, 1, ... until one fills the grid) up to it, against
    their targets; with a `solver`, its `solve` median on the same grids too."""
    closure_target, solve_target, rating_target = TARGETS[depth]
    times, answers = per_grid(
        f"depth {depth} engine", grids, lambda g: engine.probe(g, depth), quiet
    )
    solve_times = [] if solver is None else minisat_solves(solver, grids, quiet)
    done = sum(ok and solved(lits) for ok, lits in answers)
    rater = Rater(GEOMETRY)
    values = board_values(grids)
    rater.depths(values[:1], depth)  # a first call before anything is timed
    ratings = rater.depths(values, depth)
    rated = Counter(depth_labels(ratings, depth))
    rating_ms = float(np.median(ratings.seconds)) * 1e3
    key = f"3.depth_{depth}"
    record.figure(f"{key}.engine.median", median(times) * 1e3, "ms")
    record.figure(f"{key}.engine.worst", max(times) * 1e3, "ms")
    record.figure(f"{key}.solved", done, "grids")
    record.figure(f"{key}.rating.median", rating_ms, "ms")
    record.figure(f"{key}.rating.worst", float(ratings.seconds.max()) * 1e3, "ms")
    print(f"\n{number} depth-{depth} closure, {len(grids)} grids of {source}")
    print(f"   engine.probe(depth={depth})  median {ms(median(times))}, worst {ms(max(times))}; "
          f"solved by depth {depth}: {done}/{len(grids)}")  # fmt: skip
    print(f"   depth rating up to {depth} (Rater.depths)  median "
          f"{ms(float(np.median(ratings.seconds)))}, worst {ms(float(ratings.seconds.max()))}; "
          f"depths {dict(sorted(rated.items()))}")  # fmt: skip
    print(record.target(closure_target, median(times) * 1e3))
    if solve_times:
        record.figure(f"{key}.minisat22_solve.median", median(solve_times) * 1e3, "ms")
        print(f"   Minisat22.solve (a reused solver, givens as assumptions, first call on each "
              f"grid)  median "
              f"{ms(median(solve_times))}")  # fmt: skip
        if solve_target:
            print(record.target(solve_target, median(times) / median(solve_times)))
    print(record.target(rating_target, rating_ms))
