"""The school paper's study, done again: mean number of solutions versus number of givens.

For each number of givens k and each of the paper's two ways of making a grid, `n`
random grids are drawn and their solutions counted on the board (`GridRules.count`), up
to a cap or, exact (cap None), every one of them within EXACT_WORK work units a grid:
- method 1 (`random`): k givens placed at random, each obeying the rules so far
  (`puzzles.generation.random_placement`; dead ends start over and are reported);
  such a grid may have no solution at all;
- method 2 (`remove`): a fresh random full grid per sample (the paper reused one),
  all but k of its cells emptied; at least one solution by construction.
Per point: samples, how many reached the cap, mean and median of the (capped) counts,
share with exactly one solution, share with none, and a 95% confidence interval of
the mean by percentile bootstrap (2,000 resamples of the counts).  Where samples are
capped (or, exact, stopped by the budget), mean and interval are lower bounds of the
true mean.

Every sample has its own seed, derived from (seed, method, k, sample index), so the
result does not depend on the number of worker processes or the order they finish.
The samples go in chunks of CHUNK_SAMPLES (one solver built per chunk) to an executor
(`executors`): this process, local processes, or a Dask cluster, with the same
result.

What a study gives: `summarize` turns the samples into a Point per (method, k);
`tables`, `thresholds`, `plot` and `write_csv` render the points.  The command
`python -m benchmarks stats` (`benchmarks.stats`) reads the flags and writes them out.
"""

from __future__ import annotations

import csv
import math
import random
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, fields
from itertools import pairwise

import numpy as np
from tabulate import tabulate
from tqdm import tqdm

from encoder.geometry import Geometry
from encoder.output_files import write_file
from executors import completed, cut, make_executor
from puzzles.counting import SolutionCount
from puzzles.fullgrid import GridSampler
from puzzles.generation import random_placement, remove_givens
from puzzles.outputs import Interrupted, write_png

METHODS = {"random": "(1) random placement", "remove": "(2) removal from a full grid"}
BOOTSTRAP_RESAMPLES = 2000
CI_METHOD = (
    f"95% CI: percentile bootstrap ({BOOTSTRAP_RESAMPLES:,} resamples) of the mean of the "
    "counts; where samples hit the cap (or the exact count's budget), mean and CI are lower "
    "bounds"
)
# An exact count's work budget a grid (the board's units: cells placed and decisions,
# about 7 a solution of a sparse 9x9 grid): far beyond the 17-given grids' mean of about
# 4x10^7 solutions, and still a bound, so that a result is a function of the input.
EXACT_WORK = 10**12
CHUNK_SAMPLES = 50  # samples per task of an executor
PLOT_NAME = "solutions_vs_givens.png"
CSV_NAME = "solutions_vs_givens.csv"


@dataclass(frozen=True)
class Sample:
    """One random grid of the study and its number of solutions."""

    method: str
    givens: int
    index: int
    count: SolutionCount  # solutions counted up to the cap (or all of them)
    dead_ends: int  # method 1: placements abandoned before this one


@dataclass(frozen=True)
class Point:
    """The summary of n samples for one method and one number of givens."""

    method: str
    givens: int
    samples: int
    capped: int
    mean: float
    ci_low: float
    ci_high: float
    median: float
    unique_share: float
    none_share: float
    dead_end_share: float  # method 1: abandoned placements / placements started; else 0


def sample_rng(seed: int, method: str, givens: int, index: int) -> random.Random:
    """Return the random stream of one sample (string seeds are hashed with SHA-512)."""
    return random.Random(f"{seed}:{method}:{givens}:{index}")


def run_sample(
    solver: GridSampler, method: str, givens: int, index: int, seed: int, cap: int | None
) -> Sample:
    """Draw sample `index` of (method, givens) and count its solutions up to `cap` (None:
    all of them, within EXACT_WORK)."""
    rng = sample_rng(seed, method, givens, index)
    dead_ends = 0
    if method == "random":
        grid, dead_ends = random_placement(solver.geometry, givens, rng)
    elif method == "remove":
        full = solver.random_completion(rng)
        assert full is not None
        grid = remove_givens(full, givens, rng)
    else:
        raise ValueError(f"unknown method {method!r}")
    count = solver.count(grid, cap) if cap is not None else solver.count(grid, None, EXACT_WORK)
    return Sample(method, givens, index, count, dead_ends)


