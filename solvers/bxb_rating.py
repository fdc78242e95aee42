"""The braids-of-braids rating of depth-2 grids, after Berthier's BxB classification.

A grid that one level of trial and error with singles cannot solve (depth 2) gets no
refutation-length rating in reasonable time: its refutations are nested.  Berthier
classifies such puzzles by BxB, the smallest p for which T&E(B_p) solves them, and this
module computes that number on the CNF with the length kernels.

Definition implemented.  B_p is the resolution theory of singles and of eliminations by
refutations of length at most p, the length being the one of `solvers.length_kernels`
(the number of constraints, Berthier's CSP-variables, a unit-propagation refutation of
the candidate uses): a candidate with such a refutation is eliminated, and so on until
nothing changes.  B_p has the confluence property (an elimination only makes the
others easier, so any order reaches the same state), which makes the next procedure
well defined.  T&E(B_p) applies B_p to the grid, then takes each open candidate z as a
hypothesis: on a copy of the state, z is made true and B_p applied until it stops or
reaches a contradiction, in which case z is eliminated from the real state (and B_p
applied there again).  A hypothesis that does not fail changes nothing, even one that
fills the grid.  T&E(B_p) stops when the grid is solved or no hypothesis fails any
more.  The rating is the smallest p for which it solves the grid.

Because every step of T&E(B_p) is also a step of T&E(B_p+1) (a wider theory refutes at
least the same hypotheses) and T&E(B_p+1) is confluent, the state where T&E(B_p) stops
is a valid start for T&E(B_p+1): the rating tries p = 1, 2, ... on one state that only
grows, and costs about one run of the last p instead of the sum over all of them.

Where it may differ from Berthier's.  His B_p counts braids, chains of CSP-variables; a
refutation's length here is the kernels' count of constraints, which equals the braid
length up to the approximation the kernels describe (a literal keeps the cone of its
first derivation) and the encoding (the exam's complete encoding, whose constraints are
the cells and the row/column/box places, as his CSP-variables).  His T&E also
eliminates by contradictions only.  A grid that no p solves (depth 3 and more) is
reported as not settled.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit, objmode

from encoder.geometry import Geometry
from encoder.status import Status
from solvers import length_kernels as K
from solvers.grid_engine import GridEngine
from solvers.length_rating import Grid, RefutationRater
from solvers.limits import TimeLimitReached, deadline_after

# Results of the kernels (as `length_kernels`' SOLVED, CONTRADICTION and STUCK) and one
# more: the deadline passed.
SOLVED = K.SOLVED
CONTRADICTION = K.CONTRADICTION
STUCK = K.STUCK
OUT_OF_TIME = 4
NO_DEADLINE = np.inf


@njit(cache=True)
def _clock():
    with objmode(now="float64"):
        now = time.monotonic()
    return now


@njit(cache=True)
def _eliminate(G, T, code, queue, one, empty):
    """Make the literal `code` a fact of T (no cone); True unless a contradiction."""
    one[0] = code
    return K.assert_facts(G, T, one, empty, queue) == K.NO_CONFLICT


@njit(cache=True)
def braid_closure(G, T, X, num_candidates, limit, queue, deadline):
    """Apply B_limit to the untracked state T: eliminate every open candidate whose
    shortest refutation has length <= limit, propagating after each, until none is
    left.  Return SOLVED, CONTRADICTION, STUCK or OUT_OF_TIME (the clock is read
    before each refutation; `deadline` is a time.monotonic() value, inf for none)."""
    one = np.zeros(1, np.int32)
    empty = np.zeros(1, np.int32)
    val = T[K.T_VAL]
    # Round and round the candidates until a whole turn since the last elimination
    # eliminated nothing (a candidate is only refuted again after the state changed).
    quiet = 0  # candidates looked at since the last elimination
    v = 0
    while quiet < num_candidates:
        quiet += 1
        if val[2 * v] == 0:
            if deadline < NO_DEADLINE and _clock() >= deadline:
                return OUT_OF_TIME
            if K.shortest_refutation(G, T, X, 2 * v, limit) <= limit:
                if not _eliminate(G, T, 2 * v + 1, queue, one, empty):
                    return CONTRADICTION
                quiet = 0
        v = v + 1 if v + 1 < num_candidates else 0
    return SOLVED if K.solved(T, num_candidates) else STUCK


@njit(cache=True)
def _copy_facts(T, U):
    U[K.T_VAL][:] = T[K.T_VAL]
    U[K.T_FALSE][:] = T[K.T_FALSE]
    U[K.T_TRUE][:] = T[K.T_TRUE]
    U[K.T_CONE][:] = 0


@njit(cache=True)
def trial_and_error(G, T, U, X, num_candidates, limit, queue, deadline, true_somewhere):
    """Apply T&E(B_limit) to the untracked state T, with U (an untracked state of the
    same formula) as the hypotheses' workspace: B_limit on T, then each open candidate
    z as a hypothesis, eliminated from T when B_limit under z reaches a contradiction,
    until the grid is solved or a whole turn eliminates nothing.  Candidates with
    `true_somewhere[v]` (true in a solution) are not tried: sound rules never refute
    them.  Return SOLVED, CONTRADICTION, STUCK or OUT_OF_TIME."""
    one = np.zeros(1, np.int32)
    empty = np.zeros(1, np.int32)
    status = braid_closure(G, T, X, num_candidates, limit, queue, deadline)
    if status != STUCK:
        return status
    val = T[K.T_VAL]
    quiet = 0  # hypotheses looked at since the last elimination
    v = 0
    while quiet < num_candidates:
        quiet += 1
        if val[2 * v] == 0 and not true_somewhere[v]:
            _copy_facts(T, U)
            fails = not _eliminate(G, U, 2 * v, queue, one, empty)
            if not fails:
                inner = braid_closure(G, U, X, num_candidates, limit, queue, deadline)
                if inner == OUT_OF_TIME:
                    return OUT_OF_TIME
                fails = inner == CONTRADICTION
            if fails:
                if not _eliminate(G, T, 2 * v + 1, queue, one, empty):
                    return CONTRADICTION
                status = braid_closure(G, T, X, num_candidates, limit, queue, deadline)
                if status != STUCK:
                    return status
                quiet = 0
        v = v + 1 if v + 1 < num_candidates else 0
    return STUCK


@dataclass(frozen=True)
class BxbRating:
    """A grid's braids-of-braids rating: `value` the smallest p for which T&E(B_p)
    solves it (None when not settled), `status` SAT when solved, UNSAT when the grid
    has no solution, UNKNOWN when no p up to the last one tried solved it or the time
    limit (`timed_out`) stopped it."""

    value: int | None
    status: Status
    seconds: float
    timed_out: bool = False

    def label(self) -> str:
        """Return the rating as `rate` prints it: '3', 'unsat', '>2' or 'timeout'."""
        if self.timed_out:
            return "timeout"
        if self.status is Status.UNSAT:
            return "unsat"
        if self.status is Status.UNKNOWN:
            return ">2"
        return str(self.value)


class BxbRater:
    """Rates grids of one geometry and encoding by BxB; `time_limit` (seconds, None:
    none) bounds each grid."""

    def __init__(
        self, geometry: Geometry, encoding: str = "centrale", time_limit: float | None = None
    ):
        self.lengths = RefutationRater(geometry, encoding)
        self.time_limit = time_limit
        self._workspace = K.new_state(self.lengths.G, self.lengths.num_vars, False)
        self.engine = GridEngine(geometry, encoding)

    def rate(self, grid: Grid) -> BxbRating:
        """Return the grid's rating (see the module docstring)."""
        begin = time.perf_counter()
        deadline = deadline_after(self.time_limit)
        r = self.lengths

        def done(status: Status, value: int | None = None, timed_out=False) -> BxbRating:
            return BxbRating(value, status, time.perf_counter() - begin, timed_out)

        T = r.start(grid)
        if T is None:
            return done(Status.UNSAT)
        if r.is_solved(T):
            return done(Status.SAT, 0)
        at = NO_DEADLINE if deadline is None else deadline
        true_somewhere = self._solution_candidates(grid)
        for p in range(1, r.num_constraints + 1):
            status = trial_and_error(
                r.G, T, self._workspace, r.X, r.num_candidates, p, r._queue, at, true_somewhere
            )
            if status == SOLVED:
                return done(Status.SAT, p)
            if status == CONTRADICTION:
                return done(Status.UNSAT)
            if status == OUT_OF_TIME:
                return done(Status.UNKNOWN, timed_out=True)
        return done(Status.UNKNOWN)

    def _solution_candidates(self, grid: Grid) -> np.ndarray:
        """Return a boolean array over the candidates: True for those of one solution
        of the grid (none when it has no solution).  Knowing them saves the hypotheses
        that cannot fail; it changes no rating."""
        found = self.engine.engine.solve(self.engine.givens(grid))
        true = np.zeros(self.lengths.num_candidates, np.bool_)
        for lit in found.model:
            if 0 < lit <= true.size:
                true[lit - 1] = True
        return true


__all__ = ["BxbRater", "BxbRating", "TimeLimitReached"]
