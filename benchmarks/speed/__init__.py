"""Speed of the home-grown engine and of the commands, each figure measured against a
named baseline in the same run and printed beside its target, "met" or "not met".

Every question is answered on the exam's 9x9 formula (11,988 rule clauses) with the
givens passed as assumptions, so both sides do exactly the same logical work:

1. Unit propagation of the givens: `Engine.propagate` against `Minisat22.propagate`, per
   call from Python (medians; target: at most 0.5x), and `Engine.propagate_batch` (many
   grids a call, results as arrays) per grid against Minisat22 per call (means; target:
   at most 0.2x).  The engine built without its exactly-one groups (`groups=False`, the
   watched-literal propagation of every clause) is timed beside it, and the C reference
   (about 0.5 us a propagation to the fixpoint in fsss2 and tdoku, SIMD) printed for scale.
2. The exam's failed-literal closure (depth 1) on the 17-clue list: `Engine.probe` against
   the same closure driven from Python through `Minisat22.propagate` calls, the natural
   way to build it on PySAT (target: at least 10 times faster where UP leaves the grid
   open), and its median over all grids (target <= 10 us).
3. Deeper closures: the depth-2 median on the forum's hardest list (target <= 1 ms, and
   no slower than `Minisat22.solve`'s median on the same grids) and the depth-3 median
   on mith's sample of T&E(3) grids (target <= 15 ms), for the closure of that depth
   alone (`Engine.probe`) and for the depth rating that reaches it (the closures of depth
   0, 1, ... each on top of the one below, `Rater.ladder`; target <= 10 ms at depth 3).
4. The commands at the speed of their kernels, one worker, both with `--no-length` (the
   targets were set for the depth rating and the solver calls): `solvers rate --max-depth
   1` over the 17-clue list, its wall time less start-up against the summed kernel time it
   prints (target <= 1.5x), and its whole wall time against a loop of
   `Minisat22.propagate` over the same grids (target <= 0.5x); `benchmarks run --solvers
   up,fl,minisat22`, its wall time less start-up against the summed time of the solver
   calls it reports (target <= 1.5x).  Start-up is the same command on the list's first
   grid.  Each command is run again as by default, with the refutation-length rating
   (`solvers rate`: target >= 5,000 grids/s).
5. With `--scale N,...`: grids/s and peak memory (RSS of the largest process) of `rate`
   and `run` over N grids, the 17-clue list repeated into a temporary file;
   `--no-length` (with `--scale-length`, by default too: at about 750 grids/s, hours for
   a million grids); with each count of local `--workers` (e.g. 1,2), and
   on the Dask cluster of `--scheduler` (e.g. `scripts/netns_cluster.sh`'s) (targets:
   `rate --no-length` over 1,000,000 grids in under 2 minutes, its peak memory no more
   than 1.25x that of the smallest N, on each place).
6. Proofs: `solvers rate --no-length` (depth up to 2) over the 17-clue list and the
   forum's hardest, with `--proof FILE` (every grid's DRUP proof in one file) against
   without: the processor time (user + system) of the command less start-up (target
   <= 1.5x; the wall ratio beside it), the proofs' size, and the time the checker
   (`solvers.proof_check`, PySAT's propagation) takes per proof on the first
   `--check-limit` of them, each verified against the grid's formula.
7. The BxB rating of depth-2 grids (`solvers.bxb_rating`): its median on a sample of
   `berthier-eleven-te2` (every K-th grid, `--bxb-every K`, target <= 1 s), Easter Monster
   (target <= 10 s), and a time limit of 2 s on a grid it cannot finish in 2 s (mith's
   first T&E(3) grid): the rating stops within 10% of it.  Wall times, with the process's
   processor time beside them (on a loaded machine the two differ).

8. The bit-parallel board (`solvers.board_engine`, which `Rater` rates on for this
   formula) beside the trail engine and Minisat22, on the issue-23 targets of questions
   1-3: unit propagation per call and in batch (<= 0.5x and <= 0.2x Minisat22), the
   depth-1 closure median on the 17-clue list (<= 10 us), the depth-2 closure median on
   the forum's hardest (<= 1 ms and no slower than Minisat22.solve) and the depth rating
   up to 3 on mith's grids (<= 10 ms); answers checked equal on every grid.

Each timed call is preceded by one untimed call on the same grid, so compilation and
cold caches are not counted.  The baseline closure is slow, so it runs on a sample.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
from pysat.solvers import Minisat22
from tqdm import tqdm

from benchmarks.paths import load, machine
from benchmarks.timing import median, peak_mb
from encoder.cli_common import positive
from encoder.encodings import given_literals
from encoder.errors import GridError
from encoder.geometry import standard
from encoder.grids import format_line, parse_grid
from encoder.numbering import cell_value
from encoder.puzzle_files import open_source, read_puzzles
from solvers.depth_rating import Rater, ladder_labels
from solvers.engine import Engine
from solvers.grid_engine import GridEngine
from solvers.limits import sigint_kept_by_python

GEOMETRY = standard(9)
CELLS = GEOMETRY.size**2


def read_grids(source: str, limit: int | None = None) -> list[tuple[int, ...]]:
    """Return the first `limit` (None: all) grids of a file or catalogued set of classic
    9x9 grids; a source without any is an error, as in every command."""
    puzzles = read_puzzles(source, GEOMETRY, allow_conflicts=True)
    return [puzzle.grid for puzzle in itertools.islice(puzzles, limit)]


def read_givens(source: str, limit: int | None) -> list[list[int]]:
    """Return the givens of a file or catalogued set of classic grids, as literals."""
    return [given_literals(grid, GEOMETRY) for grid in read_grids(source, limit)]


def minisat_closure(solver: Minisat22, givens: list[int], num_vars: int) -> tuple[bool, list[int]]:
    """The depth-1 closure built on Minisat22.propagate: the baseline of question 2.

    Rounds over the unassigned literals: a hypothesis whose propagation fails is
    negated and added to the facts, until a round adds nothing."""
    facts = list(givens)
    ok, assigned = solver.propagate(assumptions=facts)
    if not ok:
        return False, []
    changed = True
    while changed:
        changed = False
        known = {abs(lit) for lit in assigned}
        for var in range(1, num_vars + 1):
            if var in known:
                continue
            for lit in (var, -var):
                if not solver.propagate(assumptions=[*facts, lit])[0]:
                    facts.append(-lit)
                    ok, assigned = solver.propagate(assumptions=facts)
                    if not ok:
                        return False, []
                    known = {abs(x) for x in assigned}
                    changed = True
                    break
    return True, assigned


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.3f} ms"


def timed(call: Callable[[], object]) -> tuple[float, object]:
    call()  # warm-up on the same input: compilation, caches
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
    seconds, answers = [], []
    for givens in tqdm(grids, desc=label, disable=quiet, leave=False, file=sys.stderr):
        elapsed, answer = timed(lambda g=givens: call(g))
        seconds.append(elapsed)
        answers.append(answer)
    return seconds, answers


BATCH = 1000  # grids per Engine.propagate_batch call
PROG = "benchmarks speed"
DEEPER_SET = "mith-te3-1000"  # the catalogue's sample of mith's T&E(3) grids


def target_line(label: str, value: float, target: float, unit: str = "x", at_most=True) -> str:
    """Return '   label: value (target <= t: met|not met)'."""
    met = value <= target if at_most else value >= target
    sign = "<=" if at_most else ">="
    shown = f"{value:.2f}{unit}" if unit == "x" else f"{value:.3f} {unit}"
    wanted = f"{target:g}{unit}" if unit == "x" else f"{target:g} {unit}"
    return f"   {label}: {shown} (target {sign} {wanted}: {'met' if met else 'not met'})"


def batch_arrays(grids: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Return the givens of many grids as one flat array and its offsets."""
    offsets = np.zeros(len(grids) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(g) for g in grids])
    flat = np.fromiter((lit for g in grids for lit in g), dtype=np.int64, count=int(offsets[-1]))
    return flat, offsets