def bootstrap_ci(values: Sequence[float], rng: np.random.Generator) -> tuple[float, float]:
    """Return the 95% percentile-bootstrap interval of the mean of `values`."""
    data = np.asarray(values, dtype=float)
    picks = rng.integers(0, len(data), size=(BOOTSTRAP_RESAMPLES, len(data)))
    means = data[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def summarize(samples: Iterable[Sample], seed: int) -> list[Point]:
    """Return one Point per (method, givens), methods in METHODS order, givens ascending."""
    groups: dict[tuple[str, int], list[Sample]] = {}
    for sample in samples:
        groups.setdefault((sample.method, sample.givens), []).append(sample)
    points = []
    order = list(METHODS)
    for method, k in sorted(groups, key=lambda key: (order.index(key[0]), key[1])):
        group = sorted(groups[(method, k)], key=lambda s: s.index)
        counts = [s.count.count for s in group]
        rng = np.random.default_rng([seed, order.index(method), k])
        low, high = bootstrap_ci(counts, rng)
        dead = sum(s.dead_ends for s in group)
        points.append(
            Point(
                method=method,
                givens=k,
                samples=len(group),
                capped=sum(not s.count.complete for s in group),
                mean=statistics.fmean(counts),
                ci_low=low,
                ci_high=high,
                median=float(statistics.median(counts)),
                unique_share=sum(1 for s in group if s.count.unique) / len(group),
                none_share=sum(1 for s in group if s.count.count == 0) / len(group),
                dead_end_share=dead / (dead + len(group)) if method == "random" else 0.0,
            )
        )
    return points


def _number(x: float) -> str:
    if x == int(x):
        return f"{int(x):,}"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}" if x >= 10 else f"{x:.3f}"


def crossing(points: Sequence[Point], method: str, level: float = 1.0) -> float | None:
    """Return where the method's mean first falls through `level`, interpolated linearly
    in log(mean) between the two ks around it, or None if it does not."""
    series = [p for p in points if p.method == method]
    for before, after in pairwise(series):
        if before.mean > level >= after.mean:
            if after.mean <= 0:
                return float(after.givens)
            a, b = math.log(before.mean), math.log(after.mean)
            return before.givens + (after.givens - before.givens) * (a - math.log(level)) / (a - b)
    return None


def tables(points: Sequence[Point], cap: int | None) -> str:
    """Return one table per method (tabulate, GitHub format)."""
    out = []
    for method, title in METHODS.items():
        rows = []
        for p in (p for p in points if p.method == method):
            row = [
                p.givens,
                p.samples,
                p.capped,
                _number(p.mean),
                f"{_number(p.ci_low)} – {_number(p.ci_high)}",
                _number(p.median),
                f"{p.unique_share:.1%}",
                f"{p.none_share:.1%}",
            ]
            if method == "random":
                row.append(f"{p.dead_end_share:.1%}")
            rows.append(row)
        if not rows:
            continue
        stopped = f"capped (≥{cap:,})" if cap is not None else "stopped (budget)"
        head = ["k", "n", stopped, "mean", "95% CI", "median", "unique", "none"]
        if method == "random":
            head.append("dead ends")
        align = ["right"] * 6 + ["right"] * (len(head) - 6)
        table = tabulate(rows, head, tablefmt="github", disable_numparse=True, colalign=align)
        out.append(f"method {title}\n" + table)
    return "\n\n".join(out)


def thresholds(points: Sequence[Point]) -> list[str]:
    """Return per method where the mean falls through 1, the first k where it is at most
    2 and at most 1.1, and where the median is 1 and at least half the grids are unique."""

    def first(method: str, test) -> str:
        ks = [p.givens for p in points if p.method == method and test(p)]
        return str(min(ks)) if ks else "never"

    lines = []
    for method, title in METHODS.items():
        if not any(p.method == method for p in points):
            continue
        at = crossing(points, method)
        parts = [
            "mean falls through 1 at "
            + (f"k ≈ {at:.1f} (log interpolation)" if at is not None else "no k"),
            f"mean ≤ 2 from k={first(method, lambda p: p.mean <= 2)}",
            f"mean ≤ 1.1 from k={first(method, lambda p: p.mean <= 1.1)}",
            f"median 1 from k={first(method, lambda p: p.median == 1)}",
            f"≥ 50% unique from k={first(method, lambda p: p.unique_share >= 0.5)}",
        ]
        lines.append(f"{title}: " + "; ".join(parts))
    return lines


def _ranges(ks: Sequence[int], every: Sequence[int]) -> str:
    """Return '29..45' or '29..33, 41' for sorted ks, a run being consecutive in `every`."""
    following = dict(pairwise(every))
    runs: list[list[int]] = []
    for k in ks:
        if runs and following.get(runs[-1][-1]) == k:
            runs[-1].append(k)
        else:
            runs.append([k])
    return ", ".join(f"{r[0]}..{r[-1]}" if len(r) > 1 else str(r[0]) for r in runs)


