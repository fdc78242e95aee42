"""The running counters behind the tables (`benchmarks.report.tallies`): the same medians and
means as the figures computed from every value, and "not available" kept as such."""

from __future__ import annotations

import random
import statistics
from collections import Counter

from benchmarks.chunks import GridRun
from benchmarks.report.tallies import DepthTally, SolverTally, counts_median
from solvers.results import NOT_AVAILABLE, SolverResult, Status


def test_the_median_of_counted_values_is_the_median_of_the_values():
    draw = random.Random(24)
    for count in range(1, 200):
        values = [draw.randint(0, 30) for _ in range(count)]
        assert counts_median(Counter(values)) == float(statistics.median(values))


def _run(position: int, decisions, status=Status.SAT, seconds=1e-5) -> GridRun:
    result = SolverResult("minisat22", status, (), True, decisions, 3, 9, seconds)
    return GridRun(position, result, status is Status.SAT)


def test_a_tally_gives_the_figures_of_every_grid():
    draw = random.Random(7)
    runs = [_run(i, draw.randint(0, 9), draw.choice(list(Status))) for i in range(101)]
    tally = SolverTally()
    for run in runs:
        tally.add(run)
    summary = tally.summary("set", "centrale", "minisat22")
    decisions = [r.result.decisions for r in runs]
    assert summary.grids == 101
    assert summary.decisions_median == statistics.median(decisions)
    assert summary.decisions_mean == statistics.fmean(decisions)
    assert summary.solved == sum(r.result.status is Status.SAT for r in runs)
    assert summary.unknown == sum(r.result.status is Status.UNKNOWN for r in runs)
    assert summary.without_search == summary.solved
    assert abs(summary.seconds_median - 1e-5) < 1e-7
    tally.add(_run(101, NOT_AVAILABLE))
    summary = tally.summary("set", "centrale", "minisat22")
    assert summary.decisions_median is NOT_AVAILABLE and summary.decisions_mean is NOT_AVAILABLE
    assert summary.conflicts_mean == 3.0


def test_a_depth_tally_counts_labels():
    tally = DepthTally()
    tally.add(["0", "1", "1", "2"], ["0", "3", "3", ""], ["", "", "", "2"])
    tally.add(["unsat"], [">1"], [""])
    profile = tally.profile("set", "centrale", 3)
    assert profile.grids == 5
    assert profile.counts["1"] == 2 and profile.counts["unsat"] == 1 and profile.counts["2"] == 1
    assert profile.lengths == {"0": 1, "3": 2, ">1": 1}  # each rating's own grids only
    assert profile.bxbs == {"2": 1}