def fingerprint(ok: bool, literals: Sequence[int]) -> tuple:
    """Return a cheap summary of an answer: ok, count, sum and sum of squares."""
    return ok, len(literals), sum(literals), sum(lit * lit for lit in literals)


def batch_seconds(engine, seventeen: list[list[int]], answers: list) -> float:
    """Return the time of `Engine.propagate_batch` over the grids, BATCH a call, after
    checking its answers against `answers` (those of single calls)."""
    flat, offsets = batch_arrays(seventeen)
    total = 0.0
    for start in range(0, len(seventeen), BATCH):
        stop = min(start + BATCH, len(seventeen))
        part = offsets[start : stop + 1]
        args = (flat[part[0] : part[-1]], part - part[0])
        elapsed, (ok, lits, at) = timed(lambda a=args: engine.propagate_batch(*a))
        total += elapsed
        for i in range(stop - start):  # the answers of one call per grid
            single = answers[start + i]
            if fingerprint(bool(ok[i]), lits[at[i] : at[i + 1]].tolist()) != fingerprint(*single):
                raise SystemExit(f"{PROG}: batch and single propagations differ on grid {i}")
    return total


C_REFERENCE_US = 0.5  # fsss2 / tdoku: singles to the fixpoint, SIMD, one core


def unit_propagation(engine, plain, minisat, seventeen, source: str, quiet: bool) -> list:
    """Question 1; return the engine's answers (ok, literals) per grid.  `plain` is the
    same formula in an engine without groups."""
    up_engine, up_plain, up_minisat, answers = [], [], [], []
    # Grid by grid, one side then the other, so a change of machine load hits all.
    for givens in tqdm(seventeen, desc="UP", disable=quiet, leave=False, file=sys.stderr):
        elapsed, answer = timed(lambda g=givens: engine.propagate(g))
        up_engine.append(elapsed)
        answers.append(answer)
        elapsed, (ok, lits) = timed(lambda g=givens: minisat.propagate(assumptions=g))
        up_minisat.append(elapsed)
        if (ok, set(lits)) != (answer[0], set(answer[1])):
            raise SystemExit(f"{PROG}: engine and Minisat22 propagations differ on {givens}")
        elapsed, (ok, lits) = timed(lambda g=givens: plain.propagate(g))
        up_plain.append(elapsed)
        if (ok, set(lits)) != (answer[0], set(answer[1])):
            raise SystemExit(f"{PROG}: engine with and without groups differ on {givens}")
    per_grid = batch_seconds(engine, seventeen, answers) / len(seventeen)
    plain_per_grid = batch_seconds(plain, seventeen, answers) / len(seventeen)
    up_solved = sum(ok and solved(lits) for ok, lits in answers)
    minisat_mean = sum(up_minisat) / len(up_minisat)
    print(f"\n1. unit propagation of the givens, {len(seventeen)} grids of {source}")
    print(f"   engine.propagate        median {median(up_engine) * 1e6:7.1f} us per call "
          f"(without groups {median(up_plain) * 1e6:.1f} us)")  # fmt: skip
    print(f"   engine.propagate_batch  mean   {per_grid * 1e6:7.1f} us per grid "
          f"({BATCH} grids a call, answers as arrays; without groups "
          f"{plain_per_grid * 1e6:.1f} us)")  # fmt: skip
    print(f"   Minisat22.propagate     median {median(up_minisat) * 1e6:7.1f} us per call, "
          f"mean {minisat_mean * 1e6:.1f} us  (baseline)")  # fmt: skip
    print(f"   C reference (fsss2, tdoku; SIMD, for scale): about {C_REFERENCE_US} us a "
          f"propagation, {C_REFERENCE_US / (minisat_mean * 1e6):.3f}x Minisat22 here")  # fmt: skip
    per_call = median(up_engine) / median(up_minisat)
    print(target_line("per call, engine / Minisat22 (medians)", per_call, 0.5))
    print(
        target_line("per grid in batch, engine / Minisat22 (means)", per_grid / minisat_mean, 0.2)
    )
    print(f"   solved by UP alone: {up_solved}/{len(seventeen)} = {up_solved / len(seventeen):.2%}")
    return answers


