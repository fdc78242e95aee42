"""The lines `python -m solvers rate` prints, computed for a run of grids.

`rate_lines` turns puzzles into `RatedLine`s: each grid's tab-separated stdout line and,
for a grid without solution or a solver's complaint, its stderr note.  It builds its
raters or solver backends once for all the grids it is given (one per geometry, a few
kept loaded for jigsaw files).  `rate` runs it over the whole input in this process,
or, with `--workers K` or `--executor dask`, runs `rate_chunk` over fixed chunks of
`--chunk-size` grids on an executor (`executors`) and prints the chunks back
in input order.  Depths, statuses and "without search" do not depend on the chunks; an
incremental PySAT solver's decisions and conflicts do (it learns from earlier grids),
so they depend on `--chunk-size`, never on the number of workers.  A plain file of grids
read whole (`encoder.puzzle_files.grid_array`) is rated by `rate_array`, with the same
lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from encoder.encodings import given_literals, rule_formula
from encoder.errors import InputError
from encoder.grid_arrays import GridArray
from encoder.grids import first_clash, format_line, format_lines
from encoder.numbering import num_cell_vars
from encoder.puzzle_files import Puzzle
from encoder.status import Status
from solvers.budgets import DEFAULT_BUDGET, OVER_BUDGET, Budget
from solvers.core import DEPTH_SAT
from solvers.ratings.per_geometry import geometry_runs, keep_loaded

YES_NO = {True: "yes", False: "no"}


@dataclass(frozen=True)
class RateOptions:
    """What to compute per grid: the depth rating, or one solver's work (`solver`)."""

    encoding: str = "centrale"
    polarity: str = "both"  # depth rating: hypotheses cell=value and cell≠value, or "positive"
    max_depth: int = 2  # depth rating: deepest nesting tried
    solver: str | None = None  # a registry name; None (and no solver_cmd): the depth rating
    solver_cmd: str | None = None  # a DIMACS solver command instead of a registry name
    fresh: bool = False  # PySAT: a new solver per grid
    timeout: float | None = None  # seconds per grid, the user's opt-in (None: no limit)
    budget: Budget = DEFAULT_BUDGET  # work per grid: the default bound
    # refutation-length rating: deepest nesting tried (slow beyond 1); None: not rated
    length_depth: int | None = 1
    proof: bool = False  # depth rating: write each settled grid's proof (solvers.proofs.write)


@dataclass(frozen=True)
class RatedLine:
    """One grid's output: `line` for stdout, `note` (or "") for stderr after 'solvers: '."""

    index: int  # position of the grid in the input
    line: str
    note: str = ""
    timed_out: bool = False  # the time limit stopped this grid (counted, the run goes on)
    over_budget: bool = False  # the work budget stopped this grid (counted, the run goes on)
    failed: bool = False  # the solver failed on this grid (the command exits 1)
    length: str = ""  # the refutation-length rating's label (depth rating only)
    length_seconds: float = 0.0  # the time it took
    proof: str = ""  # the depth rating's proof (DRUP text) with --proof, "" when none
    # with a proof: (grid, geometry, solution or None) for the formula it refutes
    # (solvers.proofs.beside)
    refutes: tuple = ()


@dataclass(frozen=True)
class SettledLines:
    """The stdout lines of consecutive grids that need no note, each ending in a newline
    (`rate_array`): written in one call."""

    text: str
    count: int  # grids
    proofs: tuple = ()  # with --proof: a Proven (index, proof, refutes) a grid


@dataclass(frozen=True)
class RateChunk:
    """Consecutive grids of the input, for one task of an executor (picklable)."""

    first: int  # index of the chunk's first grid in the input
    puzzles: tuple[Puzzle, ...]
    options: RateOptions


def why_unsat(puzzle: Puzzle) -> str:
    """Return why a grid has no solution, in Sudoku words where the givens clash."""
    clash = first_clash(puzzle.grid, puzzle.geometry)
    return clash or "the givens lead to a contradiction (see `python -m solvers explain`)"


