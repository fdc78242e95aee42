"""Question 9: the native core (`solvers.core`, C, through its Python face) on issue
34's targets, against Minisat22 in the same run or against an absolute bound, every
answer checked against Minisat22's (the parts are lettered b to g; a part's letter is
its name in docs/speed.md and in the records' prose):

b. unit propagation of the 17-clue givens: one `Board.propagate` call from Python
   against `Minisat22.propagate` (medians), and `Board.propagate_batch`, 1,000 grids a
   call, per grid (Minisat22's mean per call beside);
c. the depth-1 closure in batch: `Board.depths` to depth 1 over the 17-clue list in one
   call, each grid's kernel time (unit propagation, then the closure where it leaves the
   grid open); `Board.probe(depth=1)` per call beside it;
d. the depth-2 closure of the forum's hardest, `Board.probe` per call, alone and against
   `Minisat22.solve`'s median (every literal of a closure true in Minisat22's model);
e. the depth loop to 3 over mith's T&E(3) grids, each grid's kernel time;
f. the clause engine (`solvers.core.Clauses`) on other CNFs than the board's: unit
   propagation per call against `Minisat22.propagate` on the exam's formula and tdoku's
   augmented one (the 17-clue givens as assumptions) and on a random CNF (seeded random
   assumption sets);
g. the commands: `solvers rate --no-length` over the 17-clue list, whole wall time with
   start-up, against a `Minisat22.propagate` loop over the same grids; and `python -m
   solvers rate GRID --no-length` as a whole process (median of 5), the interpreter's own
   start-up beside it.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from pysat.solvers import Minisat22

from benchmarks.paths import load
from benchmarks.speed.common import (
    BATCH,
    GEOMETRY,
    PROG,
    alternating,
    board_values,
    grid_lines,
    minisat_loop,
    minisat_solves,
    per_grid,
    timed,
)
from benchmarks.speed.record import Record
from benchmarks.timing import median
from encoder.encodings import rule_formula
from encoder.numbering import cell_value
from solvers.ratings.depth import depth_labels

WHOLE_RUNS = 5  # runs of a whole process (medians)
RANDOM_CNF = (2000, 4000, 1000, 30)  # variables, ternary and binary clauses, assumptions
SEED = 34


def placed(literals) -> np.ndarray:
    """Return the cell values a propagation's literals place (0 for an open cell)."""
    n = GEOMETRY.size
    lits = np.asarray(literals, dtype=np.int64)
    cells, values = cell_value(lits[(lits > 0) & (lits <= n**3)], n)
    row = np.zeros(n * n, np.int8)
    row[cells] = values
    return row


def random_cnf(seed: int = SEED) -> tuple[list[list[int]], int, list[list[int]]]:
    """Return a seeded random CNF (ternary and binary clauses), its variable count and
    assumption sets for it."""
    variables, ternary, binary, assumed = RANDOM_CNF
    rng = random.Random(seed)

    def clause(width: int) -> list[int]:
        return [v * rng.choice((1, -1)) for v in rng.sample(range(1, variables + 1), width)]

    clauses = [clause(3) for _ in range(ternary)] + [clause(2) for _ in range(binary)]
    queries = [clause(assumed) for _ in range(1000)]
    return clauses, variables, queries


def whole_process(argv: list[str]) -> float:
    """Return the median wall time of WHOLE_RUNS runs of `python ARGV` (output dropped)."""
    times = []
    for _ in range(WHOLE_RUNS):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, *argv], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, check=False)  # fmt: skip
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"{PROG}: {' '.join(argv)} failed ({done.returncode}): "
                             f"{done.stderr.decode(errors='replace')[-500:]}")  # fmt: skip
    return median(times)