def depth_one(engine, minisat, formula, seventeen, up_answers, args, quiet: bool) -> None:
    """Question 2: the depth-1 closure against the same closure over Minisat22.propagate."""
    sample = seventeen[: args.baseline_limit]
    fl_engine, fl_answers = per_grid("depth 1 engine", seventeen, engine.probe, quiet)
    fl_baseline, base_answers = per_grid(
        "depth 1 Minisat22", sample, lambda g: minisat_closure(minisat, g, formula.num_vars), quiet
    )
    for (ok, lits), (base_ok, base_lits) in zip(fl_answers, base_answers, strict=False):
        if (ok, set(lits)) != (base_ok, set(base_lits)):
            raise SystemExit(f"{PROG}: engine and baseline closures differ")
    fl_solved = sum(ok and solved(lits) for ok, lits in fl_answers)
    all_median_us = median(fl_engine) * 1e6
    # Half of the 17-clue grids are solved by UP, where both sides do the same single
    # propagation; the closure's own work is on the others, so report them apart.
    open_rows = [i for i in range(len(sample)) if not solved(up_answers[i][1])]
    engine_open = [fl_engine[i] for i in open_rows]
    baseline_open = [fl_baseline[i] for i in open_rows]
    name = set_name(args.seventeen)
    print(f"\n2. failed-literal closure (depth 1), {len(seventeen)} grids of {name}")
    print(f"   engine.probe(depth=1)  median {ms(median(fl_engine))}, worst {ms(max(fl_engine))}")
    print(f"   solved by depth 1: {fl_solved}/{len(seventeen)} = {fl_solved / len(seventeen):.2%}")
    print(f"   against the baseline, on the first {len(sample)} grids (closures identical):")
    rows = [("all grids", fl_engine[: len(sample)], fl_baseline)]
    if open_rows:  # a sample that UP solves whole leaves the closure nothing to do
        rows.append((f"the {len(open_rows)} grids UP leaves open", engine_open, baseline_open))
    for label, engine_times, baseline_times in rows:
        speedup = median(baseline_times) / median(engine_times)
        total = sum(baseline_times) / sum(engine_times)
        print(f"     {label}: engine median {ms(median(engine_times))}, "
              f"Python + Minisat22.propagate median {ms(median(baseline_times))}; "
              f"speed-up {speedup:.1f}x on medians, {total:.1f}x on total time")  # fmt: skip
    if open_rows:
        speedup = median(baseline_open) / median(engine_open)
        print(target_line("speed-up where the closure works (open grids, medians)", speedup, 10,
                          at_most=False))  # fmt: skip
    else:
        print("   target >= 10x on open grids: not measured (UP solves every grid of the sample)")
    print(target_line("depth-1 closure median, all grids", all_median_us, 10, "us"))


def deeper(engine, grids, depth: int, source: str, targets: tuple[float, float], number: str,
           quiet: bool, solver: Minisat22 | None = None):  # fmt: skip
    """Question 3: the median time per grid of the depth-`depth` closure, and of the
    depth rating (closures of depth 0, 1, ... until one fills the grid) up to it, against
    their targets (ms); with a `solver`, its `solve` median on the same grids too."""
    target_ms, rating_target_ms = targets
    times, answers = per_grid(
        f"depth {depth} engine", grids, lambda g: engine.probe(g, depth), quiet
    )
    solve_times = []
    if solver is not None:  # each grid's first solve: a second one reuses its learnt clauses
        for givens in tqdm(grids, desc="Minisat22.solve", disable=quiet, leave=False):
            start = time.perf_counter()
            solver.solve(assumptions=givens)
            solve_times.append(time.perf_counter() - start)
    done = sum(ok and solved(lits) for ok, lits in answers)
    rater = Rater(GEOMETRY)
    values = np.zeros((len(grids), CELLS), dtype=np.int8)
    for row, givens in zip(values, grids, strict=True):
        cells, held = cell_value(np.asarray(givens), GEOMETRY.size)
        row[cells] = held
    rater.ladder(values[:1], depth)  # compiled or loaded before anything is timed
    ratings = rater.ladder(values, depth)
    rated = Counter(ladder_labels(ratings, depth))
    print(f"\n{number} depth-{depth} closure, {len(grids)} grids of {source}")
    print(f"   engine.probe(depth={depth})  median {ms(median(times))}, worst {ms(max(times))}; "
          f"solved by depth {depth}: {done}/{len(grids)}")  # fmt: skip
    print(f"   depth rating up to {depth} (Rater.ladder)  median "
          f"{ms(float(np.median(ratings.seconds)))}, worst {ms(float(ratings.seconds.max()))}; "
          f"depths {dict(sorted(rated.items()))}")  # fmt: skip
    print(target_line(f"depth-{depth} closure median", median(times) * 1e3, target_ms, "ms"))
    if solve_times:
        print(f"   Minisat22.solve (a reused solver, givens as assumptions, first call on each "
              f"grid)  median "
              f"{ms(median(solve_times))}")  # fmt: skip
        ratio = median(times) / median(solve_times)
        print(target_line(f"depth-{depth} closure / Minisat22.solve (medians)", ratio, 1.0))
    rating_ms = float(np.median(ratings.seconds)) * 1e3
    print(target_line(f"depth rating up to {depth}, median", rating_ms, rating_target_ms, "ms"))


