"""Every solver behind one interface, and the registry that names them.

A backend is loaded once with a formula (`load(clauses, num_vars, cell_vars)`) and then
answers `solve(assumptions)` with a frozen `SolverResult`.  For Sudoku the formula is
the rule formula and the assumptions are the givens (one positive literal per given),
so one loaded solver serves a whole puzzle set.  Unit clauses of a loaded formula are
kept aside and passed as assumptions with each call: the answer is the same, and their
propagation is then visible to `propagate`, so a DIMACS file with its givens as units
is measured like a rule formula with givens as assumptions.

What the fields of a result mean, for every backend:

- `solved_without_search`: root-level unit propagation of the assumptions on the loaded
  clauses (and nothing else: no learnt clauses, no probing) assigns every cell variable
  (the first `cell_vars` variables).  It is asked of a propagator, never read off the
  decision count: the home engine's `propagate` (for the home solvers and the
  binaries), or, for PySAT, `propagate` on a twin solver that never searches (learnt
  clauses of earlier calls would strengthen it).
- `decisions`, `conflicts`, `propagations`: this call's work, with each backend's
  baseline removed (table below); NOT_AVAILABLE where the backend does not say.
- `seconds`: `time.perf_counter` around the work the mode measures (table below).

| names | decisions reported | seconds measure |
|---|---|---|
| `up`, `fl`, `fl2`, `fl3` | 0: a closure never decides | the closure |
| `dpll` | the engine's branching decisions | `Engine.solve` |
| `minisat22`, `glucose3`, `glucose4` | raw - 2 if SAT, raw if UNSAT | `solve` (+ build if fresh) |
| `cadical195` | raw (see below) | `solve` (+ build if fresh) |
| `minisat` binary | raw - 1 if SAT, raw if UNSAT | the subprocess |
| `picosat`, `cadical`, `cryptominisat5` binaries | raw | the subprocess |
| `--solver-cmd` | raw if printed in a known layout, else n/a | the subprocess |

For the closures `conflicts` counts failed hypotheses.  The binaries' figures are read
off their output (`solvers.backends.stats`); the MiniSat binary, like PySAT's MiniSat,
counts its final "no variable left" pick as a decision.  PicoSAT probes failed literals
before searching, so it can answer with 0 decisions a grid that unit propagation leaves
open (the first grid of Norvig's top95: 14 failed literals, 0 decisions).

The MiniSat family's baseline: PySAT hands MiniSat variable 0, which no clause uses,
so every SAT answer decides it once, and MiniSat counts the final "no variable left"
pick as a decision: a call solved by propagation alone reports 2, and 2 is removed
from every SAT answer.  An UNSAT answer makes no final pick and decides variable 0 at
most once, so its count is left as is (exact, or one too high).  CaDiCaL has no such
baseline, but its count is no "no search" signal either: it may find a model by
preprocessing or lucky phases with 0 decisions, hence `solved_without_search` comes
from `propagate`.  Nor is a zero count in incremental mode: clauses learnt on earlier
grids strengthen propagation, and on the first 400 Royle 17-clue grids Minisat22 then
reports 0 decisions for 30 grids that unit propagation of the givens does not solve
(none in fresh mode).

Modes.  The home engine restores its state after every query, so each call is
independent.  A PySAT backend keeps one solver holding the rule formula (incremental):
`seconds` is the `solve(assumptions)` call alone, and the learnt clauses, activities
and phases of earlier grids carry over, so figures depend on the order of the grids.
`fresh=True` builds a new solver per call: `seconds` then covers loading the clauses
and solving, what a one-shot solver pays, and figures are independent of the order.
A binary is always one-shot: the formula and the assumptions (as unit clauses) are
written to a temporary DIMACS file and the command runs on it in its own process
group with a time limit.  Its output is parsed (SAT-competition `s`/`v` lines or
MiniSat's result file) and a model is checked against the clauses before it is
believed.  A missing binary, a crash, garbage output or a wrong model gives UNKNOWN
with `failed` set and the reason in `reason`; the caller's run goes on, and the
command reports the failure and exits non-zero at the end.

Every backend takes `budget` (`solvers.budgets.Budget`), the work one call may take in
the engine's own units: propagations for the home engine, conflicts for PySAT (one
uninterrupted `solve_limited` call, so that its counts do not depend on the machine);
past it the answer is UNKNOWN with `over_budget` set, the same on every machine.  A
binary's work is not visible from outside: it has no budget.  `timeout` (seconds per
call, None: none, the default) is the user's opt-in wall-clock limit: the home engine
and PySAT stop within about a tenth of a second of it, a binary is killed at it
(`solvers.limits`), and the answer is UNKNOWN with `timed_out` set.

Closure solvers (`up`, `fl*`) are incomplete: SAT when their closure assigns every cell
variable and the completed assignment satisfies every clause, UNSAT on a contradiction,
else UNKNOWN (the reason says how many cell variables were left open).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial

import numpy as np

from encoder.dimacs import Cnf, clause_lines, parse_model, write_dimacs
from encoder.errors import DimacsError
from encoder.numbering import Lit
from solvers.backends.names import BINARY_NAMES, HOME_DEPTHS, PYSAT_NAMES
from solvers.backends.stats import read_statistics
from solvers.budgets import DEFAULT_BUDGET, Budget, BudgetExhausted, budget_reason
from solvers.limits import (
    TimeLimitReached,
    deadline_after,
    pysat_solve,
    pysat_solve_in_one_call,
    sigint_kept_by_python,
    time_limit_reason,
)
from solvers.results import NOT_AVAILABLE, Figure, NotAvailable, SolverResult, Status


def _split_units(formula: Cnf) -> tuple[Cnf, list[Lit], np.ndarray]:
    """Return (the clauses of two or more distinct literals or none, the unit literals,
    which clauses are units), on the flat arrays: without units, `formula` itself."""
    lits, offsets = formula.literals, formula.offsets
    lengths = np.diff(offsets)
    unit = np.zeros(lengths.size, dtype=bool)
    filled = np.flatnonzero(lengths)
    if filled.size:  # a clause is a unit when its smallest and largest literal are equal
        starts = offsets[filled]
        unit[filled] = np.minimum.reduceat(lits, starts) == np.maximum.reduceat(lits, starts)
    if not unit.any():
        return formula, [], unit
    offsets_rest = np.zeros(lengths.size - np.count_nonzero(unit) + 1, dtype=np.int64)
    np.cumsum(lengths[~unit], out=offsets_rest[1:])
    rest = Cnf(formula.num_vars, lits[np.repeat(~unit, lengths)], offsets_rest)
    return rest, lits[offsets[:-1][unit]].tolist(), unit


UNSATISFIED_REASON = "every cell is assigned but a clause is left unsatisfied"  # closures

# HomeBackend.solve_many: the closures of a batch keep each answer's assignment (a
# boolean per variable) until checked: 16 MB at most, whatever the grids' size.
BATCH_VALUES = 1 << 24


# The two helpers below run on every call: numpy keeps them near 20 us for 9x9, where
# set and dict comprehensions took 40 and 120 us (more than a PySAT solve of a 17-clue).
def _assigned_cells(literals: Sequence[Lit], cell_vars: int) -> int:
    """Return how many of the variables 1..cell_vars the literals assign."""
    variables = np.abs(np.asarray(literals, dtype=np.int64))
    seen = np.zeros(cell_vars + 1, dtype=bool)
    seen[variables[variables <= cell_vars]] = True
    return int(np.count_nonzero(seen[1:]))


def _complete(literals: Sequence[Lit], num_vars: int) -> tuple[Lit, ...]:
    """Return one literal per variable 1..num_vars: the given ones (the last one given
    for a variable wins), the others negative.  A PySAT model already is one (variable
    i at index i-1: its length and ends are checked), and is taken as it is: the
    conversion cost more than the solve of a 17-clue grid (every model is checked
    against the clauses or the grid's rules afterwards all the same)."""
    if (
        isinstance(literals, list)
        and len(literals) == num_vars
        and abs(literals[0]) == 1
        and abs(literals[-1]) == num_vars
    ):
        return tuple(literals)
    return tuple(_complete_array(literals, num_vars).tolist())


def _complete_array(literals: Sequence[Lit] | np.ndarray, num_vars: int) -> np.ndarray:
    """`_complete` as an int64 array."""
    lits = np.asarray(literals, dtype=np.int64)
    lits = lits[(lits != 0) & (np.abs(lits) <= num_vars)]
    model = -np.arange(1, num_vars + 1, dtype=np.int64)
    model[np.abs(lits) - 1] = lits
    return model


class _ClauseCheck:
    """Which clause a full assignment falsifies, compiled (`solvers.backends.model_check`: a few
    us for the 9x9 rule formula, where a Python loop over its 11,988 clauses takes 10 ms
    and numpy 50 us)."""

    def __init__(self, clauses: Cnf, num_vars: int):
        self.num_vars = num_vars
        self.lits = clauses.literals  # the formula's own arrays, not a copy
        self.offsets = clauses.offsets
        self.starts = clauses.offsets[:-1]
        self.empty = np.flatnonzero(np.diff(clauses.offsets) == 0)

    def first_falsified(self, model: Sequence[Lit]) -> int:
        """Return the index of the first clause `model` leaves without a true literal, or -1."""
        if self.empty.size:
            return int(self.empty[0])
        if not self.starts.size:
            return -1
        from solvers.backends.model_check import first_falsified  # the core only when needed

        lits = np.asarray(model, dtype=np.int64)
        return int(first_falsified(self.lits, self.offsets, lits, self.num_vars))

    def falsified_rows(self, true: np.ndarray) -> np.ndarray:
        """`first_falsified` of each row of a boolean matrix (column v-1: variable v
        true), in one compiled call."""
        if self.empty.size:
            return np.full(true.shape[0], self.empty[0], np.int64)
        if not self.starts.size:
            return np.full(true.shape[0], -1, np.int64)
        from solvers.backends.model_check import falsified_rows

        return falsified_rows(self.lits, self.offsets, np.ascontiguousarray(true))


class Backend:
    """Base class: holds the loaded formula; subclasses implement `_load` and `_solve`."""

    name = "backend"

    def __init__(self) -> None:
        self.clauses = Cnf.from_clauses([])  # flat: the engine and the checker take it as is
        self.rows: Sequence[Sequence[Lit]] = []  # the same clauses for PySAT, see `load`
        self.units: list[Lit] = []
        self.num_vars = 0
        self.cell_vars = 0

    def load(
        self, clauses: Sequence[Sequence[Lit]], num_vars: int, cell_vars: int | None = None
    ) -> Backend:
        """Load the formula and return self; `cell_vars` (default all) are the variables
        1..cell_vars that root-level propagation must assign for "solved without search".

        `clauses` are lists of DIMACS ints (the encoder's formulas) or an
        `encoder.dimacs.Cnf` (a parsed file), held flat either way; no list of lists of
        a Cnf is made: PySAT solvers are fed from the arrays a few clauses at a time,
        while lists, small, are kept as lists for them (a fresh solver per call)."""
        self.close()
        formula = clauses if isinstance(clauses, Cnf) else Cnf.from_clauses(clauses, num_vars)
        self.clauses, self.units, unit = _split_units(formula)
        if isinstance(clauses, Cnf):
            self.rows = self.clauses
        else:
            self.rows = [list(c) for c, u in zip(clauses, unit.tolist(), strict=True) if not u]
        self.num_vars = num_vars
        self.cell_vars = num_vars if cell_vars is None else cell_vars
        self.check = _ClauseCheck(self.clauses, num_vars)
        self._load()
        return self

    def solve(self, assumptions: Sequence[Lit] = ()) -> SolverResult:
        """Return the status (and model) of the loaded formula under the assumptions."""
        return self._solve([*self.units, *assumptions])

    def solve_many(self, assumption_sets: Sequence[Sequence[Lit]]) -> list[SolverResult]:
        """Return `solve` of each set of assumptions, in order, as the same calls in
        turn would (a backend that can answers them all in one compiled call)."""
        return [self.solve(assumptions) for assumptions in assumption_sets]

    def _load(self) -> None:
        pass

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        raise NotImplementedError

    def _result(
        self,
        status: Status,
        model: Sequence[Lit],
        seconds: float,
        without: bool | NotAvailable = NOT_AVAILABLE,
        decisions: Figure = NOT_AVAILABLE,
        conflicts: Figure = NOT_AVAILABLE,
        propagations: Figure = NOT_AVAILABLE,
        reason: str = "",
        timed_out: bool = False,
        failed: bool = False,
        over_budget: bool = False,
    ) -> SolverResult:
        model = tuple(model) if status is Status.SAT else ()
        return SolverResult(
            self.name,
            status,
            model,
            without,
            decisions,
            conflicts,
            propagations,
            seconds,
            reason,
            timed_out,
            failed,
            over_budget,
        )

    def mark_start(self) -> None:
        """Remember the state the backend is in now, for `rewind` (a backend whose calls
        change nothing that later calls depend on keeps nothing)."""

    def rewind(self) -> None:
        """Return to the state `mark_start` remembered: the next calls answer and count
        as they did then (the harness keeps the home engine's backends from chunk to
        chunk, see `benchmarks.chunks`).  An incremental PySAT solver, whose learnt
        clauses cannot be taken back, is built afresh instead."""

    def close(self) -> None:
        """Release what the backend holds (PySAT solvers); it can be loaded again."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class HomeBackend(Backend):
    """The home-grown engine: `depth` None = DPLL (complete), else the closure of that
    depth (0 = unit propagation, 1 = failed literals, ...); `budget.propagations` and
    `timeout` (seconds, None: no limit) per call."""

    def __init__(
        self,
        name: str,
        depth: int | None,
        timeout: float | None = None,
        budget: Budget = DEFAULT_BUDGET,
    ):
        super().__init__()
        self.name = name
        self.depth = depth
        self.timeout = timeout
        self.budget = budget

    @property
    def native(self) -> bool:
        """True when this backend's answers come from the native core's closures (a
        formula of no variable, which the core refuses, has nothing to propagate: the
        engine says so; DPLL runs in the core through the engine)."""
        return self.depth is not None and self.num_vars > 0

    def _load(self) -> None:
        self._engine = None  # built at first use
        self._core = None
        self._marked = False

    @property
    def engine(self):
        """The engine of the formula (units come as assumptions): DPLL, and the
        closures of a formula of no variable, which the core's clause engine refuses."""
        if self._engine is None:
            from solvers.core.engine import Engine

            self._engine = Engine(self.clauses, self.num_vars)
            if self._marked:
                self._engine.mark_start()
        return self._engine

    @property
    def core(self):
        """The formula in the native core's clause engine, built at first use."""
        if self._core is None:
            from solvers.core import Clauses

            self._core = Clauses((self.clauses.literals, self.clauses.offsets), self.num_vars)
        return self._core

    def mark_start(self) -> None:
        self._marked = True
        if self._engine is not None:
            self._engine.mark_start()

    def rewind(self) -> None:
        """Put the watches back as they were at `mark_start`: the engine rewound, the
        core's clause engine built again at its next use (building costs about as much
        as a few closures), so that the counts of a chunk never depend on the chunks
        before it."""
        if self._engine is not None:
            self._engine.rewind()
        self._core = None

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        if self.native:  # the units are in `assumptions` already
            return self._closures([assumptions], with_units=True)[0]
        start = time.perf_counter()
        try:
            with self.engine.limited(self.timeout, self.budget.propagations):
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
        budget = self.budget.propagations
        out = self.core.closures(
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
            propagated, values = self.core.propagate_batch([sets[i] for i in asked])
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
                    budget_reason("propagations", self.budget.propagations)
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
        ok, root = engine.propagate_before_search(assumptions)  # restores the engine's state
        without = ok and _assigned_cells(root, self.cell_vars) == self.cell_vars
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
        assigned = _assigned_cells(literals, self.cell_vars) if ok else 0
        without = self._without(assumptions, ok, assigned, conflicts)
        status, model, reason = Status.UNSAT, (), ""
        if ok:
            fixed = engine.fixed(as_array=True)
            if fixed.size:  # root-level facts (none for a rule formula): counted too
                literals = np.concatenate((fixed, literals))
                assigned = _assigned_cells(literals, self.cell_vars)
            status, reason = Status.UNKNOWN, self._open_reason(assigned)
            if not reason:
                candidate = _complete_array(literals, self.num_vars)
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
        return ok and _assigned_cells(root, self.cell_vars) == self.cell_vars

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


def figure_of(after: dict, before: dict, key: str) -> int:
    """Return a PySAT statistic's growth over one call (0 when it is not reported)."""
    return after.get(key, 0) - before.get(key, 0)


def _minisat_decisions(raw: int, sat: bool) -> int:
    """Remove the MiniSat family's baseline (see the module docstring)."""
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
        super().__init__()
        self.name = name
        self.fresh = fresh
        self.timeout = timeout
        self.budget = budget
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
            model = _complete(solver.get_model() or (), self.num_vars) if sat else ()
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
                without = ok and _assigned_cells(implied, self.cell_vars) == self.cell_vars
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


# How each known binary is called: {cnf} is the input, {out} a result file if it needs
# one.  A command without {cnf} gets the input file as its last argument.
# The verbosity is the one that prints the search statistics (`solvers.backends.stats`).
BINARY_COMMANDS = {
    "minisat": "minisat {cnf} {out}",
    "picosat": "picosat -v {cnf}",
    "cadical": "cadical {cnf}",
    "cryptominisat5": "cryptominisat5 --verb 1 {cnf}",
}
_EXIT_STATUS = {10: Status.SAT, 20: Status.UNSAT}  # the SAT-competition exit codes
TIMED_OUT = "time limit"  # BinaryBackend._run's failure at the time limit


def _kill_group(process: subprocess.Popen) -> None:
    """Kill a command started in its own session, with its children, and reap it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.communicate()


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return f": {lines[-1][:200]}" if lines else ""


class BinaryBackend(Backend):
    """A DIMACS solver binary run in a subprocess on a temporary file, with a time limit."""

    def __init__(self, name: str, command: str | None = None, timeout: float | None = None):
        super().__init__()
        self.name = name
        self.command = command or BINARY_COMMANDS[name]
        if "{cnf}" not in self.command:
            self.command += " {cnf}"
        self.timeout = timeout
        self.argv0 = shlex.split(self.command)[0]

    def missing(self) -> str:
        """Return why the command cannot run ("" when its program is found)."""
        if shutil.which(self.argv0) is None:
            return f"binary {self.argv0!r} not found (not on PATH, or not executable)"
        return ""

    def _load(self) -> None:
        from solvers.core.engine import Engine  # "solved without search" asks a propagator

        self.rule_text = clause_lines(self.clauses)  # formatted once, written per call
        self.engine = Engine(self.clauses, self.num_vars)

    def _solve(self, assumptions: list[Lit]) -> SolverResult:
        ok, root = self.engine.propagate(assumptions)
        without = ok and _assigned_cells(root, self.cell_vars) == self.cell_vars
        return replace(self._call_binary(assumptions), solved_without_search=without)

    def _call_binary(self, assumptions: list[Lit]) -> SolverResult:
        """Run the binary on the formula and the assumptions as units; read its answer."""
        start = time.perf_counter()
        reason = self.missing()
        if reason:
            return self._unknown(reason, start)
        text = write_dimacs(
            self.num_vars,
            [self.rule_text, clause_lines([lit] for lit in assumptions)],
            len(self.clauses) + len(assumptions),
        )
        with tempfile.TemporaryDirectory(prefix="sudoku-sat-") as tmp:
            cnf, out = os.path.join(tmp, "in.cnf"), os.path.join(tmp, "out.txt")
            with open(cnf, "w", encoding="utf-8") as handle:
                handle.write(text)
            argv = [part.format(cnf=cnf, out=out) for part in shlex.split(self.command)]
            start = time.perf_counter()
            code, stdout, stderr, failure = self._run(argv)
            seconds = time.perf_counter() - start
            if failure is TIMED_OUT:
                reason = time_limit_reason(self.timeout)
                return self._result(Status.UNKNOWN, (), seconds, reason=reason, timed_out=True)
            if failure:
                return self._unknown(failure, start)
            if code < 0:
                name = signal.Signals(-code).name if -code in signal.valid_signals() else ""
                return self._unknown(f"{self.argv0} killed by signal {-code} {name}".strip(), start)
            if code not in (0, 10, 20):
                detail = _last_line(stderr) or _last_line(stdout)
                return self._unknown(f"{self.argv0} exited with code {code}{detail}", start)
            output = stdout
            if "{out}" in self.command:
                try:
                    with open(out, encoding="utf-8", errors="replace") as handle:
                        output = handle.read()
                except OSError:
                    return self._unknown(f"{self.argv0} wrote no result file", start)
        return self._read_answer(output, code, assumptions, seconds, read_statistics(stdout))

    def _run(self, argv: list[str]) -> tuple[int, str, str, str]:
        """Run argv in its own process group; return (exit code, stdout, stderr, failure),
        failure being TIMED_OUT at the time limit.  The process group is killed when the
        limit is reached or when this call is interrupted (Ctrl-C reaches only our own
        process group)."""
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=True,  # the time limit kills the command's children too
            )
        except OSError as error:
            return 0, "", "", f"could not run {self.argv0}: {error.strerror or error}"
        try:
            stdout, stderr = process.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return 0, "", "", TIMED_OUT
        except BaseException:
            _kill_group(process)
            raise
        return process.returncode, stdout, stderr, ""

    def _read_answer(
        self,
        output: str,
        code: int,
        assumptions: list[Lit],
        seconds: float,
        printed: tuple[str, dict[str, int | None]],
    ) -> SolverResult:
        try:
            answer = parse_model(output, self.argv0)
        except DimacsError as error:
            return self._unknown(f"unreadable output: {error}", seconds=seconds)
        said = _EXIT_STATUS.get(code)
        if said is not None and answer.status is not said:
            return self._unknown(
                f"exit code {code} says {said} but the output says {answer.status}",
                seconds=seconds,
            )
        if answer.status is Status.UNKNOWN:  # its own limits: an answer, not a failure
            reason = f"{self.argv0} answered UNKNOWN"
            return self._result(Status.UNKNOWN, (), seconds, reason=reason)
        if answer.status is Status.UNSAT:
            return self._counted(Status.UNSAT, (), seconds, printed)
        beyond = [lit for lit in answer.literals if abs(lit) > self.num_vars]
        if beyond:
            return self._unknown(
                f"model literal {beyond[0]} beyond the {self.num_vars} variables", seconds=seconds
            )
        both = set(answer.literals) & {-lit for lit in answer.literals}
        if both:
            return self._unknown(
                f"model sets variable {min(map(abs, both))} both ways", seconds=seconds
            )
        model = _complete(answer.literals, self.num_vars)
        true = set(model)
        wrong = self.check.first_falsified(model)
        if wrong >= 0:
            clause = " ".join(map(str, self.clauses[wrong]))
            return self._unknown(f"model falsifies clause {wrong} ({clause} 0)", seconds=seconds)
        missed = [lit for lit in assumptions if lit not in true]
        if missed:
            return self._unknown(f"model falsifies unit clause {missed[0]}", seconds=seconds)
        return self._counted(Status.SAT, model, seconds, printed)

    def _counted(
        self,
        status: Status,
        model: Sequence[Lit],
        seconds: float,
        printed: tuple[str, dict[str, int | None]],
    ) -> SolverResult:
        """The answer with the statistics the binary printed (`read_statistics`; None:
        not available)."""
        layout, counts = printed
        figures = {k: NOT_AVAILABLE if v is None else v for k, v in counts.items()}
        decisions = figures["decisions"]
        if layout == "minisat" and status is Status.SAT and decisions:
            decisions -= 1  # MiniSat counts its final "no variable left" pick
        return self._result(
            status,
            model,
            seconds,
            decisions=decisions,
            conflicts=figures["conflicts"],
            propagations=figures["propagations"],
        )

    def _unknown(
        self, reason: str, start: float | None = None, seconds: float | None = None
    ) -> SolverResult:
        """The UNKNOWN of a solver that failed (see SolverResult.failed)."""
        if seconds is None:
            seconds = time.perf_counter() - start if start is not None else 0.0
        return self._result(Status.UNKNOWN, (), seconds, reason=reason, failed=True)


# Solvers that always answer SAT or UNSAT (given time): all but the closures.
COMPLETE = ("dpll", *PYSAT_NAMES, *BINARY_NAMES)


def _home(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return HomeBackend(name, HOME_DEPTHS[name], timeout, budget or DEFAULT_BUDGET)


def _pysat(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return PysatBackend(name, fresh, timeout, budget or DEFAULT_BUDGET)


def _binary(name: str, fresh: bool = False, timeout: float | None = None, budget=None) -> Backend:
    return BinaryBackend(name, timeout=timeout)


# The registry: one factory per name, each taking the keyword options fresh, timeout
# (seconds per call, None: no limit) and budget (a Budget, None: the default); a backend
# ignores the option it has no use for.
REGISTRY: dict[str, Callable[..., Backend]] = {
    **{name: partial(_home, name) for name in HOME_DEPTHS},
    **{name: partial(_pysat, name) for name in PYSAT_NAMES},
    **{name: partial(_binary, name) for name in BINARY_NAMES},
}


def make_backend(
    name: str,
    *,
    fresh: bool = False,
    timeout: float | None = None,
    command: str | None = None,
    budget: Budget | None = None,
) -> Backend:
    """Return the backend registered under `name`, or a command's (`--solver-cmd`)."""
    if command is not None:
        return BinaryBackend(name or shlex.split(command)[0], command, timeout)
    if name not in REGISTRY:
        raise KeyError(f"unknown solver {name!r}; known: {', '.join(REGISTRY)}")
    return REGISTRY[name](fresh=fresh, timeout=timeout, budget=budget)


def missing_reason(name: str) -> str:
    """Return why the registered solver `name` cannot run here ("" when it can)."""
    if name in BINARY_COMMANDS:
        return BinaryBackend(name).missing()
    return ""
