"""How well the length column's ratings agree with published ratings: the measures.

`rate_lengths` rates puzzles with the length column of `python -m solvers rate`
(`solvers.ratings.bxb.LengthColumn`: the refutation-length rating, BxB for depth-2
grids), through the same chunks, workers and executors as `rate`; `rating_columns`
reads a rated table's published columns (every numeric column but the puzzle's id and
clue count, or those asked for); `compare` pairs them, a `Column` each, with Spearman's
rho and Kendall's tau-b; `confusion` tabulates our rating against a published integer
rating (`W`, Berthier's whip rating, or `BxB`, his classification of depth-2 puzzles),
and GOALS holds what the BxB column should reach.  The command
`python -m benchmarks agreement` (`benchmarks.agreement`) prints them.

Rank correlations are computed here with numpy (scipy is not a dependency): Spearman's
rho is the Pearson correlation of the average ranks (ties share their mean rank),
Kendall's tau-b counts concordant and discordant pairs with the usual tie correction.
A puzzle the rating leaves unsettled (its work budget, the opt-in time limit, a depth
beyond the length depth) is left out of the correlations and counted by cause
(`Rated.unsettled`).
"""

from __future__ import annotations

import csv
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from tabulate import tabulate

from encoder.errors import InputError, read_text
from encoder.puzzle_files import TABLE_SUFFIXES, Puzzle
from solvers.budgets import OVER_BUDGET, Budget
from solvers.results import depth_bucket

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


@dataclass(frozen=True)
class Rated:
    """The length column's label of each puzzle, in order, the seconds each rating took,
    and the wall time of them all."""

    labels: tuple[str, ...]  # a number, or what left the puzzle unsettled
    seconds: tuple[float, ...]
    wall: float

    @property
    def settled(self) -> list[int]:
        """Return the positions of the puzzles given a number."""
        return [i for i, label in enumerate(self.labels) if label.isdigit()]

    def unsettled(self) -> dict[str, int]:
        """Return how many puzzles were left without a number, by cause: 'budget' (the
        work budget: the same on every machine), 'timeout' (the time limit: this
        machine's), 'deeper' (beyond the nesting tried), 'unsat' (a contradiction)."""
        causes = {"budget": 0, "timeout": 0, "deeper": 0, "unsat": 0}
        cause = {OVER_BUDGET: "budget", "timeout": "timeout", "unsat": "unsat"}
        for label in self.labels:
            if not label.isdigit():  # read as the harness reads a label ('>2': deeper)
                causes[cause.get(depth_bucket(label), "deeper")] += 1
        return causes


def rate_lengths(
    puzzles: Sequence[Puzzle],
    *,
    timeout: float | None,
    budget: Budget,
    length_depth: int,
    chunk_size: int,
    workers: int,
    executor: str,
    scheduler: str | None,
) -> Rated:
    """Rate the puzzles with the length column, in chunks of `chunk_size` on `workers` of
    the executor (`executors.make_executor`)."""
    from executors import cut, in_order, make_executor
    from solvers.ratings.chunks import RateChunk, RateOptions, rate_chunk

    options = RateOptions(max_depth=0, timeout=timeout, budget=budget, length_depth=length_depth)
    chunks = [RateChunk(first, tuple(part), options) for first, part in cut(puzzles, chunk_size)]
    wall = time.perf_counter()
    runner = make_executor(executor, max(1, min(workers, len(chunks))), scheduler)
    labels: list[str] = []
    seconds: list[float] = []
    for rated in in_order(runner, rate_chunk, chunks):
        labels.append(rated.length)
        seconds.append(rated.length_seconds)
    return Rated(tuple(labels), tuple(seconds), time.perf_counter() - wall)


@dataclass(frozen=True)
class Column:
    """Our settled ratings against one published column, on the puzzles both rate."""

    name: str
    pairs: tuple[tuple[int, float], ...]  # (ours, published)
    spearman: float
    kendall_tau_b: float

    @property
    def equal(self) -> int:
        """Return the number of puzzles rated exactly the published value."""
        return sum(a == b for a, b in self.pairs)


def compare(
    rated: Rated, published: dict[str, list[float | None]], names: Sequence[str]
) -> list[Column]:
    """Return a Column per published rating `names`, in order (`published[name][i]` is
    the value of puzzle i, None when blank)."""
    settled = rated.settled
    columns = []
    for name in names:
        pairs = [(int(rated.labels[i]), published[name][i]) for i in settled]
        kept = tuple((a, b) for a, b in pairs if b is not None)
        x, y = [a for a, _ in kept], [b for _, b in kept]
        columns.append(Column(name, kept, spearman(x, y), kendall_tau_b(x, y)))
    return columns
