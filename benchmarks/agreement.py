"""How well the length column's ratings agree with published ratings.

`python -m benchmarks agreement [SET]` rates every puzzle of a rated table (a catalogued
name such as `berthier-cb-5000`, the default, `berthier-eleven-te2` or
`kaggle-3m-sample`, or any CSV/TSV with a puzzle column) with the length column of
`python -m solvers rate` (`solvers.bxb_rating.LengthColumn`: the refutation-length
rating, BxB for depth-2 grids), streaming the grids through the same chunks, workers
and executors as `rate`, and prints:
- Spearman's rho and Kendall's tau-b between the rating and each published column
  (every numeric column but the puzzle's id and clue count, or `--columns`);
- with a `W` column (Berthier's whip rating) or a `BxB` column (his classification of
  depth-2 puzzles), the share of puzzles rated exactly that, and the confusion table of
  rating against it; for W the rating of the W = 0 puzzles, for BxB the goals (equal
  on >= 95%, Spearman >= 0.95) with met / not met;
- the time per puzzle of the rating (median, mean, 90th percentile, worst), and the
  wall time with the number of workers.

Rank correlations are computed here with numpy (scipy is not a dependency): Spearman's
rho is the Pearson correlation of the average ranks (ties share their mean rank),
Kendall's tau-b counts concordant and discordant pairs with the usual tie correction.
A puzzle the rating leaves unsettled (a time limit, a depth beyond --length-depth) is
left out of the correlations and counted.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np
from tabulate import tabulate

from benchmarks.paths import load, machine
from encoder.cli_common import (
    add_budget_flag,
    add_executor_flags,
    add_geometry_flags,
    positive,
    settle_executor_flags,
    variant_of,
)
from encoder.errors import InputError, read_text
from encoder.puzzle_files import TABLE_SUFFIXES, open_source
from solvers.budgets import DEFAULT_BUDGET, budget_from

DEFAULT_SET = "berthier-cb-5000"
NOT_RATINGS = {"puzzle", "solution", "id", "clues", "nb_clues"}  # columns that are no rating
SMALL = 10  # the confusion table's last row and column gather the values from here on
EXACT = ("W", "BxB")  # integer ratings the length column is meant to equal
# Goals for a column: (share of puzzles rated exactly it, Spearman's rho), both minima,
# and the median time a puzzle (seconds), a maximum.
GOALS = {"BxB": (0.95, 0.95, 1.0)}


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Return the ranks 1..n of `values`, ties sharing their mean rank."""
    order = np.argsort(values, kind="mergesort")
    ranks = np.empty(len(values), dtype=float)
    sorted_values = values[order]
    starts = np.flatnonzero(np.r_[True, sorted_values[1:] != sorted_values[:-1]])
    ends = np.r_[starts[1:], len(values)]
    for a, b in zip(starts, ends, strict=True):
        ranks[order[a:b]] = (a + b + 1) / 2  # mean of the ranks a+1 .. b
    return ranks


def spearman(x: Sequence[float], y: Sequence[float]) -> float:
    """Return Spearman's rank correlation (nan when a side is constant)."""
    rx, ry = average_ranks(np.asarray(x, float)), average_ranks(np.asarray(y, float))
    if rx.std() == 0 or ry.std() == 0:
        return float("nan")
    return float(np.corrcoef(rx, ry)[0, 1])


def kendall_tau_b(x: Sequence[float], y: Sequence[float]) -> float:
    """Return Kendall's tau-b (nan when a side is constant): (concordant - discordant)
    over the square root of the pairs untied in x times the pairs untied in y."""
    xs, ys = np.asarray(x, float), np.asarray(y, float)
    n = len(xs)
    score = untied_x = untied_y = 0
    for i in range(n - 1):
        dx = np.sign(xs[i + 1 :] - xs[i])
        dy = np.sign(ys[i + 1 :] - ys[i])
        score += int((dx * dy).sum())
        untied_x += int(np.count_nonzero(dx))
        untied_y += int(np.count_nonzero(dy))
    if untied_x == 0 or untied_y == 0:
        return float("nan")
    return score / float(np.sqrt(untied_x) * np.sqrt(untied_y))


