"""The clause engine (native/clauses, native/search): one native object per CNF of DIMACS
clauses, with watched literals and its own propagation state, that answers every
question about it: unit propagation, the failed-literal closures nested to depth k,
batches of assumption sets and the depth loop (with an optional proof log,
solvers.core.proof_log, and an opt-in time limit), DPLL (one model, a count up to a
limit, the models one after the other), the root level and propagation with reasons
(the trace, built at its first use).  The board (solvers.core.board) answers the
closures on the exam's formula, faster; `board_or_clauses` picks between them.

The search's order of decisions: the lowest literal of the first shortest open clause,
true first; then binary clauses and free variables, false first (search.c says why), so
the answers and the decision, backtrack and conflict counts depend on the formula and
the order in which its watches were met alone.  Its bounds: a decision budget, a work
budget (the engine's work units since the search began; checked at the start of each
node and at the closures' hypothesis boundaries) and a deadline (a `time.monotonic()`
value, checked at the start of each node).  Every kernel runs without the GIL and polls
for signals, so Ctrl-C and the time limit's SIGALRM (`solvers.limits.alarm_after`) raise
within a few tens of milliseconds, the state back at the root."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np

from solvers.core.boundary import (
    ClosureFace,
    budget_units,
    grid_rows,
    limit_ns,
    literal_array,
    literal_sets,
    polarity_flag,
)
from solvers.core.extension import DEPTH_BAD, FOUND, PROBE_OK, Closures, _core
from solvers.core.proof_log import NO_LOG


@dataclass(frozen=True)
class Counters:
    """The engine's counters since the Clauses were made: work (literals propagated and
    hypotheses tested), hypotheses, conflicts (failed hypotheses, contradictory frames
    and nodes), decisions, backtracks."""

    work: int
    hypotheses: int
    conflicts: int
    decisions: int
    backtracks: int


class Clauses(ClosureFace):
    """A CNF formula of DIMACS clauses in the native clause engine (watched literals),
    with its own propagation state; one kernel at a time.  Every query starts and ends
    at the root level (the formula's units and what they imply), whose literals the
    answers leave out, as Engine's do (`probe`, `propagate` and `depths`: ClosureFace,
    with proof logs and the opt-in clock); a search that found a model keeps it on the trail
    until the next query (`search(next_model=True)` goes on from it)."""

    keeps_log = True

    def __init__(self, clauses, num_vars: int | None = None):
        """`clauses`: lists of DIMACS ints, or a pair (flat, offsets) of integer arrays,
        clause i being flat[offsets[i]:offsets[i + 1]]; num_vars defaults to the highest
        variable.  A formula of no variable is refused."""
        flat, offsets = literal_sets(clauses)
        if num_vars is None:
            num_vars = int(np.abs(flat).max()) if flat.size else 0
        self.num_vars = num_vars
        self._cnf = self._native = _core.Clauses(flat, offsets, int(num_vars))
        self._out = np.empty(num_vars, np.int64)
        # the fast paths, read once: Engine.propagate calls them straight
        self.propagate_list = self._cnf.propagate_list
        self.trace = self._cnf.trace

    def counters(self) -> Counters:
        work, hypotheses, _, conflicts, decisions, backtracks = self._cnf.counters()
        return Counters(work, hypotheses, conflicts, decisions, backtracks)

    @property
    def ok(self) -> bool:
        """False when the formula's units (or an empty clause) are contradictory."""
        return not self._cnf.counters()[2]

    @property
    def conflicts(self) -> int:
        """Failed hypotheses and contradictory frames so far."""
        return self._cnf.counters()[3]

    def bounded_probe(
        self,
        assumptions: np.ndarray,
        depth: int,
        polarity: str = "both",
        log: np.ndarray | None = None,
        budget: int | None = None,
        time_limit: float | None = None,
    ) -> tuple[int, np.ndarray]:
        """`probe` as arrays, bounded: return (PROBE_OK, literals), (PROBE_CONFLICT, []),
        or (PROBE_BUDGET or PROBE_TIME, []) when the query's work passed `budget` (work
        units, None: none) or its time passed `time_limit` (seconds, None: none), both
        seen at a hypothesis boundary."""
        lits = literal_array(assumptions)
        count = self._cnf.probe(lits, int(depth), polarity_flag(polarity), self._out, log,
                                budget_units(budget), limit_ns(time_limit))  # fmt: skip
        if count < 0:
            return count, np.empty(0, np.int64)
        return PROBE_OK, self._out[:count].copy()

    def propagate_levels(self, assumptions: Sequence[int] | np.ndarray = (), as_array=False):
        """Return (True, the literals unit propagation assigns above the root level, in
        order) or (False, []) on a conflict, each assumption enqueued and propagated at
        a level of its own as a search starts (and as PySAT's Minisat22.propagate does):
        the search after it finds the watches as this propagation left them, and the
        literals come in the order of the ported engine (tests/solvers/data)."""
        if not as_array:
            return self._cnf.propagate_list(assumptions)
        lits = literal_array(assumptions)
        count = self._cnf.propagate(lits, self._out)
        if count < 0:
            return False, np.empty(0, np.int64)
        return True, self._out[:count].copy()

    def fixed(self) -> np.ndarray:
        """Return the literals of the root level (the units and what they imply), in
        the order they were assigned; empty when they are contradictory."""
        count = self._cnf.fixed(self._out)
        return self._out[: max(count, 0)].copy()

    def search(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        max_models: int | None = 1,
        budget: int | None = None,
        work_budget: int | None = None,
        deadline: float | None = None,
        probe_depth: int = 0,
        positive_only: bool = False,
        log: np.ndarray = NO_LOG,
        next_model: bool = False,
    ) -> tuple[int, int, np.ndarray | None]:
        """DPLL above the assumptions (DIMACS ints): return (outcome, models found by
        this call, the last model as num_vars signed literals when FOUND, else None);
        outcome FOUND, EXHAUSTED, DECISIONS, WORK or TIME (solvers.core.extension).

        `max_models`, `budget` (decisions), `work_budget`: None for none.  `log`: where
        the lemmas of the search and its closures go until a model is found
        (`solvers.core.proof_log`).  `next_model`: go on from the model the last call found
        (the assumptions are then ignored)."""
        lits = literal_array(assumptions)
        deadline_ns = -1 if deadline is None else max(int(deadline * 1e9), 0)
        model = np.zeros(self.num_vars, np.int64)
        outcome, models = self._cnf.search(
            lits, next_model, budget_units(max_models), budget_units(budget),
            budget_units(work_budget), deadline_ns, int(probe_depth), bool(positive_only), log,
            model,
        )  # fmt: skip
        return outcome, models, model if outcome == FOUND else None

    def models(self, assumptions: Sequence[int] | np.ndarray = ()) -> Iterator[np.ndarray]:
        """Yield every model above the assumptions, each as num_vars signed literals (no
        other query of these Clauses in between: it would give up the model kept)."""
        outcome, _, model = self.search(assumptions)
        while outcome == FOUND:
            yield model
            outcome, _, model = self.search(next_model=True)

    def propagate_batch(self, assumption_sets) -> tuple[np.ndarray, np.ndarray]:
        """Propagate each set of assumptions (lists of DIMACS ints, or a pair (flat,
        offsets)): return (ok, values), ok[g] 1 or 0 on a conflict, values[g] per
        variable 1 true, -1 false, 0 unassigned (root level included)."""
        flat, offsets = literal_sets(assumption_sets)
        count = max(offsets.shape[0] - 1, 0)
        ok = np.empty(count, np.int8)
        values = np.empty((count, self.num_vars), np.int8)
        self._cnf.batch(flat, offsets, ok, values)
        return ok, values

    def _grid_rows(self, grids) -> np.ndarray:
        """Rows of N*N values, N read from their length (cell c holding k is variable
        N * c + k)."""
        cells = np.shape(grids)[-1] if np.ndim(grids) == 2 else 0
        size = math.isqrt(cells)
        if size * size != cells or size**3 > self.num_vars:
            raise ValueError(
                f"grids must be rows of N*N values with N**3 <= {self.num_vars} (the "
                f"formula's variables), not rows of {cells}"
            )
        return grid_rows(grids, cells)

    def _depth_loop(self, grids, max_depth, flag, limit, arrays, log, log_at, time_limit):
        size = math.isqrt(grids.shape[1])
        self._cnf.depths(grids, size, max_depth, flag, limit, *arrays, log, log_at,
                         limit_ns(time_limit))  # fmt: skip

    def closures(
        self,
        assumption_sets,
        depth: int,
        cell_vars: int,
        polarity: str = "both",
        budget: int | None = None,
        time_limit: float | None = None,
    ) -> Closures:
        """The closure of depth `depth` of each set of assumptions (lists of DIMACS ints,
        or a pair (flat, offsets)) in one call, as Engine.closures: the harness's closure
        solvers over a chunk of grids; `budget` (work units, None: none) bounds each, and
        so does `time_limit` (seconds, None: none; DEPTH_TIMEOUT)."""
        flat, offsets = literal_sets(assumption_sets)
        limit = budget_units(budget)
        count = max(offsets.shape[0] - 1, 0)
        status = np.zeros(count, np.int8)
        assigned, conflicts, work, ns = (np.zeros(count, np.int64) for _ in range(4))
        true = np.zeros((count, self.num_vars), np.bool_)
        self._cnf.closures(
            flat, offsets, int(depth), polarity_flag(polarity), int(cell_vars), limit, status,
            assigned, conflicts, work, ns, true.view(np.int8), limit_ns(time_limit),
        )  # fmt: skip
        bad = np.flatnonzero(status == DEPTH_BAD)
        if bad.size:
            g = int(bad[0])
            lits = flat[offsets[g] : offsets[g + 1]].tolist()
            raise ValueError(
                f"set {g}: literals must be in 1..{self.num_vars} or their negation: {lits}"
            )
        return Closures(status, assigned, conflicts, work, ns / 1e9, true)
