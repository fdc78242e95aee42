"""The flags every command that rates or runs chunks shares, and the bounds of their values.

`add_executor_flags` declares --executor and --scheduler (`scheduler_address` checks an
address before anything connects, `settle_executor_flags` checks the pair and fills in
--workers); `add_budget_flag` declares the repeatable `--budget KIND=N` (`budget_item`
parses one); `positive` is the argparse type of every numeric option (--workers,
--timeout, --limit, ...), bounded by MAX_COUNT, MAX_SECONDS, MAX_DEPTH and MAX_WORKERS;
`command_line` is the type of an external solver's command.  The front ends that use
them: `solvers rate`, `benchmarks run`, `stats`, `agreement`, `speed`, `encodings`,
`encoder-speed`.  The geometry flags, the GRID argument and the one error handler are
the encoder's (`encoder.cli_common`).

The bounds of a count, a time limit and a nesting depth are the C core's own
(`solvers.core`): a value past them would overflow what reads it (its 64-bit counters and
nanosecond deadlines, the interval timer).
"""

from __future__ import annotations

import argparse
import math
import shlex
from collections.abc import Mapping, Sequence

from executors import EXECUTORS, available_cores
from solvers.core import extension

# The core's bounds (bounds.h), each defined there once: counts and budgets in a C int64,
# the nesting of hypotheses, and a time limit (about 11.6 days; no limit at all is
# --timeout left out), a float as the seconds flags parse.
MAX_COUNT = extension.MAX_COUNT
MAX_DEPTH = extension.MAX_DEPTH
MAX_SECONDS = float(extension.MAX_SECONDS)
MAX_WORKERS = 1024  # processes, each an interpreter of its own: what no machine gives


def add_executor_flags(group: argparse._ActionsContainer) -> None:
    """Declare --executor and --scheduler, for every command that runs chunks
    (`benchmarks run`, `benchmarks stats`, `benchmarks agreement`, `solvers rate`)."""
    group.add_argument(
        "--executor",
        choices=list(EXECUTORS),
        default="local",
        help="where chunks run: local processes (--workers) or a Dask cluster (default local)",
    )
    group.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        type=scheduler_address,
        help="--executor dask: address of a running Dask scheduler (tcp://HOST:8786); "
        "default: a LocalCluster of --workers processes on this machine",
    )


def scheduler_address(text: str) -> str:
    """argparse type of --scheduler: an address Dask could reach, checked before anything
    connects (`executors.dask_cluster.scheduler_problem`)."""
    from executors.dask_cluster import scheduler_problem

    problem = scheduler_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


def settle_executor_flags(
    parser: argparse.ArgumentParser, args: argparse.Namespace, local_workers: int = 1
) -> None:
    """Check --scheduler against --executor (a usage error) and fill in --workers when
    it was not given: all cores for a Dask LocalCluster, `local_workers` otherwise."""
    if args.scheduler is not None and args.executor != "dask":
        parser.error("--scheduler needs --executor dask")
    if args.workers is None:
        args.workers = available_cores() if args.executor == "dask" else local_workers


def positive(kind, zero: bool = False, most: float | None = None):
    """Return an argparse type: a number of `kind` above 0 (or at least 0 if `zero`), and
    at most `most` (default MAX_COUNT for a whole number, MAX_SECONDS for seconds)."""
    if most is None:
        most = MAX_COUNT if kind is int else MAX_SECONDS

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not math.isfinite(value):  # nan compares false with everything: say so here
            raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
        if value < 0 or (value == 0 and not zero):
            raise argparse.ArgumentTypeError(f"must be {'>= 0' if zero else '> 0'}, not {text}")
        if value > most:
            raise argparse.ArgumentTypeError(f"must be at most {int(most):,}, not {text}")
        return value

    return parse


def budget_item(kinds: Sequence[str]):
    """Return an argparse type for one `--budget KIND=N`: (kind, N), N a whole number
    >= 1 (`_` and scientific notation such as 1e6 accepted when whole)."""

    def parse(text: str) -> tuple[str, int]:
        kind, sep, number = text.partition("=")
        kind = kind.strip()
        if not sep or kind not in kinds:
            raise argparse.ArgumentTypeError(
                f"expected KIND=N with KIND one of {', '.join(kinds)}, not {text!r}"
            )
        try:
            value = float(number.replace("_", "")) if number.strip() else math.nan
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value != int(value) or value < 1:
            raise argparse.ArgumentTypeError(
                f"{kind} budget must be a whole number >= 1, not {number!r}"
            )
        if value > MAX_COUNT:  # the core counts in 64 bits
            raise argparse.ArgumentTypeError(
                f"{kind} budget must be at most {MAX_COUNT:,}, not {number!r}"
            )
        return kind, int(value)

    return parse


def add_budget_flag(parser, defaults: Mapping[str, int]) -> None:
    """Declare the repeatable `--budget KIND=N` (its value: a list of (kind, N)), the
    work budget per grid whose kinds and defaults are `defaults` (solvers.budgets)."""
    parser.add_argument(
        "--budget",
        action="append",
        type=budget_item(tuple(defaults)),
        default=[],
        metavar="KIND=N",
        help="work budget per grid, in the engine's own units (repeatable; KIND: "
        f"work, default {defaults['work']:,} work units: the home-grown engine and the "
        f"depth rating; searches, default {defaults['searches']:,}: refutation length and "
        f"BxB; conflicts, default {defaults['conflicts']:,}: PySAT solvers); a grid past it "
        "is labelled >budget, the same on every machine",
    )


def command_line(text: str) -> str:
    """argparse type of a solver command: non-empty, and split the way a shell would."""
    try:
        words = shlex.split(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"cannot split {text!r}: {error}") from None
    if not words or words[0] in ("{cnf}", "{out}"):
        raise argparse.ArgumentTypeError(f"{text!r} names no program")
    return text