def rating_columns(
    path: str, lines: Sequence[int], wanted: list[str] | None
) -> tuple[list[str], dict[str, list[float | None]]]:
    """Return the rating columns of a table and their values on the rows at `lines` (the
    puzzles' lines, as the project's reader numbers them): floats, None if blank."""
    delimiter = TABLE_SUFFIXES.get(Path(path).suffix.lower())
    if delimiter is None:
        raise InputError("no published rating column: give a CSV or TSV table", path)
    reader = csv.reader(read_text(path).splitlines(), delimiter=delimiter)
    header = next(reader, [])
    rows: dict[int, list[str]] = {}
    for row in reader:
        rows[reader.line_num] = row  # the line numbers the reader gives its puzzles
    if wanted is None:
        wanted = [name for name in header if name.lower() not in NOT_RATINGS]
        if not wanted:
            raise InputError(f"no published rating column (columns: {', '.join(header)})", path, 1)
    missing = [name for name in wanted if name not in header]
    if missing:
        raise InputError(f"no column {', '.join(missing)}", path, 1)

    def number(line: int, name: str) -> float | None:
        row = rows[line]
        at = header.index(name)
        try:
            value = float(row[at]) if at < len(row) else None
        except ValueError:
            return None
        if value is None or not math.isfinite(value):
            return None
        if name == "W" and value < 0:  # it would land in a wrong row of the confusion table
            raise InputError(f"W = {row[at]}: a whip rating is never negative", path, line)
        return value

    values = {name: [number(line, name) for line in lines] for name in wanted}
    numeric = [name for name in wanted if any(v is not None for v in values[name])]
    if not numeric:
        raise InputError(f"no numeric rating in column {', '.join(wanted)}", path)
    return numeric, values


def confusion(ours: list[int], published: list[float], name: str = "W") -> str:
    """Return the table of our rating (columns) against a published integer rating (rows)."""
    top = SMALL
    counts = np.zeros((top + 1, top + 1), dtype=int)
    for a, b in zip(published, ours, strict=True):
        counts[min(int(a), top), min(b, top)] += 1
    label = [str(v) for v in range(top)] + [f"{top}+"]
    used = [v for v in range(top + 1) if counts[v].any() or counts[:, v].any()]
    rows = [[f"{name}={label[w]}", *(counts[w, v] for v in used), counts[w].sum()] for w in used]
    return tabulate(rows, headers=["", *(label[v] for v in used), "total"], tablefmt="github")


