"""Question 14: search on the board (issue 44's targets).

- Counting to 2 (`Board.count`, DPLL in the C core, every grid of a set in one call):
  the kernel's time on each grid against `Minisat22.solve`'s (a reused solver, each
  grid's first call, as in 3a), medians of the same run, on each list (17-clue,
  forum-hardest, T&E(3)).  Every count is checked against Minisat22's answer: a grid it
  solves counts 1 or 2, a grid it refutes 0, and no count stops short.  No target: the
  same counts with intersections at each node, their decisions and time.
- Enumeration: every solution of ENUMERATED sparse 9x9 grids of ENUMERATED_GIVENS givens
  (random full grids emptied to that many, seed ENUMERATED_SEED), solutions a second.
- Whole processes, start-up included: `benchmarks unique` over the 17-clue list;
  `benchmarks generate --method minimal` of 1,000 9x9 puzzles, and of one 25x25 puzzle
  (stopped after GENERATE_25_LIMIT s: the figure is then a lower bound, and the target
  is not met); the exact study `benchmarks stats --exact --givens 21-60 --samples 300`
  on 2 workers (minutes; `--skip-exact-study` skips it).
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from pysat.solvers import Minisat22

from benchmarks.paths import PROJECT, load
from benchmarks.speed.common import GEOMETRY, PROG, board_values, minisat_solves
from benchmarks.speed.record import Record
from benchmarks.speed.runs import repeated, run_command
from benchmarks.timing import median
from encoder.encodings import rule_formula

ENUMERATED, ENUMERATED_GIVENS, ENUMERATED_SEED = 40, 24, 1
GENERATED = 1000
INTERSECTIONS_RUNS = 5
GENERATE_25_LIMIT = 120.0  # seconds: past it the 25x25 generation is stopped
EXACT_STUDY = ("--givens", "21-60", "--samples", "300", "--exact", "--workers", "2")


def count_to_two(lists: list[tuple[str, list]], quiet: bool, record: Record) -> None:
    """Counting to 2 against Minisat22.solve, per list of grids (givens as literals)."""
    from solvers.core.board import Board
    from solvers.core.extension import STATUS_EXHAUSTED, STATUS_FOUND

    board = Board(GEOMETRY)
    measured = set()
    for name, grids in lists:
        if name in measured:  # one file given for two lists: measured once
            continue
        measured.add(name)
        values = board_values(grids)
        counts = board.count(values, 2)
        models: list = []
        with Minisat22(bootstrap_with=rule_formula(GEOMETRY).clauses) as minisat:
            solve_times = minisat_solves(minisat, grids, quiet, models)
        ended = (counts.status == STATUS_EXHAUSTED) | (counts.status == STATUS_FOUND)
        agree = (counts.models > 0) == np.array([m is not None for m in models])
        if not (ended.all() and agree.all()):
            raise SystemExit(f"{PROG}: Board.count and Minisat22.solve disagree on {name}")
        count_us, solve_us = median(counts.seconds.tolist()) * 1e6, median(solve_times) * 1e6
        record.figure(f"14.count2.{name}.median", count_us, "us")
        record.figure(f"14.minisat22_solve.{name}.median", solve_us, "us")
        total = float(counts.seconds.sum())
        print(f"   {name}, {len(grids):,} grids: counting to 2 {count_us:.1f} us a grid "
              f"(median; {len(grids) / total:,.0f} grids/s in all), Minisat22.solve "
              f"{solve_us:.1f} us; {int((counts.models == 2).sum())} with 2 or more")  # fmt: skip
        print(record.target("count2-vs-solve", count_us / solve_us, name))
        intersections(board, values, counts, name, record)


def intersections(board, values: np.ndarray, plain, name: str, record: Record) -> None:
    """The same count with intersections at each node (`Board.count`'s opt-in, a part
    of the depth-1 lookahead): decisions a grid and kernel time against singles alone,
    each count the best of INTERSECTIONS_RUNS (the counts must be the same)."""
    runs = {False: [plain], True: []}
    for _ in range(INTERSECTIONS_RUNS):
        for locked in (False, True):
            runs[locked].append(board.count(values, 2, intersections=locked))
    if any((r.models != plain.models).any() for r in runs[True]):
        raise SystemExit(f"{PROG}: intersections changed a count on {name}")
    best = {k: min(float(r.seconds.sum()) for r in v) for k, v in runs.items()}
    ratio = best[True] / best[False]
    record.figure(f"14.intersections.{name}.ratio", ratio, "x")
    print(f"   (no target) with intersections, {name}: "
          f"{float(runs[True][0].decisions.mean()):.1f} decisions a grid against "
          f"{float(plain.decisions.mean()):.1f}, kernel time {ratio:.2f}x singles alone "
          f"(best of {INTERSECTIONS_RUNS} each)")  # fmt: skip


def enumeration(record: Record) -> None:
    """Every solution of sparse 9x9 grids, solutions a second of kernel time."""
    from puzzles.fullgrid import sampler_for
    from puzzles.generation import remove_givens
    from solvers.core.board import Board

    rng = random.Random(ENUMERATED_SEED)
    sampler = sampler_for(GEOMETRY)
    grids = [remove_givens(sampler.random_completion(rng), ENUMERATED_GIVENS, rng)
             for _ in range(ENUMERATED)]  # fmt: skip
    counts = Board(GEOMETRY).count(np.array(grids, np.int8), None)
    solutions, seconds = int(counts.models.sum()), float(counts.seconds.sum())
    record.figure("14.enumerate.solutions", solutions, "solutions")
    record.figure("14.enumerate.seconds", seconds, "s")
    print(f"   enumeration: {ENUMERATED} grids of {ENUMERATED_GIVENS} givens (seed "
          f"{ENUMERATED_SEED}), {solutions:,} solutions in {seconds:.2f} s")  # fmt: skip
    print(record.target("enumerate-rate", solutions / seconds, f"{ENUMERATED} grids"))


def commands(source: str, lines: list[str], folder: Path, exact: bool, record: Record) -> None:
    """The commands that count, as whole processes."""
    path = repeated(lines, len(lines), folder / "unique_list.txt")
    wall, _ = run_command(["benchmarks", "unique", str(path)], subprocess.DEVNULL)
    path.unlink()
    record.figure("14.unique.wall", wall, "s")
    print(f"   benchmarks unique, {source} ({len(lines):,} grids): {wall:.2f} s")
    print(record.target("unique-list", wall, source))
    generate = ["benchmarks", "generate", "--method", "minimal", "--seed", "1", "--quiet"]
    wall, _ = run_command([*generate, "--count", str(GENERATED)], subprocess.DEVNULL)
    record.figure("14.generate9.wall", wall, "s")
    print(f"   benchmarks generate --method minimal --count {GENERATED:,}: {wall:.2f} s")
    print(record.target("generate-minimal-9x9", wall, f"{GENERATED:,} puzzles"))
    start = time.perf_counter()
    argv = [sys.executable, "-m", *generate, "--count", "1", "--size", "25"]
    try:
        subprocess.run(argv, cwd=PROJECT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=GENERATE_25_LIMIT, check=True)  # fmt: skip
        wall, note = time.perf_counter() - start, ""
    except subprocess.TimeoutExpired:
        wall, note = GENERATE_25_LIMIT, f" (stopped at {GENERATE_25_LIMIT:g} s: a lower bound)"
    record.figure("14.generate25.wall", wall, "s")
    print(f"   benchmarks generate --method minimal --size 25 --count 1: {wall:.1f} s{note}")
    print(record.target("generate-minimal-25x25", float("nan") if note else wall, "one puzzle"))
    if not exact:
        record.skipped("stats-exact: --skip-exact-study")
        return
    wall, _ = run_command(["benchmarks", "stats", *EXACT_STUDY, "--quiet"], subprocess.DEVNULL)
    record.figure("14.stats_exact.wall", wall, "s")
    print(f"   benchmarks stats {' '.join(EXACT_STUDY)}: {wall:.1f} s; load average {load()}")
    print(record.target("stats-exact", wall, "givens 21-60, 300 samples"))


def board_search(
    lists: list[tuple[str, list]],
    source: str,
    lines: list[str],
    folder: Path | None,
    exact: bool,
    quiet: bool,
    record: Record,
) -> None:
    """Question 14 (the module docstring); the commands only with a `folder`."""
    print(f"\n14. search on the board (Board.count, DPLL in the C core); load average {load()}")
    count_to_two(lists, quiet, record)
    enumeration(record)
    if folder is None or not lines:
        record.skipped("unique-list, generate-minimal-*, stats-exact: no commands")
        return
    commands(source, lines, folder, exact, record)
