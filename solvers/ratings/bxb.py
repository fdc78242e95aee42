"""The braids-of-braids rating of depth-2 grids, after Berthier's BxB classification.

A grid that one level of trial and error with singles cannot solve (depth 2) gets no
refutation-length rating in reasonable time: its refutations are nested.  Berthier
classifies such puzzles by BxB, the smallest p for which T&E(B_p) solves them, and this
module computes that number on the CNF with the length kernels.

Definition implemented.  B_p is the resolution theory of singles and of eliminations by
refutations of length at most p, the length being the one of `solvers.core.length`
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

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from encoder.geometry import Geometry
from encoder.numbering import Grid
from encoder.status import Status
from solvers.budgets import DEFAULT_BUDGET
from solvers.core import length as K
from solvers.core.length import CONTRADICTION, OUT_OF_BUDGET, OUT_OF_TIME, SOLVED
from solvers.core.literals import to_dimacs
from solvers.core.rules import GridRules
from solvers.limits import clock, deadline_after
from solvers.ratings.length import RefutationRater
from solvers.results import SearchEnd

# The kernels (solvers/core/native/length/bxb.c, through solvers.core.length) return SOLVED,
# CONTRADICTION, STUCK, OUT_OF_BUDGET (work[SEARCHES] reached work[BUDGET]) or
# OUT_OF_TIME (the deadline passed, read every CLOCK_EVERY refutation searches), status
# codes declared once in the core (length.h, read by solvers.core.length).
# braid_closure applies B_limit to an untracked state; try_hypothesis applies it under
# one candidate in a workspace state (resuming the candidate's saved state, `memo`, when
# that changes no result); trial_and_error is T&E(B_limit) (see the module docstring
# and bxb.c).
NO_DEADLINE = np.inf
CLOCK_EVERY = K.CLOCK_EVERY  # refutation searches between two looks at the clock
# Slots of the work counters.
SEARCHES = K.SEARCHES  # shortest-refutation searches
HYPOTHESES = K.HYPOTHESES  # hypotheses tried
SKIPPED = K.SKIPPED  # hypotheses whose saved state showed they could not move
ELIMINATED = K.ELIMINATED  # candidates the closures eliminated
BUDGET = K.BUDGET  # the searches allowed (not a counter: the budget, set by the caller)
NUM_COUNTERS = K.NUM_COUNTERS
NO_BUDGET = 1 << 62
RESUME_BYTES = 64 << 20
braid_closure = K.braid_closure  # (f, T, X, n, limit, seconds_left, work) -> (status, next)
try_hypothesis = K.try_hypothesis  # (f, T, U, X, n, v, limit, seconds_left, memo, work)
trial_and_error = K.trial_and_error  # (f, T, U, X, n, limit, seconds_left, true, memo, work)


def new_work(searches: int = NO_BUDGET) -> np.ndarray:
    """Return the kernels' work counters, zeroed, with a budget of `searches`."""
    work = np.zeros(NUM_COUNTERS, np.int64)
    work[BUDGET] = searches
    return work


@dataclass(frozen=True)
class NestedRefutation:
    """A hypothesis (a DIMACS literal, cell = value) refuted by T&E(B_level): the
    candidates B_level eliminates under it, in order, each as (its negation, the length
    of its refutation, that refutation's constraints), the last one's elimination
    (or the hypothesis itself when the list is empty) reaching the contradiction."""

    hypothesis: int
    level: int
    eliminations: tuple[tuple[int, int, tuple[int, ...]], ...]


@dataclass(frozen=True)
class BxbRating(SearchEnd):
    """A grid's braids-of-braids rating: `value` the smallest p for which T&E(B_p)
    solves it (None when not settled), `status` SAT when solved, UNSAT when the grid
    has no solution, UNKNOWN when no p up to the last one tried solved it or the work
    budget (`over_budget`) or the time limit (`timed_out`) stopped it; `searches` the
    refutation searches it made."""

    value: int | None
    status: Status
    seconds: float

    def shown(self) -> tuple[Status, int | None, int]:
        return self.status, self.value, 2


