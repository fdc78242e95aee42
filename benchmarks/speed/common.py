"""What the questions of `benchmarks speed` share: the formula's geometry, reading the
sets, timing one call, checking that two sides' answers agree.

Every question is answered on the exam's 9x9 formula with the givens passed as
assumptions.  Each timed call is preceded by one untimed call on the same grid, so
first imports and cold caches are not counted, and the garbage collector is off during
the timed call, as in `timeit`.
"""

from __future__ import annotations

import gc
import itertools
import sys
import time
from collections.abc import Callable, Sequence

import numpy as np
from pysat.solvers import Minisat22
from tqdm import tqdm

from encoder.encodings import given_literals
from encoder.errors import GridError
from encoder.geometry import standard
from encoder.grids import format_line
from encoder.numbering import cell_value
from encoder.puzzle_files import open_source, read_puzzles

GEOMETRY = standard(9)
CELLS = GEOMETRY.size**2
BATCH = 1000  # grids per batch call
PROG = "benchmarks speed"
# The public sets the questions read by default, by their catalogue names.
SEVENTEEN_SET = "royle17"
HARDEST_SET = "forum-hardest-1106"
DEEPER_SET = "mith-te3-1000"  # the catalogue's sample of mith's T&E(3) grids


def read_grids(source: str, limit: int | None = None) -> list[tuple[int, ...]]:
    """Return the first `limit` (None: all) grids of a file or catalogued set of classic
    9x9 grids; a source without any is an error, as in every command."""
    puzzles = read_puzzles(source, GEOMETRY, allow_conflicts=True)
    return [puzzle.grid for puzzle in itertools.islice(puzzles, limit)]


def read_givens(source: str, limit: int | None) -> list[list[int]]:
    """Return the givens of a file or catalogued set of classic grids, as literals."""
    return [given_literals(grid, GEOMETRY) for grid in read_grids(source, limit)]


def set_name(source: str) -> str:
    """Return the name a source is shown by: a catalogue name, or a file's stem."""
    return open_source(source).name


def public_set(source: str | None, default: str) -> tuple[str | None, str]:
    """Return (the grids to read, why there are none): a source given is read (bad input
    is an error), the default public set only when a verified copy is on this machine."""
    if source:
        return source, ""
    try:
        open_source(default)
    except GridError as error:  # not here, or a copy with a wrong checksum
        return None, str(error)
    return default, ""


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.3f} ms"


def timed(call: Callable[[], object]) -> tuple[float, object]:
    """Return (seconds, answer) of one call, after an untimed call on the same input."""
    call()  # warm-up on the same input: imports, caches
    # The garbage collector is off during the timed call, as in `timeit`: the answers
    # this benchmark keeps make Python's full collections slow, and one landing inside
    # a call made the "worst" grid of the 17-clue list read 0.4 to 1.5 s instead of
    # under 1 ms (the same grid timed again alone: 0.2 ms).
    collecting = gc.isenabled()
    gc.disable()
    try:
        start = time.perf_counter()
        answer = call()
        return time.perf_counter() - start, answer
    finally:
        if collecting:
            gc.enable()


def solved(literals: Sequence[int]) -> bool:
    return sum(1 for lit in literals if 0 < lit <= CELLS * GEOMETRY.size) == CELLS


def per_grid(label: str, grids: list[list[int]], call, quiet: bool) -> tuple[list[float], list]:
    """Time `call` on each grid's givens: return (seconds, answers) per grid."""
    seconds, answers = [], []
    for givens in tqdm(grids, desc=label, disable=quiet, leave=False, file=sys.stderr):
        elapsed, answer = timed(lambda g=givens: call(g))
        seconds.append(elapsed)
        answers.append(answer)
    return seconds, answers


def same_answers(label: str, first: list, second: list) -> None:
    """Stop the benchmark when two sides' answers (ok, literals) differ on a grid (on a
    conflict, only ok is compared: Minisat22.propagate may list the literals it had
    assigned before it)."""
    for i, ((ok, lits), (other_ok, other_lits)) in enumerate(zip(first, second, strict=True)):
        if ok != other_ok or (ok and set(lits) != set(other_lits)):
            raise SystemExit(f"{PROG}: {label} differ on grid {i}")


def alternating(label: str, grids: list, calls: dict, quiet: bool) -> dict[str, list[float]]:
    """Time each call of `calls` (name: function of the givens) on every grid, grid by
    grid in turn (a change of load hits all); check that their answers agree."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    answers: dict[str, list] = {name: [] for name in calls}
    for givens in tqdm(grids, desc=label, disable=quiet, leave=False, file=sys.stderr):
        for name, call in calls.items():
            elapsed, answer = timed(lambda g=givens, c=call: c(g))
            times[name].append(elapsed)
            answers[name].append(answer)
    first, *others = calls
    for name in others:
        same_answers(f"{first} and {name} ({label})", answers[first], answers[name])
    return times


def minisat_solves(solver: Minisat22, grids: list[list[int]], quiet: bool,
                   models: list | None = None) -> list[float]:  # fmt: skip
    """Return the seconds of each grid's first `solve` on a reused solver, givens as
    assumptions (a second call would reuse its learnt clauses: not timed twice); with a
    list `models`, append each grid's model to it (None: unsatisfiable), after the
    timing."""
    times = []
    for givens in tqdm(grids, desc="Minisat22.solve", disable=quiet, leave=False,
                       file=sys.stderr):  # fmt: skip
        start = time.perf_counter()
        sat = solver.solve(assumptions=givens)
        times.append(time.perf_counter() - start)
        if models is not None:
            models.append(solver.get_model() if sat else None)
    return times


def board_values(grids: list[list[int]]) -> np.ndarray:
    """Return grids given as literals as rows of N*N values (0 for a blank)."""
    values = np.zeros((len(grids), CELLS), dtype=np.int8)
    for row, givens in zip(values, grids, strict=True):
        cells, held = cell_value(np.asarray(givens), GEOMETRY.size)
        row[cells] = held
    return values


def grid_lines(grids: list[tuple[int, ...]]) -> list[str]:
    """Return the grids as the lines of a file of grids, one a line."""
    return [format_line(grid, GEOMETRY) + "\n" for grid in grids]


def minisat_loop(givens: list[list[int]]) -> float:
    """Return the time of a loop of `Minisat22.propagate` over the grids' givens (the
    rules loaded once, before the clock starts)."""
    from encoder.encodings import rule_formula

    with Minisat22(bootstrap_with=rule_formula(GEOMETRY).clauses) as solver:
        start = time.perf_counter()
        for g in givens:
            solver.propagate(assumptions=g)
        return time.perf_counter() - start