def same_answers(label: str, first: list, second: list) -> None:
    """Stop the benchmark when two sides' answers (ok, literals) differ on a grid."""
    for i, ((ok, lits), (other_ok, other_lits)) in enumerate(zip(first, second, strict=True)):
        if ok != other_ok or set(lits) != set(other_lits):
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


def board_values(grids: list[list[int]]) -> np.ndarray:
    """Return grids given as literals as rows of N*N values (0 for a blank)."""
    values = np.zeros((len(grids), CELLS), dtype=np.int8)
    for row, givens in zip(values, grids, strict=True):
        cells, held = cell_value(np.asarray(givens), GEOMETRY.size)
        row[cells] = held
    return values


def ladder_medians(rater, values: np.ndarray, depth: int) -> tuple[float, object]:
    """Return the median kernel time per grid (ms) of a depth rating and its ratings."""
    rater.ladder(values[:1], GEOMETRY.size, depth)  # compiled or loaded first
    ratings = rater.ladder(values, GEOMETRY.size, depth)
    return float(np.median(ratings.seconds)) * 1e3, ratings


def board_speed(seventeen, hardest, deepest, names: tuple[str, str, str], quiet: bool) -> None:
    """Question 8: the bit-parallel board (`solvers.board_engine`, which `Rater` uses on
    this formula) beside the trail engine (watched literals, no groups) and Minisat22 on
    the issue's targets, every answer checked equal across the sides."""
    from solvers.board_engine import BoardEngine

    seventeen_name, hardest_name, deeper_name = names
    board = BoardEngine(GEOMETRY)
    rules = GridEngine(GEOMETRY)
    engine = rules.engine
    print(f"\n8. the bit-parallel board (solvers.bitboard) beside the trail engine; load "
          f"average {load()}")  # fmt: skip
    with Minisat22(bootstrap_with=rules.formula.clauses) as minisat:
        calls = {
            "board": board.propagate,
            "engine": engine.propagate,
            "minisat": lambda g: minisat.propagate(assumptions=g),
        }
        up = alternating("UP board", seventeen, calls, quiet)
        values = board_values(seventeen)
        batch = 0.0
        for start in range(0, len(values), BATCH):  # best of three: a call is milliseconds
            part = values[start : start + BATCH]
            batch += min(timed(lambda v=part: board.propagate_batch(v))[0] for _ in range(3))
        minisat_mean = sum(up["minisat"]) / len(up["minisat"])
        print(f"   a. unit propagation of the givens, {len(seventeen)} grids of {seventeen_name}")
        print(f"      medians per call: board {median(up['board']) * 1e6:.1f} us, engine "
              f"{median(up['engine']) * 1e6:.1f} us, Minisat22 {median(up['minisat']) * 1e6:.1f}"
              f" us; board in batch {batch / len(values) * 1e6:.2f} us per grid ({BATCH} a "
              f"call, candidate words as arrays)")  # fmt: skip
        ratio = median(up["board"]) / median(up["minisat"])
        print(target_line("   per call, board / Minisat22 (medians)", ratio, 0.5))
        ratio = batch / len(values) / minisat_mean
        print(target_line("   per grid in batch, board / Minisat22 (means)", ratio, 0.2))
        one = alternating(
            "depth 1 board",
            seventeen,
            {"board": lambda g: board.probe(g, 1), "engine": lambda g: engine.probe(g, 1)},
            quiet,
        )
        rating_ms, _ = ladder_medians(board, values, 1)
        print(f"   b. depth-1 closure, {len(seventeen)} grids of {seventeen_name}: medians board "
              f"{median(one['board']) * 1e6:.1f} us, engine {median(one['engine']) * 1e6:.1f} us"
              f" (board / engine {median(one['board']) / median(one['engine']):.2f}x); the "
              f"board's depth rating up to 1, kernel time {rating_ms * 1e3:.1f} us")  # fmt: skip
        print(target_line("   depth-1 closure median, board", median(one["board"]) * 1e6, 10, "us"))
        two = alternating(
            "depth 2 board",
            hardest,
            {"board": lambda g: board.probe(g, 2), "engine": lambda g: engine.probe(g, 2)},
            quiet,
        )
        solve_times = []
        for givens in hardest:  # each grid's first solve, a reused solver, as in 3a
            start = time.perf_counter()
            minisat.solve(assumptions=givens)
            solve_times.append(time.perf_counter() - start)
    board_ms, engine_ms = median(two["board"]) * 1e3, median(two["engine"]) * 1e3
    solve_ms = median(solve_times) * 1e3
    print(f"   c. depth-2 closure, {len(hardest)} grids of {hardest_name}: medians board "
          f"{board_ms:.3f} ms, engine {engine_ms:.3f} ms (board / engine "
          f"{board_ms / engine_ms:.2f}x), Minisat22.solve {solve_ms:.3f} ms")  # fmt: skip
    print(target_line("   depth-2 closure median, board", board_ms, 1.0, "ms"))
    ratio = median(two["board"]) / median(solve_times)
    print(target_line("   depth-2 closure / Minisat22.solve (medians), board", ratio, 1.0))
    if not deepest:
        print("   d. depth rating up to 3: not measured (no depth-3 set; --deeper FILE)")
        return
    values = board_values(deepest)
    board_ms, board_ratings = ladder_medians(board, values, 3)
    engine_ms, engine_ratings = ladder_medians(engine, values, 3)
    if board_ratings.depth.tolist() != engine_ratings.depth.tolist():
        raise SystemExit(f"{PROG}: board and engine ratings differ on {deeper_name}")
    print(f"   d. depth rating up to 3, {len(deepest)} grids of {deeper_name}: kernel-time "
          f"medians board {board_ms:.3f} ms, engine {engine_ms:.3f} ms (board / engine "
          f"{board_ms / engine_ms:.2f}x); depths "
          f"{dict(sorted(Counter(ladder_labels(board_ratings, 3)).items()))}")  # fmt: skip
    print(target_line("   depth rating up to 3, median, board", board_ms, 10.0, "ms"))
    print("   (question 4's `solvers rate` rates on the board: Rater uses it on this formula)")


