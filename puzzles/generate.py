"""`python -m benchmarks generate`: random full grids and puzzles, reproducible from a seed.

The command line of `puzzles.generation` (the methods, the request, the report): the
flags become a `Request`, a progress bar (puzzles found, attempts made) goes to stderr
when it is a terminal, unless --quiet, and the puzzles are written after a header that
says how to make them again (`# command:`, `# seed:`, `# geometry:`).

Ctrl-C ends the run with the puzzles found so far: written as usual (the header says the
run was interrupted), then exit status 130.  `-o FILE` is checked for writing before
the work, and written to a temporary file renamed into place (`puzzles.outputs`).

    python -m benchmarks generate --method depth --depth 1 --count 100 --seed 7 -o FILE
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence

from tqdm import tqdm

from cli.flags import MAX_DEPTH, positive
from encoder.cli_common import Parser, add_geometry_flags, variant_of
from encoder.output_files import check_file, write_text
from puzzles.fullgrid import SEARCHED_UP_TO
from puzzles.generation import METHODS, Request, generate, geometry_flags, header, summary
from puzzles.outputs import print_out


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="python -m benchmarks generate",
        description="Generate random puzzles (any geometry), reproducible from a seed.",
    )
    parser.add_argument("--method", choices=METHODS, required=True)
    parser.add_argument(
        "--givens",
        type=positive(int, zero=True),
        metavar="K",
        help="random/remove: number of givens (required); minimal/depth: at most K",
    )
    parser.add_argument(
        "--depth",
        type=positive(int, zero=True, most=MAX_DEPTH),
        metavar="D",
        help="depth: the rating wanted",
    )
    parser.add_argument(
        "--count", type=positive(int), default=1, metavar="N", help="puzzles (default 1)"
    )
    parser.add_argument(
        "--seed",
        type=positive(int, zero=True),
        default=1,
        metavar="S",
        help="random seed (default 1)",
    )
    parser.add_argument(
        "--unique", action="store_true", help="random/remove: keep only puzzles with one solution"
    )
    parser.add_argument(
        "--attempts",
        type=positive(int),
        metavar="A",
        help="stop after A candidate puzzles, with what was found (default 1000 per puzzle)",
    )
    parser.add_argument(
        "--jigsaw",
        action="store_true",
        help="a fresh random jigsaw region map per puzzle; lines are written puzzle|regions",
    )
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default stdout)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or report")
    add_geometry_flags(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.jigsaw and args.regions:
        parser.error("--jigsaw draws its own region maps: do not give --regions too")
    if args.jigsaw and args.no_boxes:
        parser.error("--jigsaw replaces the boxes already: do not give --no-boxes")
    try:
        request = Request(
            method=args.method,
            count=args.count,
            seed=args.seed,
            givens=args.givens,
            depth=args.depth,
            unique=args.unique,
            attempts=args.attempts,
            jigsaw=args.jigsaw,
        )
    except ValueError as error:
        parser.error(str(error))
    geometry = variant_of(args).geometry(args.size or 9)
    if geometry.size > SEARCHED_UP_TO and (
        args.method not in ("remove", "full") or args.unique or args.jigsaw
    ):
        parser.error(
            f"beyond {SEARCHED_UP_TO}x{SEARCHED_UP_TO} only --method remove and full are "
            "made (no solution counting: no --unique, minimal or depth; no --jigsaw)"
        )
    if args.givens is not None and not 0 <= args.givens <= geometry.num_cells:
        parser.error(f"--givens must be between 0 and {geometry.num_cells}")
    if args.output:
        check_file(args.output)  # before the work: a run learns at once it cannot keep it
    show = not args.quiet and sys.stderr.isatty()
    with tqdm(total=request.count, disable=not show, unit="puzzle", file=sys.stderr) as bar:

        def progress(accepted: int, attempts: int) -> None:
            bar.n = accepted
            bar.set_postfix_str(f"attempts {attempts} of {request.max_attempts}", refresh=False)
            bar.update(0)

        bar.set_postfix_str(f"attempts 0 of {request.max_attempts}")
        report = generate(request, geometry, progress)
    if not args.quiet:
        print(summary(request, report), file=sys.stderr)
    if not report.puzzles and request.count:
        if report.interrupted:
            raise KeyboardInterrupt  # reported by the front end: nothing to keep
        print("benchmarks: no puzzle found; nothing written", file=sys.stderr)
        return 1
    command = "python -m benchmarks generate " + shlex.join(argv)
    flags = geometry_flags(variant_of(args), geometry)
    lines = header(request, geometry, command, flags, report)
    lines += [p.line() for p in report.puzzles]
    text = "\n".join(lines) + "\n"
    if args.output:
        write_text(args.output, text)  # renamed into place when complete
    else:
        print_out(text)
    if report.interrupted:
        where = f", written to {args.output}" if args.output else ""
        kept = f"{len(report.puzzles)} of {request.count} puzzles kept{where}"
        print(f"benchmarks: interrupted: {kept}", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
