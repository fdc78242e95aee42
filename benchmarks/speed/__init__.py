"""Speed of the engines and of the commands, each figure measured against a named
baseline in the same run and printed beside its target, "met" or "not met".

Every question is answered on the exam's 9x9 formula (11,988 rule clauses) with the
givens passed as assumptions, so every side does exactly the same logical work; each
question is a module of this package, whose docstring says what it measures:

1. unit propagation of the givens, the clause engine (`solvers.core.engine.Engine`) against
   Minisat22 (unit_propagation);
2. the failed-literal closure (depth 1) against the same closure over Minisat22 (depth_one);
3. the depth-2 and depth-3 closures and the depth ratings that reach them (deeper);
4. `solvers rate` and `benchmarks run` against their kernels, one worker (commands);
5. with `--scale N,...`: rate and run over N grids, grids/s and peak memory (scale);
6. rating with and without proofs, and checking them (proofs);
7. the BxB rating of depth-2 grids (bxb);
9. the native core (`solvers.core`, C) against Minisat22 and absolute bounds, and the
   commands' whole-process targets (native);
10. DPLL search counting to 2 against Minisat22.solve (counting);
11. the project as installed: its dependencies' size, and with
    `--install` the first run after `pip install .` into a fresh environment (install);
12. the README's main job, `benchmarks run --out DIR`, one run: its wall time, and the
    workers' processor time against its solver calls (main_job).

(Question 8, issue 23's bit-parallel board, left with its engine; the others keep their
numbers, so that records of earlier runs compare figure by figure.)

The targets are one table, `benchmarks.speed.targets` (id, what it measures, baseline,
bound and unit, issue).  `--out FILE.json` writes the run's record: metadata (CPU,
Python, package versions, git commit, date, options), every figure measured and every
target checked with met / not met (`benchmarks.speed.record`).  `--compare A.json B.json`
prints the ratios B/A between two records without measuring anything; `--compare
OLD.json` alone compares a fresh run (the other options say which) with OLD.  A public
set that is not on this machine (royle17, forum-hardest-1106, mith-te3-1000, given by
default) skips the questions that need it, with a line saying so; a file named by an
option must be readable.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.paths import load, machine
from benchmarks.speed import record as records
from benchmarks.speed.bxb import BXB_SET
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
from benchmarks.speed.targets import TARGETS
from cli.flags import positive, scheduler_address
from encoder.cli_common import Parser
from encoder.encodings import given_literals
from encoder.output_files import check_file, write_text


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


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m benchmarks speed", description=__doc__.splitlines()[0])
    p.add_argument(
        "--seventeen",
        help=f"17-clue grids: a file or set name ({SEVENTEEN_SET}; skipped when absent)",
    )
    p.add_argument(
        "--hardest",
        help=f"grids for depth 2: a file or set name ({HARDEST_SET}; skipped when absent)",
    )
    p.add_argument(
        "--deeper",
        help=f"grids for depth 3: a file or set name ({DEEPER_SET}; skipped when absent)",
    )
    p.add_argument(
        "--limit", type=positive(int, zero=True), default=0, help="grids per set (0 = all)"
    )
    p.add_argument(
        "--baseline-limit",
        type=positive(int),
        default=200,
        help="grids for the slow Python baseline",
    )
    p.add_argument(
        "--skip-commands",
        action="store_true",
        help="skip question 4 and the commands of question 9",
    )
    p.add_argument(
        "--scale",
        type=sizes,
        default=[],
        metavar="N,...",
        help="question 5: rate and run over N grids each (e.g. 100000,1000000)",
    )
    p.add_argument(
        "--scale-length",
        action="store_true",
        help="question 5: also with the refutation-length rating (the default; slow)",
    )
    p.add_argument(
        "--workers",
        type=sizes,
        default=[2],
        metavar="K,...",
        help="question 5: local workers, each count in turn (e.g. 1,2; default 2)",
    )
    p.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help="question 5: also on the Dask cluster of this scheduler (tcp://HOST:8786)",
    )
    p.add_argument(
        "--skip-proofs", action="store_true", help="skip question 6 (rating with proofs)"
    )
    p.add_argument(
        "--check-limit",
        type=positive(int),
        default=1000,
        metavar="N",
        help="question 6: proofs checked per list (default 1000)",
    )
    p.add_argument(
        "--bxb-every", type=positive(int), default=50, metavar="K",
        help=f"question 7: every K-th grid of {BXB_SET} (default 50)",
    )  # fmt: skip
    p.add_argument("--skip-bxb", action="store_true", help="skip question 7 (BxB)")
    p.add_argument("--skip-core", action="store_true", help="skip question 9 (the native core)")
    p.add_argument(
        "--skip-main-job",
        action="store_true",
        help="skip question 12 (the README's main job, benchmarks run --out DIR: 15-30 s)",
    )
    p.add_argument(
        "--install",
        action="store_true",
        help="question 11: pip install . into a fresh environment and time the first rate "
        "(a build: a minute or more)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument(
        "--out", metavar="FILE.json", help="write the run's record (figures, targets, metadata)"
    )
    p.add_argument(
        "--compare",
        nargs="+",
        metavar="A.json",
        help="A.json B.json: print the ratios B/A of two records, measuring nothing; "
        "OLD.json alone: those of a fresh run against OLD",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = parser()
    args = p.parse_args(argv)
    if args.compare and len(args.compare) > 2:
        p.error("--compare takes one record (against a fresh run) or two")
    old = [records.load(path) for path in args.compare or ()]  # bad records first
    if len(old) == 2:
        print(records.render(*old, *args.compare), end="")
        return 0
    if args.out:
        check_file(args.out)  # before the run: its record could not be kept
    from solvers.limits import sigint_kept_by_python

    record = records.Record()
    # PySAT's calls here are made bare, to time them as they are; kept from PySAT's own
    # Ctrl-C handler (a longjmp that can leave from inside malloc), a Ctrl-C waits for
    # the call in progress to return.
    with sigint_kept_by_python():
        measure(args, record)
    document = record.document(run_metadata(argv, args))
    if args.out:
        write_text(args.out, records.dumps(document))
    if old:
        print(f"\n{records.render(old[0], document, args.compare[0], 'this run')}", end="")
    return 0


def run_metadata(argv: list[str], args: argparse.Namespace) -> dict:
    """Return the record's metadata: benchmarks.report's, the command line and options."""
    from benchmarks.report import metadata

    options = {key: value for key, value in vars(args).items() if key not in ("out", "compare")}
    return metadata(argv=["benchmarks", "speed", *argv], options=options)


def measure(args: argparse.Namespace, record) -> None:
    """Answer the questions `args` asks (see the module docstring) into `record`."""
    from pysat.solvers import Minisat22

    from solvers.core.rules import GridRules

    quiet = args.quiet or not sys.stderr.isatty()
    limit = args.limit or None
    sources = {
        "seventeen": public_set(args.seventeen, SEVENTEEN_SET),
        "hardest": public_set(args.hardest, HARDEST_SET),
        "deeper": public_set(args.deeper, DEEPER_SET),
    }
    # Bad input first, before anything is timed.
    seventeen_source, hardest_source, deeper_source = (s for s, _ in sources.values())
    seventeen_grids = read_grids(seventeen_source) if seventeen_source else []
    seventeen = [given_literals(grid, GEOMETRY) for grid in seventeen_grids[:limit]]
    hardest = read_givens(hardest_source, limit) if hardest_source else []
    deepest = read_givens(deeper_source, limit) if deeper_source else []
    # Sets are named as the catalogue names them (a file by its stem), never by the path
    # of one machine's copy.
    names = tuple(set_name(s) if s else "" for s, _ in sources.values())
    seventeen_name, hardest_name, deeper_name = names
    from solvers.core import Clauses

    rules = GridRules(GEOMETRY)
    formula, engine = rules.formula, rules.engine
    minisat = Minisat22(bootstrap_with=formula.clauses)
    print(f"machine: {machine()}; load average at the start {load()}")
    print(f"formula: centrale, {formula.num_clauses} clauses; givens passed as assumptions")
    for name, (source, why) in sources.items():
        if source is None:
            record.skipped(f"--{name}: {why}")
            print(f"--{name}: not measured ({why})")
    started = time.perf_counter()

    if seventeen:
        from benchmarks.speed.depth_one import depth_one
        from benchmarks.speed.unit_propagation import unit_propagation

        clauses = Clauses(formula.clauses, formula.num_vars)
        up_answers = unit_propagation(engine, clauses, minisat, seventeen, seventeen_name,
                                      quiet, record)  # fmt: skip
        depth_one(engine, minisat, formula, seventeen, up_answers, seventeen_name,
                  args.baseline_limit, quiet, record)  # fmt: skip
    else:
        print(f"\n1, 2. not measured (no 17-clue grids: --seventeen, {SEVENTEEN_SET})")
    from benchmarks.speed.deeper import deeper

    if hardest:
        deeper(engine, hardest, 2, hardest_name, "3a.", quiet, record, minisat)
    else:
        print(f"\n3a. depth-2 closure: not measured (no grids: --hardest, {HARDEST_SET})")
    minisat.delete()
    if deepest:
        deeper(engine, deepest, 3, deeper_name, "3b.", quiet, record)
    else:
        print(f"\n3b. depth-3 closure: not measured ({sources['deeper'][1]}; --deeper FILE)")
    lines = grid_lines(seventeen_grids)
    with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
        if not lines:
            print("\n4-6. the commands: not measured (no 17-clue grids)")
        if lines and not args.skip_commands:
            from benchmarks.speed.commands import commands

            commands(seventeen_name, lines[:limit], Path(tmp), record)
        if lines and args.scale:
            from benchmarks.speed.scale import at_scale

            places = [(f"{k} local worker(s)", ("--workers", str(k))) for k in args.workers]
            if args.scheduler:
                dask = ("--executor", "dask", "--scheduler", args.scheduler)
                places.append((f"Dask cluster at {args.scheduler}", dask))
            lengths = (False, True) if args.scale_length else (False,)
            at_scale(seventeen_name, lines, args.scale, Path(tmp), places, lengths, record)
        if lines and not args.skip_proofs:
            from benchmarks.speed.proofs import proof_figures

            print("\n6. proofs: solvers rate --no-length (depth up to 2), one worker")
            lists = [(seventeen_name, seventeen_grids[:limit])]
            if hardest_source:
                lists.append((hardest_name, read_grids(hardest_source, limit)))
            for source, grids in lists:
                proof_figures(source, grids, Path(tmp), args.check_limit, record)
    if not args.skip_bxb:
        from benchmarks.speed.bxb import bxb_speed

        bxb_speed(args.bxb_every, record)
    if not args.skip_core:
        from benchmarks.speed.native import native_core

        with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
            folder = None if args.skip_commands else Path(tmp)
            native_core(seventeen, hardest, deepest, names, quiet, record, folder)
    if hardest:
        from benchmarks.speed.counting import counting

        counting(hardest, hardest_name, quiet, record)
    else:
        record.skipped(f"count-vs-solve: {sources['hardest'][1]}")
        print(f"\n10. counting: not measured (no grids: --hardest, {HARDEST_SET})")
    from benchmarks.speed.install import installed

    installed(args.install, record)
    if not args.skip_main_job:
        from benchmarks.speed.main_job import main_job_speed

        with tempfile.TemporaryDirectory(prefix="sudoku-speed-") as tmp:
            main_job_speed(Path(tmp), record)
    else:
        record.skipped("main-job-wall, main-job-cpu: --skip-main-job")
    met = sum(check["met"] for check in record.checks)
    print(f"\ntargets met: {met} of {len(record.checks)} checked "
          f"(benchmarks/speed/targets.py lists {len(TARGETS)})")  # fmt: skip
    print(f"{time.perf_counter() - started:.0f} s; load average at the end {load()}")


if __name__ == "__main__":
    raise SystemExit(main())
