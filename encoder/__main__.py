"""Command line: `python -m encoder GRID > grid.cnf` and `python -m encoder decode MODEL`.

Only argument parsing, I/O and exit codes live here: 0 on success, 1 for bad input
(one line `encoder: FILE:LINE: problem` on stderr), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from encoder.amo import AMO_ENCODINGS
from encoder.check import solution_problems
from encoder.cli_common import (
    Parser,
    add_geometry_flags,
    all_puzzles,
    one_puzzle,
    run_front_end,
    variant_of,
    write_with,
)
from encoder.decode import grid_from_model
from encoder.dimacs import read_model
from encoder.emit import write_cnf
from encoder.encodings import ENCODINGS, GIVEN_STYLES
from encoder.errors import InputError
from encoder.geometry import MAX_SIZE
from encoder.grids import format_line, format_pretty
from encoder.output_files import check_folder
from encoder.simplify import original_model, read_map
from encoder.status import Status
from encoder.variant import Variant
from encoder.version import __version__

PROG = "encoder"
CLASSIC_SIZES = (4, 6, 9, 12, 16, 25)  # tried first when decode guesses N


def encode_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=f"python -m {PROG}",
        description="Encode a Sudoku grid as CNF (DIMACS). GRID is a grid of N*N symbols, "
        "a file of grids (one per line) or '-' for stdin. See also: python -m encoder decode -h",
    )
    parser.add_argument("grid", nargs="?", metavar="GRID", help="grid, file or '-'")
    parser.add_argument(
        "--encoding",
        choices=ENCODINGS,
        default="centrale",
        help="rule formula (default: centrale, the exam's 11,988 clauses)",
    )
    parser.add_argument(
        "--givens",
        choices=GIVEN_STYLES,
        help="grid formula: centrale = the exam's F1 and F2, units = one unit per "
        "given (default: centrale)",
    )
    parser.add_argument(
        "--amo",
        choices=AMO_ENCODINGS,
        default="pairwise",
        metavar="ENC",
        help="at-most-one encoding of every K2 L2 C2 B2 ... constraint: "
        + ", ".join(AMO_ENCODINGS)
        + " (default: pairwise, the exam's); auxiliary variables come after the cell "
        "variables, their ranges in the comments",
    )
    parser.add_argument(
        "--simplify",
        action="store_true",
        help="apply the givens before writing: satisfied clauses dropped, false literals "
        "removed, the open variables renumbered 1..m (the map in the comments; decode it "
        "with decode --cnf)",
    )
    parser.add_argument("--rules-only", action="store_true", help="emit the rule formula alone")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    parser.add_argument(
        "--index", type=int, metavar="N", help="encode puzzle N (0-based) of a file with several"
    )
    parser.add_argument(
        "--out-dir", metavar="DIR", help="encode every puzzle of the file, one numbered .cnf each"
    )
    parser.add_argument(
        "--allow-conflicts",
        action="store_true",
        help="encode grids whose givens clash (the formula is then UNSAT)",
    )
    parser.add_argument("--version", action="version", version=f"sudoku-sat {__version__}")
    add_geometry_flags(parser)
    return parser


def decode_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog=f"python -m {PROG} decode",
        description="Turn a SAT solver's model into a grid. MODEL is SAT-competition output "
        "(s/v lines), MiniSat's result file, or a list of literals; '-' reads stdin.",
    )
    parser.add_argument("model", metavar="MODEL")
    parser.add_argument("--grid", metavar="GRID", help="check the givens of this grid are kept")
    parser.add_argument(
        "--index", type=int, metavar="N", help="puzzle N (0-based) of the --grid file"
    )
    parser.add_argument("--pretty", action="store_true", help="print the grid boxed over N lines")
    parser.add_argument(
        "--cnf",
        metavar="FILE",
        help="the CNF the model answers: a formula written with --simplify is decoded "
        "through the renumbering map in its comments",
    )
    add_geometry_flags(parser)
    return parser


def run_encode(argv: Sequence[str]) -> int:
    parser = encode_parser()
    args = parser.parse_args(argv)
    # Options that contradict each other are usage errors (a default contradicts nothing).
    if args.givens is not None and (args.simplify or args.rules_only):
        instead = (
            ", which --simplify applies instead" if args.simplify else ": --rules-only has none"
        )
        parser.error(f"--givens writes a grid's givens as clauses{instead}")
    args.givens = args.givens or "centrale"
    if args.rules_only:
        if args.grid or args.index is not None or args.out_dir:
            parser.error("--rules-only takes no GRID, --index or --out-dir")
        if args.simplify:
            parser.error("--simplify applies a grid's givens: it needs a GRID")
        if args.allow_conflicts:
            parser.error("--allow-conflicts is about a grid's givens: --rules-only has none")
        geometry = variant_of(args).geometry(args.size or 9)
        write_with(
            lambda out: write_cnf(out, None, geometry, args.encoding, args.givens, amo=args.amo),
            args.output,
        )
        return 0
    if args.grid is None:
        parser.error("GRID is required (or --rules-only)")
    if args.out_dir and (args.index is not None or args.output):
        parser.error("--out-dir writes one file per puzzle: it excludes --index and -o")

    def encode(puzzle, path: str | None) -> None:
        """Stream the puzzle's formula to `path` (stdout when None)."""
        write_with(
            lambda out: write_cnf(
                out,
                puzzle.grid,
                puzzle.geometry,
                args.encoding,
                args.givens,
                puzzle.source,
                args.amo,
                args.simplify,
            ),
            path,
        )

    if args.out_dir:
        puzzles = all_puzzles(args.grid, args, args.allow_conflicts)
        check_folder(args.out_dir)
        stem = "stdin" if args.grid == "-" else os.path.splitext(os.path.basename(args.grid))[0]
        for number, puzzle in enumerate(puzzles):
            encode(puzzle, os.path.join(args.out_dir, f"{stem}-{number:05d}.cnf"))
        print(f"{PROG}: wrote {len(puzzles)} files to {args.out_dir}", file=sys.stderr)
        return 0
    puzzle = one_puzzle(
        args.grid, args, args.index, args.allow_conflicts, " or encode all with --out-dir DIR"
    )
    encode(puzzle, args.output)
    return 0