EASTER_MONSTER = "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"
BXB_SET = "berthier-eleven-te2"
ELEVEN_B2B = "12.4....945.....2...9.......6...58......6...7..19...5.3...78.........3....52...4."


def bxb_speed(every: int) -> None:
    """Question 7: the BxB rating's median on a sample of eleven's T&E(2) grids, Easter
    Monster, and how closely it keeps a time limit."""
    from solvers.bxb_rating import BxbRater

    rater = BxbRater(GEOMETRY)
    print(f"\n7. BxB rating of depth-2 grids (load average {load()})")

    def rate(grid: tuple[int, ...], limited: BxbRater = rater) -> tuple[float, float, str]:
        wall, cpu = time.perf_counter(), time.process_time()
        label = limited.rate(grid).label()
        return time.perf_counter() - wall, time.process_time() - cpu, label

    rate(parse_grid(ELEVEN_B2B, GEOMETRY))  # compiled or loaded before anything is timed
    try:
        sample = read_grids(BXB_SET)[::every]
    except GridError as error:
        print(f"   {BXB_SET}: not measured ({error})")
    else:
        times = [rate(grid) for grid in sample]
        walls, cpus = [t[0] for t in times], [t[1] for t in times]
        print(f"   {len(sample)} grids (every {every}th of {BXB_SET}): median "
              f"{median(walls):.3f} s wall, {median(cpus):.3f} s processor")  # fmt: skip
        print(target_line("BxB median a grid", median(walls), 1.0, "s"))
    wall, cpu, label = rate(parse_grid(EASTER_MONSTER, GEOMETRY))
    print(f"   Easter Monster: BxB {label}, {wall:.2f} s wall, {cpu:.2f} s processor")
    print(target_line("Easter Monster", wall, 10.0, "s"))
    deeper_source, no_deeper = find_deeper(None)
    if deeper_source is None:
        print(f"   time limit: not measured ({no_deeper})")
        return
    wall, _, label = rate(read_grids(deeper_source, 1)[0], BxbRater(GEOMETRY, time_limit=2.0))
    print(f"   time limit 2 s on a T&E(3) grid: {label} after {wall:.3f} s")
    print(target_line("time limit overshoot", wall / 2.0, 1.1))


def run_command(argv: list[str], stdout) -> tuple[float, float]:
    """Run a command of this project; return (wall seconds, peak RSS of its largest
    process in MiB, read from /proc while it runs: see timing.peak_mb)."""
    wall, _, peak = run_with_usage(argv, stdout)
    return wall, peak


def run_with_usage(argv: list[str], stdout) -> tuple[float, os.struct_rusage, float]:
    """Run a command of this project; return (wall seconds, its resource usage, its
    peak resident set in MiB)."""
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-m", *argv], stdout=stdout, stderr=subprocess.PIPE)
    peak = 0.0
    while True:  # the peak is read between waits: ru_maxrss would carry ours
        peak = peak_mb(child.pid, peak, descendants=True)
        done, status, usage = os.wait4(child.pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.02)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    errors = child.stderr.read().decode(errors="replace") if child.stderr else ""
    if child.returncode != 0:
        raise SystemExit(f"{PROG}: {' '.join(argv)} failed ({child.returncode}): {errors[-500:]}")
    return wall, usage, peak


ONE_WORKER = ("--workers", "1")


