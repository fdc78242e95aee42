"""Command line: `python -m solvers rate|explain|solve`.

- `rate GRIDS`: one tab-separated line per grid: index, grid, depth needed, seconds.
- `explain GRID`: the reasoning step by step, in Sudoku words.
- `solve FILE.cnf --solver up|fl|fl2|dpll`: SAT-competition output, exit 10/20/0.
Only argument parsing, I/O and exit codes live here: 1 for bad input (one line
`solvers: FILE:LINE: problem`), 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from encoder.cli_common import Puzzle, add_geometry_flags, load_one_puzzle, load_puzzles
from encoder.dimacs import read_cnf
from encoder.errors import InputError
from encoder.grids import describe_clash, find_clashes, format_line

PROG = "solvers"


def rate_parser(sub) -> None:
    p = sub.add_parser("rate", help="depth of reasoning each grid needs")
    p.add_argument("grids", metavar="GRIDS", help="a grid, a file of grids, or '-'")
    p.add_argument(
        "--max-depth",
        type=int,
        default=2,
        metavar="D",
        help="deepest nesting tried (default 2); deeper grids print >D",
    )
    p.add_argument(
        "--encoding", default="centrale", choices=("centrale", "minimal", "natural", "augmented")
    )
    p.add_argument(
        "--polarity",
        choices=("both", "positive"),
        default="both",
        help="hypotheses tried: cell=value and cell≠value (both), or cell=value only",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_geometry_flags(p)


def explain_parser(sub) -> None:
    p = sub.add_parser("explain", help="the reasoning step by step")
    p.add_argument("grid", metavar="GRID")
    p.add_argument("--index", type=int, metavar="N", help="puzzle N (0-based) of a file")
    p.add_argument("--max-depth", type=int, default=2, metavar="D")
    add_geometry_flags(p)


def solve_parser(sub) -> None:
    from solvers.backends import REGISTRY

    p = sub.add_parser("solve", help="solve a DIMACS CNF file")
    p.add_argument("cnf", metavar="FILE.cnf", help="DIMACS CNF, or '-' for stdin")
    p.add_argument(
        "--solver",
        default="dpll",
        choices=list(REGISTRY),
        metavar="NAME",
        help="up = unit propagation, fl/fl2/fl3 = failed literals at depth 1/2/3, "
        "dpll = complete search (default); PySAT: "
        + ", ".join(n for n in REGISTRY if n[-1].isdigit() and not n.startswith("fl"))
        + "; binaries: minisat, picosat, cadical, cryptominisat5",
    )
    p.add_argument(
        "--solver-cmd",
        metavar="CMD",
        help="run this DIMACS solver command instead ({cnf} = input file, "
        "{out} = result file it writes); its output is parsed",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="time limit for external binaries (default 60 s)",
    )


def run_rate(args: argparse.Namespace) -> int:
    from solvers.rating import Rater  # numba start-up only when needed

    puzzles = load_puzzles(args.grids, args, allow_conflicts=True)
    raters: dict = {}
    show_bar = not args.quiet and sys.stderr.isatty() and len(puzzles) > 1
    from tqdm import tqdm

    for index, puzzle in enumerate(
        tqdm(puzzles, disable=not show_bar, unit="grid", file=sys.stderr)
    ):
        key = puzzle.geometry
        if key not in raters:
            raters[key] = Rater(puzzle.geometry, args.encoding, args.polarity)
        rating = raters[key].rate(puzzle.grid, args.max_depth)
        print(
            f"{index}\t{format_line(puzzle.grid, puzzle.geometry)}\t{rating.depth_label()}\t"
            f"{rating.seconds:.6f}",
            flush=len(puzzles) < 1000,
        )
        if rating.status == "unsat":
            print(f"{PROG}: {puzzle.source}: no solution: {_why_unsat(puzzle)}", file=sys.stderr)
    return 0


def _why_unsat(puzzle: Puzzle) -> str:
    clashes = find_clashes(puzzle.grid, puzzle.geometry)
    if clashes:
        return describe_clash(clashes[0], puzzle.geometry)
    return "the givens lead to a contradiction (see `python -m solvers explain`)"


def run_explain(args: argparse.Namespace) -> int:
    from solvers.explain import explain_lines

    puzzle = load_one_puzzle(args.grid, args, args.index, allow_conflicts=True)
    for line in explain_lines(puzzle.grid, puzzle.geometry, args.max_depth):
        print(line)
    return 0


def run_solve(args: argparse.Namespace) -> int:
    from solvers.backends import make_backend
    from solvers.results import Status

    cnf = read_cnf(args.cnf)
    name = args.solver if args.solver_cmd is None else "command"
    backend = make_backend(name, timeout=args.timeout, command=args.solver_cmd)
    with backend.load(cnf.clauses, cnf.num_vars):
        result = backend.solve()
    print(f"c sudoku-sat solver {result.solver}: {result.seconds:.6f} s")
    for key in ("decisions", "conflicts", "propagations"):
        print(f"c {key}: {getattr(result, key)}")
    if result.reason:
        print(f"c reason: {result.reason}")
    words = {Status.SAT: "SATISFIABLE", Status.UNSAT: "UNSATISFIABLE", Status.UNKNOWN: "UNKNOWN"}
    print(f"s {words[result.status]}")
    if result.status is Status.SAT:
        print(model_lines(result.model), end="")
    return result.status.value


def model_lines(model: Sequence[int], width: int = 78) -> str:
    """Return `v ... 0` lines of at most `width` characters."""
    lines, current = [], "v"
    for token in [*map(str, model), "0"]:
        if len(current) + 1 + len(token) > width:
            lines.append(current)
            current = "v"
        current += " " + token
    lines.append(current)
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=f"python -m {PROG}", description="The home-grown SAT engine on Sudoku grids."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    rate_parser(sub)
    explain_parser(sub)
    solve_parser(sub)
    args = parser.parse_args(argv)
    commands = {"rate": run_rate, "explain": run_explain, "solve": run_solve}
    try:
        return commands[args.command](args)
    except InputError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
