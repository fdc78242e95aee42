"""The result record every solver returns, whatever its backend.

A figure a backend cannot give is `NOT_AVAILABLE` (printed "not available"), never 0:
zero decisions and "we do not know" must stay distinguishable.
"""

from __future__ import annotations

from dataclasses import dataclass

from encoder.status import Status

__all__ = [
    "DEPTH_BUCKETS",
    "NOT_AVAILABLE",
    "Figure",
    "NotAvailable",
    "SolutionCount",
    "SolverResult",
    "Status",
    "depth_bucket",
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
    (see `solvers.backends`).
    """

    solver: str
    status: Status
    model: tuple[int, ...]
    solved_without_search: bool | NotAvailable
    decisions: Figure
    conflicts: Figure
    propagations: Figure
    seconds: float
    reason: str = ""  # why the status is UNKNOWN (time limit, crash, missing binary, ...)
    # An UNKNOWN is one of three things: the time limit (`timed_out`), a solver that
    # failed (`failed`: a crash, a missing program, output that is not an answer, a
    # model that breaks a clause: an error the user must hear of), or an incomplete
    # solver stopping short (neither: `up` leaving cells open is an answer, not a fault).
    timed_out: bool = False
    failed: bool = False

    def __post_init__(self) -> None:
        if self.status is not Status.SAT and self.model:
            raise ValueError("only a SAT result carries a model")
        if (self.timed_out or self.failed) and self.status is not Status.UNKNOWN:
            raise ValueError("only an UNKNOWN result times out or fails")


# The harness's depth buckets: depths 0-3, deeper than 3 or beyond the depth tried
# ("more"), a contradiction found ("unsat"), and the time limit reached before the
# depth was known ("timeout").
DEPTH_BUCKETS = ("0", "1", "2", "3", "more", "unsat", "timeout")


def depth_bucket(status: Status, depth: int | None, timed_out: bool = False) -> str:
    """Return the bucket of a grid the closure of `depth` solved (SAT), refuted (UNSAT),
    or left open at every depth tried (UNKNOWN), or that ran out of time (`timed_out`)."""
    if timed_out:
        return "timeout"
    if status is Status.UNSAT:
        return "unsat"
    if status is Status.SAT and depth is not None and depth <= 3:
        return str(depth)
    return "more"


@dataclass(frozen=True)
class SolutionCount:
    """Number of solutions of a grid, counted up to a cap."""

    solutions: int  # exact when not capped, else equal to the cap (a lower bound)
    capped: bool  # True when the count stopped at the cap: there may be more

    @property
    def unique(self) -> bool:
        return self.solutions == 1 and not self.capped