def native_core(seventeen, hardest, deepest, names: tuple[str, str, str], quiet: bool,
                record: Record, commands: Path | None) -> None:  # fmt: skip
    """Question 9 (see the module docstring); `commands`: the folder for part g's files,
    None to skip it.  A list that is empty (its set not on this machine) skips its parts
    with a line."""
    from solvers import core

    seventeen_name, hardest_name, deeper_name = names
    board = core.Board(GEOMETRY)
    print(f"\n9. the native core (solvers.core, C, variant {core.variant()}); load average "
          f"{load()}")  # fmt: skip
    if seventeen:
        propagation(board, seventeen, seventeen_name, quiet, record)
    else:
        for part, target, what in (("b", "core-up-batch", "unit propagation"),
                                   ("c", "core-fl-batch", "depth-1 closure")):  # fmt: skip
            skip(record, part, target, what, seventeen_name)
    if hardest:
        depth_two(board, hardest, hardest_name, quiet, record)
    else:
        skip(record, "d", "core-d2-closure", "depth-2 closure", hardest_name)
    if deepest:
        values = board_values(deepest)
        board.depths(values[:1], 3)  # a first call before anything is timed
        ours = board.depths(values, 3)
        core_ms = float(np.median(ours.seconds)) * 1e3
        record.figure("9.depth_loop_3.core.median", core_ms, "ms")
        print(f"   e. depth loop to 3, {len(deepest)} grids of {deeper_name}, one call: "
              f"kernel-time median {core_ms:.3f} ms; depths "
              f"{dict(sorted(Counter(depth_labels(ours, 3)).items()))}")  # fmt: skip
        print(record.target("core-d3-loop", core_ms, indent=6))
    else:
        skip(record, "e", "core-d3-loop", "depth loop to 3", deeper_name)
    clause_engine(seventeen, seventeen_name, quiet, record)
    if commands is None:
        record.skipped("rate-royle17, rate-one-grid: --skip-commands")
        print("   g. the commands: not measured (--skip-commands)")
    elif not seventeen:
        skip(record, "g", "rate-royle17", "solvers rate", seventeen_name)
    else:
        whole_commands(seventeen, seventeen_name, commands, record)


def skip(record: Record, part: str, target: str, what: str, source: str) -> None:
    record.skipped(f"{target}: {source or 'its set'} is not on this machine")
    print(f"   {part}. {what}: not measured ({source or 'its set'} is not on this machine)")


def propagation(board, seventeen, name: str, quiet: bool, record: Record) -> None:
    """Parts b and c: unit propagation per call and in batch; the depth-1 closure in
    batch (the depth loop to depth 1) and per call."""
    with Minisat22(bootstrap_with=rule_formula(GEOMETRY).clauses) as minisat:
        calls = {"core": board.propagate, "minisat": lambda g: minisat.propagate(assumptions=g)}
        up = alternating("UP core", seventeen, calls, quiet)
    values = board_values(seventeen)
    batch = 0.0
    for start in range(0, len(values), BATCH):  # best of three: a call is milliseconds
        part = values[start : start + BATCH]
        ok, filled = board.propagate_batch(part)
        single = [board.propagate(g) for g in seventeen[start : start + BATCH]]
        # The single calls' answers are Minisat22's (checked above).
        pairs = zip(filled, single, strict=True)
        if ok.tolist() != [int(fine) for fine, _ in single] or any(
            (row != placed(lits)).any() for row, (fine, lits) in pairs if fine
        ):
            raise SystemExit(f"{PROG}: the core's batch and single propagations differ")
        batch += min(timed(lambda v=part: board.propagate_batch(v))[0] for _ in range(3))
    core_us = batch / len(values) * 1e6
    medians = {side: median(up[side]) * 1e6 for side in up}
    minisat_mean = sum(up["minisat"]) / len(up["minisat"]) * 1e6
    for side, value in medians.items():
        record.figure(f"9.up.{side}.call.median", value, "us")
    record.figure("9.up.minisat.call.mean", minisat_mean, "us")
    record.figure("9.up.core.batch.mean", core_us, "us")
    print(f"   b. unit propagation of the givens, {len(seventeen)} grids of {name}: medians "
          f"per call core {medians['core']:.2f} us, Minisat22 {medians['minisat']:.2f} us "
          f"(mean {minisat_mean:.2f} us); in batch ({BATCH} a call) core {core_us:.2f} us "
          f"per grid")  # fmt: skip
    print(record.target("core-up-batch", core_us, indent=6))
    print(record.target("core-up-call", medians["core"] / medians["minisat"], indent=6))
    board.depths(values[:1], 1)  # a first call before anything is timed
    ours = board.depths(values, 1)
    one, _ = per_grid("depth 1 core", seventeen, lambda g: board.probe(g, 1), quiet)
    core_batch = float(np.median(ours.seconds)) * 1e6
    core_call = median(one) * 1e6
    record.figure("9.depth_1.core.batch.median", core_batch, "us")
    record.figure("9.depth_1.core.call.median", core_call, "us")
    print(f"   c. depth-1 closure, {len(seventeen)} grids of {name}: the depth loop to depth 1 in "
          f"one call, kernel-time median {core_batch:.2f} us; Board.probe(depth=1) per call, "
          f"median {core_call:.2f} us; depths "
          f"{dict(sorted(Counter(depth_labels(ours, 1)).items()))}")  # fmt: skip
    print(record.target("core-fl-batch", core_batch, indent=6))


