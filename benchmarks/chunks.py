"""One chunk of a benchmark run: a few hundred grids of one set, one encoding, every solver.

`run_chunk` is what an executor runs in a worker.  It needs each solver once per
geometry (one for ordinary sets, one per grid for jigsaw): an incremental PySAT solver
is built afresh for the chunk; a backend that keeps no memory between calls (the home
engine's, whose build costs as much as a few hundred of its calls) is kept by the
worker from chunk to chunk and rewound at each (`Backend.rewind`: its watch lists put
back), so that it answers and counts as one built for the chunk.  Then:

1. one timed pass, solver after solver: every grid's call is timed (a backend that
   keeps no memory between calls is first called once untimed, so that no timed call
   pays a cold cache; an incremental PySAT solver starts afresh
   with the chunk and learns from its earlier grids); the home-grown closures answer a
   run of grids of one geometry in one native call (`Backend.solve_grids`: on the
   board for the `centrale` encoding, each grid timed inside it), the others call by
   call.  A solver's answers come in columns (`solvers.results.Answers`), not a record
   a grid.  Then they are checked in one vectorised pass: the grid answered, or the
   grid a model decodes to, must keep the givens and obey every region
   (`encoder.check`, which shares no code with the encoders;
   `benchmarks.answer_checks`).
2. PySAT's "solved without search" of each grid: whether unit propagation alone fills
   its cells, a property of the formula that any solver's propagation computes alike;
   read from the run's `up` closure when it has one, else from one batch propagation
   of the chunk (`_filled_by_propagation`), not from a twin PySAT solver per grid.
3. the depth of each grid, from the closures `up`, `fl`, ... of the run when they
   settle it, else from `solvers.ratings.depth`, the chunk's other grids rated in one
   native call per geometry as `solvers rate` rates them (their solutions checked
   too); and no solver may answer UNSAT for a grid that has a checked solution.

Road not taken: a warm-up pass that answered and checked every grid before a second,
timed pass; it doubled the harness's time for no other figure (the timed pass found the
same answers), and the untimed first call and the checks after the timing keep its role.
The collector is off for the whole chunk.

A wrong answer ends the chunk with `ChunkResult.error` set (the grid drawn in it):
the harness stops the run.  Results are columns per solver, grids in chunk order;
since the chunks are cut at fixed positions and every chunk starts from freshly built
(or rewound) solvers, the figures do not depend on how many workers run the chunks.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from benchmarks.answer_checks import (
    SolutionChecks,
    WrongAnswer,
    check_answers,
    check_solutions,
    unsat_refuted,
)
from benchmarks.geometry_runs import GeometryRun, runs_by_geometry
from encoder.encodings import rule_formula
from encoder.errors import InputError
from encoder.geometry import Geometry
from encoder.numbering import num_cell_vars
from encoder.puzzle_files import Puzzle
from solvers.backends.base import Backend
from solvers.backends.names import HOME_DEPTHS, PYSAT_NAMES
from solvers.backends.pysat_solvers import PysatBackend
from solvers.backends.registry import make_backend
from solvers.budgets import DEFAULT_BUDGET, Budget
from solvers.ratings.per_geometry import geometry_runs, keep_loaded, kept_by_worker
from solvers.results import (
    NA,
    OVER,
    TIMED_OUT,
    Answers,
    NotAvailable,
    SolverResult,
    Status,
    depth_bucket,
    rating_label,
)

SAT, UNSAT = Status.SAT.value, Status.UNSAT.value  # Answers.status codes

# Closure solvers: "solved without search" is their own success (they never branch).
CLOSURES = tuple(name for name, depth in HOME_DEPTHS.items() if depth is not None)
HOME = tuple(HOME_DEPTHS)


@dataclass(frozen=True)
class ChunkTask:
    """What a worker needs to run one chunk (picklable)."""

    dataset: str
    encoding: str
    solvers: tuple[str, ...]
    first: int  # position of the chunk's first grid in the set's run order
    puzzles: tuple[Puzzle, ...]
    fresh: bool = False  # PySAT: a new solver per grid
    timeout: float | None = None  # seconds per grid and solver (and rating): opt-in
    max_depth: int | None = 3  # rate grids up to this depth; None: no rating
    length: bool = False  # the refutation-length and BxB ratings beside the depth
    budget: Budget = DEFAULT_BUDGET  # work per grid and solver (and rating)
    # the puzzles' grids as int8 rows, when the block was read as arrays (one geometry)
    grids: np.ndarray | None = None


@dataclass(frozen=True, slots=True)
class GridRun:
    """One solver on one grid, a row of a chunk's `Answers` (`ChunkResult.runs`): the
    solver's record (no model) and what the harness counts as solved without search,
    which for the closures `up`, `fl`, ... is solving the grid at all (they never
    branch), and for every other solver its root-level propagation filling the grid
    (the record's `solved_without_search` says the same)."""

    position: int  # in the set's run order
    result: SolverResult
    without_search: bool | NotAvailable


@dataclass(frozen=True)
class ChunkResult:
    """The timed answers (a column record per solver, grids in order) and depth labels
    of a chunk."""

    dataset: str
    encoding: str
    first: int
    count: int
    answers: tuple[Answers, ...]  # one per solver, checked, models dropped
    depths: tuple[str, ...]  # one of DEPTH_BUCKETS per grid; empty when not rated
    # The finer ratings (solvers.ratings.bxb.LengthColumn), each on its own scale, per grid:
    # the refutation length ('' for a grid BxB rates instead), the BxB ('' for the others);
    # both empty when not asked for.
    lengths: tuple[str, ...] = ()
    bxbs: tuple[str, ...] = ()
    error: str = ""  # a wrong answer or a bad formula: the run must stop
    error_source: str = ""  # FILE:LINE of the grid concerned
    cpu_seconds: float = 0.0  # CPU time of the worker on this chunk (checks included)

    @property
    def runs(self) -> tuple[GridRun, ...]:
        """Every answer as a record, solver by solver, grids in order (the API's view)."""
        runs = []
        for answers in self.answers:
            for i in range(len(answers)):
                result = answers.record(i)
                without = result.solved_without_search
                runs.append(GridRun(self.first + i, result, without))
        return tuple(runs)


def _remembers(name: str, fresh: bool) -> bool:
    """True for a solver whose answers depend on its earlier calls (incremental PySAT)."""
    return name in PYSAT_NAMES and not fresh


class _Loaded:
    """One solver's loaded backends, by geometry: an incremental PySAT solver's built
    afresh for the chunk (its answers depend on its earlier calls), the others kept by
    the worker (each of its threads) from chunk to chunk (`kept_by_worker`)."""

    def __init__(
        self,
        name: str,
        encoding: str,
        fresh: bool,
        timeout: float | None,
        budget: Budget = DEFAULT_BUDGET,
    ):
        self.name, self.encoding = name, encoding
        self.fresh, self.timeout, self.budget = fresh, timeout, budget
        self.remembers = _remembers(name, fresh)
        self.backends: dict[Geometry, Backend] = {}  # the chunk's own
        self.kept: dict[Geometry, Backend] = {}  # the worker's, used by this chunk
        self.last: tuple[Geometry, Backend] | None = None  # the last backend returned

    def get(self, geometry: Geometry, first_call: np.ndarray | None = None) -> Backend:
        """Return the backend of `geometry`, loading it if needed.  A new backend that
        keeps no memory between calls first answers `first_call` (grids, as
        `solve_grids` takes them), untimed, so that no timed call pays a first call's
        set-up (jigsaw: one backend per grid)."""
        if self.last is not None and self.last[0] is geometry:  # no hashing of its regions
            return self.last[1]

        def load() -> Backend:
            formula = rule_formula(geometry, self.encoding)
            backend = make_backend(
                self.name, fresh=self.fresh, timeout=self.timeout, budget=self.budget
            )
            backend.load(formula, formula.num_vars, num_cell_vars(geometry.size))
            if isinstance(backend, PysatBackend):
                backend.without_search = False  # the chunk's unit propagation says it
            return backend

        if self.remembers:
            backend = keep_loaded(self.backends, geometry, lambda _: load(), drop=Backend.close)
        elif geometry in self.kept:
            backend = self.kept[geometry]
        else:
            # Kept by the worker, rewound to the state it was built in: every chunk's
            # answers and counts are those of a backend built for it.
            key = (
                "backend", self.name, self.encoding, self.fresh, self.timeout, self.budget,
                geometry,
            )  # fmt: skip
            backend = self.kept[geometry] = kept_by_worker(key, load)
            backend.rewind()
            if first_call is not None:
                backend.solve_grids(first_call, geometry, self.encoding)
        self.last = geometry, backend
        return backend

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()
        self.backends.clear()
        self.kept.clear()
        self.last = None


def _answers_by_solver(
    loaded: dict[str, _Loaded], runs: Sequence[GeometryRun]
) -> dict[str, Answers]:
    """Return each solver's answers on every grid: a run of grids of one geometry at a
    time, every solver on it, so that the run's rule formula, built once (`rule_formula`
    keeps the last few), serves them all: a jigsaw grid is a geometry of its own.  Each
    backend gets its calls in the order `_answers` gives them: the same answers."""
    parts: dict[str, list[Answers]] = {name: [] for name in loaded}
    for run in runs:
        for name, solver in loaded.items():
            backend = solver.get(run.geometry, run.grids[:1])
            parts[name].append(backend.solve_grids(run.grids, run.geometry, solver.encoding))
    return {name: Answers.concatenate(found) for name, found in parts.items()}


def _answers(loaded: _Loaded, runs: Sequence[GeometryRun]) -> Answers:
    """Return one solver's answers on every grid, a run of grids of one geometry at a
    time (`Backend.solve_grids`: the home-grown closures answer a run in one native
    call, the others call by call)."""
    parts = []
    for run in runs:
        backend = loaded.get(run.geometry, run.grids[:1])
        parts.append(backend.solve_grids(run.grids, run.geometry, loaded.encoding))
    return Answers.concatenate(parts)


def _settled_depths(task: ChunkTask, answers: dict[str, Answers]) -> list:
    """Return the depth bucket the run's own closures settle for each grid, else None.

    With `up`, `fl`, ... run for the consecutive depths 0, 1, ..., the first of them
    that solves a grid gives its depth, the first that refutes it makes it UNSAT, and
    one stopped by its work budget (the time limit) leaves it at ">budget" ("timeout"):
    the depths below did not solve it, and whether this one would have, nobody knows.
    That is what `Rater.rate_many` finds, without running those closures again; a
    closure's budget counts its own engine's work (the board's for the rules of the
    `centrale` encoding, as the rating's)."""
    by_depth = {depth: name for name, depth in HOME_DEPTHS.items() if depth is not None}
    settled: list[str | None] = [None] * len(task.puzzles)
    open_rows = np.ones(len(task.puzzles), dtype=bool)
    for depth in range(task.max_depth + 1):
        found = answers.get(by_depth.get(depth, ""))
        if found is None:
            break
        done = open_rows & ((found.status != Status.UNKNOWN.value) | (found.stopped != 0))
        rows = np.flatnonzero(done)
        # The bucket depends on (status, stopped) alone: made once for each pair seen.
        pairs = found.status[rows].astype(np.int64) * 256 + found.stopped[rows]
        kinds, of_row = np.unique(pairs, return_inverse=True)
        buckets = []
        for pair in kinds.tolist():
            status, stopped = Status(pair // 256), pair % 256
            label = rating_label(status, depth, task.max_depth, stopped == TIMED_OUT, depth,
                                 stopped == OVER)  # fmt: skip
            buckets.append(depth_bucket(label))
        for i, kind in zip(rows.tolist(), of_row.tolist(), strict=True):
            settled[i] = buckets[kind]
        open_rows &= ~done
    return settled


def _rate(
    task: ChunkTask, checks: SolutionChecks, solved: np.ndarray, settled: list[str | None]
) -> tuple[str, ...]:
    """Return the depth bucket of every grid: `settled` where known, else the rating of
    `solvers.ratings.depth`, the other grids of each geometry rated together in one
    native call (`Rater.rate_many`, the path `solvers rate` takes too), their
    solutions checked too, and none refuting a grid `solved` (a checked solution)."""
    from solvers.ratings.depth import Rater  # the solvers' import only when rating

    puzzles = task.puzzles
    raters: dict[Geometry, Rater] = {}
    labels = list(settled)
    who = f"the depth rating ({task.encoding})"
    unsettled = [i for i, label in enumerate(settled) if label is None]
    for run in geometry_runs(unsettled, lambda i: id(puzzles[i].geometry)):
        geometry = puzzles[run[0]].geometry
        rater = keep_loaded(
            raters,
            geometry,
            lambda g: Rater(g, task.encoding, time_limit=task.timeout, budget=task.budget),
        )
        ratings = rater.rate_many([puzzles[i].grid for i in run], task.max_depth)
        found = [j for j, rating in enumerate(ratings) if rating.status is Status.SAT]
        if found:
            grids = [ratings[j].solution for j in found]
            check_solutions(checks, [puzzles[run[j]] for j in found], grids, who)
        for i, rating in zip(run, ratings, strict=True):
            if rating.status is Status.UNSAT and solved[i]:
                raise unsat_refuted(puzzles[i], who)
            labels[i] = rating.bucket()
    return tuple(labels)


def _lengths(task: ChunkTask, depths: Sequence[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Return the finer ratings of every grid (`solvers.ratings.bxb.LengthColumn`), each
    on its own scale: (refutation lengths, BxB ratings), '' where the other rating
    applies.  A grid gets its refutation length (nesting 1), or its BxB when it needs
    two levels ('>2' deeper); a grid of depth 2 goes to BxB at once, as `solvers rate`
    sends it (its depth bucket says the closure of depth 1 does not settle it), and one
    of depth 0 rates 0 at once (unit propagation fills it)."""
    from solvers.ratings.bxb import BXB, LengthColumn
    from solvers.ratings.length import RefutationRater

    raters: dict[Geometry, LengthColumn] = {}
    lengths, bxbs = [], []
    for puzzle, depth in zip(task.puzzles, depths, strict=True):
        geometry = puzzle.geometry
        rater = keep_loaded(
            raters,
            geometry,
            lambda g: LengthColumn(
                g, RefutationRater(g, task.encoding, task.timeout, task.budget.searches)
            ),
        )
        rated = rater.rate(puzzle.grid, depth=int(depth) if depth in ("0", "2") else None)
        bxb = rated.rating == BXB
        lengths.append("" if bxb else rated.label)
        bxbs.append(rated.label if bxb else "")
    return tuple(lengths), tuple(bxbs)


def _filled_by_propagation(
    task: ChunkTask, runs: Sequence[GeometryRun], answers: dict[str, Answers]
) -> np.ndarray:
    """Whether unit propagation alone fills each grid's cells (1 or 0): PySAT's solvers'
    "solved without search".  The fixpoint of unit propagation is the formula's,
    whatever solver computes it (the engine's equals `Minisat22.propagate`'s on every
    set: the tests), so it is read from the run's own `up` closure when it has one,
    else from one batch propagation of the chunk, rather than from a propagation per
    grid and per solver in a twin PySAT solver (`PysatBackend.without_search`)."""
    up = answers.get("up")
    if up is not None and not (up.without_search == NA).any():
        return up.without_search.copy()
    # no time limit: a propagation is linear in the formula
    up = _answers(_Loaded("up", task.encoding, False, None, task.budget), runs)
    return (up.without_search == 1).astype(np.int8)


def _run(task: ChunkTask) -> ChunkResult:
    puzzles = task.puzzles
    loaded = {
        name: _Loaded(name, task.encoding, task.fresh, task.timeout, task.budget)
        for name in task.solvers
    }
    checks = SolutionChecks()
    runs = runs_by_geometry(puzzles, task.grids)
    answers: dict[str, Answers] = {}  # per solver (models dropped once checked)
    solved = np.zeros(len(puzzles), dtype=bool)  # a checked solution
    # The collector is off for the chunk, so that no collection lands inside a timed
    # call, and no full collection of a worker's whole heap runs per chunk.
    gc.disable()
    try:
        # One pass: the calls timed, then their answers checked (outside the timing).
        for name, found in _answers_by_solver(loaded, runs).items():
            loaded[name].close()
            solved |= check_answers(checks, puzzles, runs, found, f"{name} ({task.encoding})")
            answers[name] = replace(found, solutions=None, models=None)
        pysat = [name for name in task.solvers if name in PYSAT_NAMES]
        if pysat:
            filled = _filled_by_propagation(task, runs, answers)
            for name in pysat:
                answers[name] = replace(answers[name], without_search=filled)
        depths: tuple[str, ...] = ()
        lengths: tuple[str, ...] = ()
        bxbs: tuple[str, ...] = ()
        if task.max_depth is not None:
            depths = _rate(task, checks, solved, _settled_depths(task, answers))
            if task.length:
                lengths, bxbs = _lengths(task, depths)
        kept = []
        for name, found in answers.items():
            refuted = np.flatnonzero((found.status == UNSAT) & solved)
            if refuted.size:
                raise unsat_refuted(puzzles[int(refuted[0])], f"{name} ({task.encoding})")
            if name in CLOSURES:  # a closure never branches: solving is solving without search
                found = replace(found, without_search=(found.status == SAT).astype(np.int8))
            kept.append(found)
    finally:
        gc.enable()
        for backends in loaded.values():
            backends.close()
    return ChunkResult(
        task.dataset, task.encoding, task.first, len(puzzles), tuple(kept), depths, lengths, bxbs
    )


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Run one chunk (see the module docstring); a wrong answer comes back as `error`."""
    cpu = time.process_time()
    try:
        return replace(_run(task), cpu_seconds=time.process_time() - cpu)
    except WrongAnswer as wrong:
        error, source = wrong.message, wrong.source
    except InputError as bad:  # e.g. the augmented encoding of a grid without boxes
        error, source = f"{task.encoding}: {bad.message}", task.puzzles[0].source
    return ChunkResult(task.dataset, task.encoding, task.first, 0, (), (), (), (), error, source)
