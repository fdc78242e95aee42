"""The harness: every solver over puzzle sets, as typed values in and records out.

`benchmark(*sets, solvers=..., ...)` is the Python API of `python -m benchmarks run`
(`benchmarks/run.py`, which only parses the command line, prints and writes files):
the sets are read (`benchmarks.sets`), cut into chunks of `chunk_size` grids at fixed
positions, the chunks run by an executor (`executors`) on `workers` processes or a Dask
cluster (`benchmarks.chunks.run_chunk`), and each finished chunk handed on (to the
command's journal, or counted at once); chunks are counted in run order (`Tallies`,
running counters: no list of every grid), so the figures do not depend on the number
of workers (times do, a little).
`RunOptions` holds the options, checked when built (a bad one is a ValueError).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence, Set
from dataclasses import dataclass, field, fields

from benchmarks.chunks import HOME, ChunkResult, ChunkTask, GridRun, run_chunk
from benchmarks.paths import SETS
from benchmarks.progress import Progress
from benchmarks.report.tallies import DepthProfile, DepthTally, SolverTally, Summary
from benchmarks.sets import Dataset, default_files, read_dataset, unique_names
from encoder.encodings import ENCODING_NAMES
from encoder.errors import InputError
from encoder.variant import Variant
from executors import EXECUTORS, completed, make_executor
from solvers.backends.names import PYSAT_NAMES
from solvers.backends.registry import REGISTRY
from solvers.budgets import DEFAULT_BUDGET, Budget

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
    timeout: float | None = None  # seconds per grid, every solver and rating: opt-in
    budget: Budget = DEFAULT_BUDGET  # work per grid, every solver and rating
    fresh: bool = False  # PySAT: a new solver per grid
    max_depth: int = 3  # the depth profile's deepest depth
    length: bool = False  # the finer ratings too: refutation length, BxB
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
        if self.seed and not self.shuffle:
            raise ValueError("seed seeds shuffle: give shuffle=True too")
        if self.fresh and not set(self.solvers) & set(PYSAT_NAMES):
            raise ValueError("fresh builds a new PySAT solver per grid: no PySAT solver given")


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


def chunk_tasks(
    datasets: Sequence[Dataset], options: RunOptions
) -> Iterator[tuple[int, ChunkTask]]:
    """Yield (index of the chunk in run order, its task) for every chunk, the grids read
    block by block as the tasks are taken (`Dataset.blocks`).  The biggest sets come
    first (16x16 grids are far harder than 9x9 ones): the order of the chunks changes
    no figure, only the wall time; the index is that of the run order (set, encoding,
    position), whatever order they come in."""
    rate = any(name in HOME for name in options.solvers)
    per_set = [-(-d.count // options.chunk_size) for d in datasets]  # chunks per encoding
    starts = [len(options.encodings) * sum(per_set[:k]) for k in range(len(datasets))]
    order = sorted(range(len(datasets)), key=lambda k: -datasets[k].count * datasets[k].size ** 6)
    for k in order:
        dataset = datasets[k]
        for e, encoding in enumerate(options.encodings):
            for c, (first, part, grids) in enumerate(dataset.grid_blocks(options.chunk_size)):
                task = ChunkTask(
                    dataset.name,
                    encoding,
                    options.solvers,
                    first,
                    part,
                    options.fresh,
                    options.timeout,
                    options.max_depth if rate else None,
                    options.length,
                    options.budget,
                    grids,
                )
                yield starts[k] + e * per_set[k] + c, task


def make_tasks(datasets: Sequence[Dataset], options: RunOptions) -> list[ChunkTask]:
    """Return every chunk's task in run order, all in memory (small runs, tests)."""
    return [task for _, task in sorted(chunk_tasks(datasets, options), key=lambda p: p[0])]


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
        for answers in chunk.answers:
            self.solvers[(chunk.dataset, chunk.encoding, answers.solver)].add(answers)
        if chunk.depths:
            self.depths[(chunk.dataset, chunk.encoding)].add(
                chunk.depths, chunk.lengths, chunk.bxbs
            )
        self.grids += chunk.count
        self.cpu_seconds += chunk.cpu_seconds

    def results(self, datasets: Sequence[Dataset], options: RunOptions):
        """Return (summaries, depth profiles), in the order of the tables."""
        summaries, profiles = [], []
        for d in datasets:
            for encoding in options.encodings:
                for solver in options.solvers:
                    tally = self.solvers.get((d.name, encoding, solver))
                    if tally is not None and tally.grids:
                        summaries.append(tally.summary(d.name, encoding, solver))
                depths = self.depths.get((d.name, encoding))
                if depths is not None:
                    profiles.append(depths.profile(d.name, encoding, options.max_depth))
        return summaries, profiles


def task_index(task: ChunkTask | ChunkResult) -> tuple[str, str, int]:
    """What names a chunk in a run: its set, encoding and first position."""
    return task.dataset, task.encoding, task.first


def execute(
    datasets: Sequence[Dataset],
    options: RunOptions,
    keep: Callable[[int, ChunkResult], None],
    skip: Set[int] = frozenset(),
) -> tuple[ChunkResult | None, bool]:
    """Run the chunks of the sets whose index (`chunk_tasks`) is not in `skip`, handing
    each finished one to `keep(index, result)` (in completion order); return (the chunk
    that reported an error, or None; interrupted).  An error stops the run at once.
    The tasks are made as the executor takes them: the grids are read block by block."""
    chunks = sum(-(-d.count // options.chunk_size) for d in datasets) * len(options.encodings)
    left = chunks - len(skip)
    per_set = {d.name: d.count * len(options.encodings) for d in datasets}
    if left <= 0:
        return None, False
    bar = Progress(sum(per_set.values()), per_set, options.quiet, "benchmarks")
    index: dict[tuple[str, str, int], int] = {}

    def todo() -> Iterator[ChunkTask]:
        for i, task in chunk_tasks(datasets, options):
            if i in skip:
                bar.skipped(task.dataset, len(task.puzzles))
                continue
            index[task_index(task)] = i
            yield task

    workers = min(options.workers, left)
    executor = make_executor(options.executor, workers, options.scheduler)
    results = completed(executor, run_chunk, todo())
    try:
        for result in results:
            if result.error:
                return result, False  # closing `results` below stops the executor
            keep(index.pop(task_index(result)), result)
            bar.add(result.dataset, result.count)
    except KeyboardInterrupt:  # `completed` has stopped the executor
        return None, True
    finally:
        results.close()
        bar.close()
    return None, False


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
    chunks: list[tuple[int, ChunkResult]] = []
    failed, _ = execute(sets, run, lambda i, chunk: chunks.append((i, chunk)))
    if failed:
        raise RuntimeError(f"{failed.error_source}: {failed.error}")
    tallies = Tallies()
    runs: dict[tuple[str, str, str], list[GridRun]] = defaultdict(list)
    for _, chunk in sorted(chunks, key=lambda pair: pair[0]):  # in run order
        tallies.add(chunk)
        for grid_run in chunk.runs:
            runs[(chunk.dataset, chunk.encoding, grid_run.result.solver)].append(grid_run)
    summaries, profiles = tallies.results(sets, run)
    by_key = {key: tuple(sorted(found, key=lambda r: r.position)) for key, found in runs.items()}
    return BenchmarkResults(tuple(summaries), tuple(profiles), by_key)
