"""How well the length column's ratings agree with published ratings.

`python -m benchmarks agreement [SET]` rates every puzzle of a rated table (a catalogued
name such as `berthier-cb-5000`, the default, `berthier-eleven-te2` or
`kaggle-3m-sample`, or any CSV/TSV with a puzzle column) with the length column of
`python -m solvers rate` (`solvers.ratings.bxb.LengthColumn`: the refutation-length
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

The measures are `studies.rating_agreement`'s; this module reads the flags and prints.
"""

from __future__ import annotations

import argparse
import itertools
from collections.abc import Sequence
from dataclasses import asdict

import numpy as np
from tabulate import tabulate

from benchmarks.paths import load, machine
from cli.flags import (
    MAX_DEPTH,
    MAX_WORKERS,
    add_budget_flag,
    add_executor_flags,
    positive,
    settle_executor_flags,
)
from encoder.cli_common import Parser, add_geometry_flags, variant_of
from encoder.errors import InputError
from encoder.puzzle_files import open_source
from solvers.budgets import DEFAULT_BUDGET, budget_from
from solvers.limits import machine_dependence
from studies.rating_agreement import (
    EXACT,
    GOALS,
    compare,
    confusion,
    met,
    rate_lengths,
    rating_columns,
)

DEFAULT_SET = "berthier-cb-5000"


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m benchmarks agreement", description=__doc__.splitlines()[0])
    p.add_argument("table", nargs="?", default=DEFAULT_SET, metavar="SET")
    p.add_argument("--columns", help="published ratings to compare, comma-separated")
    p.add_argument("--limit", type=positive(int), metavar="N", help="the first N puzzles")
    p.add_argument(
        "--every", type=positive(int), default=1, metavar="K",
        help="every K-th puzzle (1st, K+1-th, ...), before --limit: a sample of a sorted list",
    )  # fmt: skip
    p.add_argument(
        "--length-depth", type=positive(int, zero=True, most=MAX_DEPTH), default=1, metavar="D",
        help="deepest nesting the rating tries (default 1)",
    )  # fmt: skip
    p.add_argument(
        "--timeout", type=positive(float), metavar="S",
        help="wall-clock limit per puzzle (default: none; the work budget bounds each)",
    )  # fmt: skip
    add_budget_flag(p, asdict(DEFAULT_BUDGET))
    p.add_argument("--workers", type=positive(int, most=MAX_WORKERS), metavar="K")
    p.add_argument("--chunk-size", type=positive(int), default=250, metavar="N")
    add_executor_flags(p)
    add_geometry_flags(p)
    return p


def main(argv: Sequence[str] | None = None) -> int:
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
    rated = rate_lengths(
        puzzles,
        timeout=args.timeout,
        budget=budget_from(args.budget),
        length_depth=args.length_depth,
        chunk_size=args.chunk_size,
        workers=args.workers,
        executor=args.executor,
        scheduler=args.scheduler,
    )
    columns = compare(rated, published, names)
    settled = len(rated.settled)
    print(f"machine: {machine()}")
    print(f"work budget per puzzle: {budget_from(args.budget).describe()}")
    print(machine_dependence(args.timeout, "a puzzle"))
    causes = rated.unsettled()
    words = {
        "budget": "past the work budget",
        "timeout": "past the time limit",
        "deeper": f"deeper than {args.length_depth}",
        "unsat": "contradictory",
    }
    why = ", ".join(f"{causes[k]} {words[k]}" for k in words if causes[k] or k != "unsat")
    print(
        f"{len(puzzles)} puzzles of {args.table}; rated {settled} "
        f"({len(puzzles) - settled} unsettled: {why})"
    )
    rows = [[c.name, len(c.pairs), f"{c.spearman:.4f}", f"{c.kendall_tau_b:.4f}"] for c in columns]
    print()
    headers = ["column", "puzzles", "Spearman", "Kendall tau-b"]
    print(tabulate(rows, headers=headers, tablefmt="github", disable_numparse=True))
    for column in (c for name in EXACT for c in columns if c.name == name):
        name, pairs = column.name, column.pairs
        share = column.equal / max(1, len(puzzles))  # unsettled puzzles count as misses
        print()
        print(f"rating == {name}: {column.equal} of {len(puzzles)} ({100 * share:.2f}%)")
        if name == "W":
            zero = [a for a, b in pairs if b == 0]
            print(f"W = 0: {len(zero)} puzzles, {sum(a == 0 for a in zero)} rated 0")
        if name in GOALS:
            least_equal, least_rho, _ = GOALS[name]
            print(
                f"goal: rating == {name} on >= {100 * least_equal:g}%: {met(share >= least_equal)}"
            )
            print(f"goal: Spearman >= {least_rho:g}: {met(column.spearman >= least_rho)}")
        print()
        print(f"rating (columns) against {name} (rows):")
        print(confusion([a for a, _ in pairs], [b for _, b in pairs], name))
    times = np.array(rated.seconds) * 1e3
    print()
    print(
        f"time per puzzle (rating only): median {np.median(times):.2f} ms, mean "
        f"{times.mean():.2f} ms, 90% {np.percentile(times, 90):.2f} ms, worst {times.max():.1f} ms"
    )
    for name in (name for name in EXACT if name in names and name in GOALS):
        most = GOALS[name][2]
        print(f"goal: median <= {most:g} s a puzzle: {met(np.median(times) <= most * 1e3)}")
    print(f"wall time {rated.wall:.1f} s with {args.workers} worker(s) ({args.executor})")
    print(f"load average at the end: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
