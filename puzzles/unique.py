"""`python -m benchmarks unique`: check that every puzzle of a file has one solution
(and, with `--minimal`, that every given is needed).

As in the school paper, uniqueness means that no second solution exists.  The count
comes from one of the two counters of `puzzles.counting` (the home engine's, which is
the board's DPLL for the rules it computes, or PySAT with blocking clauses with
`--counter pysat`).  A plain file (`encoder.grid_arrays`) counted by the engine goes
to the board a block of grids a call, and so do the `--minimal` tests of a block (each
unique grid less each of its givens), with no Python record per grid.  A file is read
as `benchmarks run` reads it (`encoder.puzzle_files`): the variant from the geometry
flags, else from the file's `# geometry: FLAGS` header (written by `generate`), else
from its name (`_x`, `hyper`); CSV/TSV files by their puzzle column.  A file without
a puzzle is refused (exit 1), as `run` refuses it; Ctrl-C ends the run with the
summary of the puzzles checked so far and exit status 130.

With `--proof DIR`, each unique puzzle N (0-based, in file order) gets DIR/N.cnf, its
formula with the clause that forbids its solution, and DIR/N.drup (N.lrat with
`--proof-format lrat`), the engine's proof that this formula is unsatisfiable
(`solvers.proofs.write.uniqueness_proof`), which `python -m solvers check DIR/N.cnf
DIR/N.drup` verifies without the engine.

    python -m benchmarks unique data/sets/sudoku9_minimal.txt [--minimal] [--cap C]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from cli.flags import positive
from encoder.cli_common import Parser, add_geometry_flags, variant_of
from encoder.errors import GridError
from encoder.geometry import Geometry
from encoder.grid_arrays import grid_array
from encoder.grids import first_clash
from encoder.output_files import check_folder, write_text
from encoder.puzzle_files import open_source
from puzzles.counting import (
    PysatCounter,
    SolutionCounter,
    describe,
    necessary_givens,
)
from solvers.budgets import DEFAULT_WORK
from solvers.core.extension import MAX_SIDE, STATUS_BUDGET, STATUS_EXHAUSTED
from solvers.core.rules import GridRules
from solvers.proofs.beside import FORMATS
from solvers.proofs.write import uniqueness_proof
from solvers.results import SolutionCount

COUNTERS = ("engine", "pysat")
BLOCK = 1 << 14  # grids a call of the board
VARIANT_ROWS = 1 << 16  # --minimal: grids less one given counted a call (a few MB)


def make_counter(geometry: Geometry, counter: str = "engine") -> SolutionCounter:
    """Return a counter (`engine` or `pysat`) for grids of `geometry`."""
    if counter == "engine":
        return GridRules(geometry)
    if counter == "pysat":
        return PysatCounter(geometry)
    raise ValueError(f"unknown counter {counter!r}; choose from {', '.join(COUNTERS)}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = Parser(
        prog="python -m benchmarks unique",
        description="Check that every puzzle of a file has exactly one solution "
        "(exit 0 if all do, 1 otherwise).",
    )
    parser.add_argument("file", help="puzzle file (one per line, # comments), or - for stdin")
    parser.add_argument(
        "--counter", choices=COUNTERS, default="engine", help="who counts (default: engine)"
    )
    parser.add_argument(
        "--cap", type=positive(int), default=2, help="count solutions up to this many (default 2)"
    )
    parser.add_argument(
        "--minimal",
        action="store_true",
        help="also check minimality: removing any one given must allow a second solution",
    )
    parser.add_argument(
        "--column", help="puzzle column of CSV/TSV files (default: puzzle)", default=None
    )
    parser.add_argument(
        "--proof",
        metavar="DIR",
        help="write, for each unique puzzle N, DIR/N.cnf (its formula with its solution "
        "forbidden) and DIR/N.drup (a proof that it is unsatisfiable; N.lrat with "
        "--proof-format lrat)",
    )
    parser.add_argument(
        "--proof-format",
        choices=FORMATS,
        default="drup",
        help="the proofs' format: DRUP, or LRAT (each lemma with its hints, checked in "
        "linear time)",
    )
    add_geometry_flags(parser)
    args = parser.parse_args(argv)
    if args.cap < 2:
        parser.error("--cap must be at least 2 (a second solution must be looked for)")
    # read as `benchmarks run` reads it: variant from flags, catalogue, header or file name
    opened = open_source(args.file, variant_of(args), args.column)
    whole = grid_array(opened) if args.counter == "engine" and args.proof is None else None
    if whole is not None and whole.values.shape[0] and whole.geometry.size <= MAX_SIDE:
        return _on_the_board(whole, opened, args)
    puzzles = list(opened.puzzles(allow_conflicts=True))  # a clash: no solution, named
    if puzzles:
        _say_variant(args.file, opened, puzzles[0].geometry)
    if not puzzles:  # as `run`, `rate` and `encoder` do: nothing checked is no success
        raise GridError("no grid found (only blank lines or comments)", args.file)
    if args.proof is not None:
        check_folder(args.proof)
    start = time.perf_counter()
    counters: dict[Geometry, SolutionCounter] = {}
    provers: dict[Geometry, GridRules] = {}
    not_minimal = checked = 0
    tally: dict[str, int] = {"unique": 0, "no solution": 0, "several solutions": 0}
    try:
        for index, puzzle in enumerate(puzzles):
            if puzzle.geometry not in counters:
                counters[puzzle.geometry] = make_counter(puzzle.geometry, args.counter)
            counter = counters[puzzle.geometry]
            count = counter.count(puzzle.grid, args.cap)
            if count.count == 0 and count.complete:
                count = _with_clash(count, puzzle.grid, puzzle.geometry)
            verdict = describe(count)
            if count.unique:
                if args.minimal:
                    spare = necessary_givens(counter, puzzle.grid).count(False)
                    if spare:
                        not_minimal += 1
                        verdict += f", not minimal ({spare} givens can go)"
                    else:
                        verdict += ", minimal"
                tally["unique"] += 1
                if args.proof is not None:
                    rules = provers.get(puzzle.geometry) or GridRules(puzzle.geometry)
                    provers[puzzle.geometry] = rules
                    write_proof(rules, puzzle.grid, args.proof, index, args.proof_format)
            else:
                tally["no solution" if count.count == 0 else "several solutions"] += 1
            checked += 1
            print(f"{puzzle.source}  {verdict}")
    except KeyboardInterrupt:  # the puzzles checked so far are reported
        print_summary(tally, checked, not_minimal, args, time.perf_counter() - start)
        done = f"{checked:,} of {len(puzzles):,} puzzles checked"
        print(f"benchmarks: interrupted: {done}", file=sys.stderr)
        return 130
    finally:
        for counter in counters.values():
            if isinstance(counter, PysatCounter):
                counter.close()
    print_summary(tally, checked, not_minimal, args, time.perf_counter() - start)
    return 0 if tally["unique"] == len(puzzles) and not not_minimal else 1


def _say_variant(file: str, opened, geometry: Geometry) -> None:
    """Say on stderr where the geometry came from when not from the flags."""
    if opened.variant_from in ("catalogue", "header", "file name"):
        print(
            f"benchmarks: {file}: {geometry.describe()} "
            f"(flags from the {opened.variant_from}: {opened.variant.flags() or 'none'})",
            file=sys.stderr,
        )


def _on_the_board(whole, opened, args: argparse.Namespace) -> int:
    """`main` for a plain file counted by the engine: the board counts a block of grids
    a call (and, with --minimal, the block's unique grids less each given), the lines
    are made from the arrays."""
    from solvers.core.board import Board, lookahead_for

    geometry, values = whole.geometry, whole.values
    _say_variant(args.file, opened, geometry)
    start = time.perf_counter()
    board, ahead = Board(geometry), lookahead_for(geometry)
    tally: dict[str, int] = {"unique": 0, "no solution": 0, "several solutions": 0}
    not_minimal = checked = 0
    out = sys.stdout
    try:
        for first in range(0, values.shape[0], BLOCK):
            block = values[first : first + BLOCK]
            counts = board.count(block, args.cap, DEFAULT_WORK, lookahead=ahead)
            spare = _spare_givens(board, block, counts, ahead) if args.minimal else None
            lines = []
            pairs = zip(counts.models.tolist(), counts.status.tolist(), strict=True)
            for i, (models, status) in enumerate(pairs):
                count = SolutionCount(models, status == STATUS_EXHAUSTED,
                                      over_budget=status == STATUS_BUDGET)  # fmt: skip
                if models == 0 and count.complete:
                    count = _with_clash(count, tuple(block[i].tolist()), geometry)
                verdict = describe(count)
                if count.unique:
                    tally["unique"] += 1
                    if spare is not None:
                        left = int(spare[i])
                        not_minimal += left > 0
                        verdict += f", not minimal ({left} givens can go)" if left else ", minimal"
                else:
                    tally["no solution" if models == 0 else "several solutions"] += 1
                lines.append(f"{whole.path}:{first + i + 1}  {verdict}\n")
            out.write("".join(lines))
            checked += len(lines)
    except KeyboardInterrupt:
        print_summary(tally, checked, not_minimal, args, time.perf_counter() - start)
        done = f"{checked:,} of {values.shape[0]:,} puzzles checked"
        print(f"benchmarks: interrupted: {done}", file=sys.stderr)
        return 130
    print_summary(tally, checked, not_minimal, args, time.perf_counter() - start)
    return 0 if tally["unique"] == values.shape[0] and not not_minimal else 1


def _with_clash(count: SolutionCount, grid, geometry: Geometry) -> SolutionCount:
    """A count of no solution, with the first clash of the givens when they clash."""
    return replace(count, clash=first_clash(grid, geometry))


def _spare_givens(board, block: np.ndarray, counts, lookahead: int) -> np.ndarray:
    """For each unique grid of the block, how many of its givens can go alone (the grid
    less that given still has one solution); 0 for the others.  One call of the board
    for all of them, a row a (grid, given v of cell c): the grid less c keeps one
    solution exactly when none has another value than v in c (one with v is the grid's),
    so each row is the search for a solution without v in c, which stops at the first."""
    unique = np.flatnonzero((counts.models == 1) & (counts.status == STATUS_EXHAUSTED))
    spare = np.zeros(block.shape[0], np.int64)
    most = max(1, VARIANT_ROWS // block.shape[1])  # grids whose variants fit VARIANT_ROWS
    for part in np.array_split(unique, -(-unique.size // most)) if unique.size else ():
        rows, cells = np.nonzero(block[part])
        variants = block[part][rows]
        given = variants[np.arange(rows.size), cells].astype(np.int64)
        variants[np.arange(rows.size), cells] = 0
        other = board.count(variants, 1, DEFAULT_WORK, lookahead=lookahead,
                            exclude=np.stack([cells, given], axis=1))  # fmt: skip
        can_go = (other.models == 0) & (other.status == STATUS_EXHAUSTED)
        np.add.at(spare, part[rows[can_go]], 1)
    return spare


def write_proof(rules: GridRules, grid, folder: str, index: int, proof_format: str) -> None:
    """Write DIR/N.cnf and DIR/N.drup (or N.lrat) for a unique puzzle (see the module
    docstring)."""
    cnf, proof = uniqueness_proof(rules, grid, proof_format)
    write_text(os.path.join(folder, f"{index}.cnf"), cnf)
    write_text(os.path.join(folder, f"{index}.{proof_format}"), proof)


def print_summary(
    tally: dict[str, int], checked: int, not_minimal: int, args: argparse.Namespace, seconds: float
) -> None:
    """Print the last line: how many puzzles have each number of solutions."""
    summary = ", ".join(f"{v} {k}" for k, v in tally.items())
    if args.minimal:
        summary += f"; {tally['unique'] - not_minimal} of the unique ones minimal"
    print(f"{checked:,} puzzles: {summary} ({args.counter} counter, {seconds:.2f} s)")


if __name__ == "__main__":
    raise SystemExit(main())
