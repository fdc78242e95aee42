"""The interface every solver answers (`Backend`) and what every backend shares: the
formula's unit clauses kept aside, the count of cell variables an assignment fills, an
assignment completed to a model and the clause it falsifies.  The backends themselves
are `home`, `pysat_solvers` and `binaries`; `registry` names them.  What follows holds
for every backend.

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

For the closures `conflicts` counts failed hypotheses (and frames found contradictory),
and `propagations` their engine's work: literals propagated and hypotheses tested on the
clause engine; cells placed and hypotheses tested on the board, which answers the
harness's grids (`solve_grids`) for the rules of the `centrale` encoding.  The
binaries' figures are read off their output (`solvers.backends.stats`); the MiniSat
binary, like PySAT's MiniSat, counts its final "no variable left" pick as a decision.
PicoSAT probes failed literals before searching, so it can answer with 0 decisions a
grid that unit propagation leaves open (the first grid of Norvig's top95: 14 failed
literals, 0 decisions).

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
the engine's own units: work units for the home engine, conflicts for PySAT (one
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

from collections.abc import Sequence

import numpy as np

from encoder.dimacs import Cnf
from encoder.encodings import Formula, given_literal_rows
from encoder.geometry import Geometry
from encoder.numbering import Lit
from solvers.budgets import Budget
from solvers.results import NOT_AVAILABLE, Answers, Figure, NotAvailable, SolverResult, Status


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


# The two helpers below run on every call: numpy keeps them near 20 us for 9x9, where
# set and dict comprehensions took 40 and 120 us (more than a PySAT solve of a 17-clue).
def assigned_cells(literals: Sequence[Lit], cell_vars: int) -> int:
    """Return how many of the variables 1..cell_vars the literals assign."""
    variables = np.abs(np.asarray(literals, dtype=np.int64))
    seen = np.zeros(cell_vars + 1, dtype=bool)
    seen[variables[variables <= cell_vars]] = True
    return int(np.count_nonzero(seen[1:]))


def complete(literals: Sequence[Lit], num_vars: int) -> tuple[Lit, ...]:
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
    return tuple(complete_array(literals, num_vars).tolist())


def complete_array(literals: Sequence[Lit] | np.ndarray, num_vars: int) -> np.ndarray:
    """`complete` as an int64 array."""
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

    def __init__(
        self, name: str | None = None, timeout: float | None = None, budget: Budget | None = None
    ) -> None:
        """`name` (the registry's), `timeout` (seconds a call, None: no limit) and
        `budget` (a `solvers.budgets.Budget`, None: the default) as the subclass takes
        them."""
        if name is not None:
            self.name = name
        self.timeout = timeout
        if budget is not None:
            self.budget = budget
        self.clauses = Cnf.from_clauses([])  # flat: the engine and the checker take it as is
        self.rows: Sequence[Sequence[Lit]] = []  # the same clauses for PySAT, see `load`
        self.units: list[Lit] = []
        self.num_vars = 0
        self.cell_vars = 0

    def load(
        self,
        clauses: Sequence[Sequence[Lit]] | Cnf | Formula,
        num_vars: int,
        cell_vars: int | None = None,
    ) -> Backend:
        """Load the formula and return self; `cell_vars` (default all) are the variables
        1..cell_vars that root-level propagation must assign for "solved without search".

        `clauses` are lists of DIMACS ints, an `encoder.dimacs.Cnf` (a parsed file) or an
        encoder `Formula` (the rules of a geometry), held flat either way.  No list of
        lists of a Cnf is made: PySAT solvers are fed from the arrays a few clauses at a
        time.  Lists, small, are copied as lists for them (a fresh solver per call); a
        Formula's clauses are immutable tuples and its flat form is made once
        (`Formula.cnf`), so every solver loaded with one rule formula shares both."""
        self.close()
        if isinstance(clauses, Formula):
            formula, listed = clauses.cnf, clauses.clauses
        elif isinstance(clauses, Cnf):
            formula, listed = clauses, None
        else:
            formula, listed = Cnf.from_clauses(clauses, num_vars), None
        self.clauses, self.units, unit = _split_units(formula)
        if isinstance(clauses, Cnf):
            self.rows = self.clauses
        elif listed is not None and not unit.any():
            self.rows = listed
        else:
            listed = clauses if listed is None else listed
            self.rows = [list(c) for c, u in zip(listed, unit.tolist(), strict=True) if not u]
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

    def solve_grids(self, grids: np.ndarray, geometry: Geometry, encoding: str) -> Answers:
        """Answer each grid (int8 rows of N*N values, 0 for a blank), the loaded formula
        being the rules of `geometry` in `encoding` and the givens the assumptions:
        `solve_many` of the grids' givens, in columns (the harness's call; a backend
        that can answers the grids without their literals, the home closures on the
        board)."""
        sets = given_literal_rows(grids, geometry.size)
        return Answers.from_results(self.name, self.solve_many(sets))

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

    def rewind(self) -> None:
        """Return to the state the backend was loaded in: the next calls answer and count
        as they did then (the harness keeps the home engine's backends from chunk to
        chunk, see `benchmarks.chunks`).  An incremental PySAT solver, whose learnt
        clauses cannot be taken back, is built afresh instead."""

    def close(self) -> None:
        """Release what the backend holds (PySAT solvers); it can be loaded again."""

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
