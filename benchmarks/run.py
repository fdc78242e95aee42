"""`python -m benchmarks run`: every solver over puzzle sets; how often each solves a
grid without search, the depth profile of each set, and speed.

    python -m benchmarks run [DATASET ...] [--solvers up,fl,minisat22,...]
        [--encodings centrale,minimal,natural,augmented,centrale+ladder,...] [geometry flags]
        [--limit N] [--shuffle --seed S] [--workers K] [--length] [--budget KIND=N]
        [--timeout S] [--out DIR]
        [--executor local|dask [--scheduler tcp://HOST:8786]]

With no DATASET it runs every file of the project's `data/sets/`.  This module is the
command line only: the options become a `benchmarks.harness.RunOptions`, and the
harness (`benchmarks.harness`, also the Python API `benchmark`) cuts each set into
chunks of `--chunk-size` grids at fixed positions, runs them with an executor
(`executors`) on `--workers` processes, and merges the per-grid results back in run
order, so the figures do not depend on the number of workers (times do, a little).
`--executor dask` runs the same chunks on a Dask cluster (`executors.dask_cluster`): a
LocalCluster of `--workers` processes, or the one of the scheduler at `--scheduler`.
Every answer is checked after its timed call (see `benchmarks.chunks`); a wrong answer
stops the run with the grid shown and exit 1.  Ctrl-C stops the run, the finished
chunks reported and written, exit status 130.  With `--out DIR`, each finished chunk
is first committed to a journal in DIR (`benchmarks.journal`); `--resume` finishes a
run cut short (Ctrl-C, a kill, a full disk, a lost worker) with the results of a run
never interrupted.
Every grid's work is bounded by a budget in its engine's own units (`--budget`,
`solvers.budgets`), so the tables are a function of the input: the same on every
machine, at any load, with any number of workers. `--timeout S` adds a wall-clock limit
(the report's header then says its results depend on the machine). Grids past a budget
or the time limit and grids a solver failed on count as UNKNOWN, counted per solver on
stderr; a failure makes the exit status 1 once all is reported. `--length` adds the
finer ratings, a table and CSV column each: the refutation length at depth 0-1, BxB at
depth 2.

Output: Markdown tables on stdout (`benchmarks.report`); with `--out DIR`, also
`results.json`, `results.csv` (one row per grid and solver, in run order, read back from
the journal) and PNG plots (`benchmarks.plots`), written after the tables, each through
a temporary file renamed (`puzzles.outputs`); a file that cannot be written is one line
on stderr and exit 1. A progress bar goes to a terminal's stderr.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, fields
from pathlib import Path

from benchmarks.chunks import CLOSURES
from benchmarks.harness import (
    CHUNK_SIZE,
    DEFAULT_SOLVERS,
    RunOptions,
    Tallies,
    execute,
    load_datasets,
)
from benchmarks.journal import FILE as JOURNAL_FILE
from benchmarks.journal import Journal, missing
from benchmarks.report.csv_file import write_csv
from benchmarks.report.json_file import results_json, write_json
from benchmarks.report.metadata import metadata
from benchmarks.report.tables import markdown, solver_times
from benchmarks.sets import Dataset
from cli.flags import (
    MAX_DEPTH,
    MAX_WORKERS,
    add_budget_flag,
    add_executor_flags,
    positive,
    settle_executor_flags,
)
from encoder.amo import AMO_ENCODINGS
from encoder.cli_common import Parser, add_geometry_flags, variant_of
from encoder.encodings import ENCODING_NAMES, ENCODINGS
from encoder.output_files import check_folder
from executors import available_cores
from executors.sources import source_digest
from puzzles.outputs import print_out
from solvers.backends.names import PYSAT_NAMES
from solvers.backends.registry import REGISTRY, missing_reason
from solvers.budgets import DEFAULT_BUDGET, budget_from
from solvers.limits import machine_dependence

PROG = "benchmarks"
# the options results.json records, in its order
RECORDED = ("seed", "shuffle", "limit", "workers", "executor", "scheduler", "chunk_size")
RECORDED += ("timeout", "fresh", "max_depth")


def _names(known: Sequence[str], what: str):
    def parse(text: str) -> tuple[str, ...]:
        names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
        unknown = [n for n in names if n not in known]
        if unknown or not names:
            raise argparse.ArgumentTypeError(
                f"unknown {what} {', '.join(map(repr, unknown)) or '(none given)'}; "
                f"known: {', '.join(known)}"
            )
        return names

    return parse


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m benchmarks run",
        description="Run solvers over puzzle sets: % solved without search, depth profile, "
        "speed.  Markdown tables on stdout; --out DIR adds JSON, CSV and PNG plots.",
    )
    parser.add_argument(
        "datasets",
        nargs="*",
        metavar="DATASET",
        help="puzzle files: one grid per line (puzzle|regions for jigsaw), or CSV/TSV with "
        "a puzzle column; default: every file of the project's data/sets/",
    )
    parser.add_argument(
        "--solvers",
        type=_names(list(REGISTRY), "solver"),
        default=DEFAULT_SOLVERS,
        help=f"comma-separated registry names (default {','.join(DEFAULT_SOLVERS)}; "
        f"known: {', '.join(REGISTRY)})",
    )
    parser.add_argument(
        "--encodings",
        type=_names(ENCODING_NAMES, "encoding"),
        default=("centrale",),
        help=f"comma-separated encodings (default centrale; known: {', '.join(ENCODINGS)}), "
        f"each with an at-most-one encoding as ENC+AMO, e.g. centrale+ladder (AMO: "
        f"{', '.join(a for a in AMO_ENCODINGS if a != 'pairwise')}; default pairwise)",
    )
    add_geometry_flags(parser)
    group = parser.add_argument_group("selection")
    group.add_argument("--column", help="puzzle column of CSV/TSV files (default: puzzle)")
    group.add_argument("--limit", type=positive(int), help="run the first N grids of each set")
    group.add_argument(
        "--shuffle", action="store_true", help="shuffle each set before --limit (seeded)"
    )
    group.add_argument(
        "--seed", type=positive(int, zero=True), help="seed of --shuffle (default 0)"
    )
    group = parser.add_argument_group("execution")
    group.add_argument(
        "--workers",
        type=positive(int, most=MAX_WORKERS),
        help=f"worker processes (default: all cores, here {available_cores()})",
    )
    add_executor_flags(group)
    group.add_argument(
        "--chunk-size",
        type=positive(int),
        default=CHUNK_SIZE,
        help=f"grids per chunk; solvers are built once per chunk (default {CHUNK_SIZE}). "
        "PySAT solvers keep learnt clauses within a chunk, so their decision counts "
        "depend on it (never on --workers)",
    )
    add_budget_flag(group, asdict(DEFAULT_BUDGET))
    group.add_argument(
        "--timeout",
        type=positive(float),
        metavar="S",
        help="wall-clock seconds per grid for each solver and rating (default: none; the "
        "work budgets bound every grid); a grid past it counts as UNKNOWN (depth: "
        "'timeout') and the run goes on, and the results then depend on the machine's "
        "speed and load.  PySAT's CaDiCaL cannot be stopped",
    )
    group.add_argument(
        "--fresh",
        action="store_true",
        help="PySAT: build a new solver for every grid (time includes loading)",
    )
    group.add_argument(
        "--max-depth",
        type=positive(int, zero=True, most=MAX_DEPTH),
        default=3,
        help="depth profile: rate grids up to this depth (default 3); grids beyond count "
        "as 'more'.  Rated when a home-grown solver is in --solvers",
    )
    group.add_argument(
        "--length",
        action="store_true",
        help="add the finer ratings: the refutation length of grids of depth 0-1 and the "
        "BxB of grids of depth 2, each in its own table and results.csv column (many times "
        "the cost of the rest of the run: seconds a grid on 16x16 and depth-2 grids)",
    )
    group = parser.add_argument_group("output")
    group.add_argument(
        "--out",
        metavar="DIR",
        help="write results.json, results.csv, PNG plots; each finished chunk is first "
        f"committed to DIR/{JOURNAL_FILE}, deleted once the run is complete",
    )
    group.add_argument(
        "--resume",
        action="store_true",
        help="finish the run whose journal is in --out DIR (interrupted by Ctrl-C, a "
        "kill, a full disk, a lost worker): only the chunks it lacks are run",
    )
    group.add_argument(
        "--quiet",
        action="store_true",
        help="no progress bar and no list of the files written (warnings still show)",
    )
    return parser


def _load_average() -> str:
    """Return the 1-minute load average ('n/a' where the system does not say): other
    jobs on the machine slow the workers down and inflate wall-clock times."""
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except (AttributeError, OSError):
        return "n/a"


def _fail(message: str) -> int:
    print(f"{PROG}: {message}", file=sys.stderr)
    return 1


def run_options(args: argparse.Namespace) -> RunOptions:
    """Return the harness's options the command line gives (the same names)."""
    names = [f.name for f in fields(RunOptions) if f.name not in ("variant", "budget")]
    return RunOptions(
        variant=variant_of(args),
        budget=budget_from(args.budget),
        **{name: getattr(args, name) for name in names},
    )


