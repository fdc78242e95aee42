"""Question 1: unit propagation of the givens, the clause engine against Minisat22.

`Engine.propagate` (`solvers.core.engine`) against `Minisat22.propagate`, per call from
Python (medians), and the batch call of the engine's core, `solvers.core.Clauses.
propagate_batch` (many grids a call, results as arrays), per grid against Minisat22 per
call (means); the C reference (about 0.5 us a propagation to the fixpoint in fsss2 and
tdoku, SIMD) printed for scale.
"""

from __future__ import annotations

import sys

import numpy as np
from tqdm import tqdm

from benchmarks.speed.common import BATCH, PROG, solved, timed
from benchmarks.speed.record import Record
from benchmarks.timing import median

C_REFERENCE_US = 0.5  # fsss2 / tdoku: singles to the fixpoint, SIMD, one core


def batch_arrays(grids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Return the givens of many grids as one flat array and its offsets."""
    offsets = np.zeros(len(grids) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(g) for g in grids])
    flat = np.fromiter((lit for g in grids for lit in g), dtype=np.int64, count=int(offsets[-1]))
    return flat, offsets


def batch_seconds(clauses, seventeen: list[list[int]], answers: list) -> float:
    """Return the time of `Clauses.propagate_batch` over the grids, BATCH a call, after
    checking its answers against `answers` (those of single calls, Minisat22's)."""
    flat, offsets = batch_arrays(seventeen)
    total = 0.0
    for start in range(0, len(seventeen), BATCH):
        stop = min(start + BATCH, len(seventeen))
        part = offsets[start : stop + 1]
        args = ((flat[part[0] : part[-1]], part - part[0]),)
        elapsed, (ok, values) = timed(lambda a=args: clauses.propagate_batch(*a))
        total += elapsed
        for i in range(stop - start):  # the answers of one call per grid
            single_ok, single = answers[start + i]
            assigned = np.flatnonzero(values[i]) + 1
            literals = np.where(values[i][assigned - 1] > 0, assigned, -assigned)
            if bool(ok[i]) != single_ok or (single_ok and set(literals.tolist()) != set(single)):
                raise SystemExit(f"{PROG}: batch and single propagations differ on grid {i}")
    return total


def unit_propagation(engine, clauses, minisat, seventeen, source: str, quiet: bool,
                     record: Record) -> list:  # fmt: skip
    """Question 1; return the engine's answers (ok, literals) per grid.  `clauses`: the
    same formula in `solvers.core.Clauses`, for the batch calls."""
    up_engine, up_minisat, answers = [], [], []
    # Grid by grid, one side then the other, so a change of machine load hits all.
    for givens in tqdm(seventeen, desc="UP", disable=quiet, leave=False, file=sys.stderr):
        elapsed, answer = timed(lambda g=givens: engine.propagate(g))
        up_engine.append(elapsed)
        answers.append(answer)
        elapsed, (ok, lits) = timed(lambda g=givens: minisat.propagate(assumptions=g))
        up_minisat.append(elapsed)
        if (ok, set(lits)) != (answer[0], set(answer[1])):
            raise SystemExit(f"{PROG}: engine and Minisat22 propagations differ on {givens}")
    per_grid = batch_seconds(clauses, seventeen, answers) / len(seventeen)
    up_solved = sum(ok and solved(lits) for ok, lits in answers)
    minisat_mean = sum(up_minisat) / len(up_minisat)
    figures = {
        "1.engine.call.median": median(up_engine) * 1e6,
        "1.engine.batch.mean": per_grid * 1e6,  # the engine's core in batch
        "1.minisat22.call.median": median(up_minisat) * 1e6,
        "1.minisat22.call.mean": minisat_mean * 1e6,
    }
    for key, value in figures.items():
        record.figure(key, value, "us")
    record.figure("1.solved_by_up", up_solved, "grids")
    print(f"\n1. unit propagation of the givens, {len(seventeen)} grids of {source}")
    print(f"   engine.propagate        median {median(up_engine) * 1e6:7.1f} us per call")
    print(f"   Clauses.propagate_batch mean   {per_grid * 1e6:7.1f} us per grid "
          f"({BATCH} grids a call, answers as arrays)")  # fmt: skip
    print(f"   Minisat22.propagate     median {median(up_minisat) * 1e6:7.1f} us per call, "
          f"mean {minisat_mean * 1e6:.1f} us  (baseline)")  # fmt: skip
    print(f"   C reference (fsss2, tdoku; SIMD, for scale): about {C_REFERENCE_US} us a "
          f"propagation, {C_REFERENCE_US / (minisat_mean * 1e6):.3f}x Minisat22 here")  # fmt: skip
    print(record.target("up-call", median(up_engine) / median(up_minisat)))
    print(record.target("up-batch", per_grid / minisat_mean))
    print(f"   solved by UP alone: {up_solved}/{len(seventeen)} = {up_solved / len(seventeen):.2%}")
    return answers
