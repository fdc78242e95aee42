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
   run of grids of one geometry in one native call (`Backend.solve_many`, each
   grid timed inside it), the others call by call.  Then the solver's answers are
   checked, its models decoded and checked in one vectorised pass: a model must
   decode to a grid that keeps the givens and obeys every region (`encoder.check`,
   which shares no code with the encoders; `benchmarks.answer_checks`).
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
the harness stops the run.  Results are per grid, in chunk order; since the chunks
are cut at fixed positions and every chunk starts from freshly built (or rewound)
solvers, the figures do not depend on how many workers run the chunks.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from benchmarks.answer_checks import (
    SolutionChecks,
    WrongAnswer,
    check_answers,
    check_grid,
    unsat_refuted,
)
from encoder.encodings import given_literals, rule_formula
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
from solvers.results import NotAvailable, SolverResult, Status, depth_bucket, rating_label

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


@dataclass(frozen=True, slots=True)
class GridRun:
    """One solver on one grid, from the timed pass: the solver's own record (its model
    dropped once checked) and what the harness counts as solved without
    search, which for the closures `up`, `fl`, ... is solving the grid at all (they never
    branch), and for every other solver its root-level propagation filling the grid."""

    position: int  # in the set's run order
    result: SolverResult
    without_search: bool | NotAvailable

    def __reduce__(self):
        """Pickle as the three fields (the journal holds every run): the generated
        state of a slotted dataclass looks its fields up for each object, which cost
        more than the rest of the pickling."""
        return GridRun, (self.position, self.result, self.without_search)


@dataclass(frozen=True)
class ChunkResult:
    """The timed runs (solver by solver, grids in order) and depth labels of a chunk."""

    dataset: str
    encoding: str
    first: int
    count: int
    runs: tuple[GridRun, ...]
    depths: tuple[str, ...]  # one of DEPTH_BUCKETS per grid; empty when not rated
    # The finer ratings (solvers.ratings.bxb.LengthColumn), each on its own scale, per grid:
    # the refutation length ('' for a grid BxB rates instead), the BxB ('' for the others);
    # both empty when not asked for.
    lengths: tuple[str, ...] = ()
    bxbs: tuple[str, ...] = ()
    error: str = ""  # a wrong answer or a bad formula: the run must stop
    error_source: str = ""  # FILE:LINE of the grid concerned
    cpu_seconds: float = 0.0  # CPU time of the worker on this chunk (checks included)


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

    def get(self, geometry: Geometry, first_call: Sequence[int] | None = None) -> Backend:
        """Return the backend of `geometry`, loading it if needed.  A new backend that
        keeps no memory between calls is first called once with `first_call`, untimed,
        so that no timed call pays a first call's set-up (jigsaw: one backend per grid)."""
        if self.last is not None and self.last[0] is geometry:  # no hashing of its regions
            return self.last[1]

        def load() -> Backend:
            formula = rule_formula(geometry, self.encoding)
            backend = make_backend(
                self.name, fresh=self.fresh, timeout=self.timeout, budget=self.budget
            )
            backend.load(formula.clauses, formula.num_vars, num_cell_vars(geometry.size))
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
                backend.solve(first_call)
        self.last = geometry, backend
        return backend

    def close(self) -> None:
        for backend in self.backends.values():
            backend.close()
        self.backends.clear()
        self.kept.clear()
        self.last = None


def _answers(loaded: _Loaded, puzzles: Sequence[Puzzle], assumptions: list[list[int]]):
    """Return one solver's answer on every grid, a run of grids of one geometry at a
    time (`Backend.solve_many`: the home-grown closures answer a run in one native
    call, the others call by call)."""
    records: list[SolverResult] = []
    for run in geometry_runs(range(len(puzzles)), lambda i: id(puzzles[i].geometry)):
        backend = loaded.get(puzzles[run[0]].geometry, assumptions[run[0]])
        records += backend.solve_many([assumptions[i] for i in run])
    return records


def _settled_depths(task: ChunkTask, answers: dict[str, list[SolverResult]]) -> list:
    """Return the depth bucket the run's own closures settle for each grid, else None.

    With `up`, `fl`, ... run for the consecutive depths 0, 1, ..., the first of them
    that solves a grid gives its depth, the first that refutes it makes it UNSAT, and
    one stopped by its work budget (the time limit) leaves it at ">budget" ("timeout"):
    the depths below did not solve it, and whether this one would have, nobody knows.
    That is what `Rater.rate_many` finds, without running those closures again; a
    closure's budget counts its own engine's work, so on the centrale encoding (rated
    on the board otherwise) a grid near its budget is labelled by the closure's count."""
    answers_by_depth = []
    by_depth = {depth: name for name, depth in HOME_DEPTHS.items() if depth is not None}
    for depth in range(task.max_depth + 1):
        if by_depth.get(depth) not in answers:
            break
        answers_by_depth.append(answers[by_depth[depth]])
    settled: list[str | None] = []
    for i in range(len(task.puzzles)):
        label = None
        for depth, answers in enumerate(answers_by_depth):
            answer = answers[i]
            if answer.status is not Status.UNKNOWN or answer.timed_out or answer.over_budget:
                label = depth_bucket(
                    rating_label(
                        answer.status, depth, task.max_depth, answer.timed_out, depth,
                        answer.over_budget,
                    )
                )  # fmt: skip
                break
        settled.append(label)
    return settled