class BxbRater:
    """Rates grids of one geometry and encoding by BxB; `searches` (refutation searches,
    the work budget) and `time_limit` (seconds, None: none) bound each grid."""

    def __init__(
        self,
        geometry: Geometry,
        encoding: str = "centrale",
        time_limit: float | None = None,
        lengths: RefutationRater | None = None,
        searches: int = DEFAULT_BUDGET.searches,
    ):
        self.lengths = lengths or RefutationRater(geometry, encoding)
        self.time_limit = time_limit
        self.searches = searches
        self._workspace = K.State(self.lengths.formula)  # the hypotheses'
        self.engine = GridRules(geometry, encoding)
        # Each hypothesis's last state, resumed at its next trial (see
        # `_hypothesis_fails`), when one value a literal for each candidate fits.
        r = self.lengths
        rows = r.num_candidates if r.num_candidates * 2 * r.num_vars <= RESUME_BYTES else 0
        self._memo = (
            np.zeros((rows, 2 * r.num_vars), np.int8),  # the values of its last state
            np.zeros(rows, np.int64),  # the limit at which that state moves again
            np.zeros(rows, np.bool_),  # whether it has one
        )

    def rate(
        self, grid: Grid, deadline: float | None = None, searches: int | None = None
    ) -> BxbRating:
        """Return the grid's rating (see the module docstring), stopping at `deadline`
        (a solvers.limits.clock() value) if given, else after the rater's time limit,
        and after `searches` refutation searches if given, else the rater's budget."""
        begin = clock()
        if deadline is None:
            deadline = deadline_after(self.time_limit)
        r = self.lengths
        self.work = new_work(self.searches if searches is None else searches)

        def done(status: Status, value: int | None = None, timed_out=False, over=False):
            spent = int(self.work[SEARCHES])
            return BxbRating(
                value,
                status,
                clock() - begin,
                timed_out=timed_out,
                over_budget=over,
                searches=spent,
            )

        T = r.start(grid)
        if T is None:
            return done(Status.UNSAT)
        if r.is_solved(T):
            return done(Status.SAT, 0)
        at = NO_DEADLINE if deadline is None else deadline
        true_somewhere = self._solution_candidates(grid)
        self._memo[2][:] = False
        p = 1
        while p <= r.num_constraints:
            status, next_limit = trial_and_error(
                r.formula, T, self._workspace, r.X, r.num_candidates, p, at - clock(),
                true_somewhere, self._memo, self.work,
            )  # fmt: skip
            if status == SOLVED:
                return done(Status.SAT, p)
            if status == CONTRADICTION:
                return done(Status.UNSAT)
            if status == OUT_OF_TIME:
                return done(Status.UNKNOWN, timed_out=True)
            if status == OUT_OF_BUDGET:
                return done(Status.UNKNOWN, over=True)
            p = max(p + 1, next_limit)
        return done(Status.UNKNOWN)

    # --- one step, for explanations ---------------------------------------------------

    def nested_step(self, T: K.State, grid: Grid) -> NestedRefutation | None:
        """Return the shortest nested refutation in the untracked state T (of `grid`):
        a hypothesis that B_p refutes for the smallest p, with the fewest eliminations
        under it, and those eliminations in order; None when no p refutes any."""
        r = self.lengths
        true_somewhere = self._solution_candidates(grid)
        no_memo = (np.zeros((0, 2 * r.num_vars), np.int8), np.zeros(0, np.int64), np.zeros(0, bool))
        work = new_work()  # one explanation step, bounded by its caller
        value = T.value
        hypotheses = [v for v in range(r.num_candidates) if value[2 * v] == 0]
        hypotheses = [v for v in hypotheses if not true_somewhere[v]]
        p = 1
        while p <= r.num_constraints:
            refuted = []
            shortest_left = r.num_constraints + 1
            for v in hypotheses:
                before = int(work[ELIMINATED])
                status, left = try_hypothesis(
                    r.formula, T, self._workspace, r.X, r.num_candidates, v, p, NO_DEADLINE,
                    no_memo, work,
                )  # fmt: skip
                if status == CONTRADICTION:
                    refuted.append((int(work[ELIMINATED]) - before, v))
                else:
                    shortest_left = min(shortest_left, left)
            if refuted:
                return self._replay(T, min(refuted)[1], p)
            p = max(p + 1, shortest_left)
        return None

    def _replay(self, T: K.State, v: int, p: int) -> NestedRefutation:
        """Return B_p under candidate v, which ends in a contradiction, step by step."""
        r = self.lengths
        U = T.copy()
        eliminated: list[tuple[int, int, tuple[int, ...]]] = []
        ok = progress = r.add_fact(U, v + 1)
        while ok:
            if not progress:
                raise AssertionError("B_p under the hypothesis should end in a contradiction")
            progress = False
            value = U.value  # (read again after each fact added)
            for y in range(r.num_candidates):
                if value[2 * y] != 0:
                    continue
                length = K.shortest_refutation(r.formula, U, r.X, 2 * y, p)
                if length <= p:
                    ruled_out = int(to_dimacs(2 * y + 1))
                    eliminated.append((ruled_out, int(length), r._bits(r.X.best_cone)))
                    ok = r.add_fact(U, ruled_out)
                    value = U.value
                    progress = True
                    if not ok:
                        break
        return NestedRefutation(v + 1, p, tuple(eliminated))

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


@dataclass(frozen=True)
class LengthLabel:
    """What the length column shows for a grid: `label` (an integer, 'unsat', '>D',
    '>budget' or 'timeout'), the `rating` that gave it (`LENGTH` or `BXB`, its own scale:
    a table or column each), its time, and whether the work budget or the time limit
    stopped it."""

    label: str
    rating: str
    seconds: float
    timed_out: bool = False
    over_budget: bool = False


