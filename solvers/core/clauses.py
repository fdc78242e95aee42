"""The clause engine (native/clauses): a CNF of DIMACS clauses with watched literals and
its own propagation state; unit propagation, the failed-literal closures nested to
depth k, batches of assumption sets and the depth loop, with an optional proof log
(solvers.core.proof_log) and an opt-in time limit.  The board (solvers.core.board)
answers the same on the exam's formula, faster; `engine_for` picks between them."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from solvers.core.boundary import (
    budget_units,
    depth_arrays,
    grid_rows,
    limit_ns,
    literal_sets,
    polarity_flag,
)
from solvers.core.extension import DEPTH_BAD, PROBE_OK, Closures, Depths, _core


class Clauses:
    """A CNF formula of DIMACS clauses in the native clause engine (watched literals),
    with its own propagation state; one kernel at a time.  Every query starts and ends
    at the root level (the formula's units and what they imply), whose literals the
    answers leave out, as Engine's do."""

    def __init__(self, clauses, num_vars: int | None = None):
        """`clauses`: lists of DIMACS ints, or a pair (flat, offsets) of int64 arrays,
        clause i being flat[offsets[i]:offsets[i + 1]]; num_vars defaults to the highest
        variable.  A formula of no variable is refused."""
        if isinstance(clauses, tuple) and len(clauses) == 2 and hasattr(clauses[0], "dtype"):
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in clauses)
        else:
            flat, offsets = literal_sets(clauses)
        if num_vars is None:
            num_vars = int(np.abs(flat).max()) if flat.size else 0
        self.num_vars = num_vars
        self._cnf = _core.Clauses(flat, offsets, int(num_vars))
        self._out = np.empty(num_vars, np.int64)

    @property
    def work(self) -> int:
        """Work units spent so far (literals propagated, hypotheses tested)."""
        return self._cnf.counters()[0]

    @property
    def hypotheses(self) -> int:
        return self._cnf.counters()[1]

    @property
    def ok(self) -> bool:
        """False when the formula's units (or an empty clause) are contradictory."""
        return not self._cnf.counters()[2]

    @property
    def conflicts(self) -> int:
        """Failed hypotheses and contradictory frames so far."""
        return self._cnf.counters()[3]

    def probe(
        self,
        assumptions: Sequence[int] | np.ndarray = (),
        depth: int = 1,
        polarity: str = "both",
        as_array: bool = False,
        log: np.ndarray | None = None,
    ):
        """Return (True, the literals above the root level of the closure of depth
        `depth` of the assumptions) or (False, []), as Engine.probe; `log`: where the
        failed literals are written as lemmas (`solvers.core.proof_log`; None: nowhere)."""
        if not as_array and log is None:  # read and answered by the extension, no array
            return self._cnf.probe_list(assumptions, depth, polarity_flag(polarity))
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        logged = () if log is None else (log,)
        count = self._cnf.probe(lits, int(depth), polarity_flag(polarity), self._out, *logged)
        if count < 0:
            return False, np.empty(0, np.int64) if as_array else []
        out = self._out[:count].copy()
        return True, out if as_array else out.tolist()

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
        lits = np.ascontiguousarray(assumptions, dtype=np.int64).reshape(-1)
        count = self._cnf.probe(lits, int(depth), polarity_flag(polarity), self._out, log,
                                budget_units(budget), limit_ns(time_limit))  # fmt: skip
        if count < 0:
            return count, np.empty(0, np.int64)
        return PROBE_OK, self._out[:count].copy()

    def propagate(self, assumptions: Sequence[int] | np.ndarray = (), as_array: bool = False):
        """Return probe's answer at depth 0: unit propagation alone, as Engine.propagate."""
        if not as_array:  # probe's path without its checks of depth and polarity
            return self._cnf.probe_list(assumptions, 0, False)
        return self.probe(assumptions, 0, as_array=True)

    def propagate_batch(self, assumption_sets) -> tuple[np.ndarray, np.ndarray]:
        """Propagate each set of assumptions (lists of DIMACS ints, or a pair (flat,
        offsets)): return (ok, values), ok[g] 1 or 0 on a conflict, values[g] per
        variable 1 true, -1 false, 0 unassigned (root level included)."""
        if isinstance(assumption_sets, tuple) and len(assumption_sets) == 2:
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in assumption_sets)
        else:
            flat, offsets = literal_sets(assumption_sets)
        count = max(offsets.shape[0] - 1, 0)
        ok = np.empty(count, np.int8)
        values = np.empty((count, self.num_vars), np.int8)
        self._cnf.batch(flat, offsets, ok, values)
        return ok, values

    def depths(
        self,
        grids,
        max_depth: int,
        polarity: str = "both",
        budget: int | None = None,
        log: np.ndarray | None = None,
        log_at: np.ndarray | None = None,
        time_limit: float | None = None,
    ) -> Depths:
        """Rate grids as Board.depths does, on the clauses: rows of N*N values, N read
        from their length (cell c holding k is variable N * c + k).  `log` and `log_at`
        (one entry per grid and one more): where the closures' lemmas are written, grid
        g's from log_at[g] to log_at[g + 1] (`solvers.core.proof_log`; None: nowhere).
        `time_limit` (seconds, None: none; opt-in, the answers then depend on the
        machine): a grid still working past it is DEPTH_TIMEOUT, at the depth it was
        working on."""
        cells = np.shape(grids)[-1] if np.ndim(grids) == 2 else 0
        size = math.isqrt(cells)
        if size * size != cells or size**3 > self.num_vars:
            raise ValueError(
                f"grids must be rows of N*N values with N**3 <= {self.num_vars} (the "
                f"formula's variables), not rows of {cells}"
            )
        grids = grid_rows(grids, cells)
        limit = budget_units(budget)
        status, depth, solutions, work, ns = depth_arrays(grids)
        self._cnf.depths(
            grids, int(size), int(max_depth), polarity_flag(polarity), limit, status, depth,
            solutions, work, ns, log, log_at, limit_ns(time_limit),
        )  # fmt: skip
        return Depths(status, depth, solutions, ns / 1e9, work)

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
        if isinstance(assumption_sets, tuple) and len(assumption_sets) == 2:
            flat, offsets = (np.ascontiguousarray(a, dtype=np.int64) for a in assumption_sets)
        else:
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
