"""Question 10: DPLL search with solution counting, against Minisat22.solve.

`Engine.count(limit=2)` (`solvers.core.engine`: the search of the native core, the one
`benchmarks unique` and the `dpll` solver use) on the forum's hardest grids, givens as
assumptions: counting to 2 proves a grid's solution unique, more work than finding it.
Its median per call against `Minisat22.solve`'s (a reused solver, each grid's first
call, as in 3a), both from the same run.  Every count is checked against Minisat22: a
grid it solves counts at least 1, a grid it refutes 0, and no count stops short.
"""

from __future__ import annotations

from collections import Counter

from pysat.solvers import Minisat22

from benchmarks.paths import load
from benchmarks.speed.common import GEOMETRY, PROG, minisat_solves, per_grid
from benchmarks.speed.record import Record
from benchmarks.timing import median
from encoder.encodings import rule_formula

CAP = 2  # models counted: 2 tells a unique grid from one of several


def counting(hardest: list[list[int]], name: str, quiet: bool, record: Record) -> None:
    """Question 10: the median time of counting to CAP against Minisat22.solve's."""
    from solvers.core.rules import GridRules

    engine = GridRules(GEOMETRY).engine
    print(f"\n10. DPLL search counting to {CAP} (Engine.count), {len(hardest)} grids of {name}; "
          f"load average {load()}")  # fmt: skip
    times, counts = per_grid(
        "Engine.count", hardest, lambda g: engine.count(limit=CAP, assumptions=g), quiet
    )
    models: list = []
    with Minisat22(bootstrap_with=rule_formula(GEOMETRY).clauses) as minisat:
        solve_times = minisat_solves(minisat, hardest, quiet, models)
    for result, model in zip(counts, models, strict=True):
        short = not result.complete and result.count < CAP  # stopped by a budget
        if short or (result.count > 0) != (model is not None):
            raise SystemExit(f"{PROG}: Engine.count and Minisat22.solve disagree on a grid")
    count_ms, solve_ms = median(times) * 1e3, median(solve_times) * 1e3
    record.figure("10.count.median", count_ms, "ms")
    record.figure("10.minisat22_solve.median", solve_ms, "ms")
    shares = dict(sorted(Counter(min(r.count, CAP) for r in counts).items()))
    print(f"   medians: Engine.count(limit={CAP}) {count_ms:.3f} ms, Minisat22.solve "
          f"{solve_ms:.3f} ms; grids by count (capped at {CAP}): {shares}")  # fmt: skip
    print(record.target("count-vs-solve", count_ms / solve_ms))
