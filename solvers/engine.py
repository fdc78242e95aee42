"""The home-grown SAT engine's Python face: `Engine`, shaped like a PySAT solver.

An `Engine` holds one CNF (DIMACS ints, any formula, not only Sudoku) and answers
many questions about it under assumptions, restoring its state after each one:
`propagate` (unit propagation, PySAT's contract), `probe` (failed-literal closure of
depth k), `trace` (propagation with reasons, for explanations), `solve`, `count` and
`enumerate` (DPLL).  The work is done by the numba kernels of `propagate.py` and
`probe.py`, and the search by the native core (`solvers.core.search`, which polls for
Ctrl-C and the time limit's signal itself); this module converts arguments, checks
them, and wraps results in frozen records.  Kernels are compiled on first use and
cached on disk (`cache=True`), so the first call in a fresh checkout takes seconds.

Long queries run in slices: the probing and search kernels pause about every tenth
of a second and are resumed where they stopped (`_sliced`), so that Python sees Ctrl-C
(KeyboardInterrupt) and the engine's `deadline` (`TimeLimitReached`) while a depth-3
closure or a search runs for minutes.  Either leaves the state at level 0, ready for
the next query; pausing changes no answer and no counter.

Roads not taken: a jitclass would hold the state more neatly but cannot be cached on
disk, and a PySAT-backed implementation (a Minisat22 per question) pays the Python
call overhead per hypothesis that makes probing from Python about 10 times slower.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, fields

import numpy as np
from numba import njit
from numba.core import types

from encoder.numbering import Lit
from solvers.budgets import BudgetExhausted
from solvers.core.search import EXHAUSTED as NATIVE_EXHAUSTED
from solvers.core.search import FOUND as NATIVE_FOUND
from solvers.core.search import TIME as NATIVE_TIME
from solvers.core.search import WORK as NATIVE_WORK
from solvers.core.search import Search as NativeSearch
from solvers.groups import GCLAUSE, GWORD
from solvers.limits import (
    TimeLimitReached,
    clock,
    compile_seconds,
    deadline_after,
    next_slice,
    watch_compilation,
)
from solvers.literals import to_codes
from solvers.probe import (
    CUR_DEPTH,
    CUR_END,
    CUR_GRID,
    CUR_START,
    CUR_WORK,
    LADDER_BAD,
    LADDER_BUDGET,
    LADDER_OPEN,
    LADDER_SAT,
    LADDER_TIMEOUT,
    LADDER_UNSAT,
    NUM_COLUMNS,
    NUM_CURSOR,
    closure,
    closure_kernel,
    cycle_counter,
    ladder_kernel,
    mark_rows,
    read_cycles,
)
from solvers.proof_log import NO_LOG
from solvers.propagate import (
    BACKTRACKS,
    BAD_LITERAL,
    CONFLICTS,
    DECISIONS,
    NEVER,
    NO_CONFLICT,
    NO_MEMORY,
    PAUSE_AT,
    PAUSED,
    PROBES,
    PROPAGATIONS,
    assume,
    cancel_until,
    check_literals,
    load_formula,
    new_decision_level,
    propagate_batch_kernel,
    propagate_kernel,
    setup_root,
    trace_kernel,
)
from solvers.results import Status

watch_compilation()  # compiling the kernels never counts against a time limit

POLARITIES = ("both", "positive")
_STAT_SLOTS = {
    "decisions": DECISIONS,
    "backtracks": BACKTRACKS,
    "conflicts": CONFLICTS,
    "propagations": PROPAGATIONS,
    "probes": PROBES,
}


@dataclass(frozen=True)
class Work:
    """What one engine call cost: decisions, backtracks, conflicts, propagations
    (literals propagated) and probes (failed-literal hypotheses tested)."""

    decisions: int = 0
    backtracks: int = 0
    conflicts: int = 0
    propagations: int = 0
    probes: int = 0

    def __post_init__(self) -> None:
        if any(getattr(self, f.name) < 0 for f in fields(self)):
            raise ValueError("counters must be >= 0")


@dataclass(frozen=True)
class SolveResult:
    """Answer of Engine.solve and the work it took (this call only)."""

    status: Status
    model: tuple[Lit, ...]  # one signed literal per variable when SAT, else empty
    work: Work = Work()

    def __post_init__(self) -> None:
        if not isinstance(self.status, Status):
            raise TypeError(f"status must be a Status, not {self.status!r}")
        if self.model and self.status is not Status.SAT:
            raise ValueError(f"a {self.status.name} result carries no model")


@dataclass(frozen=True)
class CountResult:
    """Number of models of Engine.count; complete is False if a limit or budget stopped it."""

    count: int
    complete: bool
    work: Work = Work()

    def __post_init__(self) -> None:
        if self.count < 0:
            raise ValueError("count must be >= 0")


def _literal_array(assumptions: Iterable[Lit]) -> np.ndarray:
    if not isinstance(assumptions, list | tuple | np.ndarray):
        assumptions = list(assumptions)
    return np.ascontiguousarray(assumptions, dtype=np.int64)


def _none(as_array: bool):
    """No literals: an empty list, or an empty int64 array."""
    return np.empty(0, np.int64) if as_array else []


_ENTRY_POINTS: dict = {}


def _call(kernel, *args):
    """Call a numba kernel, skipping its type dispatch once it is compiled.

    numba's dispatcher re-derives the type of each of the 16 state arrays at every call,
    which costs about as much as a whole propagation of a Sudoku grid.  The engine
    always passes the same array types, and records of one of two kinds (a Formula and
    a State, or with groups a GroupFormula and a GroupState: solvers.propagate), so after
    the first call through the dispatcher with records of a kind, the version compiled
    for them is called directly.  A plain tuple of arrays (the board's tables and work
    arrays: solvers.board_engine) is taken as arrays are: always of the same types."""
    records = tuple(type(arg) for arg in args if hasattr(arg, "_fields"))
    entry = _ENTRY_POINTS.get((kernel, records))
    if entry is not None:
        return entry(*args)
    result = kernel(*args)
    compiled = [sig for sig in kernel.signatures if _record_classes(sig) == records]
    if len(compiled) == 1:
        _ENTRY_POINTS[(kernel, records)] = kernel.overloads[compiled[0]].entry_point
    return result


def _record_classes(signature) -> tuple:
    """The namedtuple classes of a compiled signature's record arguments."""
    return tuple(t.instance_class for t in signature if isinstance(t, types.BaseNamedTuple))