def rate_lines(
    puzzles: Iterable[Puzzle], options: RateOptions, first: int = 0
) -> Iterator[RatedLine]:
    """Yield the output of each grid, numbered from `first`; a bad input line is raised
    once every grid before it is rated (`UntilFault`)."""
    reading = UntilFault(puzzles)
    if options.solver is None and options.solver_cmd is None:
        yield from _depth_lines(reading, options, first)
    else:
        yield from _solver_lines(reading, options, first)
    reading.raise_fault()


class UntilFault:
    """The puzzles of a reader up to its first bad input (an InputError), which ends
    the iteration and is kept for `raise_fault`: a batch or a chunk being filled when
    the bad line comes is rated and printed, then the line is named."""

    def __init__(self, puzzles: Iterable[Puzzle]):
        self._puzzles = iter(puzzles)
        self.fault: InputError | None = None

    def __iter__(self) -> UntilFault:
        return self

    def __next__(self) -> Puzzle:
        if self.fault is not None:
            raise StopIteration
        try:
            return next(self._puzzles)
        except InputError as error:
            self.fault = error
            raise StopIteration from None

    def raise_fault(self) -> None:
        if self.fault is not None:
            raise self.fault


def rate_chunk(chunk: RateChunk) -> tuple[int, tuple[RatedLine, ...]]:
    """Return (chunk.first, the chunk's lines): what an executor's worker runs."""
    return chunk.first, tuple(rate_lines(chunk.puzzles, chunk.options, chunk.first))


def _depth_lines(puzzles, options: RateOptions, first: int) -> Iterator[RatedLine]:
    """Rate runs of consecutive grids of one geometry together, BATCH at most at a time,
    in one compiled call each (`Rater.depths`): no Python work per grid but its line and,
    unless it is turned off, its length column (`solvers.ratings.bxb.LengthColumn`: the
    refutation-length rating, BxB for depth-2 grids), which costs far more than the
    depth (milliseconds a grid against tens of µs)."""
    from solvers.ratings.depth import Rater, depth_labels  # the core only when needed

    if options.length_depth is not None:  # --no-length neither imports nor builds its engines
        from solvers.ratings.bxb import LengthColumn

    raters: dict = {}
    index = first
    for batch in geometry_runs(puzzles, lambda puzzle: puzzle.geometry, BATCH):
        geometry = batch[0].geometry
        depth_rater, length_rater = keep_loaded(
            raters,
            geometry,
            lambda g: (
                Rater(g, options.encoding, options.polarity, options.timeout, options.budget),
                None
                if options.length_depth is None
                else LengthColumn(g, lengths_rater(g, options)),
            ),
        )
        values = np.array([p.grid for p in batch], dtype=np.int8)
        if options.proof:
            out, proofs = depth_rater.depth_proofs(values, options.max_depth)
        else:
            out, proofs = depth_rater.depths(values, options.max_depth), [""] * len(batch)
        labels = depth_labels(out, options.max_depth)
        texts = format_lines(values, geometry)  # the batch's grids in one translation
        lengths = length_column(length_rater, values, out, labels, options.length_depth)
        for g, (puzzle, text, label, depth, seconds, proof, length) in enumerate(zip(
            batch, texts, labels, out.depth.tolist(), out.seconds.tolist(), proofs, lengths,
            strict=True,
        )):  # fmt: skip
            refutes = ()
            if proof:
                solved = int(out.status[g]) == DEPTH_SAT
                solution = tuple(out.solutions[g].tolist()) if solved else None
                refutes = (puzzle.grid, geometry, solution)
            if length is None and label.isdigit():  # settled, no length: nothing to note
                line = f"{index}\t{text}\t{label}\t{NO_LENGTH}\t{seconds:.6f}"
                yield RatedLine(
                    index, line, "", False, False, False, NO_LENGTH, 0.0, proof, refutes
                )
                index += 1
                continue
            rated = _depth_line(index, text, label, depth, seconds, puzzle, options, length, proof)
            yield replace(rated, refutes=refutes) if refutes else rated
            index += 1