def _rate(
    task: ChunkTask, solved: list[tuple[int, ...] | None], settled: list[str | None]
) -> tuple[str, ...]:
    """Return the depth bucket of every grid: `settled` where known, else the rating of
    `solvers.ratings.depth`, the other grids of each geometry rated together in one
    native call (`Rater.rate_many`, the path `solvers rate` takes too), their
    solutions checked too."""
    from solvers.ratings.depth import Rater  # the solvers' import only when rating

    puzzles = task.puzzles
    raters: dict[Geometry, Rater] = {}
    labels = list(settled)
    who = f"the depth rating ({task.encoding})"
    unsettled = [i for i, label in enumerate(settled) if label is None]
    for run in geometry_runs(unsettled, lambda i: puzzles[i].geometry):
        rater = keep_loaded(
            raters,
            puzzles[run[0]].geometry,
            lambda g: Rater(g, task.encoding, time_limit=task.timeout, budget=task.budget),
        )
        ratings = rater.rate_many([puzzles[i].grid for i in run], task.max_depth)
        for i, rating in zip(run, ratings, strict=True):
            if rating.status is Status.SAT and rating.solution != solved[i]:
                check_grid(puzzles[i], rating.solution, who)
                solved[i] = rating.solution
            elif rating.status is Status.UNSAT and solved[i]:
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


def _without_model(
    result: SolverResult, name: str, without: bool | NotAvailable | None = None
) -> SolverResult:
    """Return the record kept of a checked answer: the solver's name, no model, and
    `without` as its `solved_without_search` when given (`dataclasses.replace` spends
    more time on its field lookups than this)."""
    return SolverResult(
        name,
        result.status,
        (),
        result.solved_without_search if without is None else without,
        result.decisions,
        result.conflicts,
        result.propagations,
        result.seconds,
        result.reason,
        result.timed_out,
        result.failed,
        result.over_budget,
    )


def _filled_by_propagation(
    task: ChunkTask, assumptions: list[list[int]], answers: dict[str, list[SolverResult]]
) -> list[bool]:
    """Whether unit propagation alone fills each grid's cells: PySAT's solvers' "solved
    without search".  The fixpoint of unit propagation is the formula's, whatever solver
    computes it (the engine's equals `Minisat22.propagate`'s on every set: the tests), so
    it is read from the run's own `up` closure when it has one, else from one batch
    propagation of the chunk, rather than from a propagation per grid and per solver
    in a twin PySAT solver (`PysatBackend.without_search`)."""
    up = answers.get("up")
    if up is not None and all(isinstance(r.solved_without_search, bool) for r in up):
        return [r.solved_without_search is True for r in up]
    # no time limit: a propagation is linear in the formula
    up = _Loaded("up", task.encoding, False, None, task.budget)
    records = _answers(up, task.puzzles, assumptions)
    return [r.solved_without_search is True for r in records]


def _run(task: ChunkTask) -> ChunkResult:
    puzzles = task.puzzles
    assumptions = [given_literals(p.grid, p.geometry) for p in puzzles]
    loaded = {
        name: _Loaded(name, task.encoding, task.fresh, task.timeout, task.budget)
        for name in task.solvers
    }
    checks = SolutionChecks()
    answers: dict[str, list[SolverResult]] = {}  # per solver, per grid (models dropped)
    solved: list[tuple[int, ...] | None] = [None] * len(puzzles)  # a checked solution
    checked: list[tuple[int, ...]] = [()] * len(puzzles)  # the model it was read from
    # The collector is off for the chunk, so that no collection lands inside a timed
    # call, and no full collection of a worker's whole heap runs per chunk (the
    # chunk's records are tens of thousands of objects, none of them garbage).
    gc.disable()
    try:
        # One pass: the calls timed, then their answers checked (outside the timing).
        for name in task.solvers:
            records = _answers(loaded[name], puzzles, assumptions)
            loaded[name].close()
            check_answers(checks, puzzles, records, f"{name} ({task.encoding})", solved, checked)
            answers[name] = [_without_model(result, name) for result in records]
        pysat = [name for name in task.solvers if name in PYSAT_NAMES]
        if pysat:
            filled = _filled_by_propagation(task, assumptions, answers)
            for name in pysat:
                answers[name] = [
                    _without_model(result, name, without)
                    for result, without in zip(answers[name], filled, strict=True)
                ]
        depths: tuple[str, ...] = ()
        lengths: tuple[str, ...] = ()
        bxbs: tuple[str, ...] = ()
        if task.max_depth is not None:
            depths = _rate(task, solved, _settled_depths(task, answers))
            if task.length:
                lengths, bxbs = _lengths(task, depths)
        runs: list[GridRun] = []
        for name, records in answers.items():
            closure = name in CLOSURES
            for i, result in enumerate(records):
                if result.status is Status.UNSAT and solved[i]:
                    raise unsat_refuted(puzzles[i], f"{name} ({task.encoding})")
                # A closure never branches: solving is solving without search.
                without = result.status is Status.SAT if closure else result.solved_without_search
                runs.append(GridRun(task.first + i, result, without))
    finally:
        gc.enable()
        for backends in loaded.values():
            backends.close()
    return ChunkResult(
        task.dataset, task.encoding, task.first, len(puzzles), tuple(runs), depths, lengths, bxbs
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
