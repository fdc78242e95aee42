"""The home-grown engine as backends: its closures (`up`, `fl`, `fl2`, `fl3`: unit
propagation and failed literals, run in the native core, a batch of grids in one call:
on the board for the rules of the `centrale` encoding, `solve_grids`, else on the
clause engine) and its complete search (`dpll`: on the board for those rules, the
board's DPLL, `solve_grids`; else the clause engine's, through `Engine`)."""

from __future__ import annotations

import itertools
import time
from collections.abc import Sequence

import numpy as np

from encoder.geometry import Geometry
from encoder.numbering import Lit, num_cell_vars
from solvers.backends.base import Backend, assigned_cells, complete_array
from solvers.budgets import DEFAULT_BUDGET, Budget, BudgetExhausted, budget_reason
from solvers.limits import TimeLimitReached, time_limit_reason
from solvers.results import OVER, TIMED_OUT, Answers, SolverResult, Status

UNSATISFIED_REASON = "every cell is assigned but a clause is left unsatisfied"  # closures

# HomeBackend.solve_many: the closures of a batch keep each answer's assignment (a
# boolean per variable) until checked: 16 MB at most, whatever the grids' size.
BATCH_VALUES = 1 << 24


def _refuse_bad(status: np.ndarray, bad: int) -> None:
    """Raise for the first grid a board kernel found a value outside 0..N in."""
    if (status == bad).any():
        raise ValueError(f"grid {int(np.flatnonzero(status == bad)[0])}: a value outside 0..N")


