"""The speed questions answered in order, into one record (`benchmarks.speed.record`).

`measure(questions, record)` reads the sets first (bad input before anything is timed),
then asks each question its module answers (the list: `benchmarks.speed`): the engine's
questions on the exam's formula (1 to 3), the commands in a temporary folder (4 to 6,
and 13: the harness),
BxB (7), the native core (9), counting (10), the project as installed (11), the
README's main job (12) and search on the board (14).  A question whose set is not on
this machine is skipped, with a line and an entry of the record saying why.
`Questions` is what the flags of `python -m benchmarks speed` ask
(`benchmarks.speed.command`).
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.paths import load, machine
from benchmarks.speed.common import (
    DEEPER_SET,
    GEOMETRY,
    HARDEST_SET,
    SEVENTEEN_SET,
    grid_lines,
    public_set,
    read_givens,
    read_grids,
    set_name,
)
from benchmarks.speed.record import Record
from benchmarks.speed.targets import TARGETS
from encoder.encodings import given_literals


@dataclass(frozen=True)
class Questions:
    """What one run measures: the sets (a file or a set name; None: the default set),
    how many grids of each, and which questions to skip or add."""

    seventeen: str | None = None
    hardest: str | None = None
    deeper: str | None = None
    limit: int = 0  # grids per set, 0 = all
    baseline_limit: int = 200  # grids for the slow Python baseline
    skip_commands: bool = False
    scale: Sequence[int] = ()  # question 5: grids per run at scale
    scale_length: bool = False
    workers: Sequence[int] = (2,)  # question 5: local workers, each count in turn
    scheduler: str | None = None
    skip_proofs: bool = False
    check_limit: int = 1000
    bxb_every: int = 50
    skip_bxb: bool = False
    skip_core: bool = False
    skip_main_job: bool = False
    harness_sizes: Sequence[int] = (20_000, 200_000, 1_000_000)  # question 13
    skip_search: bool = False  # question 14
    skip_exact_study: bool = False
    skip_harness: bool = False
    install: bool = False
    quiet: bool = False


@dataclass
class Sets:
    """The grids each question reads, with their sets' names as the catalogue names them
    (a file by its stem, never by the path of one machine's copy)."""

    sources: dict  # --seventeen/--hardest/--deeper: (source or None, why it is absent)
    seventeen_grids: list
    seventeen: list  # the 17-clue grids' givens as literals
    hardest: list
    deepest: list
    names: tuple[str, str, str]


def read_sets(questions: Questions) -> Sets:
    """Return the grids of the three sets; a file that cannot be read fails here."""
    limit = questions.limit or None
    sources = {
        "seventeen": public_set(questions.seventeen, SEVENTEEN_SET),
        "hardest": public_set(questions.hardest, HARDEST_SET),
        "deeper": public_set(questions.deeper, DEEPER_SET),
    }
    seventeen_source, hardest_source, deeper_source = (s for s, _ in sources.values())
    seventeen_grids = read_grids(seventeen_source) if seventeen_source else []
    return Sets(
        sources=sources,
        seventeen_grids=seventeen_grids,
        seventeen=[given_literals(grid, GEOMETRY) for grid in seventeen_grids[:limit]],
        hardest=read_givens(hardest_source, limit) if hardest_source else [],
        deepest=read_givens(deeper_source, limit) if deeper_source else [],
        names=tuple(set_name(s) if s else "" for s, _ in sources.values()),
    )


def measure(questions: Questions, record: Record) -> None:
    """Answer the questions `questions` asks (see `benchmarks.speed`) into `record`."""
    from solvers.core.rules import GridRules

    quiet = questions.quiet or not sys.stderr.isatty()
    sets = read_sets(questions)  # bad input first, before anything is timed
    rules = GridRules(GEOMETRY)
    print(f"machine: {machine()}; load average at the start {load()}")
    print(f"formula: centrale, {rules.formula.num_clauses} clauses; givens passed as assumptions")
    for name, (source, why) in sets.sources.items():
        if source is None:
            record.skipped(f"--{name}: {why}")
            print(f"--{name}: not measured ({why})")
    started = time.perf_counter()
    engine_questions(rules, sets, questions, quiet, record)
    with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
        command_questions(sets, questions, Path(tmp), record)
    later_questions(sets, questions, quiet, record)
    met = sum(check["met"] for check in record.checks)
    print(f"\ntargets met: {met} of {len(record.checks)} checked "
          f"(benchmarks/speed/targets.py lists {len(TARGETS)})")  # fmt: skip
    print(f"{time.perf_counter() - started:.0f} s; load average at the end {load()}")


def engine_questions(rules, sets: Sets, questions: Questions, quiet: bool, record) -> None:
    """Questions 1 to 3: unit propagation, the depth-1 closure, the deeper closures."""
    from pysat.solvers import Minisat22

    from benchmarks.speed.deeper import deeper
    from solvers.core import Clauses

    formula, engine = rules.formula, rules.engine
    seventeen_name, hardest_name, deeper_name = sets.names
    minisat = Minisat22(bootstrap_with=formula.clauses)
    if sets.seventeen:
        from benchmarks.speed.depth_one import depth_one
        from benchmarks.speed.unit_propagation import unit_propagation

        clauses = Clauses(formula.clauses, formula.num_vars)
        up_answers = unit_propagation(engine, clauses, minisat, sets.seventeen, seventeen_name,
                                      quiet, record)  # fmt: skip
        depth_one(engine, minisat, formula, sets.seventeen, up_answers, seventeen_name,
                  questions.baseline_limit, quiet, record)  # fmt: skip
    else:
        print(f"\n1, 2. not measured (no 17-clue grids: --seventeen, {SEVENTEEN_SET})")
    if sets.hardest:
        deeper(engine, sets.hardest, 2, hardest_name, "3a.", quiet, record, minisat)
    else:
        print(f"\n3a. depth-2 closure: not measured (no grids: --hardest, {HARDEST_SET})")
    minisat.delete()
    if sets.deepest:
        deeper(engine, sets.deepest, 3, deeper_name, "3b.", quiet, record)
    else:
        why = sets.sources["deeper"][1]
        print(f"\n3b. depth-3 closure: not measured ({why}; --deeper FILE)")


def command_questions(sets: Sets, questions: Questions, tmp: Path, record: Record) -> None:
    """Questions 4 to 6 and 13, each a command run in `tmp`: rate and run, at scale,
    proofs, the harness at its kernels' speed."""
    limit = questions.limit or None
    seventeen_name, hardest_name, _ = sets.names
    lines = grid_lines(sets.seventeen_grids)
    if not lines:
        print("\n4-6, 13. the commands: not measured (no 17-clue grids)")
        return
    if not questions.skip_commands:
        from benchmarks.speed.commands import commands

        commands(seventeen_name, lines[:limit], tmp, record)
    if questions.scale:
        from benchmarks.speed.scale import at_scale

        places = [(f"{k} local worker(s)", ("--workers", str(k))) for k in questions.workers]
        if questions.scheduler:
            dask = ("--executor", "dask", "--scheduler", questions.scheduler)
            places.append((f"Dask cluster at {questions.scheduler}", dask))
        lengths = (False, True) if questions.scale_length else (False,)
        at_scale(seventeen_name, lines, questions.scale, tmp, places, lengths, record)
    if not questions.skip_proofs:
        from benchmarks.speed.proofs import proof_figures

        print("\n6. proofs: solvers rate --no-length (depth up to 2), one worker")
        lists = [(seventeen_name, sets.seventeen_grids[:limit])]
        hardest_source = sets.sources["hardest"][0]
        if hardest_source:
            lists.append((hardest_name, read_grids(hardest_source, limit)))
        for source, grids in lists:
            proof_figures(source, grids, tmp, questions.check_limit, record)
    if not questions.skip_harness:
        from benchmarks.speed.harness_speed import harness_speed

        harness_speed(seventeen_name, lines[:limit], tmp, record, questions.harness_sizes)
    else:
        record.skipped("run-vs-rate, harness-million, harness-memory-*: --skip-harness")


def later_questions(sets: Sets, questions: Questions, quiet: bool, record: Record) -> None:
    """Questions 7, 9 to 12 and 14: BxB, the native core, counting, the install, the main
    job, search on the board."""
    if not questions.skip_bxb:
        from benchmarks.speed.bxb import bxb_speed

        bxb_speed(questions.bxb_every, record)
    if not questions.skip_core:
        from benchmarks.speed.native import native_core

        with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
            folder = None if questions.skip_commands else Path(tmp)
            native_core(sets.seventeen, sets.hardest, sets.deepest, sets.names, quiet,
                        record, folder)  # fmt: skip
    if sets.hardest:
        from benchmarks.speed.counting import counting

        counting(sets.hardest, sets.names[1], quiet, record)
    else:
        record.skipped(f"count-vs-solve: {sets.sources['hardest'][1]}")
        print(f"\n10. counting: not measured (no grids: --hardest, {HARDEST_SET})")
    from benchmarks.speed.install import installed

    installed(questions.install, record)
    if not questions.skip_main_job:
        from benchmarks.speed.main_job import main_job_speed

        with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
            main_job_speed(Path(tmp), record)
    else:
        record.skipped("main-job-wall, main-job-cpu: --skip-main-job")
    if not questions.skip_search:
        from benchmarks.speed.board_search import board_search

        lists = [(name, grids) for name, grids in
                 zip(sets.names, (sets.seventeen, sets.hardest, sets.deepest), strict=True)
                 if grids]  # fmt: skip
        with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
            folder = None if questions.skip_commands else Path(tmp)
            board_search(lists, sets.names[0], grid_lines(sets.seventeen_grids), folder,
                         not questions.skip_exact_study, quiet, record)  # fmt: skip
    else:
        record.skipped("count2-vs-solve, enumerate-rate, unique-list, generate-*, "
                       "stats-exact: --skip-search")  # fmt: skip