def run_decode(argv: Sequence[str]) -> int:
    parser = decode_parser()
    args = parser.parse_args(argv)
    if args.index is not None and not args.grid:
        parser.error("--index picks a puzzle of the --grid file: give --grid too")
    model = read_model(args.model)
    name = "<stdin>" if args.model == "-" else args.model
    if model.status is not Status.SAT:
        raise InputError(f"the solver answered {model.status}: there is no grid to decode", name)
    literals = model.literals
    if args.cnf:
        mapping = read_map(_comment_head(args.cnf), args.cnf)
        if mapping is not None:
            literals = original_model(literals, *mapping)
    puzzle = None
    if args.grid:
        puzzle = one_puzzle(args.grid, args, args.index, allow_conflicts=True)
        geometry = puzzle.geometry
    else:
        n = args.size or _size_from_model(literals)
        geometry = variant_of(args).geometry(n)
    try:
        grid = grid_from_model(literals, geometry)
    except InputError as error:
        raise error.located(name) from None
    # Checked against the rules even without --grid: a model of another formula, or a
    # solver's wrong answer, decodes to a grid that breaks them.
    givens = puzzle.grid if puzzle is not None else (0,) * geometry.num_cells
    problems = solution_problems(grid, givens, geometry)
    if problems:
        what = (
            f"is not a solution of {puzzle.source}"
            if puzzle
            else f"breaks the rules ({geometry.describe()})"
        )
        raise InputError(f"the model {what}: {problems[0]}", name)
    print(format_pretty(grid, geometry) if args.pretty else format_line(grid, geometry))
    return 0


def _size_from_model(literals: Sequence[int]) -> int:
    """Guess N when no --size is given: the N whose cell variables decode to a grid.

    Candidates: the smallest N with N³ at least the largest variable (a model listing
    only true literals), then every N with N³ below it, largest first (a model that
    also lists auxiliary variables, as the augmented encoding has)."""
    top = max((abs(lit) for lit in literals), default=0)
    candidates = []
    for sizes in (CLASSIC_SIZES, range(4, MAX_SIZE + 1)):  # the usual sizes first
        smallest = [n for n in sizes if n**3 >= top][:1]
        candidates += smallest + [n for n in reversed(sizes) if n**3 < top]
    for n in dict.fromkeys(candidates):
        try:
            grid_from_model(literals, Variant(no_boxes=True).geometry(n))
        except InputError:
            continue
        return n
    if not candidates:
        raise InputError(f"variable {top} is beyond a {MAX_SIZE}x{MAX_SIZE} grid: give --size")
    return candidates[0]  # decoding it again reports what is wrong with the model


def _comment_head(path: str) -> str:
    """Return the comment lines at the top of a CNF file (the simplification map)."""
    lines = []
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if not line.startswith("c"):
                    break
                lines.append(line)
    except OSError as error:
        raise InputError(f"cannot read: {error.strerror}", path) from None
    return "".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "decode":
        return run_front_end(PROG, lambda: run_decode(argv[1:]))
    return run_front_end(PROG, lambda: run_encode(argv))


if __name__ == "__main__":
    raise SystemExit(main())
