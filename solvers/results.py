"""The result record every solver returns, whatever its backend.

A figure a backend cannot give is `NOT_AVAILABLE` (printed "not available"), never 0:
zero decisions and "we do not know" must stay distinguishable.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from encoder.status import Status
from solvers.budgets import OVER_BUDGET

__all__ = [
    "DEPTH_BUCKETS",
    "NOT_AVAILABLE",
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
    `count` is then a lower bound; `work`: what the count cost, when the engine counted."""

    count: int
    complete: bool
    work: Work = field(default=Work(), compare=False)  # two counts are equal by their answer

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("count must be >= 0")

    @property
    def unique(self) -> bool:
        return self.count == 1 and self.complete