def depth_two(board, hardest, name: str, quiet: bool, record: Record) -> None:
    """Part d: the depth-2 closure per call, against Minisat22.solve; every literal of a
    closure must be true in Minisat22's model of the grid."""
    two, answers = per_grid("depth 2 core", hardest, lambda g: board.probe(g, 2), quiet)
    models: list = []
    with Minisat22(bootstrap_with=rule_formula(GEOMETRY).clauses) as minisat:
        solve_times = minisat_solves(minisat, hardest, quiet, models)  # as in 3a
    for (ok, literals), model in zip(answers, models, strict=True):
        wrong = bool(ok) if model is None else not ok or not set(literals) <= set(model)
        if wrong:
            raise SystemExit(f"{PROG}: a depth-2 closure of the core contradicts Minisat22")
    core_ms, solve_ms = median(two) * 1e3, median(solve_times) * 1e3
    record.figure("9.depth_2.core.median", core_ms, "ms")
    record.figure("9.depth_2.minisat22_solve.median", solve_ms, "ms")
    print(f"   d. depth-2 closure, {len(hardest)} grids of {name}: medians core "
          f"{core_ms:.3f} ms, Minisat22.solve {solve_ms:.3f} ms")  # fmt: skip
    print(record.target("core-d2-closure", core_ms, indent=6))
    print(record.target("core-d2-vs-solve", core_ms / solve_ms, indent=6))


def clause_engine(seventeen, name: str, quiet: bool, record: Record) -> None:
    """Part f: the clause engine's unit propagation per call on several CNFs."""
    from solvers.core import Clauses

    cnfs = []
    if seventeen:
        for encoding in ("centrale", "augmented"):
            formula = rule_formula(GEOMETRY, encoding)
            cnfs.append((f"{encoding}, {name}'s givens", formula.clauses, formula.num_vars,
                         seventeen))  # fmt: skip
    clauses, variables, queries = random_cnf()
    cnfs.append((f"random CNF, {variables} variables, {len(clauses)} clauses, "
                 f"{len(queries)} sets of {RANDOM_CNF[3]} assumptions", clauses, variables,
                 queries))  # fmt: skip
    print("   f. the clause engine (solvers.core.Clauses), unit propagation per call:")
    for where, rules, num_vars, assumption_sets in cnfs:
        cnf = Clauses(rules, num_vars)
        with Minisat22(bootstrap_with=rules) as minisat:
            calls = {
                "core": cnf.propagate,
                "minisat": lambda g, m=minisat: m.propagate(assumptions=g),
            }
            times = alternating(f"UP {where.split(',')[0]}", assumption_sets, calls, quiet)
        medians = {side: median(times[side]) * 1e6 for side in times}
        key = where.split(",")[0].replace(" ", "_")
        for side, value in medians.items():
            record.figure(f"9.clauses.{key}.{side}.call.median", value, "us")
        print(f"      {where}: medians core {medians['core']:.2f} us, Minisat22 "
              f"{medians['minisat']:.2f} us")  # fmt: skip
        print(record.target("core-clauses-up", medians["core"] / medians["minisat"],
                            where.split(",")[0], indent=6))  # fmt: skip


def whole_commands(seventeen_grids, name: str, folder: Path, record: Record) -> None:
    """Part g: `solvers rate --no-length` over the list against a Minisat22.propagate
    loop, and one grid rated by a whole process."""
    lines = grid_lines([tuple(row) for row in board_values(seventeen_grids).tolist()])
    path = folder / "rate-grids.txt"
    path.write_text("".join(lines), encoding="utf-8")
    print("   g. the commands")
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "solvers", "rate", str(path), "--no-length",
                           "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          check=False)  # fmt: skip
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{PROG}: solvers rate failed: {done.stderr.decode()[-500:]}")
    loop = minisat_loop(seventeen_grids)
    record.figure("9.rate.wall", wall, "s")
    record.figure("9.rate.minisat22_loop", loop, "s")
    print(f"      solvers rate --no-length over {len(lines)} grids of {name}: wall {wall:.2f} s "
          f"(start-up included); a Minisat22.propagate loop over them {loop:.2f} s")  # fmt: skip
    print(record.target("rate-royle17", wall / loop, indent=6))
    grid = lines[0].strip()
    one = whole_process(["-m", "solvers", "rate", grid, "--no-length"])
    bare = whole_process(["-c", "pass"])
    record.figure("9.rate_one_grid.wall.median", one, "s")
    record.figure("9.python_start_up.median", bare, "s")
    print(f"      python -m solvers rate GRID --no-length: median of {WHOLE_RUNS} runs "
          f"{one:.3f} s; python -c pass {bare:.3f} s")  # fmt: skip
    print(record.target("rate-one-grid", one, indent=6))
