"""What a benchmark run counts: a summary per set, encoding and solver, a depth profile
per set and encoding, each made from a running counter fed a grid at a time.

Per set x encoding x solver (`Summary`): grids, % solved without search, % solved,
median and mean decisions and conflicts, median microseconds per grid and grids per
second (one core: grids / summed solver time).  "Solved without search" is, for the
closure solvers (`up`, `fl`, `fl2`, ...), solving the grid at all (they never
branch); for the others, root-level unit propagation of the givens assigning every
cell (`SolverResult.solved_without_search`).  A figure a solver does not report is
NOT_AVAILABLE: "n/a" in tables and CSV, null in JSON, never 0.

Per set x encoding (`DepthProfile`), when the home-grown engine ran: the share of grids
that need depth 0 (unit propagation), 1 (failed literals), 2, 3, more, or are UNSAT.

The headline (`Headline`) is the summaries' "% solved without search" as one matrix:
sets by solvers, what the heat map draws and the text report and results.json open with.

Both are made from running counters (`SolverTally`, `DepthTally`): medians come from
counts of each value (a solver time kept to 0.1 µs), so memory does not grow with the
number of grids.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from solvers.results import (
    DEPTH_BUCKETS,
    FAILED,
    NA,
    NOT_AVAILABLE,
    OVER,
    TIMED_OUT,
    Answers,
    NotAvailable,
    Status,
)

Number = float | NotAvailable


@dataclass(frozen=True)
class Summary:
    """One solver on one set in one encoding."""

    dataset: str
    encoding: str
    solver: str
    grids: int
    without_search: int | NotAvailable
    solved: int
    unsat: int
    unknown: int
    decisions_median: Number
    decisions_mean: Number
    conflicts_median: Number
    conflicts_mean: Number
    seconds_median: float
    seconds_total: float
    # Of the `unknown` grids, those stopped by the time limit and those the solver failed
    # on (a crash, a missing program, output that is no answer): counted apart because a
    # failure is an error of the run, not a figure of the solver; and those stopped by
    # their work budget.
    timed_out: int = 0
    failed: int = 0
    over_budget: int = 0

    @property
    def without_search_pct(self) -> Number:
        if isinstance(self.without_search, NotAvailable) or not self.grids:
            return NOT_AVAILABLE
        return 100.0 * self.without_search / self.grids

    @property
    def solved_pct(self) -> Number:
        return 100.0 * self.solved / self.grids if self.grids else NOT_AVAILABLE

    @property
    def grids_per_second(self) -> Number:
        return self.grids / self.seconds_total if self.seconds_total > 0 else NOT_AVAILABLE


@dataclass(frozen=True)
class DepthProfile:
    """How many grids of a set need each depth, in one encoding."""

    dataset: str
    encoding: str
    grids: int
    max_depth: int
    counts: dict[str, int]  # DEPTH_BUCKETS -> grids
    # The finer ratings, each on its own scale; empty when not rated.
    # refutation-length label ('3', '>budget', ...) -> grids, of the grids rated by length
    lengths: dict[str, int] = field(default_factory=dict)
    # BxB label ('2', '>2', ...) -> grids, of the grids that need two levels (depth 2)
    bxbs: dict[str, int] = field(default_factory=dict)

    def share(self, bucket: str) -> float:
        return 100.0 * self.counts.get(bucket, 0) / self.grids if self.grids else 0.0


TICK = 1e-7  # seconds: a solver time is kept to 0.1 µs for its median (CSV prints 0.1 µs)


@dataclass(frozen=True)
class Headline:
    """The run's headline: the % of grids each solver solved without search, a row per
    set and encoding, a column per solver that can tell (the heat map's numbers);
    None where the solver did not run on that set."""

    solvers: tuple[str, ...]
    rows: tuple[tuple[str, str, tuple[float | None, ...]], ...]  # dataset, encoding, values

    @property
    def encodings(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(encoding for _, encoding, _ in self.rows))


def headline(summaries: Sequence[Summary]) -> Headline | None:
    """Return the headline of the summaries, or None when no solver can tell (PySAT
    solvers without a propagation, `Summary.without_search` not available)."""
    shown = [s for s in summaries if not isinstance(s.without_search_pct, NotAvailable)]
    if not shown:
        return None
    solvers = tuple(dict.fromkeys(s.solver for s in shown))
    keys = list(dict.fromkeys((s.dataset, s.encoding) for s in shown))
    values: dict[tuple[str, str], list[float | None]] = {k: [None] * len(solvers) for k in keys}
    for s in shown:
        values[(s.dataset, s.encoding)][solvers.index(s.solver)] = s.without_search_pct
    rows = tuple(
        (dataset, encoding, tuple(values[(dataset, encoding)])) for dataset, encoding in keys
    )
    return Headline(solvers, rows)


def counts_median(counts: Counter) -> float:
    """Return the median of values given as value -> how many times (`statistics.median`
    of the values written out, as a float)."""
    total = sum(counts.values())
    middle = [(total - 1) // 2, total // 2]  # the one or two middle ranks
    found, seen = [], 0
    for value in sorted(counts):
        seen += counts[value]
        while middle and middle[0] < seen:
            found.append(value)
            middle.pop(0)
        if not middle:
            break
    return (found[0] + found[1]) / 2 if total % 2 == 0 else float(found[0])


class SolverTally:
    """Running counters of one solver on one set in one encoding: what its `Summary`
    needs, in memory bounded by the number of distinct figures (decisions, conflicts,
    times to 0.1 µs), never by the number of grids."""

    def __init__(self) -> None:
        self.grids = self.without = self.timed_out = self.failed = self.over_budget = 0
        self.without_known = True  # False once a grid's "without search" is NOT_AVAILABLE
        self.statuses: Counter = Counter()
        self.decisions: Counter | None = Counter()  # None once a figure is NOT_AVAILABLE
        self.conflicts: Counter | None = Counter()
        self.ticks: Counter = Counter()  # solver time in TICKs -> grids
        self.seconds = 0.0

    def add(self, answers: Answers) -> None:
        """Count one solver's answers on a chunk (`solvers.results.Answers`), in columns."""
        self.grids += len(answers)
        without = answers.without_search
        if (without == NA).any():
            self.without_known = False
        else:
            self.without += int(np.count_nonzero(without))
        for code, many in _counted(answers.status).items():
            self.statuses[Status(code)] += many
        self.decisions = _count(self.decisions, answers.decisions)
        self.conflicts = _count(self.conflicts, answers.conflicts)
        self.ticks.update(_counted(np.rint(answers.seconds / TICK).astype(np.int64)))
        self.seconds += float(np.sum(answers.seconds))
        self.timed_out += int(np.count_nonzero(answers.stopped == TIMED_OUT))
        self.failed += int(np.count_nonzero(answers.stopped == FAILED))
        self.over_budget += int(np.count_nonzero(answers.stopped == OVER))

    def summary(self, dataset: str, encoding: str, solver: str) -> Summary:
        return Summary(
            dataset,
            encoding,
            solver,
            self.grids,
            self.without if self.without_known else NOT_AVAILABLE,
            self.statuses[Status.SAT],
            self.statuses[Status.UNSAT],
            self.statuses[Status.UNKNOWN],
            *_figures(self.decisions),
            *_figures(self.conflicts),
            counts_median(self.ticks) * TICK if self.grids else 0.0,
            self.seconds,
            self.timed_out,
            self.failed,
            self.over_budget,
        )


def _counted(values: np.ndarray) -> dict[int, int]:
    """Each value of an integer array -> how many times it occurs."""
    found, many = np.unique(values, return_counts=True)
    return dict(zip(found.tolist(), many.tolist(), strict=True))


def _count(counts: Counter | None, values: np.ndarray) -> Counter | None:
    """`counts` with the values added, or None once a value is not available (NA)."""
    if counts is None or (values == NA).any():
        return None
    counts.update(_counted(values))
    return counts


def _figures(counts: Counter | None) -> tuple[Number, Number]:
    """Return (median, mean) of counted figures, NOT_AVAILABLE if any was."""
    if not counts:
        return NOT_AVAILABLE, NOT_AVAILABLE
    total = sum(value * n for value, n in counts.items())
    return counts_median(counts), float(total) / sum(counts.values())


class DepthTally:
    """Running counters of the depth, refutation-length and BxB labels of a set in one
    encoding ('' labels, a grid the other rating covers, are not counted)."""

    def __init__(self) -> None:
        self.depths: Counter = Counter()
        self.lengths: Counter = Counter()
        self.bxbs: Counter = Counter()

    def add(self, depths: Sequence[str], lengths: Sequence[str], bxbs: Sequence[str]) -> None:
        self.depths.update(depths)
        self.lengths.update(label for label in lengths if label)
        self.bxbs.update(label for label in bxbs if label)

    def profile(self, dataset: str, encoding: str, max_depth: int) -> DepthProfile:
        counts = {bucket: self.depths[bucket] for bucket in DEPTH_BUCKETS}
        grids = sum(self.depths.values())
        lengths, bxbs = dict(self.lengths), dict(self.bxbs)
        return DepthProfile(dataset, encoding, grids, max_depth, counts, lengths, bxbs)
