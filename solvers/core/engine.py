"""The home-grown SAT engine's Python face: `Engine`, shaped like a PySAT solver.

An `Engine` holds one CNF (DIMACS ints, any formula, not only Sudoku) and answers
many questions about it under assumptions, restoring its state after each one:
`propagate` (unit propagation, PySAT's contract), `probe` (failed-literal closure of
depth k), `trace` (propagation with reasons, for explanations), `solve`, `count` and
`enumerate` (DPLL).  The work is done by one native object of the core, the clause
engine (`solvers.core.Clauses`), which holds the formula once and answers the
propagations, closures, reasons and searches alike; this module converts arguments,
checks them, turns the core's outcomes into the project's exceptions and wraps results
in frozen records.  The core runs without the GIL and polls for signals, so Ctrl-C and the
opt-in time limit stop a long closure or search within tens of milliseconds, leaving
the engine ready for the next query.

Roads not taken: a PySAT-backed implementation (a Minisat22 per question) pays the
Python call overhead per hypothesis that makes probing from Python about 10 times
slower, and gives no closure of depth k.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np

from encoder.numbering import Lit
from solvers import core
from solvers.budgets import BudgetExhausted
from solvers.core.boundary import budget_units, literal_array
from solvers.core.extension import EXHAUSTED as NATIVE_EXHAUSTED
from solvers.core.extension import FOUND as NATIVE_FOUND
from solvers.core.extension import TIME as NATIVE_TIME
from solvers.core.extension import WORK as NATIVE_WORK
from solvers.core.proof_log import NO_LOG
from solvers.limits import TimeLimitReached, clock, deadline_after
from solvers.results import SolutionCount, Status, Work

POLARITIES = core.POLARITIES
_STAT_NAMES = ("decisions", "backtracks", "conflicts", "propagations", "hypotheses")


@dataclass(frozen=True)
class EngineAnswer:
    """Answer of Engine.solve and the work it took (this call only)."""

    status: Status
    model: tuple[Lit, ...]  # one signed literal per variable when SAT, else empty
    work: Work = field(default_factory=Work)

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise TypeError(f"status must be a Status, not {self.status!r}")
        if self.model and self.status is not Status.SAT:
            raise ValueError(f"a {self.status.name} result carries no model")


def _none(as_array: bool):
    """No literals: an empty list, or an empty int64 array."""
    return np.empty(0, np.int64) if as_array else []


class Engine:
    """One CNF and a reusable assignment state; every query leaves the state at level 0.

    `work_budget` (the core's work units: literals propagated and hypotheses tested, or
    None) bounds each probing and search query: past it they raise
    `solvers.budgets.BudgetExhausted`; `deadline` (a `solvers.limits.clock()` value, or
    None) bounds them by the clock, as asked for: past it they raise
    `solvers.limits.TimeLimitReached`; `limited` sets both for a block of queries."""

    def __init__(self, clauses: Iterable[Iterable[Lit]], num_vars: int | None = None):
        """Build the engine for clauses of DIMACS ints: lists, or an `encoder.dimacs.Cnf`
        whose flat arrays are used as they are (no copy: a large parsed formula costs
        its arrays and the core's own, nothing per clause in Python).  num_vars
        defaults to the Cnf's count, or to the highest variable of lists."""
        from encoder.dimacs import MAX_VARS, Cnf  # the one conversion to flat arrays

        cnf = clauses if isinstance(clauses, Cnf) else Cnf.from_clauses(clauses, num_vars)
        if num_vars is None:
            num_vars = cnf.num_vars
        elif not 0 <= num_vars <= MAX_VARS:
            raise ValueError(f"num_vars must be in 0..{MAX_VARS}, not {num_vars}")
        elif cnf.highest > num_vars:
            raise ValueError(f"a clause mentions variable {cnf.highest} but num_vars is {num_vars}")
        self.num_vars: int = int(num_vars)
        self.num_clauses: int = len(cnf)
        self._cnf = cnf  # the core's formula is built from it (again after a rewind)
        self._clauses: core.Clauses | None = None  # the one native formula object
        self._spent = np.zeros(5, np.int64)  # the work of formulas since let go (see rewind)
        self.work_budget: int | None = None  # work units per query
        self.deadline: float | None = None
        self.time_limit: float | None = None  # the seconds behind `deadline`, for messages
        # False when the formula is refuted by propagation alone (or has an empty clause):
        # the native core says so (a formula of no variable: whether it has a clause,
        # which can only be empty).
        if self.num_vars > 0:
            self.ok: bool = self._core().ok
        else:
            self.ok = bool(np.all(np.diff(cnf.offsets) > 0))

    @classmethod
    def from_dimacs(cls, path: str) -> Engine:
        """Return an engine for a DIMACS CNF file (parse errors raise encoder's DimacsError)."""
        from encoder.dimacs import SPARE_VARS, read_cnf
        from encoder.errors import DimacsError

        cnf = read_cnf(path)
        if cnf.sparse:  # the engine's arrays are per variable: refuse an empty promise
            room = cnf.literals.size + SPARE_VARS
            raise DimacsError(
                f"{cnf.num_vars} variables for {cnf.literals.size} literals: more than the "
                f"engine holds for them ({room}); `solvers solve` renumbers the used ones",
                path,
            )
        return cls(cnf)

    @contextlib.contextmanager
    def limited(self, seconds: float | None, work: int | None = None) -> Iterator[Engine]:
        """Bound each query of a block to `work` units (None: no budget), and the block
        to `seconds` in all (None: no time limit)."""
        saved = self.deadline, self.time_limit, self.work_budget
        self.deadline, self.time_limit = deadline_after(seconds), seconds
        self.work_budget = work
        try:
            yield self
        finally:
            self.deadline, self.time_limit, self.work_budget = saved

    def __repr__(self) -> str:
        return f"Engine(num_vars={self.num_vars}, num_clauses={self.num_clauses}, ok={self.ok})"

    def _check_range(self, assumptions: np.ndarray) -> None:
        """Raise a ValueError unless every assumption names a variable."""
        if assumptions.size and (
            not assumptions.all() or np.abs(assumptions).max() > self.num_vars
        ):
            raise ValueError(
                f"assumptions must be nonzero literals of variables 1..{self.num_vars}: "
                f"{assumptions.tolist()}"
            )

    @property
    def clauses(self) -> core.Clauses:
        """The formula in the core's clause engine, the one native object this engine
        asks (the closures of a batch of assumption sets are asked of it straight:
        HomeBackend); a formula of no variable has none (ValueError)."""
        if self.num_vars == 0:
            raise ValueError("a formula of no variable has no clause engine")
        return self._core()

    def _core(self) -> core.Clauses:
        """The formula in the core's clause engine, built at first use."""
        if self._clauses is None:
            self._clauses = core.Clauses((self._cnf.literals, self._cnf.offsets), self.num_vars)
        return self._clauses

    def _seconds_left(self) -> float | None:
        """The time left before `deadline` (None: none); past it, TimeLimitReached."""
        if self.deadline is None:
            return None
        left = self.deadline - clock()
        if left <= 0:
            raise TimeLimitReached(self.time_limit)
        return left

    def propagate(
        self, assumptions: Sequence[Lit] = (), as_array: bool = False
    ) -> tuple[bool, list[Lit]]:
        """Return (True, literals assigned above the root level) or (False, []) on a conflict.

        Each assumption is enqueued and propagated (one that is already true is
        skipped, one already false is a conflict), as PySAT's Minisat22.propagate does;
        root-level facts of the formula are not listed.  `as_array`: the literals as an
        int64 array, in assignment order (no list made).  The search after it meets the
        watches as this propagation left them.  A thin path: the literals are read and
        range-checked by the core itself."""
        if self.deadline is not None:
            self._seconds_left()  # past it, TimeLimitReached (propagation never polls)
        clauses = self._clauses
        if clauses is None:
            if self.num_vars == 0:  # no variable, so no assumption either
                self._check_range(literal_array(assumptions))
                return self.ok, _none(as_array)
            clauses = self._core()
        if as_array:
            lits = literal_array(assumptions)
            self._check_range(lits)
            return clauses.propagate_levels(lits, as_array=True)
        return clauses.propagate_list(assumptions)

    def probe(
        self,
        assumptions: Sequence[Lit] = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
        log: np.ndarray = NO_LOG,
    ) -> tuple[bool, list[Lit]]:
        """Return the failed-literal closure of depth `depth` above the root level.

        On top of propagating the assumptions: an unassigned literal whose hypothesis
        leads to a contradiction under the depth-1 smaller closure is negated and
        propagated, until a full round adds nothing (polarity "positive" only tries
        positive literals).  depth 0 is propagate.  (False, []) on a contradiction.
        `as_array`: the literals as an int64 array (no list made).  `log`: where the
        failed literals are written as lemmas (`solvers.core.proof_log`; default none)."""
        if polarity not in POLARITIES:
            raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
        if depth < 0:
            raise ValueError(f"depth must be >= 0, not {depth}")
        lits = literal_array(assumptions)
        self._check_range(lits)
        if not self.ok:
            return False, _none(as_array)
        if self.num_vars == 0:  # no variable, so no assumption either
            return True, _none(as_array)
        outcome, out = self._core().bounded_probe(
            lits, depth, polarity, log if log.size else None, self.work_budget,
            self._seconds_left(),
        )  # fmt: skip
        if outcome == core.PROBE_BUDGET:
            raise BudgetExhausted("work", self.work_budget)
        if outcome == core.PROBE_TIME:
            raise TimeLimitReached(self.time_limit)
        if outcome == core.PROBE_CONFLICT:
            return False, _none(as_array)
        return True, out if as_array else out.tolist()

    def rewind(self) -> None:
        """Put the watch lists back as they were built: the next queries then propagate
        in exactly the order a freshly built engine does.  The literals a query implies
        never depend on that order, but which clause implies each, and so the work of a
        closure whose hypotheses fail, do: a worker that keeps an engine from chunk to
        chunk rewinds it at each chunk, so that its counts are those of a fresh engine.
        The core's formula is built again at its next use (its work so far kept in
        accum_stats)."""
        self._spent += self._core_stats()
        self._clauses = None

    def fixed(self, as_array: bool = False) -> list[Lit]:
        """Return the literals fixed at the root level (units and what they propagate).

        Empty when the formula is refuted at the root (see `ok`).  `as_array`: as an
        int64 array."""
        if not self.ok or self.num_vars == 0:
            return _none(as_array)
        dimacs = self._core().fixed()
        return dimacs if as_array else dimacs.tolist()

    def trace(self, assumptions: Sequence[Lit] = ()) -> tuple[bool, list[tuple[Lit, int]], int]:
        """Propagate like `propagate` and return (ok, [(literal, reason)], conflict clause).

        reason is the input index of the clause that implied the literal, -1 for an
        assumption; conflict is the index of the falsified clause, or -1 when there is
        none or an assumption was already false.  On a conflict the literals assigned
        before it are still listed.  A formula refuted at the root gives (False, [],
        index of its empty or falsified clause).  The reasons are the first clauses, in
        the formula's order, that imply each literal
        (`solvers/core/native/clauses/trace.c`): they do not depend on the queries asked
        before."""
        lits = literal_array(assumptions)
        self._check_range(lits)
        if self.num_vars == 0:
            empty = np.flatnonzero(np.diff(self._cnf.offsets) == 0)
            return (True, [], -1) if empty.size == 0 else (False, [], int(empty[0]))
        return self._core().trace(lits.tolist())

    def _core_stats(self) -> np.ndarray:
        """decisions, backtracks, conflicts, propagations, hypotheses of the formula in use."""
        return _native_stats(self._clauses)

    def _run(self, search: core.Clauses, **ask) -> tuple[int, int, np.ndarray | None]:
        """Run the native search under the engine's bounds: its work budget (past it
        BudgetExhausted) and deadline (past it TimeLimitReached; a SIGALRM of
        `solvers.limits.alarm_after` stops it too, through the core's signal poll)."""
        left = self._seconds_left()
        deadline = None if left is None else self.deadline  # clock() is time.monotonic()
        outcome, models, model = search.search(
            work_budget=self.work_budget, deadline=deadline, **ask
        )
        if outcome == NATIVE_WORK:
            raise BudgetExhausted("work", self.work_budget)
        if outcome == NATIVE_TIME:
            raise TimeLimitReached(self.time_limit)
        return outcome, models, model

    def solve(
        self,
        assumptions: Sequence[Lit] = (),
        budget: int | None = None,
        probe_depth: int = 0,
        log: np.ndarray = NO_LOG,
    ) -> EngineAnswer:
        """Return SAT and a model, UNSAT (under the assumptions) or UNKNOWN (budget spent).

        probe_depth > 0 runs the failed-literal closure of that depth at every node.
        `budget`: decisions (None: none).  `log`: where an UNSAT search writes its
        lemmas (`solvers.core.proof_log`).  The search runs in the native core
        (`solvers.core.Clauses.search`)."""
        if probe_depth < 0:
            raise ValueError(f"probe_depth must be >= 0, not {probe_depth}")
        lits = literal_array(assumptions)
        self._check_range(lits)
        if not self.ok:
            return EngineAnswer(Status.UNSAT, ())
        if self.num_vars == 0:  # nothing to decide: the empty assignment is the model
            return EngineAnswer(Status.SAT, ())
        search = self._core()
        before = self._work()
        outcome, _, model = self._run(search, assumptions=lits, budget=budget,
                                      probe_depth=probe_depth, log=log)  # fmt: skip
        status = {NATIVE_FOUND: Status.SAT, NATIVE_EXHAUSTED: Status.UNSAT}.get(
            outcome, Status.UNKNOWN
        )
        work = Work(*(self._work() - before).tolist())
        return EngineAnswer(status, () if model is None else tuple(model.tolist()), work)

    def count(
        self, limit: int | None = None, assumptions: Sequence[Lit] = (), budget: int | None = None
    ) -> SolutionCount:
        """Return the number of models (over all num_vars variables), up to `limit`;
        `budget`: decisions (None: none)."""
        lits = literal_array(assumptions)
        self._check_range(lits)
        if not self.ok or limit == 0:
            return SolutionCount(0, not self.ok)
        if self.num_vars == 0:
            return SolutionCount(1, True)
        search = self._core()
        before = self._work()
        outcome, models, _ = self._run(search, assumptions=lits, max_models=limit, budget=budget)
        work = Work(*(self._work() - before).tolist())
        return SolutionCount(int(models), outcome == NATIVE_EXHAUSTED, work)

    def enumerate(
        self, assumptions: Sequence[Lit] = (), limit: int | None = None
    ) -> Iterator[tuple[Lit, ...]]:
        """Yield the models, each a tuple of num_vars signed literals, at most `limit` of them.

        The generator searches on a copy of the formula it owns (a second native object,
        the one exception to one per engine), so the engine can be used while it is
        suspended; its work is added to accum_stats as it goes.  A bad limit or
        assumption is refused at the call, as count refuses it, not at the first model."""
        budget_units(limit)
        lits = literal_array(assumptions)
        self._check_range(lits)
        return self._models(lits, limit)

    def _models(self, lits: np.ndarray, limit: int | None) -> Iterator[tuple[Lit, ...]]:
        if not self.ok or limit == 0:
            return
        if self.num_vars == 0:
            yield ()
            return
        search = core.Clauses((self._cnf.literals, self._cnf.offsets), self.num_vars)
        found = 0
        while limit is None or found < limit:
            before = _native_stats(search)
            try:
                outcome, _, model = self._run(search, assumptions=lits, next_model=found > 0)
            finally:  # its work counts in accum_stats
                self._spent += _native_stats(search) - before
            if outcome != NATIVE_FOUND:
                return
            found += 1
            yield tuple(model.tolist())

    def _work(self) -> np.ndarray:
        return self._spent + self._core_stats()

    def accum_stats(self) -> dict[str, int]:
        """Return cumulative counters since construction: decisions, backtracks, conflicts,
        propagations (literals propagated) and hypotheses (failed-literal hypotheses tested)."""
        return dict(zip(_STAT_NAMES, self._work().tolist(), strict=True))


def _native_stats(clauses: core.Clauses | None) -> np.ndarray:
    """The formula's decisions, backtracks, conflicts, propagations (its work less the
    hypotheses it tested) and the hypotheses."""
    if clauses is None:
        return np.zeros(5, np.int64)
    c = clauses.counters()
    return np.array(
        [c.decisions, c.backtracks, c.conflicts, c.work - c.hypotheses, c.hypotheses], np.int64
    )
