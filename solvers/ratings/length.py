"""The refutation-length rating: the longest of the shortest refutations a grid needs.

Resolution, simplest first (as Sudoku Explainer and Berthier's SudoRules proceed): at
each state unit propagation places the singles; then, among the candidates (cell =
value) a refutation eliminates, those whose shortest refutation is shortest are all
eliminated at once, and so on until the grid is filled.  The rating is the longest
step this needed; a grid that singles fill rates 0.  How a refutation's length is
counted (the constraints of the implication graph that leads to the contradiction,
links free, the target's own constraints not counted) is in solvers/core/native/length/length.c; on
the exam's encoding it is the number of CSP-variables (cells rc and row/column/box
places rn, cn, bn) of Berthier's braids, so the rating is meant to be his B (and W,
which differs from B on 0.3% of puzzles).

Because a shortest refutation only gets shorter as the state grows (more facts, fewer
candidates to remove), the rating is also the smallest length L such that singles and
refutations of length <= L fill the grid: any order of those steps reaches the same
fixpoint, and simplest first never needs a longer step.  (That holds for true minima;
the kernel's lengths are minima up to the approximation described in
solvers/core/native/length/length.c, so the two definitions can differ on rare grids.)

Where this differs from Berthier's W: W counts whips, whose chain must be continuous
(each CSP-variable's left-linking candidate linked to the previous right-linking one);
a braid, and a refutation here, may link back to any earlier value, so it can be
shorter (W and B differ on about 0.3% of puzzles, and this rating follows B there).
The kernel's first derivation of a value can overcount where the value has two
derivations and the shorter union of constraints goes through the other one; a step
whose shortest refutations are longer than 2 is therefore searched again with
alternative cones (length.c's refutation_with_alternatives), which finds those shorter
unions.

Nested refutations (grids of depth 2 and 3).  When no candidate is refuted by unit
propagation, a hypothesis z is followed by the same simplest-first resolution, one
level down, in which every fact carries its cone: a candidate eliminated under z
carries the constraints of its own refutation, and a value forced by a constraint
carries that constraint and the cones of the candidates it lost.  The contradiction
the inner resolution reaches has a cone too, and the nested refutation's length is
its size: the number of distinct constraints the whole proof uses, inner refutations
included.  At depth d the inner resolution may itself use depth d-1 steps.  So a
depth-2 step is longer than the depth-1 refutations it contains, and the rating of a
depth-2 grid is usually above those of depth-1 grids.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from encoder.dimacs import Cnf
from encoder.encodings import rule_formula
from encoder.geometry import Geometry
from encoder.numbering import Grid
from encoder.status import Status
from solvers.budgets import DEFAULT_BUDGET, BudgetExhausted
from solvers.core import length as K
from solvers.core.length import (
    BAD_SOLUTION,
    CONTRADICTION,
    NO_CONFLICT,
    OUT_OF_BUDGET,
    PAUSED,
    REASON_DECISION,
    REASON_PROBE,
    SOLVED,
)
from solvers.core.literals import to_code, to_dimacs
from solvers.limits import TimeLimitReached, clock, deadline_after
from solvers.results import SearchEnd

# Simplest-first steps per kernel call: one, so that each step whose least length is
# above 2 is searched again with alternative cones (within one call the kernel does
# that only for a step that raises the call's longest), and Python reads the clock
# between steps under a time limit.  The kernel counts the work budget itself.
STEPS_PER_CALL = 1


@dataclass(frozen=True)
class RefutationRating(SearchEnd):
    """A grid's refutation-length rating: `length` is the longest step (None when the
    resolution stopped short), `depth` the deepest nesting a step needed, `status` SAT
    when the resolution filled the grid, UNSAT when it reached a contradiction, UNKNOWN
    when no refutation of depth <= max_depth was left or the work budget
    (`over_budget`) or the time limit (`timed_out`) stopped it; `searches` the work
    spent, in the budget's units."""

    length: int | None
    depth: int | None
    status: Status
    steps: int
    seconds: float

    def shown(self) -> tuple[Status, int | None, int]:
        return self.status, self.length, self.depth


@dataclass(frozen=True)
class Elimination:
    """One step of the resolution: the candidates (DIMACS literals) eliminated, each by a
    refutation of `length` and nesting `depth`, and for each its cone (indices of the
    constraints, in `RefutationRater.constraint_clause` order).  (`solvers.explain.steps.Step`
    is a step of an explanation, which says one of these in words.)"""

    depth: int
    length: int
    eliminated: tuple[int, ...]
    cones: tuple[tuple[int, ...], ...]


