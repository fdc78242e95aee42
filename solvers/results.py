"""The result record every solver returns, whatever its backend.

A figure a backend cannot give is `NOT_AVAILABLE` (printed "not available"), never 0:
zero decisions and "we do not know" must stay distinguishable.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from encoder.status import Status
from solvers.budgets import OVER_BUDGET

__all__ = [
    "DEPTH_BUCKETS",
    "NA",
    "NOT_AVAILABLE",
    "Answers",
    "Figure",
    "NotAvailable",
    "SolutionCount",
    "SolverResult",
    "Status",
    "depth_bucket",
    "rating_label",
]


class NotAvailable:
    """The type of NOT_AVAILABLE: a figure this backend does not report."""

    _instance: NotAvailable | None = None

    def __new__(cls) -> NotAvailable:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NOT_AVAILABLE"

    def __str__(self) -> str:
        return "not available"

    def __bool__(self) -> bool:
        return False


NOT_AVAILABLE = NotAvailable()
Figure = int | NotAvailable


@dataclass(frozen=True)
class SolverResult:
    """What one solver call returned, with its cost.

    `solved_without_search`: root-level unit propagation of the assumptions (the givens)
    assigns every cell variable, whatever the solver (for `fl`, `fl2`, ... their closure
    solving the grid shows in `status`).  `decisions` has each backend's baseline removed
    (see `solvers.backends.base`).
    """

    solver: str
    status: Status
    model: tuple[int, ...]
    solved_without_search: bool | NotAvailable
    decisions: Figure
    conflicts: Figure
    propagations: Figure
    seconds: float
    reason: str = ""  # why the status is UNKNOWN (budget, time limit, crash, ...)
    # An UNKNOWN is one of four things: the work budget (`over_budget`), the time limit
    # the user asked for (`timed_out`), a solver that failed (`failed`: a crash, a
    # missing program, output that is not an answer, a model that breaks a clause: an
    # error the user must hear of), or an incomplete solver stopping short (none of
    # them: `up` leaving cells open is an answer, not a fault).
    timed_out: bool = False
    failed: bool = False
    over_budget: bool = False

    def __post_init__(self) -> None:
        if self.status is not Status.SAT and self.model:
            raise ValueError("only a SAT result carries a model")
        stopped = self.timed_out or self.failed or self.over_budget
        if stopped and self.status is not Status.UNKNOWN:
            raise ValueError("only an UNKNOWN result runs out of budget, times out or fails")


NA = -1  # an Answers column's "not available" (NOT_AVAILABLE of a SolverResult)
# Answers.stopped: what stopped an UNKNOWN answer (0: nothing, or an incomplete solver
# stopping short), SolverResult's timed_out, failed and over_budget.
TIMED_OUT, FAILED, OVER = 1, 2, 3


def _figure(value: int) -> Figure:
    return NOT_AVAILABLE if value == NA else value


@dataclass(frozen=True, eq=False)
class Answers:
    """One solver's answers on a run of grids, in columns, one entry a grid: what a
    `SolverResult` says of each (`record(i)` gives it back, without its model), as
    arrays, so that a chunk of grids is answered, checked, counted and written without a
    Python object per grid.  `status` holds Status values (MiniSat's codes), the count
    columns and `without_search` NA for a figure not available, `stopped` 0 or
    TIMED_OUT, FAILED, OVER, and `reasons` the rows that have one.  An answer is checked
    from `solutions` (the filled grid of each SAT row, zeros elsewhere) when the solver
    answers with grids (the board), else from `models` (row -> model), which the harness
    drops once it has checked them."""

    solver: str
    status: np.ndarray  # int8
    without_search: np.ndarray  # int8: 1, 0, NA
    decisions: np.ndarray  # int64
    conflicts: np.ndarray
    propagations: np.ndarray
    seconds: np.ndarray  # float64
    stopped: np.ndarray  # int8
    reasons: dict[int, str]
    solutions: np.ndarray | None = None  # int8 rows of N*N cells
    models: dict[int, tuple[int, ...]] | None = None

    def __len__(self) -> int:
        return int(self.status.shape[0])

    def __eq__(self, other: object) -> bool:
        """The same answers, column by column (arrays compared by value)."""
        if not isinstance(other, Answers):
            return NotImplemented
        return all(_same(getattr(self, f.name), getattr(other, f.name)) for f in fields(Answers))

    __hash__ = None  # mutable arrays: no hash

    @classmethod
    def from_results(cls, solver: str, results: Sequence[SolverResult]) -> Answers:
        """The columns of SolverResult records (their models kept in `models`)."""
        count = len(results)
        columns = np.array(
            [
                (r.status.value, _code(r.solved_without_search), _code(r.decisions),
                 _code(r.conflicts), _code(r.propagations),
                 TIMED_OUT if r.timed_out else FAILED if r.failed else OVER if r.over_budget else 0)
                for r in results
            ],
            dtype=np.int64,
        ).reshape(count, 6)  # fmt: skip
        return cls(
            solver,
            columns[:, 0].astype(np.int8),
            columns[:, 1].astype(np.int8),
            columns[:, 2].copy(),
            columns[:, 3].copy(),
            columns[:, 4].copy(),
            np.array([r.seconds for r in results], np.float64),
            columns[:, 5].astype(np.int8),
            {i: r.reason for i, r in enumerate(results) if r.reason},
            models={i: r.model for i, r in enumerate(results) if r.model},
        )

    @classmethod
    def concatenate(cls, parts: Sequence[Answers]) -> Answers:
        """One solver's answers on consecutive runs of grids, as one."""
        if len(parts) == 1:
            return parts[0]
        starts = np.cumsum([0, *map(len, parts)]).tolist()

        def shifted(name: str) -> dict | None:
            if all(getattr(part, name) is None for part in parts):
                return None
            return {
                start + i: value
                for start, part in zip(starts, parts, strict=False)
                for i, value in (getattr(part, name) or {}).items()
            }

        solutions = None
        if all(part.solutions is not None for part in parts):
            solutions = np.concatenate([part.solutions for part in parts])
        columns = {
            f.name: np.concatenate([getattr(part, f.name) for part in parts])
            for f in fields(cls)
            if f.name not in ("solver", "reasons", "solutions", "models")
        }
        return cls(
            parts[0].solver, **columns, reasons=shifted("reasons") or {}, solutions=solutions,
            models=shifted("models"),
        )  # fmt: skip

    def record(self, i: int) -> SolverResult:
        """The answer on grid `i` as a SolverResult (no model)."""
        stopped = int(self.stopped[i])
        without = int(self.without_search[i])
        return SolverResult(
            self.solver,
            Status(int(self.status[i])),
            (),
            NOT_AVAILABLE if without == NA else bool(without),
            _figure(int(self.decisions[i])),
            _figure(int(self.conflicts[i])),
            _figure(int(self.propagations[i])),
            float(self.seconds[i]),
            self.reasons.get(i, ""),
            stopped == TIMED_OUT,
            stopped == FAILED,
            stopped == OVER,
        )


def _same(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


def _code(value: bool | int | NotAvailable) -> int:
    return NA if isinstance(value, NotAvailable) else int(value)


def rating_label(
    status: Status,
    value: int | None,
    beyond: int,
    timed_out: bool = False,
    at: int | None = None,
    over_budget: bool = False,
) -> str:
    """Return a rating as `solvers rate` prints it, the one maker of the depth and length
    labels: `value` when the grid is settled (SAT), '>beyond' when no level up to
    `beyond` settles it (UNKNOWN), 'unsat' when a contradiction was found, '>budget'
    when its work budget ran out, 'timeout' when the time limit stopped it; the last
    three followed by '@at' when `at` (the depth concerned) is given.  The depth rating
    gives `at`: '2', '>2', 'unsat@0', '>budget@2', 'timeout@1'; the length rating does
    not: '4', '>1', 'unsat', '>budget', 'timeout'."""
    where = "" if at is None else f"@{at}"
    if over_budget:
        return f"{OVER_BUDGET}{where}"
    if timed_out:
        return f"timeout{where}"
    if status is Status.UNSAT:
        return f"unsat{where}"
    if status is Status.UNKNOWN:
        return f">{beyond}"
    return str(value)


@dataclass(frozen=True, kw_only=True)
class SearchEnd:
    """How a rating's refutation searches ended, the part the length and the BxB ratings
    share: stopped by the time limit (`timed_out`) or the work budget (`over_budget`),
    and the searches made; `label` prints the rating with rating_label, from the status,
    the value and the deepest level tried that the rating's `shown` gives."""

    timed_out: bool = False
    over_budget: bool = False
    searches: int = 0

    def shown(self) -> tuple[Status, int | None, int]:
        raise NotImplementedError

    def label(self) -> str:
        """Return the rating as `rate` prints it: '4', 'unsat', '>D', '>budget' or
        'timeout'."""
        status, value, beyond = self.shown()
        return rating_label(status, value, beyond, self.timed_out, over_budget=self.over_budget)


# The harness's depth buckets: depths 0-3, deeper than 3 or beyond the depth tried
# ("more"), a contradiction found ("unsat"), the work budget (">budget", as every label
# says it) or the time limit ("timeout") reached before the depth was known.
DEPTH_BUCKETS = ("0", "1", "2", "3", "more", "unsat", OVER_BUDGET, "timeout")


def depth_bucket(label: str) -> str:
    """Return the harness's bucket of a depth label (`rating_label`): '0' to '3', 'unsat',
    '>budget' and 'timeout' as they are (whatever the depth after '@'), 'more' for any
    other."""
    word = label.partition("@")[0]
    return word if word in DEPTH_BUCKETS and word != "more" else "more"


@dataclass(frozen=True)
class Work:
    """What one engine call cost: decisions, backtracks, conflicts, propagations
    (literals propagated) and hypotheses (failed-literal hypotheses tested)."""

    decisions: int = 0
    backtracks: int = 0
    conflicts: int = 0
    propagations: int = 0
    hypotheses: int = 0

    def __post_init__(self) -> None:
        if any(getattr(self, f.name) < 0 for f in fields(self)):
            raise ValueError("counters must be >= 0")


@dataclass(frozen=True)
class SolutionCount:
    """The number of solutions (models) of a grid or a formula, counted up to a cap:
    `complete` is False when the count stopped early (at the cap, or a budget), and
    `count` is then a lower bound; `over_budget` when the work budget stopped it (then it
    says `>budget`, never a number); `clash`, for a grid whose givens break a rule (no
    solution), the clash in words; `work`: what the count cost, when the engine counted."""

    count: int
    complete: bool
    work: Work = field(default=Work(), compare=False)  # two counts are equal by their answer
    over_budget: bool = False
    clash: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("count must be >= 0")

    @property
    def unique(self) -> bool:
        return self.count == 1 and self.complete