def rate_run(
    path: Path, folder: Path, where: Sequence[str] = ONE_WORKER, length: bool = False
) -> tuple[float, float, float, int]:
    """Run `solvers rate --max-depth 1` on a file, with `--no-length` unless `length`,
    on the workers `where` names (executor flags): (wall, peak MiB, summed kernel s,
    grids)."""
    out = folder / "rate.out"
    with open(out, "wb") as handle:
        argv = ["solvers", "rate", str(path), "--max-depth", "1", "--quiet"]
        argv += [] if length else ["--no-length"]
        wall, peak = run_command([*argv, *where], handle)
    kernel, grids = 0.0, 0
    with open(out, encoding="utf-8") as handle:
        for line in handle:
            kernel += float(line.rsplit("\t", 1)[1])
            grids += 1
    return wall, peak, kernel, grids


def harness_run(
    path: Path, folder: Path, where: Sequence[str] = ONE_WORKER, length: bool = False
) -> tuple[float, float, float, int]:
    """Run `benchmarks run` with up, fl, minisat22 on a file, with `--length` when
    `length`, on the workers `where` names: (wall, peak MiB, summed solver-call
    seconds, grids)."""
    out = folder / "run"
    argv = ["benchmarks", "run", str(path), "--solvers", "up,fl,minisat22", "--quiet"]
    argv += ["--length"] if length else []
    wall, peak = run_command([*argv, *where, "--out", str(out)], subprocess.DEVNULL)
    summaries = json.loads((out / "results.json").read_text(encoding="utf-8"))["summaries"]
    calls = sum(s["seconds_total"] for s in summaries)
    return wall, peak, calls, max(s["grids"] for s in summaries)


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


def commands(source: str, lines: list[str], folder: Path) -> None:
    """Question 4: the commands' wall time against their kernels' (one worker)."""
    grids = folder / "grids.txt"
    one = folder / "one.txt"
    grids.write_text("".join(lines), encoding="utf-8")
    one.write_text(lines[0], encoding="utf-8")
    print(f"\n4. the commands against their kernels, one worker, {len(lines)} grids of {source}")
    start_up, _, _, _ = rate_run(one, folder)
    wall, _, kernel, rated = rate_run(grids, folder)
    speed = rated / max(wall - start_up, 1e-9)
    print(f"   solvers rate --max-depth 1 --no-length: wall {wall:.2f} s, start-up "
          f"{start_up:.2f} s, summed kernel time {kernel:.2f} s "
          f"({speed:,.0f} grids/s)")  # fmt: skip
    print(target_line("(wall - start-up) / kernel time", (wall - start_up) / kernel, 1.5))
    loop = minisat_loop(read_givens(str(grids), None))
    print(f"   a Minisat22.propagate loop over the same grids: {loop:.2f} s")
    print(target_line("rate --no-length wall (start-up included) / that loop", wall / loop, 0.5))
    # The targets were set for the depth rating; the refutation-length rating (the
    # default) is measured too, for information (its seconds count both ratings).
    start_up, _, _, _ = rate_run(one, folder, length=True)
    wall, _, kernel, rated = rate_run(grids, folder, length=True)
    speed = rated / max(wall - start_up, 1e-9)
    print(f"   with the refutation-length rating (the default): wall {wall:.2f} s, "
          f"summed kernel time {kernel:.2f} s ({speed:,.0f} grids/s), (wall - start-up) / "
          f"kernel time {(wall - start_up) / kernel:.2f}")  # fmt: skip
    print(target_line("rate (default) grids/s", speed, 5000, "grids/s", at_most=False))
    start_up, _, _, _ = harness_run(one, folder)
    wall, _, calls, ran = harness_run(grids, folder)
    print(f"   benchmarks run --solvers up,fl,minisat22: wall {wall:.2f} s, start-up "
          f"{start_up:.2f} s, summed solver calls {calls:.2f} s ({ran} grids)")  # fmt: skip
    print(target_line("(wall - start-up) / solver-call time", (wall - start_up) / calls, 1.5))
    # The targets were set for the depth rating and the solver calls; the refutation-length
    # rating (the default) is measured too, for information.
    start_up, _, _, _ = harness_run(one, folder, length=True)
    wall, _, calls, ran = harness_run(grids, folder, length=True)
    print(f"   (no target) with the refutation-length rating (the default): wall {wall:.2f} s, "
          f"start-up {start_up:.2f} s, (wall - start-up) / solver-call time "
          f"{(wall - start_up) / calls:.2f}")  # fmt: skip


def at_scale(
    source: str, lines: list[str], sizes: list[int], folder: Path, places, lengths=(False,)
) -> None:
    """Question 5: grids/s and peak memory of rate and run over large files, on each of
    `places` ((what it is, executor flags)), without the refutation-length rating (False
    in `lengths`) and with it (True)."""
    print(f"\n5. at scale: the grids of {source} repeated")
    peaks: dict[str, list[float]] = {place: [] for place, _ in places}
    for size in sizes:
        path = folder / f"scale_{size}.txt"
        with open(path, "w", encoding="utf-8") as dst:
            for start in range(0, size, len(lines)):
                dst.writelines(lines[: min(len(lines), size - start)])
        for place, where in places:
            for command, run in SCALED_COMMANDS:
                for length in lengths:  # the targets' way, then the default
                    wall, peak, _, count = run(path, folder, where, length=length)
                    plain = " --no-length" if run is rate_run else ""  # run: --length adds it
                    what = (
                        "   (no target) the same with the refutation-length rating"
                        if length
                        else f"   {command}{plain}, {size:,} grids, {place}"
                    )
                    print(f"{what}: {count / wall:,.0f} grids/s ({wall:.1f} s), "
                          f"peak RSS {peak:,.0f} MiB", flush=True)  # fmt: skip
                    if run is rate_run and not length:
                        peaks[place].append(peak)
                        if size >= MILLION:
                            print(target_line(f"rate --no-length, {size:,} grids, {place}, wall",
                                              wall, 120 * size / MILLION, "s"))  # fmt: skip
        path.unlink()
    for place, seen in peaks.items():
        if len(seen) > 1:
            print(target_line(f"rate --no-length peak RSS, largest N / smallest N, {place}",
                              seen[-1] / seen[0], 1.25))  # fmt: skip