LENGTH = "length"  # the refutation length (solvers.ratings.length)
BXB = "BxB"  # braids of braids, for grids one level of refutations leaves open


class LengthColumn:
    """The length column of `solvers rate`, the harness and `benchmarks agreement`:
    the refutation-length rating (`solvers.ratings.length`) of a grid that one level of
    refutations solves, BxB of a grid that needs two, both over the rater `lengths`
    (RefutationRater(geometry) when None), whose `searches` (the work budget) and
    `time_limit` bound both together for each grid."""

    def __init__(self, geometry: Geometry, lengths: RefutationRater | None = None):
        self.lengths = lengths or RefutationRater(geometry)
        r = self.lengths
        self.bxb = BxbRater(r.geometry, r.encoding, r.time_limit, lengths=r)
        self.time_limit = r.time_limit
        self.searches = r.searches

    def rate(
        self,
        grid: Grid,
        length_depth: int = 1,
        depth: int | None = None,
        solution: Grid | None = None,
    ) -> LengthLabel:
        """Return the grid's length label.  With `length_depth` 1 (the default), a grid
        the refutation-length rating leaves at '>1' gets its BxB; a larger
        `length_depth` asks for the nested refutation length instead.  `depth`, when
        the depth rating already gave it over the same rules, saves the depth-1 attempt
        on depth-2 grids, and rates a grid of depth 0 at once: unit propagation fills
        it, and that propagation over the same clauses is the length rating's first
        step, so its rating is 0 (test_rating_explain checks the two agree).  `solution`,
        a solution of the grid when one is known, spares the refutation-length rating the
        searches of its candidates (RefutationRater.rate)."""
        if depth == 0:
            return LengthLabel("0", LENGTH, 0.0)
        begin = clock()
        deadline = deadline_after(self.time_limit)
        spent = 0
        if not (length_depth == 1 and depth == 2):
            rated = self.lengths.rate(grid, length_depth, solution)
            stopped = rated.timed_out or rated.over_budget
            unsettled = rated.status is Status.UNKNOWN and not stopped
            if not (unsettled and length_depth == 1):
                return LengthLabel(
                    rated.label(), LENGTH, rated.seconds, rated.timed_out, rated.over_budget
                )
            spent = rated.searches
        bxb = self.bxb.rate(grid, deadline, self.searches - spent)
        seconds = clock() - begin
        return LengthLabel(bxb.label(), BXB, seconds, bxb.timed_out, bxb.over_budget)

    def rate_many(
        self,
        grids: np.ndarray,
        length_depth: int = 1,
        depths: Sequence[int | None] | None = None,
        solutions: np.ndarray | None = None,
    ) -> list[LengthLabel]:
        """Return each grid's length label, as `rate` gives it (`depths` and `solutions`:
        each grid's, None or a row of zeros where unknown), the refutation-length
        ratings of the grids that need one made in one call of the core
        (RefutationRater.rate_many); BxB goes grid by grid."""
        values = np.asarray(grids)
        count = len(values)
        depths = [None] * count if depths is None else list(depths)
        if self.time_limit is not None:  # one deadline a grid, for both ratings: `rate`
            return [
                self.rate(values[i].tolist(), length_depth, depths[i], self._known(solutions, i))
                for i in range(count)
            ]
        labels: list[LengthLabel | None] = [None] * count
        batch = []  # the grids whose refutation length comes first
        for i, depth in enumerate(depths):
            if depth == 0:
                labels[i] = LengthLabel("0", LENGTH, 0.0)
            elif length_depth == 1 and depth == 2:
                labels[i] = self.rate(values[i].tolist(), length_depth, depth)
            else:
                batch.append(i)
        if batch:
            known = None if solutions is None else np.asarray(solutions)[batch]
            rated = self.lengths.rate_many(values[batch], length_depth, known)
            for i, one in zip(batch, rated, strict=True):
                stopped = one.timed_out or one.over_budget
                if not (one.status is Status.UNKNOWN and not stopped and length_depth == 1):
                    labels[i] = LengthLabel(
                        one.label(), LENGTH, one.seconds, one.timed_out, one.over_budget
                    )
                    continue
                begin = clock()  # (no time limit here: no deadline)
                bxb = self.bxb.rate(values[i].tolist(), None, self.searches - one.searches)
                seconds = one.seconds + clock() - begin
                labels[i] = LengthLabel(bxb.label(), BXB, seconds, bxb.timed_out, bxb.over_budget)
        return labels

    @staticmethod
    def _known(solutions: np.ndarray | None, i: int) -> np.ndarray | None:
        """Grid i's solution, None where there is none (no rows, or a row of zeros)."""
        return None if solutions is None or not np.any(solutions[i]) else solutions[i]
