"""`python -m benchmarks stats`: the school paper's study (`studies.solutions_vs_givens`)
from the command line.

Outputs: a table per method on stdout, `solutions_vs_givens.csv` and
`solutions_vs_givens.png` (mean on a log scale versus k, one curve per method; share
of unique grids below) in --out.  --out is checked for writing before the study; the
tables are printed first and the files written after, each renamed into place when
complete (`encoder.output_files`), so a full disk loses no table and a closed stdout no
file.  Ctrl-C keeps the chunks finished: their tables and files, and exit status 130.

    python -m benchmarks stats --givens 17-45 --samples 300 --seed 1 --workers 2 --out docs
        [--executor dask [--scheduler tcp://HOST:8786]]
"""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from collections.abc import Sequence

from benchmarks.paths import machine
from cli.flags import MAX_WORKERS, add_executor_flags, positive, settle_executor_flags
from encoder.cli_common import Parser, add_geometry_flags, variant_of
from encoder.output_files import check_folder
from puzzles.outputs import Interrupted, print_out
from studies.solutions_vs_givens import (
    CI_METHOD,
    CSV_NAME,
    EXACT_WORK,
    METHODS,
    PLOT_NAME,
    plot,
    run_study,
    summarize,
    tables,
    thresholds,
    write_csv,
)


def parse_range(spec: str) -> list[int]:
    """Return the ks of 'A-B', 'A-B:STEP' or a comma-separated list of those."""
    ks: list[int] = []
    try:
        for part in spec.split(","):
            bounds, _, step = part.partition(":")
            low, _, high = bounds.partition("-")
            first, last = int(low), int(high or low)
            if int(step or 1) < 1 or last < first:
                raise ValueError
            ks.extend(range(first, last + 1, int(step or 1)))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{spec!r}: expected A-B, A-B:STEP or a comma list (e.g. 17-45:2)"
        ) from None
    return sorted(set(ks))


def _where(args: argparse.Namespace) -> str:
    """Return where the samples ran, for the notes above the tables."""
    if args.executor != "dask":
        return f"{args.workers} worker(s)"
    if args.scheduler:
        return f"the Dask cluster at {args.scheduler}"
    return f"a Dask LocalCluster of {args.workers} worker(s)"


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = Parser(
        prog="python -m benchmarks stats",
        description="Mean number of solutions of random grids versus the number of givens, "
        "for the school paper's two methods.",
    )
    parser.add_argument(
        "--givens", type=parse_range, required=True, metavar="A-B[:STEP]", help="values of k"
    )
    parser.add_argument(
        "--samples", type=positive(int), default=100, metavar="N", help="grids per point"
    )
    parser.add_argument("--seed", type=positive(int, zero=True), default=1, metavar="S")
    parser.add_argument(
        "--workers",
        type=positive(int, most=MAX_WORKERS),
        metavar="K",
        help="processes (default 1; with --executor dask and no --scheduler: all cores)",
    )
    add_executor_flags(parser)
    parser.add_argument(
        "--cap",
        type=positive(int),
        default=10_000,
        metavar="C",
        help="count up to C (default 10,000)",
    )
    parser.add_argument(
        "--exact",
        action="store_true",
        help="count every solution, with no cap (a work budget of EXACT_WORK a grid still "
        "bounds each count; a count it stops is reported as stopped)",
    )
    parser.add_argument(
        "--methods",
        default=",".join(METHODS),
        help="comma list of random,remove (default both)",
    )
    parser.add_argument(
        "--out",
        metavar="DIR",
        help="write the plot (PNG) and the table (CSV) there (without it: printed only)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_geometry_flags(parser)
    args = parser.parse_args(argv)
    methods = [m.strip() for m in args.methods.split(",") if m.strip()]
    if not methods or any(m not in METHODS for m in methods):
        parser.error(f"--methods: choose among {', '.join(METHODS)}")
    settle_executor_flags(parser, args)
    cap = None if args.exact else args.cap
    geometry = variant_of(args).geometry(args.size or 9)
    if max(args.givens) > geometry.num_cells:
        parser.error(f"--givens: at most {geometry.num_cells} for {geometry.describe()}")
    if args.out is not None:
        check_folder(args.out)  # before the work: the study learns at once it cannot keep it
    command = "python -m benchmarks stats " + shlex.join(argv)
    start = time.perf_counter()
    show = not args.quiet and sys.stderr.isatty()
    total = len(methods) * len(args.givens) * args.samples
    interrupted = False
    try:
        samples = run_study(
            geometry,
            args.givens,
            args.samples,
            args.seed,
            cap,
            args.workers,
            methods,
            show,
            args.executor,
            args.scheduler,
        )
    except Interrupted as stop:  # the chunks finished are kept, reported and written
        samples, interrupted = stop.kept, True
        if not samples:
            raise
    seconds = time.perf_counter() - start
    points = summarize(samples, args.seed)
    about = [
        f"command: {command}",
        f"grids: {geometry.describe()}; {args.samples} samples per point; seed {args.seed}; "
        + (
            f"every solution counted (exact) by the board's DPLL, within {EXACT_WORK:,} work "
            "units a grid"
            if cap is None
            else f"solutions counted up to {cap:,} by the board's DPLL"
        ),
        CI_METHOD,
        f"machine: {machine()}; {_where(args)}, {seconds:.1f} s",
    ]
    if interrupted:
        about.append(f"INTERRUPTED: {len(samples):,} of {total:,} samples (see n per point)")
    # The tables first, then the files: a file that cannot be written loses no table,
    # and a reader leaving early (`| head`) loses no file.
    print_out(
        "\n".join(about)
        + "\n\n"
        + tables(points, cap)
        + "\n\n"
        + "\n".join(thresholds(points))
        + ("\n" if args.out else "\n\n(no --out DIR: the plot and the CSV were not written)\n")
    )
    if interrupted:
        print(
            f"benchmarks: interrupted: {len(samples):,} of {total:,} samples kept",
            file=sys.stderr,
        )
    if args.out is not None:
        png = os.path.join(args.out, PLOT_NAME)
        table_path = os.path.join(args.out, CSV_NAME)
        n_label = f"{args.samples} grids per point"
        title = (
            f"Random {geometry.describe()} grids: solutions versus givens "
            f"({n_label}, seed {args.seed})"
        )
        plot(points, png, title, cap)
        write_csv(points, table_path, about)
        print_out(f"\nwrote {png} and {table_path}\n")
    return 130 if interrupted else 0


if __name__ == "__main__":
    raise SystemExit(main())