MILLION = 1_000_000


# Question 5's commands: what the line names, and how it is run.
SCALED_COMMANDS = (
    ("solvers rate --max-depth 1", rate_run),
    ("benchmarks run up,fl,minisat22", harness_run),
)


def set_name(source: str) -> str:
    """Return the name a source is shown by: a catalogue name, or a file's stem."""
    return open_source(source).name


def find_deeper(source: str | None) -> tuple[str | None, str]:
    """Return (the depth-3 grids, why there are none): the file or set given, else the
    catalogued sample of mith's T&E(3) grids when a verified copy is on this machine."""
    if source:
        return source, ""
    try:
        open_source(DEEPER_SET)
    except GridError as error:  # not here, or a copy with a wrong checksum
        return None, str(error)
    return DEEPER_SET, ""


def sizes(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected sizes such as 100000,1000000: {text!r}"
        ) from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive sizes: {text!r}")
    return values


PROOF_RUNS = 3  # runs of rate with and without --proof, alternated (medians)


def proof_rate_run(path: Path, folder: Path, proofs: Path | None) -> tuple[float, float]:
    """Run `solvers rate --no-length` on a file, writing its proofs into `proofs` (None:
    none); return (wall seconds, processor seconds: user + system)."""
    argv = ["solvers", "rate", str(path), "--no-length", "--quiet"]
    argv += [] if proofs is None else ["--proof", str(proofs)]
    with open(folder / "rate.out", "wb") as handle:
        wall, usage, _ = run_with_usage(argv, handle)
    return wall, usage.ru_utime + usage.ru_stime