class RefutationRater:
    """Rates grids of one geometry and encoding; `searches` (the work budget: each open
    candidate of each step, whose shortest refutation is searched, counts one) and
    `time_limit` (seconds, None: none) bound each grid."""

    def __init__(
        self,
        geometry: Geometry,
        encoding: str = "centrale",
        time_limit: float | None = None,
        searches: int = DEFAULT_BUDGET.searches,
    ):
        self.geometry = geometry
        self.encoding = encoding
        self.time_limit = time_limit
        self.searches = searches
        self.spent = 0  # searches counted for the grid being rated
        formula = rule_formula(geometry, encoding)
        cnf = Cnf.from_clauses(formula.clauses, formula.num_vars)
        self.num_vars = formula.num_vars
        self.num_candidates = geometry.size**3
        # The engine's formula (links: its implication lists, constraints: its long
        # clauses), each literal's constraints, and the work arrays of one hypothesis.
        self.F, self._units, _, _ = K.build(cnf.literals, cnf.offsets, self.num_vars)
        self.formula = K.LengthFormula(self.F, self.num_vars)  # the core's copy, checked once
        self.X = K.Scratch(self.formula)
        self.A = K.Alternatives(self.formula)
        self.num_constraints = self.formula.num_constraints
        # Input index of each constraint's clause, for explanations.
        self.constraint_clause = tuple(self.F.corig.tolist())
        self._lengths = np.zeros(self.num_candidates, np.int64)
        self._step_lengths = np.zeros(0, np.int64)
        self._state = K.State(self.formula)  # rate()'s
        self._deadline: float | None = None
        self._previous: dict[int, int] = {}  # nested length of each hypothesis last seen
        n = geometry.size  # _known_true's: each cell's first literal code, less 2
        self._cell_codes = 2 * n * np.arange(n * n, dtype=np.int64) - 2
        self._mask = np.zeros(self.num_vars, np.bool_)
        self._searches = np.zeros(2, np.int64)  # [spent, allowed]: simplest_first counts

    # --- states --------------------------------------------------------------------

    def start(self, grid: Grid) -> K.State | None:
        """Return the state after unit propagation of the givens, or None on a
        contradiction."""
        S = K.State(self.formula)
        return S if self._restart(S, grid) else None

    def _restart(self, S: K.State, grid: Grid) -> bool:
        """Make the untracked S the state of the grid's givens, propagated; False on a
        contradiction."""
        # The givens' literal codes, 2 * (cell_var(c, k) - 1), straight from the values.
        values = np.asarray(grid, np.int64).reshape(-1)
        cells = np.flatnonzero(values)
        codes = (2 * (self.geometry.size * cells + values[cells]) - 2).astype(np.int32)
        return K.restart(self.formula, S, self._units, codes) == NO_CONFLICT

    def _assert(
        self, S: K.State, code: int, cone: np.ndarray | None = None, why: int = REASON_PROBE
    ) -> int:
        """Make literal `code` a fact of S with `cone` (None: empty) and reason `why` (by
        default: the negation of a refuted hypothesis); return the contradiction's pool
        row or NO_CONFLICT."""
        row = S.add_cone(cone) if cone is not None and S.track else K.EMPTY
        lits, rows = np.array([code], np.int32), np.array([row], np.int32)
        return K.assert_facts(self.formula, S, lits, rows, why)

    def add_fact(self, S: K.State, lit: int) -> bool:
        """Make the DIMACS literal `lit` a fact of S and propagate; False on a contradiction."""
        return self._assert(S, to_code(lit)) == NO_CONFLICT

    def nested_length(self, S: K.State, lit: int, depth: int) -> int | None:
        """Return the length of the depth-`depth` refutation of hypothesis `lit` (a
        DIMACS literal) in state S, or None when it has none."""
        if depth < 2:
            K.shortest_refutation(self.formula, S, self.X, to_code(lit), self.num_constraints)
            found = len(self._bits(self.X.best_cone))
            return found or None
        found = self._nested(S, to_code(lit), depth, self.num_constraints)
        return None if found is None else found[0]

    def is_solved(self, S: K.State) -> bool:
        return bool(K.solved(self.formula, S, self.num_candidates))

    def values(self, S: K.State) -> Grid:
        """Return the grid of the values the state has placed (0 where open)."""
        n = self.geometry.size
        true = S.value[0 : 2 * self.num_candidates : 2].reshape(n * n, n) == 1
        return tuple(int(row.argmax()) + 1 if row.any() else 0 for row in true)

    def _open(self, S: K.State) -> list[int]:
        return (2 * np.flatnonzero(S.value[0 : 2 * self.num_candidates : 2] == 0)).tolist()

    def charge(self, searches: int = 1) -> None:
        """Count `searches` against the grid's budget; raise BudgetExhausted past it, and
        TimeLimitReached past the deadline."""
        self.spent += searches
        if self.spent > self.searches:
            raise BudgetExhausted("searches", self.searches)
        if self._deadline is not None and clock() >= self._deadline:
            raise TimeLimitReached(self.time_limit)

    def open_count(self, S: K.State) -> int:
        """Return the number of open candidates of S."""
        return int(np.count_nonzero(S.value[0 : 2 * self.num_candidates : 2] == 0))

    # --- the rating -----------------------------------------------------------------

    def rate_many(
        self, grids: np.ndarray, max_depth: int = 2, solutions: np.ndarray | None = None
    ) -> list[RefutationRating]:
        """Return the rating of each grid (rows of cell values), as `rate` gives it, the
        grids rated one after the other in one kernel call (rate_many: no Python between
        them); `solutions`, rows of the grids' solutions (a row of zeros: none known).
        A grid the kernel leaves stuck, when nested refutations are asked (max_depth 2
        or more), and every grid under a time limit (Python reads the clock between
        steps), go through `rate`."""
        n = self.geometry.size
        values = np.ascontiguousarray(grids, np.int8).reshape(-1, n * n)
        known = None
        if solutions is not None:
            known = np.ascontiguousarray(solutions, np.int8).reshape(-1, n * n)

        def solution(i: int) -> np.ndarray | None:  # (a row of zeros: none known)
            return None if known is None or not known[i].any() else known[i]

        if self.time_limit is not None:
            return [self.rate(row, max_depth, solution(i)) for i, row in enumerate(values.tolist())]
        if self.num_vars != self.num_candidates:
            known = None  # (as rate: nothing would check the other variables' values)
        out = np.zeros((len(values), 5), np.int64)
        done = K.rate_many(
            self.formula, self._state, self.X, self.A, self.num_candidates,
            self.num_constraints, self._lengths, self._step_lengths, self._units, values, known, n,
            self.searches, out,
        )  # fmt: skip
        if done < len(values):  # (a signal raises first; a bad state raises ValueError)
            raise AssertionError("rate_many stopped early without an exception")
        ratings = []
        for i, (status, longest, steps, spent, ns) in enumerate(out.tolist()):
            depth = 1 if steps else 0
            if status == BAD_SOLUTION:
                raise ValueError(f"grid {i}: the solution breaks a rule or a given of the grid")
            if status == SOLVED:
                rated = RefutationRating(
                    longest, depth, Status.SAT, steps, ns / 1e9, searches=spent
                )
            elif status == CONTRADICTION:
                rated = RefutationRating(None, depth, Status.UNSAT, steps, ns / 1e9, searches=spent)
            elif status == OUT_OF_BUDGET:
                rated = RefutationRating(
                    None, depth, Status.UNKNOWN, steps, ns / 1e9, over_budget=True, searches=spent
                )
            elif max_depth < 2:  # stuck: no nested refutation asked (rate's own answer)
                rated = RefutationRating(
                    None, max_depth, Status.UNKNOWN, steps, ns / 1e9, searches=spent
                )
            else:
                rated = self.rate(values[i].tolist(), max_depth, solution(i))
            ratings.append(rated)
        return ratings

    def rate(
        self, grid: Grid, max_depth: int = 2, solution: Grid | None = None
    ) -> RefutationRating:
        """Return the grid's rating (see the module docstring).  `solution`, a solution of
        the grid when one is known (the depth rating's), spares the searches of its
        candidates, which cannot be refuted; it changes no rating."""
        begin = clock()  # compiling a kernel does not count (see solvers.limits)
        self._deadline = deadline_after(self.time_limit)
        self._previous = {}
        self.spent = 0
        longest, depth, steps = 0, 0, 0

        def done(status: Status, timed_out: bool = False, over: bool = False) -> RefutationRating:
            seconds = clock() - begin
            length = longest if status is Status.SAT else None
            stopped = timed_out or over
            shown = depth if status is not Status.UNKNOWN or stopped else max_depth
            return RefutationRating(
                length,
                shown,
                status,
                steps,
                seconds,
                timed_out=timed_out,
                over_budget=over,
                searches=self.spent,
            )

        S = self._state  # one state for every grid (nothing keeps it between calls)
        if not self._restart(S, grid):
            return done(Status.UNSAT)
        known_true = None if solution is None else self._known_true(S, solution)
        searches = self._searches
        try:
            while True:
                # The kernel adds each step's searches (its open candidates) before it
                # runs, and stops with OUT_OF_BUDGET past the budget.
                searches[0], searches[1] = self.spent, self.searches
                status, step_longest, count = K.simplest_first(
                    self.formula, S, self.X, self.A, self.num_candidates,
                    self.num_constraints, self._lengths, self._step_lengths, STEPS_PER_CALL,
                    known_true, searches,
                )  # fmt: skip
                self.spent = int(searches[0])
                if count:
                    longest, depth, steps = max(longest, step_longest), max(depth, 1), steps + count
                if status == SOLVED:
                    return done(Status.SAT)
                if status == CONTRADICTION:
                    return done(Status.UNSAT)
                if status == OUT_OF_BUDGET:
                    raise BudgetExhausted("searches", self.searches)
                self.charge(0)  # the clock
                if status == PAUSED:
                    continue
                step = self.nested_elimination(S, max_depth)
                if step is None:
                    return done(Status.UNKNOWN)
                longest, depth, steps = max(longest, step.length), max(depth, step.depth), steps + 1
                for lit in step.eliminated:
                    if self._assert(S, to_code(lit)) != NO_CONFLICT:
                        return done(Status.UNSAT)
        except TimeLimitReached:
            return done(Status.UNKNOWN, timed_out=True)
        except BudgetExhausted:
            return done(Status.UNKNOWN, over=True)

    def _known_true(self, S: K.State, solution: Grid) -> np.ndarray | None:
        """Return the candidates of `solution` (a filled grid) as simplest_first's
        known_true, after the kernel checked that, as an assignment of the candidates, it
        is a model of the rules and agrees with every fact of S (the grid's state);
        raise ValueError when not.  None where the rules have variables besides the
        candidates (nothing would check the solution's values of those)."""
        if self.num_vars != self.num_candidates:
            return None
        n = self.geometry.size
        values = np.asarray(solution, np.int64).reshape(-1)
        if values.shape != (n * n,) or values.min() < 1 or values.max() > n:
            raise ValueError(f"the solution is not a filled {n}x{n} grid")
        codes = (self._cell_codes + 2 * values).astype(np.int32)
        if not K.model_mask(self.formula, S, codes, self._mask):
            raise ValueError("the solution breaks a rule or a given of the grid")
        return self._mask

    # --- one step, for explanations and nesting --------------------------------------

    def shortest_elimination(self, S: K.State, max_depth: int = 2) -> Elimination | None:
        """Return the next step of the simplest-first resolution of state S (not
        applied), or None when no refutation of depth <= max_depth is left."""
        best = K.candidate_lengths(
            self.formula, S, self.X, self.num_candidates, self.num_constraints, self._lengths
        )
        if best > self.num_constraints:
            return self.nested_elimination(S, max_depth)
        if best > 2:  # the shortest refutations the first derivations missed, if any
            shorter = K.shorter_lengths(
                self.formula, S, self.X, self.A, self.num_candidates, best - 1, self._lengths
            )
            best = min(best, shorter)
        chosen = [v for v in range(self.num_candidates) if self._lengths[v] == best]
        cones = []
        for v in chosen:
            K.refutation_with_alternatives(self.formula, S, self.X, self.A, 2 * v, best)
            cones.append(self._bits(self.X.best_cone))
        return Elimination(1, int(best), tuple(to_dimacs(2 * v + 1) for v in chosen), tuple(cones))

    def chain(
        self, S: K.State, hypothesis: int, cone: tuple[int, ...]
    ) -> tuple[list[tuple[int, int]], int | tuple[int, int]]:
        """Return the chain of a refutation of `hypothesis` (a DIMACS literal) in state S
        that uses the constraints of `cone` (an Elimination's, as the kernel found it): the
        values they force, in order, as (DIMACS literal, constraint index), and what breaks:
        the constraint it empties, or the two true literals (DIMACS) that exclude each other."""
        lits = np.empty(len(cone), np.int64)
        constraints = np.empty(len(cone), np.int64)
        n, broken, a, b = K.refutation_chain(
            self.formula, S, self._words(cone), to_code(hypothesis), lits, constraints
        )
        if n < 0:
            raise AssertionError("the refutation's constraints do not refute it")
        forced = [
            (int(to_dimacs(lit)), int(c))
            for lit, c in zip(lits[:n].tolist(), constraints[:n].tolist(), strict=True)
        ]
        if broken >= 0:
            return forced, int(broken)
        return forced, (int(to_dimacs(a)), int(to_dimacs(b)))

    def apply(self, S: K.State, step: Elimination) -> bool:
        """Apply a step's eliminations and propagate; return False on a contradiction."""
        return all(self._assert(S, to_code(lit)) == NO_CONFLICT for lit in step.eliminated)

    def nested_elimination(self, S: K.State, max_depth: int) -> Elimination | None:
        """Return the step of the shortest nested refutations (depth 2 up to max_depth)
        of an untracked state S that no unit-propagation refutation changes."""
        for depth in range(2, max_depth + 1):
            found: list[tuple[int, int, tuple[int, ...]]] = []
            bound = self.num_constraints
            # The lengths of the last nested step first: a short one found early bounds
            # the others (lengths only shrink as the state grows).
            order = sorted(self._open(S), key=lambda z: self._previous.get(z, bound + 1))
            for z in order:
                self.charge()
                if not self._fails(S, z, depth):
                    continue
                result = self._nested(S, z, depth, bound)
                if result is not None:
                    found.append((result[0], z, result[1]))
                    bound = min(bound, result[0])
                    self._previous[z] = result[0]
            if found:
                best = min(length for length, _, _ in found)
                chosen = [(z, cone) for length, z, cone in found if length == best]
                return Elimination(
                    depth,
                    best,
                    tuple(to_dimacs(z ^ 1) for z, _ in chosen),
                    tuple(cone for _, cone in chosen),
                )
        return None

    def _fails(self, S: K.State, z: int, depth: int) -> bool:
        """Return True when hypothesis z leads to a contradiction under the closure of
        depth depth-1 (no cones: the cheap test before the nested length is counted)."""
        U = S.copy(track=False)
        if self._assert(U, z, why=REASON_DECISION) != NO_CONFLICT:
            return True
        while True:
            status = K.failed_closure(self.formula, U, self.X, self.num_candidates)
            if status == CONTRADICTION:
                return True
            if status == SOLVED or depth - 1 < 2:
                return False
            for y in self._open(U):
                self.charge()
                if self._fails(U, y, depth - 1):
                    if self._assert(U, y ^ 1) != NO_CONFLICT:
                        return True
                    break
            else:
                return False

    def _nested(
        self, S: K.State, z: int, depth: int, bound: int
    ) -> tuple[int, tuple[int, ...]] | None:
        """Return (length, cone) of the depth-`depth` refutation of hypothesis z: the
        simplest-first resolution under z, facts carrying cones, to its contradiction;
        None when there is none of length <= bound.  (A contradiction's cone contains
        the cone of the elimination that triggers it, and eliminations come in order of
        cone size, so the resolution stops once its steps are longer than `bound`.)"""
        U = S.copy(track=True)
        conflict = self._assert(U, z, why=REASON_DECISION)
        while conflict == NO_CONFLICT:
            self.charge()
            if self.is_solved(U):
                return None
            best = K.candidate_lengths(
                self.formula, U, self.X, self.num_candidates, bound, self._lengths
            )
            if best <= bound:
                chosen = [v for v in range(self.num_candidates) if self._lengths[v] == best]
                cones = []
                for v in chosen:
                    K.shortest_refutation(self.formula, U, self.X, 2 * v, best)
                    cones.append(self.X.best_cone)
                for v, cone in zip(chosen, cones, strict=True):
                    conflict = self._assert(U, 2 * v + 1, cone)
                    if conflict != NO_CONFLICT:
                        break
                continue
            if depth - 1 < 2:
                return None
            inner = []
            for y in self._open(U):
                if self._fails(U, y, depth - 1):
                    found = self._nested(U, y, depth - 1, bound)
                    if found is not None:
                        inner.append((found[0], y, found[1]))
            if not inner:
                return None
            low = min(length for length, _, _ in inner)
            for length, y, cone in inner:
                if length == low:
                    conflict = self._assert(U, y ^ 1, self._words(cone))
                    if conflict != NO_CONFLICT:
                        break
        cone = self._bits(U.pool_row(conflict))
        return (len(cone), cone) if len(cone) <= bound else None

    def _bits(self, words: np.ndarray) -> tuple[int, ...]:
        bits = np.unpackbits(words.view(np.uint8), bitorder="little")
        return tuple(int(i) for i in np.flatnonzero(bits) if i < self.num_constraints)

    def _words(self, cone: tuple[int, ...]) -> np.ndarray:
        words = np.zeros(self.formula.num_words, np.uint64)
        for c in cone:
            words[c >> 6] |= np.uint64(1) << np.uint64(c & 63)
        return words