FIRST_SLICE = 1 << 16  # propagations before the first pause (a few milliseconds)


def _slice(kernel, args: tuple):
    """Call a kernel for one slice; Ctrl-C landing while numba boxes the result surfaces
    as "returned a result with an exception set": it is the interrupt, not a fault."""
    try:
        return _call(kernel, *args)
    except SystemError as error:
        if isinstance(error.__cause__ or error.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise


_CLOCK: list[float] = []  # cycles per second of the cycle counter, measured once


def cycles_per_second() -> float:
    """Return the rate of the kernels' cycle counter, measured once against perf_counter
    over a few milliseconds."""
    if not _CLOCK:
        _call(read_cycles)  # compiled or loaded before anything is measured
        t0, c0 = time.perf_counter(), _call(read_cycles)
        while time.perf_counter() - t0 < 0.005:
            pass
        t1, c1 = time.perf_counter(), _call(read_cycles)
        if c1 <= c0:  # a processor whose counter user code cannot read: say so, never
            # divide by a rate of 0 (every grid would be "over its time" at once)
            raise RuntimeError(
                "the processor's cycle counter does not advance here: the per-grid times "
                "and time limits of Engine.ladder cannot be measured"
            )
        _CLOCK.append((c1 - c0) / (t1 - t0))
    return _CLOCK[0]


@dataclass(frozen=True)
class Ladder:
    """The depth rating of many grids (`Engine.ladder`), one entry per grid: `status`
    (probe.LADDER_*: open, SAT, UNSAT, bad value, time limit), `depth` (the depth that
    settled it, the last one tried when open, the one stopped by the time limit),
    `solutions` (the filled grid, rows of N*N values, when SAT) and `seconds` (the
    kernel's time on the grid)."""

    status: np.ndarray
    depth: np.ndarray
    solutions: np.ndarray
    seconds: np.ndarray


@dataclass(frozen=True)
class Closures:
    """The closures of one depth of many assumption sets (`Engine.closures`), one entry
    per set: `status` (probe.LADDER_*: SAT when the closure assigns every one of the
    first `cell_vars` variables, UNSAT on a contradiction, open otherwise, bad
    literals, time limit), `assigned` (how many of those variables the closure assigns,
    root level included), `conflicts` (failed hypotheses), `propagations`, `seconds`
    (the kernel's time on the set) and `true` (the variables true in the closure, one
    row per set; meaningful for SAT rows only)."""

    status: np.ndarray
    assigned: np.ndarray
    conflicts: np.ndarray
    propagations: np.ndarray
    seconds: np.ndarray
    true: np.ndarray


@njit(cache=True)
def closures_kernel(
    F, S, dimacs, offsets, depth, positive_only, passed, frames, cell_vars, cursor, status,
    assigned, conflicts, propagations, cycles, true, log, resume
):  # fmt: skip
    """The closure of depth `depth` (closure_kernel's) of assumption sets
    cursor[CUR_GRID] .. cursor[CUR_END]-1 (set g is dimacs[offsets[g]:offsets[g + 1]]),
    one after the other, with ladder_kernel's pausing: return NO_CONFLICT when every set
    is done, or PAUSED (between two sets, cursor[CUR_DEPTH] -1, or inside a closure);
    call again with resume=(cursor[CUR_DEPTH] >= 0).  Per set the counters are the
    differences of the state's, as Engine.accum_stats around Engine.probe gives them;
    `true[g]` is written when the closure assigns the first `cell_vars` variables.  No
    lemmas are recorded (`log` is proof_log.NO_LOG)."""
    st, value = S.st, S.value
    num_vars = S.level.shape[0]
    done = 0
    g = cursor[CUR_GRID]
    while g < cursor[CUR_END]:
        if resume:
            confl = closure(F, S, depth, positive_only, passed, frames, True, log)
            resume = False
        else:
            if done > 0 and st[PROPAGATIONS] >= st[PAUSE_AT]:
                cursor[CUR_GRID] = g
                cursor[CUR_DEPTH] = -1
                return PAUSED
            cursor[CUR_START] = cycle_counter()
            cursor[CUR_WORK] = st[PROPAGATIONS]
            conflicts[g], propagations[g] = st[CONFLICTS], st[PROPAGATIONS]  # before
            lits = dimacs[offsets[g] : offsets[g + 1]]
            if not check_literals(lits, num_vars):
                status[g], conflicts[g], propagations[g] = LADDER_BAD, 0, 0
                g += 1
                done += 1
                continue
            confl = assume(F, S, to_codes(lits))
            if confl == NO_CONFLICT and depth > 0:
                new_decision_level(S)  # the base level of the derived facts
                confl = closure(F, S, depth, positive_only, passed, frames, False, log)
        if confl == PAUSED:
            cursor[CUR_GRID] = g
            cursor[CUR_DEPTH] = depth
            return PAUSED
        cycles[g] = cycle_counter() - cursor[CUR_START]
        conflicts[g] = st[CONFLICTS] - conflicts[g]
        propagations[g] = st[PROPAGATIONS] - propagations[g]
        status[g] = LADDER_UNSAT
        if confl == NO_CONFLICT:
            count = 0
            for v in range(cell_vars):
                count += value[2 * v] != 0
            assigned[g] = count
            status[g] = LADDER_OPEN
            if count == cell_vars:
                status[g] = LADDER_SAT
                for v in range(num_vars):
                    true[g, v] = value[2 * v] == 1
        cancel_until(S, 0)
        g += 1
        done += 1
    cursor[CUR_GRID] = g
    cursor[CUR_DEPTH] = -1
    return NO_CONFLICT


def _sliced(
    kernel,
    args: tuple,
    S: tuple,
    paused: Callable[[tuple], bool],
    engine: Engine,
    grids: GridClock | None = None,
) -> tuple:
    """Call a resumable kernel slice by slice until it finishes; return its result.

    Between slices Python runs its signal handlers (Ctrl-C raises KeyboardInterrupt
    here), and the bounds are checked: for a kernel over many grids, each grid's
    (`grids`, a GridClock: its `between()` says whether the next slice resumes the
    paused one); for one query, the engine's work budget (`BudgetExhausted` at the first
    pause past it, each slice capped so that the pause comes there) and its deadline
    (TimeLimitReached).  Whatever stops the query, the state S is cancelled back to
    level 0."""
    st = S.st
    resume = False
    origin = int(st[PROPAGATIONS])
    budget = engine.work_budget if grids is None else None
    try:
        while True:
            if grids is not None:
                st[PAUSE_AT] = grids.pause_at(int(st[PROPAGATIONS]), engine.slice_size)
            elif budget is not None:
                st[PAUSE_AT] = min(st[PROPAGATIONS] + engine.slice_size, origin + budget + 1)
            else:
                st[PAUSE_AT] = st[PROPAGATIONS] + engine.slice_size
            began = time.monotonic()
            out = _slice(kernel, (*args, resume))
            if not paused(out):
                return out
            now = time.monotonic()
            engine.slice_size = next_slice(engine.slice_size, now - began)
            if budget is not None and st[PROPAGATIONS] - origin > budget:
                raise BudgetExhausted("propagations", budget)
            if engine.deadline is not None and clock() >= engine.deadline:
                raise TimeLimitReached(engine.time_limit)
            resume = True if grids is None else grids.between()
    except BaseException:
        _call(cancel_until, S, 0)  # paused inside a query, or not: back to level 0
        raise
    finally:
        st[PAUSE_AT] = NEVER


def ladder_arrays(
    grids: np.ndarray, size: int, max_depth: int, polarity: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Check a ladder query's options and return its arrays: (the grids as int8 rows,
    status, depth, solutions, cycles), zeroed (`Engine.ladder`, `BoardEngine.ladder`)."""
    if polarity not in POLARITIES:
        raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
    if max_depth < 0:
        raise ValueError(f"max_depth must be >= 0, not {max_depth}")
    grids = np.ascontiguousarray(grids, dtype=np.int8)
    count = grids.shape[0]
    status = np.zeros(count, np.int8)
    depth = np.zeros(count, np.int16)
    solutions = np.zeros((count, size * size), np.int8)
    return grids, status, depth, solutions, np.zeros(count, np.int64)


class GridClock:
    """The per-grid bounds of a resumable kernel over `count` grids (the ladders,
    `Engine.closures`): a work budget (`budget` units of the kernel's own work counter,
    read by `work()`), and, when asked for, a time limit (`time_limit` seconds, cycles at
    `rate` a second).

    The kernel pauses when its work counter reaches st[PAUSE_AT] at a hypothesis
    boundary; `pause_at(counter, slice)` caps each slice so that the kernel always pauses
    at the first boundary where the grid's work exceeds its budget, and `between()`
    (for the slicing loop) gives the grid up there: reset(), then give_up(grid, depth
    paused in, cycles spent, over_budget) (the next grid starts from scratch).  So
    whether a grid is given up depends on the grid and the budget alone, never on where
    the slices ended.  `between` returns whether the kernel resumes inside a closure."""

    def __init__(
        self,
        count: int,
        budget: int | None,
        work: Callable[[], int],
        give_up: Callable[[int, int, int, bool], None],
        reset: Callable[[], object] = lambda: None,
        time_limit: float | None = None,
        rate: float = 1.0,
    ):
        self.cursor = np.zeros(NUM_CURSOR, np.int64)
        self.cursor[CUR_DEPTH], self.cursor[CUR_END] = -1, count
        self.budget, self.work = budget, work
        self.give_up, self.reset = give_up, reset
        self.cycles = None if time_limit is None else time_limit * rate

    def pause_at(self, counter: int, slice_size: int) -> int:
        """Return st[PAUSE_AT] for a slice of `slice_size` from work counter `counter`."""
        if self.budget is None:
            return counter + slice_size
        at = counter + min(slice_size, self.budget + 1)  # a grid started in the slice
        if self.cursor[CUR_DEPTH] >= 0:  # inside a grid: its budget's end
            at = min(at, int(self.cursor[CUR_WORK]) + self.budget + 1)
        return at

    def between(self) -> bool:
        cursor = self.cursor
        if cursor[CUR_DEPTH] < 0:  # paused between two grids
            return False
        over = self.budget is not None and self.work() - cursor[CUR_WORK] > self.budget
        spent = _call(read_cycles) - cursor[CUR_START]
        if not over and (self.cycles is None or spent < self.cycles):
            return True
        self.reset()
        self.give_up(int(cursor[CUR_GRID]), int(cursor[CUR_DEPTH]), int(spent), over)
        cursor[CUR_GRID] += 1
        cursor[CUR_DEPTH] = -1
        return False


class Engine:
    """One CNF and a reusable assignment state; every query leaves the state at level 0.

    `work_budget` (propagations, or None) bounds each probing and search query: past it
    they raise `solvers.budgets.BudgetExhausted`; `deadline` (a `solvers.limits.clock()`
    value, or None) bounds them by the clock, as asked for: past it they raise
    `solvers.limits.TimeLimitReached`; `limited` sets both for a block of queries."""

    def __init__(
        self, clauses: Iterable[Iterable[Lit]], num_vars: int | None = None, groups: bool = False
    ):
        """Build the engine for clauses of DIMACS ints: lists, or an `encoder.dimacs.Cnf`
        whose flat arrays are used as they are (no copy: a large parsed formula costs
        its arrays and the engine's own, nothing per clause in Python).  num_vars
        defaults to the Cnf's count, or to the highest variable of lists.  groups (opt-in):
        propagate the formula's exactly-one groups natively (`solvers.groups`: the same
        answers, in another trail order); the default propagates every clause on watched
        literals.  Not the default: measured, groups gain nothing on the exam's formula
        (1.06x the time) and change the propagation counts the harness reports."""
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
        self._cnf = cnf  # for the native search, built at its first query (see _native)
        self._search = None
        self._enumerated = np.zeros(5, np.int64)  # the work of enumerate's own searches
        self._groups = groups
        self._kernels: tuple | None = None  # (F, S, root conflict): see _numba
        self._marked = False  # see mark_start
        self.num_groups: int = 0
        if groups:
            gs = getattr(self._F, "gs", None)  # a GroupFormula's (see solvers.propagate)
            self.num_groups = 0 if gs is None else int(gs[GWORD] - gs[GCLAUSE])
        self._passed = self._marks(1)  # probe marks
        self._frames = np.zeros((1, NUM_COLUMNS), dtype=np.int64)  # probe frame stack
        self.work_budget: int | None = None  # propagations per query
        self.deadline: float | None = None
        self.time_limit: float | None = None  # the seconds behind `deadline`, for messages
        self.slice_size = FIRST_SLICE
        self._start: tuple[np.ndarray, ...] | None = None  # see mark_start
        # False when the formula is refuted by propagation alone (or has an empty clause):
        # the native core says so (a formula of no variable: whether it has a clause,
        # which can only be empty).
        if self.num_vars > 0:
            self.ok: bool = self._native().ok
        else:
            self.ok = bool(np.all(np.diff(cnf.offsets) > 0))

    def _numba(self) -> tuple:
        """The formula and state of the numba kernels (propagate, probe, trace, the
        batches), built at the first query that needs them, and the index of the clause
        that refutes the formula at the root (or NO_CONFLICT): `solve`, `count`,
        `enumerate` and `fixed` run in the native core, which needs none of them."""
        if self._kernels is None:
            cnf = self._cnf
            F, S, units, unit_idx, first_empty = load_formula(
                cnf.literals, cnf.offsets, self.num_vars, self._groups
            )
            root = first_empty if first_empty >= 0 else setup_root(F, S, units, unit_idx)
            self._kernels = F, S, int(root)
            if self._marked:  # the watches as built: mark_start's
                self._start = tuple(getattr(F, name).copy() for name in self._MOVING)
        return self._kernels

    @property
    def _F(self):
        return self._numba()[0]

    @property
    def _S(self):
        return self._numba()[1]

    @property
    def _root_conflict(self) -> int:
        return self._numba()[2]

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
    def limited(self, seconds: float | None, propagations: int | None = None) -> Iterator[Engine]:
        """Bound each query of a block to `propagations` (None: no budget), and the block
        to `seconds` in all (None: no time limit)."""
        saved = self.deadline, self.time_limit, self.work_budget
        self.deadline, self.time_limit = deadline_after(seconds), seconds
        self.work_budget = propagations
        try:
            yield self
        finally:
            self.deadline, self.time_limit, self.work_budget = saved

    def _room(self, depth: int) -> None:
        """Grow the probing marks and frames to `depth` rows."""
        if self._passed.shape[0] < depth:
            self._passed = self._marks(depth)
            self._frames = np.zeros((depth, NUM_COLUMNS), dtype=np.int64)

    def _marks(self, depth: int) -> np.ndarray:
        """Return an empty mark table for `depth` probing frames (see probe.py)."""
        rows = mark_rows(2 * self.num_vars)
        return np.zeros((depth, rows, 2 * self.num_vars), dtype=np.int64)

    def __repr__(self) -> str:
        return f"Engine(num_vars={self.num_vars}, num_clauses={self.num_clauses}, ok={self.ok})"

    def _check_range(self, assumptions: np.ndarray) -> None:
        """Raise _check's ValueError unless every assumption names a variable."""
        if assumptions.size and (
            not assumptions.all() or np.abs(assumptions).max() > self.num_vars
        ):
            self._check(BAD_LITERAL, assumptions)

    def _check(self, status: int, assumptions: np.ndarray) -> None:
        if status == BAD_LITERAL:
            raise ValueError(
                f"assumptions must be nonzero literals of variables 1..{self.num_vars}: "
                f"{assumptions.tolist()}"
            )

    def propagate(
        self, assumptions: Sequence[Lit] = (), as_array: bool = False
    ) -> tuple[bool, list[Lit]]:
        """Return (True, literals assigned above the root level) or (False, []) on a conflict.

        Each assumption is enqueued at a new decision level and propagated (one that is
        already true is skipped, one already false is a conflict), as PySAT's
        Minisat22.propagate does; root-level facts of the formula are not listed.
        `as_array`: the literals as an int64 array, in assignment order (no list made)."""
        lits = _literal_array(assumptions)
        if not self.ok:
            return False, _none(as_array)
        status, out = _call(propagate_kernel, self._F, self._S, lits)
        if status != NO_CONFLICT:
            self._check(status, lits)
            return False, _none(as_array)
        return True, out if as_array else out.tolist()

    def propagate_batch(
        self, assumptions: np.ndarray, offsets: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Propagate many assumption sets in one compiled call: `propagate` for each.

        Set i is assumptions[offsets[i]:offsets[i + 1]] (DIMACS ints).  Return (ok,
        literals, starts): ok[i] is False on a conflict, and the literals set i assigns
        above the root level (none on a conflict) are literals[starts[i]:starts[i + 1]]."""
        flat = np.ascontiguousarray(assumptions, dtype=np.int64)
        offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        count = offsets.shape[0] - 1
        if count < 0 or offsets[0] != 0 or offsets[-1] != flat.shape[0]:
            raise ValueError("offsets must run from 0 to the number of assumptions")
        if np.any(np.diff(offsets) < 0):
            raise ValueError("offsets must not decrease")
        status = np.full(count, NO_CONFLICT, np.int64)
        found = np.empty(count * self.num_vars if self.ok else 0, np.int64)
        starts = np.zeros(count + 1, np.int64)
        if not self.ok:
            return np.zeros(count, bool), found, starts
        total = _call(
            propagate_batch_kernel, self._F, self._S, flat, offsets, status, found, starts
        )
        bad = np.flatnonzero(status == BAD_LITERAL)
        if bad.size:
            first = flat[offsets[bad[0]] : offsets[bad[0] + 1]]
            self._check(BAD_LITERAL, first)
        return status == NO_CONFLICT, found[:total].copy(), starts

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
        failed literals are written as lemmas (`solvers.proof_log`; default none)."""
        if polarity not in POLARITIES:
            raise ValueError(f"polarity must be one of {POLARITIES}, not {polarity!r}")
        if depth < 0:
            raise ValueError(f"depth must be >= 0, not {depth}")
        lits = _literal_array(assumptions)
        if not self.ok:
            return False, _none(as_array)
        self._room(depth)
        positive_only = polarity == "positive"
        args = (self._F, self._S, lits, int(depth), positive_only, self._passed, self._frames, log)
        status, out = _sliced(closure_kernel, args, self._S, _closure_paused, self)
        assert status != NO_MEMORY
        if status != NO_CONFLICT:
            self._check(status, lits)
            return False, _none(as_array)
        return True, out if as_array else out.tolist()

    def ladder(
        self,
        grids: np.ndarray,
        size: int,
        max_depth: int,
        polarity: str = "both",
        time_limit: float | None = None,
        log: np.ndarray = NO_LOG,
        log_at: np.ndarray = NO_LOG,
        budget: int | None = None,
    ) -> Ladder:
        """Rate many grids in one compiled loop (see probe.ladder_kernel): `grids` holds
        rows of N*N values (0 for a blank) of a formula whose variable
        `encoder.numbering.cell_var(c, k, N)` says that cell c holds k.  Each grid is
        rated at the first depth whose closure fills it (SAT) or is contradictory
        (UNSAT); `budget` (propagations, None: none) bounds each grid (LADDER_BUDGET, see
        GridClock), and so does `time_limit` (seconds, None: none; LADDER_TIMEOUT).  The
        kernel pauses about every tenth of a second (Ctrl-C), as every long query does.
        `log` and `log_at` (one entry per grid and one more): where the closures' lemmas
        are written, grid by grid (`solvers.proof_log`; default none)."""
        grids, status, depth, solutions, cycles = ladder_arrays(grids, size, max_depth, polarity)
        count = grids.shape[0]
        rate = cycles_per_second()
        if not self.ok:  # the rules alone are contradictory: every grid at depth 0
            status[:] = LADDER_UNSAT
            return Ladder(status, depth, solutions, cycles / rate)
        self._room(max(max_depth, 1))

        def give_up(g: int, at_depth: int, spent: int, over: bool) -> None:
            status[g] = LADDER_BUDGET if over else LADDER_TIMEOUT
            depth[g], cycles[g] = at_depth, spent

        grid_clock = self._grid_clock(count, budget, give_up, time_limit, rate)
        args = (self._F, self._S, grids, size, max_depth, polarity == "positive", self._passed)
        args += (self._frames, grid_clock.cursor, status, depth, solutions, cycles, log, log_at)
        _sliced(ladder_kernel, args, self._S, _ladder_paused, self, grid_clock)
        return Ladder(status, depth, solutions, cycles / rate)

    def closures(
        self,
        assumptions: np.ndarray,
        offsets: np.ndarray,
        depth: int,
        cell_vars: int,
        time_limit: float | None = None,
        budget: int | None = None,
    ) -> Closures:
        """`probe` (depth >= 1) or `propagate` (depth 0) of many assumption sets in one
        compiled loop, with the work each took (see `Closures`): the harness's closure
        solvers over a chunk of grids.  Set g is assumptions[offsets[g]:offsets[g + 1]]
        (DIMACS ints); `budget` (propagations, None: none) bounds each set, whose status
        is then LADDER_BUDGET (see GridClock), and so does `time_limit` (seconds, None:
        none; LADDER_TIMEOUT).  The loop pauses as every long query does (Ctrl-C)."""
        if depth < 0:
            raise ValueError(f"depth must be >= 0, not {depth}")
        flat = np.ascontiguousarray(assumptions, dtype=np.int64)
        offsets = np.ascontiguousarray(offsets, dtype=np.int64)
        count = offsets.shape[0] - 1
        status = np.zeros(count, np.int8)
        numbers = [np.zeros(count, np.int64) for _ in range(4)]  # assigned ... cycles
        true = np.zeros((count, self.num_vars), np.bool_)
        rate = cycles_per_second()
        if not self.ok:  # the formula alone is contradictory: every set is
            status[:] = LADDER_UNSAT
            return Closures(status, *numbers[:3], numbers[3] / rate, true)
        self._room(max(depth, 1))
        conflicts, propagations, cycles = numbers[1:]
        st = self._S.st

        def give_up(g: int, at_depth: int, spent: int, over: bool) -> None:
            status[g] = LADDER_BUDGET if over else LADDER_TIMEOUT
            cycles[g] = spent  # the counters hold their values at the set's start:
            conflicts[g] = st[CONFLICTS] - conflicts[g]  # the work until it was given up
            propagations[g] = st[PROPAGATIONS] - propagations[g]

        grid_clock = self._grid_clock(count, budget, give_up, time_limit, rate)
        args = (self._F, self._S, flat, offsets, int(depth), False, self._passed, self._frames)
        args += (int(cell_vars), grid_clock.cursor, status, *numbers, true, NO_LOG)
        _sliced(closures_kernel, args, self._S, _ladder_paused, self, grid_clock)
        if np.any(status == LADDER_BAD):
            g = int(np.flatnonzero(status == LADDER_BAD)[0])
            self._check(BAD_LITERAL, flat[offsets[g] : offsets[g + 1]])
        return Closures(status, *numbers[:3], cycles / rate, true)

    def _grid_clock(
        self,
        count: int,
        budget: int | None,
        give_up: Callable[[int, int, int, bool], None],
        time_limit: float | None,
        rate: float,
    ) -> GridClock:
        """The GridClock of a kernel over `count` grids on this engine: its work is the
        propagations, and a grid given up is undone to the root level."""
        st = self._S.st
        return GridClock(
            count,
            budget,
            lambda: int(st[PROPAGATIONS]),
            give_up,
            lambda: _call(cancel_until, self._S, 0),
            time_limit,
            rate,
        )

    # What propagation reorders in the formula: the watch lists (MiniSat moves a watch to
    # the clause's next unfalsified literal) and the literal order inside each clause.
    _MOVING = ("lits", "wlist", "wblock", "wcount")

    def mark_start(self) -> None:
        """Keep a copy of the watch lists and clause literal order as they are now, for
        `rewind` (it costs a second copy of the formula's literals; made when the numba
        kernels' formula is built, if it is not yet)."""
        self._marked = True
        if self._kernels is not None:
            self._start = tuple(getattr(self._F, name).copy() for name in self._MOVING)

    def rewind(self) -> None:
        """Put the watch lists and clause literal order back as `mark_start` kept them:
        the next queries then propagate in exactly the order the engine did then.  The
        literals a query implies never depend on that order, but which clause implies
        each, and so the propagation count of a closure whose hypotheses fail, do: a
        worker that keeps an engine from chunk to chunk rewinds it at each chunk, so
        that its counts are those of a freshly built engine."""
        if not self._marked:
            raise RuntimeError("Engine.rewind needs an Engine.mark_start first")
        if self._start is not None:
            for name, kept in zip(self._MOVING, self._start, strict=True):
                np.copyto(getattr(self._F, name), kept)
        if self._search is not None:  # the native search's, built again at its next use
            self._enumerated += _native_stats(self._search)  # (its counters kept)
            self._search = None

    def fixed(self, as_array: bool = False) -> list[Lit]:
        """Return the literals fixed at the root level (units and what they propagate).

        Empty when the formula is refuted at the root (see `ok`).  `as_array`: as an
        int64 array."""
        if not self.ok or self.num_vars == 0:
            return _none(as_array)
        dimacs = self._native().fixed()  # the order the numba kernels' root level has
        return dimacs if as_array else dimacs.tolist()

    def trace(self, assumptions: Sequence[Lit] = ()) -> tuple[bool, list[tuple[Lit, int]], int]:
        """Propagate like `propagate` and return (ok, [(literal, reason)], conflict clause).

        reason is the input index of the clause that implied the literal, -1 for an
        assumption; conflict is the index of the falsified clause, or -1 when there is
        none or an assumption was already false.  On a conflict the literals assigned
        before it are still listed.  A formula refuted at the root gives (False, [],
        index of its empty or falsified clause)."""
        lits = _literal_array(assumptions)
        if not self.ok:
            return False, [], self._root_conflict
        status, out, why = _call(trace_kernel, self._F, self._S, lits)
        self._check(status, lits)
        steps = list(zip(out.tolist(), why.tolist(), strict=True))
        return status == NO_CONFLICT, steps, max(int(status), -1)

    def _stats(self) -> np.ndarray:
        """decisions, backtracks, conflicts, propagations, probes: the numba kernels' and
        the native search's."""
        stats = _native_stats(self._search) + self._enumerated
        if self._kernels is not None:
            stats += self._S.st[[DECISIONS, BACKTRACKS, CONFLICTS, PROPAGATIONS, PROBES]]
        return stats

    def _native(self) -> NativeSearch:
        """The formula in the native search (solvers.core.search), built at first use."""
        if self._search is None:
            self._search = NativeSearch(self._cnf.literals, self._cnf.offsets, self.num_vars)
        return self._search

    def _run(self, search: NativeSearch, **ask) -> tuple[int, int, np.ndarray | None]:
        """Run the native search under the engine's bounds: its work budget (past it
        BudgetExhausted) and deadline (past it TimeLimitReached; a SIGALRM of
        `solvers.limits.alarm_after` stops it too, through the core's signal poll)."""
        deadline = None
        if self.deadline is not None:
            if clock() >= self.deadline:
                raise TimeLimitReached(self.time_limit)
            deadline = self.deadline + compile_seconds()  # clock() -> time.monotonic()
        outcome, models, model = search.run(work_budget=self.work_budget, deadline=deadline, **ask)
        if outcome == NATIVE_WORK:
            raise BudgetExhausted("propagations", self.work_budget)
        if outcome == NATIVE_TIME:
            raise TimeLimitReached(self.time_limit)
        return outcome, models, model

    def solve(
        self,
        assumptions: Sequence[Lit] = (),
        budget: int | None = None,
        probe_depth: int = 0,
        log: np.ndarray = NO_LOG,
    ) -> SolveResult:
        """Return SAT and a model, UNSAT (under the assumptions) or UNKNOWN (budget spent).

        probe_depth > 0 runs the failed-literal closure of that depth at every node.
        `budget`: decisions (None: none).  `log`: where an UNSAT search writes its
        lemmas (`solvers.proof_log`).  The search runs in the native core
        (`solvers.core.search`)."""
        if probe_depth < 0:
            raise ValueError(f"probe_depth must be >= 0, not {probe_depth}")
        lits = _literal_array(assumptions)
        self._check_range(lits)
        if not self.ok:
            return SolveResult(Status.UNSAT, ())
        if self.num_vars == 0:  # nothing to decide: the empty assignment is the model
            return SolveResult(Status.SAT, ())
        search = self._native()
        before = self._stats()
        outcome, _, model = self._run(search, assumptions=lits, budget=budget,
                                      probe_depth=probe_depth, log=log)  # fmt: skip
        status = {NATIVE_FOUND: Status.SAT, NATIVE_EXHAUSTED: Status.UNSAT}.get(
            outcome, Status.UNKNOWN
        )
        work = Work(*(self._stats() - before).tolist())
        return SolveResult(status, () if model is None else tuple(model.tolist()), work)

    def propagate_before_search(self, assumptions: Sequence[Lit] = ()) -> tuple[bool, np.ndarray]:
        """Return `propagate(assumptions, as_array=True)`, computed on the native search's
        formula: a `solve` after it then propagates in the order the engine did when one
        formula served both (the search's counters are those of that order)."""
        lits = _literal_array(assumptions)
        self._check_range(lits)
        if not self.ok:
            return False, np.empty(0, np.int64)
        if self.num_vars == 0:
            return True, np.empty(0, np.int64)
        return self._native().propagate(lits)

    def count(
        self, limit: int | None = None, assumptions: Sequence[Lit] = (), budget: int | None = None
    ) -> CountResult:
        """Return the number of models (over all num_vars variables), up to `limit`;
        `budget`: decisions (None: none)."""
        lits = _literal_array(assumptions)
        self._check_range(lits)
        if not self.ok or limit == 0:
            return CountResult(0, not self.ok)
        if self.num_vars == 0:
            return CountResult(1, True)
        search = self._native()
        before = self._stats()
        outcome, models, _ = self._run(search, assumptions=lits, max_models=limit, budget=budget)
        work = Work(*(self._stats() - before).tolist())
        return CountResult(int(models), outcome == NATIVE_EXHAUSTED, work)

    def enumerate(
        self, assumptions: Sequence[Lit] = (), limit: int | None = None
    ) -> Iterator[tuple[Lit, ...]]:
        """Yield the models, each a tuple of num_vars signed literals, at most `limit` of them.

        The generator searches on its own copy of the formula, so the engine can be used
        while it is suspended; its work is added to accum_stats as it goes."""
        lits = _literal_array(assumptions)
        self._check_range(lits)
        if not self.ok or limit == 0:
            return
        if self.num_vars == 0:
            yield ()
            return
        search = NativeSearch(self._cnf.literals, self._cnf.offsets, self.num_vars)
        found = 0
        while limit is None or found < limit:
            before = _native_stats(search)
            try:
                outcome, _, model = self._run(search, assumptions=lits, next_model=found > 0)
            finally:  # its work counts in accum_stats
                self._enumerated += _native_stats(search) - before
            if outcome != NATIVE_FOUND:
                return
            found += 1
            yield tuple(model.tolist())

    def accum_stats(self) -> dict[str, int]:
        """Return cumulative counters since construction: decisions, backtracks, conflicts,
        propagations (literals propagated) and probes (failed-literal hypotheses tested)."""
        return dict(zip(_STAT_SLOTS, self._stats().tolist(), strict=True))


def _native_stats(search: NativeSearch | None) -> np.ndarray:
    """The native search's decisions, backtracks, conflicts, propagations (its work less
    the hypotheses it tested: the numba kernels' unit) and probes."""
    if search is None:
        return np.zeros(5, np.int64)
    c = search.counters()
    return np.array(
        [c.decisions, c.backtracks, c.conflicts, c.work - c.hypotheses, c.hypotheses], np.int64
    )


def _ladder_paused(out: int) -> bool:
    return out == PAUSED


def _closure_paused(out: tuple) -> bool:
    return out[0] == PAUSED