def proof_figures(source: str, grids: list[tuple[int, ...]], folder: Path, check: int) -> None:
    """Question 6 on one list: rate with and without proofs, their size, checking them."""
    from encoder.dimacs import parse_cnf
    from encoder.emit import encode_dimacs
    from solvers.proof_check import PROOF_SECTION, check_proof, parse_proof

    path, one = folder / "grids.txt", folder / "one.txt"
    lines = grid_lines(grids)
    path.write_text("".join(lines), encoding="utf-8")
    one.write_text(lines[0], encoding="utf-8")
    proofs = folder / "proofs.drup"
    start_up, start_up_cpu = proof_rate_run(one, folder, None)
    start_up_with, start_up_with_cpu = proof_rate_run(one, folder, proofs)
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(PROOF_RUNS):  # alternated, so that a change of load hits both
        for proving in (False, True):
            runs[proving].append(proof_rate_run(path, folder, proofs if proving else None))
    without, with_proofs = (median([wall for wall, _ in runs[p]]) for p in (False, True))
    cpu_without, cpu_with = (median([cpu for _, cpu in runs[p]]) for p in (False, True))
    sections = proofs.read_text(encoding="utf-8").split(PROOF_SECTION)[1:]
    by_grid = dict(section.split("\n", 1) for section in sections)  # "N": its proof
    sizes = [len(section) for section in sections]
    print(f"   {source}, {len(grids)} grids: median wall of {PROOF_RUNS} runs {without:.2f} s "
          f"without --proof, {with_proofs:.2f} s with (start-up {start_up:.2f} s / "
          f"{start_up_with:.2f} s); "
          f"{len(sections)} proofs in one file, {sum(sizes) / 1e6:.1f} MB, median "
          f"{median(sizes):.0f} "
          f"bytes, largest {max(sizes)}")  # fmt: skip
    # The target is on processor time: on a machine shared with other jobs the wall time
    # measures the queue for the processor too.  The wall ratio is printed beside it.
    ratio = (cpu_with - start_up_with_cpu) / max(cpu_without - start_up_cpu, 1e-9)
    wall_ratio = (with_proofs - start_up_with) / max(without - start_up, 1e-9)
    print(f"   processor time (user + system) {cpu_without:.2f} s without, {cpu_with:.2f} s "
          f"with; walls less start-up, with / without: {wall_ratio:.2f}x")  # fmt: skip
    print(target_line("with / without --proof (processor time less start-up)", ratio, 1.5))
    times, lemmas, verified = [], [], 0
    for index, grid in enumerate(grids[:check]):
        if str(index) not in by_grid:  # not settled by the rating: no proof
            continue
        cnf = parse_cnf(encode_dimacs(grid, GEOMETRY))
        steps = parse_proof(by_grid[str(index)], "proof", cnf.num_vars)
        seconds, verdict = timed(lambda cnf=cnf, steps=steps: check_proof(cnf, steps, "proof"))
        times.append(seconds)
        lemmas.append(verdict.lemmas)
        verified += verdict.claim in ("one model", "unsatisfiable")
    print(f"   checking the first {len(times)}: {verified} verified, median "
          f"{ms(median(times))} a proof ({median(lemmas):.0f} lemmas), "
          f"total {sum(times):.2f} s")  # fmt: skip
    proofs.unlink()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks speed", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--seventeen", default="royle17", help="17-clue grids: a file or set name (royle17)"
    )
    parser.add_argument(
        "--hardest",
        default="forum-hardest-1106",
        help="grids for depth 2: a file or set name (forum-hardest-1106)",
    )
    parser.add_argument(
        "--deeper",
        help=f"grids for depth 3: a file or set name ({DEEPER_SET}; skipped when absent)",
    )
    parser.add_argument(
        "--limit", type=positive(int, zero=True), default=0, help="grids per set (0 = all)"
    )
    parser.add_argument(
        "--baseline-limit",
        type=positive(int),
        default=200,
        help="grids for the slow Python baseline",
    )
    parser.add_argument(
        "--skip-commands", action="store_true", help="skip question 4 (the commands)"
    )
    parser.add_argument(
        "--scale",
        type=sizes,
        default=[],
        metavar="N,...",
        help="question 5: rate and run over N grids each (e.g. 100000,1000000)",
    )
    parser.add_argument(
        "--scale-length",
        action="store_true",
        help="question 5: also with the refutation-length rating (the default; slow)",
    )
    parser.add_argument(
        "--workers",
        type=sizes,
        default=[2],
        metavar="K,...",
        help="question 5: local workers, each count in turn (e.g. 1,2; default 2)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="question 5: also on the Dask cluster of this scheduler (tcp://HOST:8786)",
    )
    parser.add_argument(
        "--skip-proofs", action="store_true", help="skip question 6 (rating with proofs)"
    )
    parser.add_argument(
        "--check-limit",
        type=positive(int),
        default=1000,
        metavar="N",
        help="question 6: proofs checked per list (default 1000)",
    )
    parser.add_argument(
        "--bxb-every", type=positive(int), default=50, metavar="K",
        help=f"question 7: every K-th grid of {BXB_SET} (default 50)",
    )  # fmt: skip
    parser.add_argument("--skip-bxb", action="store_true", help="skip question 7 (BxB)")
    parser.add_argument(
        "--skip-board", action="store_true", help="skip question 8 (the bit-parallel board)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bars")
    args = parser.parse_args(argv)
    # PySAT's calls here are made bare, to time them as they are; kept from PySAT's own
    # Ctrl-C handler (a longjmp that can leave from inside malloc), a Ctrl-C waits for
    # the call in progress to return.
    with sigint_kept_by_python():
        return measure(args)


def measure(args: argparse.Namespace) -> int:
    """Answer the questions `args` asks (see the module docstring); return 0."""
    quiet = args.quiet or not sys.stderr.isatty()
    seventeen_grids = read_grids(args.seventeen)  # bad input first
    # Sets are named as the catalogue names them (a file by its stem), never by the path
    # of one machine's copy.
    seventeen_name, hardest_name = set_name(args.seventeen), set_name(args.hardest)
    seventeen = [given_literals(grid, GEOMETRY) for grid in seventeen_grids[: args.limit or None]]
    hardest = read_givens(args.hardest, args.limit or None)
    deeper_source, no_deeper = find_deeper(args.deeper)
    deepest = read_givens(deeper_source, args.limit or None) if deeper_source else []
    rules = GridEngine(GEOMETRY, groups=True)
    formula, engine = rules.formula, rules.engine
    plain = Engine(formula.clauses, formula.num_vars, groups=False)
    minisat = Minisat22(bootstrap_with=formula.clauses)
    print(f"machine: {machine()}; load average at the start {load()}")
    print(f"formula: centrale, {formula.num_clauses} clauses; givens passed as assumptions")
    started = time.perf_counter()

    up_answers = unit_propagation(engine, plain, minisat, seventeen, seventeen_name, quiet)
    depth_one(engine, minisat, formula, seventeen, up_answers, args, quiet)
    deeper(engine, hardest, 2, hardest_name, (1.0, 1.0), "3a.", quiet, minisat)
    minisat.delete()
    if deepest:
        deeper(engine, deepest, 3, set_name(deeper_source), (15.0, 10.0), "3b.", quiet)
    else:
        print(f"\n3b. depth-3 closure: not measured ({no_deeper}; --deeper FILE)")
    if not args.skip_board:
        names = (seventeen_name, hardest_name, set_name(deeper_source) if deeper_source else "")
        board_speed(seventeen, hardest, deepest, names, quiet)
    lines = grid_lines(seventeen_grids)
    with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
        if not args.skip_commands:
            commands(seventeen_name, lines[: args.limit or None], Path(tmp))
        if args.scale:
            places = [(f"{k} local worker(s)", ("--workers", str(k))) for k in args.workers]
            if args.scheduler:
                dask = ("--executor", "dask", "--scheduler", args.scheduler)
                places.append((f"Dask cluster at {args.scheduler}", dask))
            lengths = (False, True) if args.scale_length else (False,)
            at_scale(seventeen_name, lines, args.scale, Path(tmp), places, lengths)
        if not args.skip_proofs:
            print("\n6. proofs: solvers rate --no-length (depth up to 2), one worker")
            limit = args.limit or None
            hardest_grids = read_grids(args.hardest, limit)
            for source, grids in ((seventeen_name, seventeen_grids[:limit]),
                                  (hardest_name, hardest_grids)):  # fmt: skip
                proof_figures(source, grids, Path(tmp), args.check_limit)
    if not args.skip_bxb:
        bxb_speed(args.bxb_every)
    print(f"\n{time.perf_counter() - started:.0f} s; load average at the end {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