def lengths_rater(geometry, options: RateOptions):
    """The refutation-length rater the length column of `options` uses."""
    from solvers.ratings.length import RefutationRater

    return RefutationRater(geometry, options.encoding, options.timeout, options.budget.searches)


def length_column(length_rater, values, out, labels, length_depth) -> list:
    """Return the length column of a batch of grids (`LengthLabel`s, or None for each
    grid when `length_rater` is None: --no-length), rated in one call of the core; the
    depth rating's answer `out` gives each settled grid's depth (saves BxB a first try)
    and solution (spares the searches of its candidates)."""
    if length_rater is None:
        return [None] * len(values)
    depths = out.depth.tolist()
    known = [d if label == str(d) else None for d, label in zip(depths, labels, strict=True)]
    settled = np.array([label.isdigit() for label in labels], np.int8)
    solutions = out.solutions * settled[:, None]  # the depth loop's; zeros: none
    return length_rater.rate_many(values, length_depth, known, solutions)


def _depth_line(
    index, text, label, depth, seconds, puzzle, options, rated=None, proof=""
) -> RatedLine:
    """Return the line of a grid the depth rating left with a note, or that has a length
    column (`rated`, its `LengthLabel`; None with --no-length)."""
    length, length_seconds, length_timed_out, length_over = NO_LENGTH, 0.0, False, False
    if rated is not None:
        length, length_seconds = rated.label, rated.seconds
        length_timed_out, length_over = rated.timed_out, rated.over_budget
    line = f"{index}\t{text}\t{label}\t{length}\t{seconds + length_seconds:.6f}"
    note = ""
    timed_out = label.startswith("timeout") or length_timed_out
    over = label.startswith(OVER_BUDGET) or length_over
    if label.startswith("unsat"):
        note = f"{puzzle.source}: no solution: {why_unsat(puzzle)}"
    elif label.startswith(OVER_BUDGET):
        note = (
            f"{puzzle.source}: work budget of {options.budget.work:,} "
            f"work units reached at depth {depth}; --budget work=N allows more"
        )
    elif length_over:
        note = (
            f"{puzzle.source}: work budget of {options.budget.searches:,} searches "
            "reached by the refutation-length rating; --budget searches=N allows more"
        )
    elif label.startswith("timeout"):
        note = (
            f"{puzzle.source}: time limit of {options.timeout:g} s reached at depth "
            f"{depth}; --timeout S allows more"
        )
    elif length_timed_out:  # the depth is known; the length ran out of time
        note = (
            f"{puzzle.source}: time limit of {options.timeout:g} s reached by the "
            "refutation-length rating; --timeout S allows more"
        )
    return RatedLine(index, line, note, timed_out, over, False, length, length_seconds, proof)


def rate_array(grids: GridArray, options: RateOptions) -> Iterator[SettledLines | RatedLine]:
    """Yield the output of a file's grids read whole (`encoder.puzzle_files.grid_array`)
    as `rate_lines` words it (with `options.proof`, each grid's proof beside its line):
    the lines of settled grids joined, ARRAY_BATCH grids per compiled call of the depth
    rating and of the length column, and a `RatedLine` for each grid with a note (no
    solution, its budget reached)."""
    from solvers.ratings.depth import Rater, depth_labels

    geometry, max_depth = grids.geometry, options.max_depth
    rater = Rater(geometry, options.encoding, options.polarity, options.timeout, options.budget)
    length_rater = None
    if options.length_depth is not None:
        from solvers.ratings.bxb import LengthColumn

        length_rater = LengthColumn(geometry, lengths_rater(geometry, options))
    for start in range(0, len(grids.values), ARRAY_BATCH):
        values = grids.values[start : start + ARRAY_BATCH]
        if options.proof:
            out, proofs = rater.depth_proofs(values, max_depth)
            proven = _proven(start, values, out, proofs, geometry)
        else:
            out, proven = rater.depths(values, max_depth), {}
        labels = depth_labels(out, max_depth)
        lengths = length_column(length_rater, values, out, labels, options.length_depth)
        texts = format_lines(values, geometry)
        seconds = out.seconds.tolist()
        rows = [
            f"{index}\t{text}\t{label}\t{NO_LENGTH}\t{time:.6f}\n"
            if rated is None
            else f"{index}\t{text}\t{label}\t{rated.label}\t{time + rated.seconds:.6f}\n"
            for index, text, label, time, rated in zip(
                range(start, start + len(values)), texts, labels, seconds, lengths, strict=True
            )
        ]
        settled = 0  # rows written so far
        for row, (label, rated) in enumerate(zip(labels, lengths, strict=True)):
            noted = rated is not None and (rated.over_budget or rated.timed_out)
            if label.isdigit() and not noted:
                continue
            if row > settled:
                yield _settled(rows, settled, row, start, proven)
            depth = int(out.depth[row])
            index = start + row
            puzzle = grids.puzzle(index)
            line = _depth_line(
                index, texts[row], label, depth, seconds[row], puzzle, options, rated
            )
            yield (
                replace(line, proof=proven[index].proof, refutes=proven[index].refutes)
                if (index in proven)
                else line
            )
            settled = row + 1
        if len(rows) > settled:
            yield _settled(rows, settled, len(rows), start, proven)