def met(ok: bool) -> str:
    return "met" if ok else "not met"


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="python -m benchmarks agreement", description=__doc__.splitlines()[0]
    )
    p.add_argument("table", nargs="?", default=DEFAULT_SET, metavar="SET")
    p.add_argument("--columns", help="published ratings to compare, comma-separated")
    p.add_argument("--limit", type=positive(int), metavar="N", help="the first N puzzles")
    p.add_argument(
        "--every", type=positive(int), default=1, metavar="K",
        help="every K-th puzzle (1st, K+1-th, ...), before --limit: a sample of a sorted list",
    )  # fmt: skip
    p.add_argument(
        "--length-depth", type=positive(int, zero=True), default=1, metavar="D",
        help="deepest nesting the rating tries (default 1)",
    )  # fmt: skip
    p.add_argument(
        "--timeout", type=positive(float), metavar="S",
        help="wall-clock limit per puzzle (default: none; the work budget bounds each)",
    )  # fmt: skip
    add_budget_flag(p, asdict(DEFAULT_BUDGET))
    p.add_argument("--workers", type=positive(int), metavar="K")
    p.add_argument("--chunk-size", type=positive(int), default=250, metavar="N")
    add_executor_flags(p)
    add_geometry_flags(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from executors import cut, in_order, make_executor
    from solvers.rate_chunks import RateChunk, RateOptions, rate_chunk

    p = parser()
    args = p.parse_args(argv)
    settle_executor_flags(p, args)
    opened = open_source(args.table, variant_of(args))
    sample = itertools.islice(opened.texts(allow_empty=True), 0, None, args.every)
    texts = list(itertools.islice(sample, args.limit))
    if not texts:
        raise InputError("no puzzle to rate", opened.path)
    wanted = args.columns.split(",") if args.columns else None
    names, published = rating_columns(texts[0].path, [t.line for t in texts], wanted)
    geometries: dict = {}
    puzzles = [opened.puzzle(text, geometries=geometries) for text in texts]
    options = RateOptions(
        max_depth=0,
        timeout=args.timeout,
        budget=budget_from(args.budget),
        length_depth=args.length_depth,
    )
    chunks = [
        RateChunk(first, tuple(part), options) for first, part in cut(puzzles, args.chunk_size)
    ]
    wall = time.perf_counter()
    executor = make_executor(args.executor, max(1, min(args.workers, len(chunks))), args.scheduler)
    labels: list[str] = []
    seconds: list[float] = []
    for rated in in_order(executor, rate_chunk, chunks):
        labels.append(rated.length)
        seconds.append(rated.length_seconds)
    wall = time.perf_counter() - wall
    settled = [i for i, label in enumerate(labels) if label.isdigit()]
    ours = [int(labels[i]) for i in settled]
    print(f"machine: {machine()}")
    print(
        f"{len(puzzles)} puzzles of {args.table}; rated {len(settled)} "
        f"({len(puzzles) - len(settled)} unsettled: time limit or depth > {args.length_depth})"
    )
    rows = []
    rho = {}
    for name in names:
        pairs = [(ours[k], published[name][i]) for k, i in enumerate(settled)]
        pairs = [(a, b) for a, b in pairs if b is not None]
        x, y = [a for a, _ in pairs], [b for _, b in pairs]
        rho[name] = spearman(x, y)
        rows.append([name, len(pairs), f"{rho[name]:.4f}", f"{kendall_tau_b(x, y):.4f}"])
    print()
    headers = ["column", "puzzles", "Spearman", "Kendall tau-b"]
    print(tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True))
    for name in (name for name in EXACT if name in names):
        pairs = [(ours[k], published[name][i]) for k, i in enumerate(settled)]
        pairs = [(a, b) for a, b in pairs if b is not None]
        mine, theirs = [a for a, _ in pairs], [b for _, b in pairs]
        equal = sum(a == b for a, b in pairs)
        share = equal / max(1, len(puzzles))  # unsettled puzzles count as misses
        print()
        print(f"rating == {name}: {equal} of {len(puzzles)} ({100 * share:.2f}%)")
        if name == "W":
            zero = [a for a, b in pairs if b == 0]
            print(f"W = 0: {len(zero)} puzzles, {sum(a == 0 for a in zero)} rated 0")
        if name in GOALS:
            least_equal, least_rho, _ = GOALS[name]
            print(
                f"goal: rating == {name} on >= {100 * least_equal:g}%: {met(share >= least_equal)}"
            )
            print(f"goal: Spearman >= {least_rho:g}: {met(rho[name] >= least_rho)}")
        print()
        print(f"rating (columns) against {name} (rows):")
        print(confusion(mine, theirs, name))
    times = np.array(seconds) * 1e3
    print()
    print(
        f"time per puzzle (rating only): median {np.median(times):.2f} ms, mean "
        f"{times.mean():.2f} ms, 90% {np.percentile(times, 90):.2f} ms, worst {times.max():.1f} ms"
    )
    for name in (name for name in EXACT if name in names and name in GOALS):
        most = GOALS[name][2]
        print(f"goal: median <= {most:g} s a puzzle: {met(np.median(times) <= most * 1e3)}")
    print(f"wall time {wall:.1f} s with {args.workers} worker(s) ({args.executor})")
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
