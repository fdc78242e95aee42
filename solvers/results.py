"""The result record every solver returns, whatever its backend.

A figure a backend cannot give is `NOT_AVAILABLE` (printed "not available"), never 0:
zero decisions and "we do not know" must stay distinguishable.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Status(enum.Enum):
    """A solver's answer; the values are MiniSat's exit codes."""

    SAT = 10
    UNSAT = 20
    UNKNOWN = 0


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

    def __post_init__(self) -> None:
        if self.status is not Status.SAT and self.model:
            raise ValueError("only a SAT result carries a model")