def plot(points: Sequence[Point], path: str, title: str, cap: int | None) -> None:
    """Draw mean solutions (log scale, with 95% CI) and share unique versus k to a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (top, bottom) = plt.subplots(
        2, 1, figsize=(8, 7.5), sharex=True, gridspec_kw={"height_ratios": [2, 1]}
    )
    styles = {"random": ("C0", "o"), "remove": ("C1", "s")}
    positive = [p.mean for p in points if p.mean > 0]
    floor = min([0.3, *(m / 10 for m in positive)])  # the lowest drawn mean stays visible
    for method, label in METHODS.items():
        color, marker = styles[method]
        every = [p for p in points if p.method == method]
        if not every:
            continue
        drawn = [p for p in every if p.mean > 0]  # a mean of 0 has no place on a log scale
        if drawn:
            means = np.array([p.mean for p in drawn])
            low = np.array([max(p.ci_low, floor) for p in drawn])
            high = np.array([p.ci_high for p in drawn])
            errors = [means - np.minimum(low, means), high - means]
            top.errorbar(
                [p.givens for p in drawn], means, yerr=errors, color=color, marker=marker,
                ms=4, capsize=2, label=f"method {label}",
            )  # fmt: skip
        zeros = [p.givens for p in every if p.mean == 0]
        if zeros:
            top.text(
                0.98, 0.25, f"method {label}: no grid with a solution\nfor k = "
                f"{_ranges(zeros, [p.givens for p in every])} (mean 0, not drawn)",
                transform=top.transAxes, fontsize=8, color=color, ha="right",
            )  # fmt: skip
        ks = [p.givens for p in every]
        bottom.plot(ks, [100 * p.unique_share for p in every], color=color, marker=marker,
                    ms=4, label=f"unique, method {label}")  # fmt: skip
        if method == "random":
            bottom.plot(ks, [100 * p.none_share for p in every], color=color, marker=marker,
                        ms=4, ls="--", label=f"no solution, method {label}")  # fmt: skip
    top.set_yscale("log")
    top.set_ylim(bottom=floor)
    top.axhline(1, color="grey", lw=0.8)
    if cap is not None:
        top.axhline(cap, color="grey", lw=0.8, ls=":", label=f"cap ({cap:,})")
    top.set_ylabel("mean number of solutions (log)")
    top.set_title(title, fontsize=10)
    top.legend(fontsize=8, loc="upper right")
    top.grid(True, which="both", alpha=0.3)
    bottom.set_xlabel("number of givens k")
    bottom.set_ylabel("% of grids")
    bottom.set_ylim(-3, 150)  # head room for the legend above the 100% line
    bottom.set_yticks(range(0, 101, 20))
    bottom.legend(fontsize=8, loc="upper center", ncol=2)
    bottom.grid(True, alpha=0.3)
    fig.tight_layout()
    write_png(fig, path, dpi=120)


def write_csv(points: Sequence[Point], path: str, comments: Sequence[str]) -> None:
    """Write the points, renamed into place when complete (`encoder.output_files`)."""

    def write(handle) -> None:
        for line in comments:
            handle.write(f"# {line}\n")
        writer = csv.DictWriter(handle, fieldnames=[f.name for f in fields(Point)])
        writer.writeheader()
        for p in points:
            writer.writerow(asdict(p))

    write_file(path, write)


@dataclass(frozen=True)
class SampleChunk:
    """Consecutive samples of the study, for one task of an executor."""

    geometry: Geometry
    first: int  # position of the first sample in the study's task order
    tasks: tuple[tuple[str, int, int, int, int | None], ...]  # run_sample's arguments


def run_chunk(chunk: SampleChunk) -> tuple[int, list[Sample]]:
    """Return (chunk.first, the chunk's samples), with one solver for the chunk."""
    solver = GridSampler(chunk.geometry)
    return chunk.first, [run_sample(solver, *task) for task in chunk.tasks]


def run_study(
    geometry: Geometry,
    ks: Sequence[int],
    samples: int,
    seed: int,
    cap: int | None,
    workers: int = 1,
    methods: Sequence[str] = tuple(METHODS),
    show_progress: bool = False,
    executor: str = "local",
    scheduler: str | None = None,
) -> list[Sample]:
    """Return every sample of the study, in task order (whatever the number of workers or
    the executor: `local` processes, or `dask` in chunks, see `executors`).  Ctrl-C
    raises `Interrupted` holding the samples of every chunk finished, in task order."""
    tasks = [(m, k, i, seed, cap) for m in methods for k in ks for i in range(samples)]
    chunks = [
        SampleChunk(geometry, first, tuple(part)) for first, part in cut(tasks, CHUNK_SAMPLES)
    ]
    runner = make_executor(executor, max(1, min(workers, len(chunks))), scheduler)
    finished: dict[int, list[Sample]] = {}  # first position of a chunk -> its samples
    with tqdm(total=len(tasks), disable=not show_progress, unit="grid", file=sys.stderr) as bar:
        try:
            for first, part in completed(runner, run_chunk, chunks):
                finished[first] = part
                bar.update(len(part))
        except KeyboardInterrupt:  # `completed` has stopped the executor
            raise Interrupted([s for first in sorted(finished) for s in finished[first]]) from None
    return [sample for first in sorted(finished) for sample in finished[first]]