class HomeBackend(Backend):
    """The home-grown engine: `depth` None = DPLL (complete), else the closure of that
    depth (0 = unit propagation, 1 = failed literals, ...); `budget.work` and
    `timeout` (seconds, None: no limit) per call."""

    def __init__(
        self,
        name: str,
        depth: int | None,
        timeout: float | None = None,
        budget: Budget = DEFAULT_BUDGET,
    ):
        super().__init__(name, timeout, budget)
        self.depth = depth

    @property
    def native(self) -> bool:
        """True when this backend's answers come from the native core's closures (a
        formula of no variable, which the core refuses, has nothing to propagate: the
        engine says so; DPLL runs in the core through the engine)."""
        return self.depth is not None and self.num_vars > 0

    def _load(self) -> None:
        self._engine = None  # built at first use
        self._board = None  # the board of the rules, built at the first solve_grids

    def solve_grids(self, grids: np.ndarray, geometry: Geometry, encoding: str) -> Answers:
        """On the rules of `geometry` in the `centrale` encoding the board answers the
        grids, in one call: a closure by `Board.closures` (the same statuses, cells and
        open cell variables as the clause engine's closures; its conflicts and work
        are the board's), DPLL by `Board.count` to one solution (the board's decisions
        and failed branches).  Any other formula goes through the clause engine."""
        from solvers.core.board import Board, applies

        on_board = self.num_vars > 0 and applies(geometry, encoding) and not self.units
        if not on_board:
            return super().solve_grids(grids, geometry, encoding)
        if self.cell_vars != num_cell_vars(geometry.size):
            raise ValueError(f"{self.name}: the loaded formula is not the rules of {geometry}")
        if self._board is None or self._board.geometry is not geometry:
            self._board = Board(geometry)
        if self.depth is None:
            counted = self._board.count(grids, 1, self.budget.work, self.timeout, solutions=True)
            return self._search_answers(counted)
        out = self._board.closures(grids, self.depth, self.budget.work, self.timeout)
        return self._board_answers(out)

    def _search_answers(self, out) -> Answers:
        from solvers.core import STATUS_BAD, STATUS_BUDGET, STATUS_TIME

        _refuse_bad(out.status, STATUS_BAD)
        sat = out.models > 0
        over, timed = ~sat & (out.status == STATUS_BUDGET), ~sat & (out.status == STATUS_TIME)
        status = np.full(out.status.shape, Status.UNSAT.value, np.int8)
        status[sat] = Status.SAT.value
        status[over | timed] = Status.UNKNOWN.value
        stopped, reasons = self._stops(over, timed)
        # The root's propagation fills a grid when the search found it without a decision.
        without = (sat & (out.decisions == 0)).astype(np.int8)
        return Answers(
            self.name, status, without, out.decisions, out.conflicts, out.work, out.seconds,
            stopped, reasons, out.solutions,
        )  # fmt: skip

    def _board_answers(self, out) -> Answers:
        from solvers.core import DEPTH_BAD, DEPTH_BUDGET, DEPTH_OPEN, DEPTH_SAT, DEPTH_TIMEOUT

        _refuse_bad(out.status, DEPTH_BAD)
        sat, shut = out.status == DEPTH_SAT, out.status == DEPTH_OPEN
        over, timed = out.status == DEPTH_BUDGET, out.status == DEPTH_TIMEOUT
        status = np.full(out.status.shape, Status.UNSAT.value, np.int8)
        status[sat] = Status.SAT.value
        status[shut | over | timed] = Status.UNKNOWN.value
        stopped, reasons = self._stops(over, timed)
        reasons.update({
            int(g): self._open_reason(self.cell_vars - int(left))
            for g, left in zip(np.flatnonzero(shut).tolist(), out.open[shut].tolist(), strict=True)
        })  # fmt: skip
        # Propagation alone fills a grid when the loop settled it at depth 0.
        without = (sat & (out.depth == 0)).astype(np.int8)
        solutions = np.where(sat[:, None], out.solutions, 0).astype(np.int8)
        return Answers(
            self.name, status, without, np.zeros(status.shape, np.int64), out.conflicts,
            out.work, out.seconds, stopped, reasons, solutions,
        )  # fmt: skip

    def _stops(self, over: np.ndarray, timed: np.ndarray) -> tuple[np.ndarray, dict[int, str]]:
        """The `stopped` column and the reasons of the grids the work budget (`over`) or
        the time limit (`timed`) stopped, as the board's kernels report them."""
        stopped = np.zeros(over.shape, np.int8)
        stopped[over], stopped[timed] = OVER, TIMED_OUT
        reasons = dict.fromkeys(
            np.flatnonzero(over).tolist(), budget_reason("work", self.budget.work)
        )
        reasons.update(
            dict.fromkeys(np.flatnonzero(timed).tolist(), time_limit_reason(self.timeout))
        )
        return stopped, reasons

    @property
    def engine(self):
        """The engine of the formula (units come as assumptions), the one owner of its
        native object: DPLL, the closures (of a batch: `engine.clauses`), and those of a
        formula of no variable, which the core's clause engine refuses."""
        if self._engine is None:
            from solvers.core.engine import Engine

            self._engine = Engine(self.clauses, self.num_vars)
        return self._engine

    def rewind(self) -> None:
        """Put the watches back as they were built: the engine rewound, its formula
        built again at its next use (building costs about as much as a few closures),
        so that the counts of a chunk never depend on the chunks before it."""
        if self._engine is not None:
            self._engine.rewind()

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        if self.native:  # the units are in `assumptions` already
            return self._closures([assumptions], with_units=True)[0]
        start = time.perf_counter()
        try:
            with self.engine.limited(self.timeout, self.budget.work):
                return self._bounded(assumptions)
        except TimeLimitReached as stop:
            seconds = time.perf_counter() - start
            return self._result(Status.UNKNOWN, (), seconds, reason=str(stop), timed_out=True)
        except BudgetExhausted as stop:
            seconds = time.perf_counter() - start
            return self._result(Status.UNKNOWN, (), seconds, reason=str(stop), over_budget=True)

    def solve_many(self, assumption_sets: Sequence[Sequence[Lit]]) -> list[SolverResult]:
        """A closure answers every set in one call of the core (`Clauses.closures`), in
        batches of at most BATCH_VALUES variables in all; the answers, counters and
        the engine's state afterwards are those of `solve` called on each in turn, the
        seconds the kernel's own (no Python call around each closure)."""
        if not self.native:
            return super().solve_many(assumption_sets)  # DPLL; or a formula of no variable
        most = max(1, BATCH_VALUES // max(self.num_vars, 1))
        results: list[SolverResult] = []
        for first in range(0, len(assumption_sets), most):
            results += self._closures(assumption_sets[first : first + most])
        return results

    def _closures(
        self, assumption_sets: Sequence[Sequence[Lit]], with_units: bool = False
    ) -> list[SolverResult]:
        from solvers.core import DEPTH_BUDGET, DEPTH_OPEN, DEPTH_SAT, DEPTH_TIMEOUT

        if with_units:
            sets = [list(assumptions) for assumptions in assumption_sets]
        else:
            sets = [[*self.units, *assumptions] for assumptions in assumption_sets]
        offsets = np.zeros(len(sets) + 1, dtype=np.int64)
        np.cumsum([len(lits) for lits in sets], out=offsets[1:])
        flat = np.fromiter(itertools.chain.from_iterable(sets), np.int64, int(offsets[-1]))
        budget = self.budget.work
        out = self.engine.clauses.closures(
            (flat, offsets), self.depth, self.cell_vars, budget=budget, time_limit=self.timeout
        )
        propagations = out.work
        status = out.status.tolist()
        filled = np.flatnonzero(out.status == DEPTH_SAT)
        wrong = self.check.falsified_rows(out.true[filled]).tolist()
        falsified = dict(zip(filled.tolist(), wrong, strict=True))
        # Whether propagation alone fills the grid: the closure says so where it can
        # (see _without); the others are propagated again, together.
        ok = [code in (DEPTH_OPEN, DEPTH_SAT) for code in status]
        assigned, conflicts = out.assigned.tolist(), out.conflicts.tolist()
        without = [
            okay and count == self.cell_vars if not failed or self.depth == 0 else None
            for okay, count, failed in zip(ok, assigned, conflicts, strict=True)
        ]
        asked = [i for i, known in enumerate(without) if known is None]
        if asked and self.cell_vars == self.num_vars:
            for i in asked:
                without[i] = False
        elif asked:
            propagated, values = self.engine.clauses.propagate_batch([sets[i] for i in asked])
            counts = np.count_nonzero(values[:, : self.cell_vars], axis=1).tolist()
            for j, i in enumerate(asked):
                without[i] = bool(propagated[j]) and counts[j] == self.cell_vars
        variables = np.arange(1, self.num_vars + 1, dtype=np.int64)
        results = []
        for i, code in enumerate(status):
            seconds = float(out.seconds[i])
            if code in (DEPTH_TIMEOUT, DEPTH_BUDGET):
                over = code == DEPTH_BUDGET
                reason = (
                    budget_reason("work", self.budget.work)
                    if over
                    else time_limit_reason(self.timeout)
                )
                work = (0, conflicts[i], int(propagations[i]))
                stop = {"timed_out": not over, "over_budget": over}
                results.append(
                    self._result(Status.UNKNOWN, (), seconds, without[i], *work, reason, **stop)
                )
                continue
            state, model, reason = Status.UNSAT, (), ""
            if code == DEPTH_OPEN:
                state, reason = Status.UNKNOWN, self._open_reason(assigned[i])
            elif code == DEPTH_SAT and falsified[i] < 0:
                state = Status.SAT
                model = np.where(out.true[i], variables, -variables).tolist()
            elif code == DEPTH_SAT:
                state, reason = Status.UNKNOWN, UNSATISFIED_REASON
            work = (0, conflicts[i], int(propagations[i]))
            results.append(self._result(state, model, seconds, without[i], *work, reason))
        return results

    def _bounded(self, assumptions: list[Lit]) -> SolverResult:
        engine = self.engine
        if self.depth is not None:
            return self._closure(assumptions)
        ok, root = engine.propagate(assumptions, as_array=True)  # the search meets its watches
        without = ok and assigned_cells(root, self.cell_vars) == self.cell_vars
        start = time.perf_counter()
        answer = engine.solve(assumptions)
        seconds = time.perf_counter() - start
        return self._result(
            answer.status,
            answer.model,
            seconds,
            without,
            answer.work.decisions,
            answer.work.conflicts,
            answer.work.propagations,
        )

    def _closure(self, assumptions: list[Lit]) -> SolverResult:
        """Run the closure of depth `self.depth` (literals kept as arrays throughout)."""
        engine = self.engine
        before = engine.accum_stats()
        start = time.perf_counter()
        if self.depth:
            ok, literals = engine.probe(assumptions, depth=self.depth, as_array=True)
        else:
            ok, literals = engine.propagate(assumptions, as_array=True)
        seconds = time.perf_counter() - start
        after = engine.accum_stats()
        conflicts = after["conflicts"] - before["conflicts"]  # failed hypotheses
        propagations = after["propagations"] - before["propagations"]
        assigned = assigned_cells(literals, self.cell_vars) if ok else 0
        without = self._without(assumptions, ok, assigned, conflicts)
        status, model, reason = Status.UNSAT, (), ""
        if ok:
            fixed = engine.fixed(as_array=True)
            if fixed.size:  # root-level facts (none for a rule formula): counted too
                literals = np.concatenate((fixed, literals))
                assigned = assigned_cells(literals, self.cell_vars)
            status, reason = Status.UNKNOWN, self._open_reason(assigned)
            if not reason:
                candidate = complete_array(literals, self.num_vars)
                if self.check.first_falsified(candidate) < 0:
                    status, model = Status.SAT, tuple(candidate.tolist())
                else:
                    reason = UNSATISFIED_REASON
        return self._result(status, model, seconds, without, 0, conflicts, propagations, reason)

    def _without(self, assumptions: list[Lit], ok: bool, assigned: int, failed: int) -> bool:
        """Return whether unit propagation of the assumptions alone assigns every cell
        variable, from the closure's own answer (ok, `assigned` cell variables above the
        root level, `failed` hypotheses) where it tells: a closure in which no
        hypothesis failed learnt nothing, so it is the propagation itself; and a
        hypothesis can only fail on a variable the propagation left open, so when every
        variable is a cell variable, a failed one means the propagation left a cell open
        (or was contradictory).  Otherwise the propagation is asked again."""
        if not failed or self.depth == 0:  # depth 0: the closure is the propagation
            return ok and assigned == self.cell_vars
        if self.cell_vars == self.num_vars:
            return False
        ok, root = self.engine.propagate(assumptions, as_array=True)
        return ok and assigned_cells(root, self.cell_vars) == self.cell_vars

    def _open_reason(self, assigned: int) -> str:
        """Say how many cell variables the closure left open ('' when none)."""
        open_vars = self.cell_vars - assigned
        if not open_vars:
            return ""
        what = "unit propagation" if self.depth == 0 else f"the depth-{self.depth} closure"
        # "cell variables" only when the formula has others (the augmented encoding's
        # segment variables): a DIMACS file's variables are all that the closure must fill
        kind = "cell variables" if self.cell_vars < self.num_vars else "variables"
        return f"{what} leaves {open_vars} of {self.cell_vars} {kind} open"