class Proven(NamedTuple):
    """A grid's proof and what it refutes (RatedLine's fields of the same names), for
    the grids `rate_array` writes in SettledLines: cheaper than a RatedLine a grid."""

    index: int
    proof: str
    refutes: tuple  # (grid, geometry, solution or None), the rows as numpy arrays


def _proven(start: int, values, out, proofs: list[str], geometry) -> dict[int, Proven]:
    """The grids of a batch that have a proof, by index (solvers.proofs.beside)."""
    solved = (out.status == DEPTH_SAT).tolist()
    return {
        start + row: Proven(
            start + row, text, (values[row], geometry, out.solutions[row] if solved[row] else None)
        )
        for row, text in enumerate(proofs)
        if text
    }


def _settled(rows: list[str], first: int, end: int, start: int, proven: dict) -> SettledLines:
    """The rows first .. end of a batch as one SettledLines, with their proofs."""
    proofs = tuple(proven[i] for i in range(start + first, start + end) if i in proven)
    return SettledLines("".join(rows[first:end]), end - first, proofs)


ARRAY_BATCH = 4096  # grids per compiled call of `rate_array`
BATCH = 256  # grids per compiled call: a few milliseconds of work on 9x9 grids
NO_LENGTH = "-"  # the length column with --no-length


def _solver_lines(puzzles, options: RateOptions, first: int) -> Iterator[RatedLine]:
    from solvers.backends.registry import make_backend

    name = options.solver if options.solver_cmd is None else "command"
    loaded: dict = {}

    def load(geometry):
        backend = make_backend(
            name,
            fresh=options.fresh,
            timeout=options.timeout,
            command=options.solver_cmd,
            budget=options.budget,
        )
        formula = rule_formula(geometry, options.encoding)
        return backend.load(formula.clauses, formula.num_vars, num_cell_vars(geometry.size))

    try:
        for index, puzzle in enumerate(puzzles, first):
            geometry = puzzle.geometry
            backend = keep_loaded(loaded, geometry, load, drop=lambda old: old.close())
            result = backend.solve(given_literals(puzzle.grid, geometry))
            without = YES_NO.get(result.solved_without_search, result.solved_without_search)
            status = result.status.name  # SAT, UNSAT, UNKNOWN; a stop says which, as ratings do
            if result.over_budget:
                status = OVER_BUDGET
            elif result.timed_out:
                status = "timeout"
            line = (
                f"{index}\t{format_line(puzzle.grid, geometry)}\t{status}\t"
                f"{without}\t{result.decisions}\t{result.conflicts}\t{result.seconds:.6f}"
            )
            note = ""
            if result.status is Status.UNSAT:
                note = f"{puzzle.source}: no solution: {why_unsat(puzzle)}"
            elif result.timed_out or result.failed or result.over_budget:
                note = f"{puzzle.source}: {name}: {result.reason}"  # (open cells: no fault)
            yield RatedLine(index, line, note, result.timed_out, result.over_budget, result.failed)
    finally:
        for backend in loaded.values():
            backend.close()
