"""`python -m benchmarks speed`: the command line of the speed questions.

Reads the flags, checks the records named by --compare and the --out file before anything
is timed, has `benchmarks.speed.measure` answer the questions asked (the flags become a
`Questions` record), writes the run's record and prints the comparisons asked for.  The
questions themselves are the package's (`benchmarks.speed`, whose docstring lists them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import fields

from benchmarks import speed
from benchmarks.speed import record as records
from benchmarks.speed.bxb import BXB_SET
from benchmarks.speed.common import DEEPER_SET, HARDEST_SET, SEVENTEEN_SET
from benchmarks.speed.measure import Questions, measure
from cli.flags import positive, scheduler_address
from encoder.cli_common import Parser
from encoder.output_files import check_file, write_text


def sizes(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected sizes such as 100000,1000000: {text!r}"
        ) from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive sizes: {text!r}")
    return values


def parser() -> argparse.ArgumentParser:
    p = Parser(prog="python -m benchmarks speed", description=speed.__doc__.splitlines()[0])
    p.add_argument(
        "--seventeen",
        help=f"17-clue grids: a file or set name ({SEVENTEEN_SET}; skipped when absent)",
    )
    p.add_argument(
        "--hardest",
        help=f"grids for depth 2: a file or set name ({HARDEST_SET}; skipped when absent)",
    )
    p.add_argument(
        "--deeper",
        help=f"grids for depth 3: a file or set name ({DEEPER_SET}; skipped when absent)",
    )
    p.add_argument(
        "--limit", type=positive(int, zero=True), default=0, help="grids per set (0 = all)"
    )
    p.add_argument(
        "--baseline-limit",
        type=positive(int),
        default=200,
        help="grids for the slow Python baseline",
    )
    p.add_argument(
        "--skip-commands",
        action="store_true",
        help="skip question 4 and the commands of question 9",
    )
    p.add_argument(
        "--scale",
        type=sizes,
        default=[],
        metavar="N,...",
        help="question 5: rate and run over N grids each (e.g. 100000,1000000)",
    )
    p.add_argument(
        "--scale-length",
        action="store_true",
        help="question 5: also with the refutation-length rating (the default; slow)",
    )
    p.add_argument(
        "--workers",
        type=sizes,
        default=[2],
        metavar="K,...",
        help="question 5: local workers, each count in turn (e.g. 1,2; default 2)",
    )
    p.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help="question 5: also on the Dask cluster of this scheduler (tcp://HOST:8786)",
    )
    p.add_argument(
        "--skip-proofs", action="store_true", help="skip question 6 (rating with proofs)"
    )
    p.add_argument(
        "--check-limit",
        type=positive(int),
        default=1000,
        metavar="N",
        help="question 6: proofs checked per list (default 1000)",
    )
    p.add_argument(
        "--bxb-every", type=positive(int), default=50, metavar="K",
        help=f"question 7: every K-th grid of {BXB_SET} (default 50)",
    )  # fmt: skip
    p.add_argument("--skip-bxb", action="store_true", help="skip question 7 (BxB)")
    p.add_argument("--skip-core", action="store_true", help="skip question 9 (the native core)")
    p.add_argument(
        "--skip-main-job",
        action="store_true",
        help="skip question 12 (the README's main job, benchmarks run --out DIR: 15-30 s)",
    )
    p.add_argument(
        "--harness-sizes",
        type=sizes,
        default=[20_000, 200_000, 1_000_000],
        metavar="N,...",
        help="question 13: benchmarks run up,fl,fl2 over N grids each "
        "(default 20000,200000,1000000: about two minutes)",
    )
    p.add_argument(
        "--skip-harness", action="store_true", help="skip question 13 (the harness's speed)"
    )
    p.add_argument(
        "--skip-search", action="store_true", help="skip question 14 (search on the board)"
    )
    p.add_argument(
        "--skip-exact-study",
        action="store_true",
        help="question 14: skip the exact study (stats --exact over givens 21-60: minutes)",
    )
    p.add_argument(
        "--install",
        action="store_true",
        help="question 11: pip install . into a fresh environment and time the first rate "
        "(a build: a minute or more)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bars")
    p.add_argument(
        "--out", metavar="FILE.json", help="write the run's record (figures, targets, metadata)"
    )
    p.add_argument(
        "--compare",
        nargs="+",
        metavar="A.json",
        help="A.json B.json: print the ratios B/A of two records, measuring nothing; "
        "OLD.json alone: those of a fresh run against OLD",
    )
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    p = parser()
    args = p.parse_args(argv)
    if args.compare and len(args.compare) > 2:
        p.error("--compare takes one record (against a fresh run) or two")
    old = [records.load(path) for path in args.compare or ()]  # bad records first
    if len(old) == 2:
        print(records.render(*old, *args.compare), end="")
        return 0
    if args.out:
        check_file(args.out)  # before the run: its record could not be kept
    from solvers.limits import sigint_kept_by_python

    record = records.Record()
    # PySAT's calls here are made bare, to time them as they are; kept from PySAT's own
    # Ctrl-C handler (a longjmp that can leave from inside malloc), a Ctrl-C waits for
    # the call in progress to return.
    with sigint_kept_by_python():
        measure(Questions(**{f.name: getattr(args, f.name) for f in fields(Questions)}), record)
    document = record.document(run_metadata(argv, args))
    if args.out:
        write_text(args.out, records.dumps(document))
    if old:
        print(f"\n{records.render(old[0], document, args.compare[0], 'this run')}", end="")
    return 0


def run_metadata(argv: list[str], args: argparse.Namespace) -> dict:
    """Return the record's metadata: benchmarks.report's, the command line and options."""
    from benchmarks.report.metadata import metadata

    options = {key: value for key, value in vars(args).items() if key not in ("out", "compare")}
    return metadata(argv=["benchmarks", "speed", *argv], options=options)


if __name__ == "__main__":
    raise SystemExit(main())