def run_identity(datasets: Sequence[Dataset], options: RunOptions) -> dict:
    """Return what a journal is the journal of (`benchmarks.journal`): every option that
    changes a figure, the data and the code; workers, executor and scheduler change none."""
    return {
        "solvers": list(options.solvers),
        "encodings": list(options.encodings),
        "data": [[d.name, d.sha256, d.count, d.flags] for d in datasets],
        "selection": [options.column, options.limit, options.shuffle, options.seed],
        "chunk_size": options.chunk_size,
        "time_limit": options.timeout,
        "budget": asdict(options.budget),
        "fresh": options.fresh,
        "max_depth": options.max_depth,
        "length_rating": options.length,
        "code": source_digest(),  # last: the options tell a user more
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settle_executor_flags(parser, args, local_workers=available_cores())
    if args.resume and not args.out:
        parser.error("--resume needs --out DIR (the folder of the run's journal)")
    if args.resume and (nothing := missing(Path(args.out))):  # a mistyped folder, likely
        print(f"{PROG}: {args.out}: {nothing}", file=sys.stderr)
        return 2
    # Options that would be ignored without a word are usage errors.
    if args.seed is not None and not args.shuffle:
        parser.error("--seed seeds --shuffle: give --shuffle too")
    args.seed = args.seed or 0
    if args.fresh and not set(args.solvers) & set(PYSAT_NAMES):
        parser.error("--fresh builds a new PySAT solver per grid: no PySAT solver in --solvers")
    options = run_options(args)
    started = time.perf_counter()
    out = Path(args.out) if args.out else None
    if out is not None:  # learn now, not after the run, that the results cannot be kept
        check_folder(str(out))
    datasets = load_datasets(args.datasets, options)  # bad input: one line, __main__.py
    # Warnings, not progress: printed even with --quiet.
    for name in args.solvers:
        reason = missing_reason(name)
        if reason:
            print(f"{PROG}: {name}: {reason}; its grids count as UNKNOWN", file=sys.stderr)
    for d in datasets:
        if not d.count:
            print(f"{PROG}: {d.path}: no grids in this file, skipped", file=sys.stderr)
    if not any(d.count for d in datasets):
        print(f"{PROG}: no grids to run in {len(datasets)} file(s)", file=sys.stderr)
        return 1
    tallies = Tallies()
    journal = None
    if out is None:
        failed, interrupted = execute(datasets, options, lambda _, chunk: tallies.add(chunk))
    else:  # every chunk committed to the journal first, counted from it after
        journal = Journal(out, run_identity(datasets, options), args.resume)
        failed, interrupted = execute(datasets, options, journal.commit, journal.done())
    if failed:
        return _fail(f"{failed.error_source}: {failed.error}")
    if journal is not None:
        for chunk in journal.chunks():
            tallies.add(chunk)
    summaries, profiles = tallies.results(datasets, options)
    elapsed = time.perf_counter() - started
    grids_done = tallies.grids
    grids_total = sum(d.count for d in datasets) * len(options.encodings)
    meta = metadata(
        command=["python", "-m", "benchmarks", "run", *(argv or sys.argv[2:])],
        solvers=list(args.solvers),
        encodings=list(args.encodings),
        closures=[s for s in args.solvers if s in CLOSURES],
        **{name: getattr(options, name) for name in RECORDED},
        budget=asdict(options.budget),
        length_rated=options.length,
        interrupted=interrupted,
        resumed=journal is not None and journal.resumed,
        grids_done=grids_done,
        grids_total=grids_total,
        wall_seconds=round(elapsed, 3),
        worker_cpu_seconds=round(tallies.cpu_seconds, 3),
        load_average=_load_average(),
    )
    note = (
        f"_{meta['cpu']}, {args.workers} worker(s), commit {meta['git_commit'][:10]}"
        f"{' (modified)' if meta['git_dirty'] else ''}, wall time {elapsed:.1f} s, "
        f"worker CPU time {meta['worker_cpu_seconds']:.1f} s, load average at the end "
        f"{meta['load_average']}{', INTERRUPTED: partial results' if interrupted else ''}._"
        f"\n\n_Work budget per grid: {options.budget.describe()}"
        + f"; {machine_dependence(options.timeout)}._"
    )
    # Standard output first, then the files: a disk that fills up or a folder that goes
    # away while the plots are written loses no table, and a reader that leaves early
    # (`run ... | head`) stops the printing, not the files.
    if print_out(markdown(datasets, summaries, profiles, note)):
        print_out(
            "\n### Time per solver (timed calls summed over workers; checks not counted)\n\n"
            + solver_times(summaries)
            + "\n"
        )
    if journal is not None:
        write_outputs(out, meta, datasets, summaries, profiles, journal, args)
        if not interrupted:
            journal.remove()  # the run is complete and its outputs written
    failed = report_unknowns(summaries, options)
    if interrupted:
        print(
            f"{PROG}: interrupted: {grids_done:,} of {grids_total:,} grid runs kept",
            file=sys.stderr,
        )
        return 130
    return 1 if failed else 0


def report_unknowns(summaries, options: RunOptions) -> int:
    """Say on stderr, per solver, how many grids reached their work budget or the time
    limit and how many the solver failed on (their runs count as UNKNOWN in the
    tables); return the number of failures, which make the run's exit status 1."""
    over_budget: dict[str, int] = defaultdict(int)
    timed_out: dict[str, int] = defaultdict(int)
    failed: dict[str, int] = defaultdict(int)
    grids: dict[str, int] = defaultdict(int)
    for s in summaries:
        over_budget[s.solver] += s.over_budget
        timed_out[s.solver] += s.timed_out
        failed[s.solver] += s.failed
        grids[s.solver] += s.grids
    for solver, count in over_budget.items():
        if count:
            print(
                f"{PROG}: {solver}: {count:,} of {grids[solver]:,} grids reached their work "
                f"budget ({options.budget.describe()}; --budget KIND=N allows more)",
                file=sys.stderr,
            )
    for solver, count in timed_out.items():
        if count:
            print(
                f"{PROG}: {solver}: {count:,} of {grids[solver]:,} grids reached the time "
                f"limit ({options.timeout:g} s a grid)",
                file=sys.stderr,
            )
    for solver, count in failed.items():
        if count:
            print(
                f"{PROG}: {solver}: the solver failed on {count:,} of {grids[solver]:,} grids "
                "(results.csv gives the reason per grid)",
                file=sys.stderr,
            )
    return sum(failed.values())


def write_outputs(out, meta, datasets, summaries, profiles, journal: Journal, args) -> None:
    from benchmarks.plots import plot_depth_profile, plot_no_search

    write_json(out / "results.json", results_json(meta, datasets, summaries, profiles))
    by_name = {d.name: d for d in datasets}
    write_csv(out / "results.csv", ((by_name[c.dataset], c) for c in journal.chunks()))
    written = ["results.json", "results.csv"]
    if plot_no_search(summaries, out / "no_search.png"):
        written.append("no_search.png")
    if plot_depth_profile(profiles, out / "depth_profile.png"):
        written.append("depth_profile.png")
    if not args.quiet:
        print(f"{PROG}: wrote {', '.join(str(out / w) for w in written)}", file=sys.stderr)


if __name__ == "__main__":
    raise SystemExit(main())
