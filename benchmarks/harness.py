"""The harness: every solver over puzzle sets, as typed values in and records out.

`benchmark(*sets, solvers=..., ...)` is the Python API of `python -m benchmarks run`
(`benchmarks/run.py`, which only parses the command line, prints and writes files):
the sets are read (`benchmarks.sets`), cut into chunks of `chunk_size` grids at fixed
positions, the chunks run by an executor (`executors`) on `workers` processes or a Dask
cluster (`benchmarks.chunks.run_chunk`), and the per-grid results merged back in run
order, so the figures do not depend on the number of workers (times do, a little).
`RunOptions` holds the options, checked when built (a bad one is a ValueError).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, fields

from benchmarks.chunks import HOME, ChunkResult, ChunkTask, GridRun, run_chunk
from benchmarks.paths import SETS
from benchmarks.report import DepthProfile, Summary, depth_profile, summarise
from benchmarks.sets import Dataset, default_files, read_dataset, unique_names
from encoder.encodings import ENCODING_NAMES
from encoder.errors import InputError
from encoder.variant import Variant
from executors import EXECUTORS, completed, cut, make_executor
from solvers.backends import REGISTRY
from solvers.limits import DEFAULT_TIMEOUT

DEFAULT_SOLVERS = ("up", "fl", "fl2", "minisat22", "glucose3", "glucose4", "cadical195")
CHUNK_SIZE = 500


@dataclass(frozen=True)
class RunOptions:
    """What to run and how: the options of `python -m benchmarks run`, by their names."""

    solvers: tuple[str, ...] = DEFAULT_SOLVERS  # registry names
    encodings: tuple[str, ...] = ("centrale",)  # ENCODING_NAMES, e.g. centrale+ladder
    variant: Variant = field(default_factory=Variant)  # geometry options for every set
    column: str | None = None  # puzzle column of CSV/TSV sets
    limit: int | None = None  # the first N grids of each set (after shuffle)
    shuffle: bool = False
    seed: int = 0
    workers: int = 1
    executor: str = "local"  # a name of executors.EXECUTORS
    scheduler: str | None = None  # a running Dask scheduler's address
    chunk_size: int = CHUNK_SIZE
    timeout: float = DEFAULT_TIMEOUT  # seconds per grid, every solver and the depth rating
    fresh: bool = False  # PySAT: a new solver per grid
    max_depth: int = 3  # the depth profile's deepest depth
    no_length: bool = False  # skip the refutation-length rating
    quiet: bool = True  # no progress bar

    def __post_init__(self) -> None:
        for what, names, known in (
            ("solver", self.solvers, REGISTRY),
            ("encoding", self.encodings, ENCODING_NAMES),
        ):
            unknown = [n for n in names if n not in known]
            if unknown or not names:
                raise ValueError(
                    f"unknown {what} {', '.join(map(repr, unknown)) or '(none given)'}; "
                    f"known: {', '.join(known)}"
                )
        if self.executor not in EXECUTORS:
            raise ValueError(f"unknown executor {self.executor!r}; known: {', '.join(EXECUTORS)}")
        if self.scheduler and self.executor != "dask":
            raise ValueError("--scheduler needs --executor dask")
        for name in ("workers", "chunk_size", "limit", "timeout"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name} must be > 0, not {value}")
        if self.max_depth < 0:
            raise ValueError(f"max_depth must be >= 0, not {self.max_depth}")


@dataclass(frozen=True)
class BenchmarkResults:
    """What `benchmark` returns: the records behind the tables of `run`."""

    summaries: tuple[Summary, ...]  # one per set, encoding and solver
    profiles: tuple[DepthProfile, ...]  # one per set and encoding, when rated
    runs: dict[tuple[str, str, str], tuple[GridRun, ...]]  # (set, encoding, solver) -> runs


def load_datasets(sources: Sequence[str], options: RunOptions) -> list[Dataset]:
    """Read every set (none named: the project's own, `benchmarks.paths.SETS`)."""
    files = list(sources) or default_files(SETS)
    if not files:
        raise InputError("no dataset files here: give DATASET files", str(SETS))
    datasets = [
        read_dataset(
            path, options.variant, options.column, options.limit, options.shuffle, options.seed
        )
        for path in files
    ]
    return unique_names(datasets)


def make_tasks(datasets: Sequence[Dataset], options: RunOptions) -> list[ChunkTask]:
    rate = any(name in HOME for name in options.solvers)
    tasks = []
    for dataset in datasets:
        for encoding in options.encodings:
            for first, part in cut(dataset.puzzles, options.chunk_size):
                tasks.append(
                    ChunkTask(
                        dataset.name,
                        encoding,
                        options.solvers,
                        first,
                        part,
                        options.fresh,
                        options.timeout,
                        options.max_depth if rate else None,
                        not options.no_length,
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


def execute(tasks: list[ChunkTask], options: RunOptions) -> tuple[list[ChunkResult], bool]:
    """Run the chunks; return (finished chunks, interrupted).  A chunk reporting an
    error stops the run at once and is returned last."""
    workers = min(options.workers, len(tasks)) if tasks else 1
    executor = make_executor(options.executor, workers, options.scheduler)
    done: list[ChunkResult] = []
    total = sum(len(t.puzzles) for t in tasks)
    bar = _progress(total, options.quiet)
    results = completed(executor, run_chunk, sorted(tasks, key=_cost, reverse=True))
    try:
        for result in results:
            done.append(result)
            if result.error:
                break  # closing `results` below stops the executor
            bar.set_postfix_str(f"{result.dataset} {result.encoding}", refresh=False)
            bar.update(result.count)
    except KeyboardInterrupt:  # `completed` has stopped the executor
        return done, True
    finally:
        results.close()
        bar.close()
    return done, False


def merge(results: Sequence[ChunkResult]):
    """Return {(dataset, encoding): (runs by solver, depth labels by position, refutation
    lengths by position)}."""
    by_key: dict[tuple[str, str], list[ChunkResult]] = defaultdict(list)
    for result in results:
        by_key[(result.dataset, result.encoding)].append(result)
    merged = {}
    for key, chunks in by_key.items():
        chunks.sort(key=lambda c: c.first)
        runs: dict[str, list[GridRun]] = defaultdict(list)
        depths: dict[int, str] = {}
        lengths: dict[int, str] = {}
        for chunk in chunks:
            for run in chunk.runs:
                runs[run.result.solver].append(run)
            if chunk.depths:
                positions = range(chunk.first, chunk.first + chunk.count)
                depths.update(zip(positions, chunk.depths, strict=True))
                lengths.update(zip(positions, chunk.lengths, strict=True))
        merged[key] = (runs, depths, lengths)
    return merged


def summarise_all(datasets: Sequence[Dataset], merged, options: RunOptions):
    """Return (summaries, depth profiles) of merged runs, in the order of the tables."""
    summaries, profiles = [], []
    for d in datasets:
        for encoding in options.encodings:
            if (d.name, encoding) not in merged:
                continue
            runs, depths, lengths = merged[(d.name, encoding)]
            for solver in options.solvers:
                if runs.get(solver):
                    summaries.append(summarise(d.name, encoding, solver, runs[solver]))
            if depths:
                labels = [depths[p] for p in sorted(depths)]
                rated = [lengths[p] for p in sorted(lengths)]
                profiles.append(depth_profile(d.name, encoding, labels, options.max_depth, rated))
    return summaries, profiles


def _names(value: str | Sequence[str]) -> tuple[str, ...]:
    """A list of names given as a comma-separated string or a sequence."""
    if isinstance(value, str):
        value = value.split(",")
    return tuple(dict.fromkeys(n.strip() for n in value if n.strip()))


def benchmark(*datasets: str, **options) -> BenchmarkResults:
    """Run solvers over puzzle sets as `python -m benchmarks run` does, and return the
    records instead of printing tables.  `datasets` are files or catalogue names (none:
    the project's own sets); `options` are those of `RunOptions` (`solvers` and
    `encodings` as lists or comma-separated strings), and the geometry options of
    `Variant` (`diagonals=True`, ...) for every set.  A bad option or bad input raises
    ValueError; a wrong answer, RuntimeError.

    >>> from benchmarks import benchmark
    >>> results = benchmark("data/sets/sudoku4_minimal.txt", solvers=["up", "fl"], limit=20)
    >>> [(s.solver, s.grids, s.solved) for s in results.summaries]
    [('up', 20, 20), ('fl', 20, 20)]
    >>> results.profiles[0].counts["0"]
    20
    """
    geometry = {f.name for f in fields(Variant)}
    for name in ("solvers", "encodings"):
        if name in options:
            options[name] = _names(options[name])
    try:
        variant = Variant(**{k: options.pop(k) for k in list(options) if k in geometry})
        run = RunOptions(variant=options.pop("variant", variant), **options)
        sets = load_datasets(datasets, run)
    except TypeError as error:  # an option that does not exist
        raise ValueError(f"benchmark: {error}") from None
    except InputError as error:
        raise ValueError(str(error)) from None
    results, _ = execute(make_tasks(sets, run), run)
    failed = [r for r in results if r.error]
    if failed:
        raise RuntimeError(f"{failed[0].error_source}: {failed[0].error}")
    merged = merge(results)
    summaries, profiles = summarise_all(sets, merged, run)
    runs = {
        (dataset, encoding, solver): tuple(solver_runs)
        for (dataset, encoding), (by_solver, _, _) in merged.items()
        for solver, solver_runs in by_solver.items()
    }
    return BenchmarkResults(tuple(summaries), tuple(profiles), runs)
