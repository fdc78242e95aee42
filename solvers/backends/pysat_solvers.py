"""PySAT's solvers as backends (`minisat22`, `glucose3`, `glucose4`, `cadical195`): one
solver kept loaded with the formula, or one built per call, and each solver's decision
count with its baseline removed.  The module is not named `pysat`, which would shadow
the package it wraps."""

from __future__ import annotations

import time
from collections.abc import Callable

from encoder.numbering import Lit
from solvers.backends.base import Backend, assigned_cells, complete
from solvers.budgets import DEFAULT_BUDGET, Budget, budget_reason
from solvers.limits import (
    deadline_after,
    pysat_solve,
    pysat_solve_in_one_call,
    sigint_kept_by_python,
    time_limit_reason,
)
from solvers.results import NOT_AVAILABLE, Figure, NotAvailable, SolverResult, Status


def figure_of(after: dict, before: dict, key: str) -> int:
    """Return a PySAT statistic's growth over one call (0 when it is not reported)."""
    return after.get(key, 0) - before.get(key, 0)


def _minisat_decisions(raw: int, sat: bool) -> int:
    """Remove the MiniSat family's baseline (see `solvers.backends.base`)."""
    return max(0, raw - 2) if sat else raw


# How each PySAT solver's raw decision count becomes the reported one.
DECISION_BASELINE: dict[str, Callable[[int, bool], int]] = {
    "minisat22": _minisat_decisions,
    "glucose3": _minisat_decisions,
    "glucose4": _minisat_decisions,
    "cadical195": lambda raw, sat: raw,
}


class PysatBackend(Backend):
    """A PySAT solver, loaded once (incremental) or rebuilt per call (`fresh`), with
    `budget.conflicts` and `timeout` (seconds, None: no limit; see `solvers.limits`)
    per call."""

    def __init__(
        self,
        name: str,
        fresh: bool = False,
        timeout: float | None = None,
        budget: Budget = DEFAULT_BUDGET,
    ):
        super().__init__(name, timeout, budget)
        self.fresh = fresh
        self.solver = None
        # Learnt clauses of earlier calls would strengthen `propagate`: "solved without
        # search" is asked of a twin that never solves (same clauses, no learnts), built
        # at the first call once the solving is done, so that a one-call `fresh` solver
        # (`solvers solve`) is deleted before its twin exists: one copy of a big formula
        # in memory at a time.
        self.prober = None
        # False: `solved_without_search` is not asked of the twin but left NOT_AVAILABLE,
        # for a caller that learns it otherwise (the harness: one batch unit propagation
        # a chunk answers it for every solver, since the propagation's fixpoint is the
        # formula's, not the solver's).
        self.without_search = True

    def _new(self):
        from pysat.solvers import Solver

        return Solver(name=self.name, bootstrap_with=self.rows)

    def _load(self) -> None:
        if not self.fresh:
            self.solver = self._new()

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        start = time.perf_counter()
        deadline = deadline_after(self.timeout)
        solver = self.solver if self.solver is not None else self._new()
        try:
            before = solver.accum_stats() or {}
            if deadline is None:  # one call: counts that do not depend on the machine
                conflicts = self.budget.conflicts
                sat = pysat_solve_in_one_call(solver, assumptions, conflicts)
            else:
                sat = pysat_solve(solver, assumptions, deadline, self.budget.conflicts)
            seconds = time.perf_counter() - start
            after = solver.accum_stats() or {}
            model = complete(solver.get_model() or (), self.num_vars) if sat else ()
        finally:
            if solver is not self.solver:
                solver.delete()
        without: bool | NotAvailable = NOT_AVAILABLE
        try:
            if self.without_search:
                if self.prober is None:
                    self.prober = self._new()
                with sigint_kept_by_python():
                    ok, implied = self.prober.propagate(assumptions=assumptions)
                without = ok and assigned_cells(implied, self.cell_vars) == self.cell_vars
        except NotImplementedError:
            pass
        if sat is None:
            over = (
                deadline is None or figure_of(after, before, "conflicts") >= self.budget.conflicts
            )
            reason = (
                budget_reason("conflicts", self.budget.conflicts)
                if over
                else time_limit_reason(self.timeout)
            )
            stop = {"timed_out": not over, "over_budget": over}
            return self._result(Status.UNKNOWN, (), seconds, without, reason=reason, **stop)

        def figure(key: str) -> Figure:
            if key not in after:
                return NOT_AVAILABLE
            return after[key] - before.get(key, 0)

        decisions = figure("decisions")
        if not isinstance(decisions, NotAvailable):
            decisions = DECISION_BASELINE.get(self.name, lambda raw, sat: raw)(decisions, sat)
        status = Status.SAT if sat else Status.UNSAT
        return self._result(
            status,
            model,
            seconds,
            without,
            decisions,
            figure("conflicts"),
            figure("propagations"),
        )

    def close(self) -> None:
        for solver in (self.solver, self.prober):
            if solver is not None:
                solver.delete()
        self.solver = self.prober = None
