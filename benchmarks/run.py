"""`python -m benchmarks run`: every solver over puzzle sets; how often each solves a
grid without search, the depth profile of each set, and speed.

    python -m benchmarks run [DATASET ...] [--solvers up,fl,minisat22,...]
        [--encodings centrale,minimal,natural,augmented,centrale+ladder,...] [geometry flags]
        [--limit N] [--shuffle --seed S] [--workers K] [--timeout S] [--out DIR]
        [--executor local|dask [--scheduler tcp://HOST:8786]]

With no DATASET it runs every file of the project's `data/sets/`.  Each set is cut into
chunks of `--chunk-size` grids at fixed positions; an executor (`executors`)
runs the chunks (`benchmarks.chunks.run_chunk`) on `--workers` processes, and the
per-grid results are merged back in run order, so the figures do not depend on the
number of workers (times do, a little).  `--executor dask` runs the same chunks on a
Dask cluster (`executors.dask_cluster`): a LocalCluster of `--workers` processes, or
the cluster of the scheduler at `--scheduler`.  Every answer is checked after its timed call
(see `benchmarks.chunks`); a wrong answer stops the run
with the grid shown and exit status 1.  Ctrl-C stops the run: the chunks already
finished are reported and written, and the exit status is 130.  Grids past `--timeout`
and grids a solver failed on count as UNKNOWN and are counted per solver on stderr; a
failure makes the exit status 1 once everything is reported.

Output: Markdown tables on stdout (`benchmarks.report`); with `--out DIR`, also
`results.json` (with metadata), `results.csv` (one row per grid and solver) and PNG
plots (`benchmarks.plots`), written after the tables are printed, each through a
temporary file renamed into place (`puzzles.outputs`); a file that cannot be written is
one line on stderr and exit status 1, the tables already out.  A progress bar goes to
stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.chunks import CLOSURES, HOME, ChunkResult, ChunkTask, GridRun, run_chunk
from benchmarks.journal import FILE as JOURNAL_FILE
from benchmarks.journal import Journal
from benchmarks.paths import DATA
from benchmarks.report import (
    DepthProfile,
    DepthTally,
    SolverTally,
    Summary,
    markdown,
    metadata,
    results_json,
    table,
    write_csv,
    write_json,
)
from encoder.amo import AMO_ENCODINGS
from encoder.cli_common import add_geometry_flags, positive
from encoder.datasets import Dataset, default_files, read_dataset, unique_names
from encoder.encodings import ENCODING_NAMES, ENCODINGS
from encoder.errors import InputError
from executors import (
    add_executor_flags,
    available_cores,
    completed,
    cut,
    make_executor,
    settle_executor_flags,
)
from executors.sources import source_digest
from puzzles.outputs import check_folder, print_out
from solvers.backends import REGISTRY, missing_reason
from solvers.limits import DEFAULT_TIMEOUT

PROG = "benchmarks"
SETS = DATA / "sets"
DEFAULT_SOLVERS = "up,fl,fl2,minisat22,glucose3,glucose4,cadical195"
CHUNK_SIZE = 500


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
    parser = argparse.ArgumentParser(
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
        default=_names(list(REGISTRY), "solver")(DEFAULT_SOLVERS),
        help=f"comma-separated registry names (default {DEFAULT_SOLVERS}; "
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
    group.add_argument("--seed", type=int, default=0, help="seed of --shuffle (default 0)")
    group = parser.add_argument_group("execution")
    group.add_argument(
        "--workers",
        type=positive(int),
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
    group.add_argument(
        "--timeout",
        type=positive(float),
        default=DEFAULT_TIMEOUT,
        metavar="S",
        help=f"seconds per grid for each solver and for the depth rating (default "
        f"{DEFAULT_TIMEOUT:g}); a grid past it counts as UNKNOWN (depth: 'timeout') and "
        "the run goes on.  PySAT's CaDiCaL cannot be stopped",
    )
    group.add_argument(
        "--fresh",
        action="store_true",
        help="PySAT: build a new solver for every grid (time includes loading)",
    )
    group.add_argument(
        "--max-depth",
        type=positive(int, zero=True),
        default=3,
        help="depth profile: rate grids up to this depth (default 3); grids beyond count "
        "as 'more'.  Rated when a home-grown solver is in --solvers",
    )
    group.add_argument(
        "--no-length",
        action="store_true",
        help="skip the refutation-length rating (about 1 ms a 17-clue grid, several times "
        "the depth rating and most solver calls): its table says 'not rated' and its CSV "
        "column '-'",
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


def load_datasets(args: argparse.Namespace) -> list[Dataset]:
    files = args.datasets or default_files(SETS)
    if not files:
        raise InputError("no dataset files here: give DATASET files", str(SETS))
    datasets = [
        read_dataset(path, args, args.column, args.limit, args.shuffle, args.seed) for path in files
    ]
    return unique_names(datasets)


def make_tasks(datasets: Sequence[Dataset], args: argparse.Namespace) -> list[ChunkTask]:
    rate = any(name in HOME for name in args.solvers)
    tasks = []
    for dataset in datasets:
        for encoding in args.encodings:
            for first, part in cut(dataset.puzzles, args.chunk_size):
                tasks.append(
                    ChunkTask(
                        dataset.name,
                        encoding,
                        args.solvers,
                        first,
                        part,
                        args.fresh,
                        args.timeout,
                        args.max_depth if rate else None,
                        not args.no_length,
                    )
                )
    return tasks


def _progress(total: int, quiet: bool):
    from tqdm import tqdm

    return tqdm(
        total=total,
        unit="grid",
        desc="benchmark",
        file=sys.stderr,
        disable=quiet or not sys.stderr.isatty(),
        dynamic_ncols=True,
    )


def _cost(task: ChunkTask) -> int:
    """A rough guess of a chunk's work, to start the biggest first (16x16 grids are far
    harder than 9x9 ones): the order of chunks changes no figure, only the wall time."""
    size = task.puzzles[0].geometry.size if task.puzzles else 0
    return len(task.puzzles) * size**6


class Tallies:
    """Running counters of a run, chunk by chunk: a `SolverTally` per set, encoding and
    solver, a `DepthTally` per set and encoding.  Everything the tables, results.json
    and the plots say comes from here; no list of every grid is kept."""

    def __init__(self) -> None:
        self.solvers: dict[tuple[str, str, str], SolverTally] = defaultdict(SolverTally)
        self.depths: dict[tuple[str, str], DepthTally] = defaultdict(DepthTally)
        self.grids = 0  # grid runs counted (a grid in each encoding)
        self.cpu_seconds = 0.0  # of the workers, over the chunks counted

    def add(self, chunk: ChunkResult) -> None:
        for run in chunk.runs:
            self.solvers[(chunk.dataset, chunk.encoding, run.result.solver)].add(run)
        if chunk.depths:
            self.depths[(chunk.dataset, chunk.encoding)].add(chunk.depths, chunk.lengths)
        self.grids += chunk.count
        self.cpu_seconds += chunk.cpu_seconds

    def results(self, datasets: Sequence[Dataset], args: argparse.Namespace):
        """Return (summaries, depth profiles), in the order of the tables."""
        summaries, profiles = [], []
        for d in datasets:
            for encoding in args.encodings:
                for solver in args.solvers:
                    tally = self.solvers.get((d.name, encoding, solver))
                    if tally is not None and tally.grids:
                        summaries.append(tally.summary(d.name, encoding, solver))
                depths = self.depths.get((d.name, encoding))
                if depths is not None:
                    profiles.append(depths.profile(d.name, encoding, args.max_depth))
        return summaries, profiles


def task_index(task: ChunkTask | ChunkResult) -> tuple[str, str, int]:
    """What names a chunk in a run: its set, encoding and first position."""
    return task.dataset, task.encoding, task.first


def execute(
    tasks: list[ChunkTask],
    args: argparse.Namespace,
    keep: Callable[[int, ChunkResult], None],
    skip: set[int] = frozenset(),
) -> tuple[ChunkResult | None, bool]:
    """Run the chunks whose index in `tasks` is not in `skip`, handing each finished
    one to `keep(index, result)`; return (the chunk that reported an error, or None;
    interrupted).  An error stops the run at once."""
    todo = [t for i, t in enumerate(tasks) if i not in skip]
    index = {task_index(t): i for i, t in enumerate(tasks)}
    workers = min(args.workers, len(todo)) if todo else 1
    bar = _progress(sum(len(t.puzzles) for t in tasks), args.quiet)
    bar.update(sum(len(t.puzzles) for i, t in enumerate(tasks) if i in skip))
    if not todo:
        bar.close()
        return None, False
    executor = make_executor(args.executor, workers, args.scheduler)
    results = completed(executor, run_chunk, sorted(todo, key=_cost, reverse=True))
    try:
        for result in results:
            if result.error:
                return result, False  # closing `results` below stops the executor
            keep(index[task_index(result)], result)
            bar.set_postfix_str(f"{result.dataset} {result.encoding}", refresh=False)
            bar.update(result.count)
    except KeyboardInterrupt:  # `completed` has stopped the executor
        return None, True
    finally:
        results.close()
        bar.close()
    return None, False


@dataclass(frozen=True)
class BenchmarkResults:
    """What `benchmark` returns: the records behind the tables of `run`."""

    summaries: tuple[Summary, ...]  # one per set, encoding and solver
    profiles: tuple[DepthProfile, ...]  # one per set and encoding, when rated
    runs: dict[tuple[str, str, str], tuple[GridRun, ...]]  # (set, encoding, solver) -> runs


def benchmark(*datasets: str, **options) -> BenchmarkResults:
    """Run solvers over puzzle sets as `python -m benchmarks run` does, and return the
    records instead of printing tables.  `datasets` are files or catalogue names (none:
    data/sets/); `options` are the command's options by their Python names (`solvers`
    and `encodings` as lists or comma-separated strings, `workers=1` by default here).
    A usage error or bad input raises ValueError; a wrong answer, RuntimeError.

    >>> from benchmarks import benchmark
    >>> results = benchmark("data/sets/sudoku4_minimal.txt", solvers=["up", "fl"], limit=20)
    >>> [(s.solver, s.grids, s.solved) for s in results.summaries]
    [('up', 20, 20), ('fl', 20, 20)]
    >>> results.profiles[0].counts["0"]
    20
    """
    options.setdefault("workers", 1)
    options["quiet"] = True
    argv = list(datasets)
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is True:
            argv.append(flag)
        elif value is not False and value is not None:
            text = value if isinstance(value, str) else None
            if text is None and isinstance(value, list | tuple):
                text = ",".join(map(str, value))
            argv += [flag, str(value) if text is None else text]
    parser = build_parser()
    parser.exit_on_error = False
    try:
        args = parser.parse_args(argv)
    except (argparse.ArgumentError, SystemExit) as error:
        raise ValueError(f"benchmark: bad options {argv}: {error}") from None
    settle_executor_flags(parser, args, local_workers=available_cores())
    try:
        datasets = load_datasets(args)
    except InputError as error:
        raise ValueError(str(error)) from None
    tasks = make_tasks(datasets, args)
    tallies = Tallies()
    runs: dict[tuple[str, str, str], list[GridRun]] = defaultdict(list)
    chunks: list[tuple[int, ChunkResult]] = []
    failed, _ = execute(tasks, args, lambda index, chunk: chunks.append((index, chunk)))
    if failed:
        raise RuntimeError(f"{failed.error_source}: {failed.error}")
    for _, chunk in sorted(chunks, key=lambda pair: pair[0]):
        tallies.add(chunk)
        for run in chunk.runs:
            runs[(chunk.dataset, chunk.encoding, run.result.solver)].append(run)
    summaries, profiles = tallies.results(datasets, args)
    by_key = {key: tuple(sorted(found, key=lambda r: r.position)) for key, found in runs.items()}
    return BenchmarkResults(tuple(summaries), tuple(profiles), by_key)


def solver_times(summaries) -> str:
    totals: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    for s in summaries:
        totals[s.solver][0] += s.grids
        totals[s.solver][1] += s.seconds_total
    rows = [[name, f"{g:,}", f"{sec:,.2f}"] for name, (g, sec) in totals.items()]
    return table(rows, ["solver", "grids", "seconds in solver calls"])


def run_identity(datasets: Sequence[Dataset], args: argparse.Namespace) -> dict:
    """Return what a journal is the journal of (`benchmarks.journal`): the code and
    every option that changes a figure; workers, executor and scheduler change none."""
    return {
        "solvers": list(args.solvers),
        "encodings": list(args.encodings),
        "data": [[d.name, d.sha256, len(d.puzzles), d.flags] for d in datasets],
        "selection": [args.column, args.limit, args.shuffle, args.seed],
        "chunk_size": args.chunk_size,
        "time_limit": args.timeout,
        "fresh": args.fresh,
        "max_depth": args.max_depth,
        "length_rating": not args.no_length,
        "code": source_digest(),  # last: the options tell a user more
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    settle_executor_flags(parser, args, local_workers=available_cores())
    if args.resume and not args.out:
        parser.error("--resume needs --out DIR (the folder of the run's journal)")
    started = time.perf_counter()
    out = Path(args.out) if args.out else None
    if out is not None:  # learn now, not after the run, that the results cannot be kept
        check_folder(str(out))
    datasets = load_datasets(args)  # bad input: one line from benchmarks/__main__.py
    # Warnings, not progress: printed even with --quiet.
    for name in args.solvers:
        reason = missing_reason(name)
        if reason:
            print(f"{PROG}: {name}: {reason}; its grids count as UNKNOWN", file=sys.stderr)
    for d in datasets:
        if not d.puzzles:
            print(f"{PROG}: {d.path}: no grids in this file, skipped", file=sys.stderr)
    if not any(d.puzzles for d in datasets):
        print(f"{PROG}: no grids to run in {len(datasets)} file(s)", file=sys.stderr)
        return 1
    tasks = make_tasks(datasets, args)
    tallies = Tallies()
    journal = None
    if out is None:
        failed, interrupted = execute(tasks, args, lambda _, chunk: tallies.add(chunk))
    else:  # every chunk committed to the journal first, counted from it after
        journal = Journal(out, run_identity(datasets, args), args.resume)
        failed, interrupted = execute(tasks, args, journal.commit, journal.done())
    if failed:
        return _fail(f"{failed.error_source}: {failed.error}")
    if journal is not None:
        for chunk in journal.chunks():
            tallies.add(chunk)
    summaries, profiles = tallies.results(datasets, args)
    elapsed = time.perf_counter() - started
    grids_done = tallies.grids
    grids_total = sum(len(t.puzzles) for t in tasks)
    meta = metadata(
        command=["python", "-m", "benchmarks", "run", *(argv or sys.argv[2:])],
        solvers=list(args.solvers),
        encodings=list(args.encodings),
        closures=[s for s in args.solvers if s in CLOSURES],
        seed=args.seed,
        shuffle=args.shuffle,
        limit=args.limit,
        workers=args.workers,
        executor=args.executor,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size,
        timeout=args.timeout,
        fresh=args.fresh,
        max_depth=args.max_depth,
        length_rated=not args.no_length,
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
    failed = report_unknowns(summaries, args.timeout)
    if interrupted:
        print(
            f"{PROG}: interrupted: {grids_done:,} of {grids_total:,} grid runs kept",
            file=sys.stderr,
        )
        return 130
    return 1 if failed else 0


def report_unknowns(summaries, timeout: float) -> int:
    """Say on stderr, per solver, how many grids reached the time limit and how many
    the solver failed on (their runs count as UNKNOWN in the tables); return the
    number of failures, which make the run's exit status 1."""
    timed_out: dict[str, int] = defaultdict(int)
    failed: dict[str, int] = defaultdict(int)
    grids: dict[str, int] = defaultdict(int)
    for s in summaries:
        timed_out[s.solver] += s.timed_out
        failed[s.solver] += s.failed
        grids[s.solver] += s.grids
    for solver, count in timed_out.items():
        if count:
            print(
                f"{PROG}: {solver}: {count:,} of {grids[solver]:,} grids reached the time "
                f"limit ({timeout:g} s a grid)",
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
